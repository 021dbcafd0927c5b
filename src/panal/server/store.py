"""Persistence: the database is the truth about every game.

SQLAlchemy Core on two tables, ``games`` and ``moves`` (one row per ply, in UHP notation). A game
is rebuilt by replaying its moves through :class:`panal.hive.Game`, so the database never holds
anything the rules engine has not checked. Processes keep only caches they can rebuild.

**Compare-and-set.** Every change names the game's ``version`` it was computed from; the write
bumps the version only where it still matches, in the same transaction as the moves it adds or
removes, and ``(game_id, ply)`` is the moves' primary key. A change computed from a stale copy
raises :class:`Conflict` and writes nothing: no two processes can ever fork a game. Claiming a
seat with an invitation is a conditional ``UPDATE`` on the invitation code: exactly one winner.

**Migrations.** The schema is created and upgraded by Alembic at start-up (scripts in
``panal/server/migrations``); a database made by a release before Alembic is recognised by its
columns and upgraded from there. On PostgreSQL an advisory lock lets many processes start at once.

SQLite (the default, one file) runs in WAL mode with ``synchronous=NORMAL``: a commit survives the
process being killed, and costs no fsync. PostgreSQL works through a ``postgresql://`` URL with
psycopg (``pip install -e ".[scale]"``).

**Off the event loop, or on it.** Every method is synchronous and short; the server runs them in
the store's threads (:meth:`Store.call`): one for SQLite, which has one writer and no round trips.
The writes made on every move have ``_async`` variants (:meth:`Store.change_async`, and the
tables' ``change_async``, both through :meth:`Store.write_async`) which, on PostgreSQL, wait for
the database on the event loop itself: a thread hands the GIL to and from the loop at every round
trip, which cost more CPU than the statements and, under load, up to the interpreter's switch
interval per hand-off. A move is one statement in autocommit (one round trip): a CTE that bumps
the version with the compare-and-set and inserts the moves from its ``RETURNING`` row, atomic by
itself, compiled once by SQLAlchemy and sent by a psycopg pool (:meth:`Store.execute_once_async`).
A change with more writes is a transaction on SQLAlchemy's asyncio engine, running the same
statement code as the threads (:meth:`Store.transact_async`).
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    Update,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.engine import URL, Dialect, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.sql.dml import UpdateBase

from panal.hive import OPTION_SPECS, Options
from panal.server.clock import ClockState, TimeControl

if TYPE_CHECKING:
    from psycopg_pool import AsyncConnectionPool

__all__ = [
    "AppendLog",
    "ChangeWrite",
    "Conflict",
    "DatabaseError",
    "GameRow",
    "Store",
    "bump_version",
    "clock_values",
    "database_url",
    "insert_game",
    "one_statement_write",
    "rule_columns",
    "rule_headers",
]

HEAD_REVISION = "0006_rated_tables"
MIGRATION_LOCK = 0x70616E616C  # "panal": PostgreSQL advisory lock held while migrating
IMPORT_BATCH = 1_000  # moves written per transaction when a long record is stored
IMPORTING = "importing"  # the mode of a game whose moves are still being written
CLOCK_HEARTBEAT = "clocks"  # the heartbeats row that tells when a server process last ran


T = TypeVar("T")


class DatabaseError(RuntimeError):
    """The database cannot be opened or written (bad URL, missing driver, unreachable server)."""


class Conflict(Exception):
    """The game changed since the caller read it (another process wrote first); nothing was
    written. The caller reloads the game from the database."""


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
    Column("version", Integer, nullable=False, default=0),
    Column("owner", String(64)),
    # Players (revision 0004_players): accounts on each side, rated or casual, the clock.
    Column("white_user", Integer),
    Column("black_user", Integer),
    Column("rated", Boolean, nullable=False, default=False),
    Column("time_control", String(64)),  # TimeControl.to_json as text; NULL: untimed
    Column("white_clock", Float),  # seconds left when the side's clock last stopped
    Column("black_clock", Float),
    Column("clock_since", Float),  # when the running clock started (NULL: none runs)
    Column("deadline", Float),  # when the running clock's time runs out
    Column("rematch_offer", Integer),  # the colour offering a rematch
    Column("rematch_game", String(16)),  # the rematch, once agreed
    Index("games_by_update", "updated_at"),
    Index("games_open_by_mode", "mode", "result", "owner"),
    Index("games_by_white_user", "white_user", "updated_at"),
    Index("games_by_black_user", "black_user", "updated_at"),
    Index("games_by_deadline", "deadline"),
)

#: One row per clock-keeping heartbeat: the last moment a server process was known to run.
heartbeats_table = Table(
    "heartbeats",
    metadata,
    Column("name", String(16), primary_key=True),
    Column("at", Float, nullable=False),
)

moves_table = Table(
    "moves",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("move", String(64), nullable=False),
    Column("played_at", Float, nullable=False),
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
        """The clocks as stored (``None``: untimed); the running one is the side to move's."""
        if self.time_control is None or self.white_clock is None or self.black_clock is None:
            return None
        running = self.plies % 2 if self.clock_since is not None else None
        return ClockState((self.white_clock, self.black_clock), self.clock_since, running)

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
        return values

    @classmethod
    def from_columns(cls, values: Any) -> GameRow:
        data = {f.name: values[f.name] for f in fields(cls)}
        data["headers"] = json.loads(data["headers"]) if data["headers"] else {}
        return cls(**data)


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


