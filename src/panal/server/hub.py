"""Games being played: cached copies of the database's truth, seats, and live fan-out.

The database decides (see :mod:`panal.server.store`). A process keeps, for each game in use, a
:class:`LiveGame`: the rules engine's game, the history as JSON text and the serialized state,
all rebuilt from the database when needed. A change to a game runs under that game's lock:

1. check it against the cached copy with the rules engine (nothing is changed yet);
2. write it with a compare-and-set on the game's version (in a thread, off the event loop);
   another process may have written first: the write is refused, nothing changes, the copy is
   reloaded and the player is told to look again;
3. apply it to the copy, send the new state to this process's websockets, and publish the
   change on the bus so every other process with that game does the same.

A process that receives a change for a version it does not follow (a message lost, a restart)
reloads the game from the database. AI moves are jobs (:mod:`panal.server.jobs`): queued for a
game's version, dropped when the game moves on, applied through the same compare-and-set.

Each connection has its own outbox drained by its own task: a newer state replaces an unsent
older one, so no burst of changes can push a player off; spectators' comings and goings are
announced at most twice a second.
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
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from panal.hex import Hex
from panal.hive import (
    Game,
    GameState,
    GameType,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Options,
    Termination,
)
from panal.hive.notation import parse_move
from panal.hive.pieces import piece_from_name
from panal.server.ai_pool import ai_payload
from panal.server.clock import ClockState, TimeControl
from panal.server.errors import RequestError
from panal.server.jobs import Job, JobError, ai_job_id
from panal.server.live_loader import LiveLoader
from panal.server.players import PlayerStore, settle_ratings
from panal.server.records_io import replay_with_history
from panal.server.runtime import Runtime
from panal.server.snapshot import (
    board_fields,
    delta_text,
    history_entry,
    legal_moves_json,
    public_fields,
    settle_result,
    state_text,
)
from panal.server.store import (
    IMPORT_BATCH,
    Conflict,
    GameRow,
    clock_values,
    insert_game,
    rule_columns,
    rule_headers,
)
from panal.server.tokens import hash_token, new_id, new_token

__all__ = [
    "AiError",
    "Connection",
    "GameHub",
    "Limits",
    "LiveGame",
]

log = logging.getLogger("panal.server")
MODES = ("ai", "hotseat", "online", "review")
COLOR_NAMES = ("white", "black")
MAX_QUEUED_MESSAGES = 64
MAX_COORDINATE = 1000
AI_JOB = "hive.ai_move"
LOBBY_CHANNEL = "lobby"
# Endings an undo may take back: decided on the board, not by a player.
ON_BOARD_ENDINGS = frozenset(t.value for t in Termination if t.on_board)


@dataclass(frozen=True)
class AiError:
    """Why the AI did not move: ``code`` for the pages to say it in the reader's language
    (``ai_failed``: its search failed; ``ai_illegal_move``: it chose a move the rules refuse),
    ``message`` in English for the logs and for clients that do not know the code."""

    code: str
    message: str


@dataclass(frozen=True)
class Limits:
    """Bounds that keep one client or one record from holding the server."""

    ai_games_per_client: int = 4  # unfinished AI games touched within ``ai_idle_seconds``
    ai_idle_seconds: float = 3600.0  # an AI game idle this long is abandoned (not resumed)
    inline_replay_plies: int = 400  # longer games are rebuilt in a worker process
    playable_plies: int = 5_000  # an imported record to play on (its game crosses processes)
    review_plies: int = 50_000  # an imported record to replay
    heavy_seconds: float = 60.0  # one import, rebuild or export (30,000 plies: ~5 s idle)
    heavy_waiting: int = 8  # heavy jobs waiting for the worker before 503
    cached_games: int = 2_000  # games kept in memory without a connection
    presence_delay: float = 0.5  # spectators' comings and goings, announced at most this often
    clock_sweep_seconds: float = 0.5  # how often a process looks for clocks whose time is up
    heartbeat_seconds: float = 1.0  # how often a process notes that it runs (clock keeping)
    outage_seconds: float = 5.0  # no process ran this long: the time is given back to clocks
    presence_ttl: float = 90.0  # another process's spectator count, forgotten unless refreshed


class Connection:
    """One websocket: who it seats, and its outbox (a newer state replaces an unsent one).

    ``deltas``: after the first full state, the client takes ``delta`` messages (each applies
    to the state just before it). ``spectator``: counted among the game's spectators (default:
    a connection without seats; a player watching, or a reader of a record, is not one)."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        seats: frozenset[int],
        *,
        deltas: bool = False,
        spectator: bool | None = None,
    ) -> None:
        self.send = send
        self.seats = seats
        self.deltas = deltas
        self.spectator = not seats if spectator is None else spectator
        self.closed = False
        self.too_slow = False
        self._outbox: deque[str] = deque()
        self._last_is_state = False
        self._wake = asyncio.Event()

    def post(self, text: str) -> None:
        if self.closed:
            return
        if len(self._outbox) >= MAX_QUEUED_MESSAGES:
            self.too_slow = True  # the browser reconnects and resumes
            self.close()
            return
        self._outbox.append(text)
        self._last_is_state = False
        self._wake.set()

    def post_state(self, text: str, full: Callable[[], str] | None = None) -> None:
        """Queue a state, or a delta (``full`` then gives the whole state it leads to)."""
        if self.closed:
            return
        if self._last_is_state and self._outbox:
            # The unsent older state is out of date: replace it. A delta applies to that older
            # state, which the client will not see: the whole new state replaces both.
            self._outbox[-1] = text if full is None else full()
        else:
            self._outbox.append(text)
            self._last_is_state = True
        self._wake.set()

    def close(self) -> None:
        self.closed = True
        self._wake.set()

    async def pump(self) -> None:
        """Send the outbox in order until the connection is closed."""
        while True:
            while not self._outbox:
                if self.closed:
                    return
                self._wake.clear()
                await self._wake.wait()
            if self.closed:
                return
            text = self._outbox.popleft()
            if not self._outbox:
                self._last_is_state = False
            await self.send(text)


