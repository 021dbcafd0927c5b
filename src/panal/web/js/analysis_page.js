// The analysis board (/analysis) and a game's review (/analysis/<game id>): move for both sides
// in a variation tree, the engine's best lines beside the board as it searches deeper, a board
// editor, importing a record, and the review of a finished game. The server holds the rules and
// the engine: this page sends the position it shows and draws what comes back.

import { api } from "./api.js";
import { BoardEditor } from "./board_editor.js";
import { Board } from "./board.js";
import { drawBestMove, graphMarkup, renderEvalBar, renderLines, treeMarkup } from "./analysis_view.js";
import { VariationTree } from "./analysis_tree.js";
import { escapeHtml } from "./dom.js";
import { colorName, describeError, getLook, hasKey, onChange, pieceName, t } from "./i18n.js";
import { pieceSvg } from "./pieces.js";
import { cellKey, surroundedQueens } from "./position.js";
import { ReconnectingSocket } from "./socket.js";
import { ruleOptions } from "./home_page.js";
import { gameSeats } from "./storage.js";

const EXPANSIONS = ["M", "L", "P", "D"];

function stacksOf(board) {
  return new Map(board.stacks.map(([q, r, pieces]) => [cellKey(q, r), pieces]));
}

/** A refused set-up or move, in the reader's language. */
export function setupError(error) {
  if (error.code === "bad_setup") {
    const key = `setup.${error.reason}`;
    const details = { ...(error.details || {}) };
    for (const name of ["piece", "last"]) if (details[name]) details[name] = pieceName(details[name], true);
    if (details.color in { White: 1, Black: 1 }) details.color = colorName(details.color === "White" ? 0 : 1);
    return hasKey("en", key) ? t(key, details) : t("setup.position", { message: error.message || error.detail });
  }
  return describeError(error);
}

