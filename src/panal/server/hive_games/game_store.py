"""Hive games in the database: the ``games`` and ``moves`` tables (one row per ply, in UHP
notation), the clocks' heartbeat, and :class:`GameStore`, the store with the games' reads and
writes. A game is rebuilt by replaying its moves through :class:`panal.hive.Game`, so the
database never holds anything the rules engine has not checked.

Every change names the game's ``version`` it was computed from and goes through the one
compare-and-set of :mod:`panal.server.database.store` (on PostgreSQL, a move is one statement whose
``RETURNING`` row feeds the moves' ``INSERT``); ``(game_id, ply)`` is the moves' primary key.
Claiming a seat with an invitation is a conditional ``UPDATE`` on the invitation code: exactly
one winner.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, and_, bindparam, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from panal.hive import OPTION_SPECS, Options
from panal.server.database.columns import (
    created_at_column,
    id_column,
    time_column,
    updated_at_column,
)
from panal.server.database.store import (
    AppendLog,
    ChangeWrite,
    Store,
    logged_change,
    metadata,
    newest_first,
    row_fields,
)
from panal.server.hive_games.archive_filter import ArchiveFilter
from panal.server.hive_games.clock import ClockState, TimeControl
from panal.server.room.tokens import new_id

__all__ = [
    "IMPORT_BATCH",
    "GameRow",
    "GameStore",
    "GameWrite",
    "Guard",
    "clock_values",
    "games_table",
    "insert_game",
    "online_game",
    "rule_columns",
    "rule_headers",
]

#: A check run first in a new row's transaction, which refuses it by raising (the caps).
Guard = Callable[[Connection], object]
IMPORT_BATCH = 1_000  # moves written per transaction when a long record is stored
IMPORTING = "importing"  # the mode of a game whose moves are still being written
CLOCK_HEARTBEAT = "clocks"  # the heartbeats row that tells when a server process last ran

games_table = sa.Table(
    "games",
    metadata,
    id_column(),
    created_at_column(),
    updated_at_column(),
    sa.Column("game_type", sa.String(16), nullable=False),
    sa.Column("tournament_opening", sa.Boolean, nullable=False),
    sa.Column("repetition_draw", sa.Boolean, nullable=False),
    sa.Column("dragonfly_gates", sa.Boolean, nullable=False, default=False),
    sa.Column("mode", sa.String(12), nullable=False),
    sa.Column("look", sa.String(12), nullable=False),
    sa.Column("ai_level", sa.String(32)),
    sa.Column("ai_color", sa.Integer),
    sa.Column("white_token", sa.String(64)),
    sa.Column("black_token", sa.String(64)),
    sa.Column("invite_code", sa.String(64)),
    sa.Column("result", sa.String(16)),
    sa.Column("end_reason", sa.String(16)),
    sa.Column("draw_offer", sa.Integer),
    sa.Column("plies", sa.Integer, nullable=False),
    sa.Column("headers", sa.Text),
    sa.Column("version", sa.Integer, nullable=False, default=0),
    sa.Column("owner", sa.String(64)),
    # Players (revision 0004_players): accounts on each side, rated or casual, the clock.
    sa.Column("white_user", sa.Integer),
    sa.Column("black_user", sa.Integer),
    sa.Column("rated", sa.Boolean, nullable=False, default=False),
    sa.Column("time_control", sa.String(64)),  # TimeControl.to_json as text; NULL: untimed
    sa.Column("white_clock", sa.Float),  # seconds left when the side's clock last stopped
    sa.Column("black_clock", sa.Float),
    time_column("clock_since", nullable=True),  # when the running clock started (NULL: none runs)
    time_column("deadline", nullable=True),  # when the running clock's time runs out
    sa.Column("rematch_offer", sa.Integer),  # the colour offering a rematch
    sa.Column("rematch_game", sa.String(16)),  # the rematch, once agreed
    sa.Index("games_by_update", "updated_at"),
    sa.Index("games_open_by_mode", "mode", "result", "owner"),
    sa.Index("games_by_white_user", "white_user", "updated_at"),
    sa.Index("games_by_black_user", "black_user", "updated_at"),
    # The creator's client (revision 0007_fairness; panal.server.http.clients), AI games only.
    sa.Column("client", sa.String(64)),
    sa.Index("games_by_deadline", "deadline"),
    sa.Index("games_open_by_client", "mode", "result", "client"),
    # The clock's speed (revision 0013_social), for the archive's filter; NULL: untimed.
    sa.Column("speed", sa.String(16)),
    sa.Index("games_finished_by_speed", "speed", "updated_at"),
    # Takebacks (revision 0017_challenge): allowed by the challenge; the colour proposing one.
    sa.Column("takebacks", sa.Boolean, nullable=False, default=False),
    sa.Column("takeback_offer", sa.Integer),
)

#: One row per clock-keeping heartbeat: the last moment a server process was known to run.
heartbeats_table = sa.Table(
    "heartbeats",
    metadata,
    sa.Column("name", sa.String(16), primary_key=True),
    time_column("at"),
)

moves_table = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("move", sa.String(64), nullable=False),
    time_column("played_at"),
)

# The row's fields that a change may set (never the id, the rules or the creation time).
MUTABLE_FIELDS = frozenset(
    {
        "white_token",
        "black_token",
        "invite_code",
        "result",
        "end_reason",
        "draw_offer",
        "plies",
        "white_clock",
        "black_clock",
        "clock_since",
        "deadline",
        "rematch_offer",
        "rematch_game",
        "takeback_offer",
        "white_user",  # a guest's seat claimed by the account it signed up
        "black_user",
    }
)


@dataclass
class GameRow:
    """A game's row: everything but its moves. Tokens are stored as SHA-256 hashes."""

    id: str
    game_type: str
    mode: str
    tournament_opening: bool = False
    repetition_draw: bool = True
    dragonfly_gates: bool = False
    look: str = "classic"
    ai_level: str | None = None
    ai_color: int | None = None
    white_token: str | None = None
    black_token: str | None = None
    invite_code: str | None = None
    result: str | None = None
    end_reason: str | None = None
    draw_offer: int | None = None
    plies: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    version: int = 0
    owner: str | None = None
    white_user: int | None = None
    black_user: int | None = None
    rated: bool = False
    time_control: str | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    clock_since: float | None = None
    deadline: float | None = None
    rematch_offer: int | None = None
    rematch_game: str | None = None
    client: str | None = None
    takebacks: bool = False
    takeback_offer: int | None = None

    @property
    def rules(self) -> Options:
        """The game's rule options: two columns, and the others as the PGN tags in ``headers``.

        ``dragonfly_gates`` is the column of games stored before the Dragonfly had two options
        for it (gaps and contact): true reads as both.
        """
        values: dict[str, bool | str] = {
            "tournament_opening": self.tournament_opening,
            "repetition_draw": self.repetition_draw,
        }
        if self.dragonfly_gates:
            values.update(dragonfly_gaps=True, dragonfly_contact=True)
        for spec in _OPTIONS_IN_HEADERS:
            if spec.uhp in self.headers:
                values[spec.name] = spec.parse(self.headers[spec.uhp])
        return Options.from_values(values)

    @property
    def control(self) -> TimeControl | None:
        """The game's time control (``None``: untimed)."""
        if self.time_control is None:
            return None
        return TimeControl.from_json(json.loads(self.time_control))

    @property
    def clock(self) -> ClockState | None:
        """The clocks as stored (``None``: untimed); the running one is the side to move's, and
        no time runs before each side's first move (the first two plies)."""
        control = self.control
        if control is None or self.white_clock is None or self.black_clock is None:
            return None
        running = self.plies % 2 if self.clock_since is not None else None
        return ClockState(
            (self.white_clock, self.black_clock),
            self.clock_since,
            running,
            first_moves=max(0, 2 - self.plies),
            first_move_window=control.first_move_window,
        )

    def set_clock(self, control: TimeControl, clock: ClockState) -> None:
        """Give the game a time control and its clocks' state."""
        self.time_control = json.dumps(control.to_json(), separators=(",", ":"))
        for name, value in clock_values(clock).items():
            setattr(self, name, value)

    def users(self) -> tuple[int | None, int | None]:
        return (self.white_user, self.black_user)

    def to_columns(self) -> dict[str, Any]:
        values = asdict(self)
        values["headers"] = json.dumps(self.headers) if self.headers else None
        control = self.control
        values["speed"] = control.speed if control is not None else None
        return values

    @classmethod
    def from_columns(cls, values: Any) -> GameRow:
        data = row_fields(cls, values)
        data["headers"] = json.loads(data["headers"]) if data["headers"] else {}
        return cls(**data)


