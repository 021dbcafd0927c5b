"""Hive games, a kind of live room: :class:`GameHub` plugs them into the live-room core
(:mod:`panal.server.room.core`), which caches each game's :class:`LiveGame`, commits a change
with a compare-and-set on the game's version (refused: nothing changes, the copy is reloaded,
the player is told to look again), shows it to every socket and publishes it. The hub adds what
is Hive's: creating and joining games, the clocks it keeps (a flag falls even if nobody moves),
the ratings settled with a result, the AI (:mod:`panal.server.hive_games.ai_player`) and the
spectators' counts (announced at most twice a second, shared between processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hmac
import json
import logging
import random
import secrets
import time
from typing import Any

from panal.hive import (
    Game,
    Move,
    Options,
)
from panal.hive.notation import parse_move
from panal.server.hive_games.actions import (
    ACTIONS,
    GameChange,
    abort_change,
    both_writes,
    flag_change,
    requested_game_type,
    timed,
)
from panal.server.hive_games.ai_player import AiPlayer
from panal.server.hive_games.clock import ClockState, TimeControl
from panal.server.hive_games.game_store import (
    IMPORT_BATCH,
    GameRow,
    GameStore,
    Guard,
    clock_values,
    rule_headers,
)
from panal.server.hive_games.live import COLOR_NAMES, AiError, Limits, LiveGame
from panal.server.hive_games.notices import notify_players
from panal.server.hive_games.records_io import replay_with_history
from panal.server.hive_games.snapshot import (
    board_fields,
    history_entry,
    settle_result,
)
from panal.server.hive_games.unfinished import UnfinishedGames
from panal.server.http.clients import Client
from panal.server.http.request_error import RequestError
from panal.server.players.player_store import PlayerStore
from panal.server.ratings.rating_store import ABORTED, RATED_FROM_PLIES, settle_ratings
from panal.server.room.core import Failure, Reload, RoomKindBase, Rooms
from panal.server.room.outbox import Connection
from panal.server.room.tokens import hash_token, new_id, new_token
from panal.server.runtime.runtime import Runtime

__all__ = ["GameHub"]

log = logging.getLogger("panal.server")
MODES = ("ai", "hotseat", "online", "review")
LOBBY_CHANNEL = "lobby"


class GameHub(RoomKindBase[LiveGame, GameChange]):
    """The games this process serves, loaded from the store on demand and kept fresh by the bus.

    ``shared`` says whether other processes write to the same database (scale-out): a cached
    copy is then checked against the stored version before it is read.
    """

    def __init__(
        self,
        runtime: Runtime,
        store: GameStore,
        players: PlayerStore,
        levels: tuple[str, ...],
        *,
        limits: Limits | None = None,
    ) -> None:
        self.runtime = runtime
        self.store = store  # the runtime's store, as the games' (the same object)
        self.bus = runtime.bus
        self.jobs = runtime.jobs
        self.players = players
        self.now = runtime.now  # the server's time, for clocks (tests may replace it)
        self.levels = levels
        self.shared = runtime.shared
        self.limits = limits or Limits()
        self.rooms: Rooms[LiveGame, GameChange] = Rooms(runtime, self, self.limits.cached_games)
        self.ai = AiPlayer(self)
        self.unfinished = UnfinishedGames(self)
        runtime.own_jobs("hive.", self.ai)
        runtime.on_start(self.start)

    # --- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Before the first request: time during which no server ran is given back first;
        then keep the clocks, and (scale-out) this process's spectator counts."""
        await self._heartbeat(self.now())
        self.runtime.spawn(self._keep_time())
        sweep = self.unfinished.sweep
        self.runtime.spawn(self.runtime.every(self.limits.ai_sweep_seconds, sweep, "AI games"))
        await self._drop_stale_imports()
        every = self.limits.stale_import_seconds
        self.runtime.spawn(self.runtime.every(every, self._drop_stale_imports, "stale imports"))
        if self.shared:
            self.runtime.spawn(self._refresh_presence())

    async def _drop_stale_imports(self) -> None:
        """Imports cut short by a process's death (kill -9) leave a game half-written: gone
        once it is ``Limits.stale_import_seconds`` old."""
        before = time.time() - self.limits.stale_import_seconds
        dropped = await self.runtime.db(self.store.drop_stale_imports, before)
        if dropped:
            log.warning("dropped %d imports cut short", dropped)

    def lobby_changed(self) -> None:
        """The lobby's lists changed (a game being played began or ended): every process
        refreshes its lobby pages."""
        self.runtime.announce(LOBBY_CHANNEL, {"op": "changed"})

    # --- keeping time ----------------------------------------------------------------------

    async def _keep_time(self) -> None:
        """Every process, all the time: note that it runs (an outage of every process is given
        back to the clocks), and end the games whose running clock's time is up, even if
        nobody moves. Several processes may find the same game: the compare-and-set on its
        version lets one write the result, once."""
        last_beat = self.now()
        while True:
            await asyncio.sleep(self.limits.clock_sweep_seconds)
            try:
                now = self.now()
                if now - last_beat >= self.limits.heartbeat_seconds:
                    last_beat = now
                    await self._heartbeat(now)
                for game_id in await self.runtime.db(self.store.due_games, now):
                    await self._flag(game_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("keeping the clocks")

    async def _heartbeat(self, now: float) -> None:
        gap, credited = await self.runtime.db(self.store.heartbeat, now, self.limits.outage_seconds)
        if credited:
            log.warning(
                "no server ran for %.1f s: that time is given back to %d running clocks",
                gap,
                len(credited),
            )
        for game_id in credited:
            self.rooms.mark_stale(game_id)

    async def _flag(self, game_id: str) -> None:
        """End the game on time if its running clock's time is up, or abort it if a first move
        did not come in time (checked again here)."""
        try:
            live = await self.get(game_id)
        except RequestError:
            return
        async with live.lock:
            clock = live.row.clock
            if live.is_finished or clock is None:
                return
            now = self.now()
            loser = clock.flagged(now)
            if clock.abandoned(now):
                change = abort_change(clock, now)
            elif loser is not None:
                change = flag_change(clock, loser, now)
            else:
                return  # a move, or time given back, came first
            with contextlib.suppress(RequestError):  # stale: another process wrote it
                await self.commit(live, change)

    # --- the kind of room (RoomKind; serving a room by id and its errors: RoomKindBase) -------

    name = "game"
    stale_message = "the game has moved on since you chose that; look again"

    async def load(self, game_id: str) -> LiveGame:
        loaded = await self.runtime.db(self.store.load_game, game_id)
        if loaded is None:
            raise self.unknown()
        row, moves = loaded
        if row.mode not in MODES:  # still being imported (or an import that died half-way)
            raise self.unknown()
        live = await self._build(row, moves)
        live.players = await self.runtime.db(self.players.game_players, row)
        live.presence_ttl = self.limits.presence_ttl
        return live

    async def stored_version(self, game_id: str) -> int | None:
        return await self.runtime.db(self.store.version_of, game_id)

    def take(self, live: LiveGame, fresh: LiveGame) -> None:
        live.replace(fresh)
        live.ai_error = None

    def evictable(self, live: LiveGame) -> bool:
        return True

    async def write(self, live: LiveGame, change: GameChange) -> int:
        return await self.store.change_async(live.id, live.version, change)

    async def applied(self, live: LiveGame, change: GameChange) -> None:
        live.ai_error = None
        if _changes_players(change, live.row.rated):
            live.players = await self.runtime.db(self.players.game_players, live.row)

    def show(self, live: LiveGame) -> None:
        live.broadcast()

    def encode(self, change: GameChange) -> dict[str, Any]:
        return {
            "values": change.values,
            "add": list(change.add_moves),
            "entries": list(change.entries),
            "board": change.board,
            "legal": change.legal,
            "keep": change.keep_plies,
        }

    def decode(self, fields: dict[str, Any]) -> GameChange:
        added = tuple(fields.get("add") or ())
        entries = tuple(fields.get("entries") or ())
        board, legal = fields.get("board"), fields.get("legal")
        return GameChange(
            dict(fields["values"]),
            add_moves=added,
            keep_plies=fields.get("keep"),
            entries=entries if len(entries) == len(added) else (),
            board=board if isinstance(board, dict) else None,
            legal=legal if isinstance(legal, str) and board is not None else None,
        )

    def record_failure(self, live: LiveGame, failure: Failure) -> None:
        live.ai_error = AiError(failure.code, failure.message)

    def on_other(self, live: LiveGame, message: dict[str, Any]) -> None:
        """Another process's count of this game's spectators."""
        count, origin = message.get("spectators"), message.get("from")
        if message.get("op") == "presence" and isinstance(count, int) and isinstance(origin, str):
            live.remote_spectators[origin] = (max(0, count), time.monotonic())
            if live.spectators != live.announced_spectators:
                live.broadcast()

    async def _build(self, row: GameRow, moves: list[str]) -> LiveGame:
        """A copy from the stored row and moves: replayed here when short, else in a worker."""
        playable = row.mode != "review"
        if len(moves) <= self.limits.inline_replay_plies:
            game, history = _replay(row.game_type, row.rules, moves)
            return LiveGame(row, game if playable else None, moves, history, board_fields(game))
        rebuilt = await self.runtime.heavy_job(
            "game.rebuild",
            {
                "game_type": row.game_type,
                "options": row.rules.to_values(),
                "moves": moves,
                "playable": playable,
            },
        )
        return LiveGame(row, rebuilt["game"], moves, rebuilt["history"], rebuilt["board"])

    # --- creating --------------------------------------------------------------------------

    async def create(
        self,
        *,
        game_type: str,
        mode: str,
        options: Options,
        look: str,
        color: str,
        ai_level: str | None,
        client: Client | None = None,
        imported: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        user: int | None = None,
        control: TimeControl | None = None,
        takebacks: bool = False,
    ) -> tuple[LiveGame, dict[str, Any]]:
        """A new game, or one from a record (``imported``: what ``records_io.import_job`` or
        ``rebuild_job`` returned); returns it and the secrets to give its creator.

        ``client``: who asks (the caps on AI games; whose AI moves these are in the job
        queue's fair shares). ``user``: the creator's account (it takes the creator's seat).
        ``control``: the clock; White's starts at once against the AI and hot-seat, when the
        invitation is taken online. ``takebacks``: an online game's players may propose them."""
        if mode not in MODES:
            raise RequestError("bad_mode", f"mode must be one of {', '.join(MODES)}")
        parsed_type = requested_game_type(game_type)
        if mode == "ai":
            if not self.levels:
                raise RequestError("no_ai", "the AI is not available on this server", 409)
            if ai_level is None:
                ai_level = "medium" if "medium" in self.levels else self.levels[0]
            if ai_level not in self.levels:
                raise RequestError(
                    "bad_level", f"unknown AI level {ai_level!r}; one of {', '.join(self.levels)}"
                )
        else:
            ai_level = None
        if color == "random":
            color = random.choice(COLOR_NAMES)
        if color not in COLOR_NAMES:
            raise RequestError("bad_color", "color must be white, black or random")
        if control is not None and (mode == "review" or imported is not None):
            raise RequestError("bad_clock", "an imported record is played without a clock")
        human = COLOR_NAMES.index(color)
        if imported is None:
            game, moves, history = Game(parsed_type, options=options), [], []
            board = board_fields(game)
        else:
            game = imported["game"]
            moves = imported["moves"]
            history, board = imported["history"], imported["board"]
        row = GameRow(
            id=new_id(),
            game_type=str(parsed_type),
            mode=mode,
            tournament_opening=options.tournament_opening,
            repetition_draw=options.repetition_draw,
            dragonfly_gates=False,  # the legacy column: these options now travel in headers
            look=look,
            ai_level=ai_level,
            ai_color=1 - human if mode == "ai" else None,
            plies=len(moves),
            headers=rule_headers(options, dict(headers or {})),
            owner=client.address if mode == "ai" and client else None,
            client=client.key if mode == "ai" and client else None,
            takebacks=takebacks and mode == "online",
        )
        if user is not None and mode in ("ai", "online"):
            setattr(row, f"{color}_user", user)
        if control is not None:
            clock = ClockState.new(control)
            if mode != "online":
                clock = clock.started(self.now())
            row.set_clock(control, clock)
        secrets_out: dict[str, Any] = {"id": row.id}
        if mode != "review":
            token = new_token()
            if mode == "hotseat":
                row.white_token = row.black_token = hash_token(token)
                secrets_out["seat"] = "both"
            else:
                setattr(row, f"{color}_token", hash_token(token))
                secrets_out["seat"] = color
            secrets_out["token"] = token
            if mode == "online":
                row.invite_code = secrets.token_urlsafe(12)
                secrets_out["invite"] = row.invite_code
        settled: dict[str, Any] = {}
        if imported is not None:
            settled = imported["settled"]
        elif game is not None:
            settle_result(settled, game)
        for name, value in settled.items():
            setattr(row, name, value)
        if mode == "ai" and client is not None:
            async with self.unfinished.capacity.creating:
                guard = self.unfinished.capacity.guard(client)
                await self._store_new_game(row, moves, guard)
        else:
            await self._store_new_game(row, moves)
        live = LiveGame(row, game if mode != "review" else None, moves, history, board)
        live.presence_ttl = self.limits.presence_ttl
        await self.rooms.created(live)
        await self.ai.after_change(live, was_ai_turn=False)
        return live, secrets_out

    async def _store_new_game(
        self, row: GameRow, moves: list[str], guard: Guard | None = None
    ) -> None:
        if len(moves) <= IMPORT_BATCH:
            await self.runtime.db(self.store.create_game, row, moves, guard)
            return
        await self.runtime.db(self.store.begin_import, row, guard)
        for start in range(0, len(moves), IMPORT_BATCH):
            batch = moves[start : start + IMPORT_BATCH]
            await self.runtime.db(self.store.import_moves, row.id, start + 1, batch)
        await self.runtime.db(self.store.finish_import, row.id, row.mode)

    async def join(self, game_id: str, invite: str, user: int | None = None) -> dict[str, Any]:
        """Claim the open seat of an online game with its invitation code (once, whichever
        process is asked: the database picks the one winner); the clock starts then.
        ``user``: the joiner's account (not when it already holds the other seat)."""
        live = await self.get(game_id)
        row = live.row
        if row.mode != "online":
            raise RequestError("not_online", "this game takes no invitations", 409)
        if row.invite_code is None:
            raise RequestError("invite_used", "this invitation has already been used", 409)
        if not hmac.compare_digest(row.invite_code.encode(), invite.encode("utf-8", "replace")):
            raise RequestError("bad_invite", "wrong invitation code", 403)
        color = "black" if row.white_token is not None else "white"
        token = new_token()
        values: dict[str, Any] = {}
        if user is not None and user not in row.users():
            values[f"{color}_user"] = user
        control, clock = row.control, row.clock
        if control is not None and clock is not None and clock.running is None:
            values.update(clock_values(clock.started(self.now(), live.turn)))
        won = await self.runtime.db(
            self.store.claim_seat, game_id, row.invite_code, color, hash_token(token), values
        )
        async with live.lock:
            await self.rooms.reload(live)
        await self.rooms.publish(game_id, Reload(live.version))
        if not won:
            raise RequestError("invite_used", "this invitation has already been used", 409)
        self.lobby_changed()  # a game being played now
        return {"id": row.id, "seat": color, "token": token}

    async def claim_seats(self, user: int, seats: list[tuple[str, str]]) -> list[str]:
        """Give a new account the seats whose tokens it shows (``(game id, token)``), in online
        and AI games where that seat has no account yet and the other is not this account's;
        each through its game's compare-and-set, as any change. The games claimed."""
        claimed: list[str] = []
        for game_id, token in seats:
            try:
                live = await self.get(game_id)
            except RequestError:
                continue
            async with live.lock:
                row = live.row
                if row.mode not in ("online", "ai"):
                    continue
                users = row.users()
                values = {
                    f"{COLOR_NAMES[color]}_user": user
                    for color in live.seats_for(token)
                    if users[color] is None and users[1 - color] != user
                }
                if not values:
                    continue
                with contextlib.suppress(RequestError):  # stale: another process wrote first
                    await self.commit(live, GameChange(values))
                    claimed.append(game_id)
        return claimed

    # --- requests from players -------------------------------------------------------------

    async def handle(self, live: LiveGame, connection: Connection, message: dict[str, Any]) -> None:
        """Apply one websocket request (a JSON object, not a ping). Raises RequestError."""
        kind = message.get("type")
        if kind == "sync":
            connection.post_state(live.state_text(connection.seats))
            return
        action = ACTIONS.get(kind) if isinstance(kind, str) else None
        if action is None:
            raise RequestError(
                "bad_request",
                "unknown message type; expected one of: ping, sync, " + ", ".join(ACTIONS),
            )
        if not connection.seats:
            raise RequestError("spectator", "spectators can't play: you have no seat here", 403)
        async with live.lock:
            change = action(live, connection.seats, message, self.now())
            await self.commit(live, change)

    # --- committing ------------------------------------------------------------------------

    async def commit(self, live: LiveGame, change: GameChange) -> None:
        """Under the game's lock: commit the change through the live-room core (written if the
        game is still at the version it was computed from, applied, shown, published), then
        queue what follows it.

        The clock is read here, once, for every kind of change: a move stops the mover's clock
        and starts the other; an ending stops both; and any change that comes after the side
        to move ran out of time becomes the loss on time instead. A result of a rated game
        changes the ratings in the same transaction, unless it came before the second ply: then
        the game is aborted (its end reason says so) and no rating changes."""
        was_ai_turn = live.ai_thinking
        change = timed(live, change, self.now())
        finishes = change.values.get("result") is not None and live.row.result is None
        if finishes and live.row.rated:
            if len(live.moves) + len(change.add_moves) < RATED_FROM_PLIES:
                values = {**change.values, "end_reason": ABORTED}
                change = dataclasses.replace(change, values=values)
            ratings = functools.partial(settle_ratings, game_id=live.id)
            change = dataclasses.replace(change, also=both_writes(change.also, ratings))
        await self.rooms.commit(live, change)
        notify_players(self.runtime, live, change)
        if live.row.mode == "online" and (finishes or "rematch_game" in change.values):
            self.lobby_changed()  # a game being played now ended or began
        await self.ai.after_change(live, was_ai_turn)

    def apply_change(self, live: LiveGame, change: GameChange, version: int) -> None:
        """Apply a committed change to the copy (moves were checked when they were stored)."""
        game = live.game
        if change.keep_plies is not None:
            drop = len(live.moves) - change.keep_plies
            if drop > 0:
                assert game is not None
                for _ in range(drop):
                    game.pop()
                del live.moves[change.keep_plies :]
                del live.history_parts[change.keep_plies :]
                live.history_changed_from(change.keep_plies)
        if change.add_moves:
            live.history_changed_from(len(live.history_parts))
        for index, text in enumerate(change.add_moves):
            assert game is not None
            # Checked here a moment ago (its code is known), or by the process that stored it:
            # then only read, not checked again.
            code = change.codes[index] if change.codes else parse_move(game, text, lenient=True)
            if change.entries:
                entry = change.entries[index]
            else:
                part = history_entry(game, Move.from_code(code), game.ply + 1)
                entry = json.dumps(part, separators=(",", ":"))
            game.push_code(code)
            live.moves.append(text)
            live.history_parts.append(entry)
        if change.board is not None:
            live.board = change.board
        elif game is not None and (change.add_moves or change.keep_plies is not None):
            live.board = board_fields(game)
        for name, value in change.values.items():
            setattr(live.row, name, value)
        live.row.version = version
        if change.legal is not None:
            live.legal_known(change.legal)

    # --- connections -----------------------------------------------------------------------

    def attach(self, live: LiveGame, connection: Connection) -> None:
        live.connections.add(connection)
        connection.post_state(live.state_text(connection.seats))
        if connection.spectator:
            self._presence_changed(live)

    def detach(self, live: LiveGame, connection: Connection) -> None:
        connection.close()
        live.connections.discard(connection)
        if connection.spectator:
            self._presence_changed(live)
        self.rooms.evict()

    def _presence_changed(self, live: LiveGame) -> None:
        """Spectators came or went: one state for everyone a moment later, however many."""
        if live._presence_pending:
            return
        live._presence_pending = True

        def announce() -> None:
            live._presence_pending = False
            if live.spectators != live.announced_spectators:
                live.broadcast()
            if self.shared and live.local_spectators != live.published_spectators:
                self.runtime.spawn(self._publish_presence(live))

        asyncio.get_running_loop().call_later(self.limits.presence_delay, announce)

    async def _publish_presence(self, live: LiveGame) -> None:
        live.published_spectators = live.local_spectators
        await self.bus.publish(
            self.rooms.channel(live.id),
            {"op": "presence", "v": live.version, "spectators": live.local_spectators},
        )

    async def _refresh_presence(self) -> None:
        """Say again, now and then, how many watch each game here (other processes forget a
        count that is not refreshed: a process that died stops counting)."""
        while True:
            await asyncio.sleep(self.limits.presence_ttl / 3)
            for live in list(self.rooms.cached.values()):
                if live.local_spectators or live.published_spectators:
                    await self._publish_presence(live)


def _changes_players(change: GameChange, rated: bool) -> bool:
    """Whether the change makes the players' names or ratings shown with the game out of date:
    a seat claimed by an account, or a rated game's result (the ratings changed with it)."""
    values = change.values
    result = rated and values.get("result") is not None
    return result or "white_user" in values or "black_user" in values


def _replay(game_type: str, options: Options, moves: list[str]) -> tuple[Game, list[str]]:
    game, history = replay_with_history(game_type, options, moves)
    return game, history