@dataclass(eq=False)
class LiveGame:
    """A process's copy of a game: everything here can be rebuilt from the database."""

    row: GameRow
    game: Game | None  # None for a record to replay: nothing to play, no rules needed
    moves: list[str]
    history_parts: list[str]  # one JSON object per move (see snapshot.history_entry)
    board: dict[str, Any]  # snapshot.board_fields of the current position
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ai_error: AiError | None = None
    players: dict[str, Any] | None = None  # names, ratings and rating changes of the accounts
    announced_spectators: int = 0
    published_spectators: int = 0
    # Other processes' spectators of this game: process → (count, when it said so).
    remote_spectators: dict[str, tuple[int, float]] = field(default_factory=dict)
    presence_ttl: float = 90.0
    used_at: float = field(default_factory=time.monotonic)
    # What the websockets were last shown: ``seq`` counts the changes this process showed (a
    # delta applies to the state of the ``seq`` before it); ``_shown`` holds the public fields
    # at ``seq`` (built when first needed), ``_shown_plies`` the history's length then, and
    # ``_history_from`` the first history entry changed since (None: none).
    seq: int = 0
    _shown: dict[str, Any] | None = None
    _shown_plies: int = 0
    _shown_invite: str | None = None
    _history_from: int | None = None
    _options: tuple[GameRow, dict[str, Any]] | None = None
    _state_cache: str | None = None
    _history_cache: str | None = None
    _legal_cache: tuple[int, str] | None = None
    _presence_pending: bool = False

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def is_finished(self) -> bool:
        return self.row.result is not None

    @property
    def turn(self) -> int:
        return int(self.board["turn"])

    @property
    def is_ai_turn(self) -> bool:
        return self.row.mode == "ai" and self.turn == self.row.ai_color

    @property
    def ai_thinking(self) -> bool:
        return self.is_ai_turn and not self.is_finished and self.ai_error is None

    @property
    def local_spectators(self) -> int:
        return sum(1 for connection in self.connections if connection.spectator)

    @property
    def spectators(self) -> int:
        """Spectators on every process (the others' counts as they last published them)."""
        now = time.monotonic()
        remote = sum(
            count
            for count, said in self.remote_spectators.values()
            if now - said < self.presence_ttl
        )
        return self.local_spectators + remote

    @property
    def history_text(self) -> str:
        if self._history_cache is None:
            self._history_cache = "[" + ",".join(self.history_parts) + "]"
        return self._history_cache

    def seats_for(self, token: str | None, user: int | None = None) -> frozenset[int]:
        """The seats a seat token holds, and those of the signed-in account ``user``."""
        seats = set()
        if token:
            digest = hash_token(token)
            for color, stored in ((0, self.row.white_token), (1, self.row.black_token)):
                if stored is not None and hmac.compare_digest(stored, digest):
                    seats.add(color)
        if user is not None:
            seats.update(color for color, u in enumerate(self.row.users()) if u == user)
        return frozenset(seats)

    def acting_color(self, seats: frozenset[int]) -> int:
        """The colour a seated request speaks for: the side to move when it holds both."""
        if len(seats) == 2:
            return self.turn
        (color,) = seats
        return color

    def may_move(self, seats: frozenset[int]) -> bool:
        return (
            self.game is not None
            and not self.is_finished
            and self.row.mode != "review"
            and self.turn in seats
            and not self.is_ai_turn
        )

    def legal_known(self, legal: str) -> None:
        """The legal moves at the current version, found while the change was checked."""
        self._legal_cache = (self.version, legal)

    def legal_json(self) -> str:
        assert self.game is not None
        if self._legal_cache is None or self._legal_cache[0] != self.version:
            self._legal_cache = (self.version, legal_moves_json(self.game))
        return self._legal_cache[1]

    def options_values(self) -> dict[str, Any]:
        """The rule options' values (read from the row once: they never change)."""
        if self._options is None or self._options[0] is not self.row:
            self._options = (self.row, self.row.rules.to_values())
        return self._options[1]

    def shown(self) -> dict[str, Any]:
        """The public fields at ``seq`` (what every state and delta since is built on)."""
        if self._shown is None:
            self._shown = {**public_fields(self), "seq": self.seq}
            self._shown_plies = len(self.history_parts)
            self._shown_invite = self.row.invite_code
            self._history_from = None
        return self._shown

    def base_text(self) -> str:
        """The state everyone sees, serialized once per change."""
        if self._state_cache is None:
            self._state_cache = state_text(self.shown(), self.history_text)
        return self._state_cache

    def state_text(self, seats: frozenset[int]) -> str:
        """The shared state plus what only a holder of ``seats`` sees, and the server's time
        (the browser counts the running clock down from it)."""
        base = self.base_text()
        extra: dict[str, Any] = {
            "you": [COLOR_NAMES[c] for c in sorted(seats)],
            "now": round(time.time(), 3),
        }
        if seats and self.row.mode == "online" and self.row.invite_code:
            extra["invite"] = self.row.invite_code
        text = base[:-1] + "," + json.dumps(extra, separators=(",", ":"))[1:]
        if seats and self.may_move(seats):
            text = text[:-1] + ',"legal":' + self.legal_json() + "}"
        return text

    def history_changed_from(self, index: int) -> None:
        """History entries from ``index`` on were taken back or added."""
        if self._history_from is None or index < self._history_from:
            self._history_from = index
        self._history_cache = None

    def changed(self) -> None:
        """The copy changed: send it to every connection of this process. A connection that
        takes deltas gets what differs from the state before; the delta is encoded once for all
        of them (with the legal moves once for the side to move)."""
        self.announced_spectators = self.spectators
        previous, plies, invite = self._shown, self._shown_plies, self._shown_invite
        history_from = self._history_from
        self.seq += 1
        self._shown = None
        self._state_cache = None
        if not self.connections:
            return  # nobody to tell: the next state is built when someone asks
        fields = self.shown()
        delta: str | None = None
        if previous is not None and invite == self.row.invite_code:
            keep = None if history_from is None else min(history_from, plies)
            delta = delta_text(previous, fields, self.history_parts, keep)
        now = f"{time.time():.3f}"
        texts: dict[tuple[bool, bool], str] = {}
        for connection in list(self.connections):
            if delta is None or not connection.deltas:
                connection.post_state(self.state_text(connection.seats))
                continue
            seated = bool(connection.seats)
            may_move = seated and self.may_move(connection.seats)
            text = texts.get((seated, may_move))
            if text is None:
                text = delta[:-1] + ',"now":' + now
                if seated:
                    text += ',"legal":' + (self.legal_json() if may_move else "null")
                text = texts[seated, may_move] = text + "}"
            connection.post_state(text, functools.partial(self.state_text, connection.seats))

    def replace(self, other: LiveGame) -> None:
        """Take a freshly loaded copy's contents (connections stay)."""
        self.row, self.game, self.moves = other.row, other.game, other.moves
        self.history_parts, self.board = other.history_parts, other.board
        self.players = other.players
        self._history_cache = None
        self._legal_cache = None
        self._state_cache = None
        self._shown = None  # the history may differ anywhere: the next change sends it whole


