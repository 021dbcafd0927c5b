// The game page: a player bar per side (name, a place for a clock, the pieces in hand as a
// strip), the board, a dock for what needs an answer (the move to confirm, a carry, a pass, a
// draw offer) and a side panel (moves, controls, typing, export, links). Everything shown comes
// from the server's state; a move is sent to the server, which checks it and answers with the
// new state (or with the rule it breaks, shown in the reader's language). What is drawn is
// game_view.js's; this module follows the game (through a LivePage) and answers the player.
//
// On a phone the bars, the board and the dock fill the first screen (board first, hands as
// compact strips, the move to confirm always in view); the side panel follows below.

import { api } from "./api.js";
import { Board } from "./board.js";
import { ChatPanel } from "./chat_panel.js";
import { GameView } from "./game_view.js";
import { colorName, describeError, pieceName, setLook, t } from "./i18n.js";
import { LivePage, heldToken } from "./live_page.js";
import { cellKey } from "./position.js";
import { confirmMoves, gameSeats, savedLook } from "./storage.js";

export async function showGamePage(root, gameId, navigate, config) {
  const page = new GamePage(root, gameId, navigate, config);
  await page.start();
  return () => page.stop();
}

class GamePage extends GameView {
  constructor(root, gameId, navigate, config) {
    super(root, config);
    this.gameId = gameId;
    this.navigate = navigate;
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
    // The chat knows a player by their seat token even when they watch (?watch=1).
    this.chat = new ChatPanel(this.root.querySelector("[data-chat]"), { kind: "game", key: this.gameId, token: token || held });
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
    this.chat?.stop();
    document.removeEventListener("keydown", this.keyHandler);
    document.removeEventListener("panal:preferences", this.preferencesHandler);
  }

  // --- state from the server -------------------------------------------------------------

  receive(state, previous) {
    if (typeof state.now === "number") this.clockOffset = state.now - Date.now() / 1000;
    if (state.rematch_game && previous && !previous.rematch_game) {
      // The rematch was agreed: the same seats, colours swapped; both players go there, and
      // spectators follow it, still watching.
      if (this.seats().size) {
        if (this.token) gameSeats.set(state.rematch_game, this.token);
        this.navigate(`/game/${state.rematch_game}`);
      } else {
        this.navigate(`/game/${state.rematch_game}?watch=1`);
      }
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
    if (previous) {
      this.noticeDeclined("draw", previous.draw_offer, state.draw_offer, state);
      // a takeback accepted moves the game back; declined, it stays where it was
      if (state.ply >= previous.ply) this.noticeDeclined("takeback", previous.takeback_offer, state.takeback_offer, state);
    }
    if (previous && state.result && !previous.result) this.chat?.refresh(); // players now read the spectators too
    // Against the AI or on one screen a player has nobody to talk to: the chat is the spectators'.
    if (this.chat) this.chat.element.hidden = this.seats().size > 0 && ["ai", "hotseat"].includes(state.mode);
    if (this.viewPly !== null && this.viewPly > state.ply) this.viewPly = null;
    if (!state.result) this.resultClosed = false;
    if (!this.legalPieces().has(this.selected)) this.selected = null;
    this.renderAll();
  }

  /** The offerer learns that an offer (a draw, a takeback) is gone: declined, or answered by
   *  a move. */
  noticeDeclined(kind, offerer, now, state) {
    if (offerer === null || offerer === undefined || (now ?? null) !== null || state.result) return;
    if (!this.seats().has(offerer)) return;
    const text = t(`game.${kind}Declined`, { color: colorName(1 - offerer) });
    this.live.notify(text, "info", `${kind}Declined`);
    this.announce(text);
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
          </div>
          <section class="player hand" data-hand="bottom"></section>
          <div class="dock">
            <div class="result-overlay" hidden></div>
            <div class="banners"></div>
            <div class="action-bar" hidden></div>
          </div>
        </div>
        <div class="side-column">
          <details class="chat" data-chat></details>
          <aside class="side-panel"></aside>
        </div>
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
      case "accept-draw":
      case "decline-draw":
      case "offer-takeback":
      case "accept-takeback":
      case "decline-takeback":
        this.send({ type: action.replace("-", "_") }); // an offer made or answered
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
      case "close-result":
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
      if (this.state?.result) this.resultClosed = true; // Escape closes the result card too
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
}
