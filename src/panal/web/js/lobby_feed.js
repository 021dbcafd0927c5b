// The lobby's live feed (websocket /ws/lobby), shared by the lobby page and by the watcher of
// this browser's own open challenges: when one is accepted, wherever the player is on the site,
// the page goes to the new game.

import { api, saveSeatToken } from "./api.js";

const CHALLENGE_PREFIX = "panal.challenge.";
const PING_EVERY_MS = 25000;
const subscribers = new Set();
let socket = null;
let retries = 0;
let retryTimer = null;
let pinger = null;
let goToGame = null;
let latest = null;

/** Challenges posted from this browser and still waiting: id → the creator's seat token. */
export function myChallenges() {
  const mine = new Map();
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith(CHALLENGE_PREFIX)) mine.set(key.slice(CHALLENGE_PREFIX.length), localStorage.getItem(key));
    }
  } catch {
    // No storage: the lobby page still follows its own challenges while it is open.
  }
  return mine;
}

export function rememberChallenge(id, token) {
  try {
    localStorage.setItem(CHALLENGE_PREFIX + id, token);
  } catch {
    // No storage.
  }
  connect();
}

export function forgetChallenge(id) {
  try {
    localStorage.removeItem(CHALLENGE_PREFIX + id);
  } catch {
    // No storage.
  }
}

function accepted(challengeId, gameId) {
  const token = myChallenges().get(challengeId);
  if (token === undefined) return;
  forgetChallenge(challengeId);
  saveSeatToken(gameId, token);
  goToGame?.(`/game/${gameId}`);
}

/** After a reconnect: a challenge may have been accepted while the feed was away. */
async function checkMine() {
  for (const [id] of myChallenges()) {
    try {
      const challenge = await api(`/api/challenges/${encodeURIComponent(id)}`);
      if (challenge.status === "accepted" && challenge.game) accepted(id, challenge.game);
      else if (challenge.status !== "open" || challenge.expires_at * 1000 < Date.now()) forgetChallenge(id);
    } catch (error) {
      if (error.status === 404) forgetChallenge(id);
    }
  }
}

function needed() {
  return subscribers.size > 0 || myChallenges().size > 0;
}

function connect() {
  if (socket || !needed()) return;
  clearTimeout(retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  socket = ws;
  ws.addEventListener("open", () => {
    retries = 0;
    pinger = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), PING_EVERY_MS);
    checkMine();
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "lobby") {
      latest = message;
      subscribers.forEach((subscriber) => subscriber(message));
    } else if (message.type === "accepted") {
      accepted(message.challenge, message.game);
    }
  });
  ws.addEventListener("close", () => {
    clearInterval(pinger);
    socket = null;
    if (!needed()) return;
    retryTimer = setTimeout(connect, Math.min(500 * 2 ** retries, 8000));
    retries += 1;
  });
}

function disconnectIfIdle() {
  if (!needed() && socket) {
    socket.close();
    socket = null;
  }
}

/** Follow the lobby's lists (the lobby page); returns the unsubscribe function. */
export function followLobby(subscriber) {
  subscribers.add(subscriber);
  if (latest) subscriber(latest);
  connect();
  return () => {
    subscribers.delete(subscriber);
    disconnectIfIdle();
  };
}

/** Start watching this browser's challenges (once, at start-up). */
export function watchMyChallenges(navigate) {
  goToGame = navigate;
  connect();
}
