"""The store reads a game as one snapshot, whatever other processes commit meanwhile; its
compare-and-set writes a change whole or not at all, from a thread or on the event loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, insert

from panal.server.store import Conflict, GameRow, Store, moves_table
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


def _new_game(store: Store, game_id: str) -> None:
    store.create_game(GameRow(id=game_id, game_type="Base", mode="hotseat"), [])


def _stored(store: Store, game_id: str) -> tuple[int, int, list[str]]:
    loaded = store.load_game(game_id)
    assert loaded is not None
    return loaded[0].version, loaded[0].plies, loaded[1]


def test_two_moves_from_one_version_on_the_event_loop_one_is_written(backend: Backend) -> None:
    """Two processes' moves computed from the same version, written at once through the
    event-loop path: exactly one is stored, the other raises Conflict and writes nothing."""
    store = Store(backend.db_url)
    try:
        _new_game(store, "race")

        async def race() -> list[int | BaseException]:
            moves = [
                store.change_async("race", 0, {"plies": 1}, add_moves=(move,))
                for move in ("wS1", "wA1")
            ]
            try:
                return await asyncio.gather(*moves, return_exceptions=True)
            finally:
                await store.close_async()

        outcomes = asyncio.run(race())
        assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "int"]
        winner = outcomes.index(1)
        version, plies, moves = _stored(store, "race")
        assert (version, plies, moves) == (1, 1, [("wS1", "wA1")[winner]])
        # A change from the version now gone is refused too, with or without moves.
        for values, add in (({"plies": 2}, ("bS1 -wS1",)), ({"draw_offer": 1}, ())):
            with pytest.raises(Conflict):
                store.change("race", 0, values, add_moves=add)
            with pytest.raises(Conflict):
                asyncio.run(store.change_async("race", 0, values, add_moves=add))
        assert _stored(store, "race") == (1, 1, moves)
    finally:
        store.close()


@pytest.mark.parametrize("on_loop", [False, True], ids=["thread", "loop"])
def test_a_move_whose_ply_is_stored_rolls_back_the_version_bump(
    backend: Backend, on_loop: bool
) -> None:
    """The version matches but the ply is already stored (written outside the compare-and-set):
    the insert fails, and the version bump made before it in the same write is undone."""
    store = Store(backend.db_url)
    try:
        _new_game(store, "planted")
        with store.engine.begin() as conn:
            conn.execute(
                insert(moves_table).values(game_id="planted", ply=1, move="wA1", played_at=0.0)
            )
        change = {"plies": 1, "draw_offer": 0}
        with pytest.raises(Conflict):
            if on_loop:
                asyncio.run(store.change_async("planted", 0, change, add_moves=("wS1",)))
            else:
                store.change("planted", 0, change, add_moves=("wS1",))
        loaded = store.load_game("planted")
        assert loaded is not None
        assert (loaded[0].version, loaded[0].plies, loaded[0].draw_offer) == (0, 0, None)
        assert loaded[1] == ["wA1"]
    finally:
        store.close()


def test_a_move_on_postgres_is_one_statement_on_the_event_loop(backend: Backend) -> None:
    """On PostgreSQL a move is written by one statement in autocommit (one round trip: no
    BEGIN, no COMMIT), sent from the event loop's own thread (no hand-off to a DB thread)."""
    if backend.name == "sqlite":
        pytest.skip("SQLite writes in-process, in its one DB thread")
    store = Store(backend.db_url)
    seen: list[tuple[str, bool, int]] = []

    def record(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        autocommit = bool(conn.connection.driver_connection.autocommit)
        seen.append((statement, autocommit, threading.get_ident()))

    try:
        _new_game(store, "onestep")
        event.listen(Engine, "before_cursor_execute", record)
        try:

            async def play() -> int:
                try:
                    return await store.change_async(
                        "onestep", 0, {"plies": 1}, add_moves=("wS1",)
                    )
                finally:
                    await store.close_async()

            assert asyncio.run(play()) == 1
        finally:
            event.remove(Engine, "before_cursor_execute", record)
        writes = [s for s in seen if "moves" in s[0] or "games" in s[0]]
        assert len(writes) == 1, writes
        statement, autocommit, thread = writes[0]
        assert statement.lstrip().upper().startswith("WITH") and "INSERT INTO moves" in statement
        assert autocommit
        assert thread == threading.get_ident()  # asyncio.run runs the loop in this thread
        assert _stored(store, "onestep") == (1, 1, ["wS1"])
    finally:
        store.close()
