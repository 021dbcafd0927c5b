"""Shared AI and bot capacity against real ``panal serve`` processes, with real parallel
requests (issue 19): on SQLite (one process, one AI worker) and on PostgreSQL + Redis (two
processes, one AI worker each, the second client on the other process).

* One client keeps its maximum busy: four ``strongest`` AI games (each move a 10 s search) and
  two tables of five ``search`` bots. Another client's first ``beginner`` AI move then comes
  before that client's backlog: at most one of its AI games per AI worker has had its first move
  by then (first come, first served ran all four first: 38.8 s, against 0.4 s idle), and within
  ``SECOND_CLIENT_BOUND`` seconds (one ``strongest`` search, the job running when the second
  client came, plus 5 s for the rest on a loaded machine).
* The caps answer 429 with codes every language's catalog translates, and hold against
  requests sent at once.
* A guest lists its unfinished AI games by its client token and resigns one; its place is free.
* An AI game nobody is connected to ends by itself (forfeit) and leaves the list.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import ServerProcess, backend_servers, connect_game, open_websocket
from tests.server.translations import LANGUAGES, MERGED

pytest.importorskip("panal.ai")

IDLE_SECONDS = 6.0  # the servers' --ai-idle-seconds: an AI game nobody has open ends after it
SECOND_CLIENT_BOUND = 15.0  # seconds: one `strongest` search (10 s) + 5 s
SIX_BOTS = {
    "players": 6,
    "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "search"}] * 5,
    "options": {"rounds": 2},
}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """The processes of one back-end: the first client talks to the first, the second client
    to the last."""
    folder: Path = tmp_path_factory.mktemp(f"fairness-{request.param}")
    common = ("--ai-workers", "1", "--ai-idle-seconds", str(IDLE_SECONDS))
    with backend_servers(request.param, folder, common) as started:
        yield started


def guest() -> dict[str, str]:
    """A browser's headers: its own client token (see panal.server.http.clients)."""
    return {"X-Panal-Client": secrets.token_urlsafe(18)}


def post_at_once(url: str, bodies: list[dict[str, Any]], headers: dict[str, str]) -> list[Any]:
    """POST every body at the same moment, each on its own connection."""
    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(
            pool.map(lambda body: httpx.post(url, json=body, headers=headers, timeout=30), bodies)
        )


def served(server: ServerProcess, games: list[dict[str, Any]]) -> int:
    """How many of these AI games have had the AI's first move."""
    return sum(httpx.get(f"{server.url}/api/games/{g['id']}").json()["ply"] >= 1 for g in games)


def translated(code: str) -> bool:
    return all(f"error.{code}" in MERGED[language] for language in LANGUAGES)


def test_a_second_client_is_served_while_another_keeps_its_maximum_busy(
    servers: list[ServerProcess],
) -> None:
    first, last = servers[0], servers[-1]
    busy = guest()
    # Six AI games asked for at once: the cap (4 per client) holds, the rest are told why.
    strongest = {"mode": "ai", "ai_level": "strongest", "color": "black"}
    answers = post_at_once(f"{first.url}/api/games", [strongest] * 6, busy)
    assert sorted(a.status_code for a in answers) == [201] * 4 + [429] * 2
    refused = [a.json() for a in answers if a.status_code == 429]
    assert {r["error"] for r in refused} == {"too_many_ai_games"}
    assert refused[0]["details"] == {"count": "4", "limit": "4"}
    assert translated("too_many_ai_games")
    games = [a.json() for a in answers if a.status_code == 201]
    # Three tables of five `search` bots asked for at once: two are allowed.
    answers = post_at_once(f"{first.url}/api/enjambre/tables", [SIX_BOTS] * 3, busy)
    assert sorted(a.status_code for a in answers) == [201, 201, 429]
    assert [a.json()["error"] for a in answers if a.status_code == 429] == ["too_many_bot_tables"]
    assert translated("too_many_bot_tables")
    sockets = [connect_game(first.ws_url, g["id"], g["token"], open_websocket) for g in games]
    try:
        # The second client, on the last process: its first AI move.
        served_before = served(first, games)
        started = time.monotonic()
        mine = httpx.post(
            f"{last.url}/api/games",
            json={"mode": "ai", "ai_level": "beginner", "color": "black"},
            headers=guest(),
        ).json()
        with connect_game(last.ws_url, mine["id"], mine["token"]) as ws:
            while True:
                message = json.loads(ws.recv(timeout=SECOND_CLIENT_BOUND + 30))
                if message["type"] == "state" and message["ply"] >= 1:
                    break
        waited = time.monotonic() - started
        # Served meanwhile: the jobs running when it came (one per AI worker), no more.
        moved = served(first, games) - served_before
        assert moved <= len(servers), f"{moved} of the busy client's games were served first"
        assert waited < SECOND_CLIENT_BOUND, f"the second client waited {waited:.1f} s"

        # The busy client's list of unfinished games (by its client token); it resigns one
        # from the list, and its place is free again.
        listed = httpx.get(f"{first.url}/api/my-games", headers=busy).json()
        assert sorted(g["id"] for g in listed["ai_games"]) == sorted(g["id"] for g in games)
        assert listed["idle_seconds"] == IDLE_SECONDS
        someone = httpx.post(f"{last.url}/api/my-games/{games[0]['id']}/resign", headers=guest())
        assert someone.status_code == 403 and someone.json()["error"] == "not_your_game"
        assert translated("not_your_game")
        resigned = httpx.post(f"{last.url}/api/my-games/{games[0]['id']}/resign", headers=busy)
        assert resigned.status_code == 204
        state = httpx.get(f"{first.url}/api/games/{games[0]['id']}").json()
        assert (state["result"], state["end_reason"]) == ("WhiteWins", "resignation")
        listed = httpx.get(f"{first.url}/api/my-games", headers=busy).json()
        assert len(listed["ai_games"]) == 3
        again = httpx.post(
            f"{first.url}/api/games", json={"mode": "ai", "ai_level": "beginner"}, headers=busy
        )
        assert again.status_code == 201
    finally:
        for ws in sockets:
            ws.close()


def test_an_ai_game_nobody_has_open_ends_by_itself(servers: list[ServerProcess]) -> None:
    """Nobody connects to the game: after --ai-idle-seconds (and the sweep, a third of it) the
    AI wins by forfeit, unrated, and the game leaves its player's list."""
    server, headers = servers[-1], guest()
    created = httpx.post(
        f"{server.url}/api/games", json={"mode": "ai", "ai_level": "beginner"}, headers=headers
    ).json()
    assert len(httpx.get(f"{server.url}/api/my-games", headers=headers).json()["ai_games"]) == 1
    deadline = time.monotonic() + IDLE_SECONDS * 2 + 10
    while True:
        state = httpx.get(f"{server.url}/api/games/{created['id']}").json()
        if state["result"] is not None or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert (state["result"], state["end_reason"]) == ("BlackWins", "forfeit")
    assert not state["rated"]
    assert httpx.get(f"{server.url}/api/my-games", headers=headers).json()["ai_games"] == []
