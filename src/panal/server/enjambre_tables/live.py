"""An Enjambre table as one process holds it: its rows, its seats, its games and the current
game rebuilt from the stored action log; and each websocket's connection to it."""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from panal.enjambre import Game, Options
from panal.enjambre.state import Phase
from panal.server.enjambre_tables.table_store import GameHeader, SeatRow, TableRow
from panal.server.http.clients import Caps
from panal.server.room.core import RowCopy
from panal.server.room.outbox import Outbox
from panal.server.room.tokens import hash_token

__all__ = ["REPLACEMENT_BOT", "LiveTable", "TableConnection", "TableLimits"]

REPLACEMENT_BOT = "heuristic"  # the bot that takes the seat of a player who left


@dataclass(frozen=True)
class TableLimits:
    """Pacing and housekeeping of tables (tests shorten them)."""

    bot_pause: float = 0.7  # between two actions of a bot's turn, so that people can follow it
    presence_seconds: float = 10.0  # how often a process records who is connected to it
    sweep_seconds: float = 5.0  # how often a process looks for stalled tables and leavers
    stall_seconds: float = 30.0  # a table waiting this long for a bot gets its job again
    min_replace_after: float = 30.0  # the shortest time-out a host may choose
    cached_tables: int = 1_000
    # Open tables with bots per client, account and address (enjambre_tables.bot_capacity).
    bot_tables_per_client: int = 2
    bot_tables_per_account: int = 2
    bot_tables_per_address: int = 8
    replays_cached: int = 32

    @property
    def bot_table_caps(self) -> Caps:
        return Caps(
            self.bot_tables_per_client, self.bot_tables_per_account, self.bot_tables_per_address
        )


class TableConnection(Outbox):
    """One websocket on a table: the seats its token holds, what it looks at, its outbox.

    States are not queued: a change marks the connection, and its sender builds the state
    (``build``) when it is ready to send it, so a browser that falls behind receives the latest
    state (with every event it has not seen yet), never a backlog.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        seats: frozenset[int],
        host: bool,
        build: Callable[[TableConnection], str],
    ) -> None:
        super().__init__(send)
        self.seats = seats
        self.host = host
        self.build = build
        self.looking: int | None = None  # pass-the-screen: whose view this device shows
        self.events_game = -1  # the game whose events were sent, and how many
        self.events_sent = 0
        self.dirty = False

    def refresh(self) -> None:
        """The table changed: send a new state when the sender is free."""
        if not self.closed:
            self.dirty = True
            self.wake()

    def has_state(self) -> bool:
        return self.dirty

    def take_state(self) -> str:
        self.dirty = False
        return self.build(self)


@dataclass(eq=False)
class LiveTable(RowCopy):
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
