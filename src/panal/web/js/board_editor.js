// The board editor: set up any position, pieces of both colours, stacks, the side to move. The
// editor only arranges pieces; the server checks every invariant (panal.hive.Game.from_board)
// and the page says what is wrong in the reader's language.

import { escapeHtml } from "./dom.js";
import { needsMet, ruleOptionMarkup } from "./home_page.js";
import { bugName, colorName, pieceName, t } from "./i18n.js";
import { pieceSvg } from "./pieces.js";
import { cellKey } from "./position.js";

const BASE_COUNTS = { Q: 1, S: 2, B: 2, G: 3, A: 3 };
const EXPANSION_LETTERS = ["M", "L", "P", "D"];

/** Every piece of a game type ("Base+MLP"), by colour, in bug order. */
export function piecesOf(type) {
  const letters = (type.split("+")[1] || "").split("");
  const counts = { ...BASE_COUNTS };
  for (const letter of letters) counts[letter] = 1;
  const pieces = [[], []];
  ["w", "b"].forEach((color, side) => {
    for (const [bug, count] of Object.entries(counts)) {
      if (count === 1) pieces[side].push(`${color}${bug}`);
      else for (let n = 1; n <= count; n += 1) pieces[side].push(`${color}${bug}${n}`);
    }
  });
  return pieces;
}

export class BoardEditor {
  /** start: {type, options, stacks: Map key → pieces, turn}; the editor owns a copy.
   *  rules: the rule options as home_page.js's ruleOptions(config) lists them. */
  constructor(start, rules = []) {
    this.type = start.type || "Base";
    this.rules = rules;
    this.options = { ...(start.options || {}) };
    this.stacks = new Map([...(start.stacks || new Map())].map(([key, stack]) => [key, [...stack]]));
    this.turn = start.turn ?? 0;
    this.selected = null; // the palette piece to put down next
    this.error = null;
  }

  onBoard() {
    return new Set([...this.stacks.values()].flat());
  }

  /** The next piece of each kind and colour not on the board (number order), with how many are left. */
  palette() {
    const used = this.onBoard();
    return piecesOf(this.type).map((pieces) => {
      const byBug = new Map();
      for (const piece of pieces) {
        if (used.has(piece)) continue;
        const bug = piece[1];
        if (!byBug.has(bug)) byBug.set(bug, { piece, left: 0 });
        byBug.get(bug).left += 1;
      }
      return [...byBug.values()];
    });
  }

  /** A click on a cell: the chosen piece goes on top; with none chosen, the top piece comes off. */
  onCell(q, r) {
    const key = cellKey(q, r);
    const stack = this.stacks.get(key) || [];
    this.error = null;
    if (this.selected) {
      this.stacks.set(key, [...stack, this.selected]);
      this.selected = null; // choose again for the next one: a click with none chosen takes off
    } else if (stack.length) {
      stack.pop();
      if (stack.length) this.stacks.set(key, stack);
      else this.stacks.delete(key);
    }
  }

  setType(type) {
    this.type = type;
    const allowed = new Set(piecesOf(type).flat());
    for (const [key, stack] of this.stacks) {
      const kept = stack.filter((piece) => allowed.has(piece));
      if (kept.length) this.stacks.set(key, kept);
      else this.stacks.delete(key);
    }
    if (this.selected && !allowed.has(this.selected)) this.selected = null;
  }

  /** The position for the server: {stacks: [[q, r, pieces]], turn, turn_number: null}. */
  setup() {
    const stacks = [...this.stacks].map(([key, stack]) => {
      const [q, r] = key.split(",").map(Number);
      return [q, r, [...stack]];
    });
    return { stacks, turn: this.turn, turn_number: null };
  }

  scene(look) {
    // Every empty cell next to the hive (and the centre) takes a piece; so does every stack.
    return { stacks: this.stacks, look, selectable: new Set(), selected: null, destinations: new Map(), lastMove: null, pending: null, surrounded: new Set() };
  }

  markup(look) {
    const letters = new Set((this.type.split("+")[1] || "").split(""));
    const palette = this.palette()
      .map(
        (entries, color) =>
          `<div class="editor-side"><h3>${escapeHtml(colorName(color))}</h3><ul class="hand-strip">${entries
            .map(
              ({ piece, left }) =>
                `<li><button type="button" class="hand-piece${this.selected === piece ? " selected" : ""}" data-edit-piece="${piece}" aria-pressed="${this.selected === piece}" aria-label="${escapeHtml(pieceName(piece, true))}">${pieceSvg(piece, look, 40)}${left > 1 ? `<span class="count">${left}</span>` : ""}</button></li>`,
            )
            .join("")}</ul></div>`,
      )
      .join("");
    const expansions = EXPANSION_LETTERS.map(
      (letter) =>
        `<label class="choice"><input type="checkbox" data-edit-expansion="${letter}" ${letters.has(letter) ? "checked" : ""}> ${escapeHtml(bugName(letter))}</label>`,
    ).join("");
    // Every rule option that applies to the pieces in play (the Dragonfly's among them).
    const rules = this.rules
      .filter((option) => needsMet(option.needs || "", letters))
      .map((option) => ruleOptionMarkup(option, this.options[option.field] ?? option.initial))
      .join("");
    return (
      `<p class="muted">${escapeHtml(t("analysis.editHelp"))}</p>${palette}` +
      `<fieldset class="editor-options"><legend>${escapeHtml(t("analysis.expansions"))}</legend>${expansions}</fieldset>` +
      `<fieldset class="editor-rules" data-edit-rules><legend>${escapeHtml(t("new.rules"))}</legend>${rules}</fieldset>` +
      `<label>${escapeHtml(t("analysis.toMove"))} <select data-edit-turn>` +
      [0, 1].map((c) => `<option value="${c}" ${this.turn === c ? "selected" : ""}>${escapeHtml(colorName(c))}</option>`).join("") +
      `</select></label>` +
      (this.error ? `<p class="error" role="alert" data-edit-error>${escapeHtml(this.error)}</p>` : "") +
      `<div class="editor-actions"><button type="button" class="primary" data-action="edit-done">${escapeHtml(t("analysis.editDone"))}</button> ` +
      `<button type="button" data-action="edit-clear">${escapeHtml(t("analysis.editClear"))}</button> ` +
      `<button type="button" data-action="edit-cancel">${escapeHtml(t("analysis.editCancel"))}</button></div>`
    );
  }
}