def online_game(
    game_type: str,
    options: Options,
    look: str,
    *,
    tokens: tuple[str | None, str | None],
    users: tuple[int | None, int | None],
    rated: bool,
    control: TimeControl | None,
    now: float,
    takebacks: bool = False,
) -> GameRow:
    """A new online game between two players (a challenge accepted, a rematch agreed): their
    seats' token hashes and accounts, white's first; its clock, if any, runs from ``now``;
    ``takebacks``: whether a player may propose to take back a move."""
    row = GameRow(
        id=new_id(),
        game_type=game_type,
        mode="online",
        **rule_columns(options),
        look=look,
        white_token=tokens[0],
        black_token=tokens[1],
        white_user=users[0],
        black_user=users[1],
        rated=rated,
        takebacks=takebacks,
    )
    if control is not None:
        row.set_clock(control, ClockState.new(control).started(now))
    return row


def clock_values(clock: ClockState) -> dict[str, Any]:
    """The game row's clock fields for a clock's state."""
    return {
        "white_clock": clock.left[0],
        "black_clock": clock.left[1],
        "clock_since": clock.since,
        "deadline": clock.deadline,
    }


# Rule options without a column of their own travel in ``headers``, as the tags that carry them in
# a PGN record (``DragonflySidestep: Backward``): an exported record then carries them too.
_OPTIONS_IN_HEADERS = tuple(
    spec for spec in OPTION_SPECS if spec.name not in ("tournament_opening", "repetition_draw")
)


