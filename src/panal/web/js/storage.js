// What this browser keeps between visits (localStorage), in one place: the seat tokens of games
// and tables, the invitation links a table's host made, the open challenges posted from here,
// and the reader's choices (language, look, move confirmation).
//
// The keys are the ones earlier releases wrote ("panal.token.<game>", "panal.table.<table>",
// "panal.table.<table>.invites", "panal.challenge.<id>", "panal.language", "panal.look",
// "panal.confirmMoves"), so the seats and choices players already saved keep working.
//
// Without storage (private browsing, storage refused) a read finds nothing and a write is
// dropped: the choice lasts for this page only, and a seat lives in its link (#token=…).

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keep `value` under `key` (null: forget it). */
function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // No storage: see above.
  }
}

/** Values kept one per id under a common prefix. */
class Shelf {
  constructor(prefix) {
    this.prefix = prefix;
  }

  get(id) {
    return read(this.prefix + id);
  }

  set(id, value) {
    write(this.prefix + id, value);
  }

  remove(id) {
    write(this.prefix + id, null);
  }

  /** Every id on this shelf with its value (at most `limit` of them). */
  all(limit = Infinity) {
    const found = new Map();
    try {
      for (let i = 0; i < localStorage.length && found.size < limit; i += 1) {
        const key = localStorage.key(i);
        if (key?.startsWith(this.prefix)) found.set(key.slice(this.prefix.length), localStorage.getItem(key));
      }
    } catch {
      // No storage: nothing kept.
    }
    return found;
  }
}

/** The secret seat token of each game played in this browser. */
export const gameSeats = new Shelf("panal.token.");
/** The seat token of each Enjambre table (the one of a device holding several seats). */
export const tableSeats = new Shelf("panal.table.");
/** The challenges posted from this browser and still open: id → the creator's seat token. */
export const challenges = new Shelf("panal.challenge.");

/** The invitation codes a table's host holds: {seat: code}. */
export function tableInvites(tableId) {
  try {
    return JSON.parse(read(`panal.table.${tableId}.invites`) || "{}");
  } catch {
    return {};
  }
}

export function saveTableInvites(tableId, invites) {
  write(`panal.table.${tableId}.invites`, JSON.stringify(invites));
}

const CHOICES = { language: "panal.language", look: "panal.look", confirmMoves: "panal.confirmMoves" };

export const savedLanguage = () => read(CHOICES.language);
export const saveLanguage = (code) => write(CHOICES.language, code);

/** The look the reader chose (null: never chose; then a game shows the look it was created in). */
export const savedLook = () => read(CHOICES.look);
export const saveLook = (look) => write(CHOICES.look, look);

/** Whether a move waits for a second tap on "Play it": on by default on touch screens, where a
 *  slip of the finger would otherwise play a move. */
export function confirmMoves() {
  const saved = read(CHOICES.confirmMoves);
  if (saved !== null) return saved === "1";
  return window.matchMedia?.("(pointer: coarse)").matches ?? false;
}

export const saveConfirmMoves = (on) => write(CHOICES.confirmMoves, on ? "1" : "0");

/** This browser's client token, made once and kept ("panal.client"): the server counts the caps
 *  on AI games and tables with bots per client, and lists a guest's unfinished games by it
 *  (panal/server/http/clients.py). Without storage it lasts for this page. */
let pageClient = null;

export function clientToken() {
  let token = read("panal.client");
  if (!token) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    token = pageClient || btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
    pageClient = token;
    write("panal.client", token);
  }
  return token;
}
// The trainer's progress of a guest (a signed-in player's is on the server): the puzzle rating
// its browser keeps ({rating, deviation, volatility}, rated by the server), the lessons it
// completed, and its best streak.
function readJson(key, fallback) {
  try {
    return JSON.parse(read(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

export const guestPuzzleRating = () => readJson("panal.puzzleRating", null);
export const saveGuestPuzzleRating = (rating) => write("panal.puzzleRating", JSON.stringify(rating));
export const guestLessons = () => readJson("panal.lessonsDone", []);
export function saveGuestLesson(id) {
  const done = guestLessons();
  if (!done.includes(id)) write("panal.lessonsDone", JSON.stringify([...done, id]));
}
export const bestStreak = () => Number(read("panal.bestStreak")) || 0;
export const saveBestStreak = (n) => write("panal.bestStreak", String(n));

// The chat senders a guest muted (an account's mutes are kept by the server).
export const guestChatMutes = () => readJson("panal.chatMuted", []);
export const saveGuestChatMutes = (senders) => write("panal.chatMuted", JSON.stringify(senders));
