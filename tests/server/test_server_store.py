"""The store reads a game as one snapshot, whatever other processes commit meanwhile."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from panal.server.store import Store
from tests.server.conftest import Backend


def test_a_game_is_read_from_one_snapshot(client: TestClient, backend: Backend) -> None:
    """Another process's move that lands while a process reads a game (its row, then its moves,
    in two statements) is either wholly in what it reads or not at all: a version paired with a
    longer line would offer moves for a position the stored game has left."""
    if backend.name == "sqlite":
        pytest.skip("one process serves a SQLite database; its hub changes a game at a time")
    game_id = client.post("/api/games", json={"mode": "hotseat"}).json()["id"]
    store = Store(backend.db_url, migrate=False)
    try:
        before = store.load_game(game_id)
        assert before is not None and before[1] == []
        version = before[0].version
        armed = [True]

        def move_midway(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
            if armed[0] and statement.lstrip().upper().startswith("SELECT"):
                armed[0] = False  # right after the game's row is read
                store.change(game_id, version, {"plies": 1}, add_moves=("wS1",))

        event.listen(store.engine, "after_cursor_execute", move_midway)
        try:
            loaded = store.load_game(game_id)
        finally:
            event.remove(store.engine, "after_cursor_execute", move_midway)
        assert not armed[0]  # the move landed during the read
        assert loaded is not None
        assert (loaded[0].version, loaded[1]) == (version, [])
        after = store.load_game(game_id)
        assert after is not None
        assert (after[0].version, after[1]) == (version + 1, ["wS1"])
    finally:
        store.close()
