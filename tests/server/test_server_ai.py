"""Games against the real AI (panal.ai), whose searches run in worker processes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from panal.server.app import create_app
from tests.server.conftest import Backend
from tests.server.helpers import game_socket, receive_state


@pytest.fixture
def ai_client(backend: Backend) -> Iterator[TestClient]:
    app = create_app(backend.db_url, ai_workers=1, **backend.app_options())
    with TestClient(app) as test_client:
        yield test_client


def test_ai_replies_from_the_process_pool_and_plays_first_as_white(ai_client: TestClient) -> None:
    from panal.ai import LEVELS

    assert ai_client.get("/api/config").json()["ai_levels"] == list(LEVELS)
    created = ai_client.post(
        "/api/games", json={"mode": "ai", "ai_level": "beginner", "color": "black"}
    ).json()
    with game_socket(ai_client, created["id"], created["token"]) as ws:
        state = receive_state(ws, lambda s: s["ply"] == 1)  # the AI opened
        assert state["history"][0]["color"] == 0
        assert state["you"] == ["black"]
        move = state["legal"][0]["move"]
        ws.send_json({"type": "move", "move": move})
        state = receive_state(ws, lambda s: s["ply"] == 3)
        assert state["history"][1]["move"] == move
        assert state["ai_thinking"] is False
        ws.send_json({"type": "undo"})
        state = receive_state(ws, lambda s: s["ply"] == 1 and not s["ai_thinking"])
        assert state["turn"] == 1


def test_ai_plays_a_whole_game_to_its_end(ai_client: TestClient, tmp_path: Path) -> None:
    """The player walks into defeat (crowding its own queen); the AI must finish the game."""
    created = ai_client.post(
        "/api/games", json={"mode": "ai", "ai_level": "easy", "color": "white"}
    ).json()
    with game_socket(ai_client, created["id"], created["token"]) as ws:
        state = receive_state(ws)
        for _ in range(80):
            if state["result"]:
                break
            move = suicidal_choice(state)
            ws.send_json({"type": "move", "move": move})
            state = receive_state(
                ws, lambda s, p=state["ply"]: s["result"] is not None or s["ply"] >= p + 2
            )
        assert state["result"] in ("BlackWins", "Draw"), json.dumps(state)[:500]
    archive = ai_client.get("/api/archive").json()
    assert archive["games"][0]["id"] == created["id"]


def suicidal_choice(state: dict) -> str:
    """The legal move that puts a piece closest to the player's own queen."""
    from tests.browser.strategy import choose_losing_move

    return choose_losing_move(state)["move"]
