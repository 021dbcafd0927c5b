// The Enjambre Tácticas table page: the players, the board, a dock for what the player may do
// now (the set-up tray, end of turn, the scout), what happened, the links, the scoreboard and
// the replay of finished games.
//
// Everything shown comes from the server's state, which carries this connection's own
// observation only: numbers are on the tiles exactly when the engine says this viewer may see
// them. The page holds no rules: lit cells are the moves the server listed; an action is sent
// to the server, which checks it and answers with the new state (or the rule it breaks).
//
// Pass-the-screen: a device holding several seats sees the public view until one of its players
// takes it ("look"); a hand-over screen covers the board whenever the next player of the device
// must take it, and the server itself drops back to the public view when their turn ends.

import { account } from "./account.js";
import { ApiError, api } from "./api.js";
import { ChatPanel } from "./chat_panel.js";
import { TableBoard, startDrag } from "./enjambre_board.js";
import { TableView, colourName, describeTableError } from "./enjambre_view.js";
import { t } from "./i18n.js";
import { LivePage, heldToken } from "./live_page.js";
import { cellKey, parseKey } from "./position.js";
import { saveTableInvites, tableInvites, tableSeats } from "./storage.js";

let configPromise = null;

export function enjambreConfig() {
  configPromise = configPromise || api("/api/enjambre/config");
  return configPromise;
}

export async function showTablePage(root, tableId, navigate) {
  const page = new TablePage(root, tableId, navigate);
  await page.start();
  return () => page.stop();
}

class TablePage extends TableView {
  constructor(root, id, navigate) {
    super(root, id);
    this.navigate = navigate;
    this.live = new LivePage({
      path: `/ws/tables/${encodeURIComponent(id)}`,
      texts: { unknown: "enj.unknown", reconnecting: "enj.reconnecting" },
      describe: describeTableError,
      offline: () => ({ text: t("enj.reconnecting"), kind: "warn" }),
      receive: (state, previous) => this.receive(state, previous),
      showNotices: () => this.renderDock(),
      render: () => this.render(),
    });
    this.game = -1; // the number of the game whose events the page holds
  }

  async start() {
    this.config = await enjambreConfig();
    const fragment = new URLSearchParams(location.hash.slice(1));
    const token = heldToken(tableSeats, this.id, fragment);
    const invite = fragment.get("invite");
    const seat = Number(fragment.get("seat"));
    if (location.hash) history.replaceState(null, "", `/table/${this.id}`);
    this.token = token;
    if (invite && !token) {
      this.renderJoin(seat, invite);
      return;
    }
    this.connect();
  }

  connect() {
    this.renderFrame();
    this.live.open(this.token);
    this.chat?.stop();
    this.chat = new ChatPanel(this.root.querySelector("[data-chat]"), { kind: "table", key: this.id, token: this.token });
  }

  stop() {
    this.live.stop();
    this.chat?.stop();
    clearTimeout(this.showTimer);
    this.trayDrag?.abort(); // a drag under way when the page is left: its listeners go
    this.board?.destroy();
  }

  // --- joining ---------------------------------------------------------------------------

