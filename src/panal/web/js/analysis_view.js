// What the analysis page draws beside the board, from the engine's lines and a game's review:
// the evaluation bar, the best lines, the arrow of the best move, the variation tree with its
// marks, the review's evaluation graph and accuracy. Pure drawing: analysis_page.js acts.

import { escapeHtml } from "./dom.js";
import { t } from "./i18n.js";
import { HEX_SIZE, hexPoints } from "./pieces.js";
import { toPixel } from "./position.js";

const SVG_NS = "http://www.w3.org/2000/svg";
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A line's verdict in words: a forced surround either way, else the side to move's win chance. */
export function lineScore(line) {
  if (line.surround_in != null) return t("analysis.surroundIn", { n: line.surround_in });
  if (line.surrounded_in != null) return t("analysis.surroundedIn", { n: line.surrounded_in });
  return `${Math.round(100 * (line.win_chance ?? 0.5))}%`;
}

/** White's chance of winning by the best line (the analysis says it; `turn` 0 is White). */
export function whiteChance(analysis, turn) {
  const line = analysis?.lines?.[0];
  if (!line) return 0.5;
  if (analysis.white_win_chance != null) return analysis.white_win_chance;
  const mover = line.win_chance ?? 0.5;
  return turn === 0 ? mover : 1 - mover;
}

export function renderEvalBar(element, analysis, turn) {
  const line = analysis?.lines?.[0];
  const white = whiteChance(analysis, turn);
  element.querySelector(".eval-fill").style.width = `${(100 * white).toFixed(1)}%`;
  const forced = line && (line.surround_in != null || line.surrounded_in != null);
  const text = line ? (forced ? lineScore(line) : `${Math.round(100 * white)}%`) : "…";
  element.querySelector(".eval-text").textContent = text;
  element.setAttribute("aria-label", line ? t("analysis.evalLabel", { white: Math.round(100 * white) }) : t("analysis.noEval"));
  element.dataset.white = white.toFixed(3);
}

export function renderLines(element, analysis, { on, refused, final }) {
  if (refused) {
    element.innerHTML = `<p class="notice" data-engine-refused>${escapeHtml(t("analysis.engineRefused"))}</p>`;
    return;
  }
  if (!on) {
    element.innerHTML = `<p class="muted">${escapeHtml(t("analysis.engineOff"))}</p>`;
    return;
  }
  if (!analysis) {
    element.innerHTML = `<p class="muted" data-engine-thinking>${escapeHtml(t("analysis.thinking"))}</p>`;
    return;
  }
  const lines = analysis.lines || [];
  const depth = analysis.depth ?? Math.max(0, ...lines.map((line) => line.depth || 0));
  element.innerHTML =
    `<p class="engine-status" data-depth="${depth}" data-final="${final ? 1 : 0}">${escapeHtml(t(final ? "analysis.depthDone" : "analysis.depth", { depth }))}</p>` +
    `<ol class="engine-lines">${lines
      .map(
        (line, index) =>
          `<li data-line="${index}"><button type="button" class="line-score" data-play-line="${index}">${escapeHtml(lineScore(line))}</button> ` +
          `<span class="line-moves">${line.moves.slice(0, 8).map(escapeHtml).join(" · ")}</span></li>`,
      )
      .join("")}</ol>`;
}

