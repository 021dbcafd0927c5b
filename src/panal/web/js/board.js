// The SVG hex board: draws stacks, lit destinations and the last move; pans and zooms; turns
// clicks, drags and keys into three callbacks. It knows nothing of the rules: the game page says
// which pieces may be picked and where they may go.

import { HEX_SIZE, hexPoints, pieceMarkup, pieceSvg } from "./pieces.js";
import { DIRECTIONS, cellKey, parseKey, toPixel } from "./position.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const STACK_SHIFT = { x: -3, y: -4.5 }; // each level up is drawn a little up and left
const DRAG_THRESHOLD = 6;

export class Board {
  // callbacks: onPiece(piece), onCell(q, r), onDrop(piece, q, r), describeCell(key, stack)
  constructor(container, callbacks) {
    this.callbacks = callbacks;
    this.view = { x: -200, y: -200, w: 400, h: 400 };
    this.userMovedView = false;
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.setAttribute("class", "board");
    this.svg.setAttribute("role", "application");
    this.layer = document.createElementNS(SVG_NS, "g");
    this.svg.appendChild(this.layer);
    container.appendChild(this.svg);
    this.pointer = null;
    this.touches = new Map(); // fingers on the board (pointerId → client point), for pinch zoom
    this.ghost = null;
    // Every listener is added with this signal: destroy() removes them all at once (the ones on
    // the window would otherwise outlive the board and keep the page that made it alive).
    this.listeners = new AbortController();
    this.bindEvents();
  }

  /** The board is replaced or its page left: its listeners go, its drawing and any drag too. */
  destroy() {
    this.listeners.abort();
    this.removeGhost();
    this.pointer = null;
    this.touches.clear();
    this.svg.remove();
  }

  setLabel(text) {
    this.svg.setAttribute("aria-label", text);
  }

