"""Databases made by earlier releases upgrade themselves at start-up (Alembic)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, create_engine, inspect, text

from panal.hive import Options
from panal.server.app import create_app
from panal.server.database.store import HEAD_REVISION, alembic_config, database_url
from panal.server.hive_games.game_store import GameStore
from tests.server.conftest import Backend, first_legal_move, scale_out_services
from tests.server.helpers import game_socket, receive_state

# The schema of the first release (commit 51a68b4, src/panal/server/store.py), as it created it.
FIRST_SCHEMA = [
    """CREATE TABLE games (
        id VARCHAR(16) NOT NULL PRIMARY KEY,
        created_at FLOAT NOT NULL,
        updated_at FLOAT NOT NULL,
        game_type VARCHAR(16) NOT NULL,
        tournament_opening BOOLEAN NOT NULL,
        repetition_draw BOOLEAN NOT NULL,
        mode VARCHAR(12) NOT NULL,
        look VARCHAR(12) NOT NULL,
        ai_level VARCHAR(32),
        ai_color INTEGER,
        white_token VARCHAR(64),
        black_token VARCHAR(64),
        invite_code VARCHAR(64),
        result VARCHAR(16),
        end_reason VARCHAR(16),
        draw_offer INTEGER,
        plies INTEGER NOT NULL,
        headers TEXT
    )""",
    "CREATE INDEX games_by_update ON games (updated_at)",
    """CREATE TABLE moves (
        game_id VARCHAR(16) NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        move VARCHAR(64) NOT NULL,
        played_at FLOAT NOT NULL,
        PRIMARY KEY (game_id, ply)
    )""",
]
# The second release (commit 976dd33) added the Dragonfly gates option, still without Alembic.
SECOND_SCHEMA = [
    *FIRST_SCHEMA,
    "ALTER TABLE games ADD COLUMN dragonfly_gates BOOLEAN NOT NULL DEFAULT FALSE",
]


@pytest.fixture(params=["sqlite", "postgres"])
def empty_database(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """A URL to a database with nothing in it."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/old.sqlite3"  # type: ignore[str-bytes-safe]
        return
    postgres, _ = scale_out_services()
    admin_url = database_url(postgres)[0]
    name = f"panal_migrate_{secrets.token_hex(4)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@pytest.mark.parametrize("schema", [FIRST_SCHEMA, SECOND_SCHEMA], ids=["first", "second"])
def test_an_earlier_release_database_upgrades_and_plays_on(
    empty_database: str, schema: list[str]
) -> None:
    token = "white-and-black"
    from panal.server.room.tokens import hash_token

    engine = create_engine(empty_database)
    now = time.time()
    with engine.begin() as conn:
        for statement in schema:
            conn.execute(text(statement))
        conn.execute(
            text(
                "INSERT INTO games (id, created_at, updated_at, game_type, tournament_opening,"
                " repetition_draw, mode, look, white_token, black_token, plies)"
                " VALUES ('oldgame', :now, :now, 'Base+M', FALSE, TRUE, 'hotseat', 'classic',"
                " :token, :token, 2)"
            ),
            {"now": now, "token": hash_token(token)},
        )
        for ply, move in enumerate(["wS1", "bM wS1-"], 1):
            conn.execute(
                text("INSERT INTO moves VALUES ('oldgame', :ply, :move, :now)"),
                {"ply": ply, "move": move, "now": now},
            )
    engine.dispose()

    app = create_app(empty_database, ai_runner=first_legal_move, levels=("beginner",))
    with TestClient(app) as client:
        state = client.get("/api/games/oldgame").json()
        assert [e["move"] for e in state["history"]] == ["wS1", "bM wS1-"]
        assert state["options"] == Options().to_values()  # the defaults: nothing was chosen
        with game_socket(client, "oldgame", token) as ws:
            receive_state(ws)
            ws.send_json({"type": "move", "move": "wQ -wS1"})
            assert receive_state(ws, lambda s: s["ply"] == 3)["turn"] == 1
        created = client.post("/api/games", json={"mode": "online"}).json()
        assert client.get(f"/api/games/{created['id']}").status_code == 200
    store = GameStore(empty_database)
    try:
        assert store.revision() == HEAD_REVISION
        row, moves = store.load_game("oldgame") or (None, [])
        assert row is not None and row.version == 1  # the new code's one change
        assert moves == ["wS1", "bM wS1-", "wQ -wS1"]
    finally:
        store.close()


def test_a_new_database_is_at_the_newest_revision(backend: Backend) -> None:
    store = GameStore(backend.db_url)
    try:
        assert store.revision() == HEAD_REVISION
        store.migrate()  # a second start (or another process) changes nothing
        assert store.revision() == HEAD_REVISION
    finally:
        store.close()


