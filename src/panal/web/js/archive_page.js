// The archive: finished games (and imported records), newest first, each replayable.

import { api } from "./api.js";
import { describeError, getLanguage, onChange, playerName, t } from "./i18n.js";
import { drawPart, escapeHtml } from "./dom.js";
import { ruleTexts } from "./rules.js";
import { filterForm, filtersOf, readFilters } from "./archive_filters.js";
import { controlWithSpeed } from "./clock.js";

const PAGE_SIZE = 50;

export function showArchivePage(root) {
  let games = [];
  let total = 0;
  let error = "";
  let filters = filtersOf(location.search);

  async function load() {
    error = "";
    try {
      const shown = filters.toString() ? `${filters}&` : "";
      const page = await api(`/api/archive?${shown}limit=${PAGE_SIZE}&offset=${games.length}`);
      games = games.concat(page.games);
      total = page.total;
    } catch (failure) {
      error = describeError({ code: failure.code, message: failure.detail, details: failure.details });
    }
    renderList(); // only the list: the filters as the reader left them (open, half typed) stay
  }

  function filter(chosen) {
    filters = chosen;
    games = [];
    total = 0;
    history.replaceState(null, "", filters.toString() ? `/archive?${filters}` : "/archive");
    render();
    load();
  }

  function describe(game) {
    const level = game.ai_level ? t(`level.${game.ai_level}`) : "";
    let text = `${game.game_type} · ${t(`mode.${game.mode}`, { level })}`;
    if (game.white || game.black) {
      text += ` · <span data-players>${escapeHtml(playerName(game.white) || "?")} – ${escapeHtml(playerName(game.black) || "?")}</span>`;
    }
    // Games between people: the clock and whether it was rated, as on the profile page.
    if (game.mode === "online") {
      text += ` · <span data-kind>${controlWithSpeed(game.clock)} · ${t(game.rated ? "game.rated" : "game.casual")}</span>`;
    }
    // The rules where the game differs from panal's reading (docs/rules.md).
    const rules = ruleTexts(game.options);
    if (rules.length) text += `<ul class="game-rules" data-rules aria-label="${escapeHtml(t("archive.rules"))}">${rules.map((rule) => `<li>${escapeHtml(rule)}</li>`).join("")}</ul>`;
    return text;
  }

  function listHtml() {
    const date = new Intl.DateTimeFormat(getLanguage(), { dateStyle: "medium", timeStyle: "short" });
    const rows = games
      .map((game) => {
        const result = game.result ? `${t(`result.${game.result}`)}${game.end_reason ? ` — ${t(`reason.${game.end_reason}`)}` : ""}` : "—";
        return `<tr><td>${describe(game)}</td><td data-result="${game.result || ""}">${result}</td><td>${game.plies}</td>
          <td>${date.format(new Date(game.updated_at * 1000))}</td>
          <td><a href="/game/${game.id}?watch=1" data-link>${t("archive.open")}</a></td></tr>`;
      })
      .join("");
    return `
        ${error ? `<p class="banner error" role="alert">${escapeHtml(error)}</p>` : ""}
        ${games.length
          ? `<table class="archive"><thead><tr><th>${t("archive.game")}</th><th>${t("archive.result")}</th><th>${t("archive.moves")}</th>
              <th>${t("archive.date")}</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
          : error ? "" : `<p data-archive-empty>${t(filters.toString() ? "community.noMatch" : "archive.empty")}</p>`}
        ${games.length < total ? `<button type="button" data-action="more">${t("archive.more")}</button>` : ""}`;
  }

  const renderList = () => drawPart(root, "[data-archive-list]", listHtml(), render);

  function render() {
    root.innerHTML = `
      <section class="archive-page">
        <h1>${t("archive.title")}</h1>
        <p><a href="/leaderboard" data-link class="to-leaderboard">${t("community.leaderboard")}</a></p>
        ${filterForm(filters)}
        <div data-archive-list>${listHtml()}</div>
      </section>`;
  }

  root.addEventListener("click", (event) => {
    if (event.target.closest("[data-action=more]")) load();
    if (event.target.closest("[data-action=clear-filters]")) filter(new URLSearchParams());
  });
  root.addEventListener("submit", (event) => {
    if (!event.target.matches("[data-archive-filters]")) return;
    event.preventDefault();
    filter(readFilters(event.target));
  });
  const unsubscribe = onChange(render);
  render();
  load();
  return unsubscribe;
}
