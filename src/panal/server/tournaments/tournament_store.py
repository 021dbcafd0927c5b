"""Tournaments in the database: ``tournaments``, ``tournament_players`` and
``tournament_pairings``, and :class:`TournamentStore`, their reads and writes.

Every change to a tournament (a registration, a withdrawal, a start, a round paired, the end)
bumps its ``version`` by compare-and-set (:func:`panal.server.database.store.bump_version`) in
the transaction that makes it, and a pairing's primary key is ``(tournament, round, player)``:
however many processes compute the next round at once, one transaction writes it and its games,
and the others write nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from panal.hive import Options
from panal.server.database.store import Conflict, bump_version, metadata, row_fields
from panal.server.enjambre_tables.series import SeriesTable, account_places, insert_table
from panal.server.hive_games.clock import TimeControl
from panal.server.hive_games.game_store import GameRow, games_table, insert_game

__all__ = [
    "FORMATS",
    "Pairing",
    "Snapshot",
    "TournamentRow",
    "TournamentStore",
]

FORMATS = ("round_robin", "swiss", "arena", "series")
REGISTERING, RUNNING, FINISHED = "registering", "running", "finished"

tournaments_table = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(60), nullable=False),
    Column("format", String(12), nullable=False),
    Column("cycles", Integer, nullable=False),  # a round robin's: 1 single, 2 double
    Column("rounds", Integer),  # a Swiss's as declared; a round robin's from its players
    Column("minutes", Integer),  # an arena's length
    Column("game_type", String(16), nullable=False),
    # the rule options of every game, JSON {name: value} of those not panal's default (0014)
    Column("options", String(400), nullable=False, server_default="{}"),
    Column("time_control", String(64), nullable=False),  # one clock for every game
    Column("rated", Boolean, nullable=False),
    Column("max_players", Integer, nullable=False),
    Column("starts_at", Float),  # NULL: started by hand, or when full
    Column("start_when_full", Boolean, nullable=False),
    Column("no_show_seconds", Float, nullable=False),
    Column("creator_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("status", String(12), nullable=False),
    Column("round", Integer, nullable=False),
    Column("round_started_at", Float),
    Column("ends_at", Float),  # an arena's end
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Index("tournaments_by_status", "status", "starts_at"),
)

tournament_players_table = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("joined_at", Float, nullable=False),
    Column("withdrawn", Boolean, nullable=False),
)

tournament_pairings_table = Table(
    "tournament_pairings",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("board", Integer, nullable=False),  # the pairing list's order, from 1
    Column("opponent_id", Integer),  # NULL: a bye
    Column("color", Integer),  # 0 White, 1 Black; NULL: a bye
    Column("game_id", String(16), ForeignKey("games.id")),  # NULL: a bye or a forfeit
    Column("points", Float),  # a bye's or a forfeit's, set when paired; a game's: its result
    Column("counted", Boolean, nullable=False),  # an arena's games unfinished at its end: not
    # a series' round: the Enjambre table its players sit at (0019_etourney)
    Column("table_id", String(16), ForeignKey("enjambre_tables.id")),
    Index("tournament_pairings_by_game", "game_id"),
)


@dataclass
class TournamentRow:
    id: str
    name: str
    format: str
    cycles: int
    rounds: int | None
    minutes: int | None
    game_type: str
    time_control: str
    rated: bool
    max_players: int
    starts_at: float | None
    start_when_full: bool
    no_show_seconds: float
    creator_id: int
    options: str = "{}"
    status: str = REGISTERING
    round: int = 0
    round_started_at: float | None = None
    ends_at: float | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    version: int = 0

    @property
    def rules(self) -> Options:
        """The rule options every game is played with."""
        return Options.from_values(json.loads(self.options))

    @property
    def control(self) -> TimeControl:
        control = TimeControl.from_json(json.loads(self.time_control))
        assert control is not None
        return control


@dataclass(frozen=True)
class Pairing:
    """One player's row of one round, and its game's state as stored."""

    round: int
    player: int
    opponent: int | None
    color: int | None
    game_id: str | None
    points: float | None
    counted: bool
    result: str | None = None  # the game's: WhiteWins, BlackWins, Draw
    end_reason: str | None = None
    plies: int = 0
    game_updated_at: float | None = None
    table_id: str | None = None  # a series' round: the Enjambre table (then no game)


@dataclass
class Snapshot:
    """A tournament as one consistent read: its row, players (seed order) and pairings."""

    row: TournamentRow
    players: list[tuple[int, bool]]  # (user id, withdrawn), by registration
    pairings: list[Pairing]
    # a series' finished tables: {table: {user id: place}}, 1 the best
    places: dict[str, dict[int, int]] = field(default_factory=dict)

    def active(self) -> list[int]:
        return [p for p, withdrawn in self.players if not withdrawn]


class TournamentStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, row: TournamentRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tournaments_table).values(**asdict(row)))

    def load(self, tournament_id: str) -> Snapshot | None:
        with self.engine.begin() as conn:  # one transaction: one consistent read
            found = conn.execute(
                select(tournaments_table).where(tournaments_table.c.id == tournament_id)
            ).first()
            if found is None:
                return None
            row = TournamentRow(**row_fields(TournamentRow, found._mapping))
            players = conn.execute(
                select(tournament_players_table.c.user_id, tournament_players_table.c.withdrawn)
                .where(tournament_players_table.c.tournament_id == tournament_id)
                .order_by(tournament_players_table.c.joined_at, tournament_players_table.c.user_id)
            ).all()
            p, g = tournament_pairings_table.c, games_table.c
            pairings = conn.execute(
                select(
                    p.round,
                    p.user_id,
                    p.opponent_id,
                    p.color,
                    p.game_id,
                    p.points,
                    p.counted,
                    g.result,
                    g.end_reason,
                    g.plies,
                    g.updated_at,
                    p.table_id,
                )
                .select_from(tournament_pairings_table.outerjoin(games_table, g.id == p.game_id))
                .where(p.tournament_id == tournament_id)
                .order_by(p.round, p.board, p.color)
            ).all()
            places = account_places(conn, [r.table_id for r in pairings if r.table_id])
        return Snapshot(
            row,
            [(user, bool(withdrawn)) for user, withdrawn in players],
            [
                Pairing(
                    round=r.round,
                    player=r.user_id,
                    opponent=r.opponent_id,
                    color=r.color,
                    game_id=r.game_id,
                    points=r.points,
                    counted=bool(r.counted),
                    result=r.result,
                    end_reason=r.end_reason,
                    plies=r.plies or 0,
                    game_updated_at=r.updated_at,
                    table_id=r.table_id,
                )
                for r in pairings
            ],
            places,
        )

    def listing(self, limit: int = 50) -> list[tuple[TournamentRow, int]]:
        """Tournaments registering or running, then the latest finished; with player counts."""
        t = tournaments_table.c
        count = (
            select(func.count())
            .where(
                tournament_players_table.c.tournament_id == t.id,
                tournament_players_table.c.withdrawn.is_(False),
            )
            .scalar_subquery()
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tournaments_table, count.label("players"))
                .order_by((t.status == FINISHED).asc(), t.created_at.desc())
                .limit(limit)
            ).all()
        return [
            (
                TournamentRow(**row_fields(TournamentRow, r._mapping)),
                int(r._mapping["players"]),
            )
            for r in rows
        ]

    def to_advance(self, now: float) -> list[str]:
        """Tournaments the tick looks at: running, or registering and due to start."""
        t = tournaments_table.c
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(t.id).where(
                        or_(
                            t.status == RUNNING,
                            (t.status == REGISTERING)
                            & (t.starts_at.is_not(None) & (t.starts_at <= now) | t.start_when_full),
                        )
                    )
                ).scalars()
            )

    def register(
        self, tournament_id: str, version: int, user: int, now: float, *, rejoin: bool
    ) -> bool:
        """Add ``user`` (or take back a withdrawal, ``rejoin``) if the tournament is still at
        ``version``."""
        try:
            with self.engine.begin() as conn:
                bump_version(conn, tournaments_table, tournament_id, version, {}, now)
                if rejoin:
                    conn.execute(
                        update(tournament_players_table)
                        .where(
                            tournament_players_table.c.tournament_id == tournament_id,
                            tournament_players_table.c.user_id == user,
                        )
                        .values(withdrawn=False)
                    )
                else:
                    conn.execute(
                        insert(tournament_players_table).values(
                            tournament_id=tournament_id,
                            user_id=user,
                            joined_at=now,
                            withdrawn=False,
                        )
                    )
        except (Conflict, IntegrityError):
            return False
        return True

    def withdraw(
        self, tournament_id: str, version: int, user: int, now: float, *, remove: bool
    ) -> bool:
        """Withdraw ``user`` (``remove``: before the start, the registration is deleted)."""
        players = tournament_players_table
        where = (players.c.tournament_id == tournament_id) & (players.c.user_id == user)
        try:
            with self.engine.begin() as conn:
                bump_version(conn, tournaments_table, tournament_id, version, {}, now)
                if remove:
                    conn.execute(players.delete().where(where))
                else:
                    conn.execute(update(players).where(where).values(withdrawn=True))
        except Conflict:
            return False
        return True

    def advance(
        self,
        tournament_id: str,
        version: int,
        values: dict[str, Any],
        pairings: Sequence[dict[str, Any]],
        games: Sequence[GameRow],
        uncount: Sequence[str] = (),
        now: float | None = None,
        tables: Sequence[SeriesTable] = (),
    ) -> bool:
        """One step of a tournament in one transaction, if it is still at ``version``: its row's
        ``values``, the new ``pairings`` and their ``games``, and games no longer counted
        (``uncount``: an arena's unfinished at its end). False (nothing written) when another
        process made the step first. ``tables``: a series' round's Enjambre tables, written in
        the same transaction (never a table without its round, nor a round twice)."""
        now = time.time() if now is None else now
        try:
            with self.engine.begin() as conn:
                bump_version(conn, tournaments_table, tournament_id, version, values, now)
                for game in games:
                    insert_game(conn, game)
                for enjambre_table in tables:
                    insert_table(conn, enjambre_table)
                if pairings:
                    conn.execute(
                        insert(tournament_pairings_table),
                        [{"tournament_id": tournament_id, "counted": True, **p} for p in pairings],
                    )
                if uncount:
                    conn.execute(
                        update(tournament_pairings_table)
                        .where(
                            tournament_pairings_table.c.tournament_id == tournament_id,
                            tournament_pairings_table.c.game_id.in_(list(uncount)),
                        )
                        .values(counted=False)
                    )
        except (Conflict, IntegrityError):
            return False
        return True
