"""``panal bot`` against a real server: two bots on the ladder keep playing their games through a
server crash (SIGKILL and a restart on the same port: they reconnect and resume from the
server's state), and the pure parts of the bridge (the clock's share, the engine's name)."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from panal.server.bots import bridge
from panal.server.bots.bridge import (
    BotBridge,
    BridgeSettings,
    clock_left,
    engine_identity,
    move_budget,
)
from panal.uhp.client import UhpClient
from tests.server.helpers import ServerProcess, game_shown


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


def _states(url: str, game_ids: list[str]) -> list[dict[str, Any]]:
    return [httpx.get(f"{url}/api/games/{g}").json() for g in game_ids]


def _seen(states: list[dict[str, Any]], logs: list[Path]) -> str:
    """What a failure shows: each game's ply, turn, result and clocks, and the bots' logs."""
    games = [game_shown(state) for state in states]
    tails = [f"--- {log.name}\n" + "".join(log.read_text().splitlines(True)[-30:]) for log in logs]
    return f"{games}\n" + "\n".join(tails)


@pytest.mark.slow
def test_bots_reconnect_and_resume_their_games_after_a_server_crash(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path / "bots.sqlite3", tmp_path / "serve.log", ("--ladder-clock", "300+0")
    )
    server.start()
    bots: list[subprocess.Popen[bytes]] = []
    logs = [tmp_path / f"bot{i}.log" for i in range(2)]
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
            _bot(server.url, token, "greedy", log) for token, log in zip(tokens, logs, strict=True)
        ]
        # Greedy movers finish a game in about a second, and the ladder pairs the two again
        # after each pair of games: the server is killed when a game is seen under way, early
        # enough (no game ends before ply 15) that the kill comes before its end.
        bearer = {"Authorization": f"Bearer {tokens[0]}"}
        under_way: list[str] = []
        deadline = time.monotonic() + 60
        while not under_way and time.monotonic() < deadline:
            listed = httpx.get(f"{server.url}/api/bot/games", headers=bearer).json()["games"]
            states = _states(server.url, listed)
            under_way = [s["id"] for s in states if 6 <= s["ply"] <= 14 and not s["result"]]
            time.sleep(0.01)
        assert under_way, "no ladder game was seen under way"
        server.kill()
        time.sleep(2)  # the bots lose the server, keep retrying
        server.start()
        at_restart = _states(server.url, under_way)
        unfinished = [s["id"] for s in at_restart if not s["result"]]
        assert unfinished, _seen(at_restart, logs)  # the kill came before the game's end
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            states = _states(server.url, unfinished)
            if all(s["result"] for s in states):
                break
            time.sleep(0.5)
        for bot in bots:
            assert bot.poll() is None  # the bridges rode out the crash
        # Greedy movers with five minutes each: the games ended on the board, played by the
        # reconnected bots after the restart.
        assert all(s["result"] for s in states), _seen(states, logs)
        assert all(s["end_reason"] != "time" for s in states), _seen(states, logs)
        before = {s["id"]: s["ply"] for s in at_restart}
        assert all(s["ply"] > before[s["id"]] for s in states), _seen(states, logs)
        ladder = httpx.get(f"{server.url}/api/ladder").json()
        assert ladder["games"] >= 1
        for log in logs:  # a handshake cut short by the crash is a reconnection, not a crash
            assert "Traceback" not in log.read_text(), _seen(states, logs)
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


class _LossySocket:
    """A game socket whose first state never arrived: it answers ``sync`` with the bot's turn
    at ``ply`` 0 and a move with the finished game."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.state = {
            "type": "state", "ply": 0, "turn": 0, "you": ["white"], "game_type": "Base",
            "options": {}, "history": [], "must_pass": False, "clock": None, "clocks": None,
            "result": None,
        }  # fmt: skip

    async def recv(self) -> str:
        return await self.inbox.get()

    async def send(self, text: str) -> None:
        message = json.loads(text)
        self.sent.append(message)
        if message["type"] == "sync":
            self.inbox.put_nowait(json.dumps(self.state))
        elif message["type"] == "move":
            self.inbox.put_nowait(json.dumps({**self.state, "ply": 1, "result": "Draw"}))


def test_a_quiet_socket_asks_for_the_state_again_and_the_bot_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bridge, "QUIET_SECONDS", 0.2)
    engine_command = f"{sys.executable} -m panal.uhp.players greedy 1"
    bot = BotBridge(BridgeSettings(engine=engine_command, server="http://x", token="bot_x"))
    socket = _LossySocket()

    async def follow() -> None:
        engine = await UhpClient.popen(engine_command)
        try:
            await asyncio.wait_for(bot.follow(socket, engine, {}), 30)
        finally:
            await engine.quit()

    asyncio.run(follow())
    assert [m["type"] for m in socket.sent] == ["sync", "move"]
    assert socket.sent[1]["ply"] == 0 and socket.sent[1]["move"].startswith("w")


def test_an_engine_that_fails_ends_its_game_task_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    command = f"{sys.executable} -c pass"  # exits at once: no UHP banner
    bot = BotBridge(BridgeSettings(engine=command, server="http://127.0.0.1:9", token="bot_x"))
    with caplog.at_level(logging.WARNING, logger="panal.bot"):
        asyncio.run(asyncio.wait_for(bot.play("abc"), 30))
    assert "the engine did not start" in caplog.text
