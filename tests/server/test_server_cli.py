"""``panal serve``: fast to import, clear about its database, sensible defaults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from panal.server.commands import DEFAULT_DB_FILE, build_serve_parser
from panal.server.database.store import DatabaseError, Store, database_url
from tests.server.helpers import ServerProcess


def test_importing_the_command_loads_no_web_framework() -> None:
    code = (
        "import sys, panal.cli; panal.cli.build_parser();"
        "print(sorted(m for m in ('fastapi', 'sqlalchemy', 'uvicorn', 'starlette')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_serve_defaults() -> None:
    args = build_serve_parser().parse_args([])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8000, None)
    assert DEFAULT_DB_FILE == "panal.sqlite3"


def test_database_urls(tmp_path: Path) -> None:
    url, shown = database_url(str(tmp_path / "games.sqlite3"))
    assert url == f"sqlite:///{tmp_path / 'games.sqlite3'}"
    assert str(tmp_path) in shown
    url, shown = database_url("postgresql://panal:secret@db.example/panal")
    assert url == "postgresql+psycopg://panal:secret@db.example/panal"
    assert "secret" not in shown
    assert database_url("postgres://u@h/d")[0] == "postgresql+psycopg://u@h/d"
    assert database_url("postgresql+asyncpg://u@h/d")[0] == "postgresql+asyncpg://u@h/d"
    with pytest.raises(DatabaseError):
        Store(database_url("nonsense://x")[0])


def test_postgresql_without_a_driver_is_a_clear_error() -> None:
    code = (
        "import sys; sys.modules['psycopg'] = None\n"  # as if psycopg were not installed
        "from panal.server.database.store import DatabaseError, Store\n"
        "try:\n"
        "    Store('postgresql+psycopg://u:p@127.0.0.1:1/none')\n"
        "except DatabaseError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "psycopg" in out.stdout
    assert "pip install" in out.stdout


def test_serve_prints_the_url_and_the_database(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "here.sqlite3", tmp_path / "serve.log")
    server.start()
    server.stop()
    log = (tmp_path / "serve.log").read_text()
    assert f"http://localhost:{server.port}/" in log
    assert str(tmp_path / "here.sqlite3") in log
