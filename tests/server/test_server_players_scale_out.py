"""Players across two ``panal serve`` processes on one PostgreSQL and one Redis: a challenge posted
on one is seen live and accepted on the other, and a flag that falls while nobody moves ends the
game once, with one rating change per player, though both processes look for it; a guest's game
claimed on one process is reloaded on the other; a flag falls on the survivor when the process
that held the game dies."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from panal.server.database.store import Store
from panal.server.players.auth import SESSION_COOKIE
from tests.server.helpers import ServerProcess, backend_servers, connect_game

_LEGACY = "legacy" in ws_connect.__code__.co_varnames


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    """Two processes on a fresh PostgreSQL and one Redis."""
    folder = tmp_path_factory.mktemp("players-scale-out")
    with backend_servers("postgres", folder, ("--ai-workers", "1")) as pair:
        yield pair


class Browser:
    """One person's browser on one server: its session cookie, its origin."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.session: str | None = None

    def headers(self) -> dict[str, str]:
        headers = {"Origin": self.server.url}
        if self.session:
            headers["Cookie"] = f"{SESSION_COOKIE}={self.session}"
        return headers

    def post(self, path: str, body: Any = None) -> httpx.Response:
        response = httpx.post(f"{self.server.url}{path}", json=body, headers=self.headers())
        cookie = response.cookies.get(SESSION_COOKIE)
        if cookie:
            self.session = cookie
        return response

    def websocket(self, path: str) -> ClientConnection:
        return self.open(f"{self.server.ws_url}{path}")

    def game_socket(self, game: str, token: str | None = None) -> ClientConnection:
        """A game's websocket that has said hello with ``token`` (None: the cookie's seats)."""
        return connect_game(self.server.ws_url, game, token, opener=self.open)

    def open(self, url: str) -> ClientConnection:
        headers = self.headers()
        if _LEGACY:
            return ws_connect(url, legacy=True, additional_headers=headers)
        return ws_connect(url, additional_headers=headers)


def receive(ws: ClientConnection, until: Any, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=seconds))
        if until(message):
            return message
    raise AssertionError("no such message")


def test_a_challenge_crosses_processes_and_its_flag_falls_once(
    servers: list[ServerProcess],
) -> None:
    a, b = servers
    ana, bruno = Browser(a), Browser(b)
    assert ana.post("/api/account/signup", {"name": "ana", "password": "correct horse"}).is_success
    assert bruno.post(
        "/api/account/signup", {"name": "bruno", "password": "correct horse"}
    ).is_success
    with bruno.websocket("/ws/lobby") as lobby_on_b:
        receive(lobby_on_b, lambda m: m["type"] == "lobby")
        clock = {"kind": "realtime", "base": 15, "increment": 0}
        posted = ana.post("/api/challenges", {"clock": clock, "rated": True, "color": "white"})
        assert posted.status_code == 201, posted.text
        seen = receive(lobby_on_b, lambda m: m["type"] == "lobby" and m["challenges"])
        assert seen["challenges"][0]["creator"] == "ana"
        with ana.websocket("/ws/lobby") as lobby_on_a:
            receive(lobby_on_a, lambda m: m["type"] == "lobby")
            accepted = bruno.post(f"/api/challenges/{posted.json()['id']}/accept")
            assert accepted.status_code == 200, accepted.text
            game = accepted.json()["id"]
            told = receive(lobby_on_a, lambda m: m["type"] == "accepted")
            assert told["game"] == game  # Ana's page, on the other process, goes to the game
    with ana.game_socket(game) as white, bruno.game_socket(game) as black:
        assert receive(white, lambda m: m["type"] == "state")["you"] == ["white"]
        assert receive(black, lambda m: m["type"] == "state")["you"] == ["black"]
        # Each side's first move costs nothing; White's next starts Black's clock.
        for ply, move in enumerate(("wS1", "bS1 wS1-", "wQ -wS1"), start=1):
            (white if ply % 2 else black).send(json.dumps({"type": "move", "move": move}))
            for ws in (white, black):  # each process has the move before the next is sent
                receive(ws, lambda m, ply=ply: m["type"] == "state" and m["ply"] == ply)
        # Black does not move: both processes sweep for fallen flags.
        over_a = receive(white, lambda m: m["type"] == "state" and m["result"], seconds=40)
        over_b = receive(black, lambda m: m["type"] == "state" and m["result"], seconds=10)
    for over in (over_a, over_b):
        assert over["result"] == "WhiteWins" and over["end_reason"] == "time"
        assert over["clocks"]["black"] == 0 and over["players"]["white"]["change"] > 0
    store = Store(str(a.db_path))
    try:
        with store.engine.connect() as conn:
            changes = conn.execute(
                text("SELECT user_id FROM rating_history WHERE game_id = :g"), {"g": game}
            ).all()
            games_rated = conn.execute(text("SELECT games FROM ratings")).scalars().all()
    finally:
        store.close()
    assert len(changes) == 2 and sorted(games_rated) == [1, 1]  # once, for each player
    for server in servers:
        log = Path(server.log_path).read_text()
        assert "Traceback" not in log, log


