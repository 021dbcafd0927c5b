// Start-up and routing: / and /new (new game), /import, /archive, /leaderboard, /game/<id>.

import { account, loadAccount, onAccountChange, rememberForAccount, signOut } from "./account.js";
import { showAccountPage } from "./account_pages.js";
import { showAccountSettings, showResetPage, showVerifyPage } from "./account_care.js";
import { showAnalysisPage } from "./analysis_page.js";
import { api } from "./api.js";
import { showArchivePage } from "./archive_page.js";
import { showLadderPage } from "./ladder_page.js";
import { showTableForm } from "./enjambre_home.js";
import { showTablePage } from "./enjambre_page.js";
import { showGamePage } from "./game_page.js";
import { showImportPage, showNewGamePage } from "./home_page.js";
import { showLeaderboardPage } from "./leaderboard_page.js";
import { escapeHtml } from "./dom.js";
import { LANGUAGES, configure, getLanguage, getLook, onChange, pickLanguage, setLanguage, setLook, t } from "./i18n.js";
import { watchMyChallenges } from "./lobby_feed.js";
import { showMyGamesPage } from "./my_games.js";
import { bellHtml, noticesSeenAt, startNotifications } from "./notifications.js";
import { showNotificationsPage } from "./notifications_page.js";
import { showLobbyPage } from "./lobby_page.js";
import { confirmMoves, saveConfirmMoves, saveLanguage, saveLook, savedLanguage, savedLook } from "./storage.js";
import { showProfilePage } from "./profile_page.js";
import { showLessonPage, showLessonsPage } from "./lesson_page.js";
import { showTrainerPage } from "./trainer_page.js";
import { showTournamentPage, showTournamentsPage } from "./tournaments_page.js";

// Each language is named in itself.
const LANGUAGE_NAMES = { en: "English", es: "Español", "pt-PT": "Português (Portugal)", "pt-BR": "Português (Brasil)" };
const main = document.querySelector("main");
// The tournaments' link on a phone, where six names do not fit one line: a cup.
const TROPHY = `<svg class="nav-icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
  <path d="M8 4h8v5a4 4 0 0 1-8 0z"/><path d="M8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4"/><path d="M12 13v4M8 20h8M10 17h4"/></svg>`;
let config = null;
let leavePage = null;

function renderAccount() {
  const area = document.querySelector("[data-account]");
  const { name } = account();
  area.innerHTML = name
    ? `${bellHtml()}<a href="/@/${encodeURIComponent(name)}" data-link data-account-name aria-label="${escapeHtml(t("acct.signedIn", { name }))}">${escapeHtml(name)}</a>
       <a href="/account" data-link data-account-settings>${t("account.menu")}</a>
       <button type="button" data-action="sign-out">${t("nav.signOut")}</button>`
    : `<a href="/signin" data-link data-account-link="signin">${t("nav.signIn")}</a>
       <a href="/signup" data-link data-account-link="signup">${t("nav.signUp")}</a>`;
}

function renderHeader() {
  document.querySelector(".skip-link").textContent = t("nav.skip");
  document.querySelector("meta[name=description]").setAttribute("content", t("app.description"));
  document.querySelector("[data-nav=lobby]").textContent = t("nav.lobby");
  document.querySelector("[data-nav=new]").textContent = t("nav.new");
  document.querySelector("[data-nav=import]").textContent = t("nav.import");
  document.querySelector("[data-nav=archive]").textContent = t("nav.archive");
  document.querySelector("[data-nav=enjambre]").textContent = t("nav.enjambre");
  document.querySelector("[data-nav=analysis]").textContent = t("nav.analysis");
  document.querySelector("[data-nav=puzzles]").textContent = t("nav.puzzles");
  document.querySelector("[data-nav=tournaments]").innerHTML = `${TROPHY}<span class="nav-long-name">${t("nav.tournaments")}</span>`;
  document.querySelector("[data-label=language]").textContent = t("nav.language");
  document.querySelector("[data-label=look]").textContent = t("nav.look");
  document.querySelector("[data-label=confirm-moves]").textContent = t("nav.confirmMoves");
  const toggle = document.querySelector(".settings-toggle");
  toggle.setAttribute("aria-label", t("nav.settings"));
  toggle.title = t("nav.settings");
  const languageSelect = document.querySelector("select[name=language]");
  languageSelect.innerHTML = LANGUAGES.map(
    (code) => `<option value="${code}" lang="${code}" ${code === getLanguage() ? "selected" : ""}>${LANGUAGE_NAMES[code]}</option>`,
  ).join("");
  const lookSelect = document.querySelector("select[name=look]");
  lookSelect.innerHTML = ["classic", "football"]
    .map((look) => `<option value="${look}" ${look === getLook() ? "selected" : ""}>${t(`look.${look}`)}</option>`)
    .join("");
  document.querySelector("input[name=confirm_moves]").checked = confirmMoves();
  document.body.dataset.look = getLook();
  renderAccount();
}