export function showAnalysisPage(page, gameId, navigate, config) {
  const look = () => getLook();
  const view = {
    base: { type: "Base", options: {}, setup: null },
    tree: new VariationTree(),
    board: null, // the server's board of the position shown
    key: null,
    analyses: new Map(), // position key → {analysis, final}
    engineOn: true,
    refused: false,
    selected: null,
    editor: null,
    review: null, // the game's review message
    loadedGame: false,
    error: null,
    requestId: 0,
  };
  page.innerHTML = `
    <section class="analysis" data-analysis>
      <h1 data-title></h1>
      <div class="analysis-main">
        <div class="analysis-left">
          <div class="eval-bar" data-eval role="img"><div class="eval-fill"></div><span class="eval-text"></span></div>
          <ul class="hand-strip" data-hand="1"></ul>
          <div class="board-area"><div class="board-holder"></div></div>
          <ul class="hand-strip" data-hand="0"></ul>
          <div class="analysis-nav">
            <button type="button" data-action="start">|◀</button><button type="button" data-action="back">◀</button>
            <button type="button" data-action="forward">▶</button><button type="button" data-action="end">▶|</button>
            <button type="button" data-action="pass" hidden></button>
          </div>
        </div>
        <div class="analysis-side">
          <p class="error" role="alert" data-error hidden></p>
          <div class="engine-panel"><label class="choice"><input type="checkbox" data-engine-toggle checked> <span data-engine-label></span></label><div data-lines></div></div>
          <div class="review-panel" data-review hidden></div>
          <div class="tree-panel"><h2 data-tree-title></h2><div class="move-tree" data-tree></div>
            <div class="tree-actions"><button type="button" data-action="promote"></button> <button type="button" data-action="delete"></button></div></div>
          <div class="editor-panel" data-editor hidden></div>
          <details class="analysis-tools" data-tools>
            <summary data-tools-title></summary>
            <button type="button" data-action="edit"></button>
            <label><span data-import-label></span><textarea data-import rows="4"></textarea></label>
            <button type="button" data-action="import"></button>
          </details>
        </div>
      </div>
    </section>`;
  const $ = (selector) => page.querySelector(selector);
  const board = new Board($(".board-holder"), {
    onPiece: (piece) => selectPiece(piece),
    onCell: (q, r) => clickCell(q, r),
    onDrop: (piece, q, r) => {
      view.selected = piece;
      clickCell(q, r);
    },
    describeCell: (key, stack) => stack.map((piece) => pieceName(piece, true)).join(", "),
  });

  // --- talking to the server ----------------------------------------------------------------

  const socket = new ReconnectingSocket(gameId ? `/ws/analysis?game=${encodeURIComponent(gameId)}` : "/ws/analysis", {
    hello: () => ({ type: "hello", token: (gameId && gameSeats.get(gameId)) || null }),
    onOpen: () => {
      if (!gameId || view.loadedGame) requestPosition();
    },
    onMessage: receive,
    onStatus: (status, code) => {
      if (status === "closed" && code === 4404) showError(t("error.unknown_game"));
    },
  });

  function positionSpec() {
    return { ...view.base, moves: view.tree.path() };
  }

  function requestPosition() {
    view.requestId += 1;
    view.selected = null;
    socket.send({ type: "position", id: view.requestId, position: positionSpec(), engine: view.engineOn && !view.refused, lines: 3 });
  }

  function receive(message) {
    if (message.type === "position" && message.id === view.requestId) {
      view.board = message.board;
      view.key = message.key;
      renderAll();
    } else if (message.type === "analysis") {
      const known = view.analyses.get(message.key);
      if (!known?.final) view.analyses.set(message.key, { analysis: message.analysis, final: message.final });
      if (message.key === view.key) renderEngine();
    } else if (message.type === "engine_refused") {
      view.refused = true;
      renderEngine();
    } else if (message.type === "review") {
      view.review = message;
      if (!view.loadedGame) {
        view.loadedGame = true;
        view.base = { type: message.position.type, options: message.position.options, setup: null };
        view.tree = new VariationTree(message.position.moves);
        requestPosition();
      }
      renderReview();
      renderTree();
    } else if (message.type === "error" || message.type === "engine_error") {
      showError(message.type === "engine_error" ? t("analysis.engineFailed") : setupError(message));
    }
  }

  function showError(text) {
    const element = $("[data-error]");
    element.hidden = !text;
    element.textContent = text || "";
  }

  // --- moving -------------------------------------------------------------------------------

  function legal() {
    return view.editor || !view.board ? [] : view.board.legal;
  }

  function selectPiece(piece) {
    view.selected = view.selected === piece ? null : piece;
    renderBoard();
    renderHands();
  }

  function clickCell(q, r) {
    if (view.editor) {
      view.editor.onCell(q, r);
      renderEditor();
      return;
    }
    const move = legal().find((m) => m.piece === view.selected && m.to && m.to[0] === q && m.to[1] === r);
    if (move) play(move.move);
    else {
      view.selected = null;
      renderBoard();
      renderHands();
    }
  }

  function play(move) {
    showError(null);
    view.tree.play(move);
    requestPosition();
    renderTree();
  }

  function go(step) {
    step();
    showError(null);
    requestPosition();
    renderTree();
  }

  // --- drawing ------------------------------------------------------------------------------

  function renderAll() {
    renderTexts();
    renderBoard();
    renderHands();
    renderEngine();
    renderTree();
    renderReview();
    renderEditor();
  }

  function renderTexts() {
    $("[data-title]").textContent = gameId ? t("analysis.reviewTitle") : t("analysis.title");
    $("[data-engine-label]").textContent = t("analysis.engine");
    $("[data-tree-title]").textContent = t("analysis.moves");
    $("[data-tools-title]").textContent = t("analysis.tools");
    $("[data-action=edit]").textContent = t("analysis.edit");
    $("[data-import-label]").textContent = t("analysis.importLabel");
    $("[data-action=import]").textContent = t("analysis.import");
    $("[data-action=promote]").textContent = t("analysis.promote");
    $("[data-action=delete]").textContent = t("analysis.delete");
    for (const [action, key] of [
      ["start", "analysis.first"],
      ["back", "analysis.previous"],
      ["forward", "analysis.next"],
      ["end", "analysis.last"],
    ]) {
      $(`[data-action=${action}]`).setAttribute("aria-label", t(key));
      $(`[data-action=${action}]`).title = t(key);
    }
    $("[data-action=pass]").textContent = t("analysis.pass");
  }

  function bestMove() {
    const line = view.analyses.get(view.key)?.analysis?.lines?.[0];
    if (!line?.moves?.length || !view.board) return null;
    return view.board.legal.find((m) => m.move === line.moves[0]) || null;
  }

  function renderBoard() {
    if (view.editor) {
      board.render(view.editor.scene(look()));
      drawBestMove(board, null, null);
      return;
    }
    if (!view.board) return;
    const stacks = stacksOf(view.board);
    const destinations = new Map();
    for (const move of legal()) {
      if (move.piece === view.selected && move.to) destinations.set(cellKey(...move.to), t("analysis.moveTo", { move: move.move }));
    }
    board.setLabel(t("analysis.board"));
    board.render({
      stacks,
      look: look(),
      selectable: new Set(legal().map((m) => m.piece).filter(Boolean)),
      selected: view.selected,
      destinations,
      lastMove: view.board.last_move,
      pending: null,
      surrounded: surroundedQueens(stacks),
    });
    const best = view.engineOn ? bestMove() : null;
    let from = null;
    if (best?.piece) {
      for (const [key, stack] of stacks) if (stack[stack.length - 1] === best.piece) from = key.split(",").map(Number);
    }
    drawBestMove(board, from, best?.to || null);
    const pass = $("[data-action=pass]");
    pass.hidden = !legal().some((m) => m.move === "pass");
  }

  function renderHands() {
    const editing = Boolean(view.editor);
    for (const color of [0, 1]) {
      const element = $(`[data-hand="${color}"]`);
      if (editing || !view.board) {
        element.innerHTML = "";
        continue;
      }
      const pickable = new Set(legal().map((m) => m.piece));
      element.innerHTML = view.board.hands[color]
        .map(
          (piece) =>
            `<li><button type="button" class="hand-piece${view.selected === piece ? " selected" : ""}" data-hand-piece="${piece}" ${pickable.has(piece) ? "" : "disabled"} aria-label="${escapeHtml(pieceName(piece, true))}">${pieceSvg(piece, look(), 36)}</button></li>`,
        )
        .join("");
    }
  }

  function renderEngine() {
    const known = view.analyses.get(view.key);
    const over = view.board && view.board.state !== "InProgress" && view.board.state !== "NotStarted";
    renderLines($("[data-lines]"), over ? null : known?.analysis, { on: view.engineOn && !over, refused: view.refused, final: known?.final });
    renderEvalBar($("[data-eval]"), view.engineOn && !over ? known?.analysis : null, view.board?.turn ?? 0);
    $("[data-engine-toggle]").checked = view.engineOn;
    if (!view.editor && view.board) {
      const best = view.engineOn ? bestMove() : null;
      let from = null;
      if (best?.piece) for (const [q, r, stack] of view.board.stacks) if (stack[stack.length - 1] === best.piece) from = [q, r];
      drawBestMove(board, from, best?.to || null);
    }
  }

  // The review as the library writes it (panal.ai.review.Review.to_json()).
  function reviewPlies() {
    return (view.review?.review?.plies || []).map((p) => ({
      white: p.white_win_chance_after,
      class: p.judgement,
      best: p.best?.moves?.[0] || null,
    }));
  }

  function marks() {
    const found = new Map();
    reviewPlies().forEach((p, i) => {
      const node = view.tree.mainAt(i + 1);
      if (node && p.class) found.set(node.id, p.class);
    });
    return found;
  }

  function renderTree() {
    $("[data-tree]").innerHTML = treeMarkup(view.tree, marks());
    const current = view.tree.current;
    $("[data-action=promote]").disabled = !current.parent || view.tree.isMain(current);
    $("[data-action=delete]").disabled = !current.parent;
  }

  function renderReview() {
    const element = $("[data-review]");
    element.hidden = !gameId;
    if (!gameId || !view.review) return;
    const review = view.review;
    let body = "";
    if (!review.finished) body = `<p class="muted">${escapeHtml(t("analysis.notFinished"))}</p>`;
    else if (review.status === "none" || review.status === "failed") {
      body =
        (review.status === "failed" ? `<p class="error">${escapeHtml(t("analysis.reviewFailed"))}</p>` : "") +
        `<button type="button" class="primary" data-action="review">${escapeHtml(t("analysis.review"))}</button>`;
    } else if (review.status !== "done") {
      body = `<p data-review-progress>${escapeHtml(t("analysis.reviewing", { done: review.done, total: review.total }))}</p><progress max="${review.total || 1}" value="${review.done}"></progress>`;
    } else {
      const plies = reviewPlies();
      const ply = view.tree.isMain(view.tree.current) ? view.tree.depth(view.tree.current) : null;
      const sides = ["white", "black"].map((side, c) => {
        const found = review.review.sides?.[side] || {};
        const value = found.accuracy;
        const counts = ["inaccuracy", "mistake", "blunder"].map((k) => t(`analysis.count.${k}`, { n: found[k] ?? 0 }));
        return `<li data-accuracy="${c}"><strong>${escapeHtml(colorName(c))}</strong>: ${escapeHtml(t("analysis.accuracy", { value: value == null ? "?" : Math.round(value) }))} · ${escapeHtml(counts.join(", "))}</li>`;
      });
      const here = ply ? plies[ply - 1] : null;
      const better = here?.class && here.best ? `<p class="better" data-better>${escapeHtml(t("analysis.better", { mark: t(`analysis.class.${here.class}`), move: here.best }))}</p>` : "";
      const start = review.review.white_win_chances?.[0] ?? 0.5;
      body = `<div data-review-done>${graphMarkup(plies, ply, start)}<ul class="accuracy">${sides.join("")}</ul>${better}</div>`;
    }
    element.innerHTML = `<h2>${escapeHtml(t("analysis.reviewHeading"))}</h2>${body}`;
  }

  function renderEditor() {
    const element = $("[data-editor]");
    element.hidden = !view.editor;
    page.querySelector("[data-analysis]").classList.toggle("editing", Boolean(view.editor));
    if (!view.editor) return;
    element.innerHTML = view.editor.markup(look());
    renderBoard();
    renderHands();
  }

  // --- what the reader does -----------------------------------------------------------------

  async function finishEditing() {
    const editor = view.editor;
    const setup = editor.setup();
    try {
      await api("/api/analysis/position", { method: "POST", body: { position: { type: editor.type, options: editor.options, setup, moves: [] } } });
    } catch (error) {
      editor.error = setupError(error.body || error);
      renderEditor();
      return;
    }
    view.editor = null;
    view.base = { type: editor.type, options: editor.options, setup };
    view.tree = new VariationTree();
    requestPosition();
    renderAll();
  }

  async function importRecord() {
    const text = $("[data-import]").value.trim();
    if (!text) return;
    try {
      const game = await api("/api/import", { method: "POST", body: { text } });
      navigate(`/analysis/${game.id}`);
    } catch (error) {
      showError(describeError(error.body || error));
    }
  }

  page.addEventListener("click", (event) => {
    const target = event.target.closest("button, [data-graph-ply]");
    if (!target) return;
    const action = target.dataset.action;
    const tree = view.tree;
    if (target.dataset.node) go(() => tree.goTo(Number(target.dataset.node)));
    else if (target.dataset.graphPly) go(() => (tree.current = tree.mainAt(Number(target.dataset.graphPly)) || tree.current));
    else if (target.dataset.handPiece) selectPiece(target.dataset.handPiece);
    else if (target.dataset.playLine) {
      const line = view.analyses.get(view.key)?.analysis?.lines?.[Number(target.dataset.playLine)];
      if (line?.moves?.length) play(line.moves[0]);
    } else if (target.dataset.editPiece) {
      view.editor.selected = view.editor.selected === target.dataset.editPiece ? null : target.dataset.editPiece;
      renderEditor();
    } else if (action === "start") go(() => tree.start());
    else if (action === "back") go(() => tree.back());
    else if (action === "forward") go(() => tree.forward());
    else if (action === "end") go(() => tree.end());
    else if (action === "pass") play("pass");
    else if (action === "promote") {
      tree.promote(tree.current);
      renderTree();
    } else if (action === "delete") go(() => tree.remove(tree.current));
    else if (action === "review") socket.send({ type: "review" });
    else if (action === "import") importRecord();
    else if (action === "edit") {
      const stacks = view.board ? stacksOf(view.board) : new Map();
      const start = { type: view.base.type, options: view.base.options, stacks, turn: view.board?.turn ?? 0 };
      view.editor = new BoardEditor(start, ruleOptions(config));
      socket.send({ type: "engine", on: false });
      renderAll();
    } else if (action === "edit-done") finishEditing();
    else if (action === "edit-clear") {
      view.editor.stacks.clear();
      renderEditor();
    } else if (action === "edit-cancel") {
      view.editor = null;
      requestPosition();
      renderAll();
    }
  });
  page.addEventListener("change", (event) => {
    const target = event.target;
    if (target.matches("[data-engine-toggle]")) {
      view.engineOn = target.checked;
      if (view.engineOn) requestPosition();
      else socket.send({ type: "engine", on: false });
      renderEngine();
      renderBoard();
    } else if (target.matches("[data-edit-turn]")) view.editor.turn = Number(target.value);
    else if (target.matches("[data-edit-rules] [data-field]")) {
      view.editor.options[target.dataset.field] = target.type === "checkbox" ? target.checked : target.value;
    }
    else if (target.matches("[data-edit-expansion]")) {
      const letters = [...page.querySelectorAll("[data-edit-expansion]")].filter((box) => box.checked).map((box) => box.dataset.editExpansion);
      view.editor.setType(letters.length ? `Base+${EXPANSIONS.filter((l) => letters.includes(l)).join("")}` : "Base");
      renderEditor();
    }
  });
  page.addEventListener("keydown", (event) => {
    if (event.target.closest("textarea, input, select")) return;
    if (event.key === "ArrowLeft") go(() => view.tree.back());
    else if (event.key === "ArrowRight") go(() => view.tree.forward());
  });

  const stopListening = onChange(renderAll);
  renderAll();
  return () => {
    stopListening?.();
    socket.close();
    board.destroy();
  };
}
