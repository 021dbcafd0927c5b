// The Enjambre Tácticas board as SVG, drawn from the board data the server sends
// (/api/enjambre/config: cells, kinds, sectors, labels) and from what the page wants shown: the
// tiles of a view, lit cells, the selected tile, the last move, a combat. It holds no rules: the
// page says which cells are lit and what a tap on them means.
//
// Every tile and every lit cell is a focusable button with a label; a tap, Enter or Space
// activates it. Tiles can also be dragged to a lit cell (the page decides what the drop does).
// The board zooms (buttons, Ctrl+wheel) and pans (drag on the background) so that its cells
// are large enough to tap on a phone.

import { cellKey, toPixel } from "./position.js";

const SIZE = 30;
const SVG_NS = "http://www.w3.org/2000/svg";
export const FILL = {
  orange: ["#f28c28", "#fbd9b4"],
  blue: ["#2f6fd6", "#bcd2f5"],
  green: ["#2e9e4f", "#bfe6c9"],
  red: ["#d33a3a", "#f4c2c2"],
  purple: ["#8a4fc9", "#dccbf0"],
  yellow: ["#c9a90f", "#f6eeb0"],
};
const KIND_FILL = { dark: "#5b5b5b", neutral: "#efe8d8", centre: "#c8a400" };
const UNUSED_ZONE = "#e4ddd0"; // the zone of a colour nobody plays: plain board
const ZOOMS = [1, 1.4, 2, 2.8, 4];

