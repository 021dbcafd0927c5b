"""Clocks on the server: moves timed by the server, no clock before each side's first move and
the game aborted when a first move never comes, the flag falling when nobody moves, time
given back after an outage; on SQLite and PostgreSQL. The server's time is a clock the test
moves by hand (the sweep that finds fallen flags runs for real)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from panal.hive import Game
from panal.server.app import create_app
from panal.server.hive_games.game_store import GameStore
from panal.server.hive_games.live import Limits
from tests.server.conftest import Backend, first_legal_move
from tests.server.helpers import game_socket, receive_error, receive_state

START = 1_900_000_000.0


class HandClock:
    """The server's time, moved by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Timed:
    def __init__(self, client: TestClient, clock: HandClock, payloads: list[dict[str, Any]]):
        self.client = client
        self.clock = clock
        self.payloads = payloads

    def new_game(self, clock: dict[str, Any], **options: Any) -> dict[str, Any]:
        created = self.client.post("/api/games", json={"clock": clock, **options})
        assert created.status_code == 201, created.text
        return created.json()

    def state(self, game_id: str) -> dict[str, Any]:
        return self.client.get(f"/api/games/{game_id}").json()

    def wait_for(self, game_id: str, until: Any, seconds: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.state(game_id)
            if until(state):
                return state
            time.sleep(0.05)
        raise AssertionError(f"not reached: {self.state(game_id)}")


def _timed(backend: Backend, sweep: float) -> Iterator[Timed]:
    clock = HandClock()
    payloads: list[dict[str, Any]] = []

    def ai(payload: dict[str, Any]) -> dict[str, str]:
        payloads.append(payload)
        clock.advance(1.5)  # the AI thinks for a second and a half of the server's time
        return first_legal_move(payload)

    app = create_app(
        backend.db_url,
        ai_runner=ai,
        levels=("beginner",),
        ai_workers=1,
        clock=clock,
        # The test moves time by leaps: no leap is an outage here (see the heartbeat tests).
        limits=Limits(clock_sweep_seconds=sweep, outage_seconds=1e12),
        **backend.app_options(),
    )
    with TestClient(app) as client:
        yield Timed(client, clock, payloads)


@pytest.fixture
def timed(backend: Backend) -> Iterator[Timed]:
    yield from _timed(backend, sweep=0.05)


@pytest.fixture
def timed_no_sweep(backend: Backend) -> Iterator[Timed]:
    """No sweep in time: what a move finds when it comes after the flag fell."""
    yield from _timed(backend, sweep=3600)


BLITZ = {"kind": "realtime", "base": 60, "increment": 5}
OPENING = ("wS1", "bS1 wS1-")  # each side's first move, in a hotseat game


def play_opening(timed: Timed, ws: Any) -> None:
    """Each side's first move, at once: from the next move on, the clocks run."""
    for ply, move in enumerate(OPENING, start=1):
        ws.send_json({"type": "move", "move": move})
        receive_state(ws, lambda s, ply=ply: s["ply"] == ply)


def test_each_move_is_timed_by_the_server_with_its_increment(timed: Timed) -> None:
    game = timed.new_game(BLITZ, mode="hotseat")
    state = timed.state(game["id"])
    assert state["clock"] == {**BLITZ, "speed": "blitz"}
    # No clock runs before each side's first move: White has a minute to make it.
    opening = {"white": 60, "black": 60, "running": None}
    assert state["clocks"] == {**opening, "since": START, "first_move_deadline": START + 60}
    with game_socket(timed.client, game["id"], game["token"]) as ws:
        receive_state(ws)
        timed.clock.advance(7)
        ws.send_json({"type": "move", "move": "wS1"})
        state = receive_state(ws, lambda s: s["ply"] == 1)
        assert state["clocks"] == {**opening, "since": START + 7, "first_move_deadline": START + 67}
        assert state["now"] > 0  # the server's time, to count the running clock down
        timed.clock.advance(20.25)
        ws.send_json({"type": "move", "move": "bS1 wS1-"})
        state = receive_state(ws, lambda s: s["ply"] == 2)
        since = START + 27.25  # both first moves cost nothing: White's clock starts now
        assert state["clocks"] == {
            "white": 60,
            "black": 60,
            "running": 0,
            "since": since,
            "first_move_deadline": None,
        }
        timed.clock.advance(7)
        ws.send_json({"type": "move", "move": "wQ -wS1"})
        state = receive_state(ws, lambda s: s["ply"] == 3)
        assert state["clocks"]["white"] == 58 and state["clocks"]["running"] == 1
        timed.clock.advance(20.25)
        ws.send_json({"type": "move", "move": "bQ bS1-"})
        state = receive_state(ws, lambda s: s["ply"] == 4)
        assert state["clocks"]["white"] == 58 and state["clocks"]["black"] == 44.75
        assert state["clocks"]["running"] == 0
        timed.clock.advance(3)
        ws.send_json({"type": "resign"})
        state = receive_state(ws, lambda s: s["result"] is not None)
        assert state["clocks"] == {
            "white": 55,
            "black": 44.75,
            "running": None,
            "since": None,
            "first_move_deadline": None,
        }
        ws.send_json({"type": "undo"})
        assert receive_error(ws)["code"] in ("timed_no_undo", "game_over")


def test_a_takeback_gives_no_time_back_and_restarts_the_proposers_clock(timed: Timed) -> None:
    """Issue 25, as lichess: the running side is charged up to the acceptance, no increment is
    given or taken back, and the proposer, to move again, is on the clock from then."""
    game = timed.new_game(BLITZ, mode="online", takebacks=True)
    joined = timed.client.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"]})
    with (
        game_socket(timed.client, game["id"], game["token"]) as white,
        game_socket(timed.client, game["id"], joined.json()["token"]) as black,
    ):
        receive_state(white)
        for ply, (ws, move) in enumerate(zip((white, black), OPENING, strict=True), start=1):
            ws.send_json({"type": "move", "move": move})
            receive_state(white, lambda s, ply=ply: s["ply"] == ply)
        timed.clock.advance(10)
        white.send_json({"type": "move", "move": "wQ -wS1"})  # 60 - 10 + 5
        assert receive_state(black, lambda s: s["ply"] == 3)["clocks"]["white"] == 55
        timed.clock.advance(4)
        white.send_json({"type": "offer_takeback"})
        receive_state(black, lambda s: s["takeback_offer"] == 0)
        timed.clock.advance(6)
        black.send_json({"type": "accept_takeback"})
        state = receive_state(white, lambda s: s["ply"] == 2)
    assert state["clocks"] == {
        "white": 55,  # the increment earned by the move taken back stays
        "black": 50,  # the ten seconds Black's clock ran are spent
        "running": 0,
        "since": timed.clock.now,
        "first_move_deadline": None,
    }


def test_the_flag_falls_when_nobody_moves(timed: Timed) -> None:
    game = timed.new_game({"kind": "realtime", "base": 15, "increment": 0}, mode="hotseat")
    with game_socket(timed.client, game["id"], game["token"]) as ws:
        receive_state(ws)
        play_opening(timed, ws)
        timed.clock.advance(2)
        ws.send_json({"type": "move", "move": "wQ -wS1"})
        receive_state(ws, lambda s: s["ply"] == 3)
        timed.clock.advance(14.9)
        time.sleep(0.3)  # sweeps run: Black still has a tenth of a second
        assert timed.state(game["id"])["result"] is None
        timed.clock.advance(0.1)
        over = receive_state(ws, lambda s: s["result"] is not None)
    assert over["result"] == "WhiteWins" and over["end_reason"] == "time"
    assert over["clocks"] == {
        "white": 13,
        "black": 0,
        "running": None,
        "since": None,
        "first_move_deadline": None,
    }
    assert over["ply"] == 3


def test_a_move_after_the_flag_fell_loses_on_time(timed_no_sweep: Timed) -> None:
    timed = timed_no_sweep
    game = timed.new_game(BLITZ, mode="hotseat")
    with game_socket(timed.client, game["id"], game["token"]) as ws:
        receive_state(ws)
        play_opening(timed, ws)
        timed.clock.advance(60.001)
        ws.send_json({"type": "move", "move": "wQ -wS1"})
        over = receive_state(ws, lambda s: s["result"] is not None)
    assert over["result"] == "BlackWins" and over["end_reason"] == "time"
    assert over["ply"] == 2  # the late move was not played


@pytest.mark.parametrize("plies", [0, 1])
def test_a_first_move_that_never_comes_aborts_the_game(timed: Timed, plies: int) -> None:
    """White's, then Black's first move: a minute each, their clocks standing still; past it
    the game is aborted (nobody wins, nothing rated), not lost on time."""
    game = timed.new_game(BLITZ, mode="hotseat")
    with game_socket(timed.client, game["id"], game["token"]) as ws:
        receive_state(ws)
        for ply, move in enumerate(OPENING[:plies], start=1):
            timed.clock.advance(59)  # a first move may take all but the last second
            ws.send_json({"type": "move", "move": move})
            receive_state(ws, lambda s, ply=ply: s["ply"] == ply)
        timed.clock.advance(59.9)
        time.sleep(0.3)  # sweeps run: the window is not over yet
        state = timed.state(game["id"])
        assert state["result"] is None and state["clocks"]["white"] == 60
        timed.clock.advance(0.1)
        over = receive_state(ws, lambda s: s["result"] is not None)
    assert over["result"] == "NotStarted" and over["end_reason"] == "no_first_move"
    assert over["ply"] == plies
    assert over["clocks"]["white"] == 60 and over["clocks"]["black"] == 60


def test_a_first_move_after_its_window_aborts_the_game(timed_no_sweep: Timed) -> None:
    timed = timed_no_sweep
    game = timed.new_game(BLITZ, mode="hotseat")
    with game_socket(timed.client, game["id"], game["token"]) as ws:
        receive_state(ws)
        timed.clock.advance(60)
        ws.send_json({"type": "move", "move": "wS1"})
        over = receive_state(ws, lambda s: s["result"] is not None)
    assert over["result"] == "NotStarted" and over["end_reason"] == "no_first_move"
    assert over["ply"] == 0  # the late move was not played


def test_an_online_clock_starts_when_the_opponent_arrives(timed: Timed) -> None:
    game = timed.new_game(BLITZ, mode="online")
    timed.clock.advance(600)  # waiting for a friend costs nothing
    assert timed.state(game["id"])["clocks"]["running"] is None
    assert timed.state(game["id"])["clocks"]["first_move_deadline"] is None
    joined = timed.client.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"]})
    assert joined.status_code == 200
    timed.clock.advance(4)
    state = timed.state(game["id"])
    assert state["clocks"] == {
        "white": 60,
        "black": 60,
        "running": None,  # White's first move is to come: its minute runs from the arrival
        "since": START + 600,
        "first_move_deadline": START + 660,
    }
    assert state["result"] is None


def test_the_ai_thinks_on_its_own_clock(timed: Timed) -> None:
    game = timed.new_game(BLITZ, mode="ai", ai_level="beginner", color="white")
    with game_socket(timed.client, game["id"], game["token"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "wS1"})
        state = receive_state(ws, lambda s: s["ply"] == 2)
        # Each side's first move cost nothing, the AI's as well.
        assert state["clocks"]["white"] == 60 and state["clocks"]["black"] == 60
        game_so_far = Game(state["game_type"])
        for entry in state["history"]:
            game_so_far.push(entry["move"])
        timed.clock.advance(10)
        second = game_so_far.move_string(next(iter(game_so_far.legal_moves)))
        ws.send_json({"type": "move", "move": second})
        state = receive_state(ws, lambda s: s["ply"] == 4)
    # The AI's reply was timed like a player's: 1.5 s off its clock, plus the increment.
    assert state["clocks"]["white"] == 55 and state["clocks"]["black"] == 63.5
    for payload in timed.payloads:
        assert 0 < payload["max_time"] <= 60 / 2  # its search is bounded by its clock
        assert payload["max_time"] == pytest.approx(60 / 25 + 0.8 * 5)


def test_correspondence_days_per_move(timed: Timed) -> None:
    game = timed.new_game({"kind": "correspondence", "days": 3}, mode="hotseat")
    state = timed.state(game["id"])
    assert state["clock"]["speed"] == "correspondence"
    with game_socket(timed.client, game["id"], game["token"]) as ws:
        receive_state(ws)
        timed.clock.advance(2 * 86_400)
        ws.send_json({"type": "move", "move": "wS1"})
        state = receive_state(ws, lambda s: s["ply"] == 1)
        assert state["clocks"]["white"] == 3 * 86_400  # the next move has its three days
        assert state["clocks"]["first_move_deadline"] == START + 5 * 86_400
        timed.clock.advance(1 * 86_400)
        ws.send_json({"type": "move", "move": "bS1 wS1-"})
        receive_state(ws, lambda s: s["ply"] == 2)
        timed.clock.advance(2 * 86_400)
        ws.send_json({"type": "move", "move": "wQ -wS1"})
        receive_state(ws, lambda s: s["ply"] == 3)
        timed.clock.advance(3 * 86_400)
        over = receive_state(ws, lambda s: s["result"] is not None)
    assert over["end_reason"] == "time" and over["result"] == "WhiteWins"


@pytest.mark.parametrize(
    "clock",
    [{"kind": "realtime", "base": 10}, {"kind": "correspondence", "days": 4}, {"kind": "x"}, "3+2"],
)
def test_bad_clocks_are_refused(timed: Timed, clock: Any) -> None:
    response = timed.client.post("/api/games", json={"mode": "hotseat", "clock": clock})
    assert response.status_code == 422


def test_an_outage_is_given_back_once(backend: Backend) -> None:
    """No process ran for 40 s: the first to beat again gives those 40 s back to every running
    clock, once; the next beats, from any process, give nothing."""
    store = GameStore(backend.db_url)
    try:
        clock = HandClock()
        app = create_app(
            backend.db_url,
            levels=(),
            ai_workers=1,
            clock=clock,
            limits=Limits(clock_sweep_seconds=3600),
            **backend.app_options(),
        )
        with TestClient(app) as client:
            running = client.post("/api/games", json={"mode": "hotseat", "clock": BLITZ}).json()[
                "id"
            ]
            waiting = client.post("/api/games", json={"mode": "online", "clock": BLITZ}).json()
        assert store.heartbeat(START + 1, 5.0) == (0.0, [])
        gap, credited = store.heartbeat(START + 41, 5.0)
        assert gap == 40 and credited == [running]  # not the online game: its clock waits
        assert store.heartbeat(START + 41, 5.0) == (0.0, [])
        assert store.heartbeat(START + 42, 5.0) == (0.0, [])
        row = store.load_row(running)
        assert row is not None and row.clock is not None
        assert row.clock.since == START + 40 and row.deadline == START + 100
        assert row.clock.time_left(0, START + 42) == 60  # White's first move: no time runs
        assert store.load_row(waiting["id"]).clock_since is None  # type: ignore[union-attr]
    finally:
        store.close()