class GameHub:
    """The games this process serves, loaded from the store on demand and kept fresh by the bus.

    ``shared`` says whether other processes write to the same database (scale-out): a cached
    copy is then checked against the stored version before it is read.
    """

    def __init__(
        self,
        runtime: Runtime,
        players: PlayerStore,
        levels: tuple[str, ...],
        *,
        limits: Limits | None = None,
    ) -> None:
        self.runtime = runtime
        self.store = runtime.store
        self.bus = runtime.bus
        self.jobs = runtime.jobs
        self.players = players
        self.now = runtime.now  # the server's time, for clocks (tests may replace it)
        self.levels = levels
        self.shared = runtime.shared
        self.limits = limits or Limits()
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self._stale: set[str] = set()
        self._loader = LiveLoader(
            "game",
            self.games,
            self._stale,
            runtime.bus,
            load=self._load,
            keep=self._cache,
            verify=self._verify,
            spawn=runtime.spawn,
            shared=self.shared,
        )
        runtime.listen("game", self)
        runtime.own_jobs("hive.", self)
        runtime.on_start(self.start)

    # --- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Before the first request: time during which no server ran is given back first;
        then keep the clocks, and (scale-out) this process's spectator counts."""
        await self._heartbeat(self.now())
        self.runtime.spawn(self._keep_time())
        if self.shared:
            self.runtime.spawn(self._refresh_presence())

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
            live = self.games.get(game_id)
            if live is not None:
                self._stale.add(game_id)
                if live.connections:
                    self.runtime.spawn(self._verify(live))

    async def _flag(self, game_id: str) -> None:
        """End the game on time if its running clock's time is up (checked again here)."""
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
            if loser is None:
                return  # a move, or time given back, came first
            with contextlib.suppress(RequestError):  # stale: another process wrote it
                await self._commit(live, _flag_change(clock, loser, now))

    # --- loading ---------------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game, from memory when the copy is current, else from the database."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 16:
            raise RequestError("unknown_game", "there is no game with that id", 404)
        return await self._loader.get(game_id)

    async def _load(self, game_id: str) -> LiveGame:
        loaded = await self.runtime.db(self.store.load_game, game_id)
        if loaded is None:
            raise RequestError("unknown_game", "there is no game with that id", 404)
        row, moves = loaded
        if row.mode not in MODES:  # still being imported (or an import that died half-way)
            raise RequestError("unknown_game", "there is no game with that id", 404)
        live = await self._build(row, moves)
        live.players = await self.runtime.db(self.players.game_players, row)
        return live

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

    def _cache(self, live: LiveGame) -> None:
        live.presence_ttl = self.limits.presence_ttl
        self.games[live.id] = live
        self.games.move_to_end(live.id)
        self._evict()

    def _evict(self) -> None:
        """Forget the least recently used games nobody watches, beyond the cache's size."""
        excess = len(self.games) - self.limits.cached_games
        if excess <= 0:
            return
        for game_id, live in list(self.games.items()):
            if excess <= 0:
                break
            if live.connections or live.lock.locked():
                continue
            del self.games[game_id]
            self._stale.discard(game_id)
            self.runtime.spawn(self.bus.unsubscribe(f"game:{game_id}"))
            excess -= 1

    async def _verify(self, live: LiveGame) -> None:
        """Reload the copy if the database has moved on (another process, a lost message)."""
        version = await self.runtime.db(self.store.version_of, live.id)
        self._stale.discard(live.id)
        if version is not None and version != live.version:
            async with live.lock:
                if version != live.version:
                    await self._reload(live)

    async def _reload(self, live: LiveGame) -> None:
        """Under the game's lock: take the stored game, and tell this process's connections."""
        fresh = await self._load(live.id)
        live.replace(fresh)
        live.ai_error = None
        live.changed()

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
        owner: str | None = None,
        imported: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        user: int | None = None,
        control: TimeControl | None = None,
    ) -> tuple[LiveGame, dict[str, Any]]:
        """A new game, or one from a record (``imported``: what ``records_io.import_job`` or
        ``rebuild_job`` returned); returns it and the secrets to give its creator.

        ``user``: the creator's account (it takes the creator's seat). ``control``: the clock;
        White's starts at once against the AI and hot-seat, when the invitation is taken
        online."""
        if mode not in MODES:
            raise RequestError("bad_mode", f"mode must be one of {', '.join(MODES)}")
        try:
            parsed_type = GameType.parse(game_type)
        except ValueError as exc:
            raise RequestError("bad_game_type", str(exc)) from None
        if mode == "ai":
            if not self.levels:
                raise RequestError("no_ai", "the AI is not available on this server", 409)
            if ai_level is None:
                ai_level = "medium" if "medium" in self.levels else self.levels[0]
            if ai_level not in self.levels:
                raise RequestError(
                    "bad_level", f"unknown AI level {ai_level!r}; one of {', '.join(self.levels)}"
                )
            await self._check_ai_allowance(owner)
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
            owner=owner if mode == "ai" else None,
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
        await self._store_new_game(row, moves)
        live = LiveGame(row, game if mode != "review" else None, moves, history, board)
        self._cache(live)
        await self.bus.subscribe(f"game:{row.id}")
        await self._after_change(live, was_ai_turn=False)
        return live, secrets_out

    async def _store_new_game(self, row: GameRow, moves: list[str]) -> None:
        if len(moves) <= IMPORT_BATCH:
            await self.runtime.db(self.store.create_game, row, moves)
            return
        await self.runtime.db(self.store.begin_import, row)
        for start in range(0, len(moves), IMPORT_BATCH):
            batch = moves[start : start + IMPORT_BATCH]
            await self.runtime.db(self.store.import_moves, row.id, start + 1, batch)
        await self.runtime.db(self.store.finish_import, row.id, row.mode)

    async def _check_ai_allowance(self, owner: str | None) -> None:
        if owner is None:
            return
        since = time.time() - self.limits.ai_idle_seconds
        active = await self.runtime.db(self.store.active_ai_games, owner, since)
        if active >= self.limits.ai_games_per_client:
            raise RequestError(
                "too_many_ai_games",
                f"you have {active} unfinished games against the AI (at most "
                f"{self.limits.ai_games_per_client}): finish or resign one first",
                429,
            )

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
            await self._reload(live)
        await self.bus.publish(f"game:{game_id}", {"op": "reload", "v": live.version})
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
                    await self._commit(live, _Change(values))
                    claimed.append(game_id)
        return claimed

    # --- requests from players -------------------------------------------------------------

    async def handle(self, live: LiveGame, connection: Connection, message: Any) -> None:
        """Apply one websocket request (already decoded JSON). Raises RequestError."""
        if not isinstance(message, dict):
            raise RequestError("bad_request", "a message must be a JSON object")
        kind = message.get("type")
        if kind == "ping":
            connection.post('{"type":"pong"}')
            return
        if kind == "sync":
            connection.post_state(live.state_text(connection.seats))
            return
        actions: dict[str, Callable[[LiveGame, frozenset[int], dict[str, Any]], _Change]] = {
            "move": self._move,
            "undo": self._undo,
            "resign": self._resign,
            "offer_draw": self._offer_draw,
            "accept_draw": self._accept_draw,
            "decline_draw": self._decline_draw,
            "offer_rematch": self._offer_rematch,
            "accept_rematch": self._accept_rematch,
            "decline_rematch": self._decline_rematch,
        }
        action = actions.get(kind) if isinstance(kind, str) else None
        if action is None:
            raise RequestError(
                "bad_request",
                "unknown message type; expected one of: ping, sync, " + ", ".join(actions),
            )
        if not connection.seats:
            raise RequestError("spectator", "spectators can't play: you have no seat here", 403)
        async with live.lock:
            change = action(live, connection.seats, message)
            await self._commit(live, change)

    def _move(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> _Change:
        expected_ply = message.get("ply")
        if expected_ply is not None and (
            not isinstance(expected_ply, int) or isinstance(expected_ply, bool)
        ):
            raise RequestError("bad_request", "'ply' must be an integer")
        self._check_open(live)
        if live.is_ai_turn:
            raise RequestError("not_your_turn", "wait: the AI is thinking", 409)
        if live.turn not in seats:
            raise RequestError("not_your_turn", "it is your opponent's turn", 409)
        if expected_ply is not None and expected_ply != live.board["ply"]:
            raise RequestError(
                "stale", "the game has moved on since you chose that move; look again", 409
            )
        return self._play(live, _requested_move(message))

    def _play(self, live: LiveGame, requested: Move | str) -> _Change:
        """Check a move with the rules engine; the change it makes (the game is left as is)."""
        game = live.game
        assert game is not None
        try:
            if isinstance(requested, str):
                move = game.parse_move(requested)  # checks it, naming the rule it breaks
                text = game.move_string(move)
                checked = True
            else:
                move = requested
                text = game.move_string(move)  # an illegal move raises, naming the rule
                checked = False
        except InvalidMoveError as exc:
            raise RequestError(
                "invalid_move", str(exc), reason=exc.reason, details=exc.details
            ) from None
        except IllegalMoveError as exc:
            raise RequestError(
                "illegal_move", str(exc), 409, rule=exc.rule.key, details=exc.details
            ) from None
        except ValueError as exc:  # e.g. a destination beside no piece cannot be written
            raise RequestError("illegal_move", str(exc), 409, rule="illegal") from None
        mover = int(game.turn)
        values: dict[str, Any] = {"plies": game.ply + 1}
        if live.row.draw_offer is not None and live.row.draw_offer != mover:
            values["draw_offer"] = None  # moving on declines the opponent's offer
        try:
            if checked:
                game.push_code(move.code)
            else:
                game.push(move)
        except IllegalMoveError as exc:
            raise RequestError(
                "illegal_move", str(exc), 409, rule=exc.rule.key, details=exc.details
            ) from None
        try:
            settle_result(values, game)
            board = board_fields(game)
            legal = legal_moves_json(game)  # the moves just found for board_fields, formatted
        finally:
            game.pop()
        entry = json.dumps(history_entry(game, move, game.ply + 1), separators=(",", ":"))
        return _Change(
            values,
            add_moves=(text,),
            entries=(entry,),
            codes=(move.code,),
            board=board,
            legal=legal,
        )

    def _undo(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> _Change:
        row = live.row
        if row.mode not in ("ai", "hotseat"):
            raise RequestError("no_undo", "undo is only for games against the AI or hot-seat", 409)
        if row.time_control is not None:
            raise RequestError("timed_no_undo", "a game on the clock takes no undo", 409)
        if row.result is not None and row.end_reason not in ON_BOARD_ENDINGS:
            raise RequestError("game_over", "the game is over", 409)
        ply = live.board["ply"]
        human = 1 - row.ai_color if row.mode == "ai" and row.ai_color is not None else 0
        if ply < human + 1:
            raise RequestError("nothing_to_undo", "there is no move of yours to take back", 409)
        keep = ply - 1
        while row.mode == "ai" and keep % 2 == row.ai_color and keep > 0:
            keep -= 1  # take back the AI's replies too, back to the player's turn
        values = {"plies": keep, "draw_offer": None, "result": None, "end_reason": None}
        return _Change(values, keep_plies=keep)

    def _resign(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> _Change:
        self._check_open(live)
        loser = live.acting_color(seats)
        result = GameState.BLACK_WINS if loser == 0 else GameState.WHITE_WINS
        return _Change(
            {
                "result": result.value,
                "end_reason": Termination.RESIGNATION.value,
                "draw_offer": None,
            }
        )

    def _offer_draw(
        self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]
    ) -> _Change:
        self._check_open(live)
        if live.row.mode == "ai":
            raise RequestError("no_draw", "the AI does not agree to draws", 409)
        color = live.acting_color(seats)
        if live.row.draw_offer == color:
            raise RequestError("draw_offered", "you have already offered a draw", 409)
        return _Change({"draw_offer": color})

    def _accept_draw(
        self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]
    ) -> _Change:
        self._check_open(live)
        offer = live.row.draw_offer
        if offer is None or (1 - offer) not in seats:
            raise RequestError("no_draw_offer", "there is no draw offer for you to accept", 409)
        return _Change(
            {"result": GameState.DRAW.value, "end_reason": "agreement", "draw_offer": None}
        )

    def _decline_draw(
        self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]
    ) -> _Change:
        self._check_open(live)
        if live.row.draw_offer is None:
            raise RequestError("no_draw_offer", "there is no draw offer to decline", 409)
        return _Change({"draw_offer": None})

    def _offer_rematch(
        self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]
    ) -> _Change:
        row = live.row
        self._check_rematch(live)
        color = live.acting_color(seats)
        if row.rematch_offer == color:
            raise RequestError("rematch_offered", "you have already offered a rematch", 409)
        if row.rematch_offer is not None:  # both want it: that is an agreement
            return self._accept_rematch(live, seats, message)
        return _Change({"rematch_offer": color})

    def _accept_rematch(
        self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]
    ) -> _Change:
        """The rematch: the same game with the colours swapped, its seats held by the same
        tokens and accounts, created in the transaction that records the agreement."""
        row = live.row
        self._check_rematch(live)
        offer = row.rematch_offer
        if offer is None or (1 - offer) not in seats:
            raise RequestError("no_rematch_offer", "there is no rematch offer to accept", 409)
        rematch = GameRow(
            id=new_id(),
            game_type=row.game_type,
            mode="online",
            **rule_columns(row.rules),
            look=row.look,
            white_token=row.black_token,
            black_token=row.white_token,
            white_user=row.black_user,
            black_user=row.white_user,
            rated=row.rated,
        )
        control = row.control
        if control is not None:
            rematch.set_clock(control, ClockState.new(control).started(self.now()))
        return _Change(
            {"rematch_offer": None, "rematch_game": rematch.id},
            also=functools.partial(insert_game, row=rematch),
        )

    def _decline_rematch(
        self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]
    ) -> _Change:
        self._check_rematch(live)
        if live.row.rematch_offer is None:
            raise RequestError("no_rematch_offer", "there is no rematch offer to decline", 409)
        return _Change({"rematch_offer": None})

    def _check_rematch(self, live: LiveGame) -> None:
        row = live.row
        if row.mode != "online" or row.white_token is None or row.black_token is None:
            raise RequestError("no_rematch", "a rematch is for online games between two", 409)
        if row.result is None:
            raise RequestError("not_over", "a rematch follows a finished game", 409)
        if row.rematch_game is not None:
            raise RequestError("rematch_agreed", "the rematch has already begun", 409)

    def _check_open(self, live: LiveGame) -> None:
        if live.row.mode == "review" or live.game is None:
            raise RequestError("review", "this is a record to replay, not a game to play", 409)
        if live.is_finished:
            raise RequestError("game_over", "the game is over", 409)

    # --- committing ------------------------------------------------------------------------

    async def _commit(self, live: LiveGame, change: _Change) -> None:
        """Under the game's lock: write the change if the game is still at the version it was
        computed from, then apply it here and tell the other processes.

        The clock is read here, once, for every kind of change: a move stops the mover's clock
        and starts the other; an ending stops both; and any change that comes after the side
        to move ran out of time becomes the loss on time instead. A result of a rated game
        changes the ratings in the same transaction."""
        was_ai_turn = live.ai_thinking
        change = self._timed(live, change, self.now())
        finishes = change.values.get("result") is not None and live.row.result is None
        also = change.also
        if finishes and live.row.rated:
            also = _both(also, functools.partial(settle_ratings, game_id=live.id))
        try:
            version = await self.store.change_async(
                live.id,
                live.version,
                change.values,
                add_moves=change.add_moves,
                keep_plies=change.keep_plies,
                also=also,
            )
        except Conflict:
            await self._reload(live)  # another process wrote first: take its line
            raise RequestError(
                "stale", "the game has moved on since you chose that; look again", 409
            ) from None
        except Exception:
            log.exception("cannot store a change of game %s", live.id)
            raise RequestError("storage", "the change could not be saved; try again", 503) from None
        self._apply(live, change, version)
        live.ai_error = None
        if _changes_players(change, finishes and live.row.rated):
            live.players = await self.runtime.db(self.players.game_players, live.row)
        live.changed()
        await self.bus.publish(
            f"game:{live.id}",
            {
                "op": "change",
                "v": version,
                "values": change.values,
                "add": list(change.add_moves),
                "entries": list(change.entries),
                "board": change.board,
                "legal": change.legal,
                "keep": change.keep_plies,
            },
        )
        if live.row.mode == "online" and (finishes or "rematch_game" in change.values):
            self.lobby_changed()  # a game being played now ended or began
        await self._after_change(live, was_ai_turn)

    def _timed(self, live: LiveGame, change: _Change, now: float) -> _Change:
        """The change with the clocks it stops and starts (see :meth:`_commit`)."""
        row = live.row
        control, clock = row.control, row.clock
        if control is None or clock is None or clock.running is None or row.result is not None:
            return change
        loser = clock.flagged(now)
        if loser is not None:
            return _flag_change(clock, loser, now)
        if change.add_moves:
            after = clock.after_move(control, now)
            if change.values.get("result") is not None:
                after = after.stopped(now)
        elif change.values.get("result") is not None:
            after = clock.stopped(now)
        else:
            return change
        return dataclasses.replace(change, values={**change.values, **clock_values(after)})

    def _apply(self, live: LiveGame, change: _Change, version: int) -> None:
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

    async def _after_change(self, live: LiveGame, was_ai_turn: bool) -> None:
        """Queue the AI's move when it is its turn; drop the game's older AI jobs."""
        if live.row.mode != "ai":
            return
        key = f"game:{live.id}"
        if live.ai_thinking:
            job = self._ai_job(live)
            if was_ai_turn:
                await self.jobs.cancel(key, keep=job.id)
            await self.jobs.submit(job)
        elif was_ai_turn:
            await self.jobs.cancel(key)

    def _ai_job(self, live: LiveGame) -> Job:
        assert live.game is not None
        payload = ai_payload(
            live.id,
            live.version,
            live.game.game_string(),
            live.row.rules,
            live.row.ai_level or "",
            random.getrandbits(31),
        )
        control, clock = live.row.control, live.row.clock
        if control is not None and clock is not None and clock.running is not None:
            # On the clock, the AI thinks within its own time: what it has left spread over the
            # moves to come, plus most of the increment; never more than half of what is left.
            left = clock.time_left(clock.running, self.now())
            if control.kind == "realtime":
                budget = min(left / 25 + 0.8 * control.increment, left / 2)
            else:
                budget = left / 2
            payload["max_time"] = max(0.05, budget)
        return Job(
            AI_JOB,
            f"game:{live.id}",
            payload,
            id=ai_job_id(live.id, live.version),
            owner=live.row.owner,
        )

    async def schedule_ai(self, live: LiveGame) -> None:
        """Queue the AI's move if it owes one (after a restart, or when a player comes back
        after the AI failed: a job already queued for this position is not queued twice)."""
        if live.is_ai_turn and not live.is_finished and live.game is not None:
            if live.ai_error is not None:
                live.ai_error = None
                live.changed()
            await self.jobs.submit(self._ai_job(live))

    async def resume_ai_games(self) -> None:
        """At start-up: the AI owes a move in some recent games; queue them."""
        since = time.time() - self.limits.ai_idle_seconds
        for game_id in await self.runtime.db(self.store.unfinished_ai_games, since):
            try:
                live = await self.get(game_id)
                await self.schedule_ai(live)
            except Exception:
                log.exception("cannot resume game %s", game_id)

    # --- jobs (JobHandler) -----------------------------------------------------------------

    async def is_current(self, job: Job) -> bool:
        if job.kind != AI_JOB:
            return True
        version = await self.runtime.db(self.store.version_of, job.payload["game_id"])
        return bool(version == job.payload["version"])

    async def apply(self, job: Job, result: Any) -> None:
        """The AI's move: played through the same checks and compare-and-set as a player's."""
        if job.kind != AI_JOB:
            return
        game_id, version = job.payload["game_id"], job.payload["version"]
        try:
            live = await self.get(game_id)
        except RequestError:
            return
        async with live.lock:
            if live.version != version:
                return  # the game moved on (undo, resignation): the move is for nothing
            if not live.ai_thinking:
                return
            try:
                change = self._play(live, str(result["move"]))
            except RequestError as exc:
                log.error("AI played %r in game %s: %s", result, game_id, exc.message)
                illegal = f"the AI played an illegal move: {exc.message}"
                await self._ai_failed(live, AiError("ai_illegal_move", illegal))
                return
            with contextlib.suppress(RequestError):  # stale: a player got there first
                await self._commit(live, change)

    async def failed(self, job: Job, error: JobError) -> None:
        if job.kind != AI_JOB:
            return
        try:
            live = await self.get(job.payload["game_id"])
        except RequestError:
            return
        async with live.lock:
            if live.version == job.payload["version"]:
                await self._ai_failed(live, AiError("ai_failed", f"the AI failed: {error.message}"))

    async def _ai_failed(self, live: LiveGame, failure: AiError) -> None:
        live.ai_error = failure
        live.changed()
        await self.bus.publish(
            f"game:{live.id}",
            {"op": "ai_error", "v": live.version, "code": failure.code, "message": failure.message},
        )

    # --- the bus ---------------------------------------------------------------------------

    def on_bus_message(self, channel: str, message: dict[str, Any]) -> None:
        kind, _, game_id = channel.partition(":")
        if kind != "game":
            return
        live = self.games.get(game_id)
        if live is not None:
            self.runtime.spawn(self._on_game_message(live, message))

    async def _on_game_message(self, live: LiveGame, message: dict[str, Any]) -> None:
        version = message.get("v")
        if not isinstance(version, int):
            return
        op = message.get("op")
        async with live.lock:
            if op == "ai_error":
                if version == live.version:
                    live.ai_error = AiError(
                        str(message.get("code") or "ai_failed"), str(message.get("message"))
                    )
                    live.changed()
                return
            if op == "presence":
                count, origin = message.get("spectators"), message.get("from")
                if isinstance(count, int) and isinstance(origin, str):
                    live.remote_spectators[origin] = (max(0, count), time.monotonic())
                    if live.spectators != live.announced_spectators:
                        live.changed()
                return
            if version <= live.version:
                return  # this process made that change, or has it already
            if op == "change" and version == live.version + 1:
                try:
                    added = tuple(message.get("add") or ())
                    entries = tuple(message.get("entries") or ())
                    board, legal = message.get("board"), message.get("legal")
                    change = _Change(
                        dict(message["values"]),
                        add_moves=added,
                        keep_plies=message.get("keep"),
                        entries=entries if len(entries) == len(added) else (),
                        board=board if isinstance(board, dict) else None,
                        legal=legal if isinstance(legal, str) and board is not None else None,
                    )
                    finishes = change.values.get("result") is not None and not live.is_finished
                    self._apply(live, change, version)
                    if _changes_players(change, finishes and live.row.rated):
                        live.players = await self.runtime.db(self.players.game_players, live.row)
                except Exception:
                    log.exception("cannot apply a change of game %s: reloading", live.id)
                    await self._reload(live)
                    return
                live.ai_error = None
                live.changed()
                return
            await self._reload(live)

    def on_bus_reconnect(self) -> None:
        """Messages may have been lost: check every cached game before it is read again, and
        at once those that someone is watching."""
        self._stale.update(self.games)
        for live in list(self.games.values()):
            if live.connections:
                self.runtime.spawn(self._verify(live))

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
        self._evict()

    def _presence_changed(self, live: LiveGame) -> None:
        """Spectators came or went: one state for everyone a moment later, however many."""
        if live._presence_pending:
            return
        live._presence_pending = True

        def announce() -> None:
            live._presence_pending = False
            if live.spectators != live.announced_spectators:
                live.changed()
            if self.shared and live.local_spectators != live.published_spectators:
                self.runtime.spawn(self._publish_presence(live))

        asyncio.get_running_loop().call_later(self.limits.presence_delay, announce)

    async def _publish_presence(self, live: LiveGame) -> None:
        live.published_spectators = live.local_spectators
        await self.bus.publish(
            f"game:{live.id}",
            {"op": "presence", "v": live.version, "spectators": live.local_spectators},
        )

    async def _refresh_presence(self) -> None:
        """Say again, now and then, how many watch each game here (other processes forget a
        count that is not refreshed: a process that died stops counting)."""
        while True:
            await asyncio.sleep(self.limits.presence_ttl / 3)
            for live in list(self.games.values()):
                if live.local_spectators or live.published_spectators:
                    await self._publish_presence(live)


