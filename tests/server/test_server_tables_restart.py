"""An Enjambre table on a real ``panal serve`` killed with SIGKILL while its bots think, then
started again: the table, its secrets and its bots go on where they were. Seat tokens and
invitations are in neither the server's log nor its database (only their digests are)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from panal.server.room.tokens import hash_token
from tests.server.helpers import ServerProcess

GAME_SECONDS = 120


def next_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=30))
        assert message["type"] != "error", message
        if message["type"] == "state":
            return dict(message)


def hello(ws: ClientConnection, token: str) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token}))
    return next_state(ws)


def own_numbers(view: dict[str, Any]) -> dict[int, int]:
    return {t["id"]: t["number"] for t in view["tiles"] if t["owner"] == 0}


def test_a_table_survives_a_kill_while_its_bots_think(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path / "games.sqlite3", tmp_path / "serve.log", ("--bot-pause", "1.0")
    )
    server.start()
    try:
        body = {
            "players": 3,
            "mode": "online",
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
            "options": {"rounds": 2},
        }
        created = httpx.post(f"{server.url}/api/enjambre/tables", json=body).json()
        table, token = created["id"], created["token"]
        url = f"{server.ws_url}/ws/tables/{table}"
        with connect(url) as ws:
            state = hello(ws, token)
            while "legal" not in state["view"]:
                state = next_state(ws)
            cells = random.Random(2).sample(state["view"]["zone"], 10)
            ws.send(json.dumps({"type": "place", "cells": cells}))
            while not state["view"]["placed"][0]:
                state = next_state(ws)
            placed = own_numbers(state["view"])
            assert sorted(placed.values()) == list(range(1, 11))
            before = state["table"]["version"]
        server.kill()  # the bots are still pausing over their set-ups or moves

        server.start()
        with connect(url) as ws:
            state = hello(ws, token)
            assert state["table"]["version"] >= before and state["table"]["status"] == "playing"
            assert own_numbers(state["view"]) == placed  # the secret set-up survived
            deadline = time.monotonic() + GAME_SECONDS
            while state["table"]["status"] != "over":
                assert time.monotonic() < deadline, "the bots did not resume"
                if state["view"].get("legal", {}).get("end"):
                    ws.send(json.dumps({"type": "end"}))
                state = next_state(ws)
        final = httpx.get(f"{server.url}/api/enjambre/tables/{table}").json()
        assert final["view"]["result"] is not None
        ended = [e["player"] for e in final["events"] if e["type"] == "turn_ended"]
        assert sorted(ended) == [0, 0, 1, 1, 2, 2]  # every seat played both rounds

        # An invitation used, and a seat token on a websocket: no secret is in the server's log
        # or in the database, where only their SHA-256 digests are.
        body = {"players": 2, "seats": [{"kind": "person"}, {"kind": "person"}]}
        invited = httpx.post(f"{server.url}/api/enjambre/tables", json=body).json()
        invite = invited["invites"]["1"]
        joined = httpx.post(
            f"{server.url}/api/enjambre/tables/{invited['id']}/join",
            json={"seat": 1, "invite": invite},
        ).json()
        with connect(f"{server.ws_url}/ws/tables/{invited['id']}") as ws:
            assert hello(ws, joined["token"])["viewer"] == 1
    finally:
        server.stop()
    secrets = [token, invited["token"], invite, joined["token"]]
    log = server.log_path.read_text()
    database = b"".join(path.read_bytes() for path in tmp_path.glob("games.sqlite3*"))
    for secret in secrets:
        assert secret not in log and secret.encode() not in database
    for secret in (token, invited["token"], joined["token"]):  # a used invitation is erased
        assert hash_token(secret).encode() in database