def test_a_named_challenge_and_a_takeback_cross_processes(servers: list[ServerProcess]) -> None:
    """Issue 25: a challenge addressed to Bruno reaches his lobby page on the other process (and
    nobody else's); in its game, Ana's takeback proposal reaches Bruno there, and his acceptance
    takes the move back on Ana's screen."""
    a, b = servers
    ana, bruno, carla = Browser(a), Browser(b), Browser(b)
    for person, name in ((ana, "ana_far"), (bruno, "bruno_far"), (carla, "carla_far")):
        assert person.post("/api/account/signup", {"name": name, "password": "correct horse"})
    with bruno.websocket("/ws/lobby") as lobby_b, carla.websocket("/ws/lobby") as lobby_c:
        receive(lobby_b, lambda m: m["type"] == "lobby")
        receive(lobby_c, lambda m: m["type"] == "lobby")
        body = {"to": "bruno_far", "color": "white", "takebacks": True}
        posted = ana.post("/api/challenges", body)
        assert posted.status_code == 201, posted.text
        seen = receive(lobby_b, lambda m: m["type"] == "lobby" and m["named"])
        assert seen["named"][0]["creator"] == "ana_far" and seen["challenges"] == []
        # Carla's socket got the same refresh, without it.
        assert receive(lobby_c, lambda m: m["type"] == "lobby")["named"] == []
    accepted = bruno.post(f"/api/challenges/{posted.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    game = accepted.json()["id"]
    with ana.game_socket(game) as white, bruno.game_socket(game) as black:
        for ws in (white, black):
            receive(ws, lambda m: m["type"] == "state")
        for ply, move in enumerate(("wS1", "bS1 wS1-", "wQ -wS1"), start=1):
            (white if ply % 2 else black).send(json.dumps({"type": "move", "move": move}))
            for ws in (white, black):
                receive(ws, lambda m, ply=ply: m["type"] == "state" and m["ply"] == ply)
        white.send(json.dumps({"type": "offer_takeback"}))
        receive(black, lambda m: m["type"] == "state" and m["takeback_offer"] == 0)
        black.send(json.dumps({"type": "accept_takeback"}))
        back = receive(white, lambda m: m["type"] == "state" and m["ply"] == 2)
    assert back["takeback_offer"] is None and len(back["history"]) == 2


def test_a_game_claimed_on_one_process_is_reloaded_on_the_other(
    servers: list[ServerProcess],
) -> None:
    a, b = servers
    guest, watcher = Browser(a), Browser(a)
    created = guest.post("/api/games", {"mode": "online", "color": "white"})
    assert created.status_code == 201, created.text
    game, token = created.json()["id"], created.json()["token"]
    with watcher.game_socket(game) as watching_on_a:
        before = receive(watching_on_a, lambda m: m["type"] == "state")
        assert before["players"] is None  # nobody has an account yet
        # The same person, now on the other process, signs up and claims the seat.
        same_guest = Browser(b)
        signed = same_guest.post(
            "/api/account/signup",
            {
                "name": "claimant",
                "password": "correct horse",
                "claim": [{"game": game, "token": token}],
            },
        )
        assert signed.status_code == 201, signed.text
        assert signed.json()["claimed"] == [game]
        after = receive(watching_on_a, lambda m: m["type"] == "state" and m["players"] is not None)
    assert after["players"]["white"]["name"] == "claimant"


def test_a_flag_falls_on_the_surviving_process_when_the_games_process_dies(
    servers: list[ServerProcess],
) -> None:
    """The game is played on process A, which is killed (SIGKILL) while Black's clock runs: B
    ends it on time, charging Black for all of it (a server ran the whole time: no outage)."""
    a, b = servers
    player = Browser(a)
    clock = {"kind": "realtime", "base": 15, "increment": 0}
    created = player.post("/api/games", {"mode": "hotseat", "clock": clock})
    assert created.status_code == 201, created.text
    game, token = created.json()["id"], created.json()["token"]
    try:
        with player.game_socket(game, token) as ws:
            receive(ws, lambda m: m["type"] == "state")
            # Each side's first move costs nothing; White's third ply starts Black's clock.
            for ply, move in enumerate(("wS1", "bS1 wS1-", "wQ -wS1"), start=1):
                ws.send(json.dumps({"type": "move", "move": move}))
                moved = receive(ws, lambda m, ply=ply: m["type"] == "state" and m["ply"] == ply)
        assert moved["clocks"]["running"] == 1
        a.kill()
        with Browser(b).game_socket(game) as watching_on_b:
            over = receive(watching_on_b, lambda m: m["type"] == "state" and m["result"])
    finally:
        a.start()
    assert over["result"] == "WhiteWins" and over["end_reason"] == "time"
    assert over["clocks"]["black"] == 0 and over["clocks"]["white"] == moved["clocks"]["white"]
    assert "Traceback" not in Path(b.log_path).read_text()
