// Tournaments: the list with a form to create one (/tournaments), and a tournament's page
// (/tournament/<id>): registration, the pairings of each round and the standings, live through
// /ws/tournaments/<id>. Phone first: one column, tables that scroll inside themselves.

import { account } from "./account.js";
import { api } from "./api.js";
import { chosenClock, clockChanged, clockPickerMarkup, controlWithSpeed, newClockChoice, showClockFields } from "./clock.js";
import { drawPart, escapeHtml, keepingFocus } from "./dom.js";
import { expansionChoices, expansionsText, gameTypeOf } from "./game_type.js";
import { needsMet, ruleOptionMarkup, ruleOptions } from "./home_page.js";
import { bugName, describeError, hasKey, onChange, playerName, t } from "./i18n.js";
import { changedRules, ruleTexts } from "./rules.js";
import { ReconnectingSocket } from "./socket.js";
import { tableSeats } from "./storage.js";

// "series": an Enjambre series, one table of 2 to 6 players a round (no clock, standard rules)
const FORMATS = ["swiss", "round_robin", "arena", "series"];
const SERIES_MAX_PLAYERS = 6;
const RESULT_TEXT = { WhiteWins: "1–0", BlackWins: "0–1", Draw: "½–½" };

function formatText(tournament) {
  const name = t(`tour.format.${tournament.format}`);
  if (tournament.format === "round_robin" && tournament.cycles === 2) return `${name} ×2`;
  if (tournament.format === "arena") return `${name} · ${t("tour.minutesValue", { n: tournament.minutes })}`;
  return name;
}

function points(value) {
  return String(value).replace(".5", "½").replace(/^0½$/, "½");
}

function errorText(failure) {
  // A refused rule option is named in the page's words, and so are the pieces it is about.
  const details = { ...(failure.details || {}) };
  if (details.option && hasKey("en", `option.${details.option}`)) details.option = t(`option.${details.option}`);
  if (details.pieces) details.pieces = [...details.pieces].map((letter) => bugName(letter)).join(", ");
  return describeError({ code: failure.code, message: failure.detail, details });
}

/** The clock, or for an Enjambre series (its tables have none) the game's name. */
function clockText(tournament) {
  return tournament.format === "series" ? escapeHtml(t("tour.enjambre")) : controlWithSpeed(tournament.clock);
}

