"""The chat's rate limit under real parallel requests, and its live delivery across processes (a
message, a moderator's deletion): real ``panal serve`` processes, one on SQLite, two on one
PostgreSQL and one Redis."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Iterator

import httpx
import pytest

from panal.cli import main
from panal.server.chat.chat_store import ChatLimits
from panal.server.players.auth import SESSION_COOKIE
from tests.server.helpers import ServerProcess, backend_servers, hello, open_websocket

LIMITS = ChatLimits()
SENT = 24


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    folder = tmp_path_factory.mktemp(f"chat-{request.param}")
    with backend_servers(request.param, folder, ("--ai-workers", "1")) as started:
        yield started


def test_parallel_messages_pass_the_rate_once_and_reach_every_process(
    servers: list[ServerProcess],
) -> None:
    first, last = servers[0], servers[-1]
    origin = {"Origin": first.url}
    created = httpx.post(
        f"{first.url}/api/games", json={"mode": "online", "color": "black"}, headers=origin
    ).json()
    game = created["id"]
    joined = httpx.post(
        f"{last.url}/api/games/{game}/join",
        json={"invite": created["invite"]},
        headers={"Origin": last.url},
    ).json()
    listener = open_websocket(f"{last.ws_url}/ws/chat/game/{game}", {"Origin": last.url})
    with listener:
        listener.send(hello(joined["token"]))
        assert json.loads(listener.recv(timeout=10))["type"] == "chat"

        async def burst() -> list[httpx.Response]:
            clients = [
                httpx.AsyncClient(base_url=s.url, headers={"Origin": s.url}, timeout=60)
                for s in servers
            ]
            try:
                return await asyncio.gather(
                    *(
                        clients[n % len(clients)].post(
                            f"/api/chat/game/{game}",
                            json={"text": f"message {n}"},
                            headers={"Authorization": f"Bearer {created['token']}"},
                        )
                        for n in range(SENT)
                    )
                )
            finally:
                for client in clients:
                    await client.aclose()

        began = time.monotonic()
        answers = asyncio.run(burst())
        elapsed = time.monotonic() - began
        codes = sorted(a.status_code for a in answers)
        passed = codes.count(201)
        # The bucket holds five, and refills by one every two seconds while the burst lasts.
        refilled = math.floor(elapsed / LIMITS.refill_seconds)
        assert LIMITS.burst <= passed <= LIMITS.burst + refilled, (codes, elapsed)
        assert set(codes) == {201, 429}
        assert {a.json()["error"] for a in answers if a.status_code == 429} == {"slow_down"}

        # Every message that passed reaches the socket on the last process, whichever took it.
        sent = {a.json()["id"] for a in answers if a.status_code == 201}
        heard: set[int] = set()
        while heard != sent:
            message = json.loads(listener.recv(timeout=10))
            assert message["type"] == "said", message
            heard.add(message["message"]["id"])

        # A moderator deletes one on the first process: it goes from the socket on the last.
        with httpx.Client(base_url=first.url, headers=origin) as moderator:
            signed = moderator.post(
                "/api/account/signup", json={"name": "keeper", "password": "correct horse"}
            )
            assert signed.status_code == 201, signed.text
            assert main(["admin", "moderator", "add", "keeper", "--db", str(first.db_path)]) == 0
            gone = min(sent)
            # The session cookie is Secure on loopback: sent by hand over plain HTTP.
            session = {"Cookie": f"{SESSION_COOKIE}={signed.cookies[SESSION_COOKIE]}"}
            deleted = moderator.delete(f"/api/chat/game/{game}/messages/{gone}", headers=session)
            assert deleted.status_code == 204, deleted.text
        assert json.loads(listener.recv(timeout=10)) == {"type": "deleted", "id": gone}
