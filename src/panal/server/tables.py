"""Enjambre Tácticas tables being played: cached copies of the database's truth, seats, fan-out.

The server holds no rules and no secrets of its own: each table's current game is a
:class:`panal.enjambre.Game` rebuilt from the stored action log, and everything a connection
receives is built in one place, :meth:`TableHub.state_for`, from ``Game.observe(seat)`` for the
seat that connection holds (``None`` for a spectator: the public observation) through
:mod:`panal.enjambre.views`.

A change to a table runs under that table's lock, as for Hive games (:mod:`panal.server.hub`):

1. the actions are tried on a copy of the game (:meth:`Game.copy`): an illegal action is refused
   with the rule's reason and nothing changes;
2. they are written with a compare-and-set on the table's version (in a thread): another process
   may have written first, and then nothing is written, the copy is reloaded and the player is
   told to look again;
3. the copy becomes the table's game, every connection of this process is marked for a new
   state (built when its sender is ready, so a slow browser gets the latest state, never a
   backlog), and the change is published on the bus for the other processes.

Bots play through the job queue (``enjambre.bot_turn``, :mod:`panal.server.table_bots`), like
Hive's AI: a job computes the waiting bots' actions in a worker process, and the hub stores them
one at a time, a moment apart, so the others watch the bot's turn happen. A sweep, run by every
process, finds tables that wait for a bot nobody is computing (a process died) and tables whose
waited-for player has been away longer than the host allowed: that seat becomes a bot, decided
by the database's compare-and-set, so exactly one process does it, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from panal.enjambre import (
    Action,
    Displace,
    EndTurn,
    Game,
    GameLog,
    IllegalActionError,
    Options,
    Place,
    Scout,
    Step,
)
from panal.enjambre.actions import action_from_dict, action_to_dict
from panal.enjambre.scoring import match_places
from panal.enjambre.state import Phase
from panal.enjambre.views import events_data, observation_data
from panal.hex import Hex
from panal.server.errors import RequestError
from panal.server.jobs import Job, JobError
from panal.server.live_loader import LiveLoader
from panal.server.players import Account
from panal.server.runtime import Runtime
from panal.server.store import Conflict
from panal.server.table_bots import BOT_LEVELS, bot_payload
from panal.server.table_store import (
    GameHeader,
    LoadedTable,
    SeatRow,
    TableRow,
    TableStore,
    TableWrite,
)
from panal.server.tokens import hash_token, new_id, new_token

__all__ = ["BOT_JOB", "LiveTable", "TableConnection", "TableHub", "TableLimits"]

log = logging.getLogger("panal.server")
T = TypeVar("T")

BOT_JOB = "enjambre.bot_turn"
MODES = ("online", "local")
MAX_QUEUED_MESSAGES = 64
MAX_GAMES = 12
MAX_NAME = 40
REPLACEMENT_BOT = "heuristic"
SETUP_RETRIES = 3  # a set-up placement that lost a race is tried again on the new state
COORDINATE_LIMIT = 100


@dataclass(frozen=True)
class TableLimits:
    """Pacing and housekeeping of tables (tests shorten them)."""

    bot_pause: float = 0.7  # between two actions of a bot's turn, so that people can follow it
    heartbeat_seconds: float = 10.0  # how often a process records who is connected to it
    sweep_seconds: float = 5.0  # how often a process looks for stalled tables and leavers
    stall_seconds: float = 30.0  # a table waiting this long for a bot gets its job again
    min_replace_after: float = 30.0  # the shortest time-out a host may choose
    cached_tables: int = 1_000
    replays_cached: int = 32


class TableConnection:
    """One websocket on a table: the seats its token holds, what it looks at, its outbox.

    States are not queued: a change marks the connection, and its sender builds the state when
    it is ready to send it, so a browser that falls behind receives the latest state (with
    every event it has not seen yet), never a backlog.
    """

    def __init__(
        self, send: Callable[[str], Awaitable[None]], seats: frozenset[int], host: bool
    ) -> None:
        self.send = send
        self.seats = seats
        self.host = host
        self.looking: int | None = None  # pass-the-screen: whose view this device shows
        self.events_game = -1  # the game whose events were sent, and how many
        self.events_sent = 0
        self.closed = False
        self.too_slow = False
        self._outbox: deque[str] = deque()
        self._dirty = False
        self._wake = asyncio.Event()

    def post(self, text: str) -> None:
        if self.closed:
            return
        if len(self._outbox) >= MAX_QUEUED_MESSAGES:
            self.too_slow = True
            self.close()
            return
        self._outbox.append(text)
        self._wake.set()

    def refresh(self) -> None:
        """The table changed: send a new state when the sender is free."""
        if not self.closed:
            self._dirty = True
            self._wake.set()

    def close(self) -> None:
        self.closed = True
        self._wake.set()

    async def pump(self, build: Callable[[TableConnection], str]) -> None:
        """Send until closed: queued messages first, then a fresh state when marked."""
        while True:
            while not self._outbox and not self._dirty:
                if self.closed:
                    return
                self._wake.clear()
                await self._wake.wait()
            if self.closed:
                return
            if self._outbox:
                await self.send(self._outbox.popleft())
                continue
            self._dirty = False
            await self.send(build(self))


@dataclass(eq=False)
class LiveTable:
    """A process's copy of a table: everything here can be rebuilt from the database."""

    row: TableRow
    seats: list[SeatRow]
    games: list[GameHeader]
    game: Game
    connections: set[TableConnection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_error: str | None = None
    bots_playing: bool = False  # this process is storing a bot's turn, a moment at a time
    used_at: float = field(default_factory=time.monotonic)
    # The seated accounts' Enjambre ratings as players read them ({user_id: "1523"}), read with
    # the table and again when a rated game's result changes them.
    ratings: dict[int, str] = field(default_factory=dict)

    def seated_accounts(self) -> list[int]:
        return [seat.user_id for seat in self.seats if seat.user_id is not None]

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def number(self) -> int:
        """The current game's number (0 for the first game of the match)."""
        return self.games[-1].number

    @property
    def options(self) -> Options:
        return self.game.options

    def seats_for(self, token: str | None) -> frozenset[int]:
        if not token:
            return frozenset()
        digest = hash_token(token)
        return frozenset(
            seat.seat
            for seat in self.seats
            if seat.token is not None and hmac.compare_digest(seat.token, digest)
        )

    def is_host(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.row.host_token, hash_token(token or ""))

    def waiting_for(self) -> list[int]:
        """The seats the game waits for now: those still arranging, or the one to move."""
        if self.row.status != "playing":
            return []
        game = self.game
        if game.phase is Phase.SETUP:
            return [p for p in range(game.players) if not game.state.placed[p]]
        if game.phase is Phase.PLAY and game.to_move is not None:
            return [game.to_move]
        return []

    def waiting_bots(self) -> dict[int, str]:
        return {
            seat: self.seats[seat].bot or REPLACEMENT_BOT
            for seat in self.waiting_for()
            if self.seats[seat].kind == "bot"
        }

    def viewer(self, connection: TableConnection) -> int | None:
        """Whose observation the connection receives. A token of one seat sees that seat's; a
        device shared by several seats (pass-the-screen) sees the public view, except the seat
        that took the device (``look``) while it is that seat's turn or set-up: when the turn
        passes, the device falls back to the public view by itself."""
        seats = connection.seats
        if len(seats) == 1:
            return next(iter(seats))
        looking = connection.looking
        if looking is None or looking not in seats or self.row.status != "playing":
            return None
        game = self.game
        if game.phase is Phase.SETUP:
            return looking if not game.state.placed[looking] else None
        return looking if game.phase is Phase.PLAY and game.to_move == looking else None


class _Stale(Exception):
    """The stored table moved on since the change was computed (nothing was written)."""


@dataclass(frozen=True)
class _Change:
    """One change to a table: actions appended to the current game, row and seat fields."""

    actions: tuple[tuple[int, Action], ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    absent: tuple[int, float] | None = None


class TableHub:
    """The tables this process serves, loaded on demand and kept fresh by the bus."""

    def __init__(self, runtime: Runtime, *, limits: TableLimits | None = None) -> None:
        self.runtime = runtime
        self.store = TableStore(runtime.store)
        self.bus = runtime.bus
        self.jobs = runtime.jobs
        self.shared = runtime.shared
        self.limits = limits or TableLimits()
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        self._stale: set[str] = set()
        self._loader = LiveLoader(
            "table",
            self.tables,
            self._stale,
            runtime.bus,
            load=self._load,
            keep=self._cache,
            verify=self._verify,
            spawn=runtime.spawn,
            shared=self.shared,
        )
        self._replays: OrderedDict[tuple[str, int], Game] = OrderedDict()
        runtime.listen("table", self)
        runtime.own_jobs("enjambre.", self)
        runtime.on_start(self.start)

    # --- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Begin the housekeeping: presence, and the sweep (which first resumes every table's
        bots)."""
        every = self.runtime.every
        self.runtime.spawn(every(self.limits.heartbeat_seconds, self.heartbeat, "table presence"))
        self.runtime.spawn(self._sweep_at_start())

    async def _sweep_at_start(self) -> None:
        await self.sweep(stalled_before=time.time())  # resume every table's bots
        await self.runtime.every(self.limits.sweep_seconds, self.sweep, "table sweep")

    # --- loading ---------------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable:
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 16:
            raise RequestError("unknown_table", "there is no table with that id", 404)
        return await self._loader.get(table_id)

    async def _load(self, table_id: str) -> LiveTable:
        loaded = await self.runtime.db(self.store.load, table_id)
        if loaded is None:
            raise RequestError("unknown_table", "there is no table with that id", 404)
        return await asyncio.to_thread(_rebuild, loaded)

    def _cache(self, live: LiveTable) -> None:
        self.tables[live.id] = live
        self.tables.move_to_end(live.id)
        excess = len(self.tables) - self.limits.cached_tables
        for table_id, other in list(self.tables.items()):
            if excess <= 0:
                break
            if other.connections or other.lock.locked() or other.bots_playing:
                continue
            del self.tables[table_id]
            self._stale.discard(table_id)
            self.runtime.spawn(self.bus.unsubscribe(f"table:{table_id}"))
            excess -= 1

    async def _verify(self, live: LiveTable) -> None:
        version = await self.runtime.db(self.store.version_of, live.id)
        self._stale.discard(live.id)
        if version is not None and version != live.version:
            async with live.lock:
                if version != live.version:
                    await self._reload(live)

    async def _reload(self, live: LiveTable) -> None:
        """Under the table's lock: take the stored table and tell this process's connections."""
        fresh = await self._load(live.id)
        live.row, live.seats, live.games, live.game, live.ratings = (
            fresh.row,
            fresh.seats,
            fresh.games,
            fresh.game,
            fresh.ratings,
        )
        live.bot_error = None
        self._changed(live)

    # --- creating and joining --------------------------------------------------------------

    async def create(
        self, request: dict[str, Any], account: Account | None = None
    ) -> tuple[LiveTable, dict[str, Any]]:
        """A new table from a validated request (see ``panal.server.table_routes``) by a host
        signed in as ``account`` (or a guest); returns it and the secrets for its host: the
        host's token and the invitation of each open seat."""
        players = request["players"]
        mode = request["mode"]
        if mode not in MODES:
            raise RequestError("bad_mode", f"mode must be one of {', '.join(MODES)}")
        if not 2 <= players <= 6:
            raise RequestError("bad_players", "Enjambre Tácticas is played by 2 to 6 players")
        try:
            options = Options.from_dict(dict(request.get("options") or {}))
        except (TypeError, ValueError) as exc:
            raise RequestError("bad_options", str(exc)) from None
        if options.rounds > 50:
            raise RequestError("bad_options", "at most 50 rounds")
        games = request.get("games", 1)
        if not 1 <= games <= MAX_GAMES:
            raise RequestError("bad_games", f"a match has 1 to {MAX_GAMES} games")
        specs = request["seats"]
        if len(specs) != players:
            raise RequestError("bad_seats", f"describe each of the {players} seats")
        if specs[0]["kind"] != "person":
            raise RequestError("bad_seats", "the first seat is the host's: a person")
        rated = bool(request.get("rated"))
        if rated:
            _check_rated(specs, mode, account)
        replace_after = request.get("replace_after")
        if replace_after is not None and replace_after < self.limits.min_replace_after:
            raise RequestError(
                "bad_timeout",
                f"the time-out is at least {self.limits.min_replace_after:g} seconds",
            )
        token = new_token()
        digest = hash_token(token)
        now = time.time()
        seats: list[SeatRow] = []
        invites: dict[str, str] = {}
        for index, spec in enumerate(specs):
            if spec["kind"] == "bot":
                level = spec.get("bot") or REPLACEMENT_BOT
                if level not in BOT_LEVELS:
                    raise RequestError(
                        "bad_bot", f"unknown bot {level!r}; one of {', '.join(BOT_LEVELS)}"
                    )
                seats.append(SeatRow(index, "bot", bot=level))
            elif index == 0 or mode == "local":
                name = spec.get("name") or (request.get("name") if index == 0 else None)
                user_id = None
                if index == 0 and account is not None:
                    name, user_id = account.name, account.id
                seats.append(
                    SeatRow(index, "person", token=digest, name=name, seen_at=now, user_id=user_id)
                )
            else:
                code = secrets.token_urlsafe(12)
                invites[str(index)] = code
                seats.append(SeatRow(index, "person", invite=hash_token(code)))
        first = GameHeader(0, secrets.randbits(63), secrets.randbelow(players))
        game = Game(players, options=options, seed=first.seed, first_player=first.first_player)
        status = "playing" if not invites else "waiting"
        row = TableRow(
            id=new_id(),
            players=players,
            mode=mode,
            options=options.to_dict(),
            games=games,
            status=status,
            host_token=digest,
            replace_after=float(replace_after) if replace_after is not None else None,
            rated=rated,
        )
        live = LiveTable(row, seats, [first], game)
        row.waiting_for = _waiting_text(live)
        await self.runtime.db(self.store.create, row, seats, first)
        if live.seated_accounts():
            live.ratings = await self.runtime.db(self.store.seat_ratings, live.seated_accounts())
        self._cache(live)
        await self.bus.subscribe(f"table:{row.id}")
        await self._schedule_bots(live)
        out: dict[str, Any] = {
            "id": row.id,
            "token": token,
            "seats": sorted(s.seat for s in seats if s.token == digest),
        }
        if invites:
            out["invites"] = invites
        return live, out

    async def join(
        self,
        table_id: str,
        seat: int,
        invite: str,
        name: str | None,
        account: Account | None = None,
    ) -> dict[str, Any]:
        """Take an open seat with its invitation (once, whichever process is asked), as
        ``account`` if signed in (a rated table: required, and one seat per account)."""
        live = await self.get(table_id)
        if not 0 <= seat < len(live.seats):
            raise RequestError("bad_seat", "there is no such seat")
        row = live.seats[seat]
        if row.kind != "person" or row.token is not None:
            raise RequestError("invite_used", "this seat is already taken", 409)
        if row.invite is None or not hmac.compare_digest(row.invite, hash_token(invite)):
            raise RequestError("bad_invite", "wrong invitation code", 403)
        if live.row.rated and account is None:
            raise RequestError("sign_in", "sign in to play at a rated table", 401)
        user_id = account.id if account is not None else None
        if user_id is not None and any(s.user_id == user_id for s in live.seats):
            raise RequestError("already_seated", "you already have a seat at this table", 409)
        if account is not None:
            name = account.name
        token = new_token()
        won = await self.runtime.db(
            self.store.claim_seat,
            table_id,
            seat,
            hash_token(invite),
            hash_token(token),
            name,
            user_id,
        )
        async with live.lock:
            await self._reload(live)
            if won and live.row.status == "waiting" and _all_seated(live):
                with contextlib.suppress(RequestError):
                    await self._commit(live, _Change(values={"status": "playing"}))
        await self.bus.publish(f"table:{table_id}", {"op": "reload", "v": live.version})
        if not won:
            raise RequestError("invite_used", "this seat is already taken", 409)
        return {"id": table_id, "seat": seat, "token": token}

    async def reissue_invite(self, table_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """The host gets a new invitation for a seat still open (the old one stops working)."""
        live = await self.get(table_id)
        if not live.is_host(token):
            raise RequestError("not_host", "only the table's host may do that", 403)
        if not 0 <= seat < len(live.seats):
            raise RequestError("bad_seat", "there is no such seat")
        seat_row = live.seats[seat]
        if seat_row.kind != "person" or seat_row.token is not None:
            raise RequestError("invite_used", "this seat is already taken", 409)
        code = secrets.token_urlsafe(12)
        async with live.lock:
            await self._commit(live, _Change(seats={seat: {"invite": hash_token(code)}}))
        return {"seat": seat, "invite": code}

    # --- requests from players -------------------------------------------------------------

    async def handle(self, live: LiveTable, connection: TableConnection, message: Any) -> None:
        """Apply one websocket request (decoded JSON). Raises RequestError."""
        if not isinstance(message, dict):
            raise RequestError("bad_request", "a message must be a JSON object")
        kind = message.get("type")
        if kind == "ping":
            connection.post('{"type":"pong"}')
            return
        if kind == "sync":
            if message.get("full") is True:
                connection.events_game = -1  # every event again
            connection.refresh()
            return
        if kind == "look":
            self._look(live, connection, message)
            return
        builders: dict[str, Callable[[LiveTable, int, dict[str, Any]], _Change]] = {
            "place": self._place,
            "move": self._move,
            "scout": self._scout,
            "displace": self._displace,
            "end": self._end,
        }
        if kind == "start":
            await self._start(live, connection, message)
            return
        build = builders.get(kind) if isinstance(kind, str) else None
        if build is None:
            raise RequestError(
                "bad_request",
                "unknown message type; expected one of: ping, sync, look, start, "
                + ", ".join(builders),
            )
        if not connection.seats:
            raise RequestError("spectator", "spectators can't play: you have no seat here", 403)
        async with live.lock:
            seat = live.viewer(connection)
            if seat is None:
                raise RequestError(
                    "not_your_turn", "take the device first: it is not your turn here", 409
                )
            self._check_playing(live)
            if live.game.phase is Phase.PLAY and live.game.to_move != seat:
                raise RequestError("not_your_turn", "wait for your turn", 409)
            expected = message.get("step")
            if expected is not None and (
                not isinstance(expected, int) or isinstance(expected, bool)
            ):
                raise RequestError("bad_request", "'step' must be an integer")
            if expected is not None and expected != len(live.game.log.actions):
                raise RequestError("stale", "the table has moved on; look again", 409)
            change = build(live, seat, message)
            await self._commit(live, change)

    def _look(self, live: LiveTable, connection: TableConnection, message: dict[str, Any]) -> None:
        seat = message.get("seat")
        if seat is not None and (not isinstance(seat, int) or seat not in connection.seats):
            raise RequestError("bad_seat", "that seat is not held on this device", 403)
        connection.looking = seat
        connection.refresh()

    def _check_playing(self, live: LiveTable) -> None:
        if live.row.status == "waiting":
            raise RequestError("not_started", "the table is waiting for its players", 409)
        if live.row.status == "over":
            raise RequestError("game_over", "the match is over", 409)

    def _place(self, live: LiveTable, seat: int, message: dict[str, Any]) -> _Change:
        cells = message.get("cells")
        count = live.game.board.tiles_per_player
        if not isinstance(cells, list) or len(cells) != count:
            raise RequestError(
                "bad_request", f"'cells' must list {count} cells, for the tiles 1 to {count}"
            )
        return _Change(actions=((seat, Place(tuple(_cell(c, "cells") for c in cells))),))

    def _move(self, live: LiveTable, seat: int, message: dict[str, Any]) -> _Change:
        tile = _tile(message.get("tile"))
        path = message.get("path")
        if not isinstance(path, list) or not 1 <= len(path) <= 4:
            raise RequestError("bad_request", "'path' must list 1 to 4 cells, one per step")
        return _Change(actions=tuple((seat, Step(tile, _cell(c, "path"))) for c in path))

    def _scout(self, live: LiveTable, seat: int, message: dict[str, Any]) -> _Change:
        return _Change(actions=((seat, Scout(_tile(message.get("tile")))),))

    def _displace(self, live: LiveTable, seat: int, message: dict[str, Any]) -> _Change:
        return _Change(actions=((seat, Displace(_cell(message.get("cell"), "cell"))),))

    def _end(self, live: LiveTable, seat: int, message: dict[str, Any]) -> _Change:
        return _Change(actions=((seat, EndTurn()),))

    async def _start(
        self, live: LiveTable, connection: TableConnection, message: dict[str, Any]
    ) -> None:
        """The host starts early: every seat nobody has taken gets a bot."""
        if not connection.host:
            raise RequestError("not_host", "only the table's host may start it", 403)
        level = message.get("bot", REPLACEMENT_BOT)
        if level not in BOT_LEVELS:
            raise RequestError("bad_bot", f"unknown bot; one of {', '.join(BOT_LEVELS)}")
        async with live.lock:
            if live.row.status != "waiting":
                raise RequestError("started", "the table has already started", 409)
            seats = {
                seat.seat: {"kind": "bot", "bot": level, "invite": None}
                for seat in live.seats
                if seat.kind == "person" and seat.token is None
            }
            await self._commit(live, _Change(values={"status": "playing"}, seats=seats))

    # --- committing ------------------------------------------------------------------------

    async def _commit(self, live: LiveTable, change: _Change) -> None:
        """Under the table's lock: try the change on a copy, store it if the table is still at
        the version it was computed from, then make it the table's and tell everyone.

        Set-up placements do not depend on each other (each player arranges their own zone), so
        one that lost the race to another process's change is tried again on the new state; any
        other change computed from an older state is refused as stale."""
        for attempt in range(SETUP_RETRIES):
            try:
                await self._commit_once(live, change)
                return
            except _Stale:
                await self._reload(live)
                placing = bool(change.actions) and all(
                    isinstance(action, Place) for _, action in change.actions
                )
                if not placing or attempt + 1 == SETUP_RETRIES:
                    raise RequestError("stale", "the table has moved on; look again", 409) from None

    async def _commit_once(self, live: LiveTable, change: _Change) -> None:
        trial = live.game.copy() if change.actions else live.game
        number = live.number
        first_ply = len(trial.log.actions)
        try:
            for player, action in change.actions:
                trial.apply(player, action)
        except IllegalActionError as exc:
            raise RequestError(
                "illegal_action",
                str(exc),
                409,
                rule=exc.code,
                details=dict(exc.details),
            ) from None
        values = dict(change.values)
        seats = {seat: dict(fields) for seat, fields in change.seats.items()}
        result: dict[str, Any] | None = None
        next_game: GameHeader | None = None
        following: Game | None = None
        if change.actions and trial.over and trial.result is not None:
            result = trial.result.to_dict()
            if number + 1 < live.row.games:
                first = (live.games[0].first_player + number + 1) % live.row.players
                next_game = GameHeader(number + 1, secrets.randbits(63), first)
                following = Game(
                    live.row.players,
                    options=live.options,
                    seed=next_game.seed,
                    first_player=first,
                )
            else:
                values["status"] = "over"
        rated_places = _rated_places(live, result) if result is not None else None
        # What the table waits for once the change is made (the sweep reads it).
        shadow = LiveTable(
            TableRow(**{**live.row.__dict__, **values}),
            [_seat_with(seat, seats.get(seat.seat, {})) for seat in live.seats],
            live.games,
            following or trial,
        )
        values["waiting_for"] = _waiting_text(shadow)
        try:
            write = TableWrite(
                values=values,
                seats=seats,
                game=number,
                first_ply=first_ply,
                actions=[(p, action_to_dict(a)) for p, a in change.actions],
                result=result,
                next_game=next_game,
                absent=change.absent,
                rated_places=rated_places,
            )
            version = await self.store.change_async(live.id, live.version, write)
        except Conflict:
            raise _Stale from None
        except Exception:
            log.exception("cannot store a change of table %s", live.id)
            raise RequestError("storage", "the change could not be saved; try again", 503) from None
        live.game = trial
        if result is not None:
            live.games = [
                *live.games[:-1],
                GameHeader(number, live.games[-1].seed, live.games[-1].first_player, result),
            ]
        if next_game is not None and following is not None:
            live.games = [*live.games, next_game]
            live.game = following
        _set_fields(live, values, seats, version)
        live.bot_error = None
        if rated_places:
            live.ratings = await self.runtime.db(self.store.seat_ratings, live.seated_accounts())
        self._changed(live)
        await self.bus.publish(
            f"table:{live.id}",
            {
                "op": "change",
                "v": version,
                "game": number,
                "first_ply": first_ply,
                "actions": [[p, action_to_dict(a)] for p, a in change.actions],
                "values": values,
                "seats": {str(seat): fields for seat, fields in seats.items()},
                "result": result,
                "next_game": None if next_game is None else next_game.__dict__,
            },
        )
        if not live.bots_playing:
            await self._schedule_bots(live)

    def _changed(self, live: LiveTable) -> None:
        for connection in list(live.connections):
            connection.refresh()

    # --- bots ------------------------------------------------------------------------------

    async def _schedule_bots(self, live: LiveTable, *, again: bool = False) -> None:
        """Queue the waiting bots' job (one per table version; older ones are dropped).

        ``again`` (the sweep: the bots' table has stalled) gives the job an id of its own: the
        job for this version may be held by a process that stopped while running it, and its
        id stays taken until the queue gives it to another process, minutes later. Two jobs for
        one version are harmless: the compare-and-set stores one turn."""
        bots = live.waiting_bots()
        key = f"table:{live.id}"
        if not bots:
            return
        job_id = f"{live.id}@{live.version}"
        if again:
            job_id += f"~{secrets.token_hex(4)}"
        job = Job(
            BOT_JOB,
            key,
            bot_payload(live.id, live.version, live.number, live.game.log, bots),
            id=job_id,
        )
        await self.jobs.cancel(key, keep=job.id)
        await self.jobs.submit(job)

    async def is_current(self, job: Job) -> bool:
        """A bot job still matters while its table waits for those bots in that game."""
        payload = job.payload
        try:
            live = await self.get(payload["table"])
        except RequestError:
            return False
        if live.number != payload["game"] or live.bots_playing:
            return False
        if live.game.phase is Phase.SETUP:
            return any(int(seat) in live.waiting_bots() for seat in payload["bots"])
        return bool(live.version == payload["version"])

    async def apply(self, job: Job, result: Any) -> None:
        """Store the bots' actions: set-ups at once (they are secret), a turn one action at a
        time with a pause between, through the same checks and compare-and-set as a player's."""
        payload = job.payload
        try:
            live = await self.get(payload["table"])
        except RequestError:
            return
        actions = [(int(p), action_from_dict(a)) for p, a in result.get("actions", [])]
        if not actions:
            return
        if isinstance(actions[0][1], Place):
            async with live.lock:
                if live.number != payload["game"]:
                    return
                waiting = live.waiting_bots()
                still = tuple((p, a) for p, a in actions if p in waiting)
                if still:
                    await self._commit_bot(live, _Change(actions=still))
            return
        self.runtime.spawn(self._play_turn(live, payload["game"], payload["version"], actions))

    async def _play_turn(
        self, live: LiveTable, game: int, version: int, actions: list[tuple[int, Action]]
    ) -> None:
        if live.bots_playing:
            return
        live.bots_playing = True
        try:
            for index, action in enumerate(actions):
                async with live.lock:
                    if live.number != game or live.version != version:
                        return  # the table moved on (a reload, another process): stop here
                    if not await self._commit_bot(live, _Change(actions=(action,))):
                        return
                    version = live.version
                if index + 1 < len(actions):
                    await asyncio.sleep(self.limits.bot_pause)
        finally:
            live.bots_playing = False
        async with live.lock:
            await self._schedule_bots(live)

    async def _commit_bot(self, live: LiveTable, change: _Change) -> bool:
        try:
            await self._commit(live, change)
        except RequestError as exc:
            if exc.code != "stale":
                log.error("a bot's action in table %s was refused: %s", live.id, exc.message)
                await self._bot_failed(live, exc.message)
            return False
        return True

    async def failed(self, job: Job, error: JobError) -> None:
        try:
            live = await self.get(job.payload["table"])
        except RequestError:
            return
        async with live.lock:
            if live.version == job.payload["version"]:
                await self._bot_failed(live, error.message)

    async def _bot_failed(self, live: LiveTable, message: str) -> None:
        live.bot_error = message
        self._changed(live)
        await self.bus.publish(
            f"table:{live.id}", {"op": "bot_error", "v": live.version, "message": message}
        )

    # --- presence and the sweep ------------------------------------------------------------

    async def heartbeat(self) -> None:
        """Record that the players connected to this process are here."""
        present = sorted(
            {
                (live.id, seat)
                for live in self.tables.values()
                for connection in live.connections
                for seat in connection.seats
            }
        )
        if present:
            await self.runtime.db(self.store.touch, present)

    async def sweep(self, stalled_before: float | None = None) -> None:
        """Give bots their job again where a table waits on them and nothing happened for a
        while (their process died), and replace by a bot each waited-for player who has been
        away longer than the table's time-out. Every process sweeps; the database's
        compare-and-set lets exactly one of them replace a player."""
        now = time.time()
        stalled_before = (
            now - self.limits.stall_seconds if stalled_before is None else stalled_before
        )
        for table_id, seat, kind, seen_at in await self.runtime.db(
            self.store.waiting_on_seats, stalled_before
        ):
            try:
                live = await self.get(table_id)
                if kind == "bot":
                    if live.row.updated_at < stalled_before and not live.bots_playing:
                        async with live.lock:
                            await self._schedule_bots(live, again=True)
                    continue
                timeout = live.row.replace_after
                if timeout is None or (seen_at is not None and seen_at >= now - timeout):
                    continue
                await self.replace(live, seat, now - timeout)
            except Exception:
                log.exception("sweeping table %s", table_id)

    async def replace(self, live: LiveTable, seat: int, cutoff: float) -> bool:
        """Seat ``seat``'s player left (away since before ``cutoff``): a bot takes the seat.
        True for the one process that did it."""
        async with live.lock:
            if seat not in live.waiting_for() or live.seats[seat].kind != "person":
                return False
            change = _Change(
                seats={seat: {"kind": "bot", "bot": REPLACEMENT_BOT, "replaced": True}},
                absent=(seat, cutoff),
            )
            try:
                await self._commit(live, change)
            except RequestError:
                return False  # another process did it, or the player came back
            return True

    # --- views -----------------------------------------------------------------------------

    def state_for(self, live: LiveTable, connection: TableConnection) -> str:
        """The one place that builds what a connection receives: the table's public facts and
        the observation of the seat this connection may look at (none: the public one)."""
        viewer = live.viewer(connection)
        number = live.number
        if connection.events_game != number:
            connection.events_game, connection.events_sent = number, 0
        start = connection.events_sent
        state = self._state(live, viewer, connection.seats, connection.host, start)
        state["looking"] = connection.looking
        connection.events_sent = len(live.game.history)
        return json.dumps(state, separators=(",", ":"))

    def http_state(self, live: LiveTable, token: str | None) -> dict[str, Any]:
        """``GET /api/enjambre/tables/{id}``: as the websocket's state, for the token's seat
        (a token of several seats, like a spectator, sees the public view)."""
        seats = live.seats_for(token)
        viewer = next(iter(seats)) if len(seats) == 1 else None
        return self._state(live, viewer, seats, live.is_host(token), 0)

    def _state(
        self,
        live: LiveTable,
        viewer: int | None,
        seats: frozenset[int],
        host: bool,
        events_from: int,
    ) -> dict[str, Any]:
        game = live.game
        observation = game.observe(viewer)
        playing = live.row.status == "playing"
        results = [g.result for g in live.games if g.result is not None]
        table: dict[str, Any] = {
            "id": live.id,
            "players": live.row.players,
            "mode": live.row.mode,
            "status": live.row.status,
            "rated": live.row.rated,
            "games": live.row.games,
            "game": live.number,
            "version": live.version,
            "step": len(game.log.actions),
            "replace_after": live.row.replace_after,
            "first_players": [g.first_player for g in live.games],
            "results": results,
            "bot_error": live.bot_error,
            "seats": [
                {
                    "seat": seat.seat,
                    "kind": seat.kind,
                    "bot": seat.bot,
                    "name": seat.name,
                    "joined": seat.kind == "bot" or seat.token is not None,
                    "replaced": seat.replaced,
                    "account": seat.user_id is not None,
                    # the account's Enjambre rating, "1500?" while uncertain
                    "rating": live.ratings.get(seat.user_id) if seat.user_id is not None else None,
                }
                for seat in live.seats
            ],
        }
        if live.row.status == "over" and len(results) > 1:
            table["match_places"] = list(match_places([r["places"] for r in results]))
        return {
            "type": "state",
            "table": table,
            "you": sorted(seats),
            "host": host,
            "viewer": viewer,
            "view": observation_data(observation, legal=playing),
            "events_from": events_from,
            "events": events_data(observation, events_from),
        }

    # --- replays ---------------------------------------------------------------------------

    async def replay(self, table_id: str, number: int, step: int, view: str) -> dict[str, Any]:
        """A finished game as seen after ``step`` actions: by one seat (``view`` = its number)
        or with every number (``"all"``). Only finished games can be replayed."""
        live = await self.get(table_id)
        if not 0 <= number < len(live.games) or live.games[number].result is None:
            raise RequestError("not_finished", "only a finished game can be replayed", 409)
        if view == "all":
            viewer: int | None = None
        else:
            try:
                viewer = int(view)
            except ValueError:
                raise RequestError("bad_request", "view is a seat number or 'all'") from None
            if not 0 <= viewer < live.row.players:
                raise RequestError("bad_request", "there is no such seat")
        loaded = await self.runtime.db(self.store.game_log, table_id, number)
        assert loaded is not None
        full = _log(live.row, *loaded)
        step = max(1, min(step, len(full.actions)))
        key = (table_id, number)
        game = self._replays.pop(key, None)
        if game is None or len(game.log.actions) >= step:
            game = await asyncio.to_thread(_replay_prefix, full, step - 1)
        for player, action in full.actions[len(game.log.actions) : step - 1]:
            game.apply(player, action)
        before = len(game.history)  # the events of the action at ``step`` come after these
        player, action = full.actions[step - 1]
        game.apply(player, action)
        self._replays[key] = game
        while len(self._replays) > self.limits.replays_cached:
            self._replays.popitem(last=False)
        observation = game.observe_all() if viewer is None else game.observe(viewer)
        return {
            "game": number,
            "step": step,
            "steps": len(full.actions),
            "turns": [i + 1 for i, (_, a) in enumerate(full.actions) if isinstance(a, EndTurn)],
            "view": observation_data(observation, legal=False),
            "events": events_data(observation, before),
            "events_from": before,
        }

    # --- the bus ---------------------------------------------------------------------------

    def on_bus_message(self, channel: str, message: dict[str, Any]) -> None:
        kind, _, table_id = channel.partition(":")
        if kind != "table":
            return
        live = self.tables.get(table_id)
        if live is not None:
            self.runtime.spawn(self._on_table_message(live, message))

    async def _on_table_message(self, live: LiveTable, message: dict[str, Any]) -> None:
        version = message.get("v")
        if not isinstance(version, int):
            return
        op = message.get("op")
        async with live.lock:
            if op == "bot_error":
                if version == live.version:
                    live.bot_error = str(message.get("message"))
                    self._changed(live)
                return
            if version <= live.version:
                return
            if op == "change" and version == live.version + 1:
                try:
                    self._apply_message(live, message, version)
                except Exception:
                    log.exception("cannot apply a change of table %s: reloading", live.id)
                    await self._reload(live)
                    return
                if live.row.rated and message.get("result") is not None:  # ratings changed
                    live.ratings = await self.runtime.db(
                        self.store.seat_ratings, live.seated_accounts()
                    )
                live.bot_error = None
                self._changed(live)
                return
            await self._reload(live)

    def _apply_message(self, live: LiveTable, message: dict[str, Any], version: int) -> None:
        if message["game"] != live.number or message["first_ply"] != len(live.game.log.actions):
            raise ValueError("the change does not follow this copy")
        game = live.game.copy()
        for player, action in message["actions"]:
            game.apply(int(player), action_from_dict(action))
        live.game = game
        if message.get("result") is not None:
            last = live.games[-1]
            live.games = [
                *live.games[:-1],
                GameHeader(last.number, last.seed, last.first_player, message["result"]),
            ]
        if message.get("next_game") is not None:
            header = GameHeader(**message["next_game"])
            live.games = [*live.games, header]
            live.game = Game(
                live.row.players,
                options=live.options,
                seed=header.seed,
                first_player=header.first_player,
            )
        seats = {int(seat): fields for seat, fields in message.get("seats", {}).items()}
        _set_fields(live, dict(message.get("values", {})), seats, version)

    def on_bus_reconnect(self) -> None:
        self._stale.update(self.tables)
        for live in list(self.tables.values()):
            if live.connections:
                self.runtime.spawn(self._verify(live))

    # --- connections -----------------------------------------------------------------------

    async def attach(self, live: LiveTable, connection: TableConnection) -> None:
        live.connections.add(connection)
        connection.refresh()
        if connection.seats:
            await self.runtime.db(
                self.store.touch, [(live.id, s) for s in sorted(connection.seats)]
            )

    async def detach(self, live: LiveTable, connection: TableConnection) -> None:
        connection.close()
        live.connections.discard(connection)
        if connection.seats:
            with contextlib.suppress(Exception):
                await self.runtime.db(
                    self.store.touch, [(live.id, s) for s in sorted(connection.seats)]
                )


# --- helpers -----------------------------------------------------------------------------------


def _rebuild(loaded: LoadedTable) -> LiveTable:
    """A live table from its stored rows: the current game replayed through the rules."""
    header = loaded.games[-1]
    game = Game.replay(_log(loaded.row, header, loaded.actions))
    return LiveTable(loaded.row, loaded.seats, loaded.games, game, ratings=dict(loaded.ratings))


def _log(row: TableRow, header: GameHeader, actions: list[Any]) -> GameLog:
    return GameLog(
        players=row.players,
        options=Options.from_dict(dict(row.options)),
        seed=header.seed,
        first_player=header.first_player,
        actions=[(int(p), action_from_dict(a)) for p, a in actions],
    )


def _replay_prefix(log_: GameLog, step: int) -> Game:
    game = Game(log_.players, options=log_.options, seed=log_.seed, first_player=log_.first_player)
    for player, action in log_.actions[: max(0, step)]:
        game.apply(player, action)
    return game


def _check_rated(specs: list[dict[str, Any]], mode: str, account: Account | None) -> None:
    """A rated table is played online, by people only, its host signed in (each other seat
    is taken by an account, checked as it is taken)."""
    if account is None:
        raise RequestError("sign_in", "sign in to host a rated table", 401)
    if mode != "online":
        raise RequestError("rated_local", "a rated table is played online, a seat each")
    if any(spec["kind"] != "person" for spec in specs):
        raise RequestError("rated_bots", "a rated table is for people only: no bots")


def _rated_places(live: LiveTable, result: dict[str, Any]) -> dict[int, int] | None:
    """At a rated table, the accounts' places in a finished game (``{user_id: place}``), for
    their OpenSkill ratings; None when fewer than two accounts played. A player replaced by a
    bot after leaving is rated last (the bot's play is not theirs), and a seat the host gave a
    bot at the start is not rated."""
    if not live.row.rated:
        return None
    places = result["places"]
    last = len(places)
    rated = {
        seat.user_id: last if seat.replaced else places[seat.seat]
        for seat in live.seats
        if seat.user_id is not None
    }
    return rated if len(rated) >= 2 else None


def _waiting_text(live: LiveTable) -> str | None:
    seats = live.waiting_for()
    return ",".join(str(s) for s in seats) if seats else None


def _all_seated(live: LiveTable) -> bool:
    return all(seat.kind == "bot" or seat.token is not None for seat in live.seats)


def _seat_with(seat: SeatRow, values: dict[str, Any]) -> SeatRow:
    return SeatRow(**{**seat.__dict__, **values})


def _set_fields(
    live: LiveTable, values: dict[str, Any], seats: dict[int, dict[str, Any]], version: int
) -> None:
    for name, value in values.items():
        setattr(live.row, name, value)
    for seat, fields in seats.items():
        for name, value in fields.items():
            setattr(live.seats[seat], name, value)
    live.row.version = version
    live.row.updated_at = time.time()


def _tile(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1000:
        raise RequestError("bad_request", "'tile' must be a tile id (an integer)")
    return value


def _cell(value: Any, name: str) -> Hex:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not all(abs(v) <= COORDINATE_LIMIT for v in value)
    ):
        raise RequestError("bad_request", f"'{name}' cells must be two integers [q, r]")
    return Hex(value[0], value[1])
