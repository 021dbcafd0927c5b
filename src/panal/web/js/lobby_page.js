// The lobby: post a challenge (pieces, clock, rated or casual, colour, takebacks; to everyone or
// to one named player), everyone's open challenges with a button to play each, the named
// challenges this account sent or received, and the games being played now, live.

import { account } from "./account.js";
import { api } from "./api.js";
import { chosenClock, clockChanged, clockPickerMarkup, controlWithSpeed, newClockChoice, showClockFields } from "./clock.js";
import { escapeHtml, keepingFocus } from "./dom.js";
import { describeError, getLook, onChange, t } from "./i18n.js";
import { expansionChoices, expansionsText, gameTypeOf } from "./game_type.js";
import { followLobby, forgetChallenge, myChallenges, rememberChallenge } from "./lobby_feed.js";
import { gameSeats } from "./storage.js";

// The colour the one who accepts plays, for the colour its creator chose.
const OTHER_COLOR = { white: "black", black: "white", random: "random" };

export function showLobbyPage(root, config, navigate) {
  const form = {
    expansions: new Set(["M", "L", "P"]),
    clock: newClockChoice("rt:180+2"),
    rated: Boolean(account().name),
    color: "random",
    takebacks: false,
    to: new URLSearchParams(location.search).get("to") || "",
  };
  let lists = { challenges: [], games: [], named: [] };
  let error = "";
  let busy = false;

  function challengeRow(challenge) {
    const mine = myChallenges().has(challenge.id) || (account().name && challenge.creator === account().name);
    const who = challenge.creator ? `${escapeHtml(challenge.creator)}${challenge.creator_rating ? ` (${challenge.creator_rating})` : ""}` : t("lobby.guest");
    const what = `${controlWithSpeed(challenge.clock)} · ${t(challenge.rated ? "game.rated" : "game.casual")}`;
    const action = mine
      ? `<span class="mine">${t("lobby.yours")}</span>
         <button type="button" data-action="cancel" data-challenge="${challenge.id}">${t("lobby.cancel")}</button>`
      : `<button type="button" class="primary" data-action="accept" data-challenge="${challenge.id}"
           aria-label="${escapeHtml(t("lobby.acceptLabel", { who: challenge.creator || t("lobby.guest"), what }))}"
           ${challenge.rated && !account().name ? "disabled" : ""}>${t("lobby.accept")}</button>`;
    return `<li class="challenge" data-challenge-row="${challenge.id}">
        <span class="who">${who}</span>
        <span class="what">${escapeHtml(what)}</span>
        <span class="pieces">${escapeHtml(expansionsText(challenge.game_type) || "—")} · ${t("lobby.color")}: ${t(`new.color.${mine ? challenge.color : OTHER_COLOR[challenge.color]}`)}</span>
        <span class="act">${action}</span></li>`;
  }

  /** A named challenge: the addressee accepts or declines it, its sender withdraws it. */
  function namedRow(challenge) {
    const incoming = challenge.to === account().name;
    const what = `${controlWithSpeed(challenge.clock)} · ${t(challenge.rated ? "game.rated" : "game.casual")}${challenge.takebacks ? ` · ${t("lobby.withTakebacks")}` : ""}`;
    const color = incoming ? OTHER_COLOR[challenge.color] : challenge.color;
    const who = incoming ? t("lobby.from", { who: challenge.creator }) : t("lobby.toWhom", { who: challenge.to });
    const action = incoming
      ? `<button type="button" class="primary" data-action="accept" data-challenge="${challenge.id}">${t("lobby.accept")}</button>
         <button type="button" data-action="decline" data-challenge="${challenge.id}">${t("lobby.decline")}</button>`
      : `<button type="button" data-action="cancel" data-challenge="${challenge.id}">${t("lobby.withdraw")}</button>`;
    return `<li class="challenge named" data-named="${incoming ? "incoming" : "sent"}" data-challenge-row="${challenge.id}">
        <span class="who">${escapeHtml(who)}</span>
        <span class="what">${escapeHtml(what)}</span>
        <span class="pieces">${escapeHtml(expansionsText(challenge.game_type) || "—")} · ${t("lobby.color")}: ${t(`new.color.${color}`)}</span>
        <span class="act">${action}</span></li>`;
  }

  function namedSection(kind, title, challenges) {
    if (!challenges.length) return "";
    return `<section class="lobby-named" data-named-list="${kind}" aria-labelledby="named-${kind}">
        <h2 id="named-${kind}">${t(title)}</h2>
        <ul class="lobby-list">${challenges.map(namedRow).join("")}</ul></section>`;
  }

  function gameRow(game) {
    const names = `${escapeHtml(game.white || t("lobby.guest"))} – ${escapeHtml(game.black || t("lobby.guest"))}`;
    const what = `${controlWithSpeed(game.clock)} · ${t(game.rated ? "game.rated" : "game.casual")}`;
    return `<li class="playing-game"><span class="who">${names}</span><span class="what">${escapeHtml(what)}</span>
        <a class="button" href="/game/${game.id}?watch=1" data-link>${t("lobby.watch")}</a></li>`;
  }

  function renderLists() {
    const section = root.querySelector(".lobby-lists");
    const forYou = root.querySelector(".lobby-for-you");
    if (!section || !forYou) return;
    const named = lists.named || [];
    const incoming = named.filter((c) => c.to === account().name);
    const sent = named.filter((c) => c.to !== account().name);
    // A challenge for this player comes first, above the form: on a phone, on the first screen.
    keepingFocus(forYou, () => {
      forYou.innerHTML = namedSection("incoming", "lobby.forYou", incoming);
    });
    keepingFocus(section, () => {
      section.innerHTML = `
        ${namedSection("sent", "lobby.sent", sent)}
        <section class="lobby-challenges" aria-labelledby="open-title">
          <h2 id="open-title">${t("lobby.open")}</h2>
          ${lists.challenges.length ? `<ul class="lobby-list">${lists.challenges.map(challengeRow).join("")}</ul>` : `<p class="hint">${t("lobby.none")}</p>`}
        </section>
        <section class="lobby-games" aria-labelledby="playing-title">
          <h2 id="playing-title">${t("lobby.playing")}</h2>
          ${lists.games.length ? `<ul class="lobby-list">${lists.games.map(gameRow).join("")}</ul>` : `<p class="hint">${t("lobby.nonePlaying")}</p>`}
        </section>`;
    });
  }

  function render() {
    const signedIn = Boolean(account().name);
    if (!signedIn) form.rated = false;
    const colors = ["random", "white", "black"]
      .map((color) => `<option value="${color}" ${form.color === color ? "selected" : ""}>${t(`new.color.${color}`)}</option>`)
      .join("");
    keepingFocus(root, () => {
      root.innerHTML = `
        <section class="lobby-page">
          <h1>${t("lobby.title")}</h1>
          <div class="lobby-for-you"></div>
          <form class="challenge-form">
            <h2>${t("lobby.create")}</h2>
            <fieldset><legend>${t("lobby.pieces")}</legend><div class="inline-choices">${expansionChoices(form.expansions)}</div></fieldset>
            ${clockPickerMarkup(config, form.clock)}
            <fieldset><legend>${t("lobby.rated")} / ${t("lobby.casual")}</legend><div class="inline-choices">
              <label class="choice"><input type="radio" name="rated" value="yes" ${form.rated ? "checked" : ""} ${signedIn ? "" : "disabled"}> ${t("lobby.rated")}</label>
              <label class="choice"><input type="radio" name="rated" value="no" ${form.rated ? "" : "checked"}> ${t("lobby.casual")}</label></div>
              ${signedIn ? "" : `<p class="hint"><a href="/signin" data-link>${t("nav.signIn")}</a> · ${t("lobby.ratedHelp")}</p>`}
            </fieldset>
            <div class="row"><label>${t("lobby.color")} <select name="color">${colors}</select></label></div>
            <div class="inline-choices"><label class="choice"><input type="checkbox" name="takebacks" ${form.takebacks ? "checked" : ""}> ${t("lobby.takebacks")}</label></div>
            ${signedIn ? `<div class="row"><label>${t("lobby.to")} <input name="to" value="${escapeHtml(form.to)}" maxlength="20" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="to-help"></label>
              <small id="to-help" class="hint">${t("lobby.toHelp")}</small></div>` : ""}
            <p class="banner error" role="alert" data-form-error ${error ? "" : "hidden"}>${escapeHtml(error)}</p>
            <div class="form-actions"><button type="submit" class="primary" data-action="post">${t("lobby.post")}</button></div>
            <p class="hint">${t("lobby.friend")}</p>
          </form>
          <div class="lobby-lists"></div>
        </section>`;
    });
    showClockFields(root, form.clock);
    renderLists();
  }

  function showError(failure) {
    error = failure ? describeError({ code: failure.code, message: failure.detail, details: failure.details }) : "";
    const banner = root.querySelector("[data-form-error]");
    if (banner) {
      banner.textContent = error;
      banner.hidden = !error;
    }
  }

  root.addEventListener("change", (event) => {
    const input = event.target;
    if (clockChanged(form.clock, input)) {
      if (!chosenClock(form.clock) && form.rated) {
        form.rated = false; // a rated game needs a clock
        root.querySelector("input[name=rated][value=no]").checked = true;
      }
      showClockFields(root, form.clock);
    } else if (input.name === "expansion") input.checked ? form.expansions.add(input.value) : form.expansions.delete(input.value);
    else if (input.name === "rated") form.rated = input.value === "yes";
    else if (input.name === "color") form.color = input.value;
    else if (input.name === "takebacks") form.takebacks = input.checked;
  });

  root.addEventListener("input", (event) => {
    if (event.target.name === "to") form.to = event.target.value;
  });

  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    showError(null);
    try {
      const posted = await api("/api/challenges", {
        method: "POST",
        body: {
          game_type: gameTypeOf(form.expansions),
          look: getLook(),
          clock: chosenClock(form.clock),
          rated: form.rated,
          color: form.color,
          takebacks: form.takebacks,
          ...(form.to.trim() && account().name ? { to: form.to.trim() } : {}),
        },
      });
      rememberChallenge(posted.id, posted.token);
      const list = posted.challenge.to ? "named" : "challenges";
      lists = { ...lists, [list]: [posted.challenge, ...(lists[list] || []).filter((c) => c.id !== posted.id)] };
      renderLists();
    } catch (failure) {
      showError(failure);
    } finally {
      busy = false;
    }
  });

  root.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-challenge]");
    if (!button || button.disabled) return;
    const id = button.dataset.challenge;
    showError(null);
    button.disabled = true;
    try {
      if (button.dataset.action === "accept") {
        const game = await api(`/api/challenges/${encodeURIComponent(id)}/accept`, { method: "POST" });
        gameSeats.set(game.id, game.token);
        navigate(`/game/${game.id}`);
        return;
      }
      if (button.dataset.action === "decline") {
        await api(`/api/challenges/${encodeURIComponent(id)}/decline`, { method: "POST" });
      } else {
        const token = myChallenges().get(id);
        await api(`/api/challenges/${encodeURIComponent(id)}/cancel`, { method: "POST", body: token ? { token } : {} });
        forgetChallenge(id);
      }
      const others = (list) => (list || []).filter((c) => c.id !== id);
      lists = { ...lists, challenges: others(lists.challenges), named: others(lists.named) };
      renderLists();
    } catch (failure) {
      button.disabled = false;
      showError(failure);
    }
  });

  render();
  const unfollow = followLobby((message) => {
    lists = message;
    renderLists();
  });
  const unsubscribe = onChange(render);
  return () => {
    unfollow();
    unsubscribe();
  };
}