/** The arrow of the best move: from where its piece stands (none for a placement) to where it goes. */
export function drawBestMove(board, from, to) {
  board.svg.querySelector(".best-move")?.remove();
  if (!to) return;
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", "best-move");
  group.setAttribute("pointer-events", "none");
  const end = toPixel(to[0], to[1], HEX_SIZE);
  let markup = `<polygon class="best-ring" points="${hexPoints(HEX_SIZE - 4)}" transform="translate(${end.x.toFixed(2)} ${end.y.toFixed(2)})"/>`;
  if (from) {
    const start = toPixel(from[0], from[1], HEX_SIZE);
    const dx = end.x - start.x;
    const dy = end.y - start.y;
    const length = Math.hypot(dx, dy) || 1;
    const ux = dx / length;
    const uy = dy / length;
    const tipX = end.x - ux * 8;
    const tipY = end.y - uy * 8;
    const baseX = tipX - ux * 14;
    const baseY = tipY - uy * 14;
    markup +=
      `<line class="best-arrow" x1="${start.x.toFixed(1)}" y1="${start.y.toFixed(1)}" x2="${baseX.toFixed(1)}" y2="${baseY.toFixed(1)}"/>` +
      `<polygon class="best-head" points="${tipX.toFixed(1)},${tipY.toFixed(1)} ${(baseX - uy * 9).toFixed(1)},${(baseY + ux * 9).toFixed(1)} ${(baseX + uy * 9).toFixed(1)},${(baseY - ux * 9).toFixed(1)}"/>`;
  }
  group.innerHTML = markup;
  board.layer.appendChild(group);
}

/** The variation tree as text: the main line numbered, variations in brackets, each move a button. */
export function treeMarkup(tree, marks) {
  const parts = [];
  const moveButton = (node, ply) => {
    const mark = marks.get(node.id);
    const current = node === tree.current ? ' aria-current="true"' : "";
    const number = ply % 2 === 0 ? `<span class="move-number">${ply / 2 + 1}.</span>` : "";
    const cls = mark ? ` ${mark}` : "";
    return `${number}<button type="button" class="tree-move${cls}" data-node="${node.id}" data-ply="${ply + 1}"${current}>${escapeHtml(node.move)}${mark ? `<span class="mark">${MARKS[mark]}</span>` : ""}</button>`;
  };
  const line = (node, ply) => {
    // node: the first move of a line; follow its first children, branching off the others.
    let at = node;
    let depth = ply;
    while (at) {
      parts.push(moveButton(at, depth));
      const parent = at.parent;
      if (parent && parent.children[0] === at) {
        for (const other of parent.children.slice(1)) {
          parts.push('<span class="variation">(');
          line(other, depth);
          parts.push(")</span>");
        }
      }
      at = at.children[0];
      depth += 1;
    }
  };
  if (tree.root.children.length) line(tree.root.children[0], 0);
  return parts.join(" ") || `<span class="muted">${escapeHtml(t("analysis.noMoves"))}</span>`;
}

/** The review's evaluation graph: White's chance after each ply, a dot on each mistake. */
export function graphMarkup(plies, currentPly, start = 0.5) {
  const width = 300;
  const height = 90;
  const n = Math.max(1, plies.length);
  const x = (ply) => ((ply / n) * width).toFixed(1);
  const y = (chance) => ((1 - chance) * height).toFixed(1);
  const points = [`0,${y(start)}`, ...plies.map((p, i) => `${x(i + 1)},${y(p.white)}`)];
  const area = `0,${height} ${points.join(" ")} ${x(plies.length)},${height}`;
  const dots = plies
    .map((p, i) =>
      p.class
        ? `<circle class="graph-mark ${p.class}" cx="${x(i + 1)}" cy="${y(p.white)}" r="4.5" data-graph-ply="${i + 1}" data-class="${p.class}" tabindex="0" role="button" aria-label="${escapeHtml(t("analysis.jumpTo", { ply: i + 1, mark: t(`analysis.class.${p.class}`) }))}"/>`
        : "",
    )
    .join("");
  const cursor = currentPly != null ? `<line class="graph-cursor" x1="${x(currentPly)}" x2="${x(currentPly)}" y1="0" y2="${height}"/>` : "";
  return (
    `<svg class="eval-graph" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(t("analysis.graph"))}" data-plies="${plies.length}">` +
    `<rect class="graph-black" x="0" y="0" width="${width}" height="${height}"/>` +
    `<polygon class="graph-white" points="${area}"/>` +
    `<line class="graph-mid" x1="0" x2="${width}" y1="${height / 2}" y2="${height / 2}"/>` +
    `${cursor}<polyline class="graph-line" points="${points.join(" ")}"/>${dots}</svg>`
  );
}
