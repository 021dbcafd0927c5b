// The game page: a player bar per side (name, a place for a clock, the pieces in hand as a
// strip), the board, a dock for what needs an answer (the move to confirm, a carry, a pass, a
// draw offer) and a side panel (moves, controls, typing, export, links). Everything shown comes
// from the server's state; a move is sent to the server, which checks it and answers with the
// new state (or with the rule it breaks, shown in the reader's language).
//
// On a phone the bars, the board and the dock fill the first screen (board first, hands as
// compact strips, the move to confirm always in view); the side panel follows below.

import { api } from "./api.js";
import { Board } from "./board.js";
import { controlWithSpeed, formatClock, timeLeft } from "./clock.js";
import { escapeHtml, keepingFocus } from "./dom.js";
import { bugName, colorName, describeError, getLook, hasKey, pieceName, setLook, t } from "./i18n.js";
import { LivePage, heldToken } from "./live_page.js";
import { pieceSvg } from "./pieces.js";
import { cellKey, handsAt, stacksAt, surroundedQueens } from "./position.js";
import { changedRules, ruleTexts } from "./rules.js";
import { confirmMoves, gameSeats, savedLook } from "./storage.js";

const COLORS = ["white", "black"];

export async function showGamePage(root, gameId, navigate, config) {
  const page = new GamePage(root, gameId, navigate, config);
  await page.start();
  return () => page.stop();
}

class GamePage {
  constructor(root, gameId, navigate, config) {
    this.root = root;
    this.gameId = gameId;
    this.navigate = navigate;
    this.config = config; // GET /api/config: the rule options' defaults
    this.live = null; // the state, the notice, the connection (live_page.js)
    this.viewPly = null; // null: follow the game; a number: looking back at that ply
    this.selected = null;
    this.carryChoice = null;
    this.pending = null; // a chosen move waiting for "Play it": {move, piece, to}
    this.confirmResign = false;
    this.resultClosed = false;
    this.clockOffset = 0; // the server's time minus this browser's, from the last state
  }

