// The board of the puzzle trainer and of the tutorial: a position the server sent ({stacks,
// hands, turn, legal, last, state}), the pieces in hand of the side to move, and the player's
// picks turned into one move request ({move} or {piece, to}). A move to an unlit cell is sent
// too: the server refuses it naming the rule, which is what the tutorial is for. Drawing is
// board.js's, the pieces pieces.js's; this part holds no rules.

import { Board } from "./board.js";
import { escapeHtml } from "./dom.js";
import { getLook, pieceName, t } from "./i18n.js";
import { pieceSvg } from "./pieces.js";
import { cellKey, surroundedQueens } from "./position.js";

export class TrainerBoard {
  // onMove(request) → Promise; the board is locked while it runs.
  constructor(root, onMove) {
    this.root = root;
    this.onMove = onMove;
    this.position = null;
    this.selected = null;
    this.locked = false;
    this.look = null; // null: the reader's look
    root.innerHTML = `
      <div class="board-area trainer-board">
        <div class="board-holder"></div>
        <div class="zoom-controls">
          <button type="button" data-action="zoom-in" aria-label="+">+</button>
          <button type="button" data-action="zoom-out" aria-label="−">−</button>
          <button type="button" data-action="fit" aria-label="⤢">⤢</button>
        </div>
      </div>
      <div class="hand trainer-hand" data-hand></div>`;
    this.board = new Board(root.querySelector(".board-holder"), {
      onPiece: (piece) => this.pick(piece),
      onCell: (q, r) => this.target(q, r),
      onDrop: (piece, q, r) => {
        if (q === null) return;
        this.selected = piece;
        this.target(q, r);
      },
      describeCell: (key, stack) => stack.map((piece) => pieceName(piece, true)).join(", "),
    });
    root.addEventListener("click", (event) => {
      const handPiece = event.target.closest("[data-hand] [data-piece]");
      if (handPiece && !handPiece.disabled) this.pick(handPiece.dataset.piece);
      const action = event.target.closest("[data-action]")?.dataset.action;
      if (action === "zoom-in") this.board.zoom(1.25);
      if (action === "zoom-out") this.board.zoom(1 / 1.25);
      if (action === "fit") this.board.resetView();
    });
  }

  destroy() {
    this.board.destroy();
  }

  show(position, { fit = false } = {}) {
    this.position = position;
    this.selected = null;
    this.render();
    if (fit || !this.board.userMovedView) this.board.fit();
  }

  legal() {
    return this.locked ? [] : this.position?.legal || [];
  }

  destinations() {
    const result = new Map();
    for (const move of this.legal()) {
      if (move.piece !== this.selected || !move.to) continue;
      const key = cellKey(...move.to);
      if (!result.has(key) || !move.carry) result.set(key, move);
    }
    return result;
  }

  render() {
    const position = this.position;
    if (!position) return;
    const stacks = new Map(Object.entries(position.stacks));
    const destinations = new Map();
    for (const [key, move] of this.destinations()) destinations.set(key, t("game.moveTo", { piece: pieceName(move.piece, true), where: move.move }));
    const look = this.look || getLook();
    // A lesson in another look (the football lessons) is drawn in it, field included; the
    // names under the hand's pieces, which speak the reader's look, are left out then.
    const ownLook = look === getLook();
    this.root.querySelector(".board-area").dataset.look = look;
    this.board.setLabel(t("game.board"));
    this.board.render({
      stacks,
      look,
      selectable: new Set(this.legal().map((move) => move.piece).filter(Boolean)),
      selected: this.selected,
      destinations,
      lastMove: position.last,
      pending: null,
      surrounded: surroundedQueens(stacks),
    });
    const hand = position.hands[position.turn] || [];
    const movable = new Set(this.legal().map((move) => move.piece));
    const counts = new Map();
    for (const piece of hand) {
      const kind = piece.replace(/\d+$/, "");
      if (!counts.has(kind)) counts.set(kind, { piece, n: 0 });
      counts.get(kind).n += 1;
    }
    this.root.querySelector("[data-hand]").innerHTML = hand.length
      ? `<ul class="hand-strip" aria-label="${escapeHtml(t("training.hand"))}">${[...counts.values()]
          .map(({ piece, n }) => {
            const playable = [...movable].find((p) => p && p.replace(/\d+$/, "") === piece.replace(/\d+$/, "") && hand.includes(p));
            const shown = playable || piece;
            return `<li><button type="button" class="hand-piece${this.selected === shown ? " selected" : ""}" data-piece="${shown}" ${playable ? "" : "disabled"} aria-label="${escapeHtml(pieceName(shown, true))}">
              ${pieceSvg(shown, look, 40, { number: false })}${n > 1 ? `<span class="count">${n}</span>` : ""}${ownLook ? `<span class="hand-name">${escapeHtml(pieceName(shown))}</span>` : ""}</button></li>`;
          })
          .join("")}</ul>`
      : "";
  }

  pick(piece) {
    if (this.locked) return;
    this.selected = this.selected === piece ? null : piece;
    this.render();
  }

  async target(q, r) {
    if (!this.selected || this.locked) return;
    const move = this.destinations().get(cellKey(q, r));
    await this.send(move ? { move: move.move } : { piece: this.selected, to: [q, r] });
  }

  async send(request) {
    this.locked = true;
    this.selected = null;
    this.render();
    try {
      await this.onMove(request);
    } finally {
      this.locked = false;
      this.render();
    }
  }

  canPass() {
    return this.legal().some((move) => move.move === "pass");
  }
}
