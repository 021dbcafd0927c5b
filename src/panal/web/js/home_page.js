// The new-game form and the import form.

import { api, saveSeatToken } from "./api.js";
import { bugName, colorName, describeError, getLook, onChange, t } from "./i18n.js";
import { pieceSvg } from "./pieces.js";

const EXPANSIONS = ["M", "L", "P", "D"];
const LEGEND = ["Q", "B", "G", "S", "A", "M", "L", "P", "D"];

function levelOptions(config, selected) {
  return config.ai_levels
    .map((level) => `<option value="${level}" ${level === selected ? "selected" : ""}>${t(`level.${level}`)}</option>`)
    .join("");
}

function colorOptions(selected) {
  return ["white", "black", "random"]
    .map((color) => `<option value="${color}" ${color === selected ? "selected" : ""}>${t(`new.color.${color}`)}</option>`)
    .join("");
}

export function showNewGamePage(root, config, navigate) {
  const form = { mode: config.ai_levels.length ? "ai" : "hotseat", level: "medium", color: "white", expansions: new Set(["M", "L", "P"]), tournament: false, repetition: true, dragonflyGates: false };
  if (!config.ai_levels.includes(form.level)) form.level = config.ai_levels[0];
  let error = "";

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
    const legend = LEGEND.map(
      (letter) => `<li>${pieceSvg(`w${letter}`, getLook(), 40)}${pieceSvg(`b${letter}`, getLook(), 40)}<span>${bugName(letter)}</span></li>`,
    ).join("");
    root.innerHTML = `
      <section class="form-page">
        <h1>${t("new.title")}</h1>
        <form class="new-game">
          <fieldset><legend>${t("new.opponent")}</legend>${modes}
            ${config.ai_levels.length ? "" : `<p class="hint">${t("new.noai")}</p>`}</fieldset>
          <div class="row">
            <label ${form.mode === "ai" ? "" : "hidden"}>${t("new.level")}
              <select name="level">${levelOptions(config, form.level)}</select></label>
            <label ${form.mode === "hotseat" ? "hidden" : ""}>${t("new.color")}
              <select name="color">${colorOptions(form.color)}</select></label>
          </div>
          <fieldset><legend>${t("new.pieces")}</legend>${pieces}</fieldset>
          <fieldset><legend>${t("new.rules")}</legend>
            <label class="choice"><input type="checkbox" name="tournament" ${form.tournament ? "checked" : ""}> ${t("new.tournament")}</label>
            <label class="choice"><input type="checkbox" name="repetition" ${form.repetition ? "checked" : ""}> ${t("new.repetition")}</label>
            <label class="choice" ${form.expansions.has("D") ? "" : "hidden"}><input type="checkbox" name="dragonfly_gates" ${form.dragonflyGates ? "checked" : ""}> ${t("new.dragonfly_gates")}</label>
          </fieldset>
          ${error ? `<p class="banner error" role="alert">${error}</p>` : ""}
          <button type="submit" class="primary" data-action="start">${t("new.start")}</button>
        </form>
        <aside class="legend" aria-label="${t("nav.look")}"><h2>${t(`look.${getLook()}`)}: ${colorName(0)} / ${colorName(1)}</h2><ul>${legend}</ul></aside>
      </section>`;
  }

  root.addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "mode") form.mode = input.value;
    else if (input.name === "level") form.level = input.value;
    else if (input.name === "color") form.color = input.value;
    else if (input.name === "expansion") input.checked ? form.expansions.add(input.value) : form.expansions.delete(input.value);
    else if (input.name === "tournament") form.tournament = input.checked;
    else if (input.name === "repetition") form.repetition = input.checked;
    else if (input.name === "dragonfly_gates") form.dragonflyGates = input.checked;
    render();
  });
  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    const letters = EXPANSIONS.filter((letter) => form.expansions.has(letter)).join("");
    const body = {
      mode: form.mode,
      game_type: letters ? `Base+${letters}` : "Base",
      tournament_opening: form.tournament,
      repetition_draw: form.repetition,
      dragonfly_gates: form.expansions.has("D") && form.dragonflyGates,
      look: getLook(),
      color: form.mode === "hotseat" ? "white" : form.color,
    };
    if (form.mode === "ai") body.ai_level = form.level;
    await openCreatedGame("/api/games", body, navigate, (message) => {
      error = message;
      render();
    });
  });
  const unsubscribe = onChange(render);
  render();
  return unsubscribe;
}

export function showImportPage(root, config, navigate) {
  const form = { text: "", format: "auto", index: 1, mode: "review", level: config.ai_levels.includes("medium") ? "medium" : config.ai_levels[0], color: "white" };
  let error = "";

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
          <fieldset><legend>${t("import.then")}</legend>${modes}</fieldset>
          <div class="row">
            <label ${form.mode === "ai" ? "" : "hidden"}>${t("new.level")} <select name="level">${levelOptions(config, form.level)}</select></label>
            <label ${["ai", "online"].includes(form.mode) ? "" : "hidden"}>${t("new.color")} <select name="color">${colorOptions(form.color)}</select></label>
          </div>
          ${error ? `<p class="banner error" role="alert">${escapeHtml(error)}</p>` : ""}
          <button type="submit" class="primary">${t("import.submit")}</button>
        </form>
      </section>`;
  }

  root.addEventListener("input", (event) => {
    if (event.target.name === "text") form.text = event.target.value;
  });
  root.addEventListener("change", async (event) => {
    const input = event.target;
    if (input.name === "file" && input.files?.[0]) {
      form.text = await input.files[0].text();
    } else if (input.name === "format") form.format = input.value;
    else if (input.name === "index") form.index = Math.max(1, Number(input.value) || 1);
    else if (input.name === "mode") form.mode = input.value;
    else if (input.name === "level") form.level = input.value;
    else if (input.name === "color") form.color = input.value;
    else return;
    render();
  });
  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { text: form.text, format: form.format, index: form.index, mode: form.mode, look: getLook(), color: form.color };
    if (form.mode === "ai") body.ai_level = form.level;
    await openCreatedGame("/api/import", body, navigate, (message) => {
      error = message;
      render();
    });
  });
  const unsubscribe = onChange(render);
  render();
  return unsubscribe;
}

export function escapeHtml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Create a game through the API, keep its seat token and open it; on failure show the reason. */
async function openCreatedGame(url, body, navigate, showError) {
  try {
    const created = await api(url, { method: "POST", body });
    if (created.token) saveSeatToken(created.id, created.token);
    navigate(`/game/${created.id}`);
  } catch (failure) {
    showError(describeError({ code: failure.code, message: failure.detail }));
  }
}