  // scene: {stacks: Map, look, selectable: Set, selected, destinations: Map(key → label),
  //         lastMove: {from, to} | null, pending: {piece, key} | null (a move waiting to be
  //         confirmed, drawn faintly where it goes), surrounded: Set of keys (queens to ring)}
  render(scene) {
    this.scene = scene;
    const parts = [];
    const occupied = scene.stacks;
    // Empty cells around the hive: faint, so a player can try any cell and learn the rule.
    const around = new Set();
    for (const key of occupied.keys()) {
      const { q, r } = parseKey(key);
      for (const [dq, dr] of DIRECTIONS) {
        const near = cellKey(q + dq, r + dr);
        if (!occupied.has(near)) around.add(near);
      }
    }
    if (!occupied.size) around.add(cellKey(0, 0));
    for (const key of scene.destinations.keys()) if (!occupied.has(key)) around.add(key);
    for (const key of around) {
      const { q, r } = parseKey(key);
      const { x, y } = toPixel(q, r, HEX_SIZE);
      const label = scene.destinations.get(key);
      const lit = label !== undefined;
      const attrs = lit ? `tabindex="0" role="button" aria-label="${escapeAttr(label)}" data-dest="1"` : "";
      parts.push(
        `<g class="cell empty${lit ? " dest" : ""}" data-cell="${key}" transform="translate(${x.toFixed(2)} ${y.toFixed(2)})" ${attrs}>` +
          `<polygon points="${hexPoints(HEX_SIZE - 2)}"/>${lit ? '<circle r="6"/>' : ""}</g>`,
      );
    }
    // Stacks: bottom pieces first, each level shifted; the top piece carries the interactions.
    const badges = [];
    const ordered = [...occupied.entries()].sort(([a], [b]) => {
      const pa = parseKey(a);
      const pb = parseKey(b);
      return pa.r - pb.r || pa.q - pb.q;
    });
    for (const [key, stack] of ordered) {
      const { q, r } = parseKey(key);
      const { x, y } = toPixel(q, r, HEX_SIZE);
      const top = stack[stack.length - 1];
      const label = scene.destinations.get(key);
      const lit = label !== undefined;
      const selectable = scene.selectable.has(top);
      const classes = ["cell", "stack"];
      if (lit) classes.push("dest");
      if (selectable) classes.push("selectable");
      if (scene.selected === top) classes.push("selected");
      const surrounded = scene.surrounded?.has(key);
      if (surrounded) classes.push("surrounded");
      const description = this.callbacks.describeCell(key, stack);
      const focusable = lit || selectable;
      const aria = lit ? label : description;
      parts.push(
        `<g class="${classes.join(" ")}" data-cell="${key}" data-piece="${top}" data-height="${stack.length}" ` +
          `transform="translate(${x.toFixed(2)} ${y.toFixed(2)})" ` +
          `${focusable ? 'tabindex="0" role="button"' : 'role="img"'} ${lit ? 'data-dest="1"' : ""} ${surrounded ? 'data-surrounded="1"' : ""} aria-label="${escapeAttr(aria)}">`,
      );
      stack.forEach((piece, level) => {
        const dx = STACK_SHIFT.x * level;
        const dy = STACK_SHIFT.y * level;
        parts.push(`<g class="piece" data-level="${level}" transform="translate(${dx} ${dy})">${pieceMarkup(piece, scene.look)}</g>`);
      });
      const topShift = `translate(${STACK_SHIFT.x * (stack.length - 1)} ${STACK_SHIFT.y * (stack.length - 1)})`;
      if (stack.length > 1) {
        // Drawn last, above the last-move ring, so the height always shows.
        badges.push(
          `<g class="height-badge" transform="translate(${x.toFixed(2)} ${y.toFixed(2)}) ${topShift}" aria-hidden="true">` +
            `<circle cx="19" cy="-19" r="8"/><text x="19" y="-15.5">${stack.length}</text></g>`,
        );
      }
      if (lit) parts.push(`<g transform="${topShift}"><polygon class="dest-ring" points="${hexPoints(HEX_SIZE - 3)}"/></g>`);
      parts.push("</g>");
      if (surrounded) {
        // Drawn above everything: the ring that ends the game.
        badges.unshift(
          `<polygon class="surround-ring" points="${hexPoints(HEX_SIZE - 2)}" transform="translate(${(x + STACK_SHIFT.x * (stack.length - 1)).toFixed(2)} ${(y + STACK_SHIFT.y * (stack.length - 1)).toFixed(2)})" pointer-events="none"/>`,
        );
      }
    }
    // The move waiting to be confirmed: the piece drawn faintly where it would go.
    if (scene.pending) {
      const { q, r } = parseKey(scene.pending.key);
      const { x, y } = toPixel(q, r, HEX_SIZE);
      const level = occupied.get(scene.pending.key)?.filter((piece) => piece !== scene.pending.piece).length || 0;
      parts.push(
        `<g class="pending-piece" data-pending="${scene.pending.key}" pointer-events="none" transform="translate(${(x + STACK_SHIFT.x * level).toFixed(2)} ${(y + STACK_SHIFT.y * level).toFixed(2)})">` +
          `${pieceMarkup(scene.pending.piece, scene.look)}<polygon class="pending-ring" points="${hexPoints(HEX_SIZE - 2)}"/></g>`,
      );
    }
    // The last move: a dashed outline where it came from, a ring where it went.
    if (scene.lastMove) {
      for (const [where, cls] of [
        [scene.lastMove.from, "last-from"],
        [scene.lastMove.to, "last-to"],
      ]) {
        if (!where) continue;
        const { x, y } = toPixel(where[0], where[1], HEX_SIZE);
        const height = occupied.get(cellKey(...where))?.length || 1;
        const dx = cls === "last-to" ? STACK_SHIFT.x * (height - 1) : 0;
        const dy = cls === "last-to" ? STACK_SHIFT.y * (height - 1) : 0;
        parts.push(
          `<polygon class="${cls}" points="${hexPoints(HEX_SIZE - 2.5)}" transform="translate(${(x + dx).toFixed(2)} ${(y + dy).toFixed(2)})" pointer-events="none"/>`,
        );
      }
    }
    this.layer.innerHTML = parts.join("") + badges.join("");
    if (!this.userMovedView) this.fit();
  }

