"""Many ``panal serve`` processes on one PostgreSQL and one Redis serve the same games.

These tests start real processes (uvicorn) and need the services that ``.ci/run`` starts; on a
machine without them they are skipped (under CI they fail).
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from panal.server.hive_games.game_store import GameStore
from tests.server.conftest import fresh_postgres, scale_out_services
from tests.server.helpers import ServerProcess, alive, connect_game, descendants


@pytest.fixture(scope="module")
def services() -> tuple[str, str, str]:
    """(database URL, Redis URL, key prefix), the database emptied."""
    postgres, redis = scale_out_services()
    return fresh_postgres(postgres), redis, f"test-{secrets.token_hex(4)}"


@pytest.fixture(scope="module")
def two_servers(
    tmp_path_factory: pytest.TempPathFactory, services: tuple[str, str, str]
) -> Iterator[list[ServerProcess]]:
    """Two web processes on one database and one Redis (the kill test, last, kills one)."""
    db, redis, prefix = services
    tmp_path = tmp_path_factory.mktemp("scale-out")
    args = ("--redis", redis, "--redis-prefix", prefix, "--ai-workers", "1")
    servers = [ServerProcess(db, tmp_path / f"serve-{name}.log", args) for name in "ab"]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop()


def recv_state(ws: ClientConnection, until: Any = lambda s: True) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=15))
        if message["type"] == "state" and until(message):
            return message
    raise AssertionError("no matching state")


def moves_of(state: dict[str, Any]) -> list[str]:
    return [entry["move"] for entry in state["history"]]


def test_two_processes_never_fork_a_game(two_servers: list[ServerProcess]) -> None:
    """The same hot-seat seat on both processes sends two different moves at once, ten times:
    one wins each time, the other is refused, and both processes agree on the line."""
    a, b = two_servers
    created = httpx.post(f"{a.url}/api/games", json={"mode": "hotseat"}).json()
    game, token = created["id"], created["token"]
    with (
        connect_game(a.ws_url, game, token) as on_a,
        connect_game(b.ws_url, game, token) as on_b,
    ):
        state = recv_state(on_a)
        recv_state(on_b)
        for ply in range(10):
            legal = [m["move"] for m in state["legal"]]
            first, second = legal[0], legal[-1]
            # Both name the ply they saw: the one that arrives second is stale, never a move
            # played on top of the other.
            on_a.send(json.dumps({"type": "move", "move": first, "ply": ply}))
            on_b.send(json.dumps({"type": "move", "move": second, "ply": ply}))
            state = recv_state(on_a, lambda s, p=ply: s["ply"] == p + 1)
            other = recv_state(on_b, lambda s, p=ply: s["ply"] == p + 1)
            assert moves_of(state) == moves_of(other)
            assert state["history"][-1]["move"] in (first, second)
    exported = httpx.get(f"{b.url}/api/games/{game}/export").text.strip().split(";")[3:]
    assert exported == moves_of(state)
    assert len(exported) == 10


def test_an_invitation_has_one_winner_across_processes(two_servers: list[ServerProcess]) -> None:
    a, b = two_servers

    def join(
        server: ServerProcess, created: dict[str, Any], start: threading.Barrier, out: list[int]
    ) -> None:
        start.wait()
        response = httpx.post(
            f"{server.url}/api/games/{created['id']}/join", json={"invite": created["invite"]}
        )
        out.append(response.status_code)

    for _ in range(5):
        created = httpx.post(f"{a.url}/api/games", json={"mode": "online"}).json()
        answers: list[int] = []
        start = threading.Barrier(2)
        threads = [
            threading.Thread(target=join, args=(server, created, start, answers))
            for server in (a, b)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200, 409]


def test_ai_worker_plays_for_a_web_process_without_ai(
    tmp_path: Path, services: tuple[str, str, str]
) -> None:
    """``panal serve --ai-workers 0`` leaves the AI to ``panal ai-worker`` (another machine in a
    real deployment); killing the worker with SIGKILL takes its search processes with it."""
    pytest.importorskip("panal.ai")
    db, redis, prefix = services
    prefix += "-worker"  # a queue of its own: the other tests' servers compute AI moves too
    server = ServerProcess(
        db,
        tmp_path / "serve.log",
        ("--redis", redis, "--redis-prefix", prefix, "--ai-workers", "0"),
    )
    server.start()
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "panal.cli",
            "ai-worker",
            "--db",
            db,
            "--redis",
            redis,
            "--redis-prefix",
            prefix,
            "--processes",
            "1",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        created = httpx.post(
            f"{server.url}/api/games", json={"mode": "ai", "ai_level": "beginner", "color": "black"}
        ).json()
        with connect_game(server.ws_url, created["id"], created["token"]) as ws:
            state = recv_state(ws, lambda s: s["ply"] == 1)  # the worker's opening move
            assert state["history"][0]["color"] == 0
            ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"]}))
            state = recv_state(ws, lambda s: s["ply"] == 3)
            assert not state["ai_thinking"]
        searchers = descendants(worker.pid)
        assert searchers, "the worker runs its searches in child processes"
        worker.kill()
        worker.wait(10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in searchers):
            time.sleep(0.1)
        assert not any(alive(pid) for pid in searchers)
    finally:
        if worker.poll() is None:
            worker.kill()
        server.stop()


def test_an_ai_move_whose_process_was_killed_comes_from_another_within_seconds(
    tmp_path: Path, services: tuple[str, str, str]
) -> None:
    """Process A takes the AI's job (a ten-second search) and is killed with SIGKILL mid-search;
    process B takes the job over once A's hold on it lapses (5 s, see RedisJobQueue) and the
    game gets its AI move: a player connected to B sees it well before the job's time-out
    (the reclaim waited 150 s before the holds were renewed)."""
    pytest.importorskip("panal.ai")
    import redis as redis_client

    db, redis, prefix = services
    prefix += "-ai-kill"  # a queue of its own
    args = ("--redis", redis, "--redis-prefix", prefix, "--ai-workers", "1")
    a = ServerProcess(db, tmp_path / "serve-a.log", args)
    b = ServerProcess(db, tmp_path / "serve-b.log", args)
    queue = redis_client.Redis.from_url(redis)
    a.start()
    try:
        created = httpx.post(
            f"{a.url}/api/games", json={"mode": "ai", "ai_level": "strongest", "color": "white"}
        ).json()
        game, token = created["id"], created["token"]
        with connect_game(a.ws_url, game, token) as ws:
            state = recv_state(ws)
            ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": 0}))
            recv_state(ws, lambda s: s["ply"] == 1 and s["ai_thinking"])
        deadline = time.monotonic() + 10
        while not queue.xpending(f"{prefix}:jobs", "workers")["pending"]:
            assert time.monotonic() < deadline, "process A never took the AI's job"
            time.sleep(0.05)
        time.sleep(0.5)  # A is searching now (the strongest level searches for 10 s)
        a.kill()
        killed_at = time.monotonic()
        store = GameStore(db)
        try:
            loaded = store.load_game(game)
        finally:
            store.close()
        assert loaded is not None and len(loaded[1]) == 1, "the kill came after the AI's move"
        b.start()
        with connect_game(b.ws_url, game, token) as ws:
            state = recv_state(ws)
            while state["ply"] < 2:
                assert time.monotonic() - killed_at < 45, "no AI move from the survivor"
                message = json.loads(ws.recv(timeout=45))
                if message["type"] == "state":
                    state = message
        assert state["history"][1]["color"] == 1 and not state["ai_thinking"]
        # Taken over after 5 s without a renewal, then a 10 s search (150 s before).
        assert time.monotonic() - killed_at < 45
        assert "took over job" in b.log_path.read_text()
    finally:
        queue.close()
        a.kill()
        b.stop()


def test_players_on_two_processes_play_on_after_one_is_killed(
    two_servers: list[ServerProcess], services: tuple[str, str, str]
) -> None:
    a, b = two_servers
    created = httpx.post(f"{a.url}/api/games", json={"mode": "online"}).json()
    game = created["id"]
    joined = httpx.post(f"{b.url}/api/games/{game}/join", json={"invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    tokens = {0: created["token"], 1: joined.json()["token"]}

    white = connect_game(a.ws_url, game, tokens[0])  # White through A
    black = connect_game(b.ws_url, game, tokens[1])  # Black through B
    spectator = connect_game(b.ws_url, game, None)  # a spectator on B
    sockets = {0: white, 1: black}
    seen: dict[str, list[str]] = {}
    try:
        current = {color: recv_state(ws) for color, ws in sockets.items()}
        recv_state(white, lambda s: s["spectators"] == 1)  # B told A about its spectator
        for ply in range(1, 13):
            if ply == 7:
                a.kill()  # White's process dies mid-game: White reconnects to B
                white.close()
                white = sockets[0] = connect_game(b.ws_url, game, tokens[0])
                current[0] = recv_state(white)
            color = (ply - 1) % 2
            state = current[color]
            assert state["ply"] == ply - 1 and state["legal"]
            move = state["legal"][0]["move"]
            sockets[color].send(json.dumps({"type": "move", "move": move, "ply": ply - 1}))
            for each, ws in sockets.items():
                current[each] = recv_state(ws, lambda s, p=ply: s["ply"] == p)
            watched = recv_state(spectator, lambda s, p=ply: s["ply"] == p)
            if ply == 6:  # the spectator on B is counted on A too
                assert current[0]["spectators"] == 1, current[0]["spectators"]
            seen = {
                "white": moves_of(current[0]),
                "black": moves_of(current[1]),
                "spectator": moves_of(watched),
            }
    finally:
        for ws in (white, black, spectator):
            ws.close()
    db_url = services[0]
    store = GameStore(db_url)
    try:
        loaded = store.load_game(game)
    finally:
        store.close()
    assert loaded is not None
    stored = loaded[1]
    assert len(stored) == 12
    assert stored == seen["white"] == seen["black"] == seen["spectator"]
    assert httpx.get(f"{b.url}/api/games/{game}").json()["ply"] == 12


def test_workers_share_the_port_and_die_with_their_supervisor(
    tmp_path: Path, services: tuple[str, str, str]
) -> None:
    """``panal serve --workers 2``: two web processes behind one port; SIGKILL of the
    supervisor takes them (and anything they started) with it."""
    db, redis, prefix = services
    server = ServerProcess(
        db,
        tmp_path / "workers.log",
        ("--redis", redis, "--redis-prefix", prefix + "-workers", "--workers", "2"),
    )
    try:
        server.start()
        assert server.process is not None
        web_processes = descendants(server.process.pid)
        assert len(web_processes) >= 2
        created = httpx.post(f"{server.url}/api/games", json={"mode": "hotseat"}).json()
        for _ in range(10):  # whichever process answers, the game is there
            assert httpx.get(f"{server.url}/api/games/{created['id']}").status_code == 200
        server.kill()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in web_processes):
            time.sleep(0.1)
        assert not [pid for pid in web_processes if alive(pid)]
    finally:
        server.stop()
