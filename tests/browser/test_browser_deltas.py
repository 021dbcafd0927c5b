"""The game page follows the server's deltas: a lost delta is repaired with a whole state
(``sync``), and a connection dropped mid-game resumes from the whole state on reconnect.

The page's websocket goes through Playwright, which loses one delta and later cuts the
connection; the moves come from a player on its own websocket."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from tests.browser.helpers import Relay, game_state, wait_for_ply
from tests.server.helpers import ServerProcess, connect_game

pytestmark = pytest.mark.browser


def test_a_lost_delta_and_a_dropped_connection(open_page: Any, server: ServerProcess) -> None:
    created = httpx.post(f"{server.url}/api/games", json={"mode": "hotseat"}).json()
    game, token = created["id"], created["token"]
    lost: list[dict[str, Any]] = []

    def drop(index: int, data: dict[str, Any]) -> bool:
        if index == 0 and data["type"] == "delta" and data.get("ply") == 2 and not lost:
            lost.append(data)  # never reaches the page
            return True
        return False

    relay = Relay(drop)
    routes, from_page = relay.routes, relay.from_page
    page = open_page("/", locale="en-GB")
    page.route_web_socket(re.compile(r"/ws/games/"), relay)
    page.goto(f"{server.url}/game/{game}?watch=1")
    page.wait_for_selector(".moves-panel")

    with connect_game(server.ws_url, game, token) as player:

        def play() -> int:
            """The player's first legal move; the ply it leads to."""
            state = game_state(server.url, game, token)
            move = next(m for m in state["legal"] if m["piece"]) if state["legal"] else None
            assert move is not None
            request = {"type": "move", "piece": move["piece"], "to": move["to"]}
            player.send(json.dumps({**request, "ply": state["ply"]}))
            while True:
                message = json.loads(player.recv(timeout=10))
                assert message["type"] != "error", message
                if message["type"] == "state" and message["ply"] == state["ply"] + 1:
                    return int(message["ply"])

        assert json.loads(player.recv(timeout=10))["type"] == "state"
        wait_for_ply(page, play())
        assert play() == 2
        assert play() == 3  # its delta does not follow what the page holds: it asks again
        wait_for_ply(page, 3)
        assert lost and lost[0]["ply"] == 2
        assert {"type": "sync"} in from_page[0]
        # a spectator says hello: watching, without a seat token (this browser holds none)
        assert from_page[0][0] == {"type": "hello", "token": None, "watch": True}
        assert page.locator(".move-list [data-ply]").count() == 3

        # The connection drops; the game goes on meanwhile; the page reconnects and resumes.
        routes[0].close(code=1012, reason="restarting")
        assert play() == 4
        assert play() == 5
        wait_for_ply(page, 5)
        assert len(routes) == 2
        assert {"type": "sync"} not in from_page[1]
        assert page.locator(".move-list [data-ply]").count() == 5
        shown = page.locator(".move-list [data-ply]").all_inner_texts()
        played = [entry["move"] for entry in game_state(server.url, game)["history"]]
        assert [text.strip() for text in shown] == played