/** The list of tournaments and, for an account, the form to create one. */
export function showTournamentsPage(root, config, navigate) {
  const options = ruleOptions(config);
  const form = {
    name: "",
    format: "swiss",
    clock: newClockChoice("rt:180+2"),
    rated: false,
    cycles: 1,
    rounds: 5,
    minutes: 30,
    maxPlayers: 8,
    start: "manual",
    expansions: new Set(["M", "L", "P"]),
    rules: Object.fromEntries(options.map((option) => [option.field, option.initial])),
  };
  let listed = [];
  let error = "";

  function row(tournament) {
    return `<li class="tournament-row" data-tournament-row="${tournament.id}">
        <a href="/tournament/${tournament.id}" data-link class="who">${escapeHtml(tournament.name)}</a>
        <span class="what">${escapeHtml(formatText(tournament))} · ${clockText(tournament)} · ${t(tournament.rated ? "game.rated" : "game.casual")}</span>
        <span class="pieces">${t(`tour.status.${tournament.status}`)} · ${t("tour.playersCount", { n: tournament.player_count, max: tournament.max_players })}</span>
      </li>`;
  }

  const listHtml = () =>
    listed.length ? `<ul class="lobby-list tournament-list">${listed.map(row).join("")}</ul>` : `<p class="hint">${t("tour.none")}</p>`;

  function render() {
    const signedIn = Boolean(account().name);
    const series = form.format === "series";
    const formats = FORMATS.map((f) => `<option value="${f}" ${form.format === f ? "selected" : ""}>${t(`tour.format.${f}`)}</option>`).join("");
    keepingFocus(root, () => {
      root.innerHTML = `
        <section class="tournaments-page">
          <h1>${t("tour.title")}</h1>
          <p class="compete-links"><a href="/leaderboard" data-link>${t("community.leaderboard")}</a> · <a href="/ladder" data-link>${t("ladder.title")}</a></p>
          ${
            signedIn
              ? `<form class="tournament-form">
              <h2>${t("tour.create")}</h2>
              <div class="row"><label>${t("tour.name")} <input name="name" maxlength="60" required value="${escapeHtml(form.name)}"></label></div>
              <div class="row"><label>${t("tour.format")} <select name="format">${formats}</select></label></div>
              <div class="row" ${form.format === "round_robin" ? "" : "hidden"}><label>${t("tour.cycles")} <select name="cycles">
                <option value="1" ${form.cycles === 1 ? "selected" : ""}>${t("tour.single")}</option>
                <option value="2" ${form.cycles === 2 ? "selected" : ""}>${t("tour.double")}</option></select></label></div>
              <p class="hint" ${series ? "" : "hidden"} data-series-help>${t("tour.seriesHelp")}</p>
              <div class="row" ${form.format === "swiss" || series ? "" : "hidden"}><label>${t("tour.rounds")} <input name="rounds" type="number" min="1" max="20" value="${form.rounds}"></label></div>
              <div class="row" ${form.format === "arena" ? "" : "hidden"}><label>${t("tour.minutes")} <input name="minutes" type="number" min="1" max="720" value="${form.minutes}"></label></div>
              <div ${series ? "hidden" : ""} data-hive-settings>
              ${clockPickerMarkup(config, form.clock, { allowUntimed: false })}
              <fieldset><legend>${t("new.pieces")}</legend>${expansionChoices(form.expansions)}</fieldset>
              <fieldset class="rule-options"><legend>${t("new.rules")}</legend>${options
                .filter((option) => needsMet(option.needs, form.expansions))
                .map((option) => ruleOptionMarkup(option, form.rules[option.field]))
                .join("")}</fieldset>
              </div>
              <div class="row"><label>${t("tour.maxPlayers")} <input name="max_players" type="number" min="2" max="${series ? SERIES_MAX_PLAYERS : 64}" value="${form.maxPlayers}"></label></div>
              <div class="row"><label class="choice"><input type="checkbox" name="rated" ${form.rated ? "checked" : ""}> ${t("lobby.rated")}</label></div>
              <div class="row"><label>${t("tour.start")} <select name="start">
                <option value="manual" ${form.start === "manual" ? "selected" : ""}>${t("tour.startManual")}</option>
                <option value="full" ${form.start === "full" ? "selected" : ""}>${t("tour.startFull")}</option></select></label></div>
              <p class="banner error" role="alert" data-form-error ${error ? "" : "hidden"}>${escapeHtml(error)}</p>
              <div class="form-actions"><button type="submit" class="primary" data-action="create">${t("tour.createButton")}</button></div>
            </form>`
              : `<p class="hint"><a href="/signin" data-link>${t("nav.signIn")}</a> · ${t("tour.signInHelp")}</p>`
          }
          <h2>${t("tour.list")}</h2>
          <div data-tournament-list>${listHtml()}</div>
        </section>`;
    });
    if (!series) showClockFields(root, form.clock);
  }

  async function refresh() {
    try {
      listed = (await api("/api/tournaments")).tournaments;
    } catch {
      listed = [];
    }
    // only the list: the form as the player left it (typed, chosen, focused) stays
    drawPart(root, "[data-tournament-list]", listHtml(), render);
  }

  // What is typed is kept in the form's state, so that drawing the form again keeps it.
  root.addEventListener("input", (event) => {
    const input = event.target;
    if (input.name === "name") form.name = input.value;
    else if (input.name === "rounds") form.rounds = Number(input.value);
    else if (input.name === "minutes") form.minutes = Number(input.value);
    else if (input.name === "max_players") form.maxPlayers = Number(input.value);
  });
  root.addEventListener("change", (event) => {
    const input = event.target;
    if (clockChanged(form.clock, input)) return showClockFields(root, form.clock);
    if (input.name === "format") {
      form.format = input.value;
      if (form.format === "series") form.maxPlayers = Math.min(form.maxPlayers, SERIES_MAX_PLAYERS);
    }
    else if (input.name === "cycles") form.cycles = Number(input.value);
    else if (input.name === "start") form.start = input.value;
    else if (input.name === "rated") form.rated = input.checked;
    else if (input.name === "expansion") input.checked ? form.expansions.add(input.value) : form.expansions.delete(input.value);
    else if (input.name === "rule") form.rules[input.dataset.field] = input.type === "checkbox" ? input.checked : input.value;
    else return;
    render(); // the fields of the chosen format, the rules of the chosen pieces
  });
  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    const body = {
      name: String(data.get("name") || ""),
      rated: form.rated,
      max_players: Number(data.get("max_players")),
      start_when_full: form.start === "full",
    };
    if (form.format === "series") Object.assign(body, { format: "series", game_type: "Enjambre", rounds: Number(data.get("rounds")) });
    else Object.assign(body, {
      format: form.format,
      clock: chosenClock(form.clock),
      game_type: gameTypeOf(form.expansions),
      // the rules about pieces not in the game are left out: they would not apply
      options: Object.fromEntries(options.filter((option) => needsMet(option.needs, form.expansions)).map((option) => [option.field, form.rules[option.field]])),
    });
    if (form.format === "round_robin") body.cycles = form.cycles;
    if (form.format === "swiss") body.rounds = Number(data.get("rounds"));
    if (form.format === "arena") body.minutes = Number(data.get("minutes"));
    try {
      const created = await api("/api/tournaments", { method: "POST", body });
      navigate(`/tournament/${created.id}`);
    } catch (failure) {
      error = errorText(failure);
      const banner = root.querySelector("[data-form-error]");
      banner.textContent = error;
      banner.hidden = false;
    }
  });
  const stop = onChange(render);
  render();
  refresh();
  return () => stop?.();
}