@dataclass(frozen=True)
class AppendLog:
    """A log that a compare-and-set change appends rows to (a game's moves, a table's actions):
    its ``table``, the column naming the changed row (``key``), the columns each appended row
    sets (parameters ``<name>_<i>``) and those every row shares (parameters ``<name>``)."""

    table: Table
    key: str
    each: tuple[str, ...]
    shared: tuple[str, ...]


@functools.lru_cache(maxsize=256)
def version_bump(target: Table, columns: frozenset[str]) -> Update:
    """The compare-and-set on ``target``'s ``version``: set ``columns`` (and ``updated_at`` and
    ``version``) on the row ``b_id`` only where its version is still ``b_version``. Built once
    per table and set of columns (building a statement costs more than running it)."""
    return (
        update(target)
        .where(target.c.id == bindparam("b_id"), target.c.version == bindparam("b_version"))
        .values({name: bindparam(name) for name in sorted(columns | {"updated_at", "version"})})
    )


@functools.lru_cache(maxsize=256)
def compare_and_set(
    target: Table, columns: frozenset[str], log: AppendLog | None = None, rows: int = 0
) -> UpdateBase:
    """:func:`version_bump` as one statement that also appends ``rows`` rows to ``log``
    (PostgreSQL), returning a row per row it wrote: none when the version is stale. The rows are
    inserted from the compare-and-set's ``RETURNING`` row, so a stale version inserts nothing,
    and a row already stored (a ply) fails the whole statement, version bump included."""
    bumped = version_bump(target, columns).returning(target.c.id)
    if log is None or not rows:
        return bumped
    written = bumped.cte("bumped")
    types = log.table.c
    selects = [
        select(
            written.c.id,
            *(bindparam(f"{name}_{i}", type_=types[name].type) for name in log.each),
            *(bindparam(name, type_=types[name].type) for name in log.shared),
        )
        for i in range(rows)
    ]
    source = selects[0] if rows == 1 else union_all(*selects)
    return (
        insert(log.table)
        .from_select([log.key, *log.each, *log.shared], source)
        .returning(types[log.each[0]])
    )


def bump_params(key: str, version: int, values: dict[str, Any], now: float) -> dict[str, Any]:
    """The parameters of :func:`version_bump` for a change of row ``key`` from ``version``."""
    return {**values, "updated_at": now, "version": version + 1, "b_id": key, "b_version": version}


