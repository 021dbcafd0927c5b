// The service worker of the installable app: it keeps the static files (the app shell) so the
// app starts fast, and offline. Games are live: the API (/api/) and the websockets (/ws/) always
// go to the network, never through this cache.
//
// The server fills in VERSION (a hash of the static files) and ASSETS when it serves /sw.js: a new
// release is a new worker, which fetches the new files into a new cache and drops the old one.

const VERSION = "__PANAL_VERSION__";
const ASSETS = __PANAL_ASSETS__;
const CACHE = `panal-static-${VERSION}`;
const APP_PAGES = /^\/(new|import|archive|lobby|signin|signup|analysis|analysis\/[A-Za-z0-9_-]{1,16}|game\/[A-Za-z0-9_-]{1,16}|@\/[A-Za-z0-9_-]{1,20})?$/;

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
