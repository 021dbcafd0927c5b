// The board of an Enjambre Tácticas lesson: the learner's view of the table (as a table's page
// gets it), drawn by enjambre_board.js, and the learner's picks turned into one action text the
// server judges ("place 1 H10", "H9-H8-E6", "scout I8"). A pick of an unlit cell is sent too: the
// engine refuses it naming the rule, which is what the lesson is for.

import { escapeHtml } from "./dom.js";
import { TableBoard } from "./enjambre_board.js";
import { colourName } from "./enjambre_view.js";
import { t } from "./i18n.js";
import { cellKey } from "./position.js";

export class EnjambreLessonBoard {
  // onAction(text) → Promise
  constructor(root, table, onAction) {
    this.root = root;
    this.table = table; // the fixed board (cells, labels, colours)
    this.onAction = onAction;
    this.view = null;
    this.selected = null;
    this.locked = false;
    this.labels = new Map(table.cells.map((cell) => [cellKey(...cell.cell), cell.label]));
    root.innerHTML = `<div class="enj-lesson-board"></div><div class="trainer-actions" data-table-actions></div>`;
    this.board = new TableBoard(root.querySelector(".enj-lesson-board"), {
      onCell: (key) => this.pickCell(key),
      onTile: (id) => this.pickTile(id),
      onDrop: (dragged, key) => {
        if (dragged.tile === undefined || !key) return;
        this.selected = dragged.tile;
        this.pickCell(key);
      },
    });
    this.board.labels({ zoomIn: t("enj.zoomIn"), zoomOut: t("enj.zoomOut") });
    root.addEventListener("click", (event) => {
      if (event.target.closest("[data-action=scout]") && this.selected !== null) this.send(`scout ${this.labelOfTile(this.selected)}`);
    });
  }

  destroy() {
    this.board.destroy();
  }

  show(view) {
    this.view = view;
    this.selected = null;
    this.render();
  }

  tile(id) {
    return this.view.tiles.find((tile) => tile.id === id);
  }

  labelOfTile(id) {
    return this.labels.get(cellKey(...this.tile(id).cell));
  }

  render() {
    const view = this.view;
    const legal = this.locked ? null : view.legal;
    const moves = legal?.moves || {};
    const scout = new Set(legal?.scout || []);
    const lit = new Map();
    let zone = new Set();
    if (legal?.place) {
      zone = new Set(view.zone.map(([q, r]) => cellKey(q, r)));
      for (const key of zone) lit.set(key, { kind: "place", label: t("enj.cell.place", { n: 1, cell: this.labels.get(key) }) });
    } else if (this.selected !== null && moves[this.selected]) {
      for (const path of moves[this.selected].paths) {
        const key = cellKey(...path.cells[path.cells.length - 1]);
        const kind = path.attack !== null ? "attack" : "move";
        lit.set(key, { kind, label: t(kind === "attack" ? "enj.cell.attack" : "enj.cell.move", { cell: this.labels.get(key) }), path: path.cells });
      }
    }
    const tiles = view.tiles.map((tile) => {
      const mine = tile.owner === view.viewer;
      const colour = view.colours[tile.owner];
      const where = this.labels.get(cellKey(...tile.cell));
      const label = mine
        ? t("enj.tile.mine", { number: tile.number ?? "?", cell: where })
        : tile.number !== null
          ? t("enj.tile.shown", { colour: colourName(colour), number: tile.number, cell: where })
          : t("enj.tile.other", { colour: colourName(colour), cell: where });
      return { ...tile, colour, mine, selectable: Boolean(legal) && mine && (String(tile.id) in moves || scout.has(tile.id)), label };
    });
    this.board.render({ board: this.table, sectors: view.sectors, tiles, lit, zone, selected: this.selected, lastMove: null, combatCell: null, label: t("enj.board") });
    const canScout = this.selected !== null && scout.has(this.selected);
    this.root.querySelector("[data-table-actions]").innerHTML = canScout
      ? `<button type="button" data-action="scout">${escapeHtml(t("enj.turn.scout"))}</button>`
      : "";
  }

  pickTile(id) {
    if (this.locked) return;
    const tile = this.tile(id);
    if (!tile || tile.owner !== this.view.viewer) {
      if (tile && this.selected !== null) this.pickCell(cellKey(...tile.cell)); // an attack
      return;
    }
    this.selected = this.selected === id ? null : id;
    this.render();
  }

  pickCell(key) {
    if (this.locked) return;
    const label = this.labels.get(key);
    if (this.view.legal?.place) {
      this.send(`place 1 ${label}`);
      return;
    }
    if (this.selected === null) return;
    const origin = this.labelOfTile(this.selected);
    const path = this.board.model?.lit?.get(key)?.path;
    const cells = path ? path.map((cell) => this.labels.get(cellKey(...cell))) : [label];
    this.send([origin, ...cells].join("-"));
  }

  async send(text) {
    this.locked = true;
    this.render();
    try {
      await this.onAction(text);
    } finally {
      this.locked = false;
      this.selected = null;
      this.render();
    }
  }
}
