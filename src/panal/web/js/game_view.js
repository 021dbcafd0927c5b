// What the game page draws, from the server's state and the viewer's choices: the player bars
// with the hands and clocks, the board, the dock (notices, the move to confirm, a carry, a pass,
// a draw or rematch offer), the result card and the side panel (moves, controls, typing, the
// rule options, export, links). game_page.js adds what the player does; this part only reads.

import { controlWithSpeed, formatClock, timeLeft } from "./clock.js";
import { escapeHtml, keepingFocus } from "./dom.js";
import { bugName, colorName, getLook, hasKey, pieceName, playerName, t } from "./i18n.js";
import { pieceSvg } from "./pieces.js";
import { cellKey, handsAt, stacksAt, surroundedQueens } from "./position.js";
import { changedRules, ruleTexts } from "./rules.js";

export const COLORS = ["white", "black"];

export class GameView {
  constructor(root, config) {
    this.root = root;
    this.config = config; // GET /api/config: the rule options' defaults
    this.live = null; // the state, the notice, the connection (live_page.js)
    this.board = null; // the SVG board (board.js), made with the page's frame
    this.token = null; // this browser's seat token, for the private link
    this.viewPly = null; // null: follow the game; a number: looking back at that ply
    this.selected = null;
    this.carryChoice = null;
    this.pending = null; // a chosen move waiting for "Play it": {move, piece, to}
    this.confirmResign = false;
    this.resultClosed = false;
    this.clockOffset = 0; // the server's time minus this browser's, from the last state
  }

  get state() {
    return this.live?.state ?? null;
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

  // --- drawing ---------------------------------------------------------------------------

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
    if (player?.name) return playerName(player.name);
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
    // Reviewing a finished game, the header follows the move shown, not the final result.
    if (state.result && !this.isLive()) return t("game.viewing", { ply: this.viewPly, total: state.ply });
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

  /** Seconds left for the side to move's first move (null: its clock runs, or none). */
  firstMoveLeft() {
    const state = this.state;
    const deadline = state?.clocks?.first_move_deadline;
    if (typeof deadline !== "number" || state.result) return null;
    return Math.max(0, deadline - (Date.now() / 1000 + this.clockOffset));
  }

  firstMoveText(left) {
    return t("clock.firstMove", { color: colorName(this.state.turn), time: formatClock(left) });
  }

  /** Count the running clock down (only its text changes: nothing else is drawn again). */
  tickClocks() {
    const firstMove = this.firstMoveLeft();
    const banner = this.root.querySelector("[data-banner=first-move]");
    if (firstMove !== null && banner) {
      const text = this.firstMoveText(firstMove);
      if (banner.textContent !== text) banner.textContent = text;
    }
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

  /** An offer (a draw, a takeback) standing in the game: its answer for the other player, a
   *  note for the one who made it and for spectators. */
  offerBanner(kind, offer) {
    if (offer === null || offer === undefined) return "";
    const Kind = kind[0].toUpperCase() + kind.slice(1);
    const offered = t(`game.${kind}Offered`, { color: colorName(offer) });
    if (this.seats().has(1 - offer)) {
      return `<p class="banner info" data-banner="${kind}">${offered}
        <button type="button" data-action="accept-${kind}">${t(`game.accept${Kind}`)}</button>
        <button type="button" data-action="decline-${kind}">${t(`game.decline${Kind}`)}</button></p>`;
    }
    const sent = this.seats().has(offer) ? t(`game.${kind}OfferSent`) : offered;
    return `<p class="banner info" data-banner="${kind}">${sent}</p>`;
  }

  /** Whether a seated player may propose to take back their last move now (lichess's rule:
   *  one ply on the opponent's turn, two on one's own; the game allows takebacks). */
  takebackOpen() {
    const state = this.state;
    if (!state?.takebacks || state.result || state.mode !== "online" || state.takeback_offer !== null) return false;
    const seats = [...this.seats()];
    if (seats.length !== 1) return false;
    return state.ply - (state.turn === seats[0] ? 2 : 1) >= 0;
  }

  renderBanners() {
    const state = this.state;
    const parts = [this.live.bannersMarkup()];
    if (state && !this.isLive()) {
      // "Move X of Y" whenever an earlier position is shown: in play, and reviewing a finished
      // game or a record.
      parts.push(`<p class="banner info" data-banner="viewing">${t("game.viewing", { ply: this.viewPly, total: state.ply })}
        <button type="button" data-action="last">${t(state.result || state.mode === "review" ? "review.last" : "game.backToGame")}</button></p>`);
    }
    if (state && !state.result && state.mode !== "review") {
      const mine = this.seats().has(state.turn);
      if (!this.isLive()) {
        // the viewing banner above says it
      } else if (state.must_pass) {
        parts.push(`<p class="banner warn" data-banner="pass">${t("game.mustPass", { color: colorName(state.turn) })}
          ${mine && this.myTurn() ? `<button type="button" data-action="pass">${t("game.pass")}</button>` : ""}</p>`);
      } else if (state.must_place_queen && mine) {
        parts.push(`<p class="banner warn" data-banner="queen">${t("game.queenReminder")}</p>`);
      } else if (mine && state.turn_number === 3 && state.hands[state.turn].some((p) => p[1] === "Q")) {
        parts.push(`<p class="banner info" data-banner="queen-soon">${t("game.queenSoon")}</p>`);
      }
      const firstMove = this.firstMoveLeft();
      if (firstMove !== null) {
        // No clock runs before each side's first move; past its window the game is aborted.
        parts.push(`<p class="banner info" data-banner="first-move" role="timer">${escapeHtml(this.firstMoveText(firstMove))}</p>`);
      }
      parts.push(this.offerBanner("draw", state.draw_offer), this.offerBanner("takeback", state.takeback_offer));
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
        <button type="button" class="result-close" data-action="close-result" aria-label="${escapeHtml(t("review.close"))}">×</button>
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
    // Every finished game (and every record) has the engine's review, on the analysis page.
    if (state.result || state.mode === "review")
      controls.push(`<a class="button" href="/analysis/${state.id}" data-link data-engine-review>${t("analysis.reviewButton")}</a>`);
    if (playing && state.mode !== "ai" && state.draw_offer === null)
      controls.push(`<button type="button" data-action="offer-draw">${t("game.offerDraw")}</button>`);
    if (playing && this.takebackOpen())
      controls.push(`<button type="button" data-action="offer-takeback">${t("game.offerTakeback")}</button>`);
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
