"""Enjambre Tácticas tables being played: cached copies of the database's truth, seats, fan-out.

The server holds no rules and no secrets of its own: each table's current game is a
:class:`panal.enjambre.Game` rebuilt from the stored action log, and everything a connection
receives is built in one place, :func:`panal.server.enjambre_tables.views.state_for`, from
``Game.observe(seat)`` for the seat that connection holds (``None`` for a spectator: the public
observation) through :mod:`panal.enjambre.views`.

A change to a table runs under that table's lock, as for Hive games
(:mod:`panal.server.hive_games.games`):

1. the actions are tried on a copy of the game (:meth:`Game.copy`): an illegal action is refused
   with the rule's reason and nothing changes;
2. they are written with a compare-and-set on the table's version (in a thread): another process
   may have written first, and then nothing is written, the copy is reloaded and the player is
   told to look again;
3. the copy becomes the table's game, every connection of this process is marked for a new
   state (built when its sender is ready, so a slow browser gets the latest state, never a
   backlog), and the change is published on the bus for the other processes.

Bots play through the job queue (``enjambre.bot_turn``, :mod:`panal.server.enjambre_tables.bots`),
like Hive's AI: a job computes the waiting bots' actions in a worker process, and the hub stores
them one at a time, a moment apart, so the others watch the bot's turn happen. A sweep, run by every
process, finds tables that wait for a bot nobody is computing (a process died) and tables whose
waited-for player has been away longer than the host allowed: that seat becomes a bot, decided
by the database's compare-and-set, so exactly one process does it, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import secrets
import time
from typing import Any, TypeVar

from panal.enjambre import (
    Game,
    Options,
    Place,
)
from panal.enjambre.actions import action_from_dict
from panal.enjambre.state import Phase
from panal.server.enjambre_tables.actions import (
    ACTIONS,
    TableChange,
    TableRequest,
    check_playing,
    computed,
    waiting_text,
)
from panal.server.enjambre_tables.bot_capacity import bot_tables_capacity, creator_of
from panal.server.enjambre_tables.bot_player import BotPlayer
from panal.server.enjambre_tables.bots import BOT_LEVELS
from panal.server.enjambre_tables.live import (
    REPLACEMENT_BOT,
    LiveTable,
    TableConnection,
    TableLimits,
)
from panal.server.enjambre_tables.table_store import (
    GameHeader,
    LoadedTable,
    SeatRow,
    TableRow,
    TableStore,
    TableWrite,
)
from panal.server.enjambre_tables.views import Replays, game_log
from panal.server.http.clients import Client
from panal.server.http.request_error import RequestError
from panal.server.players.player_store import Account
from panal.server.room.core import Failure, Reload, RoomKindBase, Rooms
from panal.server.room.tokens import hash_token, new_id, new_token
from panal.server.runtime.runtime import Runtime

__all__ = ["TableHub"]

log = logging.getLogger("panal.server")
T = TypeVar("T")

MODES = ("online", "local")
MAX_GAMES = 12
MAX_NAME = 40
SETUP_RETRIES = 3  # a set-up placement that lost a race is tried again on the new state
COORDINATE_LIMIT = 100


class TableHub(RoomKindBase[LiveTable, TableChange]):
    """The tables this process serves, loaded on demand and kept fresh by the bus."""

    def __init__(self, runtime: Runtime, *, limits: TableLimits | None = None) -> None:
        self.runtime = runtime
        self.store = TableStore(runtime.store)
        self.jobs = runtime.jobs
        self.shared = runtime.shared
        self.limits = limits or TableLimits()
        self.bot_tables = bot_tables_capacity(self.limits)
        self.rooms: Rooms[LiveTable, TableChange] = Rooms(runtime, self, self.limits.cached_tables)
        self.replays = Replays(runtime, self.store, self.limits.replays_cached)
        self.bots = BotPlayer(self)
        runtime.own_jobs("enjambre.", self.bots)
        runtime.on_start(self.start)

    # --- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Begin the housekeeping: presence, and the sweep (which first resumes every table's
        bots)."""
        every = self.runtime.every
        self.runtime.spawn(
            every(self.limits.presence_seconds, self.touch_present, "table presence")
        )
        self.runtime.spawn(self._sweep_at_start())

    async def _sweep_at_start(self) -> None:
        await self.sweep(stalled_before=time.time())  # resume every table's bots
        await self.runtime.every(self.limits.sweep_seconds, self.sweep, "table sweep")

    # --- the kind of room (RoomKind; serving a room by id and its errors: RoomKindBase) -------

    name = "table"
    stale_message = "the table has moved on; look again"

    async def load(self, table_id: str) -> LiveTable:
        loaded = await self.runtime.db(self.store.load, table_id)
        if loaded is None:
            raise self.unknown()
        return await asyncio.to_thread(_rebuild, loaded)

    async def stored_version(self, table_id: str) -> int | None:
        return await self.runtime.db(self.store.version_of, table_id)

    def take(self, live: LiveTable, fresh: LiveTable) -> None:
        live.row, live.seats, live.games, live.game, live.ratings = (
            fresh.row,
            fresh.seats,
            fresh.games,
            fresh.game,
            fresh.ratings,
        )
        live.bot_error = None

    def evictable(self, live: LiveTable) -> bool:
        return not live.bots_playing

    async def write(self, live: LiveTable, change: TableChange) -> int:
        return await self.store.change_async(live.id, live.version, change.write)

    def apply_change(self, live: LiveTable, change: TableChange, version: int) -> None:
        """Apply a committed change: this process's carries the game it reached; another's
        actions are replayed on a copy of the game (checked already where they were made)."""
        write = change.write
        if change.game is None:
            if write.game != live.number or write.first_ply != len(live.game.log.actions):
                raise ValueError("the change does not follow this copy")
            game = live.game.copy()
            for player, action in write.actions:
                game.apply(int(player), action_from_dict(action))
        else:
            game = change.game
        live.game = game
        if write.result is not None:
            last = live.games[-1]
            live.games = [
                *live.games[:-1],
                GameHeader(last.number, last.seed, last.first_player, write.result),
            ]
        if write.next_game is not None:
            header = write.next_game
            live.games = [*live.games, header]
            live.game = Game(
                live.row.players,
                options=live.options,
                seed=header.seed,
                first_player=header.first_player,
            )
        _set_fields(live, write.values, write.seats, version)

    async def applied(self, live: LiveTable, change: TableChange) -> None:
        live.bot_error = None
        if live.row.rated and change.write.result is not None:  # the ratings changed with it
            accounts = live.seated_accounts()
            live.ratings = await self.runtime.db(self.store.seat_ratings, accounts)

    def show(self, live: LiveTable) -> None:
        for connection in list(live.connections):
            connection.refresh()

    def encode(self, change: TableChange) -> dict[str, Any]:
        write = change.write
        return {
            "game": write.game,
            "first_ply": write.first_ply,
            "actions": [list(action) for action in write.actions],
            "values": write.values,
            "seats": {str(seat): fields for seat, fields in write.seats.items()},
            "result": write.result,
            "next_game": None if write.next_game is None else write.next_game.__dict__,
        }

    def decode(self, fields: dict[str, Any]) -> TableChange:
        following = fields.get("next_game")
        return TableChange(
            TableWrite(
                values=dict(fields.get("values") or {}),
                seats={int(seat): dict(f) for seat, f in (fields.get("seats") or {}).items()},
                game=int(fields["game"]),
                first_ply=int(fields["first_ply"]),
                actions=[(int(p), dict(a)) for p, a in fields.get("actions") or ()],
                result=fields.get("result"),
                next_game=None if following is None else GameHeader(**following),
            )
        )

    def record_failure(self, live: LiveTable, failure: Failure) -> None:
        live.bot_error = failure.message

    def on_other(self, live: LiveTable, message: dict[str, Any]) -> None:
        return None  # tables have no messages of their own

    # --- creating and joining --------------------------------------------------------------

    async def create(
        self, request: dict[str, Any], account: Account | None = None, client: Client | None = None
    ) -> tuple[LiveTable, dict[str, Any]]:
        """A new table from a validated request (see ``panal.server.enjambre_tables.routes``) by a
        host signed in as ``account`` (or a guest) from ``client`` (the caps on tables with
        bots); returns it and the secrets for its host: the host's token and the invitation of
        each open seat."""
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
            owner=client.address if client else None,
            client=client.key if client else None,
            creator=client.account if client else None,
        )
        live = LiveTable(row, seats, [first], game)
        row.waiting_for = waiting_text(live)
        if client is not None and any(seat.kind == "bot" for seat in seats):
            async with self.bot_tables.creating:
                guard = self.bot_tables.guard(client)
                await self.runtime.db(self.store.create, row, seats, first, guard)
        else:
            await self.runtime.db(self.store.create, row, seats, first)
        if live.seated_accounts():
            live.ratings = await self.runtime.db(self.store.seat_ratings, live.seated_accounts())
        await self.rooms.created(live)
        await self.bots.schedule(live)
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
            await self.rooms.reload(live)
            if won and live.row.status == "waiting" and _all_seated(live):
                with contextlib.suppress(RequestError):
                    await self.commit(live, TableRequest(values={"status": "playing"}))
        await self.rooms.publish(table_id, Reload(live.version))
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
            await self.commit(live, TableRequest(seats={seat: {"invite": hash_token(code)}}))
        return {"seat": seat, "invite": code}

    # --- requests from players -------------------------------------------------------------

    async def handle(
        self, live: LiveTable, connection: TableConnection, message: dict[str, Any]
    ) -> None:
        """Apply one websocket request (a JSON object, not a ping). Raises RequestError."""
        kind = message.get("type")
        if kind == "sync":
            if message.get("full") is True:
                connection.events_game = -1  # every event again
            connection.refresh()
            return
        if kind == "look":
            self._look(live, connection, message)
            return
        if kind == "start":
            await self._start(live, connection, message)
            return
        build = ACTIONS.get(kind) if isinstance(kind, str) else None
        if build is None:
            raise RequestError(
                "bad_request",
                "unknown message type; expected one of: ping, sync, look, start, "
                + ", ".join(ACTIONS),
            )
        if not connection.seats:
            raise RequestError("spectator", "spectators can't play: you have no seat here", 403)
        async with live.lock:
            seat = live.viewer(connection)
            if seat is None:
                raise RequestError(
                    "not_your_turn", "take the device first: it is not your turn here", 409
                )
            if live.seats[seat].kind != "person":  # given to a bot: the bot alone acts
                raise RequestError("seat_replaced", "a bot plays this seat now", 409)
            check_playing(live)
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
            await self.commit(live, change)

    def _look(self, live: LiveTable, connection: TableConnection, message: dict[str, Any]) -> None:
        seat = message.get("seat")
        if seat is not None and (not isinstance(seat, int) or seat not in connection.seats):
            raise RequestError("bad_seat", "that seat is not held on this device", 403)
        connection.looking = seat
        connection.refresh()

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
            creator = creator_of(live.row)
            if seats and creator and not any(seat.kind == "bot" for seat in live.seats):
                check = functools.partial(self.bot_tables.check, client=creator)
                await self.runtime.db(self.runtime.store.transact, check)
            await self.commit(live, TableRequest(values={"status": "playing"}, seats=seats))

    # --- committing ------------------------------------------------------------------------

    async def commit(self, live: LiveTable, change: TableRequest) -> None:
        """Under the table's lock: try the change on a copy, store it if the table is still at
        the version it was computed from, then make it the table's and tell everyone.

        Set-up placements do not depend on each other (each player arranges their own zone), so
        one that lost the race to another process's change is tried again on the new state; any
        other change computed from an older state is refused as stale."""
        for attempt in range(SETUP_RETRIES):
            try:
                await self.rooms.commit(live, computed(live, change))
            except RequestError as exc:  # stale: the core reloaded the copy
                placing = bool(change.actions) and all(
                    isinstance(action, Place) for _, action in change.actions
                )
                if exc.code != "stale" or not placing or attempt + 1 == SETUP_RETRIES:
                    raise
                continue
            if not live.bots_playing:
                await self.bots.schedule(live)
            return

    # --- presence and the sweep ------------------------------------------------------------

    async def touch_present(self) -> None:
        """Record that the players connected to this process are here."""
        present = sorted(
            {
                (live.id, seat)
                for live in self.rooms.cached.values()
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
                            await self.bots.schedule(live, again=True)
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
            change = TableRequest(
                seats={seat: {"kind": "bot", "bot": REPLACEMENT_BOT, "replaced": True}},
                absent=(seat, cutoff),
            )
            try:
                await self.commit(live, change)
            except RequestError:
                return False  # another process did it, or the player came back
            return True

    # --- views -----------------------------------------------------------------------------

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
    game = Game.replay(game_log(loaded.row, header, loaded.actions))
    return LiveTable(loaded.row, loaded.seats, loaded.games, game, ratings=dict(loaded.ratings))


def _check_rated(specs: list[dict[str, Any]], mode: str, account: Account | None) -> None:
    """A rated table is played online, by people only, its host signed in (each other seat
    is taken by an account, checked as it is taken)."""
    if account is None:
        raise RequestError("sign_in", "sign in to host a rated table", 401)
    if mode != "online":
        raise RequestError("rated_local", "a rated table is played online, a seat each")
    if any(spec["kind"] != "person" for spec in specs):
        raise RequestError("rated_bots", "a rated table is for people only: no bots")


def _all_seated(live: LiveTable) -> bool:
    return all(seat.kind == "bot" or seat.token is not None for seat in live.seats)


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
