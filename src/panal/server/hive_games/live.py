"""A Hive game as one process holds it: the rules engine's game, its history as JSON text and
the serialized state, all rebuilt from the database when needed; and what each connection is
sent of it (the whole state once, then deltas encoded once for every socket)."""

from __future__ import annotations

import asyncio
import functools
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any

from panal.hive import Game
from panal.server.hive_games.game_store import GameRow
from panal.server.hive_games.snapshot import clock_fields, delta_text, legal_moves_json, state_text
from panal.server.http.clients import Caps
from panal.server.room.core import RowCopy
from panal.server.room.outbox import Connection
from panal.server.room.tokens import hash_token

__all__ = ["COLOR_NAMES", "AiError", "Limits", "LiveGame"]

COLOR_NAMES = ("white", "black")


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

    # Unfinished AI games (touched within ``ai_idle_seconds``) per client, account and address
    # (panal.server.http.clients): an address's cap leaves room for many players behind one router.
    ai_games_per_client: int = 4
    ai_games_per_account: int = 4
    ai_games_per_address: int = 32
    ai_idle_seconds: float = 1200.0  # an AI game nobody is connected to this long ends by forfeit
    ai_sweep_seconds: float = 30.0  # how often a process looks for such games
    inline_replay_plies: int = 400  # longer games are rebuilt in a worker process
    playable_plies: int = 5_000  # an imported record to play on (its game crosses processes)
    review_plies: int = 50_000  # an imported record to replay
    heavy_seconds: float = 60.0  # one import, rebuild or export (30,000 plies: ~5 s idle)
    heavy_waiting: int = 8  # heavy jobs waiting for the worker before 503
    stale_import_seconds: float = 600.0  # an import not finished after this died half-way
    cached_games: int = 2_000  # games kept in memory without a connection
    presence_delay: float = 0.5  # spectators' comings and goings, announced at most this often
    clock_sweep_seconds: float = 0.5  # how often a process looks for clocks whose time is up
    heartbeat_seconds: float = 1.0  # how often a process notes that it runs (clock keeping)
    outage_seconds: float = 5.0  # no process ran this long: the time is given back to clocks
    presence_ttl: float = 90.0  # another process's spectator count, forgotten unless refreshed

    @property
    def ai_game_caps(self) -> Caps:
        return Caps(self.ai_games_per_client, self.ai_games_per_account, self.ai_games_per_address)


@dataclass(eq=False)
class LiveGame(RowCopy):
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

    def broadcast(self) -> None:
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


def public_fields(live: LiveGame) -> dict[str, Any]:
    """What everyone watching the game sees, but the history (kept as text by the game)."""
    row, board = live.row, live.board
    playing = row.result is None and row.mode != "review"
    return {
        "id": row.id,
        "game_type": row.game_type,
        "mode": row.mode,
        "look": row.look,
        "options": live.options_values(),
        "ai": {"level": row.ai_level, "color": row.ai_color} if row.mode == "ai" else None,
        "seats": {
            # taken: by a seat token, the AI, or an account (a ladder's bots hold no token)
            "white": row.white_token is not None or row.ai_color == 0 or row.white_user is not None,
            "black": row.black_token is not None or row.ai_color == 1 or row.black_user is not None,
        },
        "ply": board["ply"],
        "turn": board["turn"],
        "turn_number": board["turn_number"],
        "hands": board["hands"],
        "must_place_queen": board["must_place_queen"] and row.result is None,
        "must_pass": board["must_pass"] and playing,
        "result": row.result,
        "end_reason": row.end_reason,
        "draw_offer": row.draw_offer,
        "ai_thinking": live.ai_thinking,
        # why the AI did not move: a code to translate, and the English text (the fallback)
        "ai_error": live.ai_error.message if live.ai_error else None,
        "ai_error_code": live.ai_error.code if live.ai_error else None,
        "spectators": live.spectators,
        "headers": row.headers,
        "players": live.players,
        "rated": row.rated,
        "rematch_offer": row.rematch_offer,
        "rematch_game": row.rematch_game,
        "takebacks": row.takebacks,
        "takeback_offer": row.takeback_offer,
        **clock_fields(row),
    }
