// The engine ladder: bots ranked by Bradley-Terry ratings with their 95% intervals, each
// engine's name, version and options, the latest games and the PGN download. Phone first: one
// card per engine, no table to scroll sideways.

import { api } from "./api.js";
import { describeError, onChange, t } from "./i18n.js";
import { escapeHtml } from "./dom.js";

const REFRESH_MS = 10_000;

export function showLadderPage(root) {
  let ladder = null;
  let error = "";

  async function load() {
    try {
      ladder = await api("/api/ladder");
      error = "";
    } catch (failure) {
      error = describeError({ code: failure.code, message: failure.detail });
    }
    render();
  }

  function engineText(engine, open) {
    if (!engine) return `<span class="muted">${t("ladder.noEngine")}</span>`;
    const options = Object.entries(engine.options || {})
      .map(([name, value]) => `<li><code>${escapeHtml(name)}=${escapeHtml(value)}</code></li>`)
      .join("");
    return `<span data-engine-name>${escapeHtml(engine.name || "?")}</span>
      ${engine.version ? `<span class="muted" data-engine-version>${escapeHtml(engine.version)}</span>` : ""}
      ${options ? `<details ${open ? "open" : ""}><summary>${t("ladder.options")}</summary><ul class="ladder-options">${options}</ul></details>` : ""}`;
  }

  function card(row, place, opened) {
    return `<li class="ladder-entry" data-bot="${escapeHtml(row.name)}">
        <span class="ladder-place">${place}</span>
        <div class="ladder-who">
          <a href="/@/${encodeURIComponent(row.name)}" data-link>${escapeHtml(row.name)}</a>
          ${row.active ? "" : `<span class="muted">${t("ladder.away")}</span>`}
          <div class="ladder-engine">${engineText(row.engine, opened.has(row.name))}</div>
        </div>
        <div class="ladder-rating">
          <strong data-rating>${row.rating}</strong>
          <span class="muted" data-interval>${t("ladder.interval", { low: row.low, high: row.high })}</span>
          <span class="muted" data-games>${t("ladder.games", { n: row.games, points: row.score })}</span>
        </div>
      </li>`;
  }

  function recentRow(game) {
    const result = t(`result.${game.result}`);
    return `<li><a href="/game/${game.id}?watch=1" data-link>${escapeHtml(game.white)} – ${escapeHtml(game.black)}</a>
      <span class="muted">${result}${game.end_reason ? ` — ${t(`reason.${game.end_reason}`)}` : ""}</span></li>`;
  }

  function render() {
    if (!ladder) {
      root.innerHTML = `<section class="ladder-page"><h1>${t("ladder.title")}</h1>
        ${error ? `<p class="banner error" role="alert">${escapeHtml(error)}</p>` : ""}</section>`;
      return;
    }
    // The refresh every REFRESH_MS draws the standings again: the engine options a reader opened stay open.
    const opened = new Set([...root.querySelectorAll(".ladder-entry[data-bot] details[open]")].map((details) => details.closest("[data-bot]").dataset.bot));
    const clock = t("ladder.clock", { base: ladder.clock.base, increment: ladder.clock.increment });
    root.innerHTML = `
      <section class="ladder-page">
        <h1>${t("ladder.title")}</h1>
        ${error ? `<p class="banner error" role="alert">${escapeHtml(error)}</p>` : ""}
        <p>${t("ladder.intro", { clock, game_type: ladder.game_type })}</p>
        <p class="muted" data-method>${t("ladder.method")}</p>
        ${ladder.standings.length
          ? `<ol class="ladder" aria-label="${escapeHtml(t("ladder.title"))}">${ladder.standings.map((row, i) => card(row, i + 1, opened)).join("")}</ol>`
          : `<p>${t("ladder.empty")}</p>`}
        <p><a href="/api/ladder/games.pgn" download data-download>${t("ladder.download", { n: ladder.games })}</a></p>
        ${ladder.recent.length ? `<h2>${t("ladder.recent")}</h2><ul class="ladder-recent">${ladder.recent.map(recentRow).join("")}</ul>` : ""}
      </section>`;
  }

  const unsubscribe = onChange(render);
  const timer = setInterval(load, REFRESH_MS);
  render();
  load();
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}
