// The new-game form and the import form.
//
// Each form is drawn once (and again only when the language or the look changes, keeping the
// keyboard focus); a choice in the form changes the form's state and shows or hides the parts
// that depend on it, without redrawing anything, so the focus stays where the player is.

import { api } from "./api.js";
import { chosenClock, clockChanged, clockPickerMarkup, newClockChoice, showClockFields } from "./clock.js";
import { escapeHtml, keepingFocus } from "./dom.js";
import { bugName, colorName, describeError, getLanguage, getLook, hiveBugName, onChange, t } from "./i18n.js";
import { EXPANSIONS, gameTypeOf } from "./game_type.js";
import { showMyGames } from "./my_games.js";
import { pieceSvg } from "./pieces.js";
import { gameSeats } from "./storage.js";

const LEGEND = ["Q", "B", "G", "S", "A", "M", "L", "P", "D"];

/**
 * The rule options of the new-game form, in the order shown: the server lists them
 * (GET /api/config `rule_options`, made from panal.hive.OPTION_SPECS, which docs/rules.md
 * explains), so a new option needs only its texts here. Each becomes an entry:
 * - `field`: its name in the `options` of POST /api/games;
 * - `label`: the i18n key of its text, `option.${name}`;
 * - `initial`: its value when the form opens, the default (true/false for a checkbox);
 * - `choices` (or null): the values of a select instead of a checkbox, each labelled by the
 *   i18n key `${label}.${value}`;
 * - `needs`: the extra pieces it is about (UHP letters, "" for none); it is shown only when all
 *   of them are chosen, and sends its initial value otherwise.
 */
export function ruleOptions(config) {
  return config.rule_options.map((option) => ({
    field: option.name,
    label: `option.${option.name}`,
    initial: option.default,
    choices: option.choices,
    needs: option.needs,
  }));
}

export function needsMet(needs, expansions) {
  return [...needs].every((letter) => expansions.has(letter));
}

function levelOptions(config, selected) {
  return config.ai_levels
    .map((level) => `<option value="${level}" ${level === selected ? "selected" : ""}>${t(`level.${level}`)} — ${t(`level.${level}.about`)}</option>`)
    .join("");
}

function colorOptions(selected) {
  return ["white", "black", "random"]
    .map((color) => `<option value="${color}" ${color === selected ? "selected" : ""}>${t(`new.color.${color}`)}</option>`)
    .join("");
}

export function ruleOptionMarkup(option, value) {
  const shownFor = option.needs ? `data-needs="${option.needs}"` : "";
  if (option.choices) {
    const choices = option.choices
      .map((choice) => `<option value="${choice}" ${choice === value ? "selected" : ""}>${t(`${option.label}.${choice}`)}</option>`)
      .join("");
    return `<label class="choice select-choice" ${shownFor}>${t(option.label)} <select name="rule" data-field="${option.field}">${choices}</select></label>`;
  }
  return `<label class="choice" ${shownFor}><input type="checkbox" name="rule" value="${option.field}" data-field="${option.field}" ${value ? "checked" : ""}> ${t(option.label)}</label>`;
}

/** Show the parts of a form that apply to its state: `data-modes` lists the modes a part is for,
 *  `data-needs` the extra pieces it is about (all must be chosen). */
function showApplicable(root, mode, expansions = new Set()) {
  for (const element of root.querySelectorAll("[data-modes]")) element.hidden = !element.dataset.modes.split(" ").includes(mode);
  for (const element of root.querySelectorAll("[data-needs]")) element.hidden = !needsMet(element.dataset.needs, expansions);
}

