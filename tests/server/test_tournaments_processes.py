"""Issue 22's proof for tournaments: a six-player Swiss (four people through the HTTP API and the
games' websockets, two bots through ``panal bot``: ``python -m panal.uhp.players greedy`` and
``panal uhp`` at its beginner level, registering by themselves with ``--tournament``) and a round
robin of four people, played to their end on real ``panal serve`` processes, with a process
killed by SIGKILL in the middle of a round: on SQLite (the one process killed and started
again; the bots reconnect) and on PostgreSQL + Redis (two processes, one killed, the other
carries on). The standings equal a recomputation from the stored games; no pair meets twice in
the Swiss; colours are balanced within one; no player is paired twice in a round; no game was
forfeited (the bots played every one of theirs)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.server.helpers import ServerProcess, backend_servers
from tests.server.tournament_helpers import (
    Player,
    check_standings,
    check_swiss,
    run_tournament,
    sign_up,
    stored,
    stored_series,
    wait_for,
)

pytestmark = pytest.mark.slow

SWISS = {"name": "Swiss six", "format": "swiss", "rounds": 4, "max_players": 6}
ROUND_ROBIN = {"name": "Round robin four", "format": "round_robin", "max_players": 4}
SERIES = {
    "name": "Enjambre three",
    "format": "series",
    "game_type": "Enjambre",
    "rounds": 2,
    "max_players": 3,
    "no_show_seconds": 5,
}


#: The two bots' engines: panal's greedy reference player and ``panal uhp`` at its weakest.
ENGINES = {
    "greedybot": (f"{sys.executable} -m panal.uhp.players greedy", ()),
    "uhpbot": (f"{sys.executable} -m panal.cli uhp", ("--option", "Level=beginner")),
}


def start_bots(
    owner: Player, server: ServerProcess, tmp: Path, bots: list[subprocess.Popen[bytes]]
) -> Callable[[str], list[str]]:
    """Make the bot accounts (``owner``'s), and a function that starts their ``panal bot``
    processes, each registering for a tournament by itself, on ``server``."""
    tokens = {}
    for name in ENGINES:
        made = owner.post(server, "/api/bots", {"name": name})
        assert made.status_code == 201, made.text
        tokens[name] = made.json()["token"]

    def start(tournament_id: str) -> list[str]:
        for name, (engine, options) in ENGINES.items():
            command = [
                sys.executable, "-m", "panal.cli", "bot", "--engine", engine,
                "--server", server.url, "--token", tokens[name], *options,
                "--tournament", tournament_id, "--poll", "0.3",
            ]  # fmt: skip
            log = (tmp / f"{name}.log").open("ab")
            bots.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
        return list(ENGINES)

    return start


def prove(
    servers: list[ServerProcess], db_url: str, kill: object, tmp: Path, bot_server: ServerProcess
) -> None:
    alive = list(servers)

    def living() -> list[ServerProcess]:
        return alive

    players = [Player(f"player{i}") for i in range(1, 5)]
    sign_up(players, alive[0])
    bots: list[subprocess.Popen[bytes]] = []
    try:
        final = run_tournament(
            living,
            players,
            SWISS,
            seed=22,
            in_the_middle=lambda: kill(alive),
            bots=start_bots(players[0], bot_server, tmp, bots),
        )
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)
    assert final["status"] == "finished" and final["rounds"] == 4
    games = stored(db_url, final["id"])
    assert len([g for g in games if g["black"] is not None]) == 4 * 3
    assert all(g["end_reason"] != "forfeit" for g in games if g["black"] is not None), games
    names = [p.name for p in players] + list(ENGINES)
    assert sorted(p["name"] for p in final["players"]) == sorted(names)
    assert any({g["white"], g["black"]} & set(ENGINES) for g in games)
    check_standings(final, games)
    check_swiss(games, names)
    for name in ENGINES:
        assert "Traceback" not in (tmp / f"{name}.log").read_text()

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


def prove_series(
    servers: list[ServerProcess], db_url: str, kill: Callable[[list[ServerProcess]], None]
) -> None:
    """An Enjambre series of three, a process killed while round 1's table is played (nobody
    sits down: each seat goes to a bot after the no-show time, and the bots play it out)."""
    alive = list(servers)
    players = [Player(f"swarm{i}") for i in range(1, 4)]
    sign_up(players, alive[0])
    created = players[0].post(alive[0], "/api/tournaments", SERIES)
    assert created.status_code == 201, created.text
    tournament_id = created.json()["id"]
    for i, player in enumerate(players):
        joined = player.post(alive[i % len(alive)], f"/api/tournaments/{tournament_id}/join")
        assert joined.status_code == 200, joined.text
    started = players[0].post(alive[0], f"/api/tournaments/{tournament_id}/start")
    assert started.status_code == 200, started.text
    kill(alive)  # round 1's table is being played
    wait_for(alive[0], tournament_id, lambda s: s["round"] == 2 or s["status"] == "finished")
    final = wait_for(alive[0], tournament_id, lambda s: s["status"] == "finished")
    assert final["round"] == 2
    games = stored_series(db_url, tournament_id)
    assert len(games) == 2 * 3  # two tables of three: three pairs each, once
    assert len({frozenset((g["white"], g["black"])) for g in games}) == 3
    check_standings(final, games)
    for server in alive:
        assert "Traceback" not in Path(server.log_path).read_text()


def test_series_on_sqlite_with_the_process_killed_and_started_again(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "series.sqlite3", tmp_path / "serve.log")
    server.start()

    def kill(alive: list[ServerProcess]) -> None:
        server.kill()
        server.start()

    try:
        prove_series([server], f"sqlite:///{tmp_path / 'series.sqlite3'}", kill)
    finally:
        server.stop()


def test_on_sqlite_with_the_process_killed_and_started_again(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "tournaments.sqlite3", tmp_path / "serve.log")
    server.start()

    def kill(alive: list[ServerProcess]) -> None:
        server.kill()
        server.start()

    try:
        prove([server], f"sqlite:///{tmp_path / 'tournaments.sqlite3'}", kill, tmp_path, server)
    finally:
        server.stop()


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[list[ServerProcess], str]]:
    with backend_servers("postgres", tmp_path, ("--ai-workers", "1")) as pair:
        yield pair, str(pair[0].db_path)


def test_on_postgres_with_two_processes_one_killed(
    two_servers: tuple[list[ServerProcess], str], tmp_path: Path
) -> None:
    servers, db = two_servers

    def kill(alive: list[ServerProcess]) -> None:
        if len(alive) == 2:  # the first time: process a dies in the middle of a round
            alive[0].kill()
            alive.pop(0)

    # the bots use process b, which lives (the people move on from a to b when a dies)
    prove(servers, db, kill, tmp_path, servers[1])


def test_series_on_postgres_with_two_processes_one_killed(
    two_servers: tuple[list[ServerProcess], str],
) -> None:
    servers, db = two_servers

    def kill(alive: list[ServerProcess]) -> None:
        alive[0].kill()
        alive.pop(0)

    prove_series(servers, db, kill)
