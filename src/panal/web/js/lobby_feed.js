// The lobby's live feed (websocket /ws/lobby), shared by the lobby page and by the watcher of
// this browser's own open challenges: when one is accepted, wherever the player is on the site,
// the page goes to the new game.

import { api } from "./api.js";
import { ReconnectingSocket } from "./socket.js";
import { challenges, gameSeats } from "./storage.js";

const subscribers = new Set();
let feed = null;
let goToGame = null;
let latest = null;

/** Challenges posted from this browser and still waiting: id → the creator's seat token. */
export function myChallenges() {
  return challenges.all();
}

export function rememberChallenge(id, token) {
  challenges.set(id, token);
  connect();
}

export function forgetChallenge(id) {
  challenges.remove(id);
}

function accepted(challengeId, gameId) {
  const token = challenges.get(challengeId);
  if (token === null) return;
  forgetChallenge(challengeId);
  gameSeats.set(gameId, token);
  goToGame?.(`/game/${gameId}`);
}

/** After a (re)connect: a challenge may have been accepted while the feed was away. */
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
  if (feed || !needed()) return;
  const socket = new ReconnectingSocket("/ws/lobby", {
    onOpen: checkMine,
    onMessage: (message) => {
      if (message.type === "lobby") {
        latest = message;
        subscribers.forEach((subscriber) => subscriber(message));
      } else if (message.type === "accepted") {
        accepted(message.challenge, message.game);
      }
    },
    onStatus: (status) => {
      if (status === "closed" && feed === socket) feed = null;
    },
    wanted: needed,
  });
  feed = socket;
}

function disconnectIfIdle() {
  if (!needed() && feed) {
    feed.close();
    feed = null;
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
