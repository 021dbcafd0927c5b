// The analysis board's variation tree: every line tried from the starting position, as moves
// (UHP MoveStrings). A node's first child continues its line; the others are variations. It knows
// no rules: the server says which moves are legal, this only remembers what was played.

export class VariationTree {
  constructor(mainLine = []) {
    this.nextId = 1;
    this.root = { id: 0, move: null, parent: null, children: [] };
    this.nodes = new Map([[0, this.root]]);
    this.current = this.root;
    let node = this.root;
    for (const move of mainLine) node = this.add(node, move);
  }

  add(parent, move) {
    const existing = parent.children.find((child) => child.move === move);
    if (existing) return existing;
    const node = { id: this.nextId++, move, parent, children: [] };
    parent.children.push(node);
    this.nodes.set(node.id, node);
    return node;
  }

  /** Play `move` from the current node (an existing continuation is followed, not doubled). */
  play(move) {
    this.current = this.add(this.current, move);
    return this.current;
  }

  /** The moves from the start to `node`. */
  path(node = this.current) {
    const moves = [];
    for (let at = node; at.parent; at = at.parent) moves.push(at.move);
    return moves.reverse();
  }

  depth(node) {
    let n = 0;
    for (let at = node; at.parent; at = at.parent) n += 1;
    return n;
  }

  goTo(id) {
    const node = this.nodes.get(id);
    if (node) this.current = node;
    return node;
  }

  back() {
    if (this.current.parent) this.current = this.current.parent;
  }

  forward() {
    if (this.current.children.length) this.current = this.current.children[0];
  }

  start() {
    this.current = this.root;
  }

  end() {
    while (this.current.children.length) this.current = this.current.children[0];
  }

  /** The main line's node at `ply` (the root at 0), or null past its end. */
  mainAt(ply) {
    let node = this.root;
    for (let i = 0; i < ply; i += 1) {
      if (!node.children.length) return null;
      node = node.children[0];
    }
    return node;
  }

  isMain(node) {
    for (let at = node; at.parent; at = at.parent) if (at.parent.children[0] !== at) return false;
    return true;
  }

  /** Make `node`'s line the main line: at every branching above it, its branch comes first. */
  promote(node) {
    for (let at = node; at.parent; at = at.parent) {
      const siblings = at.parent.children;
      siblings.splice(siblings.indexOf(at), 1);
      siblings.unshift(at);
    }
  }

  /** Delete `node` and everything after it; the current node moves up if it was inside. */
  remove(node) {
    if (!node.parent) return;
    for (let at = this.current; at; at = at.parent) {
      if (at === node) {
        this.current = node.parent;
        break;
      }
    }
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    const forget = [node];
    while (forget.length) {
      const gone = forget.pop();
      this.nodes.delete(gone.id);
      forget.push(...gone.children);
    }
  }
}