/** One tournament: what it is, registration, the pairings by round and the standings. */
export function showTournamentPage(root, tournamentId, navigate, config) {
  let state = null;
  let error = "";

  function board(b) {
    const result = b.game === null ? (b.black === null ? t("tour.bye") : t("tour.forfeit")) : RESULT_TEXT[b.result] || t("tour.playing");
    const link = b.game ? `<a href="/game/${b.game}" data-link>${escapeHtml(result)}</a>` : escapeHtml(result);
    return `<tr><td>${escapeHtml(b.white || "")}</td><td>${b.black === null ? "—" : escapeHtml(b.black)}</td><td class="result">${link}</td></tr>`;
  }

  function seat(s, index) {
    // an Enjambre series' seat: its player, place once the table is over; mine: take it
    const mine = s.name === account().name && s.place === null;
    const place = s.place === null ? t("tour.playing") : t("tour.placeN", { n: s.place });
    const go = mine
      ? `<button type="button" class="primary" data-take-seat="${escapeHtml(s.table)}">${t("tour.takeSeat")}</button>`
      : `<a href="/table/${encodeURIComponent(s.table)}" data-link>${escapeHtml(place)}</a>`;
    return `<tr><td>${index + 1}</td><td>${escapeHtml(playerName(s.name || ""))}</td><td class="result">${go}</td></tr>`;
  }

  function seriesRound(r) {
    return `<section class="tournament-round" data-round="${r.round}">
          <h3>${t("tour.round", { n: r.round })}</h3>
          <div class="table-scroll"><table class="pairings"><thead><tr><th>${t("tour.seat")}</th><th>${t("tour.player")}</th><th>${t("tour.placeTitle")}</th></tr></thead>
          <tbody>${r.boards.map(seat).join("")}</tbody></table></div></section>`;
  }

  function pairings() {
    if (!state.pairings.length) return `<p class="hint">${t("tour.noPairings")}</p>`;
    if (state.format === "series") return state.pairings.slice().reverse().map(seriesRound).join("");
    return state.pairings
      .slice()
      .reverse()
      .map(
        (r) => `<section class="tournament-round" data-round="${r.round}">
          <h3>${t("tour.round", { n: r.round })}</h3>
          <div class="table-scroll"><table class="pairings"><thead><tr><th>${t("tour.white")}</th><th>${t("tour.black")}</th><th>${t("tour.result")}</th></tr></thead>
          <tbody>${r.boards.map(board).join("")}</tbody></table></div></section>`,
      )
      .join("");
  }

  function standings() {
    const breaks = state.tie_breaks.map((name) => `<th>${t(`tour.tb.${name}`)}</th>`).join("");
    const rows = state.standings
      .map(
        (s) => `<tr data-standing="${escapeHtml(s.name)}"><td>${s.rank}</td><td>${escapeHtml(playerName(s.name))}${s.withdrawn ? ` <span class="hint">(${t("tour.withdrawn")})</span>` : ""}</td>
          <td class="score">${points(s.score)}</td>${state.tie_breaks.map((name) => `<td>${points(s[name])}</td>`).join("")}</tr>`,
      )
      .join("");
    return `<div class="table-scroll"><table class="standings"><thead><tr><th>#</th><th>${t("tour.player")}</th><th>${t("tour.points")}</th>${breaks}</tr></thead>
      <tbody>${rows}</tbody></table></div>`;
  }

  function actions() {
    if (!account().name) return `<p class="hint"><a href="/signin" data-link>${t("nav.signIn")}</a> · ${t("tour.signInHelp")}</p>`;
    const open = state.status === "registering" || (state.format === "arena" && state.status === "running");
    const buttons = [];
    if (state.registered && state.status !== "finished") buttons.push(`<button type="button" data-action="withdraw">${t("tour.withdraw")}</button>`);
    else if (open) buttons.push(`<button type="button" class="primary" data-action="join">${t("tour.join")}</button>`);
    if (state.creator_view && state.status === "registering") buttons.push(`<button type="button" data-action="start">${t("tour.startNow")}</button>`);
    return `<div class="form-actions">${buttons.join("")}</div>`;
  }

  function rulesLine() {
    const texts = ruleTexts(changedRules(config, state.options));
    return texts.length ? `<p class="tournament-rules" data-tournament-rules>${t("new.rules")}: ${texts.map(escapeHtml).join(" · ")}</p>` : "";
  }

  function render() {
    if (!state) {
      root.innerHTML = error ? `<p class="banner error" role="alert">${escapeHtml(error)}</p>` : "";
      return;
    }
    const roundText = state.rounds ? t("tour.roundOf", { n: state.round, total: state.rounds }) : t("tour.round", { n: state.round });
    keepingFocus(root, () => {
      root.innerHTML = `
        <section class="tournament-page" data-status="${state.status}">
          <h1>${escapeHtml(state.name)}</h1>
          <p class="tournament-facts">${escapeHtml(formatText(state))} · ${clockText(state)} · ${t(state.rated ? "game.rated" : "game.casual")}${
            expansionsText(state.game_type) ? ` · ${escapeHtml(expansionsText(state.game_type))}` : ""
          }<br>
            <span data-tournament-status>${t(`tour.status.${state.status}`)}</span>${state.status === "running" ? ` · ${roundText}` : ""}
            · ${t("tour.playersCount", { n: state.player_count, max: state.max_players })} · ${t(state.format === "series" ? "tour.noShowSeries" : "tour.noShow", { n: Math.round(state.no_show_seconds) })}</p>
          ${rulesLine()}
          ${actions()}
          <p class="banner error" role="alert" data-form-error ${error ? "" : "hidden"}>${escapeHtml(error)}</p>
          <h2>${t("tour.standings")}</h2>
          ${standings()}
          <h2>${t("tour.pairings")}</h2>
          ${pairings()}
        </section>`;
    });
  }

  async function load() {
    try {
      state = await api(`/api/tournaments/${tournamentId}`);
      error = "";
    } catch (failure) {
      error = errorText(failure);
    }
    render();
  }

  root.addEventListener("click", async (event) => {
    const take = event.target.closest("button[data-take-seat]");
    if (take) {
      // the account's seat at its Enjambre table: a token for it, then the table's page
      const tableId = take.dataset.takeSeat;
      try {
        const taken = await api(`/api/enjambre/tables/${encodeURIComponent(tableId)}/seats/mine`, { method: "POST" });
        tableSeats.set(tableId, taken.token);
        navigate(`/table/${tableId}`);
      } catch (failure) {
        error = errorText(failure);
        render();
      }
      return;
    }
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    try {
      state = await api(`/api/tournaments/${tournamentId}/${button.dataset.action}`, { method: "POST" });
      error = "";
    } catch (failure) {
      error = errorText(failure);
    }
    render();
  });
  // The socket's states carry no reader: who is registered is asked again over HTTP.
  const socket = new ReconnectingSocket(`/ws/tournaments/${tournamentId}`, {
    onMessage: (message) => {
      if (message.type === "tournament") load();
    },
  });
  const stop = onChange(render);
  load();
  return () => {
    socket.close();
    stop?.();
  };
}
