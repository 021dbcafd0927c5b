"""Regression tests for the ways a hostile or unlucky client froze or broke the server (issue 8).

Each test names the failure it guards against. Tests on a real ``panal serve`` share one server
(SQLite, short time-outs) started for this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from panal.server.http.guard import steady_websocket_protocol
from panal.server.runtime.jobs import ChildPool, Job, JobCancelled, JobError
from tests.server.helpers import (
    ServerProcess,
    alive,
    descendants,
    game_socket,
    hello,
    receive_error,
    receive_state,
)
from tests.server.longgame import long_game_string

try:
    from websockets.asyncio.client import connect as async_connect
except ImportError:  # websockets < 13
    from websockets.client import connect as async_connect  # type: ignore[no-redef]

CAP = 40  # connections per address on the module's server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("hardening")
    process = ServerProcess(
        folder / "games.sqlite3",
        folder / "serve.log",
        (
            "--ai-workers", "1",
            "--header-timeout", "1",
            "--body-timeout", "2",
            "--max-connections-per-address", str(CAP),
            # The 30,000-ply import measures the event loop, not the machine: with every core
            # shared it has taken over the 60 s a heavy job is given by default.
            "--heavy-seconds", "600",
        ),
    )  # fmt: skip
    process.start()
    yield process
    process.stop()


# --- websocket input --------------------------------------------------------------------------


def test_deeply_nested_json_is_bad_json_not_a_crash(client: TestClient) -> None:
    """4,000 nested '[' raised an uncaught RecursionError and closed the socket."""
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        ws.send_text("[" * 4000)
        assert receive_error(ws)["code"] == "bad_json"
        ws.send_text('{"a":' * 1500 + "1" + "}" * 1500)
        assert receive_error(ws)["code"] in ("bad_json", "too_large")
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


# --- HTTP: bodies, headers, connections -------------------------------------------------------


def raw_request(server: ServerProcess, data: bytes, timeout: float = 10.0) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(data)
        return receive_all(sock)


def receive_all(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_chunked_body_over_the_limit_is_413(server: ServerProcess) -> None:
    """A 2 MB chunked body without Content-Length got 400 instead of 413."""
    head = (
        b"POST /api/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 65536
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(32)) + b"0\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(body)  # the server may answer and close before reading it all
        answer = receive_all(sock)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"too_large" in answer


def test_a_body_that_never_comes_is_408(server: ServerProcess) -> None:
    started = time.monotonic()
    answer = raw_request(
        server,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{",
    )
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert time.monotonic() - started < 8


def test_half_open_connections_are_closed(server: ServerProcess) -> None:
    """Connections sending nothing, or headers a byte at a time, were held forever."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as silent:
        assert receive_all(silent) == b""  # closed by the server, without an answer
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as slow:
        slow.sendall(b"GET /api/config HTTP/1.1\r\nHost: x\r\n")  # never finished
        assert receive_all(slow) == b""
    assert time.monotonic() - started < 8  # the 1 s header time-out, twice, not 10 s each


def test_connections_per_address_are_capped(server: ServerProcess) -> None:
    held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(CAP)]
    try:
        answer = raw_request(server, b"GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 429"), answer[:200]
        assert b"too_many_connections" in answer
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the server notices the closed sockets
        if httpx.get(f"{server.url}/api/config").status_code == 200:
            return
        time.sleep(0.1)
    raise AssertionError("the server still refuses after the connections closed")


# --- spectators ------------------------------------------------------------------------------


