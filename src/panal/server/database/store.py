"""The database layer: the database is the truth about every room, and this module knows none.

:class:`Store` holds the engine, the store's threads, the write path and the migrations; each
kind of room keeps its own tables and queries beside it (Hive's
:mod:`panal.server.hive_games.game_store`, Enjambre's
:mod:`panal.server.enjambre_tables.table_store`), on the same :data:`metadata`.

**Compare-and-set, built once.** Every change names the row's ``version`` it was computed from;
the write bumps the version only where it still matches (:func:`version_bump`), in the same
transaction as the log rows it adds (a game's moves, a table's actions: an :class:`AppendLog`),
whose primary key refuses a row already stored. A change computed from a stale copy raises
:class:`Conflict` and writes nothing: no two processes can ever fork a room.

**Migrations.** The schema is created and upgraded by Alembic at start-up (scripts in
``panal/server/database/migrations``); a database made by a release before Alembic is recognised by
its columns and upgraded from there. On PostgreSQL an advisory lock lets many processes start at
once.

SQLite (the default, one file) runs in WAL mode with ``synchronous=NORMAL``: a commit survives the
process being killed, and costs no fsync. PostgreSQL works through a ``postgresql://`` URL with
psycopg (``pip install -e ".[scale]"``).

**Off the event loop, or on it.** Every method is synchronous and short; the server runs them in
the store's threads (:meth:`Store.call`): one for SQLite, which has one writer and no round trips.
The writes made on every move go through :meth:`Store.write_async` (a game's ``change_async``, a
table's ``change_async``), which, on PostgreSQL, waits for
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
import contextlib
import functools
import hashlib
import importlib.util
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    MetaData,
    Table,
    Update,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Dialect, RowMapping, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.sql import ColumnElement
from sqlalchemy.sql.dml import UpdateBase

if TYPE_CHECKING:
    from psycopg_pool import AsyncConnectionPool

__all__ = [
    "AppendLog",
    "ChangeWrite",
    "Conflict",
    "DatabaseError",
    "Store",
    "alembic_config",
    "bump_version",
    "database_url",
    "insert_ignore",
    "lock_name",
    "metadata",
    "newest_first",
    "one_statement_write",
    "row_fields",
]

HEAD_REVISION = "0019_etourney"
MIGRATION_LOCK = 0x70616E616C  # "panal": PostgreSQL advisory lock held while migrating


T = TypeVar("T")


class DatabaseError(RuntimeError):
    """The database cannot be opened or written (bad URL, missing driver, unreachable server)."""


class Conflict(Exception):
    """The game changed since the caller read it (another process wrote first); nothing was
    written. The caller reloads the game from the database."""


metadata = MetaData()


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


def row_fields(cls: type, values: Mapping[Any, Any]) -> dict[str, Any]:
    """The fields of the dataclass ``cls`` that a row's ``values`` hold, by name: a stored
    row's dataclass names its fields as the table its columns."""
    return {f.name: values[f.name] for f in fields(cls) if f.name in values}


def insert_ignore(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> int:
    """Insert ``rows``, leaving those whose key exists; how many were inserted (counted by
    ``RETURNING``: PostgreSQL's driver gives -1 as the row count of such an insert)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    key = next(iter(table.primary_key.columns))
    statement = dialect.insert(table).values(rows).on_conflict_do_nothing().returning(key)
    return len(conn.execute(statement).all())


def newest_first(
    engine: Engine, table: Table, where: ColumnElement[bool], limit: int, offset: int
) -> tuple[int, list[RowMapping]]:
    """How many of ``table``'s rows match ``where``, and one page of them, the last changed
    first (the archives of finished games and tables)."""
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).where(where)).scalar_one()
        rows = conn.execute(
            select(table)
            .where(where)
            .order_by(table.c.updated_at.desc(), table.c.id)
            .limit(limit)
            .offset(offset)
        ).all()
    return total, [row._mapping for row in rows]


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


def logged_change(
    target: Table,
    key: str,
    version: int,
    values: dict[str, Any],
    now: float,
    log: AppendLog,
    rows: Sequence[dict[str, Any]],
    shared: dict[str, Any],
    *,
    one_statement: bool,
    before_rows: Callable[[Connection], object] | None = None,
    after_rows: Callable[[Connection], object] | None = None,
) -> ChangeWrite:
    """A change of ``target``'s row ``key`` from ``version`` that sets ``values`` and appends
    ``rows`` to ``log`` (a Hive move, Enjambre actions). Where ``one_statement`` (PostgreSQL)
    and nothing else is written, one statement (:func:`one_statement_write`); otherwise a
    transaction: the compare-and-set, ``before_rows``, the rows, ``after_rows``."""
    if one_statement and before_rows is None and after_rows is None:
        return one_statement_write(target, key, version, values, now, log, rows, shared)

    def write(conn: Connection) -> int:
        written = bump_version(conn, target, key, version, values, now)
        if before_rows is not None:
            before_rows(conn)
        if rows:
            conn.execute(insert(log.table), [{log.key: key, **row, **shared} for row in rows])
        if after_rows is not None:
            after_rows(conn)
        return written

    return ChangeWrite(key, version, work=write)


@functools.lru_cache(maxsize=512)
def lock_name(conn: Connection, name: str) -> None:
    """Hold a lock on ``name`` until the end of ``conn``'s transaction, against every process
    (PostgreSQL's advisory locks; SQLite has one writing process, which serializes its own)."""
    if conn.dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


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

    @contextlib.contextmanager
    def _migrating(self) -> Iterator[Connection]:
        """A transaction that changes the schema, one process at a time (on PostgreSQL, an
        advisory lock held until it ends; SQLite serves one process)."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            yield conn

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest revision (safe to run concurrently)."""
        with self._migrating() as conn:
            _upgrade(conn)

    def downgrade(self, revision: str) -> None:
        """Take the schema back to ``revision`` (``base``: nothing), to run an older release on
        it; an unknown revision raises DatabaseError and changes nothing."""
        from alembic import command
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory
        from alembic.util import CommandError

        with self._migrating() as conn:
            config = alembic_config(conn)
            known = [r.revision for r in ScriptDirectory.from_config(config).walk_revisions()]
            if revision != "base" and revision not in known:
                raise DatabaseError(
                    f"no revision {revision!r}; the revisions are base, {', '.join(known[::-1])}"
                )
            try:
                command.downgrade(config, revision)
            except CommandError:  # a revision above the current one
                current = MigrationContext.configure(conn).get_current_revision()
                raise DatabaseError(
                    f"the database is at revision {current}: {revision} is not below it"
                ) from None

    def revision(self) -> str | None:
        """The schema's Alembic revision (``None``: no schema yet)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def consistent_reads(self) -> Connection:
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

    def stored_version(self, table: Table, key: str) -> int | None:
        """The version of ``table``'s row ``key`` (one indexed read: is a cached copy of a game
        or a table still current?)."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(table.c.version).where(table.c.id == key)
            ).scalar_one_or_none()

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


def alembic_config(conn: Connection) -> Any:
    """Alembic's configuration for panal's migrations, run on ``conn``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option(
        "script_location", str(files("panal.server.database").joinpath("migrations"))
    )
    config.attributes["connection"] = conn
    return config


def _upgrade(conn: Connection) -> None:
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    config = alembic_config(conn)
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
