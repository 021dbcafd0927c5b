// The archive's filters: players, result, speed, rated, game type and dates, as a form whose
// values are the query of GET /api/archive (and of the page's own address, so a filtered list
// can be shared). The server checks every value; its refusals are shown translated.

import { escapeHtml } from "./dom.js";
import { t } from "./i18n.js";
import { SPEED_ORDER } from "./profile_page.js";

export const FILTERS = ["player", "opponent", "result", "speed", "rated", "game_type", "since", "until"];
const RESULTS = ["WhiteWins", "BlackWins", "Draw"];
const GAME_TYPES = ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"];

/** The filters a query string holds (only the known ones, without empty values). */
export function filtersOf(search) {
  const given = new URLSearchParams(search);
  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const value = given.get(name);
    if (value) filters.set(name, value);
  }
  return filters;
}

function choice(name, values, current, label) {
  const options = values
    .map((value) => `<option value="${escapeHtml(value)}" ${value === current ? "selected" : ""}>${escapeHtml(label(value))}</option>`)
    .join("");
  return `<label>${t(`community.filter.${name}`)}<select name="${name}"><option value="">${t("community.any")}</option>${options}</select></label>`;
}

function field(name, type, current, extra = "") {
  return `<label>${t(`community.filter.${name}`)}<input type="${type}" name="${name}" value="${escapeHtml(current || "")}" ${extra}></label>`;
}

/** The form, showing `filters` (URLSearchParams). */
export function filterForm(filters) {
  const get = (name) => filters.get(name) || "";
  const names = 'maxlength="20" autocomplete="off" spellcheck="false" autocapitalize="none"';
  return `
    <form class="archive-filters" data-archive-filters>
      <details ${filters.toString() ? "open" : ""}><summary>${t("community.filters")}</summary>
        <div class="filter-fields">
          ${field("player", "search", get("player"), names)}
          ${field("opponent", "search", get("opponent"), names)}
          ${choice("result", RESULTS, get("result"), (result) => t(`result.${result}`))}
          ${choice("speed", [...SPEED_ORDER, "untimed"], get("speed"), (speed) => t(speed === "untimed" ? "community.untimed" : `speed.${speed}`))}
          ${choice("rated", ["true", "false"], get("rated"), (rated) => t(rated === "true" ? "lobby.rated" : "lobby.casual"))}
          ${choice("game_type", GAME_TYPES, get("game_type"), (type) => type)}
          ${field("since", "date", get("since"))}
          ${field("until", "date", get("until"))}
        </div>
        <div class="filter-actions">
          <button type="submit" class="primary">${t("community.apply")}</button>
          <button type="button" data-action="clear-filters">${t("community.clear")}</button>
        </div>
      </details>
    </form>`;
}

/** The filters the form's fields hold now. */
export function readFilters(form) {
  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const value = String(form.elements[name]?.value || "").trim();
    if (value) filters.set(name, value);
  }
  return filters;
}
