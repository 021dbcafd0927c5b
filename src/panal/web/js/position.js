// Positions from the list of played moves. The server sends, for every move, the piece, where
// it came from and where it went; drawing an earlier position is moving pieces back, not rules.

const BUG_ORDER = "QSBGAMLPD";

export const cellKey = (q, r) => `${q},${r}`;

export function parseKey(key) {
  const [q, r] = key.split(",").map(Number);
  return { q, r };
}

// Map "q,r" → pieces bottom first, after the first `ply` moves of `history`.
export function stacksAt(history, ply) {
  const stacks = new Map();
  for (const entry of history.slice(0, ply)) {
    if (!entry.piece) continue; // a pass
    let moving = [entry.piece];
    if (entry.from) {
      const fromKey = cellKey(...entry.from);
      const origin = stacks.get(fromKey) || [];
      moving = origin.splice(origin.length - (entry.carry ? 2 : 1));
      if (!origin.length) stacks.delete(fromKey);
    }
    const toKey = cellKey(...entry.to);
    stacks.set(toKey, [...(stacks.get(toKey) || []), ...moving]);
  }
  return stacks;
}

// The cells of queens with all six neighbours occupied (the end of the game), as "q,r" keys.
export function surroundedQueens(stacks) {
  const keys = new Set();
  for (const [key, stack] of stacks) {
    if (!stack.some((piece) => piece[1] === "Q")) continue;
    const { q, r } = parseKey(key);
    if (DIRECTIONS.every(([dq, dr]) => stacks.has(cellKey(q + dq, r + dr)))) keys.add(key);
  }
  return keys;
}

export function comparePieces(a, b) {
  const bugA = BUG_ORDER.indexOf(a[1].toUpperCase());
  const bugB = BUG_ORDER.indexOf(b[1].toUpperCase());
  if (bugA !== bugB) return bugA - bugB;
  return Number(a.slice(2) || 1) - Number(b.slice(2) || 1);
}

// Pieces in hand after `ply` moves: those in hand now plus those placed later.
export function handsAt(state, ply) {
  const hands = [[...state.hands[0]], [...state.hands[1]]];
  for (const entry of state.history.slice(ply)) {
    if (entry.piece && !entry.from) hands[entry.piece[0] === "w" ? 0 : 1].push(entry.piece);
  }
  return hands.map((hand) => hand.sort(comparePieces));
}

// Hex geometry: pointy-top cells, axial (q, r); q grows east, r south-east (as panal.hex).
export function toPixel(q, r, size) {
  return { x: size * Math.sqrt(3) * (q + r / 2), y: size * 1.5 * r };
}

export const DIRECTIONS = [
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [0, -1],
  [1, -1],
];