export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  window.scrollTo(0, 0); // a new page starts at its top (a long form may have been scrolled)
  route();
}

/** An address the site does not have (the server answered it 404): said in the reader's words. */
function showNotFoundPage(root) {
  const render = () => {
    root.innerHTML = `<section class="not-found" data-not-found>
        <h1>${t("notFound.title")}</h1>
        <p>${t("notFound.text")}</p>
        <p><a href="/new" data-link>${t("notFound.home")}</a> · <a href="/lobby" data-link>${t("nav.lobby")}</a></p>
      </section>`;
  };
  render();
  return onChange(render);
}

async function route() {
  leavePage?.();
  leavePage = null;
  const page = document.createElement("div");
  page.className = "page";
  main.replaceChildren(page);
  const path = location.pathname;
  noticesSeenAt(path);
  const gameMatch = path.match(/^\/game\/([A-Za-z0-9_-]{1,16})$/);
  const tableMatch = path.match(/^\/table\/([A-Za-z0-9_-]{1,16})$/);
  const profileMatch = path.match(/^\/@\/([A-Za-z0-9_-]{1,20})$/);
  const analysisMatch = path.match(/^\/analysis(?:\/([A-Za-z0-9_-]{1,16}))?$/);
  const puzzleMatch = path.match(/^\/puzzles(?:\/([A-Za-z0-9_-]{1,16}))?$/);
  const lessonMatch = path.match(/^\/learn(?:\/([A-Za-z0-9_-]{1,40}))?$/);
  const tournamentMatch = path.match(/^\/tournament\/([A-Za-z0-9_-]{1,16})$/);
  document.body.dataset.page = gameMatch
    ? "game"
    : tableMatch
      ? "table"
      : profileMatch
        ? "profile"
        : analysisMatch
          ? "analysis"
          : puzzleMatch
            ? "puzzles"
            : lessonMatch
              ? "learn"
              : tournamentMatch
                ? "tournament"
                : path.slice(1) || "new";
  if (gameMatch) leavePage = await showGamePage(page, gameMatch[1], navigate, config);
  else if (tableMatch) leavePage = await showTablePage(page, tableMatch[1], navigate);
  else if (puzzleMatch) leavePage = showTrainerPage(page, puzzleMatch[1], navigate);
  else if (lessonMatch && lessonMatch[1]) leavePage = showLessonPage(page, lessonMatch[1], navigate);
  else if (lessonMatch) leavePage = showLessonsPage(page);
  else if (path === "/enjambre") leavePage = await showTableForm(page, navigate);
  else if (analysisMatch) leavePage = showAnalysisPage(page, analysisMatch[1] || null, navigate, config);
  else if (tournamentMatch) leavePage = showTournamentPage(page, tournamentMatch[1], navigate, config);
  else if (path === "/tournaments") leavePage = showTournamentsPage(page, config, navigate);
  else if (profileMatch) leavePage = showProfilePage(page, decodeURIComponent(profileMatch[1]));
  else if (path === "/lobby") leavePage = showLobbyPage(page, config, navigate);
  else if (path === "/signin" || path === "/signup") leavePage = showAccountPage(page, path.slice(1), navigate);
  else if (path === "/account") leavePage = showAccountSettings(page, navigate);
  else if (path === "/reset") leavePage = showResetPage(page, navigate);
  else if (path === "/verify") leavePage = showVerifyPage(page);
  else if (path === "/import") leavePage = showImportPage(page, config, navigate);
  else if (path === "/archive") leavePage = showArchivePage(page);
  else if (path === "/leaderboard") leavePage = showLeaderboardPage(page);
  else if (path === "/my-games") leavePage = showMyGamesPage(page);
  else if (path === "/ladder") leavePage = showLadderPage(page);
  else if (path === "/notifications") leavePage = showNotificationsPage(page);
  else if (path === "/" || path === "/new") leavePage = showNewGamePage(page, config, navigate);
  else leavePage = showNotFoundPage(page);
  for (const link of document.querySelectorAll("[data-nav]")) {
    const current =
      link.getAttribute("href") === path ||
      (path === "/" && link.dataset.nav === "new") ||
      (path.startsWith("/table/") && link.dataset.nav === "enjambre") ||
      ((path.startsWith("/puzzles/") || path.startsWith("/learn")) && link.dataset.nav === "puzzles") ||
      (path.startsWith("/tournament/") && link.dataset.nav === "tournaments");
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function bindPreferences() {
  document.querySelector("select[name=language]").addEventListener("change", (event) => {
    saveLanguage(event.target.value);
    setLanguage(event.target.value); // the page is drawn again once the language's texts are here
    rememberForAccount({ language: event.target.value });
  });
  document.querySelector("select[name=look]").addEventListener("change", (event) => {
    saveLook(event.target.value);
    setLook(event.target.value);
    rememberForAccount({ look: event.target.value });
  });
  document.querySelector("[data-account]").addEventListener("click", async (event) => {
    if (!event.target.closest("[data-action=sign-out]")) return;
    await signOut().catch(() => {});
    navigate("/lobby");
  });
  document.querySelector("input[name=confirm_moves]").addEventListener("change", (event) => {
    saveConfirmMoves(event.target.checked);
    document.dispatchEvent(new CustomEvent("panal:preferences"));
  });
  // On a phone the preferences fold behind a button.
  const toggle = document.querySelector(".settings-toggle");
  toggle.addEventListener("click", () => {
    toggle.setAttribute("aria-expanded", String(toggle.getAttribute("aria-expanded") !== "true"));
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") {
      toggle.setAttribute("aria-expanded", "false");
      toggle.focus();
    }
  });
}

/** Installable web app: the service worker keeps the static files for offline start-up. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Not a secure context, or storage refused: the app works without it.
  });
}

async function applyAccountPreferences(signedIn) {
  if (signedIn.language && LANGUAGES.includes(signedIn.language)) {
    saveLanguage(signedIn.language);
    await setLanguage(signedIn.language);
  }
  if (signedIn.look) {
    saveLook(signedIn.look);
    setLook(signedIn.look);
  }
}

async function start() {
  setLook(savedLook() || "classic");
  // Nothing is drawn before the reader's language has its texts (no key shows, even briefly).
  const language = setLanguage(pickLanguage(savedLanguage()));
  try {
    config = await api("/api/config");
  } catch {
    main.textContent = "The server cannot be reached.";
    return;
  }
  configure(config);
  // A signed-in account brings its own language and look (remembered on the server).
  const signedIn = await loadAccount();
  await language;
  await applyAccountPreferences(signedIn);
  document.documentElement.lang = getLanguage();
  renderHeader();
  onChange(renderHeader);
  onAccountChange(async (changed) => {
    await applyAccountPreferences(changed);
    renderHeader();
  });
  bindPreferences();
  watchMyChallenges(navigate);
  startNotifications(navigate);
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-link], a[data-nav]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    document.querySelector(".settings-toggle").setAttribute("aria-expanded", "false");
    navigate(link.getAttribute("href"));
  });
  window.addEventListener("popstate", route);
  await route();
  registerServiceWorker();
  document.body.dataset.ready = "1";
}

start();
