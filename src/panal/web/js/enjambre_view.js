// What the Enjambre Tácticas table page draws, from the server's state and the player's
// choices: the status, the seats, the board (with the set-up arrangement, the lit cells and the
// last move), the dock (the set-up tray, the turn's buttons), what happened, the scoreboard,
// the links, the combats and scouts shown one after another, the hand-over screen and a replay.
// enjambre_page.js adds what the player does; this part only reads.

import { escapeHtml, keepingFocus } from "./dom.js";
import { colourFill } from "./enjambre_board.js";
import { describeError, hasKey, playerName, t } from "./i18n.js";
import { cellKey, parseKey, toPixel } from "./position.js";
import { tableInvites } from "./storage.js";

export const colourName = (colour) => t(`enj.colour.${colour}`);

/** A refusal in the reader's language: a rule's code with its details, or a known error. */
export function describeTableError(error) {
  if (error.code === "illegal_action" && error.rule) {
    const details = { ...(error.details || {}) };
    for (const name of ["turn", "player", "owner"]) if (details[name]) details[name] = colourName(details[name]);
    const key = `enj.rule.${error.rule}`;
    const reason = hasKey("en", key) ? t(key, details) : error.message;
    return t("enj.rule.prefix", { reason });
  }
  return describeError(error);
}