function corners(x, y, size) {
  const points = [];
  for (let k = 0; k < 6; k += 1) {
    const angle = (Math.PI / 180) * (60 * k - 30);
    points.push(`${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function escape(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}

export function colourFill(colour, strong = true) {
  const pair = FILL[colour] || ["#888", "#ddd"];
  return strong ? pair[0] : pair[1];
}

export class TableBoard {
  // handlers: onCell(key), onTile(id), onDrop(dragged, key); dragged = {tile} or {number}
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    this.zoomIndex = 0;
    this.centre = null; // the point the view is centred on when zoomed in
    this.model = null;
    container.classList.add("enj-board-area");
    container.innerHTML = `<div class="enj-board-holder"></div>
      <div class="zoom-controls"><button type="button" data-zoom="in">+</button><button type="button" data-zoom="out">−</button></div>`;
    this.holder = container.querySelector(".enj-board-holder");
    container.querySelector("[data-zoom=in]").addEventListener("click", () => this.zoom(1));
    container.querySelector("[data-zoom=out]").addEventListener("click", () => this.zoom(-1));
    this.holder.addEventListener("click", (event) => this.onClick(event));
    this.holder.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const target = event.target.closest("[data-tile], [data-cell]");
      if (!target) return;
      event.preventDefault();
      this.activate(target);
    });
    this.holder.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.holder.addEventListener("wheel", (event) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      this.zoom(event.deltaY < 0 ? 1 : -1);
    }, { passive: false });
  }

  labels(texts) {
    this.texts = texts;
    this.container.querySelector("[data-zoom=in]").setAttribute("aria-label", texts.zoomIn);
    this.container.querySelector("[data-zoom=out]").setAttribute("aria-label", texts.zoomOut);
  }

  zoom(direction) {
    this.zoomIndex = Math.max(0, Math.min(ZOOMS.length - 1, this.zoomIndex + direction));
    if (this.zoomIndex === 0) this.centre = null;
    this.applyViewBox();
  }

  bounds() {
    const xs = [];
    const ys = [];
    for (const cell of this.model.board.cells) {
      const { x, y } = toPixel(cell.cell[0], cell.cell[1], SIZE);
      xs.push(x);
      ys.push(y);
    }
    const margin = SIZE * 1.1;
    return { minX: Math.min(...xs) - margin, minY: Math.min(...ys) - margin, maxX: Math.max(...xs) + margin, maxY: Math.max(...ys) + margin };
  }

  applyViewBox() {
    const svg = this.holder.querySelector("svg");
    if (!svg || !this.model) return;
    const b = this.bounds();
    const width = (b.maxX - b.minX) / ZOOMS[this.zoomIndex];
    const height = (b.maxY - b.minY) / ZOOMS[this.zoomIndex];
    const centre = this.centre || { x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 };
    const x = Math.max(b.minX, Math.min(b.maxX - width, centre.x - width / 2));
    const y = Math.max(b.minY, Math.min(b.maxY - height, centre.y - height / 2));
    svg.setAttribute("viewBox", `${x.toFixed(1)} ${y.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`);
  }

  /** Zoom in on a cell (the own zone during the set-up on a phone, say). */
  focusOn(q, r, level = 2) {
    this.zoomIndex = level;
    this.centre = toPixel(q, r, SIZE);
    this.applyViewBox();
  }

  render(model) {
    this.model = model;
    const lit = model.lit || new Map();
    const zone = model.zone || new Set();
    const parts = [];
    for (const cell of model.board.cells) {
      const [q, r] = cell.cell;
      const key = cellKey(q, r);
      const { x, y } = toPixel(q, r, SIZE);
      const colour = cell.sector === null ? null : model.board.colours[cell.sector];
      let fill = KIND_FILL[cell.kind] || "#ddd";
      const used = !model.sectors || model.sectors.includes(cell.sector);
      if (cell.kind === "zone") fill = used ? colourFill(colour, false) : UNUSED_ZONE;
      if (cell.kind === "colmena") fill = colourFill(colour, true);
      const light = lit.get(key);
      const classes = ["cell", `kind-${cell.kind}`];
      if (zone.has(key)) classes.push("zone-lit");
      if (light) classes.push("lit", `lit-${light.kind}`);
      if (model.lastMove && (model.lastMove.to === key)) classes.push("last-to");
      if (model.lastMove && (model.lastMove.from === key)) classes.push("last-from");
      if (model.combatCell === key) classes.push("combat-cell");
      const focus = light ? ` tabindex="0" role="button" aria-label="${escape(light.label)}"` : "";
      const mark = light
        ? `<circle class="lit-mark" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${light.kind === "attack" ? SIZE * 0.78 : SIZE * 0.32}"/>`
        : "";
      const labelColour = cell.kind === "dark" || cell.kind === "colmena" ? "#fff" : "#6f6456";
      parts.push(
        `<g class="${classes.join(" ")}" data-cell="${key}"${focus}><polygon points="${corners(x, y, SIZE * 0.97)}" fill="${fill}"/>` +
          `<text class="cell-label" x="${x.toFixed(1)}" y="${(y + SIZE * 0.62).toFixed(1)}" fill="${labelColour}">${cell.kind === "centre" ? "★" : escape(cell.label)}</text>${mark}</g>`,
      );
    }
    if (model.lastMove?.fromXY && model.lastMove?.toXY) {
      const a = model.lastMove.fromXY;
      const b = model.lastMove.toXY;
      parts.push(`<line class="last-line" x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}"/>`);
    }
    for (const tile of model.tiles) parts.push(this.tileSvg(tile, model, lit));
    this.holder.innerHTML = `<svg class="enj-board" xmlns="${SVG_NS}" role="group" aria-label="${escape(model.label || "")}">${parts.join("")}</svg>`;
    this.applyViewBox();
  }

  tileSvg(tile, model, lit) {
    const [q, r] = tile.cell;
    const key = cellKey(q, r);
    const { x, y } = toPixel(q, r, SIZE);
    const classes = ["tile"];
    if (tile.mine) classes.push("mine");
    if (tile.marked) classes.push("marked");
    if (tile.shown) classes.push("shown");
    if (tile.active) classes.push("active");
    if (tile.pending) classes.push("pending");
    if (model.selected === tile.id && tile.id !== undefined) classes.push("selected");
    if (tile.selectable) classes.push("selectable");
    const target = lit.get(key);
    const focusable = tile.selectable && !target;
    const attributes = focusable ? ` tabindex="0" role="button" aria-label="${escape(tile.label || "")}"` : ` aria-label="${escape(tile.label || "")}"`;
    const data = tile.id !== undefined ? ` data-tile="${tile.id}"` : ` data-number="${tile.number}"`;
    const number = tile.number === null || tile.number === undefined ? "?" : String(tile.number);
    const marker = tile.marked ? `<circle class="marker" cx="${(x + SIZE * 0.48).toFixed(1)}" cy="${(y - SIZE * 0.48).toFixed(1)}" r="${SIZE * 0.17}"/>` : "";
    return (
      `<g class="${classes.join(" ")}"${data} data-at="${key}"${attributes}>` +
      `<circle class="tile-body" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${SIZE * 0.66}" fill="${colourFill(tile.colour, true)}"/>` +
      `<text class="tile-number${number === "?" ? " hidden-number" : ""}" x="${x.toFixed(1)}" y="${(y + SIZE * 0.25).toFixed(1)}">${number}</text>${marker}</g>`
    );
  }

  activate(element) {
    if (element.dataset.tile !== undefined) {
      const at = element.dataset.at;
      if (this.model.lit?.has(at)) this.handlers.onCell(at);
      else this.handlers.onTile(Number(element.dataset.tile));
    } else if (element.dataset.number !== undefined) {
      this.handlers.onTile(null, Number(element.dataset.number));
    } else if (element.dataset.cell) {
      this.handlers.onCell(element.dataset.cell);
    }
  }

  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const target = event.target.closest("[data-tile], [data-number], [data-cell]");
    if (target) this.activate(target);
  }

  // Dragging: a tile to a cell (the page decides), or the background to pan when zoomed in.
  onPointerDown(event) {
    if (event.button !== 0) return;
    const svg = this.holder.querySelector("svg");
    const tile = event.target.closest(".tile.selectable, .tile.pending");
    if (tile) {
      this.startTileDrag(event, tile);
      return;
    }
    if (this.zoomIndex === 0 || !svg) return;
    const start = { x: event.clientX, y: event.clientY };
    const box = svg.viewBox.baseVal;
    const scale = box.width / svg.getBoundingClientRect().width;
    const origin = this.centre || { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    let moved = false;
    const move = (e) => {
      const dx = (e.clientX - start.x) * scale;
      const dy = (e.clientY - start.y) * scale;
      if (Math.abs(dx) + Math.abs(dy) > 4) moved = true;
      this.centre = { x: origin.x - dx, y: origin.y - dy };
      this.applyViewBox();
    };
    this.gesture?.abort();
    this.gesture = followPointer(move, () => {
      if (moved) this.suppressClick = true;
    });
  }

  startTileDrag(event, element) {
    const dragged = element.dataset.tile !== undefined ? { tile: Number(element.dataset.tile) } : { number: Number(element.dataset.number) };
    this.gesture?.abort();
    this.gesture = startDrag(event, element, dragged, (key) => this.handlers.onDrop(dragged, key), () => {
      this.suppressClick = true;
    });
  }

  /** The page is left: a pan or a drag under way stops, and its listeners on the window go. */
  destroy() {
    this.gesture?.abort();
    this.gesture = null;
  }
}

/** Follow the pointer on the window until it is lifted (`end(e)`) or the gesture is cancelled:
 *  its listeners go then, or when the returned controller is aborted (the page is left). */
function followPointer(move, end, cancelled = () => {}) {
  const listening = new AbortController();
  const signal = listening.signal;
  window.addEventListener("pointermove", move, { signal });
  window.addEventListener("pointerup", (e) => {
    listening.abort();
    end(e);
  }, { signal });
  window.addEventListener("pointercancel", () => listening.abort(), { signal });
  signal.addEventListener("abort", cancelled);
  return listening;
}

/** Drag `element` (its look follows the pointer) and drop it on a board cell: `drop(key)`
 *  with the cell under the pointer, if any. A press without a move is left to the click.
 *  Returns an AbortController: aborting it stops the drag (the page is left). */
export function startDrag(event, element, dragged, drop, moved) {
  const start = { x: event.clientX, y: event.clientY };
  let ghost = null;
  const move = (e) => {
    if (!ghost && Math.abs(e.clientX - start.x) + Math.abs(e.clientY - start.y) < 8) return;
    if (!ghost) {
      ghost = document.createElement("div");
      ghost.className = "drag-ghost enj-ghost";
      ghost.textContent = element.textContent.trim() || "•";
      document.body.append(ghost);
      moved?.();
    }
    ghost.style.left = `${e.clientX - 18}px`;
    ghost.style.top = `${e.clientY - 18}px`;
  };
  const up = (e) => {
    if (!ghost) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const cell = under?.closest("[data-cell], [data-at]");
    const key = cell?.dataset.cell || cell?.dataset.at;
    if (key) drop(key);
  };
  // However the drag ends (dropped, cancelled, the page left), its ghost goes.
  const following = followPointer(move, up, () => ghost?.remove());
  event.preventDefault?.();
  return following;
}