  async start() {
    const params = new URLSearchParams(location.search);
    const fragment = new URLSearchParams(location.hash.slice(1));
    const watching = params.has("watch");
    const held = heldToken(gameSeats, this.gameId, fragment);
    let token = watching ? null : held;
    let refused = null;
    const invite = params.get("invite");
    if (invite && !token) {
      try {
        const joined = await api(`/api/games/${encodeURIComponent(this.gameId)}/join`, {
          method: "POST",
          body: { invite },
        });
        gameSeats.set(this.gameId, joined.token);
        token = joined.token;
      } catch (error) {
        refused = describeError({ code: error.code, message: error.detail });
      }
    }
    if (invite || fragment.get("token")) history.replaceState(null, "", `/game/${this.gameId}${watching ? "?watch=1" : ""}`);
    this.token = token;
    this.live = new LivePage({
      path: `/ws/games/${encodeURIComponent(this.gameId)}?deltas=1`,
      texts: { unknown: "game.unknown", reconnecting: "game.reconnecting" },
      offline: () => ({ text: describeError({ code: "network" }), kind: "error" }),
      receive: (state, previous) => this.receive(state, previous),
      showNotices: () => this.renderDock(),
      showConnection: () => this.renderPanels(),
      render: () => this.renderAll(),
    });
    if (refused) this.live.notify(refused, "error");
    this.renderFrame();
    // Watching (?watch=1), the page shows what spectators see; a seat token this browser holds
    // still goes with it, so that a player watching their own game is not counted among them.
    this.live.open(watching ? held : token, { watch: watching });
    // The running clock counts down between states; a tenth of a second is its finest unit.
    this.ticker = setInterval(() => this.tickClocks(), 100);
    this.keyHandler = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keyHandler);
    this.preferencesHandler = () => {
      if (!confirmMoves()) this.pending = null;
      this.renderAll();
    };
    document.addEventListener("panal:preferences", this.preferencesHandler);
  }

  stop() {
    clearInterval(this.ticker);
    this.board?.destroy();
    this.live?.stop();
    document.removeEventListener("keydown", this.keyHandler);
    document.removeEventListener("panal:preferences", this.preferencesHandler);
  }

  // --- state from the server -------------------------------------------------------------

  get state() {
    return this.live?.state ?? null;
  }

  receive(state, previous) {
    if (typeof state.now === "number") this.clockOffset = state.now - Date.now() / 1000;
    if (state.rematch_game && previous && !previous.rematch_game && this.seats().size) {
      // The rematch was agreed: the same seats, colours swapped; both players go there.
      if (this.token) gameSeats.set(state.rematch_game, this.token);
      this.navigate(`/game/${state.rematch_game}`);
      return;
    }
    if (!previous) {
      // The look the game was created in, unless the reader chose a look of their own.
      if (!savedLook()) setLook(state.look);
      // A game that was already over when opened (from the archive, say) shows its result in
      // the status line, not as a card over the board.
      this.resultClosed = Boolean(state.result);
    }
    if (previous && state.ply !== previous.ply) {
      this.selected = null;
      this.carryChoice = null;
      this.pending = null;
      if (this.viewPly === previous.ply) this.viewPly = null;
      if (state.ply > previous.ply) this.announceMove(state.history[state.ply - 1]);
      this.live.notice = null;
    }
    if (previous) this.noticeDeclinedDraw(previous, state);
    if (this.viewPly !== null && this.viewPly > state.ply) this.viewPly = null;
    if (!state.result) this.resultClosed = false;
    if (!this.legalPieces().has(this.selected)) this.selected = null;
    this.renderAll();
  }

  /** The offerer learns that the offer is gone: declined, or answered by a move. */
  noticeDeclinedDraw(previous, state) {
    const offerer = previous.draw_offer;
    if (offerer === null || offerer === undefined || state.draw_offer !== null || state.result) return;
    if (!this.seats().has(offerer)) return;
    const text = t("game.drawDeclined", { color: colorName(1 - offerer) });
    this.live.notify(text, "info", "drawDeclined");
    this.announce(text);
  }

  // --- what the viewer may do ------------------------------------------------------------

  seats() {
    return new Set((this.state?.you || []).map((name) => COLORS.indexOf(name)));
  }

  isLive() {
    return this.viewPly === null || this.viewPly === this.state.ply;
  }

  legalMoves() {
    return this.isLive() ? this.state.legal || [] : [];
  }

  legalPieces() {
    return new Set(this.legalMoves().map((move) => move.piece).filter(Boolean));
  }

  myTurn() {
    return Boolean(this.state?.legal);
  }

  send(message) {
    this.live.send(message);
  }

  // --- board callbacks -------------------------------------------------------------------

  pick(piece) {
    if (!this.legalPieces().has(piece)) return;
    this.selected = this.selected === piece ? null : piece;
    this.carryChoice = null;
    this.pending = null;
    this.renderBoard();
    this.renderHands();
    this.renderDock();
    if (this.selected) {
      const count = this.destinations().size;
      this.announce(t("game.selected", { piece: pieceName(piece, true), n: count }));
      const first = this.root.querySelector(".board [data-dest]");
      if (this.keyboardPick && first) first.focus();
    }
  }

  destinations() {
    const result = new Map();
    if (!this.selected) return result;
    for (const move of this.legalMoves()) {
      if (move.piece !== this.selected) continue;
      const key = cellKey(...move.to);
      const entry = result.get(key) || {};
      entry[move.carry ? "carry" : "plain"] = move;
      result.set(key, entry);
    }
    return result;
  }

  target(q, r, viaKeyboard = false) {
    if (!this.selected || !this.isLive()) return;
    const options = this.destinations().get(cellKey(q, r));
    if (!options) {
      // Not lit: ask the server anyway, so the player learns which rule forbids it.
      this.send({ type: "move", piece: this.selected, to: [q, r], ply: this.state.ply });
      return;
    }
    if (options.plain && options.carry) {
      this.carryChoice = options;
      this.pending = null;
      this.renderDock();
      this.root.querySelector("[data-action=carry-yes]")?.focus();
      return;
    }
    this.choose(options.plain || options.carry, viaKeyboard);
  }

  /** A move chosen on the board: played at once, or held for "Play it" when moves are confirmed. */
  choose(move, viaKeyboard = false) {
    this.carryChoice = null;
    if (!confirmMoves()) {
      this.play(move.move);
      return;
    }
    this.pending = { move: move.move, piece: move.piece, to: move.to };
    this.renderBoard();
    this.renderDock();
    this.announce(t("game.confirmMove", { move: move.move }));
    if (viaKeyboard) this.root.querySelector("[data-action=confirm-move]")?.focus();
  }

  play(moveString) {
    this.send({ type: "move", move: moveString, ply: this.state.ply });
    this.selected = null;
    this.carryChoice = null;
    this.pending = null;
  }

  drop(piece, q, r) {
    if (q === null) {
      this.selected = null;
      this.renderBoard();
      this.renderHands();
      return;
    }
    this.selected = piece;
    this.target(q, r);
  }

  // --- rendering -------------------------------------------------------------------------

  renderFrame() {
    this.root.innerHTML = `
      <section class="game-page">
        <div class="game-shell">
          <div class="game-top">
            <p class="status" role="status" aria-live="polite"></p>
            <h1 class="game-title"></h1>
          </div>
          <section class="player hand" data-hand="top"></section>
          <div class="board-area">
            <div class="board-holder"></div>
            <div class="zoom-controls">
              <button type="button" data-action="zoom-in"></button>
              <button type="button" data-action="zoom-out"></button>
              <button type="button" data-action="fit"></button>
            </div>
            <div class="result-overlay" hidden></div>
          </div>
          <section class="player hand" data-hand="bottom"></section>
          <div class="dock">
            <div class="banners"></div>
            <div class="action-bar" hidden></div>
          </div>
        </div>
        <aside class="side-panel"></aside>
        <div class="sr-only" aria-live="polite" data-announcer></div>
      </section>`;
    this.board = new Board(this.root.querySelector(".board-holder"), {
      onPiece: (piece, info) => {
        if (info?.drag) {
          this.selected = piece;
          this.pending = null;
          this.renderBoard();
          this.renderHands();
        } else {
          this.keyboardPick = Boolean(info?.keyboard);
          this.pick(piece);
        }
      },
      onCell: (q, r, info) => this.target(q, r, Boolean(info?.keyboard)),
      onDrop: (piece, q, r) => this.drop(piece, q, r),
      describeCell: (key, stack) => this.describeStack(key, stack),
    });
    this.root.addEventListener("click", (event) => this.onClick(event));
    this.root.addEventListener("pointerdown", (event) => {
      const handPiece = event.target.closest(".hand [data-piece]");
      if (handPiece && !handPiece.disabled && event.button === 0) this.board.startPiecePointer(event, handPiece.dataset.piece);
    });
    this.root.addEventListener("submit", (event) => {
      if (event.target.matches("form.type-move")) {
        event.preventDefault();
        const input = event.target.querySelector("input");
        const text = input.value.trim();
        if (text) {
          this.send({ type: "move", move: text, ply: this.state?.ply });
          input.value = "";
        }
      }
    });
  }

  renderAll() {
    if (!this.state) {
      this.renderPanels();
      return;
    }
    this.renderBoard();
    this.renderHands();
    this.renderPanels();
  }

  viewedPly() {
    return this.viewPly === null ? this.state.ply : this.viewPly;
  }

  renderBoard() {
    const state = this.state;
    if (!state) return;
    const ply = this.viewedPly();
    const stacks = stacksAt(state.history, ply);
    const destinations = new Map();
    for (const [key, options] of this.destinations()) {
      const move = (options.plain || options.carry).move;
      const label = t(state.hands.flat().includes(this.selected) ? "game.placeTo" : "game.moveTo", {
        piece: pieceName(this.selected, true),
        where: move,
      });
      destinations.set(key, label);
    }
    const last = ply > 0 ? state.history[ply - 1] : null;
    this.surrounded = surroundedQueens(stacks);
    this.board.setLabel(t("game.board"));
    this.board.render({
      stacks,
      look: getLook(),
      selectable: this.legalPieces(),
      selected: this.selected,
      destinations,
      lastMove: last && last.piece ? { from: last.from, to: last.to } : null,
      pending: this.pending ? { piece: this.pending.piece, key: cellKey(...this.pending.to) } : null,
      surrounded: this.surrounded,
    });
    for (const [action, key] of [
      ["zoom-in", "game.zoomIn"],
      ["zoom-out", "game.zoomOut"],
      ["fit", "game.fit"],
    ]) {
      const button = this.root.querySelector(`[data-action=${action}]`);
      button.setAttribute("aria-label", t(key));
      button.title = t(key);
      button.textContent = { "zoom-in": "+", "zoom-out": "−", fit: "⤢" }[action];
    }
  }

  describeStack(key, stack) {
    const top = pieceName(stack[stack.length - 1], true);
    const text = stack.length === 1 ? top : t("game.stackOf", { piece: top, n: stack.length });
    const queen = stack.find((piece) => piece[1] === "Q");
    if (!queen || !this.surrounded?.has(key)) return text;
    return `${text}; ${t("game.queenSurrounded", { piece: pieceName(queen, true) })}`;
  }

  /** Who sits on a side, as the bar names them (a clock will join the bar). */
  playerName(color) {
    const state = this.state;
    if (state.ai && state.ai.color === color) return t("player.ai", { level: t(`level.${state.ai.level}`) });
    const player = state.players?.[COLORS[color]];
    if (player?.name) return player.name;
    const header = state.headers?.[color === 0 ? "White" : "Black"];
    if (header) return header;
    if (state.mode === "hotseat" || state.mode === "review") return "";
    if (this.seats().has(color)) return t("player.you");
    if (state.mode === "online" && !state.seats[COLORS[color]]) return t("player.waiting");
    return t("player.guest");
  }

  renderHands() {
    const state = this.state;
    if (!state) return;
    const hands = handsAt(state, this.viewedPly());
    const seats = this.seats();
    // The viewer's own side at the bottom; spectators and hot-seat see White at the bottom.
    const bottom = seats.size === 1 ? [...seats][0] : 0;
    const selectable = this.legalPieces();
    for (const [slot, color] of [
      ["bottom", bottom],
      ["top", 1 - bottom],
    ]) {
      const element = this.root.querySelector(`[data-hand=${slot}]`);
      const groups = new Map();
      for (const piece of hands[color]) {
        const letter = piece[1].toUpperCase();
        if (!groups.has(letter)) groups.set(letter, []);
        groups.get(letter).push(piece);
      }
      const toMove = !state.result && state.turn === color;
      const items = [...groups.entries()].map(([letter, pieces]) => {
        const piece = pieces[0];
        const canPick = selectable.has(piece);
        const label = `${bugName(letter)} ×${pieces.length} (${colorName(color)})`;
        // The tile is drawn without its number: the badge says how many are left.
        return `<li><button type="button" class="hand-piece${this.selected === piece ? " selected" : ""}" data-piece="${piece}" ${canPick ? "" : "disabled"} aria-label="${label}" aria-pressed="${this.selected === piece}" title="${bugName(letter)}">
            ${pieceSvg(piece, getLook(), 46, { number: false })}<span class="count" aria-hidden="true">${pieces.length}</span><span class="hand-name" aria-hidden="true">${bugName(letter)}</span></button></li>`;
      });
      const name = this.playerName(color);
      element.className = `player hand${toMove ? " to-move" : ""}`;
      element.dataset.color = COLORS[color];
      element.setAttribute("aria-label", t("game.hand", { color: colorName(color) }));
      keepingFocus(element, () => {
        element.innerHTML = `<div class="player-bar">
            <span class="swatch" aria-hidden="true"></span>
            <h2 class="player-name"><span class="player-color">${escapeHtml(colorName(color))}</span>${name ? ` <span class="player-who">${escapeHtml(name)}</span>` : ""}</h2>
            ${this.playerRating(color)}
            ${this.clockMarkup(color)}
          </div>
          ${items.length ? `<ul class="hand-strip">${items.join("")}</ul>` : `<p class="empty-hand">${t("game.handEmpty")}</p>`}`;
      });
    }
  }

  statusText() {
    const state = this.state;
    if (!state) return "";
    if (state.result) return this.resultText();
    const turnColor = colorName(state.turn);
    if (state.mode === "review") return t("game.turn", { color: turnColor });
    if (state.ai_thinking) return t("game.aiThinking", { color: turnColor });
    const seats = this.seats();
    if (state.mode === "online" && (!state.seats.white || !state.seats.black)) return t("game.waitingJoin");
    if (seats.has(state.turn)) return t("game.yourTurn", { color: turnColor });
    if (seats.size) return t("game.opponentTurn", { color: turnColor });
    return `${t("game.spectating")} · ${t("game.turn", { color: turnColor })}`;
  }

  resultText() {
    const state = this.state;
    const result = t(`result.${state.result}`);
    const reason = state.end_reason ? t(`reason.${state.end_reason}`) : "";
    return reason ? `${result} — ${reason}` : result;
  }

  titleText() {
    const state = this.state;
    if (!state) return "";
    let mode = t(`mode.${state.mode}`, { level: state.ai ? t(`level.${state.ai.level}`) : "" });
    if (state.headers?.White || state.headers?.Black) mode += ` · ${state.headers.White || "?"} – ${state.headers.Black || "?"}`;
    if (state.clock) mode += ` · ${controlWithSpeed(state.clock)}`;
    if (state.mode === "online") mode += ` · ${t(state.rated ? "game.rated" : "game.casual")}`;
    return `${colorName(0)} – ${colorName(1)} · ${state.game_type} · ${mode}`;
  }

  /** An account's rating at the game's speed, with its change once a rated game is over. */
  playerRating(color) {
    const player = this.state.players?.[COLORS[color]];
    if (!player?.rating) return "";
    const change = typeof player.change === "number" ? ` ${player.change >= 0 ? "+" : ""}${player.change}` : "";
    return `<span class="player-rating">${escapeHtml(player.rating + change)}</span>`;
  }

  /** The clock in a player's bar (an empty, hidden slot in an untimed game). */
  clockMarkup(color) {
    const state = this.state;
    if (!state?.clocks) return `<span class="clock" data-clock hidden></span>`;
    const left = timeLeft(state, color, this.clockOffset);
    const running = state.clocks.running === color;
    const low = state.clock?.kind === "realtime" && left < 10;
    return `<span class="clock${running ? " running" : ""}${low ? " low" : ""}" data-clock data-side="${color}" role="timer"
      aria-label="${escapeHtml(t("clock.label", { color: colorName(color), time: formatClock(left) }))}">${formatClock(left)}</span>`;
  }

  /** Count the running clock down (only its text changes: nothing else is drawn again). */
  tickClocks() {
    const state = this.state;
    const running = state?.clocks?.running;
    if (running === null || running === undefined || state.result) return;
    const element = this.root.querySelector(`[data-clock][data-side="${running}"]`);
    if (!element) return;
    const left = timeLeft(state, running, this.clockOffset);
    const text = formatClock(left);
    if (element.textContent !== text) element.textContent = text;
    element.classList.toggle("low", state.clock?.kind === "realtime" && left < 10);
  }

  /** Who may ask for a rematch here: a seated player of a finished online game. */
  rematchOpen() {
    const state = this.state;
    return Boolean(
      state?.result && state.mode === "online" && state.seats.white && state.seats.black && this.seats().size && !state.rematch_game,
    );
  }

  rematchButton() {
    if (!this.rematchOpen()) return "";
    const mine = this.seats().has(this.state.rematch_offer);
    if (mine) return `<button type="button" data-action="rematch" disabled>${t("game.rematchSent")}</button>`;
    if (this.state.rematch_offer !== null && this.state.rematch_offer !== undefined) return "";
    return `<button type="button" data-action="rematch">${t("game.rematch")}</button>`;
  }

  renderPanels() {
    const state = this.state;
    this.root.querySelector(".game-title").textContent = this.titleText();
    const status = this.root.querySelector(".status");
    status.textContent = this.statusText();
    status.className = `status${state?.result ? " over" : ""}`;
    document.title = state ? `${this.statusText()} · panal` : "panal";
    this.renderDock();
    this.renderSide();
    this.renderResult();
  }

  /** The dock: notices, and what waits for the player's answer. */
  renderDock() {
    const dock = this.root.querySelector(".dock");
    keepingFocus(dock, () => {
      this.renderBanners();
      this.renderActionBar();
    });
  }

  renderBanners() {
    const state = this.state;
    const parts = [this.live.bannersMarkup()];
    if (state && !state.result && state.mode !== "review") {
      const mine = this.seats().has(state.turn);
      if (!this.isLive()) {
        parts.push(`<p class="banner info" data-banner="viewing">${t("game.viewing", { ply: this.viewPly, total: state.ply })}
          <button type="button" data-action="last">${t("game.backToGame")}</button></p>`);
      } else if (state.must_pass) {
        parts.push(`<p class="banner warn" data-banner="pass">${t("game.mustPass", { color: colorName(state.turn) })}
          ${mine && this.myTurn() ? `<button type="button" data-action="pass">${t("game.pass")}</button>` : ""}</p>`);
      } else if (state.must_place_queen && mine) {
        parts.push(`<p class="banner warn" data-banner="queen">${t("game.queenReminder")}</p>`);
      } else if (mine && state.turn_number === 3 && state.hands[state.turn].some((p) => p[1] === "Q")) {
        parts.push(`<p class="banner info" data-banner="queen-soon">${t("game.queenSoon")}</p>`);
      }
      if (state.draw_offer !== null && state.draw_offer !== undefined) {
        const offerer = colorName(state.draw_offer);
        if (this.seats().has(1 - state.draw_offer)) {
          parts.push(`<p class="banner info" data-banner="draw">${t("game.drawOffered", { color: offerer })}
            <button type="button" data-action="accept-draw">${t("game.acceptDraw")}</button>
            <button type="button" data-action="decline-draw">${t("game.declineDraw")}</button></p>`);
        } else if (this.seats().has(state.draw_offer)) {
          parts.push(`<p class="banner info" data-banner="draw">${t("game.drawOfferSent")}</p>`);
        } else {
          parts.push(`<p class="banner info" data-banner="draw">${t("game.drawOffered", { color: offerer })}</p>`);
        }
      }
      if (state.ai_error) parts.push(`<p class="banner error" data-banner="ai-error">${escapeHtml(aiErrorText(state))}</p>`);
    }
    if (this.rematchOpen() && state.rematch_offer !== null && state.rematch_offer !== undefined && !this.seats().has(state.rematch_offer)) {
      parts.push(`<p class="banner info" data-banner="rematch">${t("game.rematchOffered", { color: colorName(state.rematch_offer) })}
        <button type="button" class="primary" data-action="accept-rematch">${t("game.acceptRematch")}</button>
        <button type="button" data-action="decline-rematch">${t("game.declineRematch")}</button></p>`);
    }
    if (this.carryChoice) {
      parts.push(`<p class="banner info" data-banner="carry">${t("game.carry")}
        <button type="button" data-action="carry-yes">${t("game.carryYes")}</button>
        <button type="button" data-action="carry-no">${t("game.carryNo")}</button></p>`);
    }
    this.root.querySelector(".banners").innerHTML = parts.join("");
  }

  /** The chosen move, waiting for "Play it" (only when moves are confirmed). */
  renderActionBar() {
    const bar = this.root.querySelector(".action-bar");
    if (!this.pending) {
      bar.hidden = true;
      bar.innerHTML = "";
      return;
    }
    bar.hidden = false;
    bar.innerHTML = `<p class="pending-move">${escapeHtml(t("game.confirmMove", { move: this.pending.move }))}</p>
      <button type="button" class="primary" data-action="confirm-move">${t("game.confirm")}</button>
      <button type="button" data-action="cancel-move">${t("game.cancel")}</button>`;
  }

  renderResult() {
    const overlay = this.root.querySelector(".result-overlay");
    const state = this.state;
    if (!state?.result || this.resultClosed || state.mode === "review") {
      overlay.hidden = true;
      overlay.innerHTML = "";
      return;
    }
    overlay.hidden = false;
    overlay.innerHTML = `<div class="result-card" role="alertdialog" aria-labelledby="result-title">
        <h2 id="result-title" data-result="${state.result}">${t(`result.${state.result}`)}</h2>
        <p>${state.end_reason ? t(`reason.${state.end_reason}`) : ""}</p>
        ${this.ratingChanges()}
        <div class="result-actions">
          ${this.rematchButton()}
          <button type="button" data-action="review">${t("game.review")}</button>
          <a class="button" href="/new" data-link>${t("game.newGame")}</a>
        </div></div>`;
  }

  /** After a rated game: each player's rating change. */
  ratingChanges() {
    const players = this.state.players;
    if (!this.state.rated || !players) return "";
    const lines = COLORS.map((side) => players[side])
      .filter((player) => player && typeof player.change === "number")
      .map((player) => `<li>${escapeHtml(player.name)}: ${t("game.ratingChange", { change: `${player.change >= 0 ? "+" : ""}${player.change}` })}</li>`);
    return lines.length ? `<ul class="rating-changes">${lines.join("")}</ul>` : "";
  }

  renderSide() {
    const side = this.root.querySelector(".side-panel");
    const state = this.state;
    if (!state) {
      side.innerHTML = "";
      return;
    }
    const ply = this.viewedPly();
    const rows = [];
    for (let i = 0; i < state.history.length; i += 2) {
      const cells = [state.history[i], state.history[i + 1]].map((entry) => {
        if (!entry) return "<span></span>";
        const current = entry.ply === ply ? ' aria-current="step" class="move current"' : ' class="move"';
        const text = entry.move === "pass" ? `<em>${t("game.pass").toLowerCase()}</em>` : escapeHtml(entry.move);
        return `<button type="button" data-ply="${entry.ply}"${current}>${text}</button>`;
      });
      rows.push(`<li><span class="move-number">${i / 2 + 1}.</span>${cells.join("")}</li>`);
    }
    const seats = this.seats();
    const seated = seats.size > 0;
    const playing = seated && !state.result && state.mode !== "review";
    const humanMoves = state.history.some((entry) => !state.ai || entry.color !== state.ai.color);
    const undoable =
      seated &&
      !state.clock &&
      ["ai", "hotseat"].includes(state.mode) &&
      humanMoves &&
      (!state.result || ["surrounded", "repetition"].includes(state.end_reason));
    const controls = [];
    const rematch = this.rematchButton();
    if (rematch) controls.push(rematch);
    if (undoable) controls.push(`<button type="button" data-action="undo">${t("game.undo")}</button>`);
    if (playing && state.mode !== "ai" && state.draw_offer === null)
      controls.push(`<button type="button" data-action="offer-draw">${t("game.offerDraw")}</button>`);
    if (playing) {
      controls.push(
        this.confirmResign
          ? `<span class="confirm">${t("game.resignConfirm")}
              <button type="button" data-action="resign-yes">${t("game.yes")}</button>
              <button type="button" data-action="resign-no">${t("game.no")}</button></span>`
          : `<button type="button" data-action="resign">${t("game.resign")}</button>`,
      );
    }
    const origin = location.origin;
    const links = [];
    if (state.invite) links.push(linkRow("invite", t("game.invite"), `${origin}/game/${state.id}?invite=${state.invite}`));
    links.push(linkRow("watch", t("game.watch"), `${origin}/game/${state.id}?watch=1`));
    if (this.token && state.mode === "online") links.push(linkRow("private", t("game.private"), `${origin}/game/${state.id}#token=${this.token}`));
    const rules = ruleTexts(changedRules(this.config, state.options));
    const rulesPanel = rules.length
      ? `<section class="rules-panel" data-rules><h2>${t("game.rules")}</h2>
          <ul>${rules.map((text) => `<li>${escapeHtml(text)}</li>`).join("")}</ul></section>`
      : "";
    const spectators = state.spectators ? `<p class="spectators">${t("game.spectators", { n: state.spectators })}</p>` : "";
    const typing = this.myTurn()
      ? `<form class="type-move"><label>${t("game.typeMove")}
           <input name="move" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="64" placeholder="wA1 bQ-" aria-describedby="type-move-help"></label>
           <button type="submit">${t("game.play")}</button>
           <small id="type-move-help">${t("game.typeMoveHelp")}</small></form>`
      : "";
    const typed = side.querySelector("form.type-move input")?.value ?? "";
    keepingFocus(side, () => {
      side.innerHTML = `
        <section class="moves-panel" aria-labelledby="moves-title">
          <h2 id="moves-title">${t("game.moves")}</h2>
          <div class="move-nav">
            <button type="button" data-action="first" aria-label="${t("game.first")}" title="${t("game.first")}">«</button>
            <button type="button" data-action="back" aria-label="${t("game.back")}" title="${t("game.back")}">◀</button>
            <button type="button" data-action="forward" aria-label="${t("game.forward")}" title="${t("game.forward")}">▶</button>
            <button type="button" data-action="last" aria-label="${t("game.last")}" title="${t("game.last")}">»</button>
          </div>
          ${rows.length ? `<ol class="move-list">${rows.join("")}</ol>` : `<p>${t("game.noMoves")}</p>`}
        </section>
        ${controls.length ? `<div class="controls">${controls.join("")}</div>` : ""}
        ${typing}
        ${rulesPanel}
        ${spectators}
        <section class="export">
          <h2>${t("game.export")}</h2>
          <a class="button" data-export="gamestring" href="/api/games/${state.id}/export?format=gamestring" download>${t("game.gameString")}</a>
          <a class="button" data-export="pgn" href="/api/games/${state.id}/export?format=pgn" download>${t("game.pgn")}</a>
        </section>
        <section class="links">${links.join("")}</section>`;
      const input = side.querySelector("form.type-move input");
      if (input) input.value = typed;
    });
    const list = side.querySelector(".move-list");
    const current = list?.querySelector(".current");
    if (list && current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }

  // --- actions ---------------------------------------------------------------------------

  onClick(event) {
    const handPiece = event.target.closest(".hand [data-piece]");
    if (handPiece && !handPiece.disabled) {
      this.keyboardPick = event.detail === 0; // Enter or Space on the button
      this.pick(handPiece.dataset.piece);
      return;
    }
    const plyButton = event.target.closest("[data-ply]");
    if (plyButton) {
      this.goTo(Number(plyButton.dataset.ply));
      return;
    }
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const input = copy.parentElement.querySelector("input");
      navigator.clipboard?.writeText(input.value).catch(() => {});
      input.select();
      copy.textContent = t("game.copied");
      return;
    }
    if (event.target.matches(".result-overlay")) {
      this.closeResult();
      return;
    }
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (!action) return;
    const state = this.state;
    switch (action) {
      case "zoom-in":
        this.board.zoom(1.25);
        break;
      case "zoom-out":
        this.board.zoom(1 / 1.25);
        break;
      case "fit":
        this.board.resetView();
        break;
      case "first":
        this.goTo(0);
        break;
      case "back":
        this.goTo(this.viewedPly() - 1);
        break;
      case "forward":
        this.goTo(this.viewedPly() + 1);
        break;
      case "last":
        this.goTo(state.ply);
        break;
      case "pass":
        this.play("pass");
        break;
      case "confirm-move":
        if (this.pending) this.play(this.pending.move);
        this.renderDock();
        break;
      case "cancel-move":
        this.pending = null;
        this.renderBoard();
        this.renderDock();
        break;
      case "undo":
        this.send({ type: "undo" });
        break;
      case "offer-draw":
        this.send({ type: "offer_draw" });
        break;
      case "accept-draw":
        this.send({ type: "accept_draw" });
        break;
      case "decline-draw":
        this.send({ type: "decline_draw" });
        break;
      case "resign":
        this.confirmResign = true;
        this.renderSide();
        this.root.querySelector("[data-action=resign-yes]")?.focus();
        break;
      case "resign-yes":
        this.confirmResign = false;
        this.send({ type: "resign" });
        break;
      case "resign-no":
        this.confirmResign = false;
        this.renderSide();
        break;
      case "carry-yes":
        this.choose(this.carryChoice.carry, event.detail === 0);
        break;
      case "carry-no":
        this.choose(this.carryChoice.plain, event.detail === 0);
        break;
      case "rematch":
        this.send({ type: "offer_rematch" });
        break;
      case "accept-rematch":
        this.send({ type: "accept_rematch" });
        break;
      case "decline-rematch":
        this.send({ type: "decline_rematch" });
        break;
      case "review":
        this.closeResult();
        break;
      default:
        break;
    }
  }

  closeResult() {
    this.resultClosed = true;
    this.renderResult();
  }

  goTo(ply) {
    if (!this.state) return;
    const bounded = Math.max(0, Math.min(ply, this.state.ply));
    this.viewPly = bounded === this.state.ply ? null : bounded;
    this.selected = null;
    this.pending = null;
    // Stepping through the moves shows the board: the result card steps aside.
    this.resultClosed = true;
    this.renderAll();
  }

  onKey(event) {
    if (event.target.closest?.("input, textarea, select")) return;
    if (event.key === "Escape") {
      this.selected = null;
      this.carryChoice = null;
      this.pending = null;
      this.confirmResign = false;
      this.renderAll();
      return;
    }
    if (!this.state || event.target.closest?.(".board [data-cell]")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) {
      event.preventDefault();
      this.goTo(this.viewedPly() + moves[event.key]);
    } else if (event.key === "Home") this.goTo(0);
    else if (event.key === "End") this.goTo(this.state.ply);
  }

  announceMove(entry) {
    if (!entry) return;
    const color = colorName(entry.color);
    this.announce(entry.piece ? t("game.played", { color, move: `${pieceName(entry.piece)} (${entry.move})` }) : t("game.passed", { color }));
  }

  announce(text) {
    const announcer = this.root.querySelector("[data-announcer]");
    if (announcer) announcer.textContent = text;
  }
}

/** Why the AI did not move, in the reader's language: the server's code, translated; a code this
 *  page does not know shows the server's English text. */
export function aiErrorText(state) {
  const key = `game.aiError.${state.ai_error_code}`;
  return state.ai_error_code && hasKey("en", key) ? t(key) : t("game.aiError", { message: state.ai_error });
}

function linkRow(kind, label, url) {
  return `<div class="link-row" data-link-kind="${kind}"><label>${label}<input readonly value="${escapeHtml(url)}"></label>
    <button type="button" data-copy>${t("game.copy")}</button></div>`;
}