def test_spectators_leaving_at_once_never_push_a_player_off(server: ServerProcess) -> None:
    """150 spectators leaving at once queued 150 states for a player, who was disconnected."""
    created = httpx.post(f"{server.url}/api/games", json={"mode": "hotseat"}).json()
    base = f"{server.ws_url}/ws/games/{created['id']}"

    async def spectate() -> Any:
        ws = await async_connect(base)
        await ws.send(hello(None))
        return ws

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        async with async_connect(base, max_size=2**22) as player:
            await player.send(hello(created["token"]))
            spectators = [await spectate() for _ in range(CAP - 5)]
            for _ in range(4):  # come and go, four times over, while the player reads nothing
                await asyncio.gather(*(ws.close() for ws in spectators))
                spectators = [await spectate() for _ in range(CAP - 5)]
            await asyncio.gather(*(ws.close() for ws in spectators))
            await asyncio.sleep(1.0)
            received = []
            while True:
                try:
                    text = await asyncio.wait_for(player.recv(), 0.5)
                except TimeoutError:
                    break
                received.append(json.loads(text))
            await player.send(json.dumps({"type": "move", "move": "wS1"}))
            while True:
                state = json.loads(await asyncio.wait_for(player.recv(), 5))
                if state.get("ply") == 1:
                    return received, state

    received, after_move = asyncio.run(scenario())
    assert len(received) <= 12, len(received)  # coalesced, and newer states replace older ones
    assert received[-1]["spectators"] == 0
    assert after_move["history"][0]["move"] == "wS1"


def test_a_burst_of_messages_is_all_answered(server: ServerProcess) -> None:
    """The websocket is read on without a pause after each message (uvicorn's pause and resume
    cost two system calls per message), up to a backlog: 60 pings sent at once (fewer than the
    64 answers a connection may leave unread), are all answered, and the game still
    plays."""
    assert steady_websocket_protocol() is not None  # this uvicorn: the steady protocol serves
    created = httpx.post(f"{server.url}/api/games", json={"mode": "hotseat"}).json()
    url = f"{server.ws_url}/ws/games/{created['id']}?deltas=1"

    async def scenario() -> tuple[list[str], dict[str, Any]]:
        async with async_connect(url) as ws:
            await ws.send(hello(created["token"]))
            assert json.loads(await ws.recv())["type"] == "state"
            for index in range(60):
                await ws.send(json.dumps({"type": "ping", "id": index}))
            answers = [await asyncio.wait_for(ws.recv(), 10) for _ in range(60)]
            await ws.send(json.dumps({"type": "move", "move": "wS1"}))
            return answers, json.loads(await asyncio.wait_for(ws.recv(), 10))

    answers, delta = asyncio.run(scenario())
    assert answers == ['{"type":"pong"}'] * 60
    assert delta["type"] == "delta" and delta["moves"]["add"][0]["move"] == "wS1"


# --- AI jobs ---------------------------------------------------------------------------------


def test_resigned_games_drop_their_queued_ai_jobs(tmp_path: Path) -> None:
    """Four resigned games kept their AI searches queued: a new game waited 26 s."""
    from panal.server.app import create_app
    from panal.server.hive_games.live import Limits

    release = threading.Event()

    def blocked_ai(payload: dict[str, Any]) -> dict[str, str]:
        from tests.server.conftest import first_legal_move

        release.wait(10)
        return first_legal_move(payload)

    async def stand_in(payload: dict[str, Any]) -> dict[str, str]:
        return await asyncio.to_thread(blocked_ai, payload)

    app = create_app(
        f"sqlite:///{tmp_path / 'ai.sqlite3'}",
        ai_runner=stand_in,
        levels=("beginner",),
        ai_workers=1,
        limits=Limits(ai_games_per_client=5),
    )
    with TestClient(app) as client:
        hub = app.state.hub
        games = [
            client.post("/api/games", json={"mode": "ai", "color": "black"}).json()
            for _ in range(4)
        ]
        assert hub.jobs.queued == 3  # one running, three waiting
        for game in games:
            with game_socket(client, game["id"], game["token"]) as ws:
                receive_state(ws)
                ws.send_json({"type": "resign"})
                receive_state(ws, lambda s: s["result"] is not None)
        assert hub.jobs.queued == 0
        fresh = client.post("/api/games", json={"mode": "ai", "color": "black"}).json()
        release.set()
        with game_socket(client, fresh["id"], fresh["token"]) as ws:
            assert receive_state(ws, lambda s: s["ply"] == 1)["history"][0]["color"] == 0
        for game in games:  # the search that was running when its game was resigned: dropped
            assert client.get(f"/api/games/{game['id']}").json()["ply"] == 0


