// The reader's choices, kept in this browser (localStorage): language, look, move confirmation.

const KEYS = { language: "panal.language", look: "panal.look", confirmMoves: "panal.confirmMoves" };

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // No storage (private browsing): the choice lasts for this page only.
  }
}

export const savedLanguage = () => read(KEYS.language);
export const saveLanguage = (code) => write(KEYS.language, code);

/** The look the reader chose (null: never chose; then a game shows the look it was created in). */
export const savedLook = () => read(KEYS.look);
export const saveLook = (look) => write(KEYS.look, look);

/** Whether a move waits for a second tap on "Play it": on by default on touch screens, where a
 *  slip of the finger would otherwise play a move. */
export function confirmMoves() {
  const saved = read(KEYS.confirmMoves);
  if (saved !== null) return saved === "1";
  return window.matchMedia?.("(pointer: coarse)").matches ?? false;
}

export const saveConfirmMoves = (on) => write(KEYS.confirmMoves, on ? "1" : "0");
