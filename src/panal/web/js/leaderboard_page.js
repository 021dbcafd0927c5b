// The leaderboard, /leaderboard?game=hive&speed=blitz: one tab per Hive speed and one for
// Enjambre; the ranked players best first, and apart, marked "?", the players whose rating is
// still provisional (as lichess does). Above it, the player search: names by their first letters.

import { account } from "./account.js";
import { api } from "./api.js";
import { drawPart, escapeHtml, keepingFocus } from "./dom.js";
import { describeError, onChange, t } from "./i18n.js";
import { SPEED_ORDER, categoryName, challengeHref } from "./profile_page.js";

const PAGE_SIZE = 50;
const PROVISIONAL_SHOWN = 20;
const BOARDS = [...SPEED_ORDER.map((speed) => ({ game: "hive", speed })), { game: "enjambre", speed: null }];
const SEARCH_DELAY_MS = 200;

function boardQuery(board) {
  return board.speed ? `game=${board.game}&speed=${board.speed}` : `game=${board.game}`;
}

function category(board) {
  return board.speed ? `${board.game}:${board.speed}` : board.game;
}

/** The board a URL asks for (the blitz board when it names none or one that does not exist). */
function boardOf(search) {
  const params = new URLSearchParams(search);
  const game = params.get("game") || "hive";
  const speed = params.get("speed");
  return BOARDS.find((board) => board.game === game && board.speed === (game === "hive" ? speed : null)) || BOARDS[1];
}

function playerLink(name) {
  return `<a href="/@/${encodeURIComponent(name)}" data-link>${escapeHtml(name)}</a>`;
}

export function showLeaderboardPage(root) {
  let board = boardOf(location.search);
  let ranked = { total: 0, players: [] };
  let provisional = { total: 0, players: [] };
  let found = null; // the search's names, null before any search
  let query = "";
  let error = "";
  let searchError = "";
  let searchTimer = null;
  let searchCount = 0;
  let left = false;

  async function load(more = false) {
    error = "";
    const offset = more ? ranked.players.length : 0;
    try {
      const [page, apart] = await Promise.all([
        api(`/api/leaderboard?${boardQuery(board)}&limit=${PAGE_SIZE}&offset=${offset}`),
        more ? provisional : api(`/api/leaderboard?${boardQuery(board)}&provisional=true&limit=${PROVISIONAL_SHOWN}`),
      ]);
      if (left) return;
      ranked = { total: page.total, players: more ? ranked.players.concat(page.players) : page.players };
      provisional = apart;
    } catch (failure) {
      error = describeError({ code: failure.code, message: failure.detail, details: failure.details });
    }
    renderBoard();
  }

  async function search(text) {
    const mine = ++searchCount;
    searchError = "";
    if (!text) {
      found = null;
      renderResults();
      return;
    }
    try {
      const answer = await api(`/api/players?q=${encodeURIComponent(text)}&limit=10`);
      if (mine !== searchCount || left) return; // a later keystroke's answer wins
      found = answer.players.map((player) => player.name);
    } catch (failure) {
      if (mine !== searchCount || left) return;
      found = [];
      searchError = describeError({ code: failure.code, message: failure.detail, details: failure.details });
    }
    renderResults();
  }

  function rows(players) {
    return players
      .map(
        (player) => `<li class="leader" data-name="${escapeHtml(player.name)}" data-provisional="${player.provisional}">
          <span class="rank">${player.rank ?? ""}</span><span class="name">${playerLink(player.name)}</span>
          <strong class="value" ${player.provisional ? `title="${escapeHtml(t("community.provisionalHint"))}"` : ""}>${escapeHtml(player.shown)}</strong>
          <span class="games">${t("profile.games", { n: player.games })}</span></li>`,
      )
      .join("");
  }

  function resultsHtml() {
    if (found === null) return "";
    return `<ul class="search-results" data-search-results aria-live="polite">${found.length
      ? found.map((name) => `<li>${playerLink(name)}${account().name && account().name !== name ? ` <a class="challenge-link" href="${challengeHref(name)}" data-link>${t("profile.challenge", { name: escapeHtml(name) })}</a>` : ""}</li>`).join("")
      : `<li class="hint">${searchError ? escapeHtml(searchError) : t("community.noPlayers")}</li>`}</ul>`;
  }

  function boardHtml() {
    return `
          ${error ? `<p class="banner error" role="alert">${escapeHtml(error)}</p>` : ""}
          <section class="ranked"><h2>${escapeHtml(categoryName(category(board)))}</h2>
            ${ranked.players.length ? `<ol class="leaders" data-ranked>${rows(ranked.players)}</ol>` : `<p class="hint">${t("community.nobody")}</p>`}
            ${ranked.players.length < ranked.total ? `<button type="button" data-action="more">${t("archive.more")}</button>` : ""}</section>
          ${provisional.players.length
            ? `<section class="provisional"><h2>${t("community.provisional")}</h2><p class="hint">${t("community.provisionalHint")}</p>
                <ul class="leaders" data-provisional-list>${rows(provisional.players)}</ul>
                ${provisional.total > provisional.players.length ? `<p class="hint">${t("community.andMore", { n: provisional.total - provisional.players.length })}</p>` : ""}</section>`
            : ""}`;
  }

  // A load or a search's answer draws only its own part: the search field keeps what is typed.
  const renderBoard = () => drawPart(root, "[data-board-part]", boardHtml(), render);
  const renderResults = () => drawPart(root, "[data-search-part]", resultsHtml(), render);

  function render() {
    keepingFocus(root, () => {
      const tabs = BOARDS.map((each) => {
        const current = category(each) === category(board);
        return `<a href="/leaderboard?${boardQuery(each)}" data-board="${category(each)}" class="tab" ${current ? 'aria-current="page"' : ""}>${escapeHtml(categoryName(category(each)))}</a>`;
      }).join("");
      root.innerHTML = `
        <section class="leaderboard-page">
          <h1>${t("community.leaderboard")}</h1>
          <form class="player-search" role="search" data-player-search>
            <label>${t("community.search")}
              <input type="search" name="q" value="${escapeHtml(query)}" maxlength="20" autocomplete="off"
                spellcheck="false" autocapitalize="none" placeholder="${escapeHtml(t("community.searchHint"))}"></label>
            <div data-search-part>${resultsHtml()}</div>
          </form>
          <nav class="leaderboard-tabs" aria-label="${escapeHtml(t("community.boards"))}">${tabs}</nav>
          <div data-board-part>${boardHtml()}</div>
        </section>`;
    });
  }

  root.addEventListener("click", (event) => {
    const tab = event.target.closest("a[data-board]");
    if (tab) {
      event.preventDefault();
      event.stopPropagation(); // the page changes its board itself, without a new route
      board = boardOf(new URL(tab.href).search);
      history.replaceState(null, "", `/leaderboard?${boardQuery(board)}`);
      ranked = { total: 0, players: [] };
      provisional = { total: 0, players: [] };
      render();
      load();
      return;
    }
    if (event.target.closest("[data-action=more]")) load(true);
  });
  root.addEventListener("input", (event) => {
    if (event.target.name !== "q") return;
    query = event.target.value.trim();
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => search(query), SEARCH_DELAY_MS);
  });
  root.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(searchTimer);
    search(query);
  });
  const unsubscribe = onChange(render);
  render();
  load();
  return () => {
    left = true;
    clearTimeout(searchTimer);
    unsubscribe();
  };
}