def rule_columns(options: Options) -> dict[str, Any]:
    """A new game row's fields for its rule options (two columns; the others in ``headers``)."""
    return {
        "tournament_opening": options.tournament_opening,
        "repetition_draw": options.repetition_draw,
        "dragonfly_gates": False,
        "headers": rule_headers(options, {}),
    }


def rule_headers(options: Options, headers: dict[str, str]) -> dict[str, str]:
    """``headers`` with the rule-option tags replaced by those of ``options`` (changed ones)."""
    changed = options.changed()
    out = {name: value for name, value in headers.items() if name not in _OPTION_TAGS}
    for spec in _OPTIONS_IN_HEADERS:
        if spec.name in changed:
            out[spec.uhp] = spec.uhp_value(changed[spec.name])
    return out


_OPTION_TAGS = frozenset(spec.uhp for spec in _OPTIONS_IN_HEADERS)


_TAKE_BACK = delete(moves_table).where(
    moves_table.c.game_id == bindparam("b_id"), moves_table.c.ply > bindparam("b_ply")
)
#: A game's moves, as a change appends them.
MOVES = AppendLog(moves_table, "game_id", ("ply", "move"), ("played_at",))


@dataclass(frozen=True)
class GameWrite:
    """One change to a game, as :meth:`GameStore.change` writes it.

    ``values`` sets row fields (see ``MUTABLE_FIELDS``); ``keep_plies`` deletes the moves after
    that ply (an undo); ``add_moves`` appends moves after the stored ones, numbered from
    ``values["plies"] - len(add_moves) + 1``; ``also`` makes more writes in the same transaction
    once the change is sure to be written (a rated game's ratings, a rematch's new game)."""

    values: dict[str, Any]
    add_moves: tuple[str, ...] = ()
    keep_plies: int | None = None
    also: Callable[[Connection], object] | None = None


