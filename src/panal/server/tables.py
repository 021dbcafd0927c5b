"""Enjambre Tácticas tables being played: cached copies of the database's truth, seats, fan-out.

The server holds no rules and no secrets of its own: each table's current game is a
:class:`panal.enjambre.Game` rebuilt from the stored action log, and everything a connection
receives is built in one place, :func:`panal.server.table_views.state_for`, from
``Game.observe(seat)`` for the seat that connection holds (``None`` for a spectator: the public
observation) through :mod:`panal.enjambre.views`.

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
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, TypeVar

from panal.enjambre import (
    Action,
    EndTurn,
    Game,
    GameLog,
    IllegalActionError,
    Options,
    Place,
)
from panal.enjambre.actions import action_from_dict, action_to_dict
from panal.enjambre.state import Phase
from panal.enjambre.views import events_data, observation_data
from panal.server.errors import RequestError
from panal.server.jobs import Job, JobError
from panal.server.players import Account
from panal.server.room import Failure, Reload, Rooms
from panal.server.runtime import Runtime
from panal.server.table_actions import ACTIONS, TableRequest, check_playing
from panal.server.table_bots import BOT_LEVELS, bot_payload
from panal.server.table_live import REPLACEMENT_BOT, LiveTable, TableConnection, TableLimits
from panal.server.table_store import (
    GameHeader,
    LoadedTable,
    SeatRow,
    TableRow,
    TableStore,
    TableWrite,
)
from panal.server.tokens import hash_token, new_id, new_token

__all__ = ["BOT_JOB", "TableHub"]

log = logging.getLogger("panal.server")
T = TypeVar("T")

BOT_JOB = "enjambre.bot_turn"
MODES = ("online", "local")
MAX_QUEUED_MESSAGES = 64
MAX_GAMES = 12
MAX_NAME = 40
SETUP_RETRIES = 3  # a set-up placement that lost a race is tried again on the new state
COORDINATE_LIMIT = 100


@dataclass(frozen=True)
class TableChange:
    """A change as the core commits it: what is written, and (made here) the game it leads to
    (None: made by another process, whose actions are replayed here)."""

    write: TableWrite
    game: Game | None = None


class TableHub:
    """The tables this process serves, loaded on demand and kept fresh by the bus."""

    def __init__(self, runtime: Runtime, *, limits: TableLimits | None = None) -> None:
        self.runtime = runtime
        self.store = TableStore(runtime.store)
        self.jobs = runtime.jobs
        self.shared = runtime.shared
        self.limits = limits or TableLimits()
        self.rooms: Rooms[LiveTable, TableChange] = Rooms(runtime, self, self.limits.cached_tables)
        self._replays: OrderedDict[tuple[str, int], Game] = OrderedDict()
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
        return await self.rooms.get(table_id)

    # --- the kind of room (RoomKind) -------------------------------------------------------

    name = "table"

    def unknown(self) -> RequestError:
        return RequestError("unknown_table", "there is no table with that id", 404)

    def stale(self) -> RequestError:
        return RequestError("stale", "the table has moved on; look again", 409)

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
        await self.rooms.created(live)
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
            await self.rooms.reload(live)
            if won and live.row.status == "waiting" and _all_seated(live):
                with contextlib.suppress(RequestError):
                    await self._commit(live, TableRequest(values={"status": "playing"}))
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
            await self._commit(live, TableRequest(seats={seat: {"invite": hash_token(code)}}))
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
            await self._commit(live, change)

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
            await self._commit(live, TableRequest(values={"status": "playing"}, seats=seats))

    # --- committing ------------------------------------------------------------------------

    async def _commit(self, live: LiveTable, change: TableRequest) -> None:
        """Under the table's lock: try the change on a copy, store it if the table is still at
        the version it was computed from, then make it the table's and tell everyone.

        Set-up placements do not depend on each other (each player arranges their own zone), so
        one that lost the race to another process's change is tried again on the new state; any
        other change computed from an older state is refused as stale."""
        for attempt in range(SETUP_RETRIES):
            try:
                await self.rooms.commit(live, self._computed(live, change))
            except RequestError as exc:  # stale: the core reloaded the copy
                placing = bool(change.actions) and all(
                    isinstance(action, Place) for _, action in change.actions
                )
                if exc.code != "stale" or not placing or attempt + 1 == SETUP_RETRIES:
                    raise
                continue
            if not live.bots_playing:
                await self._schedule_bots(live)
            return

    def _computed(self, live: LiveTable, change: TableRequest) -> TableChange:
        """What a change does to the table, as the core commits it: the actions tried on a copy
        of the game (an illegal one is refused, nothing changed), the game's end and the next
        game, what the table then waits for (the sweep reads it)."""
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
        shadow = LiveTable(
            TableRow(**{**live.row.__dict__, **values}),
            [_seat_with(seat, seats.get(seat.seat, {})) for seat in live.seats],
            live.games,
            following or trial,
        )
        values["waiting_for"] = _waiting_text(shadow)
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
        return TableChange(write, trial)

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
                    await self._commit_bot(live, TableRequest(actions=still))
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
                    if not await self._commit_bot(live, TableRequest(actions=(action,))):
                        return
                    version = live.version
                if index + 1 < len(actions):
                    await asyncio.sleep(self.limits.bot_pause)
        finally:
            live.bots_playing = False
        async with live.lock:
            await self._schedule_bots(live)

    async def _commit_bot(self, live: LiveTable, change: TableRequest) -> bool:
        try:
            await self._commit(live, change)
        except RequestError as exc:
            if exc.code != "stale":
                log.error("a bot's action in table %s was refused: %s", live.id, exc.message)
                failure = Failure(live.version, "bot_failed", exc.message)
                await self.rooms.note_failure(live, failure)
            return False
        return True

    async def failed(self, job: Job, error: JobError) -> None:
        failure = Failure(job.payload["version"], "bot_failed", error.message)
        await self.rooms.fail(job.payload["table"], failure)

    # --- presence and the sweep ------------------------------------------------------------

    async def heartbeat(self) -> None:
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
            change = TableRequest(
                seats={seat: {"kind": "bot", "bot": REPLACEMENT_BOT, "replaced": True}},
                absent=(seat, cutoff),
            )
            try:
                await self._commit(live, change)
            except RequestError:
                return False  # another process did it, or the player came back
            return True

    # --- views -----------------------------------------------------------------------------

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
