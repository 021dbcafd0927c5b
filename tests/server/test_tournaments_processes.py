"""Issue 22's proof for tournaments: a six-player Swiss and a round robin played to their end by
accounts through the HTTP API and the games' websockets of real ``panal serve`` processes, with
a process killed by SIGKILL in the middle of a round: on SQLite (the one process killed and
started again) and on PostgreSQL + Redis (two processes, one killed, the other carries on).
The standings equal a recomputation from the stored games; no pair meets twice in the Swiss;
colours are balanced within one; no player is paired twice in a round."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import fresh_postgres, scale_out_services
from tests.server.helpers import ServerProcess
from tests.server.tournament_helpers import (
    Player,
    check_standings,
    check_swiss,
    run_tournament,
    sign_up,
    stored,
)

pytestmark = pytest.mark.slow

SWISS = {"name": "Swiss six", "format": "swiss", "rounds": 4, "max_players": 6}
ROUND_ROBIN = {"name": "Round robin four", "format": "round_robin", "max_players": 4}


def prove(servers: list[ServerProcess], db_url: str, kill: object, tmp: Path) -> None:
    alive = list(servers)

    def living() -> list[ServerProcess]:
        return alive

    players = [Player(f"player{i}") for i in range(1, 7)]
    sign_up(players, alive[0])
    final = run_tournament(living, players, SWISS, seed=22, in_the_middle=lambda: kill(alive))
    assert final["status"] == "finished" and final["rounds"] == 4
    games = stored(db_url, final["id"])
    assert len([g for g in games if g["black"] is not None]) == 4 * 3
    check_standings(final, games)
    check_swiss(games, [p.name for p in players])

    final = run_tournament(
        living, players[:4], ROUND_ROBIN, seed=7, in_the_middle=lambda: kill(alive)
    )
    assert final["status"] == "finished" and final["rounds"] == 3
    games = stored(db_url, final["id"])
    pairs = [frozenset((g["white"], g["black"])) for g in games]
    assert sorted(pairs, key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations([p.name for p in players[:4]], 2)), key=sorted
    )
    check_standings(final, games)
    for server in alive:
        assert "Traceback" not in Path(server.log_path).read_text()


def test_on_sqlite_with_the_process_killed_and_started_again(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "tournaments.sqlite3", tmp_path / "serve.log")
    server.start()

    def kill(alive: list[ServerProcess]) -> None:
        server.kill()
        server.start()

    try:
        prove([server], f"sqlite:///{tmp_path / 'tournaments.sqlite3'}", kill, tmp_path)
    finally:
        server.stop()


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[list[ServerProcess], str]]:
    postgres, redis = scale_out_services()
    db = fresh_postgres(postgres)
    args = ("--redis", redis, "--redis-prefix", f"test-{secrets.token_hex(4)}", "--ai-workers", "1")
    pair = [ServerProcess(db, tmp_path / f"serve-{name}.log", args) for name in "ab"]
    for server in pair:
        server.start()
    yield pair, db
    for server in pair:
        server.stop()


def test_on_postgres_with_two_processes_one_killed(
    two_servers: tuple[list[ServerProcess], str], tmp_path: Path
) -> None:
    servers, db = two_servers

    def kill(alive: list[ServerProcess]) -> None:
        if len(alive) == 2:  # the first time: process a dies in the middle of a round
            alive[0].kill()
            alive.pop(0)

    prove(servers, db, kill, tmp_path)