class GameStore(Store):
    """The store with Hive games' reads and writes (short synchronous transactions, run by the
    server in the store's threads; the per-move write also on the event loop)."""

    # --- games -----------------------------------------------------------------------------

    def create_game(self, row: GameRow, moves: list[str], guard: Guard | None = None) -> None:
        """Store a new game and its moves in one transaction (see ``begin_import`` for a long
        record); ``guard`` runs first in it (and may refuse it by raising)."""
        with self.engine.begin() as conn:
            if guard is not None:
                guard(conn)
            insert_game(conn, row, moves)

    # A long record is written in short transactions, each its own call, so that other games'
    # moves are written between them (SQLite has one writer). Until ``finish_import`` the game's
    # mode is ``importing``: nothing lists, loads or plays it.

    def begin_import(self, row: GameRow, guard: Guard | None = None) -> None:
        with self.engine.begin() as conn:
            if guard is not None:
                guard(conn)
            conn.execute(insert(games_table).values(**{**row.to_columns(), "mode": IMPORTING}))

    def import_moves(self, game_id: str, first_ply: int, moves: list[str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(moves_table), _move_rows(game_id, first_ply, moves))

    def finish_import(self, game_id: str, mode: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(games_table).where(games_table.c.id == game_id).values(mode=mode))

    def drop_stale_imports(self, before: float) -> int:
        """Delete the games still being imported that began before ``before``: their process
        died half-way (a long record is written in batches, so that the database is not held
        by one long transaction). How many."""
        with self.engine.begin() as conn:
            stale = select(games_table.c.id).where(
                games_table.c.mode == IMPORTING, games_table.c.created_at < before
            )
            ids = list(conn.execute(stale).scalars())
            if ids:
                conn.execute(delete(moves_table).where(moves_table.c.game_id.in_(ids)))
                conn.execute(delete(games_table).where(games_table.c.id.in_(ids)))
        return len(ids)

    def load_game(self, game_id: str) -> tuple[GameRow, list[str]] | None:
        with self.consistent_reads() as conn:
            found = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if found is None:
                return None
            moves = conn.execute(
                select(moves_table.c.move)
                .where(moves_table.c.game_id == game_id)
                .order_by(moves_table.c.ply)
            ).scalars()
            return GameRow.from_columns(found._mapping), list(moves)

    def load_row(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
        return None if found is None else GameRow.from_columns(found._mapping)

    def version_of(self, game_id: str) -> int | None:
        return self.stored_version(games_table, game_id)

    def change(self, game_id: str, version: int, change: GameWrite) -> int:
        """Apply one change to a game computed from ``version``; returns the new version.
        Raises :class:`Conflict` (nothing written) when the stored version is not ``version``
        any more."""
        return self.write(self.change_write(game_id, version, change))

    async def change_async(self, game_id: str, version: int, change: GameWrite) -> int:
        """:meth:`change` without blocking the event loop: on PostgreSQL on the loop itself
        (one statement: :meth:`execute_once_async`; else :meth:`transact_async`), on SQLite in
        the store's thread."""
        return await self.write_async(self.change_write(game_id, version, change))

    def change_write(self, game_id: str, version: int, change: GameWrite) -> ChangeWrite:
        """The writes of :meth:`change`. On PostgreSQL a change that neither takes moves back
        nor writes more (``also``) is one statement: the compare-and-set, with the moves it
        adds inserted from its ``RETURNING`` row."""
        unknown = set(change.values) - MUTABLE_FIELDS
        if unknown:
            raise ValueError(f"not changeable: {sorted(unknown)}")
        now = time.time()
        added = change.add_moves
        first = int(change.values["plies"]) - len(added) + 1 if added else 0
        moves = [{"ply": first + i, "move": move} for i, move in enumerate(added)]
        keep = change.keep_plies
        return logged_change(
            games_table,
            game_id,
            version,
            change.values,
            now,
            MOVES,
            moves,
            {"played_at": now},
            one_statement=not self.is_sqlite,
            before_rows=None
            if keep is None
            else lambda conn: conn.execute(_TAKE_BACK, {"b_id": game_id, "b_ply": keep}),
            after_rows=change.also,
        )

    def claim_seat(
        self,
        game_id: str,
        invite_code: str,
        color: str,
        token_hash: str,
        values: dict[str, Any] | None = None,
    ) -> bool:
        """Give the open seat to the holder of the invitation, once: True for the one winner.
        ``values`` are set with it (the joiner's account; the clock, which starts now)."""
        column = games_table.c.white_token if color == "white" else games_table.c.black_token
        with self.engine.begin() as conn:
            updated = conn.execute(
                update(games_table)
                .where(
                    games_table.c.id == game_id,
                    games_table.c.invite_code == invite_code,
                    column.is_(None),
                )
                .values(
                    {
                        column.name: token_hash,
                        "invite_code": None,
                        "version": games_table.c.version + 1,
                        "updated_at": time.time(),
                        **(values or {}),
                    }
                )
            )
            return updated.rowcount == 1

    # --- clocks ----------------------------------------------------------------------------

    def due_games(self, now: float, limit: int = 100) -> list[str]:
        """Unfinished games whose running clock's time is up at ``now`` (an indexed read)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(games_table.c.id)
                    .where(games_table.c.deadline <= now, games_table.c.result.is_(None))
                    .order_by(games_table.c.deadline)
                    .limit(limit)
                ).scalars()
            )

    def heartbeat(self, now: float, outage: float) -> tuple[float, list[str]]:
        """Note that a server process runs at ``now``. If none did for more than ``outage``
        seconds (every process was stopped: a restart, a crash), give that time back to every
        running clock, once, whichever process notices first. Returns the time given back and
        the games whose clocks it moved (their versions are bumped: cached copies reload)."""
        with self.engine.begin() as conn:
            seen = conn.execute(
                select(heartbeats_table.c.at).where(heartbeats_table.c.name == CLOCK_HEARTBEAT)
            ).scalar_one_or_none()
            if seen is None:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(heartbeats_table).values(name=CLOCK_HEARTBEAT, at=now))
                except IntegrityError:
                    pass  # another process wrote the first heartbeat
                return 0.0, []
            if now <= seen:
                return 0.0, []
            beat = conn.execute(
                update(heartbeats_table)
                .where(heartbeats_table.c.name == CLOCK_HEARTBEAT, heartbeats_table.c.at == seen)
                .values(at=now)
            )
            gap = now - seen
            if beat.rowcount != 1 or gap <= outage:
                return 0.0, []  # another process beat first, or there was no outage
            running = (
                games_table.c.result.is_(None),
                games_table.c.deadline.is_not(None),
                games_table.c.clock_since <= seen,
            )
            credited = list(conn.execute(select(games_table.c.id).where(*running)).scalars())
            if credited:
                conn.execute(
                    update(games_table)
                    .where(*running)
                    .values(
                        clock_since=games_table.c.clock_since + gap,
                        deadline=games_table.c.deadline + gap,
                        version=games_table.c.version + 1,
                    )
                )
            return gap, credited

    # --- listings --------------------------------------------------------------------------

    def archive(
        self, limit: int, offset: int, where: ArchiveFilter | None = None
    ) -> tuple[int, list[GameRow]]:
        """Finished games and imported records, newest first; those ``where`` keeps."""
        finished = or_(games_table.c.result.is_not(None), games_table.c.mode == "review")
        if where is not None:
            finished = and_(finished, *where.conditions(games_table))
        total, rows = newest_first(self.engine, games_table, finished, limit, offset)
        return total, [GameRow.from_columns(row) for row in rows]

    def unfinished_ai_games(self, since: float = 0.0) -> list[str]:
        """AI games without a result changed after ``since`` (the AI may owe a move)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(games_table.c.id).where(
                        games_table.c.mode == "ai",
                        games_table.c.result.is_(None),
                        games_table.c.updated_at > since,
                    )
                ).scalars()
            )


def insert_game(conn: Connection, row: GameRow, moves: Sequence[str] = ()) -> None:
    """Write a new game's row and its first moves in the caller's transaction (a game created
    with other writes: a challenge accepted, a rematch agreed, a ladder's pair)."""
    conn.execute(insert(games_table).values(**row.to_columns()))
    if moves:
        conn.execute(insert(moves_table), _move_rows(row.id, 1, list(moves)))


def _move_rows(game_id: str, first_ply: int, moves: list[str]) -> list[dict[str, Any]]:
    now = time.time()
    return [
        {"game_id": game_id, "ply": ply, "move": move, "played_at": now}
        for ply, move in enumerate(moves, first_ply)
    ]
