"""Enjambre Tácticas tables in the database: the table, its seats, its games and their logs.

A table is stored as the engine's action log (:class:`panal.enjambre.GameLog`): for each game of
the table its seed and first player, and every action in order, one row each, keyed by
``(table, game, ply)``. Nothing else about a game is stored: every process rebuilds a table by
replaying its log through :class:`panal.enjambre.Game`, so the database never holds anything the
rules engine has not checked.

**Compare-and-set**, as for Hive games (:mod:`panal.server.database.store`): every change names the
table's ``version`` it was computed from; the write bumps the version only where it still
matches, in the same transaction as the actions it adds, and a ply already stored is a primary
key violation. A change computed from a stale copy raises :class:`Conflict` and writes nothing:
an action is accepted only if it extends the stored log. Taking a seat with an invitation is a
conditional update on the seat: exactly one winner.

Seat tokens, the host's token and invitation codes are stored as SHA-256 hashes. Every method is
synchronous and short; the server calls them from the store's threads, off the event loop, except
:meth:`TableStore.change_async` (every action): on PostgreSQL it waits on the event loop (see
:meth:`panal.server.database.store.Store.transact_async`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, delete, exists, func, insert, or_, select, update

from panal.server.database.columns import (
    account_column,
    created_at_column,
    id_column,
    time_column,
    updated_at_column,
)
from panal.server.database.store import (
    AppendLog,
    ChangeWrite,
    Conflict,
    Store,
    logged_change,
    metadata,
    newest_first,
    row_fields,
)
from panal.server.ratings.rating_store import TABLE_CATEGORY, rate_table_game, shown_table_ratings

__all__ = [
    "GameHeader",
    "SeatRow",
    "TableRow",
    "TableStore",
    "TableWrite",
    "insert_table",
    "seats_table",
    "tables_table",
]

tables_table = sa.Table(
    "enjambre_tables",
    metadata,
    id_column(),
    created_at_column(),
    updated_at_column(),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("mode", sa.String(12), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("host_token", sa.String(64), nullable=False),
    sa.Column("replace_after", sa.Float),
    sa.Column("waiting_for", sa.String(32)),
    sa.Column("version", sa.Integer, nullable=False, default=0),
    sa.Column("rated", sa.Boolean, nullable=False, default=False),
    # Its creator's address, client and account (revision 0007_fairness; http.clients).
    sa.Column("owner", sa.String(64)),
    sa.Column("client", sa.String(64)),
    sa.Column("creator", sa.Integer),
    sa.Index("enjambre_tables_by_status", "status", "updated_at"),
    sa.Index("enjambre_tables_open_by_owner", "status", "owner"),
    sa.Index("enjambre_tables_open_by_client", "status", "client"),
)


def _part_of_table(name: str, *columns: sa.schema.SchemaItem) -> sa.Table:
    """A table of rows that belong to one Enjambre table (its seats, its games, their actions),
    keyed first by that table."""
    owner = sa.Column(
        "table_id", sa.String(16), sa.ForeignKey("enjambre_tables.id"), primary_key=True
    )
    return sa.Table(name, metadata, owner, *columns)


seats_table = _part_of_table(
    "enjambre_seats",
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(16)),
    sa.Column("token", sa.String(64)),
    sa.Column("invite", sa.String(64)),
    sa.Column("name", sa.String(40)),
    time_column("seen_at", nullable=True),
    sa.Column("replaced", sa.Boolean, nullable=False, default=False),
    account_column(nullable=True),
)

games_table = _part_of_table(
    "enjambre_games",
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("first_player", sa.Integer, nullable=False),
    sa.Column("result", sa.Text),
)

actions_table = _part_of_table(
    "enjambre_actions",
    sa.Column("game", sa.Integer, primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    time_column("played_at"),
)

TABLE_FIELDS = frozenset({"status", "waiting_for", "replace_after"})
SEAT_FIELDS = frozenset({"kind", "bot", "token", "invite", "name", "replaced"})


@dataclass
class TableRow:
    """A table's row. ``options`` is :meth:`panal.enjambre.Options.to_dict`; ``waiting_for``
    lists the seats the game waits for now (comma-separated), for the time-out sweep."""

    id: str
    players: int
    mode: str
    options: dict[str, Any]
    games: int
    status: str
    host_token: str
    replace_after: float | None = None
    waiting_for: str | None = None
    version: int = 0
    rated: bool = False  # every seat an account; each game's places change their ratings
    owner: str | None = None  # the creator's address, client and account (http.clients)
    client: str | None = None
    creator: int | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)

    def to_columns(self) -> dict[str, Any]:
        return {**asdict(self), "options": json.dumps(self.options, sort_keys=True)}

    @classmethod
    def from_columns(cls, values: Any) -> TableRow:
        data = row_fields(cls, values)
        data.update(options=json.loads(data["options"]), rated=bool(data["rated"]))
        return cls(**data)


@dataclass
class SeatRow:
    """A seat: a person (``token`` once taken, ``invite`` until then; ``user_id``, the account
    that took it, if any) or a bot at a level."""

    seat: int
    kind: str  # "person" or "bot"
    bot: str | None = None
    token: str | None = None
    invite: str | None = None
    name: str | None = None
    seen_at: float | None = None
    replaced: bool = False
    user_id: int | None = None

    def to_columns(self, table_id: str) -> dict[str, Any]:
        return {"table_id": table_id, **asdict(self)}

    @classmethod
    def from_columns(cls, values: Any) -> SeatRow:
        data = row_fields(cls, values)
        data["replaced"] = bool(data["replaced"])
        return cls(**data)


@dataclass
class GameHeader:
    """One game of a table: how it began (the log's seed and first player) and how it ended."""

    number: int
    seed: int
    first_player: int
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class LoadedTable:
    row: TableRow
    seats: list[SeatRow]
    games: list[GameHeader]
    actions: list[tuple[int, dict[str, Any]]]  # the current (last) game's log
    ratings: dict[int, str] = field(default_factory=dict)  # seated accounts' Enjambre ratings


@dataclass(frozen=True)
class TableWrite:
    """One change to a table, as :meth:`TableStore.change` writes it.

    ``values`` and ``seats`` set the table's and seats' fields; ``actions`` (player, action as a
    dict) extend game ``game``'s log from ply ``first_ply``; ``result`` ends that game, and
    ``rated_places`` (``{user_id: place}``) changes those accounts' Enjambre ratings in the same
    transaction (so once, whichever process writes it); ``next_game`` begins the next one;
    ``absent`` = (seat, cutoff) requires that seat's person to have been away since before
    ``cutoff`` (replacing a player who left)."""

    values: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    game: int = 0
    first_ply: int = 0
    actions: Sequence[tuple[int, dict[str, Any]]] = ()
    result: dict[str, Any] | None = None
    next_game: GameHeader | None = None
    absent: tuple[int, float] | None = None
    rated_places: dict[int, int] | None = None


#: A table's game's actions, as a change appends them.
ACTIONS = AppendLog(actions_table, "table_id", ("ply", "player", "action"), ("game", "played_at"))


def insert_table(
    conn: Connection, row: TableRow, seats: Sequence[SeatRow], first: GameHeader
) -> None:
    """Write a new table, its seats and its first game on ``conn``, in the caller's
    transaction (a table made by a tournament's round commits with the round)."""
    conn.execute(insert(tables_table).values(**row.to_columns()))
    conn.execute(insert(seats_table), [seat.to_columns(row.id) for seat in seats])
    conn.execute(
        insert(games_table).values(
            table_id=row.id,
            number=first.number,
            seed=first.seed,
            first_player=first.first_player,
        )
    )


class TableStore:
    """The Enjambre tables of a :class:`panal.server.database.store.Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.database = store
        self.engine = store.engine
        self.consistent_reads = store.consistent_reads

    # --- creating and loading --------------------------------------------------------------

    def create(
        self,
        row: TableRow,
        seats: Sequence[SeatRow],
        first: GameHeader,
        guard: Callable[[Connection], object] | None = None,
    ) -> None:
        """Store a new table; ``guard`` runs first in its transaction (and may refuse it)."""
        with self.engine.begin() as conn:
            if guard is not None:
                guard(conn)
            insert_table(conn, row, seats, first)

    def load(self, table_id: str) -> LoadedTable | None:
        with self.consistent_reads() as conn:
            found = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).first()
            if found is None:
                return None
            seats = conn.execute(
                select(seats_table)
                .where(seats_table.c.table_id == table_id)
                .order_by(seats_table.c.seat)
            ).all()
            games = conn.execute(
                select(games_table)
                .where(games_table.c.table_id == table_id)
                .order_by(games_table.c.number)
            ).all()
            headers = [_header(g._mapping) for g in games]
            current = headers[-1].number if headers else 0
            actions = self._actions(conn, table_id, current)
            seat_rows = [SeatRow.from_columns(s._mapping) for s in seats]
            ratings = shown_table_ratings(
                conn, [s.user_id for s in seat_rows if s.user_id is not None], TABLE_CATEGORY
            )
        return LoadedTable(
            TableRow.from_columns(found._mapping), seat_rows, headers, actions, ratings
        )

    def seat_ratings(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The accounts' Enjambre ratings as players read them ("1500?" while uncertain)."""
        with self.engine.connect() as conn:
            return shown_table_ratings(conn, user_ids, TABLE_CATEGORY)

    def game_log(self, table_id: str, number: int) -> tuple[GameHeader, list[Any]] | None:
        """One game's header and actions (for replays)."""
        with self.consistent_reads() as conn:
            found = conn.execute(
                select(games_table).where(
                    games_table.c.table_id == table_id, games_table.c.number == number
                )
            ).first()
            if found is None:
                return None
            return _header(found._mapping), self._actions(conn, table_id, number)

    @staticmethod
    def _actions(conn: Any, table_id: str, number: int) -> list[tuple[int, dict[str, Any]]]:
        rows = conn.execute(
            select(actions_table.c.player, actions_table.c.action)
            .where(actions_table.c.table_id == table_id, actions_table.c.game == number)
            .order_by(actions_table.c.ply)
        ).all()
        return [(row.player, json.loads(row.action)) for row in rows]

    def version_of(self, table_id: str) -> int | None:
        return self.database.stored_version(tables_table, table_id)

    # --- changing --------------------------------------------------------------------------

    def change(self, table_id: str, version: int, change: TableWrite) -> int:
        """Apply one change computed from ``version``; returns the new version. Raises
        :class:`Conflict`, writing nothing, when the stored version is not ``version`` any more
        or a condition of the change fails."""
        return self.database.write(self.change_write(table_id, version, change))

    async def change_async(self, table_id: str, version: int, change: TableWrite) -> int:
        """:meth:`change` without blocking the event loop (see
        :meth:`panal.server.database.store.Store.write_async`)."""
        return await self.database.write_async(self.change_write(table_id, version, change))

    def change_write(self, table_id: str, version: int, change: TableWrite) -> ChangeWrite:
        """The writes of :meth:`change`. On PostgreSQL actions that change no seat and end no
        game are one statement, as a Hive move is
        (:func:`panal.server.database.store.compare_and_set`)."""
        unknown = set(change.values) - TABLE_FIELDS
        for seat_values in change.seats.values():
            unknown |= set(seat_values) - SEAT_FIELDS
        if unknown:
            raise ValueError(f"not changeable: {sorted(unknown)}")
        now = time.time()
        actions = [
            {"ply": change.first_ply + index, "player": player, "action": _action_text(action)}
            for index, (player, action) in enumerate(change.actions)
        ]

        def seats_first(conn: Connection) -> None:
            if change.absent is not None:
                seat, cutoff = change.absent
                gone = conn.execute(
                    select(func.count()).where(
                        seats_table.c.table_id == table_id,
                        seats_table.c.seat == seat,
                        seats_table.c.kind == "person",
                        or_(seats_table.c.seen_at.is_(None), seats_table.c.seen_at < cutoff),
                    )
                ).scalar_one()
                if gone != 1:
                    raise Conflict(table_id)  # they came back: nothing is written
            for seat, seat_values in change.seats.items():
                conn.execute(
                    update(seats_table)
                    .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat)
                    .values(**seat_values)
                )

        def games_after(conn: Connection) -> None:
            if change.result is not None:
                conn.execute(
                    update(games_table)
                    .where(games_table.c.table_id == table_id, games_table.c.number == change.game)
                    .values(result=json.dumps(change.result))
                )
                if change.rated_places:
                    game_key = f"{table_id}/{change.game}"
                    rate_table_game(conn, game_key, TABLE_CATEGORY, change.rated_places)
            if change.next_game is not None:
                conn.execute(
                    insert(games_table).values(
                        table_id=table_id,
                        number=change.next_game.number,
                        seed=change.next_game.seed,
                        first_player=change.next_game.first_player,
                    )
                )

        # As a Hive move, actions that change no seat and end no game are one statement.
        return logged_change(
            tables_table,
            table_id,
            version,
            change.values,
            now,
            ACTIONS,
            actions,
            {"game": change.game, "played_at": now},
            one_statement=not self.database.is_sqlite,
            before_rows=seats_first if change.seats or change.absent is not None else None,
            after_rows=None if change.result is None and change.next_game is None else games_after,
        )

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        invite_hash: str,
        token_hash: str,
        name: str | None,
        user_id: int | None = None,
    ) -> bool:
        """Give an open seat to the holder of its invitation (and ``user_id``, their account),
        once: True for the one winner. An account takes one seat of a table at most."""
        now = time.time()
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.invite == invite_hash,
                    seats_table.c.token.is_(None),
                    seats_table.c.kind == "person",
                    *(() if user_id is None else (_not_seated(table_id, user_id),)),
                )
                .values(token=token_hash, invite=None, name=name, seen_at=now, user_id=user_id)
            )
            if taken.rowcount != 1:
                return False

            _seats_changed(conn, table_id, now)
            return True

    def account_seat(self, table_id: str, user_id: int, token_hash: str) -> int | None:
        """A new token for the seat held by the account (a series' table, seated by account;
        a new device takes over, the old token stops working); the seat, or None when the
        account holds no seat there a person still plays (a bot replaced a no-show)."""
        now = time.time()
        where = (
            (seats_table.c.table_id == table_id)
            & (seats_table.c.user_id == user_id)
            & (seats_table.c.kind == "person")
        )
        with self.engine.begin() as conn:
            seat = conn.execute(select(seats_table.c.seat).where(where)).scalar()
            if seat is None:
                return None
            conn.execute(update(seats_table).where(where).values(token=token_hash, seen_at=now))
            _seats_changed(conn, table_id, now)
        return int(seat)

    def touch(self, seats: Sequence[tuple[str, int]], now: float | None = None) -> None:
        """Players connected here are present: their seats' ``seen_at`` becomes now."""
        if not seats:
            return
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            for table_id in sorted({table for table, _ in seats}):
                conn.execute(
                    update(seats_table)
                    .where(
                        seats_table.c.table_id == table_id,
                        seats_table.c.seat.in_(sorted(s for t, s in seats if t == table_id)),
                    )
                    .values(seen_at=now)
                )

    # --- sweeping and listing --------------------------------------------------------------

    def waiting_on_seats(self, stalled_before: float) -> list[tuple[str, int, str, float | None]]:
        """Tables in play that wait for someone: (table, seat, kind, seen_at) for each seat they
        wait for, on tables that can replace players or have not moved since
        ``stalled_before``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    tables_table.c.id,
                    tables_table.c.waiting_for,
                    tables_table.c.replace_after,
                    tables_table.c.updated_at,
                ).where(
                    tables_table.c.status == "playing",
                    tables_table.c.waiting_for.is_not(None),
                    or_(
                        tables_table.c.replace_after.is_not(None),
                        tables_table.c.updated_at < stalled_before,
                    ),
                )
            ).all()
            wanted = {
                (row.id, int(seat)) for row in rows for seat in row.waiting_for.split(",") if seat
            }
            if not wanted:
                return []
            seats = conn.execute(
                select(
                    seats_table.c.table_id,
                    seats_table.c.seat,
                    seats_table.c.kind,
                    seats_table.c.seen_at,
                ).where(seats_table.c.table_id.in_(sorted({t for t, _ in wanted})))
            ).all()
        return [
            (s.table_id, s.seat, s.kind, s.seen_at) for s in seats if (s.table_id, s.seat) in wanted
        ]

    def finished(self, limit: int, offset: int) -> tuple[int, list[TableRow]]:
        """Finished tables, newest first (their games can be replayed)."""
        done = tables_table.c.status == "over"
        total, rows = newest_first(self.engine, tables_table, done, limit, offset)
        return total, [TableRow.from_columns(row) for row in rows]

    def delete_all(self) -> None:
        """Empty every Enjambre table (tests)."""
        with self.engine.begin() as conn:
            for table in (actions_table, games_table, seats_table, tables_table):
                conn.execute(delete(table))


def _action_text(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def _seats_changed(conn: Connection, table_id: str, now: float) -> None:
    """A seat changed outside a compare-and-set change (taken with an invitation, or by an
    account): the table's version moves on as with any change, so that a copy read before it
    no longer matches the database."""
    conn.execute(
        update(tables_table)
        .where(tables_table.c.id == table_id)
        .values(version=tables_table.c.version + 1, updated_at=now)
    )


def _not_seated(table_id: str, user_id: int) -> Any:
    """The condition that the account has no seat at the table yet."""
    other = seats_table.alias("other")
    return ~exists().where(other.c.table_id == table_id, other.c.user_id == user_id)


def _header(values: Any) -> GameHeader:
    result = values["result"]
    return GameHeader(
        number=values["number"],
        seed=int(values["seed"]),
        first_player=values["first_player"],
        result=json.loads(result) if result else None,
    )