export function showNewGamePage(root, config, navigate) {
  const options = ruleOptions(config);
  const form = {
    mode: config.ai_levels.length ? "ai" : "hotseat",
    level: config.ai_levels.includes("medium") ? "medium" : config.ai_levels[0],
    color: "white",
    expansions: new Set(["M", "L", "P"]),
    rules: Object.fromEntries(options.map((option) => [option.field, option.initial])),
    clock: newClockChoice("none"),
    takebacks: false,
  };
  let busy = false;

  function render() {
    const modes = ["ai", "hotseat", "online"]
      .map(
        (mode) => `<label class="choice"><input type="radio" name="mode" value="${mode}" ${form.mode === mode ? "checked" : ""}
            ${mode === "ai" && !config.ai_levels.length ? "disabled" : ""}> ${t(`new.mode.${mode}`)}</label>`,
      )
      .join("");
    const pieces = EXPANSIONS.map(
      (letter) => `<label class="choice piece-choice"><input type="checkbox" name="expansion" value="${letter}" ${form.expansions.has(letter) ? "checked" : ""}>
          ${pieceSvg(`w${letter}`, getLook(), 34)} ${bugName(letter)}</label>`,
    ).join("");
    const rules = options.map((option) => ruleOptionMarkup(option, form.rules[option.field])).join("");
    const legend = LEGEND.map(
      // Another look's pieces also say which Hive piece each one is (the Escudo is the queen).
      (letter) => `<li>${pieceSvg(`w${letter}`, getLook(), 40)}${pieceSvg(`b${letter}`, getLook(), 40)}<span>${bugName(letter)}${
        getLook() === "classic" ? "" : ` <span class="hive-name" data-hive-name>(${hiveBugName(letter)})</span>`
      }</span></li>`,
    ).join("");
    root.innerHTML = `
      <section class="form-page">
        <h1>${t("new.title")}</h1>
        <div class="my-games-box" data-my-games></div>
        <p class="other-game"><a href="/enjambre" data-link>${t("new.enjambre")}</a>
          · <a href="/my-games" data-link data-my-games-link>${t("nav.mygames")}</a>
          · <a href="/lobby" data-link data-challenge-by-name>${t("new.challengeByName")}</a></p>
        <form class="new-game">
          <fieldset><legend>${t("new.opponent")}</legend>${modes}
            ${config.ai_levels.length ? "" : `<p class="hint">${t("new.noai")}</p>`}</fieldset>
          <div class="row">
            <label data-modes="ai">${t("new.level")}
              <select name="level">${levelOptions(config, form.level)}</select></label>
            <label data-modes="ai online">${t("new.color")}
              <select name="color">${colorOptions(form.color)}</select></label>
          </div>
          <fieldset><legend>${t("new.pieces")}</legend>${pieces}</fieldset>
          ${clockPickerMarkup(config, form.clock)}
          <div class="inline-choices" data-modes="online"><label class="choice"><input type="checkbox" name="takebacks" ${form.takebacks ? "checked" : ""}> ${t("lobby.takebacks")}</label></div>
          <fieldset class="rule-options"><legend>${t("new.rules")}</legend>${rules}</fieldset>
          <p class="banner error" role="alert" data-form-error hidden></p>
          <div class="form-actions"><button type="submit" class="primary" data-action="start">${t("new.start")}</button></div>
        </form>
        <aside class="legend" aria-label="${t("nav.look")}"><h2>${t(`look.${getLook()}`)}: ${colorName(0)} / ${colorName(1)}</h2><ul>${legend}</ul></aside>
      </section>`;
    showApplicable(root, form.mode, form.expansions);
    showClockFields(root, form.clock);
    showMyGames(root.querySelector("[data-my-games]"), { quiet: true });
  }

  root.addEventListener("change", (event) => {
    const input = event.target;
    if (clockChanged(form.clock, input)) showClockFields(root, form.clock);
    else if (input.name === "mode") form.mode = input.value;
    else if (input.name === "level") form.level = input.value;
    else if (input.name === "color") form.color = input.value;
    else if (input.name === "takebacks") form.takebacks = input.checked;
    else if (input.name === "expansion") input.checked ? form.expansions.add(input.value) : form.expansions.delete(input.value);
    else if (input.name === "rule") form.rules[input.dataset.field] = input.type === "checkbox" ? input.checked : input.value;
    showApplicable(root, form.mode, form.expansions);
  });
  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    const body = {
      mode: form.mode,
      game_type: gameTypeOf(form.expansions),
      look: getLook(),
      color: form.mode === "hotseat" ? "white" : form.color,
    };
    body.options = {};
    for (const option of options) {
      const applies = needsMet(option.needs, form.expansions);
      body.options[option.field] = applies ? form.rules[option.field] : option.initial;
    }
    if (form.mode === "ai") body.ai_level = form.level;
    if (form.mode === "online") body.takebacks = form.takebacks;
    const clock = chosenClock(form.clock);
    if (clock) body.clock = clock;
    busy = true;
    await openCreatedGame("/api/games", body, navigate, (message) => showFormError(root, message));
    busy = false;
  });
  const unsubscribe = onChange(() => keepingFocus(root, render));
  render();
  return unsubscribe;
}

function showFormError(root, message) {
  const element = root.querySelector("[data-form-error]");
  element.textContent = message;
  element.hidden = false;
}

/**
 * A rule option on the import form: "as the record says" (the record's own tag, or the default)
 * or a value chosen here, which the server sets over the record's.
 */
function importRuleMarkup(option, value) {
  const values = option.choices || [true, false];
  const words = (choice) => (option.choices ? t(`${option.label}.${choice}`) : t(choice ? "game.yes" : "game.no"));
  const choices = values
    .map((choice) => `<option value="${choice}" ${String(choice) === value ? "selected" : ""}>${escapeHtml(words(choice))}</option>`)
    .join("");
  return `<label class="choice select-choice">${t(option.label)} <select name="rule" data-field="${option.field}">
    <option value="" ${value === "" ? "selected" : ""}>${t("import.asRecord")}</option>${choices}</select></label>`;
}