@dataclass(frozen=True)
class _Change:
    """One change to a game: row fields, moves added or taken back, and more writes for the
    same transaction (``also``: a rematch's new game). A change made here also carries what
    checking it computed (move codes, history entries, the next position's board fields and
    legal moves), so that applying it repeats no rules work."""

    values: dict[str, Any]
    add_moves: tuple[str, ...] = ()
    keep_plies: int | None = None
    entries: tuple[str, ...] = ()  # the history entries of add_moves, as JSON text
    codes: tuple[int, ...] = ()  # their move codes (only in the process that checked them)
    board: dict[str, Any] | None = None
    legal: str | None = None  # the legal moves after it (snapshot.legal_moves_json)
    also: Callable[[Any], object] | None = None


def _flag_change(clock: ClockState, loser: int, now: float) -> _Change:
    """The side to move ran out of time: it loses, and the clocks stop."""
    result = GameState.BLACK_WINS if loser == 0 else GameState.WHITE_WINS
    values = {
        "result": result.value,
        "end_reason": Termination.TIME.value,
        "draw_offer": None,
        **clock_values(clock.stopped(now)),
    }
    return _Change(values)


def _changes_players(change: _Change, rated_result: bool) -> bool:
    """Whether the change makes the players' names or ratings shown with the game out of date:
    a seat claimed by an account, or a rated game's result (the ratings changed with it)."""
    return rated_result or "white_user" in change.values or "black_user" in change.values