@pytest.mark.parametrize(
    ("answer", "code", "english"),
    [
        ("raise", "ai_failed", "the AI failed: the search broke"),
        ("illegal", "ai_illegal_move", "the AI played an illegal move"),
    ],
)
def test_an_ai_that_does_not_move_says_why_with_a_code(
    tmp_path: Path, answer: str, code: str, english: str
) -> None:
    """The page translates the code; the English text stays for clients that do not know it."""
    from panal.server.app import create_app

    async def stand_in(payload: dict[str, Any]) -> dict[str, str]:
        if answer == "raise":
            raise JobError("the search broke")
        return {"move": "wQ"}  # White's piece, on Black's turn

    app = create_app(
        f"sqlite:///{tmp_path / 'ai.sqlite3'}", ai_runner=stand_in, levels=("beginner",)
    )
    with TestClient(app) as client:
        game = client.post("/api/games", json={"mode": "ai", "color": "white"}).json()
        with game_socket(client, game["id"], game["token"]) as ws:
            receive_state(ws)
            ws.send_json({"type": "move", "move": "wS1"})
            state = receive_state(ws, lambda s: s["ai_error"] is not None)
        assert state["ai_error_code"] == code
        assert state["ai_error"].startswith(english)
        assert state["ply"] == 1 and not state["ai_thinking"]
        public = client.get(f"/api/games/{game['id']}").json()
        assert public["ai_error_code"] == code


def test_ai_games_per_client_are_limited(client: TestClient) -> None:
    created = [client.post("/api/games", json={"mode": "ai"}) for _ in range(4)]
    assert all(response.status_code == 201 for response in created)
    refused = client.post("/api/games", json={"mode": "ai"})
    assert refused.status_code == 429
    assert refused.json()["error"] == "too_many_ai_games"
    assert client.post("/api/games", json={"mode": "hotseat"}).status_code == 201
    first = created[0].json()
    with game_socket(client, first["id"], first["token"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] is not None)
    assert client.post("/api/games", json={"mode": "ai"}).status_code == 201


def test_a_cancelled_search_stops_at_once() -> None:
    pytest.importorskip("panal.ai")
    from panal.hive import Game, Options
    from panal.server.hive_games.ai_pool import ai_payload

    async def scenario() -> float:
        pool = ChildPool(1, warm=("panal.ai",))
        await pool.start()
        payload = ai_payload("g", 0, Game("Base").game_string(), Options(), "strongest", 1)
        job = Job("hive.ai_move", "game:g", payload)
        task = asyncio.ensure_future(pool.run(job, 120))
        await asyncio.sleep(1.0)
        started = time.monotonic()
        pool.cancel(job.id)
        with pytest.raises(JobCancelled):
            await task
        stopped = time.monotonic() - started
        easy = Job("hive.ai_move", "game:h", {**payload, "level": "beginner"})
        assert "move" in await pool.run(easy, 60)  # a fresh worker takes the next job
        await pool.close()
        return stopped

    assert asyncio.run(scenario()) < 2.0


def test_killing_the_server_takes_its_worker_processes_with_it(tmp_path: Path) -> None:
    """After kill -9 of the server, the AI worker and a resource tracker stayed, orphaned."""
    pytest.importorskip("panal.ai")
    server = ServerProcess(
        tmp_path / "games.sqlite3", tmp_path / "serve.log", ("--ai-workers", "1")
    )
    server.start()
    try:
        created = httpx.post(
            f"{server.url}/api/games", json={"mode": "ai", "ai_level": "beginner", "color": "black"}
        ).json()
        deadline = time.monotonic() + 30
        while httpx.get(f"{server.url}/api/games/{created['id']}").json()["ply"] < 1:
            assert time.monotonic() < deadline, "the AI did not move"
            time.sleep(0.2)
        imported = httpx.post(
            f"{server.url}/api/import", json={"text": "Base;InProgress;Black[1];wS1"}
        )
        assert imported.status_code == 201, imported.text  # the worker for records started too
        assert server.process is not None
        helpers = descendants(server.process.pid)
        assert len(helpers) >= 2
        server.kill()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in helpers):
            time.sleep(0.1)
        assert not [pid for pid in helpers if alive(pid)]
    finally:
        server.stop()


