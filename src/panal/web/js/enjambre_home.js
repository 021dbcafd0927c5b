// The new-table form of Enjambre Tácticas. The rule options are drawn from the server's list
// (/api/enjambre/config, read from panal.enjambre.Options itself): a number for each integer
// option, a checkbox for each switch, each labelled in the reader's language where a
// translation exists and by the library's own description otherwise, so an option added to the
// library appears here without any change to this page.

import { account } from "./account.js";
import { api } from "./api.js";
import { escapeHtml, keepingFocus } from "./dom.js";
import { colourFill } from "./enjambre_board.js";
import { enjambreConfig } from "./enjambre_page.js";
import { colourName, describeTableError } from "./enjambre_view.js";
import { hasKey, onChange, t } from "./i18n.js";
import { saveTableInvites, tableSeats } from "./storage.js";

const TIMEOUT_MINUTES = [1, 2, 5, 10, 30];

function optionLabel(option) {
  const key = `enj.option.${option.name}`;
  return hasKey("en", key) ? t(key) : escapeHtml(option.description);
}

function choiceLabel(option, choice) {
  const key = `enj.option.${option.name}.${choice}`;
  return hasKey("en", key) ? t(key) : escapeHtml(choice.replace(/_/g, " "));
}

export async function showTableForm(root, navigate) {
  const config = await enjambreConfig();
  const form = {
    players: 4,
    mode: "online",
    name: "",
    seats: ["person", "person", "heuristic", "heuristic", "heuristic", "heuristic"],
    match: false,
    timeout: "5",
    rated: false,
    options: Object.fromEntries(config.options.map((option) => [option.name, option.default])),
  };
  let busy = false;

  function seatColours() {
    const sectors = config.board.seats[String(form.players)];
    return sectors ? sectors.map((sector) => config.board.colours[sector]) : null;
  }

  function seatMarkup(seat) {
    const colours = seatColours();
    const swatch = colours ? `<span class="swatch" style="background:${colourFill(colours[seat])}"></span> ${colourName(colours[seat])}` : t("enj.new.seat", { n: seat + 1 });
    if (seat === 0) return `<li class="enj-seat-choice"><span>${swatch}</span><span>${t("enj.new.you")}</span></li>`;
    const choices = [["person", t("enj.new.person")], ...config.bots.map((level) => [level, t("enj.new.bot", { level: t(`enj.bot.${level}`) })])]
      .map(([value, text]) => `<option value="${value}" ${form.seats[seat] === value ? "selected" : ""}>${text}</option>`)
      .join("");
    return `<li class="enj-seat-choice"><label><span>${swatch}</span> <select name="seat" data-seat="${seat}" aria-label="${t("enj.new.seat", { n: seat + 1 })}">${choices}</select></label></li>`;
  }

  function optionMarkup(option) {
    const value = form.options[option.name];
    if (option.kind === "int") {
      return `<label class="enj-option-number">${optionLabel(option)} <input type="number" name="option" data-option="${option.name}" min="${option.minimum ?? 1}" max="50" value="${value}"></label>`;
    }
    if (option.kind === "choice") {
      const choices = option.choices
        .map((choice) => `<option value="${escapeHtml(choice)}" ${choice === value ? "selected" : ""}>${choiceLabel(option, choice)}</option>`)
        .join("");
      return `<label class="enj-option-choice">${optionLabel(option)} <select name="option" data-option="${option.name}">${choices}</select></label>`;
    }
    return `<label class="choice"><input type="checkbox" name="option" data-option="${option.name}" ${value ? "checked" : ""}> ${optionLabel(option)}</label>`;
  }

  function render() {
    const players = config.players.map((n) => `<option value="${n}" ${n === form.players ? "selected" : ""}>${n}</option>`).join("");
    const modes = config.modes
      .map((mode) => `<label class="choice"><input type="radio" name="mode" value="${mode}" ${form.mode === mode ? "checked" : ""}> ${t(`enj.new.mode.${mode}`)}</label>`)
      .join("");
    const seats = Array.from({ length: form.players }, (_, seat) => seatMarkup(seat)).join("");
    const timeouts = [["never", t("enj.new.timeout.never")], ...TIMEOUT_MINUTES.filter((m) => m * 60 >= config.min_replace_after).map((m) => [String(m), t("enj.new.timeout.minutes", { n: m })])]
      .map(([value, text]) => `<option value="${value}" ${form.timeout === value ? "selected" : ""}>${text}</option>`)
      .join("");
    const games = `<option value="one" ${form.match ? "" : "selected"}>${t("enj.new.games.one")}</option>
      <option value="match" ${form.match ? "selected" : ""}>${t("enj.new.games.match", { n: form.players })}</option>`;
    root.innerHTML = `
      <section class="form-page enj-new">
        <h1>${t("enj.new.title")}</h1>
        <form class="new-table">
          <p class="hint">${t("enj.new.help")}</p>
          <div class="row">
            <label>${t("enj.new.players")} <select name="players">${players}</select></label>
            <label>${t("enj.new.games")} <select name="games">${games}</select></label>
          </div>
          <fieldset><legend>${t("enj.new.mode")}</legend>${modes}</fieldset>
          <fieldset><legend>${t("enj.new.seats")}</legend><ol class="enj-seat-choices">${seats}</ol></fieldset>
          <div class="row">
            <label>${t("enj.new.name")} <input name="name" maxlength="40" autocomplete="nickname" value="${escapeHtml(form.name)}"></label>
            <label data-modes="online">${t("enj.new.timeout")} <select name="timeout">${timeouts}</select></label>
          </div>
          ${account().name ? `<label class="choice" data-modes="online"><input type="checkbox" name="rated" ${form.rated ? "checked" : ""}> ${t("enj.new.rated")}</label>` : ""}
          <fieldset class="rule-options"><legend>${t("enj.new.rules")}</legend>${config.options.map(optionMarkup).join("")}</fieldset>
          <p class="banner error" role="alert" data-form-error hidden></p>
          <div class="form-actions"><button type="submit" class="primary" data-action="open-table">${t("enj.new.start")}</button></div>
        </form>
      </section>`;
    for (const element of root.querySelectorAll("[data-modes]")) element.hidden = !element.dataset.modes.split(" ").includes(form.mode);
  }

  root.addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "players") {
      form.players = Number(input.value);
      keepingFocus(root, render);
    } else if (input.name === "mode") {
      form.mode = input.value;
      for (const element of root.querySelectorAll("[data-modes]")) element.hidden = !element.dataset.modes.split(" ").includes(form.mode);
    } else if (input.name === "seat") form.seats[Number(input.dataset.seat)] = input.value;
    else if (input.name === "games") form.match = input.value === "match";
    else if (input.name === "timeout") form.timeout = input.value;
    else if (input.name === "rated") form.rated = input.checked;
    else if (input.name === "option") {
      const option = config.options.find((item) => item.name === input.dataset.option);
      if (option.kind === "int") form.options[option.name] = Math.max(option.minimum ?? 1, Number(input.value) || option.default);
      else if (option.kind === "choice") form.options[option.name] = input.value;
      else form.options[option.name] = input.checked;
    }
  });
  root.addEventListener("input", (event) => {
    if (event.target.name === "name") form.name = event.target.value;
  });
  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    const seats = Array.from({ length: form.players }, (_, seat) => {
      if (seat === 0 || form.seats[seat] === "person") return { kind: "person" };
      return { kind: "bot", bot: form.seats[seat] };
    });
    const body = {
      players: form.players,
      mode: form.mode,
      seats,
      options: form.options,
      games: form.match ? form.players : 1,
      name: form.name.trim() || null,
      replace_after: form.mode === "online" && form.timeout !== "never" ? Number(form.timeout) * 60 : null,
      rated: form.mode === "online" && form.rated && Boolean(account().name),
    };
    busy = true;
    try {
      const created = await api("/api/enjambre/tables", { method: "POST", body });
      tableSeats.set(created.id, created.token);
      if (created.invites) saveTableInvites(created.id, created.invites);
      navigate(`/table/${created.id}`);
    } catch (failure) {
      const element = root.querySelector("[data-form-error]");
      element.textContent = describeTableError({ code: failure.code, message: failure.detail, details: failure.details });
      element.hidden = false;
    }
    busy = false;
  });
  const unsubscribe = onChange(() => keepingFocus(root, render));
  render();
  return unsubscribe;
}
