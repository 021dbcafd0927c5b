// The reader's unfinished games against the AI (GET /api/my-games: a guest's by this browser's
// client token, an account's by the account), each to continue or resign: on the new-game page
// and on the "My games" page. The caps on AI games count these games (docs/web.md).

import { api } from "./api.js";
import { escapeHtml } from "./dom.js";
import { colorName, describeError, t } from "./i18n.js";
import { gameSeats } from "./storage.js";

/** Draw the list into `element` (nothing on the new-game page when there is none: `quiet`). */
export async function showMyGames(element, { quiet = false } = {}) {
  let found;
  try {
    found = await api("/api/my-games");
  } catch (failure) {
    element.textContent = describeError({ code: failure.code, message: failure.detail, details: failure.details });
    return;
  }
  const games = found.ai_games;
  if (!games.length && quiet) {
    element.replaceChildren();
    return;
  }
  const items = games
    .map((game) => {
      const text = t("mine.game", {
        level: t(`level.${game.ai_level}`),
        color: colorName(game.color === "white" ? 0 : 1),
        plies: game.plies,
      });
      const id = escapeHtml(game.id);
      return `<li><a href="/game/${id}" data-link>${escapeHtml(text)}</a>
        <a class="button" href="/game/${id}" data-link>${t("mine.continue")}</a>
        <button type="button" data-resign="${id}">${t("mine.resign")}</button></li>`;
    })
    .join("");
  element.innerHTML = `<h2>${t("mine.title")}</h2>
    ${games.length ? `<ul class="my-games">${items}</ul>` : `<p>${t("mine.none")}</p>`}
    <p class="hint">${t("mine.idle", { minutes: Math.round(found.idle_seconds / 60) })}</p>
    <p class="banner" role="status" data-mine-status hidden></p>`;
  element.onclick = async (event) => {
    const button = event.target.closest("[data-resign]");
    if (!button) return;
    button.disabled = true;
    const status = element.querySelector("[data-mine-status]");
    try {
      await api(`/api/my-games/${button.dataset.resign}/resign`, { method: "POST" });
      gameSeats.remove(button.dataset.resign);
      await showMyGames(element, { quiet });
      const after = element.querySelector("[data-mine-status]");
      if (after) {
        after.textContent = t("mine.resigned");
        after.hidden = false;
      }
    } catch (failure) {
      button.disabled = false;
      status.textContent = describeError({ code: failure.code, message: failure.detail, details: failure.details });
      status.hidden = false;
    }
  };
}

/** The "My games" page. */
export function showMyGamesPage(root) {
  root.innerHTML = `<section class="form-page"><div data-my-games></div></section>`;
  showMyGames(root.querySelector("[data-my-games]"));
  return null;
}