  // --- view: pan and zoom ---------------------------------------------------------------

  fit() {
    const keys = [...this.scene.stacks.keys(), ...this.scene.destinations.keys()];
    if (!keys.length) keys.push("0,0");
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const key of keys) {
      const { q, r } = parseKey(key);
      const { x, y } = toPixel(q, r, HEX_SIZE);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const margin = HEX_SIZE * 3;
    const w = Math.max(maxX - minX + 2 * margin, HEX_SIZE * 12);
    const h = Math.max(maxY - minY + 2 * margin, HEX_SIZE * 10);
    this.view = { x: (minX + maxX) / 2 - w / 2, y: (minY + maxY) / 2 - h / 2, w, h };
    this.applyView();
  }

  resetView() {
    this.userMovedView = false;
    this.fit();
  }

  zoom(factor, center = null) {
    const v = this.view;
    const c = center || { x: v.x + v.w / 2, y: v.y + v.h / 2 };
    const w = Math.min(Math.max(v.w / factor, HEX_SIZE * 4), HEX_SIZE * 200);
    const k = w / v.w;
    this.view = { x: c.x - (c.x - v.x) * k, y: c.y - (c.y - v.y) * k, w, h: v.h * k };
    this.userMovedView = true;
    this.applyView();
  }

  applyView() {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  toBoardPoint(clientX, clientY) {
    const point = this.svg.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    const matrix = this.svg.getScreenCTM();
    return matrix ? point.matrixTransform(matrix.inverse()) : { x: 0, y: 0 };
  }

  // --- input: click-click, drag-and-drop, keys, wheel ----------------------------------------

  bindEvents() {
    const signal = this.listeners.signal;
    this.svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      this.zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, this.toBoardPoint(event.clientX, event.clientY));
    }, { passive: false, signal });

    this.svg.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "touch") {
        this.touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
        if (this.touches.size === 2) {
          this.startPinch();
          return;
        }
      }
      if (event.button !== 0) return;
      const cell = event.target.closest("[data-cell]");
      const piece = cell?.dataset.piece;
      if (piece && this.scene.selectable.has(piece) && !cell.dataset.dest) {
        this.startPiecePointer(event, piece);
        return;
      }
      if (!cell) {
        // Background: pan.
        this.pointer = { kind: "pan", id: event.pointerId, last: { x: event.clientX, y: event.clientY }, moved: false };
        this.svg.setPointerCapture(event.pointerId);
      }
    }, { signal });

    this.svg.addEventListener("click", (event) => {
      const cell = event.target.closest("[data-cell]");
      if (!cell || this.suppressClick) {
        this.suppressClick = false;
        return;
      }
      this.activateCell(cell);
    }, { signal });

    this.svg.addEventListener("keydown", (event) => {
      const cell = event.target.closest?.("[data-cell]");
      if (cell && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.activateCell(cell, true);
      }
    }, { signal });

    window.addEventListener("pointermove", (event) => this.pointerMove(event), { signal });
    window.addEventListener("pointerup", (event) => this.pointerUp(event), { signal });
    window.addEventListener("pointercancel", (event) => {
      this.touches.delete(event.pointerId);
      this.cancelPointer();
    }, { signal });
  }

  activateCell(cell, viaKeyboard = false) {
    const piece = cell.dataset.piece;
    const { q, r } = parseKey(cell.dataset.cell);
    if (cell.dataset.dest) this.callbacks.onCell(q, r, { keyboard: viaKeyboard });
    else if (piece && this.scene.selectable.has(piece)) this.callbacks.onPiece(piece, { keyboard: viaKeyboard });
    else this.callbacks.onCell(q, r, { keyboard: viaKeyboard });
  }

  // Pieces in hand start drags too: the game page calls this from its hand buttons.
  startPiecePointer(event, piece) {
    this.pointer = { kind: "piece", id: event.pointerId, piece, start: { x: event.clientX, y: event.clientY }, dragging: false };
  }

  // Two fingers: zoom around their midpoint by the change of their distance, and pan with it.
  startPinch() {
    this.removeGhost();
    const [a, b] = [...this.touches.values()];
    this.pointer = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y), mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  }

  pinchMove() {
    const p = this.pointer;
    const [a, b] = [...this.touches.values()];
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    const rect = this.svg.getBoundingClientRect();
    const scale = Math.max(this.view.w / rect.width, this.view.h / rect.height);
    this.view.x -= (mid.x - p.mid.x) * scale;
    this.view.y -= (mid.y - p.mid.y) * scale;
    if (p.distance > 0 && distance > 0) this.zoom(distance / p.distance, this.toBoardPoint(mid.x, mid.y));
    this.userMovedView = true;
    this.applyView();
    p.distance = distance;
    p.mid = mid;
  }

  pointerMove(event) {
    if (this.touches.has(event.pointerId)) this.touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const p = this.pointer;
    if (p?.kind === "pinch") {
      if (this.touches.size === 2) this.pinchMove();
      return;
    }
    if (!p || p.id !== event.pointerId) return;
    if (p.kind === "pan") {
      const dx = event.clientX - p.last.x;
      const dy = event.clientY - p.last.y;
      if (!p.moved && Math.hypot(dx, dy) < 3) return;
      p.moved = true;
      const rect = this.svg.getBoundingClientRect();
      const scale = Math.max(this.view.w / rect.width, this.view.h / rect.height);
      this.view.x -= dx * scale;
      this.view.y -= dy * scale;
      p.last = { x: event.clientX, y: event.clientY };
      this.userMovedView = true;
      this.applyView();
      return;
    }
    if (!p.dragging) {
      if (Math.hypot(event.clientX - p.start.x, event.clientY - p.start.y) < DRAG_THRESHOLD) return;
      p.dragging = true;
      this.callbacks.onPiece(p.piece, { drag: true });
      this.ghost = document.createElement("div");
      this.ghost.className = "drag-ghost";
      this.ghost.innerHTML = pieceSvg(p.piece, this.scene.look, 56);
      document.body.appendChild(this.ghost);
    }
    this.ghost.style.left = `${event.clientX - 28}px`;
    this.ghost.style.top = `${event.clientY - 28}px`;
  }

  pointerUp(event) {
    this.touches.delete(event.pointerId);
    const p = this.pointer;
    if (p?.kind === "pinch") {
      if (this.touches.size < 2) {
        // The lifted fingers do not tap what they were over.
        this.pointer = null;
        this.suppressClick = true;
        setTimeout(() => {
          this.suppressClick = false;
        }, 0);
      }
      return;
    }
    if (!p || p.id !== event.pointerId) return;
    this.pointer = null;
    if (p.kind === "pan") {
      if (p.moved) this.suppressClick = true;
      return;
    }
    if (!p.dragging) return; // a plain click: the click handler selects
    this.suppressClick = true;
    setTimeout(() => {
      this.suppressClick = false;
    }, 0);
    this.removeGhost();
    const target = document.elementFromPoint(event.clientX, event.clientY)?.closest?.("[data-cell]");
    if (target && this.svg.contains(target)) {
      const { q, r } = parseKey(target.dataset.cell);
      this.callbacks.onDrop(p.piece, q, r);
    } else {
      this.callbacks.onDrop(p.piece, null, null);
    }
  }

  cancelPointer() {
    this.pointer = null;
    this.removeGhost();
  }

  removeGhost() {
    if (this.ghost) {
      this.ghost.remove();
      this.ghost = null;
    }
  }

  focusCell(key) {
    this.svg.querySelector(`[data-cell="${key}"]`)?.focus();
  }
}

function escapeAttr(text) {
  return String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