def one_statement_write(
    target: Table,
    key: str,
    version: int,
    values: dict[str, Any],
    now: float,
    log: AppendLog | None = None,
    rows: Sequence[dict[str, Any]] = (),
    shared: dict[str, Any] | None = None,
) -> ChangeWrite:
    """A change of ``target``'s row ``key`` from ``version`` setting ``values`` and appending
    ``rows`` (each a dict of ``log.each``; ``shared``: ``log.shared``) as one statement."""
    params = bump_params(key, version, values, now)
    for i, row in enumerate(rows):
        for name, value in row.items():
            params[f"{name}_{i}"] = value
    params.update(shared or {})
    statement = compare_and_set(target, frozenset(values), log, len(rows))
    return ChangeWrite(key, version, max(1, len(rows)), statement, params)


def bump_version(
    conn: Connection, target: Table, key: str, version: int, values: dict[str, Any], now: float
) -> int:
    """:func:`version_bump` in a transaction; the new version. Raises :class:`Conflict` when
    the stored version is not ``version`` any more (the transaction then writes nothing)."""
    updated = conn.execute(
        version_bump(target, frozenset(values)), bump_params(key, version, values, now)
    )
    if updated.rowcount != 1:
        raise Conflict(key)
    return version + 1


@functools.lru_cache(maxsize=512)
def _compiled_sql(statement: UpdateBase, dialect: Dialect) -> str:
    """A statement's SQL for ``dialect``, compiled once (the statements given are built once)."""
    return str(statement.compile(dialect=dialect))


@dataclass(frozen=True)
class ChangeWrite:
    """The writes of one compare-and-set change of a game or a table (``key``) computed from
    ``version`` (see :meth:`Store.write`): one ``statement`` that returns ``rows`` rows when
    it is written and none when the version is stale, or ``work`` in a transaction, which
    raises :class:`Conflict` itself."""

    key: str
    version: int
    rows: int = 0
    statement: UpdateBase | None = None
    params: dict[str, Any] = field(default_factory=dict)
    work: Callable[[Connection], int] | None = None

    def written(self, returned: list[Any]) -> int:
        """The new version, once ``statement`` returned ``returned``."""
        if len(returned) != self.rows:
            raise Conflict(self.key)
        return self.version + 1


class _LoopConnections:
    """What one event loop uses to reach PostgreSQL without leaving it: a psycopg pool in
    autocommit for single statements, and SQLAlchemy's asyncio engine for transactions. Neither
    pings a connection before each use, which would be a round trip per move: a connection the
    server dropped fails its statement (that change answers "try again") and is discarded."""

    def __init__(self, loop: asyncio.AbstractEventLoop, url: URL, size: int) -> None:
        from psycopg_pool import AsyncConnectionPool  # the scale extra: PostgreSQL only

        self.loop = loop
        self.engine: AsyncEngine = create_async_engine(url, pool_size=size, max_overflow=size)
        conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.pool = AsyncConnectionPool(
            conninfo, min_size=1, max_size=size, kwargs={"autocommit": True}, open=False
        )
        self._opening: asyncio.Future[None] | None = None

    async def open_pool(self) -> AsyncConnectionPool[Any]:
        """The pool, opened on first use."""
        if self._opening is None:
            self._opening = asyncio.ensure_future(self.pool.open())
        if not self._opening.done():
            await asyncio.shield(self._opening)
        return self.pool

    async def close(self) -> None:
        if self._opening is not None:
            await self.pool.close()
        await self.engine.dispose()


_TAKE_BACK = delete(moves_table).where(
    moves_table.c.game_id == bindparam("b_id"), moves_table.c.ply > bindparam("b_ply")
)
_INSERT_MOVES = insert(moves_table)
#: A game's moves, as a change appends them.
MOVES = AppendLog(moves_table, "game_id", ("ply", "move"), ("played_at",))


