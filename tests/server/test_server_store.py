"""The store reads a game as one snapshot, whatever other processes commit meanwhile; its
compare-and-set writes a change whole or not at all, from a thread or on the event loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, insert

from panal.server.database.store import Conflict
from panal.server.hive_games.game_store import GameRow, GameStore, GameWrite, moves_table
from tests.server.conftest import Backend


def test_a_game_is_read_from_one_snapshot(client: TestClient, backend: Backend) -> None:
    """Another process's move that lands while a process reads a game (its row, then its moves,
    in two statements) is either wholly in what it reads or not at all: a version paired with a
    longer line would offer moves for a position the stored game has left."""
    if backend.name == "sqlite":
        pytest.skip("one process serves a SQLite database; its hub changes a game at a time")
    game_id = client.post("/api/games", json={"mode": "hotseat"}).json()["id"]
    store = GameStore(backend.db_url, migrate=False)
    try:
        before = store.load_game(game_id)
        assert before is not None and before[1] == []
        version = before[0].version
        armed = [True]

        def move_midway(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
            if armed[0] and statement.lstrip().upper().startswith("SELECT"):
                armed[0] = False  # right after the game's row is read
                store.change(game_id, version, GameWrite({"plies": 1}, add_moves=("wS1",)))

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


def _new_game(store: GameStore, game_id: str) -> None:
    store.create_game(GameRow(id=game_id, game_type="Base", mode="hotseat"), [])


def _stored(store: GameStore, game_id: str) -> tuple[int, int, list[str]]:
    loaded = store.load_game(game_id)
    assert loaded is not None
    return loaded[0].version, loaded[0].plies, loaded[1]


def test_two_moves_from_one_version_on_the_event_loop_one_is_written(backend: Backend) -> None:
    """Two processes' moves computed from the same version, written at once through the
    event-loop path: exactly one is stored, the other raises Conflict and writes nothing."""
    store = GameStore(backend.db_url)
    try:
        _new_game(store, "race")

        async def race() -> list[int | BaseException]:
            moves = [
                store.change_async("race", 0, GameWrite({"plies": 1}, add_moves=(move,)))
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

        async def stale(values: dict[str, Any], add: tuple[str, ...]) -> None:
            try:
                await store.change_async("race", 0, GameWrite(values, add_moves=add))
            finally:
                await store.close_async()

        # A change from the version now gone is refused too, with or without moves.
        for values, add in (({"plies": 2}, ("bS1 -wS1",)), ({"draw_offer": 1}, ())):
            with pytest.raises(Conflict):
                store.change("race", 0, GameWrite(values, add_moves=add))
            with pytest.raises(Conflict):
                asyncio.run(stale(values, add))
        assert _stored(store, "race") == (1, 1, moves)
    finally:
        store.close()


@pytest.mark.parametrize("on_loop", [False, True], ids=["thread", "loop"])
def test_a_move_whose_ply_is_stored_rolls_back_the_version_bump(
    backend: Backend, on_loop: bool
) -> None:
    """The version matches but the ply is already stored (written outside the compare-and-set):
    the insert fails, and the version bump made before it in the same write is undone."""
    store = GameStore(backend.db_url)
    try:
        _new_game(store, "planted")
        with store.engine.begin() as conn:
            conn.execute(
                insert(moves_table).values(game_id="planted", ply=1, move="wA1", played_at=0.0)
            )
        change = {"plies": 1, "draw_offer": 0}

        async def play() -> None:
            try:
                await store.change_async("planted", 0, GameWrite(change, add_moves=("wS1",)))
            finally:
                await store.close_async()

        with pytest.raises(Conflict):
            if on_loop:
                asyncio.run(play())
            else:
                store.change("planted", 0, GameWrite(change, add_moves=("wS1",)))
        loaded = store.load_game("planted")
        assert loaded is not None
        assert (loaded[0].version, loaded[0].plies, loaded[0].draw_offer) == (0, 0, None)
        assert loaded[1] == ["wA1"]
    finally:
        store.close()


def test_a_move_on_postgres_is_one_statement_on_the_event_loop(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a move is written by one statement in autocommit (one round trip: no
    BEGIN, no COMMIT), sent from the event loop's own thread (no hand-off to a DB thread)."""
    if backend.name == "sqlite":
        pytest.skip("SQLite writes in-process, in its one DB thread")
    import psycopg

    store = GameStore(backend.db_url)
    seen: list[tuple[str, bool, int]] = []

    def recording(execute: Any) -> Any:
        def run(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            seen.append((str(query), cursor.connection.autocommit, threading.get_ident()))
            return execute(cursor, query, *args, **kwargs)

        return run

    try:
        _new_game(store, "onestep")
        for cursor_class in (psycopg.Cursor, psycopg.AsyncCursor):
            monkeypatch.setattr(cursor_class, "execute", recording(cursor_class.execute))

        async def play() -> int:
            try:
                return await store.change_async(
                    "onestep", 0, GameWrite({"plies": 1}, add_moves=("wS1",))
                )
            finally:
                await store.close_async()

        assert asyncio.run(play()) == 1
        monkeypatch.undo()
        assert len(seen) == 1, seen
        statement, autocommit, thread = seen[0]
        assert statement.lstrip().upper().startswith("WITH") and "INSERT INTO moves" in statement
        assert autocommit
        assert thread == threading.get_ident()  # asyncio.run runs the loop in this thread
        assert _stored(store, "onestep") == (1, 1, ["wS1"])
    finally:
        store.close()


@pytest.mark.parametrize("on_loop", [False, True], ids=["thread", "loop"])
def test_a_table_action_from_a_stale_version_or_at_a_stored_ply_writes_nothing(
    backend: Backend, on_loop: bool
) -> None:
    """An Enjambre table's action goes through the same compare-and-set (one statement on
    PostgreSQL): from a version gone, or at a ply already in the log, it raises Conflict and
    changes nothing, the version and the table's fields included."""
    from panal.server.enjambre_tables.table_store import (
        GameHeader,
        SeatRow,
        TableRow,
        TableStore,
        TableWrite,
    )

    store = GameStore(backend.db_url)
    tables = TableStore(store)
    row = TableRow(
        id="tbl", players=2, mode="play", options={}, games=1, status="playing", host_token="h"
    )
    tables.create(row, [SeatRow(0, "person"), SeatRow(1, "person")], GameHeader(0, 7, 0))

    def change(version: int, ply: int, waiting: str) -> int:
        action = (ply % 2, {"type": "pass", "n": ply})
        write = TableWrite(values={"waiting_for": waiting}, game=0, first_ply=ply, actions=[action])
        if not on_loop:
            return tables.change("tbl", version, write)

        async def act() -> int:
            try:
                return await tables.change_async("tbl", version, write)
            finally:
                await store.close_async()

        return asyncio.run(act())

    def stored() -> tuple[int, str | None, list[Any]]:
        loaded = tables.load("tbl")
        assert loaded is not None
        return loaded.row.version, loaded.row.waiting_for, loaded.actions

    try:
        assert change(0, 0, "1") == 1
        assert change(1, 1, "0") == 2
        before = stored()
        assert before[0] == 2 and [a["n"] for _, a in before[2]] == [0, 1]
        with pytest.raises(Conflict):
            change(1, 2, "1")  # from a version gone
        with pytest.raises(Conflict):
            change(2, 1, "1")  # the right version, but that ply is stored
        assert stored() == before
    finally:
        store.close()