export class TableView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.config = null; // GET /api/enjambre/config: the board
    this.live = null; // the state, the notice, the connection (live_page.js)
    this.board = null; // the SVG board (enjambre_board.js), made with the page's frame
    this.token = null; // this device's seat token, for the private link
    this.events = []; // what happened in this game, as far as this viewer may know
    this.selected = null;
    this.arrangement = new Map(); // set-up: tile number → "q,r"
    this.pick = null; // set-up: the number picked from the tray
    this.shows = []; // combats and scouts to animate, in order
    this.seenResults = null; // how many finished games' scoreboards were dismissed
    this.replay = null; // {game, step, view, data}
  }

  get state() {
    return this.live.state;
  }

  // --- facts about the state -------------------------------------------------------------

  get view() {
    return this.state.view;
  }

  get table() {
    return this.state.table;
  }

  get mine() {
    return new Set(this.state.you);
  }

  get local() {
    return this.state.you.length > 1;
  }

  seatName(seat) {
    const row = this.table.seats[seat];
    const colour = colourName(this.view.colours[seat]);
    if (row.name) return `${escapeHtml(playerName(row.name))} (${colour})`;
    return colour;
  }

  /** The seat of this device that must take the device now (pass-the-screen), if any. */
  handoverSeat() {
    if (!this.local || this.table.status !== "playing" || this.state.viewer !== null) return null;
    const view = this.view;
    if (view.phase === "setup") return this.state.you.find((seat) => !view.placed[seat]) ?? null;
    if (view.phase === "play" && this.mine.has(view.turn)) return view.turn;
    return null;
  }

  setupMode() {
    return Boolean(this.view.legal?.place) && this.state.viewer !== null;
  }

  // --- drawing ---------------------------------------------------------------------------

  render() {
    if (!this.state || !this.root.querySelector(".enj-page")) return;
    keepingFocus(this.root, () => {
      this.renderTop();
      this.renderSeats();
      this.renderBoard();
      this.renderDock();
      this.renderSide();
      this.renderOverlay();
      this.renderHandover();
    });
  }

  renderTop() {
    const view = this.view;
    const table = this.table;
    let status;
    if (this.replay) status = t("enj.replay.title");
    else if (table.status === "waiting") status = t("enj.status.waiting");
    else if (view.phase === "over") status = table.status === "over" && table.games > 1 ? t("enj.status.matchOver") : t("enj.status.over");
    else if (view.phase === "setup") status = this.setupMode() ? t("enj.status.setup") : t("enj.status.setupWait");
    else if (this.state.viewer !== null && view.turn === this.state.viewer) status = t("enj.status.yourTurn", { round: view.round, rounds: view.rounds });
    else status = t("enj.status.turn", { round: view.round, rounds: view.rounds, colour: this.seatName(view.turn) });
    const statusElement = this.root.querySelector(".status");
    statusElement.innerHTML = status;
    statusElement.classList.toggle("over", view.phase === "over");
    const parts = [t("enj.title")];
    if (table.games > 1) parts.push(t("enj.status.game", { n: table.game + 1, total: table.games }));
    if (table.rated) parts.push(t("game.rated"));
    if (!this.state.you.length) parts.push(t("enj.status.watching"));
    this.root.querySelector(".game-title").textContent = parts.join(" · ");
    document.title = `${t("enj.title")} — panal`;
  }

  renderSeats() {
    const view = this.view;
    this.root.querySelector("#enj-players-title").textContent = t("enj.players");
    const items = this.table.seats.map((row, seat) => {
      const colour = view.colours[seat];
      const who = [];
      if (this.mine.has(seat)) who.push(t("enj.seat.you"));
      if (row.kind === "bot") who.push(row.replaced ? t("enj.seat.replaced") : t("enj.seat.bot", { level: t(`enj.bot.${row.bot}`) }));
      else if (!row.joined) who.push(t("enj.seat.open"));
      const facts = [];
      if (view.phase === "setup") {
        if (this.table.status === "playing") facts.push(view.placed[seat] ? t("enj.seat.placed") : t("enj.seat.arranging"));
      } else {
        facts.push(t("enj.seat.tiles", { n: view.tiles_left[seat] }), t("enj.seat.eliminations", { n: view.eliminations[seat] }));
      }
      const toMove = view.phase === "play" && view.turn === seat;
      // An account's Enjambre rating, "1500?" while uncertain (as on its profile).
      const rating = row.rating ? ` <span class="player-rating" data-rating title="${escapeHtml(t("enj.seat.rating"))}">${escapeHtml(row.rating)}</span>` : "";
      return `<li class="enj-seat${toMove ? " to-move" : ""}" data-seat="${seat}">
          <span class="swatch" style="background:${colourFill(colour)}"></span>
          <span class="enj-seat-name">${this.seatName(seat)}${rating}${who.length ? ` <span class="player-who">· ${who.join(" · ")}</span>` : ""}</span>
          <span class="enj-seat-facts">${facts.join(" · ")}</span>
          <span class="enj-tiles-left" aria-hidden="true">${view.phase === "setup" ? "" : "●".repeat(view.tiles_left[seat])}</span>
          ${this.eliminatedMarkup(seat)}
        </li>`;
    });
    this.root.querySelector(".enj-seats").innerHTML = items.join("");
  }

  // This seat's eliminated tiles, face up where the view gives their numbers (the easy version
  // shows them to everyone; otherwise only their owner knows them, unless under memory play).
  eliminatedMarkup(seat) {
    const lost = this.view.eliminated.filter((item) => item.owner === seat);
    if (!lost.length) return "";
    const tiles = lost
      .map((item) => `<span class="enj-lost-tile${item.number === null ? " hidden-number" : ""}" data-eliminated="${item.id}">${item.number ?? "?"}</span>`)
      .join("");
    return `<span class="enj-lost"><span class="enj-lost-label">${escapeHtml(t("enj.seat.lost"))}</span>${tiles}</span>`;
  }

  boardModel() {
    const view = this.replay?.data?.view || this.view;
    const legal = this.replay ? null : view.legal;
    const viewer = this.replay ? null : this.state.viewer;
    const lit = new Map();
    let zone = new Set();
    const tiles = [];
    if (!this.replay && this.setupMode()) {
      zone = new Set(view.zone.map(([q, r]) => cellKey(q, r)));
      const used = new Set(this.arrangement.values());
      for (const key of zone) {
        if (used.has(key)) continue;
        const { q, r } = parseKey(key);
        const label = this.pick !== null ? t("enj.cell.place", { n: this.pick, cell: this.label(q, r) }) : this.label(q, r);
        lit.set(key, { kind: "place", label });
      }
      for (const [number, key] of this.arrangement) {
        const { q, r } = parseKey(key);
        tiles.push({ number, cell: [q, r], colour: view.colours[viewer], pending: true, mine: true, selectable: true, label: t("enj.cell.place", { n: number, cell: this.label(q, r) }) });
      }
    } else {
      const moves = legal?.moves || {};
      for (const tile of view.tiles) {
        const [q, r] = tile.cell;
        const mine = tile.owner === viewer;
        const selectable = Boolean(legal) && mine && (String(tile.id) in moves || this.canScout(tile));
        const colour = view.colours[tile.owner];
        let label;
        if (mine) label = tile.number !== null ? t("enj.tile.mine", { number: tile.number, cell: this.label(q, r) }) : t("enj.tile.mineHidden", { cell: this.label(q, r) });
        else if (tile.number !== null) label = t("enj.tile.shown", { colour: colourName(colour), number: tile.number, cell: this.label(q, r) });
        else label = t("enj.tile.other", { colour: colourName(colour), cell: this.label(q, r) });
        tiles.push({ ...tile, colour, mine, selectable, active: view.active === tile.id, label });
      }
      // The tile in motion is drawn last, on top of a tile it passes over.
      tiles.sort((a, b) => Number(a.active) - Number(b.active));
      if (legal?.displace) {
        for (const [q, r] of legal.displace) lit.set(cellKey(q, r), { kind: "move", label: t("enj.cell.move", { cell: this.label(q, r) }) });
      } else if (this.selected !== null && moves[this.selected]) {
        for (const path of moves[this.selected].paths) {
          const [q, r] = path.cells[path.cells.length - 1];
          const kind = path.attack !== null ? "attack" : "move";
          const text = kind === "attack" ? "enj.cell.attack" : "enj.cell.move";
          lit.set(cellKey(q, r), { kind, label: t(text, { cell: this.label(q, r) }), path: path.cells });
        }
      }
    }
    // The last move made (also the previous player's), and a combat of the turn in progress.
    const events = this.replay ? this.replay.data.events : this.events;
    const moved = [...events].reverse().find((e) => e.type === "moved");
    const combat = [...(this.replay ? events : this.turnEvents())].reverse().find((e) => e.type === "combat");
    let lastMove = null;
    if (moved) {
      lastMove = {
        from: cellKey(...moved.origin),
        to: cellKey(...moved.target),
        fromXY: toPixel(moved.origin[0], moved.origin[1], 30),
        toXY: toPixel(moved.target[0], moved.target[1], 30),
      };
    }
    return {
      board: this.config.board,
      sectors: view.sectors,
      tiles,
      lit,
      zone,
      selected: this.selected,
      lastMove,
      combatCell: combat ? cellKey(...combat.cell) : null,
      label: t("enj.board"),
    };
  }

  label(q, r) {
    const found = this.config.board.cells.find((cell) => cell.cell[0] === q && cell.cell[1] === r);
    return found ? found.label : `${q},${r}`;
  }

  /** The events of the turn in progress (after the last end of turn). */
  turnEvents() {
    let start = this.events.length;
    while (start > 0 && this.events[start - 1].type !== "turn_ended") start -= 1;
    return this.events.slice(start);
  }

  renderBoard() {
    this.board.labels({ zoomIn: t("enj.zoomIn"), zoomOut: t("enj.zoomOut") });
    const hidden = this.handoverSeat() !== null;
    this.root.querySelector(".enj-board-wrap").classList.toggle("covered", hidden);
    if (hidden) {
      // Nothing of the previous player's stays on screen behind the hand-over.
      this.board.render({ board: this.config.board, tiles: [], lit: new Map(), label: t("enj.board") });
      return;
    }
    const wasSetup = this.boardWasSetup;
    this.board.render(this.boardModel());
    this.boardWasSetup = this.setupMode();
    if (this.boardWasSetup && !wasSetup && window.matchMedia?.("(max-width: 700px)").matches) {
      const zone = this.view.zone;
      const middle = zone[Math.floor(zone.length / 2)];
      this.board.focusOn(middle[0], middle[1], 2);
    }
  }

  renderDock() {
    const dock = this.root.querySelector(".enj-dock");
    if (!this.state) return;
    const parts = [];
    parts.push(this.live.bannersMarkup());
    if (this.table.bot_error) parts.push(`<p class="banner error">${t("enj.botError", { message: escapeHtml(this.table.bot_error) })}</p>`);
    if (!this.replay && this.setupMode()) parts.push(this.trayMarkup());
    else if (!this.replay && this.view.legal && !this.view.legal.place) parts.push(this.turnMarkup());
    dock.innerHTML = parts.join("");
  }

  trayMarkup() {
    const count = this.config.board.tiles_per_player;
    const colour = colourFill(this.view.colours[this.state.viewer]);
    const buttons = [];
    for (let number = 1; number <= count; number += 1) {
      const placed = this.arrangement.has(number);
      buttons.push(
        `<li><button type="button" class="enj-tray-tile${this.pick === number ? " selected" : ""}" data-number="${number}" data-tray="${number}" ${placed ? "disabled" : ""}
          style="--tile:${colour}" aria-pressed="${this.pick === number}">${number}</button></li>`,
      );
    }
    const left = count - this.arrangement.size;
    const memory = this.view.options.memory_play ? `<p class="hint">${t("enj.setup.memory")}</p>` : "";
    return `<div class="action-bar enj-setup">
        <p class="hint">${t("enj.setup.help")}</p>
        <ol class="enj-tray" aria-label="${t("enj.setup.left", { n: left })}">${buttons.join("")}</ol>
        <p class="enj-setup-count">${left ? t("enj.setup.left", { n: left }) : t("enj.setup.done")}</p>
        ${memory}
        <div class="enj-actions">
          <button type="button" data-action="random">${t("enj.setup.random")}</button>
          <button type="button" data-action="clear" ${this.arrangement.size ? "" : "disabled"}>${t("enj.setup.clear")}</button>
          <button type="button" class="primary" data-action="confirm" ${left ? "disabled" : ""}>${t("enj.setup.confirm")}</button>
        </div>
      </div>`;
  }

  turnMarkup() {
    const legal = this.view.legal;
    const parts = [];
    if (legal.displace) {
      parts.push(`<p class="enj-hint">${t("enj.turn.displace")}</p>`);
      return `<div class="action-bar enj-turn">${parts.join("")}</div>`;
    }
    if (this.selected !== null && legal.moves[this.selected]) {
      const tile = this.view.tiles.find((item) => item.id === this.selected);
      const count = legal.moves[this.selected].paths.length;
      let text = t("enj.turn.selected", { cell: this.label(...tile.cell), n: count });
      if (this.view.active === this.selected) text += ` · ${t("enj.turn.steps", { n: this.view.active_steps })}`;
      parts.push(`<p class="enj-hint">${text}</p>`);
    } else {
      parts.push(`<p class="enj-hint">${t("enj.turn.select")}</p>`);
    }
    const buttons = [];
    const selectedTile = this.view.tiles.find((item) => item.id === this.selected);
    if (selectedTile && this.canScout(selectedTile)) buttons.push(`<button type="button" data-action="scout">${t("enj.turn.scout")}</button>`);
    else if (this.view.scout_used) buttons.push(`<span class="hint">${t("enj.turn.scoutUsed")}</span>`);
    if (this.selected !== null && this.view.active !== this.selected) buttons.push(`<button type="button" data-action="deselect">${t("enj.turn.cancel")}</button>`);
    buttons.push(`<button type="button" class="primary" data-action="end" ${legal.end ? "" : "disabled"}>${t("enj.turn.end")}</button>`);
    if (!legal.end && legal.end_problem) {
      const reason = describeTableError({ code: "illegal_action", rule: legal.end_problem.code, details: legal.end_problem.details, message: legal.end_problem.message });
      parts.push(`<p class="hint">${escapeHtml(reason)}</p>`);
    }
    return `<div class="action-bar enj-turn">${parts.join("")}<div class="enj-actions">${buttons.join("")}</div></div>`;
  }

  renderSide() {
    const side = this.root.querySelector(".enj-side");
    const sections = [];
    if (this.replay) sections.push(this.replayMarkup());
    // The goal, stated at the table until the score card says how it went (tutorial: /learn).
    if (this.view.phase !== "over") sections.push(`<p class="table-goal" data-goal>${escapeHtml(t("training.enjambreGoal"))} <a href="/learn/enjambre_setup" data-link>${escapeHtml(t("training.tutorial"))}</a></p>`);
    sections.push(this.logMarkup());
    sections.push(this.resultsMarkup());
    sections.push(this.linksMarkup());
    side.innerHTML = sections.filter(Boolean).join("");
  }

  describeEvent(event) {
    const colour = this.seatNameOf(event.player);
    const cell = (pair) => (pair ? this.label(pair[0], pair[1]) : "?");
    switch (event.type) {
      case "placed":
        return t("enj.event.placed", { colour });
      case "moved": {
        const key = { colmena: "enj.event.movedColmena", dark: "enj.event.movedDark" }[event.via] || "enj.event.moved";
        return t(key, { colour, from: cell(event.origin), to: cell(event.target) });
      }
      case "combat":
        if (event.attacker_number === null) return t("enj.event.combatHidden", { colour, cell: cell(event.cell) });
        return t("enj.event.combat", { colour, cell: cell(event.cell), a: event.attacker_number, d: event.defender_number });
      case "scouted": {
        if (event.number === null) return t("enj.event.scoutHidden", { colour });
        if (!event.success) return t("enj.event.scoutFail", { colour, number: event.number });
        if (!event.revealed.length) return t("enj.event.scoutNone", { colour });
        const shown = event.revealed.map(([tile, number]) => `${colourName(this.colourOfTile(tile))} ${number}`).join(", ");
        return t("enj.event.scoutOk", { colour, shown });
      }
      case "displaced":
        return t("enj.event.displaced", { colour, to: cell(event.target) });
      case "turn_ended":
        return t("enj.event.turnEnded", { colour });
      case "game_ended":
        return t("enj.event.gameEnded");
      default:
        return null;
    }
  }

  seatNameOf(seat) {
    const row = this.table.seats[seat];
    const colour = colourName(this.view.colours[seat]);
    return row?.name ? `${playerName(row.name)} (${colour})` : colour;
  }

  colourOfTile(tile) {
    return this.view.colours[Math.floor(tile / this.config.board.tiles_per_player)];
  }

  /** What happened, newest first, under a heading per round. */
  logMarkup() {
    const rounds = [];
    const events = this.replay ? this.replay.data.events : this.events;
    for (const event of events) {
      const text = event.type === "finished" ? null : this.describeEvent(event);
      if (!text) continue;
      if (!rounds.length || rounds[rounds.length - 1].round !== event.round) rounds.push({ round: event.round, items: [] });
      rounds[rounds.length - 1].items.push(`<li class="enj-log-${event.type}">${escapeHtml(text)}</li>`);
    }
    const list = rounds
      .reverse()
      .map(({ round, items }) => `<li class="enj-log-round">${t("enj.log.round", { n: round })}</li>${items.reverse().join("")}`)
      .join("");
    return `<section class="enj-log"><h2>${t("enj.log")}</h2><ol class="enj-log-list">${list || `<li>${t("enj.log.empty")}</li>`}</ol></section>`;
  }

  scoreTable(result) {
    const order = result.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
    const points = result.elimination_points.some((n) => n > 0) || this.view.options.elimination_points;
    const rows = order
      .map(({ place, seat }) => {
        const queen = result.queen_numbers[seat];
        return `<tr data-seat="${seat}"><td>${place}</td><td><span class="swatch" style="background:${colourFill(this.view.colours[seat])}"></span> ${this.seatName(seat)}</td>
          <td>${queen === null ? t("enj.score.noQueen") : queen}</td><td>${result.survivors[seat] - (queen === null ? 0 : 1)}</td>
          <td>${result.eliminations[seat]}</td>${points ? `<td>${result.elimination_points[seat]}</td>` : ""}<td><strong>${result.scores[seat]}</strong></td></tr>`;
      })
      .join("");
    return `<div class="enj-table-wrap"><table class="enj-scores"><thead><tr><th>${t("enj.score.place")}</th><th>${t("enj.score.player")}</th><th>${t("enj.score.queen")}</th>
        <th>${t("enj.score.survivors")}</th><th>${t("enj.score.eliminations")}</th>${points ? `<th>${t("enj.score.points")}</th>` : ""}<th>${t("enj.score.total")}</th></tr></thead>
        <tbody>${rows}</tbody></table></div>
      <p class="hint">${t("enj.score.formula")} ${points ? t("enj.score.withPoints") : t("enj.score.tiebreak")}</p>`;
  }

  matchMarkup() {
    const table = this.table;
    if (table.games < 2 || !table.results.length) return "";
    const header = table.results.map((_, k) => `<th>${t("enj.match.game", { n: k + 1 })}</th>`).join("");
    const places = table.match_places;
    const rows = table.seats
      .map((_, seat) => {
        const cells = table.results.map((result) => `<td>${result.places[seat]}</td>`).join("");
        return `<tr><td>${this.seatName(seat)}</td>${cells}${places ? `<td><strong>${places[seat]}</strong></td>` : ""}</tr>`;
      })
      .join("");
    return `<h3>${t("enj.match.title")}</h3><div class="enj-table-wrap"><table class="enj-scores enj-match"><thead><tr><th>${t("enj.score.player")}</th>${header}${places ? `<th>${t("enj.score.place")}</th>` : ""}</tr></thead><tbody>${rows}</tbody></table></div>
      <p class="hint">${t("enj.match.ranking")}</p>`;
  }

  resultsMarkup() {
    const results = this.table.results;
    if (!results.length) return "";
    const replays = results
      .map((_, k) => `<button type="button" data-action="replay" data-game="${k}">${t("enj.replay.open")}${results.length > 1 ? ` (${t("enj.match.game", { n: k + 1 })})` : ""}</button>`)
      .join("");
    return `<section class="enj-results"><h2>${t("enj.score.title")}</h2>${this.scoreTable(results[results.length - 1])}${this.matchMarkup()}<div class="enj-actions">${replays}</div></section>`;
  }

  linksMarkup() {
    const rows = [];
    const origin = location.origin;
    const invites = tableInvites(this.id);
    if (this.state.host) {
      for (const row of this.table.seats) {
        if (row.kind !== "person" || row.joined) continue;
        const code = invites[row.seat];
        const colour = colourName(this.view.colours[row.seat]);
        const link = code ? `${origin}/table/${this.id}#seat=${row.seat}&invite=${code}` : "";
        rows.push(`<div class="link-row"><label>${t("enj.invite", { n: row.seat + 1, colour })}<input readonly value="${escapeHtml(link)}" data-invite="${row.seat}"></label>
          <button type="button" data-copy="${escapeHtml(link)}" ${link ? "" : "disabled"}>${t("game.copy")}</button>
          <button type="button" data-action="reinvite" data-seat="${row.seat}">${t("enj.invite.new")}</button></div>`);
      }
      if (this.table.status === "waiting") rows.push(`<button type="button" class="primary" data-action="start">${t("enj.startNow")}</button>`);
    }
    if (this.token && this.state.you.length) {
      const link = `${origin}/table/${this.id}#token=${this.token}`;
      rows.push(`<div class="link-row"><label>${t("enj.private")}<input readonly value="${escapeHtml(link)}"></label><button type="button" data-copy="${escapeHtml(link)}">${t("game.copy")}</button></div>`);
    }
    const watch = `${origin}/table/${this.id}`;
    rows.push(`<div class="link-row"><label>${t("enj.watch")}<input readonly value="${escapeHtml(watch)}"></label><button type="button" data-copy="${escapeHtml(watch)}">${t("game.copy")}</button></div>`);
    return `<section class="enj-links"><h2>${t("enj.links")}</h2>${rows.join("")}</section>`;
  }

  /** Whether "Scout with this tile" is offered for one of the player's tiles: the rules let any
   *  tile try (a flip that is not the 1 fails, docs/enjambre.md), but a player who sees their
   *  numbers is offered the 1 only; in memory play, where they do not, any tile. */
  canScout(tile) {
    const legal = this.view.legal;
    if (!legal?.scout?.includes(tile.id)) return false;
    return tile.number === 1 || tile.number === null;
  }

  /** The scoreboard of a game just finished, over the board, until dismissed; then combats and
   *  scouts being shown, one after another. */
  renderOverlay() {
    const overlay = this.root.querySelector(".enj-overlay");
    const results = this.table.results;
    if (!this.replay && this.seenResults !== null && results.length > this.seenResults) {
      const last = results.length - 1;
      const matchOver = this.table.status === "over" && this.table.games > 1;
      const next = this.table.status !== "over" ? t("enj.match.next") : t("game.close");
      overlay.hidden = false;
      overlay.className = "enj-overlay result-overlay";
      overlay.innerHTML = `<div class="result-card enj-score-card" role="dialog" aria-labelledby="enj-score-title">
          <h2 id="enj-score-title">${matchOver ? t("enj.status.matchOver") : t("enj.status.over")}</h2>
          ${this.scoreTable(results[last])}${this.matchMarkup()}
          <div class="result-actions"><button type="button" class="primary" data-action="close-score">${next}</button>
          <button type="button" data-action="replay" data-game="${last}">${t("enj.replay.open")}</button></div></div>`;
      return;
    }
    const show = this.shows[0];
    if (!show) {
      overlay.hidden = true;
      overlay.innerHTML = "";
      return;
    }
    overlay.hidden = false;
    overlay.className = "enj-overlay enj-show";
    overlay.innerHTML = show.html;
  }

  queueShows(events, state) {
    for (const event of events) {
      if (event.type === "combat" && event.attacker_number !== null) {
        const owner = (tile) => Math.floor(tile / this.config.board.tiles_per_player);
        const attacker = state.view.colours[owner(event.attacker)];
        const defender = state.view.colours[owner(event.defender)];
        let outcome;
        if (event.eliminated.length === 2) outcome = t("enj.combat.both");
        else if (event.eliminated[0] === event.defender) outcome = t("enj.combat.attackerWins", { colour: colourName(attacker) });
        else outcome = t("enj.combat.defenderWins", { colour: colourName(defender) });
        const loser = (tile) => (event.eliminated.includes(tile) ? " loser" : " winner");
        this.shows.push({
          html: `<div class="enj-combat" role="alert"><h2>${t("enj.combat.title", { cell: this.label(...event.cell) })}</h2>
            <div class="enj-duel"><span class="enj-duel-tile${loser(event.attacker)}" style="--tile:${colourFill(attacker)}">${event.attacker_number}</span>
            <span class="enj-vs">⚔</span><span class="enj-duel-tile${loser(event.defender)}" style="--tile:${colourFill(defender)}">${event.defender_number}</span></div>
            <p>${t("enj.combat.vs", { attacker: colourName(attacker), a: event.attacker_number, defender: colourName(defender), d: event.defender_number })}</p>
            <p><strong>${outcome}</strong></p></div>`,
        });
      } else if (event.type === "scouted" && event.number !== null) {
        this.shows.push({ html: `<div class="enj-combat enj-scout" role="alert"><p>${escapeHtml(this.describeEvent(event))}</p></div>` });
      }
    }
    this.nextShow();
  }

  nextShow() {
    if (this.showTimer || !this.shows.length) return;
    this.showTimer = setTimeout(() => {
      this.showTimer = null;
      this.shows.shift();
      this.renderOverlay();
      this.nextShow();
    }, 2200);
  }

  renderHandover() {
    const cover = this.root.querySelector(".enj-handover");
    const seat = this.handoverSeat();
    if (seat === null) {
      cover.hidden = true;
      cover.innerHTML = "";
      return;
    }
    const name = this.seatName(seat);
    cover.hidden = false;
    cover.innerHTML = `<div class="enj-handover-card" role="dialog" aria-labelledby="enj-handover-title" style="--tile:${colourFill(this.view.colours[seat])}">
        <h2 id="enj-handover-title">${t("enj.handover.title", { name })}</h2>
        <p>${t("enj.handover.help", { name })}</p>
        <button type="button" class="primary" data-look="${seat}">${t("enj.handover.ready", { name })}</button></div>`;
  }


  replayMarkup() {
    const replay = this.replay;
    const data = replay.data;
    const views = [...this.table.seats.map((_, seat) => [String(seat), this.seatName(seat)]), ["all", t("enj.replay.all")]];
    const options = views.map(([value, name]) => `<option value="${value}" ${value === replay.view ? "selected" : ""}>${name}</option>`).join("");
    const total = data ? data.steps : 1;
    const step = data ? data.step : 1;
    const nav = [
      ["first", "⏮", "enj.replay.first"],
      ["prevTurn", "⏪", "enj.replay.prevTurn"],
      ["back", "◀", "enj.replay.back"],
      ["forward", "▶", "enj.replay.forward"],
      ["nextTurn", "⏩", "enj.replay.nextTurn"],
      ["last", "⏭", "enj.replay.last"],
    ]
      .map(([to, icon, label]) => `<button type="button" data-action="replay-step" data-to="${to}" aria-label="${t(label)}" title="${t(label)}">${icon}</button>`)
      .join("");
    return `<section class="enj-replay"><h2>${t("enj.replay.title")}</h2>
        <label class="block">${t("enj.replay.view")} <select name="replay-view">${options}</select></label>
        <div class="move-nav enj-replay-nav">${nav}</div>
        <label class="block">${t("enj.replay.step", { n: step, total })}<input type="range" name="replay-step" min="1" max="${total}" value="${step}"></label>
        <button type="button" data-action="replay-close">${t("enj.replay.close")}</button></section>`;
  }
}