def test_the_migrations_build_the_tables_the_code_declares(empty_database: str) -> None:
    """Upgrading an empty database to the newest revision gives the schema of today's table
    declarations: no table, column, type, nullability, index or foreign key more or less. The
    migrations are frozen and spell their columns out (they never import the declarations, which
    change), so this is what keeps the two in step."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    import panal.server.app  # noqa: F401  (every store: every table declaration)
    from panal.server.database.store import metadata

    GameStore(empty_database).close()  # a store upgrades its database at start-up
    engine = create_engine(empty_database)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            differences = [
                d
                for d in compare_metadata(context, metadata)
                if d[0] != "remove_table" or d[1].name != "alembic_version"
            ]
    finally:
        engine.dispose()
    assert differences == []


def test_the_shared_columns_build_what_the_released_migrations_built() -> None:
    """``database.columns`` is frozen: released migrations call it, so what each function
    builds must never change (a column that differs is a new function)."""
    import sqlalchemy as sa
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateTable

    from panal.server.database import columns

    metadata = sa.MetaData()
    tables = [
        sa.Table("users", metadata, columns.serial_id_column()),
        sa.Table(
            "rows",
            metadata,
            columns.id_column(),
            columns.created_at_column(),
            columns.updated_at_column(),
            columns.account_column(),
            columns.account_column("owner_id", nullable=True),
            columns.time_column("at"),
            columns.time_column("read_at", nullable=True),
        ),
        sa.Table("per_account", metadata, columns.account_column(primary_key=True)),
    ]
    built = [
        " ".join(str(CreateTable(t).compile(dialect=postgresql.dialect())).split()) for t in tables
    ]
    assert built == [
        "CREATE TABLE users ( id SERIAL NOT NULL, PRIMARY KEY (id) )",
        "CREATE TABLE rows ( id VARCHAR(16) NOT NULL, created_at FLOAT NOT NULL,"
        " updated_at FLOAT NOT NULL, user_id INTEGER NOT NULL, owner_id INTEGER,"
        " at FLOAT NOT NULL, read_at FLOAT,"
        " PRIMARY KEY (id), FOREIGN KEY(user_id) REFERENCES users (id),"
        " FOREIGN KEY(owner_id) REFERENCES users (id) )",
        "CREATE TABLE per_account ( user_id INTEGER NOT NULL, PRIMARY KEY (user_id),"
        " FOREIGN KEY(user_id) REFERENCES users (id) )",
    ]


def test_the_released_tables_build_what_the_released_migrations_built() -> None:
    """``database.released_tables`` is frozen too: ``0004_players`` and ``0008_signin``'s
    downgrade both create ``sign_in_failures`` with it."""
    from alembic.operations import Operations
    from alembic.runtime.migration import MigrationContext

    from panal.server.database.released_tables import create_sign_in_failures

    engine = create_engine("sqlite://")
    try:
        with engine.begin() as conn:
            with Operations.context(MigrationContext.configure(conn)):
                create_sign_in_failures()
            built = [
                " ".join(sql.split())
                for (sql,) in conn.execute(text("SELECT sql FROM sqlite_master ORDER BY name"))
            ]
    finally:
        engine.dispose()
    assert built == [
        'CREATE TABLE sign_in_failures ( id INTEGER NOT NULL, "key" VARCHAR(80) NOT NULL,'
        " at FLOAT NOT NULL, PRIMARY KEY (id) )",
        'CREATE INDEX sign_in_failures_by_key ON sign_in_failures ("key", at)',
    ]


def _schema(conn: Connection) -> dict[str, object]:
    """Every table's columns (name, type, nullability), indexes and foreign keys, as read back."""
    found = inspect(conn)
    return {
        table: (
            [(c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns(table)],
            sorted(
                (i["name"] or "", tuple(i["column_names"]), bool(i["unique"]))
                for i in found.get_indexes(table)
            ),
            sorted(
                (tuple(k["constrained_columns"]), k["referred_table"])
                for k in found.get_foreign_keys(table)
            ),
        )
        for table in sorted(found.get_table_names())
        if table != "alembic_version"
    }


def test_every_downgrade_undoes_its_upgrade(empty_database: str) -> None:
    """Up one revision at a time from an empty database to the newest, then down one at a time
    to nothing: after each downgrade the schema is the one its revision had on the way up (an
    operator rolling a release back gets the database that release made), and up again works."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    engine = create_engine(empty_database)
    try:
        with engine.connect() as conn:
            config = alembic_config(conn)
            scripts = ScriptDirectory.from_config(config)
            revisions = [r.revision for r in scripts.walk_revisions()][::-1]
            assert revisions[-1] == HEAD_REVISION

            def step(change: Callable[[Config, str], None], revision: str) -> dict[str, object]:
                change(config, revision)
                conn.commit()
                return _schema(conn)

            on_the_way_up = [_schema(conn)]
            for revision in revisions:
                on_the_way_up.append(step(command.upgrade, revision))
            for index in range(len(revisions) - 1, -1, -1):
                below = revisions[index - 1] if index else "base"
                assert step(command.downgrade, below) == on_the_way_up[index], revisions[index]
            assert step(command.upgrade, "head") == on_the_way_up[-1]
    finally:
        engine.dispose()


def test_panal_database_shows_the_revision_and_downgrades(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from panal.cli import main

    db = str(tmp_path / "server.sqlite3")
    assert main(["database", "revision", "--db", db]) == 1  # no such file: none made
    assert "no database file" in capsys.readouterr().err
    assert not Path(db).exists()
    GameStore(f"sqlite:///{db}").close()  # made by a server at the newest revision
    assert main(["database", "revision", "--db", db]) == 0
    assert f"revision: {HEAD_REVISION}" in capsys.readouterr().out
    assert main(["database", "downgrade", "0018_tourney2", "--db", db]) == 0
    assert capsys.readouterr().out.strip() == f"revision {HEAD_REVISION} → 0018_tourney2"
    for wrong, said in (("0099", "no revision '0099'"), (HEAD_REVISION, "is not below it")):
        assert main(["database", "downgrade", wrong, "--db", db]) == 1
        assert said in capsys.readouterr().err
    assert main(["database", "revision", "--db", db]) == 0
    assert "revision: 0018_tourney2" in capsys.readouterr().out
    GameStore(f"sqlite:///{db}").close()  # the newer release started again: upgraded
    assert main(["database", "revision", "--db", db]) == 0
    assert f"revision: {HEAD_REVISION}" in capsys.readouterr().out
