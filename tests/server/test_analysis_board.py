"""The analysis board and game reviews in ``panal serve`` (issue 20), on SQLite and on
PostgreSQL + Redis: positions checked by the rules engine (the editor's invariants named for
translation), the engine's lines streamed as the search deepens and then served from the cache,
the review of a finished game stored once and shown to everyone, and no engine or review for a
game still being played by the one asking. Small node budgets keep them quick."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from panal.hive import Game, GameState
from panal.server.analysis.engine import EngineLimits
from panal.server.app import create_app
from tests.server.conftest import Backend, first_legal_move, fresh_postgres, scale_out_services
from tests.server.helpers import ServerProcess, open_websocket

pytest.importorskip("panal.ai.analysis")

LIMITS = EngineLimits(nodes=1_500, review_nodes_per_ply=150)
#: A game that ended on the board: Black surrounded the white queen at ply 11.
FINISHED = (
    "Base;BlackWins;Black[6];wQ;bG1 -wQ;wS1 wQ/;bQ \\bG1;wS2 wQ-;bQ -wS1;wG1 wQ\\;bA1 /bG1;"
    "wS2 \\wS1;bA1 bG1\\;wA1 wQ-"
)
#: White to move surrounds the black queen: wA1 slides round to (1, -1), its last free cell.
SURROUND_IN_ONE = {
    "type": "Base",
    "setup": {
        "stacks": [
            [0, 0, ["bQ"]],
            [1, 0, ["wQ"]],
            [0, 1, ["wS1"]],
            [-1, 1, ["wS2"]],
            [-1, 0, ["bS1"]],
            [0, -1, ["bA1"]],
            [2, 0, ["wA1"]],
        ],
        "turn": 0,
    },
    "moves": [],
}


@pytest.fixture
def client(backend: Backend) -> Iterator[TestClient]:
    app = create_app(
        backend.db_url,
        ai_runner=first_legal_move,
        ai_workers=1,
        analysis_limits=LIMITS,
        **backend.app_options(),
    )
    with TestClient(app) as test_client:
        yield test_client


def hello(ws: Any, token: str | None = None) -> None:
    ws.send_json({"type": "hello", "token": token})


def until(ws: Any, kind: str, **fields: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
            return message


def test_positions_are_checked_by_the_rules_engine(client: TestClient) -> None:
    answer = client.post("/api/analysis/position", json={"position": SURROUND_IN_ONE})
    assert answer.status_code == 200
    board = answer.json()["board"]
    assert board["turn"] == 0 and board["turn_number"] == 5 and board["state"] == "InProgress"
    assert any(m["piece"] == "wA1" and m["to"] == [1, -1] for m in board["legal"])
    split = {"setup": {"stacks": [[0, 0, ["wQ"]], [2, 0, ["bQ"]]], "turn": 0}}
    refused = client.post("/api/analysis/position", json={"position": split})
    assert refused.status_code == 422
    assert refused.json() | {"detail": ""} == {
        "error": "bad_setup",
        "reason": "split",
        "details": {},
        "detail": "",
    }
    climbing = {"setup": {"stacks": [[0, 0, ["wQ", "bA1"]]], "turn": 0}}
    answer = client.post("/api/analysis/position", json={"position": climbing}).json()
    assert (answer["reason"], answer["details"]) == ("cannot_climb", {"piece": "bA1"})
    illegal = client.post("/api/analysis/position", json={"position": {"moves": ["wS1", "wS2"]}})
    assert illegal.status_code == 422 and illegal.json()["error"] == "illegal_move"
    assert illegal.json()["details"] == {"ply": "2", "move": "wS2"}
    # The Dragonfly and the rule options are the library's own.
    dragonfly = {"type": "Base+D", "options": {"dragonfly_sidestep": "either"}, "moves": ["wD"]}
    answer = client.post("/api/analysis/position", json={"position": dragonfly})
    assert answer.status_code == 200 and answer.json()["board"]["stacks"] == [[0, 0, ["wD"]]]
    bad_option = {"options": {"dragonfly_sidestep": "sideways"}}
    answer = client.post("/api/analysis/position", json={"position": bad_option})
    assert answer.status_code == 422 and answer.json()["error"] == "bad_position"


def test_the_engine_streams_deeper_lines_then_answers_from_the_cache(client: TestClient) -> None:
    position = {"type": "Base", "moves": ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]}
    with client.websocket_connect("/ws/analysis") as ws:
        hello(ws)
        ws.send_json({"type": "position", "id": 1, "position": position, "lines": 3})
        shown = until(ws, "position", id=1)
        legal = {move["move"] for move in shown["board"]["legal"]}
        steps = []
        while True:
            message = until(ws, "analysis", key=shown["key"])
            steps.append(message)
            if message["final"]:
                break
        final = steps[-1]["analysis"]
        assert not steps[-1]["cached"]
        depths = [step["analysis"]["depth"] for step in steps]
        assert len(steps) >= 2 and depths == sorted(depths)  # the lines deepen as they come
        lines = final["lines"]
        assert len(lines) == 3
        firsts = [line["moves"][0] for line in lines]
        assert len(set(firsts)) == 3 and set(firsts) <= legal
        assert [line["win_chance"] for line in lines] == sorted(
            (line["win_chance"] for line in lines), reverse=True
        )
        # The same position, reached again: answered at once from the stored analysis.
        ws.send_json({"type": "position", "id": 2, "position": position})
        until(ws, "position", id=2)
        again = until(ws, "analysis", key=shown["key"])
        assert again["cached"] and again["final"] and again["analysis"] == final
    # By any process, from the database: a new connection gets it too.
    with client.websocket_connect("/ws/analysis") as ws:
        hello(ws)
        ws.send_json({"type": "position", "id": 1, "position": position})
        assert until(ws, "analysis", key=shown["key"])["cached"]


def test_a_position_from_the_editor_shows_the_winning_line(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as ws:
        hello(ws)
        ws.send_json({"type": "position", "id": 7, "position": SURROUND_IN_ONE})
        key = until(ws, "position", id=7)["key"]
        best = until(ws, "analysis", key=key, final=True)["analysis"]["lines"][0]
    assert best["surround_in"] == 1 and best["win_chance"] >= 0.99
    game = Game.from_board(
        {(q, r): stack for q, r, stack in SURROUND_IN_ONE["setup"]["stacks"]}  # type: ignore[index]
    )
    game.push(best["moves"][0])
    assert game.state is GameState.WHITE_WINS


def test_a_new_position_or_leaving_makes_the_previous_job_stale(client: TestClient) -> None:
    engines = client.app.state.engines  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/analysis") as ws:
        hello(ws)
        ws.send_json({"type": "position", "id": 1, "position": {"moves": ["wS1"]}, "engine": False})
        until(ws, "position", id=1)
        (client_id,) = engines.clients
        store = engines.store
        assert store.engine_job(client_id) is None  # engine off: no job
        ws.send_json({"type": "position", "id": 2, "position": {"moves": ["wG1"]}})
        key = until(ws, "position", id=2)["key"]
        until(ws, "analysis", key=key, final=True)
        first = store.engine_job(client_id)
        ws.send_json({"type": "position", "id": 3, "position": {"moves": ["wA1"]}})
        key = until(ws, "position", id=3)["key"]
        until(ws, "analysis", key=key, final=True)
        assert store.engine_job(client_id) not in (None, first)
    deadline = time.monotonic() + 15  # the leaving is handled after the socket closes
    while store.engine_job(client_id) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.engine_job(client_id) is None  # the page was left: no job of it matters


def test_a_finished_game_is_reviewed_once_and_shown_to_everyone(client: TestClient) -> None:
    game_id = client.post("/api/import", json={"text": FINISHED}).json()["id"]
    assert client.get(f"/api/analysis/reviews/{game_id}").json()["status"] == "none"
    with client.websocket_connect(f"/ws/analysis?game={game_id}") as ws:
        hello(ws)
        first = until(ws, "review")
        assert first["status"] == "none" and first["finished"]
        assert first["position"]["moves"][-1] == "wA1 wQ-"
        ws.send_json({"type": "review"})
        seen = [until(ws, "review")]
        while seen[-1]["status"] not in ("done", "failed"):
            seen.append(until(ws, "review"))
    assert seen[0]["status"] == "queued" and seen[0]["total"] == 11
    done = seen[-1]
    assert done["done"] == 11
    review = done["review"]
    assert len(review["plies"]) == 11
    assert [ply["move"] for ply in review["plies"]] == first["position"]["moves"]
    assert set(review["sides"]) == {"white", "black"}
    # Stored: anyone who opens the game later sees it at once, and asking again changes nothing.
    assert client.get(f"/api/analysis/reviews/{game_id}").json()["review"] == review
    again = client.post(f"/api/analysis/reviews/{game_id}").json()
    assert again["status"] == "done" and again["version"] == done["version"]


def test_no_review_or_engine_for_a_game_still_being_played(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    game_id, token = created["id"], created["token"]
    refused = client.post(f"/api/analysis/reviews/{game_id}")
    assert refused.status_code == 409 and refused.json()["error"] == "game_not_finished"
    with client.websocket_connect(f"/ws/analysis?game={game_id}") as ws:
        hello(ws, token)
        assert until(ws, "review")["finished"] is False
        until(ws, "engine_refused")
        ws.send_json({"type": "position", "id": 1, "position": {"moves": ["wS1"]}})
        until(ws, "position", id=1)
        ws.send_json({"type": "ping"})
        assert until(ws, "pong") == {"type": "pong"}  # and no analysis came before it
    missing = client.get("/api/analysis/reviews/nosuchgame")
    assert missing.status_code == 404


def test_a_worker_process_reports_each_depth_before_its_result() -> None:
    """The job protocol's progress frames, through a real job process (as ``panal serve`` and
    ``panal ai-worker`` run them): the lines of each completed depth, then the result."""
    import asyncio

    from panal.server.runtime.jobs import ChildPool, Job

    position = {"type": "Base+MLPD", "options": {"dragonfly_carry": "next_turn"}, "moves": []}
    payload = {"client": "c", "key": "k", "position": position, "nodes": 1_500, "lines": 2}
    reports: list[dict[str, Any]] = []

    async def run() -> Any:
        pool = ChildPool(1)
        try:
            job = Job("analysis.position", "engine:c", payload)
            return await pool.run(job, 60, reports.append)
        finally:
            await pool.close()

    result = asyncio.run(run())
    assert reports and all(len(report["lines"]) == 2 for report in reports)
    assert [r["depth"] for r in reports] == sorted(r["depth"] for r in reports)
    assert result["depth"] >= reports[-1]["depth"] and len(result["lines"]) == 2


@pytest.mark.slow
def test_an_ai_worker_elsewhere_computes_the_lines_and_the_review(tmp_path: Path) -> None:
    """``panal serve --ai-workers 0`` leaves the engine to ``panal ai-worker`` (another machine
    in a real deployment): the lines it finds at each depth reach the page through Redis, and
    the review it computes is stored and shown."""
    postgres, redis = scale_out_services()
    db, prefix = fresh_postgres(postgres), f"test-{secrets.token_hex(4)}-analysis"
    server = ServerProcess(
        db,
        tmp_path / "serve.log",
        ("--redis", redis, "--redis-prefix", prefix, "--ai-workers", "0"),
    )
    server.start()
    worker_args = ["--db", db, "--redis", redis, "--redis-prefix", prefix, "--processes", "1"]
    with (tmp_path / "worker.log").open("wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "panal.cli", "ai-worker", *worker_args],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        with open_websocket(f"{server.ws_url}/ws/analysis") as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            ws.send(json.dumps({"type": "position", "id": 1, "position": SURROUND_IN_ONE}))
            messages = []
            while not (messages and messages[-1].get("final")):
                messages.append(json.loads(ws.recv(timeout=60)))
            lines = [m for m in messages if m["type"] == "analysis"]
            assert lines[-1]["analysis"]["lines"][0]["surround_in"] == 1
            assert not lines[0]["final"]  # a depth reported by the worker before its result
        game_id = httpx.post(f"{server.url}/api/import", json={"text": FINISHED}).json()["id"]
        assert httpx.post(f"{server.url}/api/analysis/reviews/{game_id}").status_code == 200
        deadline = time.monotonic() + 120
        review = httpx.get(f"{server.url}/api/analysis/reviews/{game_id}").json()
        while review["status"] != "done" and time.monotonic() < deadline:
            time.sleep(0.5)
            review = httpx.get(f"{server.url}/api/analysis/reviews/{game_id}").json()
        assert review["status"] == "done" and len(review["review"]["plies"]) == 11
    finally:
        worker.kill()
        worker.wait(10)
        server.stop()
