// The account of this browser's session (or a guest): who is signed in, and the language and
// look remembered for them. The session itself is an HTTP-only cookie the page never sees.

import { api } from "./api.js";
import { gameSeats } from "./storage.js";

const GUEST = { name: null, language: null, look: null };
const MAX_CLAIMS = 200;
let current = GUEST;
const listeners = new Set();

export function account() {
  return current;
}

export function onAccountChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(next) {
  current = next || GUEST;
  listeners.forEach((listener) => listener(current));
  return current;
}

export async function loadAccount() {
  try {
    return changed(await api("/api/account"));
  } catch {
    return changed(GUEST);
  }
}

export async function signIn(name, password) {
  return changed(await api("/api/account/signin", { method: "POST", body: { name, password } }));
}

/** A new account; the games this browser holds seats of as a guest become its games. */
export async function signUp(name, password, language, look) {
  const body = { name, password, language, look, claim: guestSeats() };
  return changed(await api("/api/account/signup", { method: "POST", body }));
}

export async function signOut() {
  await api("/api/account/signout", { method: "POST" });
  return changed(GUEST);
}

/** Remember a language or a look for the signed-in account (guests keep it in this browser). */
export function rememberForAccount(values) {
  if (!current.name) return;
  current = { ...current, ...values };
  api("/api/account", { method: "PATCH", body: values }).catch(() => {});
}

/** The seat tokens kept in this browser: {game, token} for each game played here as a guest. */
function guestSeats() {
  return [...gameSeats.all(MAX_CLAIMS)].map(([game, token]) => ({ game, token }));
}
