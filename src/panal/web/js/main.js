// Start-up and routing: / and /new (new game), /import, /archive, /game/<id>.

import { api } from "./api.js";
import { showArchivePage } from "./archive_page.js";
import { showGamePage } from "./game_page.js";
import { showImportPage, showNewGamePage } from "./home_page.js";
import { LANGUAGES, configure, getLanguage, getLook, onChange, pickLanguage, setLanguage, setLook, t } from "./i18n.js";

const LANGUAGE_KEY = "panal.language";
const main = document.querySelector("main");
let config = null;
let leavePage = null;

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // No storage: the choice lasts for this page only.
  }
}

function renderHeader() {
  document.querySelector("[data-nav=new]").textContent = t("nav.new");
  document.querySelector("[data-nav=import]").textContent = t("nav.import");
  document.querySelector("[data-nav=archive]").textContent = t("nav.archive");
  document.querySelector("[data-label=language]").textContent = t("nav.language");
  document.querySelector("[data-label=look]").textContent = t("nav.look");
  const languageSelect = document.querySelector("select[name=language]");
  languageSelect.innerHTML = LANGUAGES.map(
    (code) => `<option value="${code}" ${code === getLanguage() ? "selected" : ""}>${{ en: "English", es: "Español", pt: "Português" }[code]}</option>`,
  ).join("");
  const lookSelect = document.querySelector("select[name=look]");
  lookSelect.innerHTML = ["classic", "football"]
    .map((look) => `<option value="${look}" ${look === getLook() ? "selected" : ""}>${t(`look.${look}`)}</option>`)
    .join("");
  document.body.dataset.look = getLook();
}

export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

async function route() {
  leavePage?.();
  leavePage = null;
  const page = document.createElement("div");
  page.className = "page";
  main.replaceChildren(page);
  const path = location.pathname;
  const gameMatch = path.match(/^\/game\/([A-Za-z0-9_-]{1,16})$/);
  if (gameMatch) leavePage = await showGamePage(page, gameMatch[1], navigate);
  else if (path === "/import") leavePage = showImportPage(page, config, navigate);
  else if (path === "/archive") leavePage = showArchivePage(page);
  else leavePage = showNewGamePage(page, config, navigate);
  for (const link of document.querySelectorAll("[data-nav]")) {
    const current = link.getAttribute("href") === path || (path === "/" && link.dataset.nav === "new");
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

async function start() {
  setLanguage(pickLanguage(stored(LANGUAGE_KEY)));
  document.documentElement.lang = getLanguage();
  try {
    config = await api("/api/config");
  } catch {
    main.textContent = "The server cannot be reached.";
    return;
  }
  configure(config);
  renderHeader();
  onChange(renderHeader);
  document.querySelector("select[name=language]").addEventListener("change", (event) => {
    store(LANGUAGE_KEY, event.target.value);
    setLanguage(event.target.value);
  });
  document.querySelector("select[name=look]").addEventListener("change", (event) => setLook(event.target.value));
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-link], a[data-nav]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(link.getAttribute("href"));
  });
  window.addEventListener("popstate", route);
  await route();
  document.body.dataset.ready = "1";
}

start();
