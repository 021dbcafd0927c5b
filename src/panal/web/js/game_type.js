// A Hive game type in the forms and lists of the lobby, the new-game form and the tournaments:
// the expansion pieces as checkboxes, the "Base+MLP" string sent to the server, and the
// pieces named in the reader's language.

import { bugName } from "./i18n.js";

export const EXPANSIONS = ["M", "L", "P", "D"];

/** The game type for a set of chosen expansion letters ("Base" or "Base+MLP", in order). */
export function gameTypeOf(chosen) {
  const letters = EXPANSIONS.filter((letter) => chosen.has(letter)).join("");
  return letters ? `Base+${letters}` : "Base";
}

/** The expansion pieces of a game type in words ("" for the base game). */
export function expansionsText(gameType) {
  const extras = gameType.split("+")[1] || "";
  return [...extras].map((letter) => bugName(letter)).join(", ");
}

/** One checkbox (name "expansion") for each expansion piece, the chosen ones checked. */
export function expansionChoices(chosen) {
  return EXPANSIONS.map(
    (letter) => `<label class="choice"><input type="checkbox" name="expansion" value="${letter}" ${chosen.has(letter) ? "checked" : ""}> ${bugName(letter)}</label>`,
  ).join("");
}
