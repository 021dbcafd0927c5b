"""Persistence: every game and every move is written as it happens.

SQLAlchemy Core on two tables, ``games`` and ``moves`` (one row per ply, in UHP notation). A game
is rebuilt after a restart by replaying its moves through :class:`panal.hive.Game`, so the
database never holds anything the rules engine has not checked.

SQLite (the default, one file) runs in WAL mode with ``synchronous=NORMAL``: a commit survives the
process being killed, and costs no fsync. PostgreSQL works through a ``postgresql://`` URL when a
driver (psycopg) is installed.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from panal.hive import OPTION_SPECS, Options

__all__ = ["DatabaseError", "GameRow", "Store", "database_url", "rule_headers"]


class DatabaseError(RuntimeError):
    """The database cannot be opened or written (bad URL, missing driver, unreachable server)."""


metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("game_type", String(16), nullable=False),
    Column("tournament_opening", Boolean, nullable=False),
    Column("repetition_draw", Boolean, nullable=False),
    Column("dragonfly_gates", Boolean, nullable=False, default=False),
    Column("mode", String(12), nullable=False),
    Column("look", String(12), nullable=False),
    Column("ai_level", String(32)),
    Column("ai_color", Integer),
    Column("white_token", String(64)),
    Column("black_token", String(64)),
    Column("invite_code", String(64)),
    Column("result", String(16)),
    Column("end_reason", String(16)),
    Column("draw_offer", Integer),
    Column("plies", Integer, nullable=False),
    Column("headers", Text),
    Index("games_by_update", "updated_at"),
)

moves_table = Table(
    "moves",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("move", String(64), nullable=False),
    Column("played_at", Float, nullable=False),
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

    def to_columns(self) -> dict[str, Any]:
        values = asdict(self)
        values["headers"] = json.dumps(self.headers) if self.headers else None
        return values

    @classmethod
    def from_columns(cls, values: Any) -> GameRow:
        data = {f.name: values[f.name] for f in fields(cls)}
        data["headers"] = json.loads(data["headers"]) if data["headers"] else {}
        return cls(**data)


# Rule options without a column of their own travel in ``headers``, as the tags that carry them in
# a PGN record (``DragonflySidestep: Backward``): an exported record then carries them too.
_OPTIONS_IN_HEADERS = tuple(
    spec for spec in OPTION_SPECS if spec.name not in ("tournament_opening", "repetition_draw")
)


def rule_headers(options: Options, headers: dict[str, str]) -> dict[str, str]:
    """``headers`` with the rule-option tags replaced by those of ``options`` (changed ones)."""
    changed = options.changed()
    out = {name: value for name, value in headers.items() if name not in _OPTION_TAGS}
    for spec in _OPTIONS_IN_HEADERS:
        if spec.name in changed:
            out[spec.uhp] = spec.uhp_value(changed[spec.name])
    return out


_OPTION_TAGS = frozenset(spec.uhp for spec in _OPTIONS_IN_HEADERS)


def database_url(value: str) -> tuple[str, str]:
    """A ``--db`` value → (SQLAlchemy URL, what to tell the user).

    A plain path is an SQLite file. ``postgres://`` and ``postgresql://`` URLs without a driver
    get psycopg (version 3), the driver SQLAlchemy recommends.
    """
    if "://" not in value:
        path = Path(value).expanduser().resolve()
        return f"sqlite:///{path}", f"SQLite file {path}"
    scheme, rest = value.split("://", 1)
    if scheme in ("postgres", "postgresql"):
        value = f"postgresql+psycopg://{rest}"
    try:
        url = make_url(value)
    except ArgumentError as exc:
        raise DatabaseError(f"not a database URL: {value!r} ({exc})") from None
    if url.get_backend_name() == "sqlite" and url.database:
        return value, f"SQLite file {Path(url.database).resolve()}"
    return value, url.render_as_string(hide_password=True)


class Store:
    """Synchronous, short transactions; called from the event loop (SQLite commits take
    microseconds in WAL mode)."""

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
            is_sqlite = parsed.get_backend_name() == "sqlite"
            if is_sqlite and parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            options: dict[str, Any] = {}
            if is_sqlite:
                options["connect_args"] = {"check_same_thread": False}
            self.engine: Engine = create_engine(url, **options)
        except ModuleNotFoundError as exc:
            raise DatabaseError(
                f"the database driver {exc.name!r} is not installed "
                "(PostgreSQL needs: pip install 'psycopg[binary]')"
            ) from None
        except (ArgumentError, SQLAlchemyError, OSError) as exc:
            raise DatabaseError(f"cannot open the database {url!r}: {exc}") from None
        if is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            metadata.create_all(self.engine)
        except SQLAlchemyError as exc:
            raise DatabaseError(f"cannot open the database: {exc}") from None

    def close(self) -> None:
        self.engine.dispose()

    # --- games -----------------------------------------------------------------------------

    def create_game(self, row: GameRow, moves: list[str]) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(games_table).values(**row.to_columns()))
            if moves:
                conn.execute(
                    insert(moves_table),
                    [
                        {"game_id": row.id, "ply": ply, "move": move, "played_at": now}
                        for ply, move in enumerate(moves, 1)
                    ],
                )

    def load_game(self, game_id: str) -> tuple[GameRow, list[str]] | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if found is None:
                return None
            moves = conn.execute(
                select(moves_table.c.move)
                .where(moves_table.c.game_id == game_id)
                .order_by(moves_table.c.ply)
            ).scalars()
            return GameRow.from_columns(found._mapping), list(moves)

    def record_move(self, row: GameRow, move: str) -> None:
        """Append ply ``row.plies`` and save the row's changed fields, in one transaction."""
        now = time.time()
        row.updated_at = now
        with self.engine.begin() as conn:
            conn.execute(
                insert(moves_table).values(game_id=row.id, ply=row.plies, move=move, played_at=now)
            )
            conn.execute(
                update(games_table)
                .where(games_table.c.id == row.id)
                .values(
                    plies=row.plies,
                    updated_at=now,
                    result=row.result,
                    end_reason=row.end_reason,
                    draw_offer=row.draw_offer,
                )
            )

    def take_back(self, row: GameRow) -> None:
        """Delete the moves after ply ``row.plies`` (an undo) and save the row."""
        now = time.time()
        row.updated_at = now
        with self.engine.begin() as conn:
            conn.execute(
                delete(moves_table).where(
                    moves_table.c.game_id == row.id, moves_table.c.ply > row.plies
                )
            )
            self._save(conn, row)

    def save(self, row: GameRow) -> None:
        row.updated_at = time.time()
        with self.engine.begin() as conn:
            self._save(conn, row)

    def _save(self, conn: Any, row: GameRow) -> None:
        values = row.to_columns()
        del values["id"]
        conn.execute(update(games_table).where(games_table.c.id == row.id).values(**values))

    # --- listings --------------------------------------------------------------------------

    def archive(self, limit: int, offset: int) -> tuple[int, list[GameRow]]:
        """Finished games and imported records, newest first."""
        finished = or_(games_table.c.result.is_not(None), games_table.c.mode == "review")
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).where(finished)).scalar_one()
            rows = conn.execute(
                select(games_table)
                .where(finished)
                .order_by(games_table.c.updated_at.desc(), games_table.c.id)
                .limit(limit)
                .offset(offset)
            ).all()
        return total, [GameRow.from_columns(r._mapping) for r in rows]

    def unfinished_ai_games(self) -> list[str]:
        """Games where the AI may owe a move (resumed at start-up)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(games_table.c.id).where(
                        games_table.c.mode == "ai", games_table.c.result.is_(None)
                    )
                ).scalars()
            )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
