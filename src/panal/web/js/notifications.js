// Notifications on every page of a signed-in player (websocket /ws/notifications): the count of
// unread ones in the page's title and on the bell of the player menu, a banner for each new one
// (an offer stays until it is answered or closed: it cannot be missed), and a short sound made
// here (Web Audio) where the player's switches want one. docs/web.md, "Notifications".

import { account, onAccountChange } from "./account.js";
import { api } from "./api.js";
import { escapeHtml } from "./dom.js";
import { onChange, t } from "./i18n.js";
import { ReconnectingSocket } from "./socket.js";

// Offers wait for an answer: their banner stays. Other news goes after a while.
const STAYING = new Set(["draw_offer", "rematch_offer", "takeback_offer", "challenge"]);
const BANNER_MS = 12000;
const MAX_BANNERS = 4;
const TITLE_BADGE = /^\(\d+\+?\) /;

let socket = null;
let state = { unread: [], count: 0, switches: null };
let goTo = null;
const listeners = new Set();

/** The latest state ({unread, count, switches}); listeners get each new one. */
export function notificationState() {
  return state;
}

export function onNotifications(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A notice in the reader's words: {text, url}. Shared with the notifications page. */
export function describeNotice(notice) {
  const data = notice.data || {};
  const by = data.by || t("notify.someone");
  const key = notice.kind === "challenge" ? `notify.challenge.${data.event === "accepted" ? "accepted" : "received"}` : data.table ? "notify.tournament_table" : `notify.${notice.kind}`;
  return { text: t(key, { by, round: data.round ?? "", tournament: data.tournament ?? "" }), url: data.url || "/" };
}

export async function markRead(ids) {
  await api("/api/notifications/read", { method: "POST", body: { ids } }).catch(() => {});
}

function setState(next) {
  state = { unread: next.unread || [], count: next.count || 0, switches: next.switches || null };
  showCount();
  listeners.forEach((listener) => listener(state));
  noticesSeenAt(location.pathname);
}

/** The player is on ``path``: what leads there is read (a challenge's game the page went to). */
export function noticesSeenAt(path) {
  for (const banner of document.querySelectorAll("[data-banners] .notice-banner")) {
    if (banner.dataset.url === path) banner.remove();
  }
  const seen = state.unread.filter((notice) => notice.data?.url === path).map((notice) => notice.id);
  if (seen.length) markRead(seen);
}

function showCount() {
  const count = state.count;
  for (const badge of document.querySelectorAll("[data-notification-count]")) {
    badge.textContent = count > 99 ? "99+" : String(count);
    badge.hidden = count === 0;
  }
  // On a phone the player menu folds behind the settings button: the count shows on it too.
  const toggle = document.querySelector(".settings-toggle");
  if (count) toggle?.setAttribute("data-unread", count > 99 ? "99+" : String(count));
  else toggle?.removeAttribute("data-unread");
  const bell = document.querySelector("[data-notifications-link]");
  bell?.setAttribute("aria-label", t("notify.bell", { n: count }));
  titleBadge();
}

/** "(3) " before the page's own title, whatever title the page sets. */
function titleBadge() {
  const base = document.title.replace(TITLE_BADGE, "");
  const wanted = state.count ? `(${state.count > 99 ? "99+" : state.count}) ${base}` : base;
  if (document.title !== wanted) document.title = wanted;
}

function bannerArea() {
  let area = document.querySelector("[data-banners]");
  if (!area) {
    area = document.createElement("div");
    area.className = "notice-banners";
    area.dataset.banners = "";
    area.setAttribute("role", "status");
    area.setAttribute("aria-live", "polite");
    document.body.append(area);
  }
  return area;
}

function showBanner(notice) {
  const { text, url } = describeNotice(notice);
  const banner = document.createElement("div");
  banner.className = "notice-banner";
  banner.dataset.notice = notice.kind;
  banner.dataset.url = url;
  banner.innerHTML = `<a href="${escapeHtml(url)}" data-notice-open>${escapeHtml(text)}</a>
    <button type="button" data-notice-close aria-label="${escapeHtml(t("notify.close"))}">×</button>`;
  banner.querySelector("[data-notice-open]").addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    banner.remove();
    markRead([notice.id]);
    goTo?.(url);
  });
  banner.querySelector("[data-notice-close]").addEventListener("click", () => {
    banner.remove();
    markRead([notice.id]);
  });
  const area = bannerArea();
  area.prepend(banner);
  while (area.children.length > MAX_BANNERS) area.lastElementChild.remove();
  if (!STAYING.has(notice.kind)) setTimeout(() => banner.remove(), BANNER_MS);
}

let audio = null;
/** Two short notes, made here: no file to fetch. Browsers play it once the page was touched. */
function chime() {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    [880, 1320].forEach((frequency, index) => {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + index * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, start + index * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + index * 0.12 + 0.18);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + index * 0.12);
      oscillator.stop(start + index * 0.12 + 0.2);
    });
  } catch {
    // No audio on this browser: the banner and the badge still say it.
  }
}

function connect() {
  if (socket || !account().name) return;
  socket = new ReconnectingSocket("/ws/notifications", {
    onMessage: (message) => {
      if (message.type === "notifications") setState(message);
      else if (message.type === "notice") {
        if (message.notice.data?.url === location.pathname) markRead([message.notice.id]);
        else showBanner(message.notice);
        if (message.sound) chime();
      }
    },
    onStatus: (status) => {
      if (status === "closed") socket = null;
    },
    wanted: () => Boolean(account().name),
  });
}

function disconnect() {
  socket?.close();
  socket = null;
  document.querySelector("[data-banners]")?.replaceChildren();
  setState({ unread: [], count: 0 });
}

/** Once, at start-up: follow the signed-in player's notifications on every page. */
export function startNotifications(navigate) {
  goTo = navigate;
  const title = document.querySelector("title");
  if (title) new MutationObserver(titleBadge).observe(title, { childList: true, characterData: true, subtree: true });
  onAccountChange((changed) => (changed.name ? connect() : disconnect()));
  onChange(showCount);
  connect();
}

/** The bell of the player menu (main.js draws it with the account's name). */
export function bellHtml() {
  return `<a href="/notifications" data-link data-notifications-link class="bell" aria-label="${escapeHtml(t("notify.bell", { n: state.count }))}">
    <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9"/><path d="M10.3 21a1.94 1.94 0 0 0 3.4 0"/></svg>
    <span class="bell-count" data-notification-count ${state.count ? "" : "hidden"}>${state.count > 99 ? "99+" : state.count}</span></a>`;
}
