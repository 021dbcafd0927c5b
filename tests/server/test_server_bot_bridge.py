"""``panal bot`` against a real server: two bots on the ladder keep playing their games through a
server crash (SIGKILL and a restart on the same port: they reconnect and resume from the
server's state), and the pure parts of the bridge (the clock's share, the engine's name)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from panal.server.bots.bridge import clock_left, engine_identity, move_budget
from tests.server.helpers import ServerProcess


def test_the_clock_share_and_the_engine_identity() -> None:
    assert move_budget(60, 0) == pytest.approx(60 / 25)
    assert move_budget(60, 2) == pytest.approx(60 / 25 + 1.6)
    assert move_budget(3, 10) == pytest.approx(1.0)  # never more than a third of the clock
    assert move_budget(0, 0) == 0.05
    state: dict[str, Any] = {
        "clock": {"kind": "realtime", "base": 60, "increment": 1},
        "clocks": {"white": 50.0, "black": 40.0, "running": 1, "since": 100.0},
        "now": 104.5,
    }
    assert clock_left(state, 1) == (35.5, 1.0)  # black's clock runs: 4.5 s spent
    assert clock_left(state, 0) == (50.0, 1.0)
    assert clock_left({"clock": None, "clocks": None}, 0) is None
    assert engine_identity("nokamute cargo-1.0.3") == ("nokamute", "cargo-1.0.3")
    assert engine_identity("Mzinga.Engine v0.10.6") == ("Mzinga.Engine", "v0.10.6")
    assert engine_identity("panal v0.1.0 (random player)") == ("panal (random player)", "v0.1.0")
    assert engine_identity("solo") == ("solo", "")


def _bot(url: str, token: str, player: str, log: Path) -> subprocess.Popen[bytes]:
    engine = f"{sys.executable} -m panal.uhp.players {player}"
    return subprocess.Popen(
        [
            sys.executable, "-m", "panal.cli", "bot", "--engine", engine, "--server", url,
            "--token", token, "--ladder", "--poll", "0.3",
        ],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip


def _plies(url: str, game_ids: list[str]) -> list[int]:
    return [httpx.get(f"{url}/api/games/{g}").json()["ply"] for g in game_ids]


@pytest.mark.slow
def test_bots_reconnect_and_resume_their_games_after_a_server_crash(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path / "bots.sqlite3", tmp_path / "serve.log", ("--ladder-clock", "300+0")
    )
    server.start()
    bots: list[subprocess.Popen[bytes]] = []
    try:
        owner = httpx.Client(base_url=server.url, headers={"Origin": server.url})
        made = owner.post("/api/account/signup", json={"name": "owner", "password": "pass word 1"})
        owner.headers["Cookie"] = f"panal_session={made.cookies['panal_session']}"
        owner.cookies.clear()
        tokens = [
            owner.post("/api/bots", json={"name": n}).json()["token"]
            for n in ("greedya", "greedyb")
        ]
        bots = [
            _bot(server.url, token, "greedy", tmp_path / f"bot{i}.log")
            for i, token in enumerate(tokens)
        ]
        games: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(games) < 2:
            games = httpx.get(
                f"{server.url}/api/bot/games", headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()["games"]
            time.sleep(0.3)
        assert len(games) == 2
        while min(_plies(server.url, games)) < 8:  # both games under way
            time.sleep(0.2)
        server.kill()
        time.sleep(2)  # the bots lose the server, keep retrying
        server.start()
        at_restart = _plies(server.url, games)
        deadline = time.monotonic() + 120
        states: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            states = [httpx.get(f"{server.url}/api/games/{g}").json() for g in games]
            if all(s["result"] for s in states):
                break
            time.sleep(0.5)
        for bot in bots:
            assert bot.poll() is None  # the bridges rode out the crash
        # Greedy movers with five minutes each: the games ended on the board, played by the
        # reconnected bots after the restart.
        assert all(s["result"] for s in states), states
        assert all(s["end_reason"] != "time" for s in states)
        assert all(s["ply"] > before for s, before in zip(states, at_restart, strict=True))
        ladder = httpx.get(f"{server.url}/api/ladder").json()
        assert ladder["games"] >= 2
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)
        server.stop()


def _signed_in(url: str, name: str) -> httpx.Client:
    person = httpx.Client(base_url=url, headers={"Origin": url})
    made = person.post("/api/account/signup", json={"name": name, "password": "pass word 1"})
    assert made.status_code == 201, made.text
    # The session cookie is Secure: a plain-HTTP client sends it by hand.
    person.headers["Cookie"] = f"panal_session={made.cookies['panal_session']}"
    person.cookies.clear()
    return person


@pytest.mark.slow
def test_a_bot_accepts_the_challenges_its_owner_allows_and_plays_on_the_clock(
    tmp_path: Path,
) -> None:
    from tests.server.helpers import connect_game

    server = ServerProcess(tmp_path / "bots.sqlite3", tmp_path / "serve.log")
    server.start()
    bot: subprocess.Popen[bytes] | None = None
    try:
        owner = _signed_in(server.url, "owner")
        made = owner.post(
            "/api/bots",
            json={"name": "greedybot", "limits": {"speeds": ["blitz"], "game_types": ["Base"]}},
        )
        token = made.json()["token"]
        ana = _signed_in(server.url, "ana")
        blitz = {"kind": "realtime", "base": 180, "increment": 2}
        bullet = {"kind": "realtime", "base": 60, "increment": 0}
        refused = [
            ana.post("/api/challenges", json={"clock": bullet}).json()["id"],  # a speed not allowed
            ana.post("/api/challenges", json={"clock": blitz, "game_type": "Base+M"}).json()["id"],
        ]
        wanted = ana.post(
            "/api/challenges", json={"clock": blitz, "rated": True, "color": "white"}
        ).json()
        bot = _bot(server.url, token, "greedy", tmp_path / "bot.log")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            challenge = httpx.get(f"{server.url}/api/challenges/{wanted['id']}").json()
            if challenge["status"] == "accepted":
                break
            time.sleep(0.3)
        assert challenge["status"] == "accepted", (tmp_path / "bot.log").read_text()
        game = challenge["game"]
        for other in refused:
            assert httpx.get(f"{server.url}/api/challenges/{other}").json()["status"] == "open"
        with connect_game(server.ws_url, game, wanted["token"]) as ws:
            ws.send('{"type": "move", "move": "wS1"}')
            deadline = time.monotonic() + 60
            state: dict[str, Any] = {}
            while time.monotonic() < deadline and state.get("ply") != 2:
                message = json.loads(ws.recv(timeout=60))
                if message["type"] == "state":
                    state = message
        assert state["ply"] == 2 and state["history"][1]["color"] == 1  # the bot answered
        assert state["players"]["black"] == {"name": "greedybot", "rating": "1500?", "bot": True}
        # Black's clock ran while the bot thought, a share of its 180 s.
        assert 170 < state["clocks"]["black"] < 182
    finally:
        if bot is not None:
            bot.terminate()
            bot.wait(10)
        server.stop()
