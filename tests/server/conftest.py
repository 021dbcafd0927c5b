"""Server test fixtures: every test that takes ``client`` runs on both back-ends.

* ``sqlite``: the embedded default (an SQLite file, in-process fan-out and jobs).
* ``postgres``: scale-out (PostgreSQL + Redis) at ``PANAL_TEST_POSTGRES_URL`` and
  ``PANAL_TEST_REDIS_URL``, which ``.ci/run`` starts. Without them the variant is skipped, except
  under CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from panal.server.app import create_app

BACKENDS = ("sqlite", "postgres")
#: Every table, emptied between tests on PostgreSQL.
TABLES = (
    "notifications",
    "notification_switches",
    "push_subscriptions",
    "tournament_pairings",
    "tournament_players",
    "tournaments",
    "ladder_games",
    "moves",
    "games",
    "sessions",
    "attempt_counters",
    "rating_history",
    "ratings",
    "challenges",
    "puzzle_attempts",
    "puzzle_ratings",
    "lesson_progress",
    "bots",
    "ladder_entries",
    "account_tokens",
    "mail_reminders",
    "users",
    "heartbeats",
    "enjambre_actions",
    "enjambre_games",
    "enjambre_seats",
    "enjambre_tables",
    "analysis_positions",
    "analysis_engines",
    "game_reviews",
    "chat_messages",
    "chat_reports",
    "chat_mutes",
    "chat_rates",
    "moderators",
    "chat_silences",
)


def first_legal_move(payload: dict[str, Any]) -> dict[str, str]:
    """A stand-in AI for tests that are not about the AI: the first legal move, instantly."""
    from panal.server.hive_games.ai_pool import payload_game

    game = payload_game(payload)
    return {"move": game.move_string(next(iter(game.legal_moves)))}


@dataclass(frozen=True)
class Backend:
    name: str
    db_url: str
    redis_url: str | None = None
    redis_prefix: str = "panal"

    def app_options(self) -> dict[str, Any]:
        return {"redis_url": self.redis_url, "redis_prefix": self.redis_prefix}

    def cli_args(self) -> tuple[str, ...]:
        if self.redis_url is None:
            return ("--db", self.db_url)
        return ("--db", self.db_url, "--redis", self.redis_url, "--redis-prefix", self.redis_prefix)


def scale_out_services() -> tuple[str, str]:
    """The PostgreSQL and Redis URLs for the scale-out tests (skip or, under CI, fail)."""
    postgres = os.environ.get("PANAL_TEST_POSTGRES_URL")
    redis = os.environ.get("PANAL_TEST_REDIS_URL")
    if not postgres or not redis:
        message = "PostgreSQL/Redis not configured (PANAL_TEST_POSTGRES_URL, PANAL_TEST_REDIS_URL)"
        if os.environ.get("CI"):
            pytest.fail(message + ": .ci/run starts them")
        pytest.skip(message)
    for module in ("psycopg", "redis"):
        try:
            __import__(module)
        except ImportError:
            message = f"{module} is not installed (pip install -e '.[test]')"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    return postgres, redis


def fresh_postgres(url: str) -> str:
    """The test database at ``url``, emptied (schema made or upgraded first)."""
    from sqlalchemy import text

    from panal.server.database.store import Store, database_url

    db_url = database_url(url)[0]
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {', '.join(TABLES)}"))
    store.close()
    return db_url


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", f"sqlite:///{tmp_path / 'panal-test.sqlite3'}")
    postgres, redis = scale_out_services()
    return Backend("postgres", fresh_postgres(postgres), redis, f"test-{secrets.token_hex(4)}")


@pytest.fixture
def db_url(backend: Backend) -> str:
    return backend.db_url


@pytest.fixture
def client(backend: Backend) -> Iterator[TestClient]:
    app = create_app(
        backend.db_url,
        ai_runner=first_legal_move,
        levels=("beginner", "medium"),
        ai_workers=1,
        **backend.app_options(),
    )
    with TestClient(app) as test_client:
        yield test_client