class Store:
    """Short synchronous transactions, run by the server in the store's threads; on PostgreSQL
    the per-move writes also run on the event loop (the ``_async`` methods)."""

    def __init__(self, url: str, *, migrate: bool = True, pool_size: int = 8) -> None:
        self.pool_size = pool_size
        self._threads: ThreadPoolExecutor | None = None
        # What the event loop that uses the store holds (its connections belong to that loop).
        self._on_loop: _LoopConnections | None = None
        try:
            parsed = make_url(url)
            self.is_sqlite = parsed.get_backend_name() == "sqlite"
            if self.is_sqlite and parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            options: dict[str, Any] = {}
            if self.is_sqlite:
                options["connect_args"] = {"check_same_thread": False}
            else:
                options.update(pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)
            self.engine: Engine = create_engine(url, **options)
        except ModuleNotFoundError as exc:
            raise DatabaseError(
                f"the database driver {exc.name!r} is not installed "
                '(PostgreSQL needs psycopg: pip install -e ".[scale]")'
            ) from None
        except (ArgumentError, SQLAlchemyError, OSError) as exc:
            raise DatabaseError(f"cannot open the database {url!r}: {exc}") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            if importlib.util.find_spec("greenlet") is None:  # for the asyncio engine
                raise DatabaseError('PostgreSQL needs greenlet (pip install -e ".[web,scale]")')
        if migrate:
            try:
                self.migrate()
            except SQLAlchemyError as exc:
                raise DatabaseError(f"cannot open the database: {exc}") from None

    def close(self) -> None:
        """Close the store's threads and connections (it opens them again if used later)."""
        if self._threads is not None:
            self._threads.shutdown(wait=True)
            self._threads = None
        self._on_loop = None  # its loop is gone or closing: its connections go with it
        self.engine.dispose()

    async def close_async(self) -> None:
        """:meth:`close`, closing the running event loop's connections properly first."""
        on_loop, self._on_loop = self._on_loop, None
        if on_loop is not None and on_loop.loop is asyncio.get_running_loop():
            await on_loop.close()
        self.close()

    # --- running ---------------------------------------------------------------------------

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call in the store's threads: the event loop never waits for the database.

        SQLite gets one thread: it has one writer, and two commits from two threads make one
        wait in SQLite's busy handler, which sleeps in steps of up to 100 ms (that was the tail
        of the move latency). PostgreSQL gets as many as the connection pool."""
        if self._threads is None:
            self._threads = ThreadPoolExecutor(
                1 if self.is_sqlite else self.pool_size, thread_name_prefix="panal-db"
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._threads, functools.partial(function, *args, **kwargs)
        )

    def transact(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` in one transaction."""
        with self.engine.begin() as conn:
            return work(conn)

    async def transact_async(self, work: Callable[[Connection], T]) -> T:
        """:meth:`transact` without blocking the event loop: on PostgreSQL on the loop itself
        (SQLAlchemy's asyncio engine runs ``work`` through ``run_sync``), on SQLite in the
        store's thread."""
        if self.is_sqlite:
            return await self.call(self.transact, work)
        async with self._loop_connections().engine.begin() as conn:
            return await conn.run_sync(work)

    def execute_once(self, statement: UpdateBase, params: dict[str, Any]) -> list[Any]:
        """One statement, atomic by itself, in autocommit (no BEGIN and COMMIT round trips);
        the rows it returns."""
        with self.engine.connect() as conn:
            autocommit = conn.execution_options(isolation_level="AUTOCOMMIT")
            return list(autocommit.execute(statement, params).all())

    async def execute_once_async(self, statement: UpdateBase, params: dict[str, Any]) -> list[Any]:
        """:meth:`execute_once` without blocking the event loop. On PostgreSQL the statement,
        compiled once by SQLAlchemy, goes straight to a psycopg connection of a pool in
        autocommit, on the loop: a third of the CPU of SQLAlchemy's asyncio engine, whose
        connection checkout and result handling cost more than the round trip. Its rows come
        as the driver gives them (plain parameters and results: no type conversions). A
        violated constraint raises SQLAlchemy's :class:`IntegrityError`, as the others do."""
        if self.is_sqlite:
            return await self.call(self.execute_once, statement, params)
        import psycopg

        sql = _compiled_sql(statement, self.engine.dialect)
        try:
            pool = await self._loop_connections().open_pool()
            async with pool.connection() as conn:
                cursor = await conn.execute(sql, params)
                return await cursor.fetchall() if cursor.description else []
        except psycopg.IntegrityError as exc:
            raise IntegrityError(sql, params, exc) from None

    def _loop_connections(self) -> _LoopConnections:
        """The connections of the running event loop (made on first use)."""
        loop = asyncio.get_running_loop()
        if self._on_loop is None or self._on_loop.loop is not loop:
            self._on_loop = _LoopConnections(loop, self.engine.url, self.pool_size)
        return self._on_loop

    # --- schema ----------------------------------------------------------------------------

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest revision (safe to run concurrently)."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            _upgrade(conn)

    def revision(self) -> str | None:
        """The schema's Alembic revision (``None``: no schema yet)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    # --- games -----------------------------------------------------------------------------

    def create_game(self, row: GameRow, moves: list[str]) -> None:
        """Store a new game and its moves in one transaction (see ``begin_import`` for a long
        record)."""
        with self.engine.begin() as conn:
            insert_game(conn, row)
            if moves:
                conn.execute(insert(moves_table), _move_rows(row.id, 1, moves))

    # A long record is written in short transactions, each its own call, so that other games'
    # moves are written between them (SQLite has one writer). Until ``finish_import`` the game's
    # mode is ``importing``: nothing lists, loads or plays it.

    def begin_import(self, row: GameRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(games_table).values(**{**row.to_columns(), "mode": IMPORTING}))

    def import_moves(self, game_id: str, first_ply: int, moves: list[str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(moves_table), _move_rows(game_id, first_ply, moves))

    def finish_import(self, game_id: str, mode: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(games_table).where(games_table.c.id == game_id).values(mode=mode))

    def snapshot(self) -> Connection:
        """A connection whose reads all see one snapshot of the database. A game or a table is
        read in several statements (its row, then its moves or its seats, games and actions);
        under PostgreSQL's default isolation each statement sees the changes committed before
        it, so another process's change landing between two of them would pair the row's
        version with a later line. SQLite serves one process, whose changes to a game are made
        one at a time."""
        conn = self.engine.connect()
        if self.is_sqlite:
            return conn
        return conn.execution_options(isolation_level="REPEATABLE READ")

    def load_game(self, game_id: str) -> tuple[GameRow, list[str]] | None:
        with self.snapshot() as conn:
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
        """The game's version (one indexed read: is a cached copy still current?)."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(games_table.c.version).where(games_table.c.id == game_id)
            ).scalar_one_or_none()

    def change(
        self,
        game_id: str,
        version: int,
        values: dict[str, Any],
        *,
        add_moves: tuple[str, ...] = (),
        keep_plies: int | None = None,
        also: Callable[[Connection], object] | None = None,
    ) -> int:
        """Apply one change to a game computed from ``version``; returns the new version.

        ``values`` sets row fields (see ``MUTABLE_FIELDS``); ``keep_plies`` deletes the moves
        after that ply (an undo); ``add_moves`` appends moves after the stored ones, numbered
        from ``values["plies"] - len(add_moves) + 1``; ``also`` makes more writes in the same
        transaction once the change is sure to be written (a rated game's ratings, a rematch's
        new game). Raises :class:`Conflict` (nothing written) when the stored version is not
        ``version`` any more.
        """
        return self.write(self._change_write(game_id, version, values, add_moves, keep_plies, also))

    async def change_async(
        self,
        game_id: str,
        version: int,
        values: dict[str, Any],
        *,
        add_moves: tuple[str, ...] = (),
        keep_plies: int | None = None,
        also: Callable[[Connection], object] | None = None,
    ) -> int:
        """:meth:`change` without blocking the event loop: on PostgreSQL on the loop itself
        (one statement: :meth:`execute_once_async`; else :meth:`transact_async`), on SQLite in
        the store's thread."""
        return await self.write_async(
            self._change_write(game_id, version, values, add_moves, keep_plies, also)
        )

    def write(self, change: ChangeWrite) -> int:
        """Make a compare-and-set change's writes; its new version. Raises :class:`Conflict`,
        nothing written, when its version is stale or a row it adds is already stored."""
        try:
            if change.statement is not None:
                return change.written(self.execute_once(change.statement, change.params))
            assert change.work is not None
            return self.transact(change.work)
        except IntegrityError:
            raise Conflict(change.key) from None  # that ply is already stored: it moved on

    async def write_async(self, change: ChangeWrite) -> int:
        """:meth:`write` without blocking the event loop (on PostgreSQL, on the loop itself)."""
        if self.is_sqlite:
            return await self.call(self.write, change)
        try:
            if change.statement is not None:
                return change.written(
                    await self.execute_once_async(change.statement, change.params)
                )
            assert change.work is not None
            return await self.transact_async(change.work)
        except IntegrityError:
            raise Conflict(change.key) from None

    def _change_write(
        self,
        game_id: str,
        version: int,
        values: dict[str, Any],
        add_moves: tuple[str, ...],
        keep_plies: int | None,
        also: Callable[[Connection], object] | None,
    ) -> ChangeWrite:
        """The writes of :meth:`change`. On PostgreSQL a change that neither takes moves back
        nor writes more (``also``) is one statement: the compare-and-set, with the moves it
        adds inserted from its ``RETURNING`` row."""
        unknown = set(values) - MUTABLE_FIELDS
        if unknown:
            raise ValueError(f"not changeable: {sorted(unknown)}")
        now = time.time()
        first = int(values["plies"]) - len(add_moves) + 1 if add_moves else 0
        moves = [{"ply": first + i, "move": move} for i, move in enumerate(add_moves)]
        if not self.is_sqlite and keep_plies is None and also is None:
            played = {"played_at": now}
            return one_statement_write(
                games_table, game_id, version, values, now, MOVES, moves, played
            )

        def write(conn: Connection) -> int:
            written = bump_version(conn, games_table, game_id, version, values, now)
            if keep_plies is not None:
                conn.execute(_TAKE_BACK, {"b_id": game_id, "b_ply": keep_plies})
            if moves:
                conn.execute(
                    _INSERT_MOVES,
                    [{"game_id": game_id, **move, "played_at": now} for move in moves],
                )
            if also is not None:
                also(conn)
            return written

        return ChangeWrite(game_id, version, work=write)

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

    def active_ai_games(self, owner: str, since: float) -> int:
        """How many unfinished AI games ``owner`` has touched after ``since``."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(
                        games_table.c.mode == "ai",
                        games_table.c.result.is_(None),
                        games_table.c.owner == owner,
                        games_table.c.updated_at > since,
                    )
                ).scalar_one()
            )


def insert_game(conn: Connection, row: GameRow) -> None:
    """Write a new game's row in the caller's transaction (a game created with other writes:
    a challenge accepted, a rematch agreed)."""
    conn.execute(insert(games_table).values(**row.to_columns()))


def _move_rows(game_id: str, first_ply: int, moves: list[str]) -> list[dict[str, Any]]:
    now = time.time()
    return [
        {"game_id": game_id, "ply": ply, "move": move, "played_at": now}
        for ply, move in enumerate(moves, first_ply)
    ]


def _upgrade(conn: Connection) -> None:
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext

    config = Config()
    config.set_main_option("script_location", str(files("panal.server").joinpath("migrations")))
    config.attributes["connection"] = conn
    if MigrationContext.configure(conn).get_current_revision() is None:
        tables = inspect(conn).get_table_names()
        if "games" in tables:
            # Made by a release before Alembic: recognise it by its columns.
            columns = {c["name"] for c in inspect(conn).get_columns("games")}
            command.stamp(config, "0002" if "dragonfly_gates" in columns else "0001")
    command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
