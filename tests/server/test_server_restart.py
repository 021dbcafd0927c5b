"""A real ``panal serve`` (uvicorn) killed with SIGKILL and started again loses nothing, and
its log never holds a seat token."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.server.helpers import ServerProcess, hello


def next_state(ws: ClientConnection, ply: int) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] != "error", message
        if message["type"] == "state" and message["ply"] == ply:
            return message


def test_kill_and_restart_loses_nothing(tmp_path: Path) -> None:
    # --log-level info: uvicorn's access log, with each websocket's URL and query
    server = ServerProcess(
        tmp_path / "games.sqlite3", tmp_path / "serve.log", ("--log-level", "info")
    )
    server.start()
    try:
        created = httpx.post(f"{server.url}/api/games", json={"mode": "online"}).json()
        joined = httpx.post(
            f"{server.url}/api/games/{created['id']}/join", json={"invite": created["invite"]}
        ).json()
        url = f"{server.ws_url}/ws/games/{created['id']}"
        with connect(url) as white, connect(url) as black:
            white.send(hello(created["token"]))
            black.send(hello(joined["token"]))
            for ply, (ws, move) in enumerate(
                [(white, "wS1"), (black, "bS1 wS1-"), (white, "wQ -wS1")], 1
            ):
                ws.send(json.dumps({"type": "move", "move": move}))
                next_state(white, ply)
                next_state(black, ply)
            black.send(json.dumps({"type": "offer_draw"}))
            while json.loads(white.recv(timeout=10)).get("draw_offer") != 1:
                pass
            server.kill()

        server.start()
        with connect(url) as black:
            black.send(hello(joined["token"]))
            state = next_state(black, 3)
            assert [e["move"] for e in state["history"]] == ["wS1", "bS1 wS1-", "wQ -wS1"]
            assert state["draw_offer"] == 1
            assert state["you"] == ["black"]
            black.send(json.dumps({"type": "move", "move": "bQ bS1-"}))
            assert next_state(black, 4)["turn"] == 0
        server.kill()

        server.start()
        exported = httpx.get(f"{server.url}/api/games/{created['id']}/export").text
        assert exported.strip() == "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
    finally:
        server.stop()
    # The seat tokens went in hello messages: the access log records every websocket's URL
    # (so this check can fail) but no token.
    log = server.log_path.read_text()
    assert f"/ws/games/{created['id']}" in log
    for token in (created["token"], joined["token"]):
        assert token not in log


def test_clocks_survive_a_restart_and_its_downtime_is_not_charged(tmp_path: Path) -> None:
    """Black's clock runs when the server is killed; no server runs for eight seconds (and then
    it starts, which takes time too): Black is charged only for the time a server ran."""
    server = ServerProcess(tmp_path / "games.sqlite3", tmp_path / "serve.log")
    server.start()
    try:
        clock = {"kind": "realtime", "base": 60, "increment": 0}
        created = httpx.post(
            f"{server.url}/api/games", json={"mode": "hotseat", "clock": clock}
        ).json()
        with connect(f"{server.ws_url}/ws/games/{created['id']}") as ws:
            ws.send(hello(created["token"]))
            next_state(ws, 0)
            # Each side's first move costs nothing; White's third ply starts Black's clock.
            for ply, move in enumerate(("wS1", "bS1 wS1-", "wQ -wS1"), start=1):
                ws.send(json.dumps({"type": "move", "move": move}))
                moved = next_state(ws, ply)
        served = 1.0
        time.sleep(served)
        server.kill()
        time.sleep(8.0)
        server.start()
        state = httpx.get(f"{server.url}/api/games/{created['id']}").json()
        clocks = state["clocks"]
        assert clocks["running"] == 1 and clocks["white"] == moved["clocks"]["white"]
        black_left = clocks["black"] - (state["now"] - clocks["since"])
        # Without the outage given back, Black would have about 60 - 1 - 8 - (start-up) left;
        # the time since the last heartbeat before the kill (under a second) is given back too.
        assert 60 - served - 3 < black_left <= 60
        assert state["result"] is None
        assert "given back" in (tmp_path / "serve.log").read_text()
    finally:
        server.stop()