  async renderJoin(seat, invite) {
    let colour = "";
    try {
      const state = await api(`/api/enjambre/tables/${encodeURIComponent(this.id)}`);
      colour = colourName(state.view.colours[seat]);
    } catch {
      // The table's colours are a courtesy; joining says whether the invitation is good.
    }
    this.root.innerHTML = `
      <section class="form-page enj-join">
        <h1>${t("enj.join.title", { n: seat + 1, colour })}</h1>
        <form class="join-table">
          ${account().name ? "" : `<label class="block">${t("enj.new.name")} <input name="name" maxlength="40" autocomplete="nickname"></label>`}
          <p class="banner error" role="alert" data-form-error hidden></p>
          <div class="form-actions"><button type="submit" class="primary" data-action="join">${t("enj.join.button")}</button></div>
        </form>
      </section>`;
    this.root.querySelector("form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = this.root.querySelector("input[name=name]")?.value.trim() || null; // signed in: the account's name
      try {
        const joined = await api(`/api/enjambre/tables/${encodeURIComponent(this.id)}/join`, {
          method: "POST",
          body: { seat, invite, name },
        });
        this.token = joined.token;
        tableSeats.set(this.id, joined.token);
        this.connect();
      } catch (failure) {
        const element = this.root.querySelector("[data-form-error]");
        element.textContent = describeTableError({ code: failure.code, message: failure.detail });
        element.hidden = false;
        if (failure instanceof ApiError && failure.code === "invite_used") this.connect();
      }
    });
  }

  // --- state from the server -------------------------------------------------------------

  receive(state, previous) {
    if (previous && state.table.status === "over" && previous.table.status !== "over") this.chat?.refresh(); // players now read the spectators too
    const fresh = !previous || state.events_from === 0 || state.table.game !== this.game;
    if (fresh) this.events = [];
    const added = state.events;
    this.events.push(...added);
    if (previous && !fresh) this.queueShows(added, state);
    // A new game, or this viewer's set-up is stored: forget the arrangement (under memory play
    // the page must not keep the numbers the observation no longer shows).
    const placed = state.viewer !== null && state.view.placed[state.viewer];
    if (state.table.game !== this.game || placed) {
      this.arrangement = new Map();
      this.pick = null;
    }
    this.game = state.table.game;
    if (this.seenResults === null) this.seenResults = state.table.results.length; // already over when opened
    const legal = state.view.legal;
    if (!legal || !legal.moves || !(String(this.selected) in legal.moves)) {
      if (!(legal?.scout || []).includes(this.selected)) this.selected = null;
    }
    if (state.view.active !== null && legal?.moves?.[state.view.active]) this.selected = state.view.active;
    if (previous && previous.table.version !== state.table.version) this.live.notice = null;
    this.render();
  }

  send(message) {
    this.live.send(message);
  }

  // --- rendering -------------------------------------------------------------------------

  renderFrame() {
    this.root.innerHTML = `
      <div class="enj-page">
        <div class="enj-top"><p class="status" role="status" aria-live="polite"></p><h1 class="game-title"></h1></div>
        <section class="enj-players" aria-labelledby="enj-players-title"><h2 id="enj-players-title" class="sr-only"></h2><ol class="enj-seats"></ol></section>
        <div class="enj-board-wrap"><div class="enj-board-area"></div><div class="enj-overlay" hidden></div></div>
        <div class="dock enj-dock" aria-live="polite"></div>
        <div class="side-column">
          <details class="chat" data-chat></details>
          <aside class="side-panel enj-side"></aside>
        </div>
      </div>
      <div class="enj-handover" hidden></div>`;
    this.board = new TableBoard(this.root.querySelector(".enj-board-area"), {
      onCell: (key) => this.onCell(key),
      onTile: (id, number) => this.onTile(id, number),
      onDrop: (dragged, key) => this.onDrop(dragged, key),
    });
    this.root.querySelector(".enj-dock").addEventListener("click", (event) => this.onDockClick(event));
    this.root.querySelector(".enj-dock").addEventListener("pointerdown", (event) => this.onTrayPointer(event));
    this.root.querySelector(".enj-side").addEventListener("click", (event) => this.onSideClick(event));
    this.root.querySelector(".enj-side").addEventListener("change", (event) => this.onSideChange(event));
    this.root.querySelector(".enj-handover").addEventListener("click", (event) => {
      const button = event.target.closest("[data-look]");
      if (button) this.send({ type: "look", seat: Number(button.dataset.look) });
    });
    this.root.querySelector(".enj-overlay").addEventListener("click", (event) => {
      const button = event.target.closest("[data-action]");
      if (button?.dataset.action === "close-score") {
        this.seenResults = this.table.results.length;
        this.renderOverlay();
      } else if (button?.dataset.action === "replay") {
        this.seenResults = this.table.results.length;
        this.openReplay(Number(button.dataset.game));
      }
    });
  }

  // --- the player's input ----------------------------------------------------------------

  onTile(id, number) {
    if (this.replay) return;
    if (this.setupMode()) {
      if (number !== undefined && number !== null) {
        this.arrangement.delete(number); // picked up again
        this.pick = number;
        this.render();
      }
      return;
    }
    const legal = this.view.legal;
    if (!legal) return;
    if (this.selected === id && this.view.active !== id) this.selected = null;
    else if (String(id) in (legal.moves || {}) || (legal.scout || []).includes(id)) this.selected = id;
    this.render();
  }

  onCell(key) {
    if (this.replay) return;
    const { q, r } = parseKey(key);
    if (this.setupMode()) {
      if (this.pick === null) {
        const free = this.nextFreeNumber();
        if (free === null) return;
        this.pick = free;
      }
      this.arrangement.set(this.pick, key);
      this.pick = this.nextFreeNumber();
      this.render();
      return;
    }
    const legal = this.view.legal;
    if (!legal) return;
    if (legal.displace) {
      this.send({ type: "displace", cell: [q, r], step: this.table.step });
      return;
    }
    if (this.selected === null || !legal.moves[this.selected]) return;
    const path = legal.moves[this.selected].paths.find((item) => cellKey(...item.cells[item.cells.length - 1]) === key);
    if (path) this.send({ type: "move", tile: this.selected, path: path.cells, step: this.table.step });
  }

  onDrop(dragged, key) {
    if (this.setupMode() && dragged.number !== undefined) {
      const zone = new Set(this.view.zone.map(([q, r]) => cellKey(q, r)));
      if (!zone.has(key)) return;
      for (const [number, at] of this.arrangement) if (at === key) this.arrangement.delete(number);
      this.arrangement.set(dragged.number, key);
      this.pick = this.nextFreeNumber();
      this.render();
      return;
    }
    if (dragged.tile !== undefined) {
      this.selected = dragged.tile;
      this.onCell(key);
    }
  }

  nextFreeNumber() {
    for (let number = 1; number <= this.config.board.tiles_per_player; number += 1) if (!this.arrangement.has(number)) return number;
    return null;
  }

  onTrayPointer(event) {
    const button = event.target.closest("[data-tray]");
    if (!button || button.disabled) return;
    const number = Number(button.dataset.tray);
    this.trayDrag?.abort();
    this.trayDrag = startDrag(event, button, { number }, (key) => this.onDrop({ number }, key));
  }

  onDockClick(event) {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.tray) {
      this.pick = this.pick === Number(button.dataset.tray) ? null : Number(button.dataset.tray);
      this.render();
      return;
    }
    switch (button.dataset.action) {
      case "random": {
        const zone = [...this.view.zone];
        for (let i = zone.length - 1; i > 0; i -= 1) {
          const j = Math.floor(Math.random() * (i + 1));
          [zone[i], zone[j]] = [zone[j], zone[i]];
        }
        this.arrangement = new Map();
        for (let number = 1; number <= this.config.board.tiles_per_player; number += 1) this.arrangement.set(number, cellKey(...zone[number - 1]));
        this.pick = null;
        this.render();
        break;
      }
      case "clear":
        this.arrangement = new Map();
        this.pick = 1;
        this.render();
        break;
      case "confirm": {
        const cells = [];
        for (let number = 1; number <= this.config.board.tiles_per_player; number += 1) {
          const { q, r } = parseKey(this.arrangement.get(number));
          cells.push([q, r]);
        }
        this.send({ type: "place", cells });
        break;
      }
      case "scout":
        this.send({ type: "scout", tile: this.selected, step: this.table.step });
        break;
      case "deselect":
        this.selected = null;
        this.render();
        break;
      case "end":
        this.send({ type: "end", step: this.table.step });
        break;
      default:
    }
  }

  async onSideClick(event) {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.copy !== undefined) {
      try {
        await navigator.clipboard.writeText(button.dataset.copy);
        button.textContent = t("game.copied");
      } catch {
        button.previousElementSibling?.querySelector("input")?.select();
      }
      return;
    }
    switch (button.dataset.action) {
      case "start":
        this.send({ type: "start" });
        break;
      case "reinvite": {
        const seat = Number(button.dataset.seat);
        try {
          const answer = await api(`/api/enjambre/tables/${encodeURIComponent(this.id)}/seats/${seat}/invite`, { method: "POST", token: this.token });
          saveTableInvites(this.id, { ...tableInvites(this.id), [seat]: answer.invite });
          this.renderSide();
        } catch (failure) {
          this.live.showError({ code: failure.code, message: failure.detail });
        }
        break;
      }
      case "replay":
        this.openReplay(Number(button.dataset.game));
        break;
      case "replay-close":
        this.replay = null;
        this.render();
        break;
      case "replay-step":
        this.stepReplay(button.dataset.to);
        break;
      default:
    }
  }

  onSideChange(event) {
    if (event.target.name === "replay-view" && this.replay) {
      this.replay.view = event.target.value;
      this.loadReplay(this.replay.step);
    } else if (event.target.name === "replay-step" && this.replay) {
      this.loadReplay(Number(event.target.value));
    }
  }

  // --- replays ---------------------------------------------------------------------------

  openReplay(game) {
    const view = this.state.you.length === 1 ? String(this.state.you[0]) : "all";
    this.replay = { game, step: 1, view, data: null };
    this.loadReplay(1);
  }

  async loadReplay(step) {
    const replay = this.replay;
    const query = new URLSearchParams({ game: replay.game, step, view: replay.view });
    try {
      replay.data = await api(`/api/enjambre/tables/${encodeURIComponent(this.id)}/replay?${query}`);
      replay.step = replay.data.step;
    } catch (failure) {
      this.live.showError({ code: failure.code, message: failure.detail });
      return;
    }
    this.render();
  }

  stepReplay(to) {
    const data = this.replay?.data;
    if (!data) return;
    const step = data.step;
    const turns = data.turns;
    const targets = {
      first: 1,
      back: step - 1,
      forward: step + 1,
      last: data.steps,
      prevTurn: [...turns].reverse().find((n) => n < step) ?? 1,
      nextTurn: turns.find((n) => n > step) ?? data.steps,
    };
    this.loadReplay(Math.max(1, Math.min(data.steps, targets[to])));
  }
}