# --- nothing heavy on the event loop ---------------------------------------------------------


def test_a_30000_ply_import_does_not_freeze_the_server(server: ServerProcess) -> None:
    """A 30,000-ply import held the event loop for 24 s: other requests waited, moves in other
    games took seconds, and each GET of the imported game replayed it again."""
    record = long_game_string(30_000)
    game = httpx.post(f"{server.url}/api/games", json={"mode": "hotseat"}).json()
    done = threading.Event()
    outcome: dict[str, Any] = {}

    def import_it() -> None:
        try:
            outcome["response"] = httpx.post(
                f"{server.url}/api/import", json={"text": record}, timeout=600
            )
        finally:
            done.set()

    quiet: dict[str, list[float]] = {"config": [], "move": []}  # before the import starts
    busy: dict[str, list[float]] = {"config": [], "move": []}  # while it runs

    async def probe() -> None:
        rng = random.Random(8)
        ws_url = f"{server.ws_url}/ws/games/{game['id']}"
        async with (
            httpx.AsyncClient(base_url=server.url) as http,
            async_connect(ws_url, max_size=2**22) as ws,
        ):
            await ws.send(hello(game["token"]))
            state = json.loads(await ws.recv())
            await http.get("/api/config")  # the connection is open before timing

            async def one_round(times: dict[str, list[float]]) -> None:
                nonlocal state
                started = time.perf_counter()
                assert (await http.get("/api/config")).status_code == 200
                times["config"].append(1000 * (time.perf_counter() - started))
                move = rng.choice(state["legal"])["move"]
                started = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
                ply = state["ply"] + 1
                while state.get("ply") != ply:
                    state = json.loads(await ws.recv())
                    assert state["type"] == "state", state
                times["move"].append(1000 * (time.perf_counter() - started))
                await asyncio.sleep(0.05)

            for _ in range(30):
                await one_round(quiet)
            threading.Thread(target=import_it, daemon=True).start()
            while not done.is_set() and not state["result"]:
                await one_round(busy)
        done.wait(600)

    asyncio.run(probe())
    response = outcome["response"]
    assert response.status_code == 201, response.text
    assert response.json()["plies"] == 30_000
    assert len(busy["config"]) >= 10 and len(busy["move"]) >= 10  # the import took a while
    for kind in ("config", "move"):
        ordered = sorted(busy[kind])
        # What a freeze looks like: the probes are sequential, so while the event loop is held
        # one probe waits the whole time (24 s before the fix); held in pieces, many probes are
        # slow. So: no probe waits 2 s, and at most one in fifty exceeds 100 ms (the issue's
        # bound) or, on a loaded machine, three times the slowest tenth of the same probes just
        # before the import. On this shared two-core machine the import runs for 5 to 40 s
        # (hundreds of probes), and a few probes anywhere in it are slowed by the scheduler, not
        # by the server: the second slowest of 422 was once 107 ms against a 100 ms allowance.
        allowance = max(100.0, 3 * statistics.quantiles(quiet[kind], n=10)[-1])
        over = [latency for latency in ordered if latency >= allowance]
        summary = (
            f"{kind}: worst {ordered[-1]:.0f} ms, median {statistics.median(ordered):.0f} ms, "
            f"{len(over)} over {allowance:.0f} ms, of {len(ordered)} probes; before the import, "
            f"90th percentile {statistics.quantiles(quiet[kind], n=10)[-1]:.0f} ms"
        )
        assert len(over) <= len(ordered) // 50 and ordered[-1] < 2000, summary

    # Reading the imported game again does not replay it: its state is kept.
    started = time.perf_counter()
    state = httpx.get(f"{server.url}/api/games/{response.json()['id']}", timeout=30).json()
    assert len(state["history"]) == 30_000
    assert time.perf_counter() - started < 2.0