export function showImportPage(root, config, navigate) {
  const options = ruleOptions(config);
  const form = {
    text: "",
    format: "auto",
    index: 1,
    mode: "review",
    level: config.ai_levels.includes("medium") ? "medium" : config.ai_levels[0],
    color: "white",
    rules: Object.fromEntries(options.map((option) => [option.field, ""])), // "": as the record says
  };
  let busy = false;

  function render() {
    const modes = ["review", "hotseat", "ai", "online"]
      .filter((mode) => mode !== "ai" || config.ai_levels.length)
      .map((mode) => `<label class="choice"><input type="radio" name="mode" value="${mode}" ${form.mode === mode ? "checked" : ""}> ${t(`import.mode.${mode}`)}</label>`)
      .join("");
    const formats = ["auto", "gamestring", "pgn", "sgf"]
      .map((format) => `<option value="${format}" ${form.format === format ? "selected" : ""}>${format === "auto" ? t("import.format.auto") : { gamestring: "GameString", pgn: "PGN", sgf: "SGF" }[format]}</option>`)
      .join("");
    root.innerHTML = `
      <section class="form-page">
        <h1>${t("import.title")}</h1>
        <form class="import-game">
          <p>${t("import.help")}</p>
          <label class="block">${t("import.text")}<textarea name="text" rows="8" spellcheck="false">${escapeHtml(form.text)}</textarea></label>
          <label class="block">${t("import.file")} <input type="file" name="file" accept=".sgf,.pgn,.txt,.uhp"></label>
          <div class="row">
            <label>${t("import.format")} <select name="format">${formats}</select></label>
            <label>${t("import.index")} <input type="number" name="index" min="1" value="${form.index}"></label>
          </div>
          <fieldset class="rule-options"><legend>${t("import.rules")}</legend><p>${t("import.rulesHelp")}</p>
            ${options.map((option) => importRuleMarkup(option, form.rules[option.field])).join("")}</fieldset>
          <fieldset><legend>${t("import.then")}</legend>${modes}</fieldset>
          <div class="row">
            <label data-modes="ai">${t("new.level")} <select name="level">${levelOptions(config, form.level)}</select></label>
            <label data-modes="ai online">${t("new.color")} <select name="color">${colorOptions(form.color)}</select></label>
          </div>
          <p class="banner error" role="alert" data-form-error hidden></p>
          <div class="form-actions"><button type="submit" class="primary">${t("import.submit")}</button></div>
        </form>
      </section>`;
    showApplicable(root, form.mode);
  }

  root.addEventListener("input", (event) => {
    if (event.target.name === "text") form.text = event.target.value;
  });
  root.addEventListener("change", async (event) => {
    const input = event.target;
    if (input.name === "file" && input.files?.[0]) {
      form.text = await input.files[0].text();
      root.querySelector("textarea[name=text]").value = form.text;
    } else if (input.name === "format") form.format = input.value;
    else if (input.name === "index") form.index = Math.max(1, Number(input.value) || 1);
    else if (input.name === "mode") form.mode = input.value;
    else if (input.name === "level") form.level = input.value;
    else if (input.name === "color") form.color = input.value;
    else if (input.name === "rule") form.rules[input.dataset.field] = input.value;
    showApplicable(root, form.mode);
  });
  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    if (form.text.length > config.import_max_chars) {
      // Said before the upload, with the limit: a file of many games is cut to the one wanted.
      showFormError(root, t("import.tooLong", { limit: config.import_max_chars.toLocaleString(getLanguage()), size: form.text.length.toLocaleString(getLanguage()) }));
      return;
    }
    const body = { text: form.text, format: form.format, index: form.index, mode: form.mode, look: getLook(), color: form.color };
    if (form.mode === "ai") body.ai_level = form.level;
    body.options = {};
    for (const option of options) {
      const chosen = form.rules[option.field];
      if (chosen !== "") body.options[option.field] = option.choices ? chosen : chosen === "true";
    }
    busy = true;
    await openCreatedGame("/api/import", body, navigate, (message) => showFormError(root, message));
    busy = false;
  });
  const unsubscribe = onChange(() => keepingFocus(root, render));
  render();
  return unsubscribe;
}

/** Create a game through the API, keep its seat token and open it; on failure show the reason. */
async function openCreatedGame(url, body, navigate, showError) {
  try {
    const created = await api(url, { method: "POST", body });
    if (created.token) gameSeats.set(created.id, created.token);
    navigate(`/game/${created.id}`);
  } catch (failure) {
    // The whole refusal: a broken rule's key and details are put into the page's words.
    showError(describeError({ ...failure, code: failure.code, message: failure.detail }));
  }
}