def _both(
    first: Callable[[Any], object] | None, second: Callable[[Any], object]
) -> Callable[[Any], object]:
    """Two writes for one transaction, one after the other."""
    if first is None:
        return second

    def run(conn: Any) -> None:
        first(conn)
        second(conn)

    return run


def _replay(game_type: str, options: Options, moves: list[str]) -> tuple[Game, list[str]]:
    game, history = replay_with_history(game_type, options, moves)
    return game, history


def _requested_move(message: dict[str, Any]) -> Move | str:
    """The move a request names: ``{"move": "wA1 bQ-"}`` or ``{"piece": "wA1", "to": [q, r]}``
    (``"carry": true`` for a Dragonfly taking the piece beneath it) or ``{"move": "pass"}``."""
    text = message.get("move")
    if text is not None:
        if not isinstance(text, str) or not 0 < len(text) <= 64:
            raise RequestError("bad_request", "'move' must be a MoveString (at most 64 characters)")
        return text
    name = message.get("piece")
    to = message.get("to")
    carry = message.get("carry", False)
    if not isinstance(name, str) or len(name) > 8:
        raise RequestError("bad_request", "a move needs 'move' (a MoveString) or 'piece' and 'to'")
    piece = piece_from_name(name)
    if piece is None:
        raise RequestError(
            "invalid_move",
            f"unknown piece {name[:8]!r}",
            reason="unknown_piece",
            details={"name": name[:8]},
        )
    if (
        not isinstance(to, list)
        or len(to) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in to)
        or not all(abs(v) <= MAX_COORDINATE for v in to)
    ):
        raise RequestError("bad_request", "'to' must be two integers [q, r], each within ±1000")
    if not isinstance(carry, bool):
        raise RequestError("bad_request", "'carry' must be true or false")
    return Move(piece, Hex(to[0], to[1]), carry)
