// The service worker of the installable app: it keeps the static files (the app shell) so the
// app starts fast, and offline. Games are live: the API (/api/) and the websockets (/ws/) always
// go to the network, never through this cache.
//
// The server fills in VERSION (a hash of the static files) and ASSETS when it serves /sw.js: a new
// release is a new worker, which fetches the new files into a new cache and drops the old one.

const VERSION = "__PANAL_VERSION__";
const ASSETS = __PANAL_ASSETS__;
const CACHE = `panal-static-${VERSION}`;
const APP_PAGES = /^\/(new|import|archive|lobby|signin|signup|notifications|analysis|analysis\/[A-Za-z0-9_-]{1,16}|game\/[A-Za-z0-9_-]{1,16}|@\/[A-Za-z0-9_-]{1,20})?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(ASSETS.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("panal-static-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    // The cache belongs to this version of the files: what it holds is current.
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request)).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate" && APP_PAGES.test(url.pathname)) {
    // Pages: the network first (a fresh page), the cached shell when offline.
    event.respondWith(fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match("/"))));
  }
});

// Web Push (docs/web.md, "Notifications"): the server sends {kind, data, lang, id}, encrypted
// for this browser; the words come from the same catalogs as the pages' (cached above), in the
// player's language, Brazilian Portuguese over European over English.
const LAYERS = { en: ["en"], es: ["en", "es"], "pt-PT": ["en", "pt-PT"], "pt-BR": ["en", "pt-PT", "pt-BR"] };

async function noticeTexts(lang) {
  const tables = await Promise.all(
    (LAYERS[lang] || LAYERS.en).map((code) =>
      fetch(`/static/locales/${code}/notifications.json`)
        .then((response) => (response.ok ? response.json() : {}))
        .catch(() => ({})),
    ),
  );
  return Object.assign({}, ...tables);
}

function fill(text, params) {
  return String(text).replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    return;
  }
  const data = message.data || {};
  event.waitUntil(
    noticeTexts(message.lang).then((texts) => {
      const key = message.kind === "challenge" ? `notify.challenge.${data.event === "accepted" ? "accepted" : "received"}` : data.table ? "notify.tournament_table" : `notify.${message.kind}`;
      const params = { by: data.by || texts["notify.someone"] || "", round: data.round ?? "", tournament: data.tournament ?? "" };
      return self.registration.showNotification(texts["notify.pushTitle"] || "panal", {
        body: fill(texts[key] || message.kind || "", params),
        icon: "/static/icons/icon.svg",
        tag: `panal-${message.kind}-${data.url || ""}`,
        data: { url: data.url || "/notifications" },
      });
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
