"""Regression tests for issue 19 (part A), tried as a hostile user would: real parallel requests
against a real ``panal serve`` process, on SQLite and on PostgreSQL + Redis.

* 200 sign-ins sent at the same instant test at most :data:`PER_NAME_AND_ADDRESS` passwords
  (counted exactly: the server's process counts its Argon2 verifications in a file).
* The owner signs in from another address within :data:`OWNER_BOUND` seconds (or
  :data:`OWNER_RATIO` times an idle sign-in, on a loaded machine) during an
  attacker's burst, and still signs in after many addresses used up the name's cap.
* 150 challenges from one guest leave room, and others' challenges visible; racing posts never
  pass the account's cap.
* A rated game resigned before the second move changes no rating.
* Names that read like a taken or reserved one are refused, even when posted in parallel.
* Behind a TLS proxy, the session cookie is ``Secure`` and an ``http://`` page is another site
  (on the test client: headers only).

Clients get their own addresses by binding to 127.0.0.x (Linux routes all of 127/8 to this
machine), so the server sees each as another address without trusting any header.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from panal.server.lobby.lobby import MAX_OPEN_PER_ACCOUNT, MAX_OPEN_PER_ADDRESS
from panal.server.players.attempts import PER_NAME, PER_NAME_AND_ADDRESS
from panal.server.players.auth import SESSION_COOKIE
from tests.server.conftest import fresh_postgres, scale_out_services
from tests.server.helpers import ServerProcess, connect_game, open_websocket

BLITZ = {"kind": "realtime", "base": 180, "increment": 2}
PASSWORD = "correct horse"
#: The owner's correct sign-in during a burst is answered within OWNER_BOUND seconds, or
#: OWNER_RATIO times the same sign-in measured idle just before when the machine is so loaded
#: that this is longer. The issue measured 34 s (200 hashes queued two at a time); here it took
#: 1.4 to 6.3 s on the shared 2-core machine at a load average of 7 to 10, an idle sign-in 0.1
#: to 0.3 s.
OWNER_BOUND = 10.0
OWNER_RATIO = 30.0

# Runs in the server's process: every Argon2 verification appends one byte to the file.
COUNTING = """
import os, argon2
_verify = argon2.PasswordHasher.verify
def _counted(self, *args, **kwargs):
    fd = os.open({path!r}, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, b"v")
    finally:
        os.close(fd)
    return _verify(self, *args, **kwargs)
argon2.PasswordHasher.verify = _counted
"""


@dataclass
class Server:
    process: ServerProcess
    verifications: Path

    @property
    def url(self) -> str:
        return self.process.url

    def verified(self) -> int:
        """Argon2 verifications so far in the server's process."""
        return self.verifications.stat().st_size if self.verifications.exists() else 0


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp(f"abuse-{request.param}")
    if request.param == "sqlite":
        args: tuple[str, ...] = ("--db", str(folder / "games.sqlite3"))
    else:
        postgres, redis = scale_out_services()
        args = ("--db", fresh_postgres(postgres), "--redis", redis, "--redis-prefix", folder.name)
    counter = folder / "argon2-verifications"
    process = ServerProcess(
        args[1],
        folder / "serve.log",
        (*args[2:], "--ai-workers", "1"),
        prelude=COUNTING.format(path=str(counter)),
    )
    process.start()
    yield Server(process, counter)
    process.stop()


_next_address = iter(range(10, 250))


def new_address() -> str:
    """A loopback address no other client of the module has used."""
    return f"127.0.0.{next(_next_address)}"


def client(server: Server, address: str, connections: int = 10) -> httpx.AsyncClient:
    """An HTTP client whose requests come from ``address`` and this site."""
    transport = httpx.AsyncHTTPTransport(
        local_address=address,
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
    )
    return httpx.AsyncClient(
        base_url=server.url, transport=transport, headers={"Origin": server.url}, timeout=120
    )


async def sign_up(server: Server, name: str) -> str:
    """A new account's session cookie (each from its own address: sign-ups are capped)."""
    async with client(server, new_address()) as http:
        answer = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        return answer.cookies[SESSION_COOKIE]


async def burst(http: httpx.AsyncClient, bodies: list[dict[str, str]]) -> list[httpx.Response]:
    return await asyncio.gather(*(http.post("/api/account/signin", json=b) for b in bodies))


def test_200_parallel_sign_ins_test_at_most_the_allowed_passwords(server: Server) -> None:
    async def scenario() -> None:
        await sign_up(server, "victim")
        guesses = [{"name": "victim", "password": f"guess {i:03}"} for i in range(199)]
        guesses.insert(150, {"name": "VICTIM", "password": PASSWORD})
        before = server.verified()
        async with client(server, new_address(), connections=200) as http:
            answers = await burst(http, guesses)
        tested = server.verified() - before
        codes = [a.json().get("error", "signed_in") for a in answers]
        assert tested <= PER_NAME_AND_ADDRESS
        assert tested == sum(code != "slow_down" for code in codes)  # 429: nothing tested
        assert codes.count("slow_down") == 200 - tested
        assert all(a.status_code == 429 for a in answers if a.json().get("error") == "slow_down")

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_owner_signs_in_during_a_burst_and_after_the_name_is_used_up(server: Server) -> None:
    async def scenario() -> None:
        await sign_up(server, "owner")

        async def attack() -> list[httpx.Response]:
            # Four names (each wrong password still costs a hash: 4 × 5 of them, one at a time).
            names = ["owner", "nobody1", "nobody2", "nobody3"]
            bodies = [{"name": names[i % len(names)], "password": "guess it!"} for i in range(200)]
            async with client(server, new_address(), connections=200) as http:
                return await burst(http, bodies)

        async def owner_signs_in(after: float = 0.0) -> float:
            await asyncio.sleep(after)
            started = time.monotonic()
            async with client(server, new_address()) as http:
                answer = await http.post(
                    "/api/account/signin", json={"name": "owner", "password": PASSWORD}
                )
            assert answer.status_code == 200, answer.text
            return time.monotonic() - started

        idle = await owner_signs_in()
        attacked, waited = await asyncio.gather(attack(), owner_signs_in(after=0.3))
        assert waited < max(OWNER_BOUND, OWNER_RATIO * idle), (waited, idle)
        assert {a.status_code for a in attacked} <= {401, 429}

        # Targeted lock-out: many addresses use up the name's cap with wrong passwords…
        async def guess_once() -> None:
            async with client(server, new_address()) as http:
                await http.post("/api/account/signin", json={"name": "owner", "password": "no!"})

        await asyncio.gather(*(guess_once() for _ in range(PER_NAME)))
        async with client(server, new_address()) as http:
            second_try = [
                await http.post("/api/account/signin", json={"name": "owner", "password": "no!"})
                for _ in range(2)
            ]
        assert second_try[1].status_code == 429  # the name's cap holds for guessers
        # …and the owner, from an address that has not tried the name, still gets in.
        async with client(server, new_address()) as http:
            answer = await http.post(
                "/api/account/signin", json={"name": "owner", "password": PASSWORD}
            )
        assert answer.status_code == 200, answer.text

    asyncio.run(scenario())


def test_150_challenges_from_one_guest_leave_others_visible(server: Server) -> None:
    async def scenario() -> None:
        async with client(server, new_address(), connections=150) as spammer:
            posted = await asyncio.gather(
                *(spammer.post("/api/challenges", json={}) for _ in range(150))
            )
        statuses = [a.status_code for a in posted]
        assert statuses.count(201) == MAX_OPEN_PER_ADDRESS
        refusals = [a.json() for a in posted if a.status_code != 201]
        assert {(r["error"], r["reason"]) for r in refusals} == {("too_many_challenges", "address")}
        assert refusals[0]["details"] == {
            "open": str(MAX_OPEN_PER_ADDRESS),
            "cap": str(MAX_OPEN_PER_ADDRESS),
        }
        # An account racing itself from one address gets its own cap, no more.
        cookie = await sign_up(server, "racer")
        async with client(server, new_address(), connections=20) as racer:
            racer.cookies.set(SESSION_COOKIE, cookie)
            raced = await asyncio.gather(
                *(racer.post("/api/challenges", json={"clock": BLITZ}) for _ in range(20))
            )
        assert [a.status_code for a in raced].count(201) == MAX_OPEN_PER_ACCOUNT
        async with client(server, new_address()) as someone:
            mine = await someone.post("/api/challenges", json={"color": "white"})
            assert mine.status_code == 201
            lobby = (await someone.get("/api/lobby")).json()
        assert mine.json()["id"] in [c["id"] for c in lobby["challenges"]]

    asyncio.run(scenario())


def test_a_rated_game_resigned_before_the_second_move_changes_no_rating(server: Server) -> None:
    async def accounts() -> tuple[str, str]:
        return await sign_up(server, "farmer_a"), await sign_up(server, "farmer_b")

    white_cookie, black_cookie = asyncio.run(accounts())
    white = httpx.Client(base_url=server.url, headers={"Origin": server.url})
    black = httpx.Client(base_url=server.url, headers={"Origin": server.url})
    white.cookies.set(SESSION_COOKIE, white_cookie)
    black.cookies.set(SESSION_COOKIE, black_cookie)

    def ws_opener(cookie: str) -> Any:
        headers = {"Origin": server.url, "Cookie": f"{SESSION_COOKIE}={cookie}"}
        return functools.partial(open_websocket, headers=headers)

    def receive(ws: Any, until: Any) -> dict[str, Any]:
        while True:
            message = json.loads(ws.recv(timeout=20))
            if message.get("type") == "state" and until(message):
                return message

    for moves in (0, 1):  # resigned before any move, and after White's first
        posted = white.post(
            "/api/challenges", json={"clock": BLITZ, "rated": True, "color": "white"}
        )
        assert posted.status_code == 201, posted.text
        game = black.post(f"/api/challenges/{posted.json()['id']}/accept").json()["id"]
        with (
            connect_game(server.process.ws_url, game, opener=ws_opener(white_cookie)) as w,
            connect_game(server.process.ws_url, game, opener=ws_opener(black_cookie)) as b,
        ):
            receive(w, lambda s: True)
            receive(b, lambda s: True)
            if moves:
                w.send('{"type": "move", "move": "wS1"}')
                receive(b, lambda s: s["ply"] == 1)
            b.send('{"type": "resign"}')
            over = receive(w, lambda s: s["result"] is not None)
        assert over["result"] == "WhiteWins" and over["end_reason"] == "aborted"
        assert "change" not in over["players"]["white"]
    for name in ("farmer_a", "farmer_b"):
        profile = white.get(f"/api/users/{name}").json()
        assert profile["ratings"] == [] and profile["history"] == []
    white.close()
    black.close()


def test_names_that_read_like_a_taken_or_reserved_one_are_refused(server: Server) -> None:
    async def scenario() -> None:
        await sign_up(server, "Alice9")
        for name in ("A1ice9", "AIice9", "alice9"):
            async with client(server, new_address()) as http:
                answer = await http.post(
                    "/api/account/signup", json={"name": name, "password": PASSWORD}
                )
            assert answer.status_code == 409, (name, answer.text)
            assert answer.json()["error"] in ("name_confusable", "name_taken")
        async with client(server, new_address()) as http:
            reserved = await http.post(
                "/api/account/signup", json={"name": "panaI", "password": PASSWORD}
            )
        assert reserved.status_code == 422 and reserved.json()["reason"] == "reserved"

        # Look-alikes posted at the same instant: one account, whichever came first.
        async def try_name(name: str) -> int:
            async with client(server, new_address()) as http:
                answer = await http.post(
                    "/api/account/signup", json={"name": name, "password": PASSWORD}
                )
                return answer.status_code

        raced = await asyncio.gather(*(try_name(n) for n in ("Bob0", "B0bO", "BobO", "B0b0")))
        assert sorted(raced) == [201, 409, 409, 409]

    asyncio.run(scenario())


# --- behind a TLS proxy (the low items) --------------------------------------------------------


def test_behind_a_tls_proxy_the_session_cookie_is_secure(client: TestClient) -> None:
    """A proxy that ends TLS and says so, or a page on https, gets a ``Secure`` cookie without
    ``--forwarded-allow-ips``; plain http to another host (a LAN party) gets none."""
    cases = [
        ("https_proxy", {"Origin": "https://testserver", "X-Forwarded-Proto": "https"}, True),
        ("https_page", {"Origin": "https://testserver"}, True),
        ("plain_http", {"Origin": "http://testserver"}, False),
    ]
    for name, headers, secure in cases:
        answer = client.post(
            "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=headers
        )
        client.cookies.clear()
        assert answer.status_code == 201, answer.text
        cookie = answer.headers["set-cookie"].lower()
        assert ("; secure" in cookie) is secure, (name, cookie)


def test_an_http_page_cannot_act_on_the_https_site(client: TestClient) -> None:
    behind_tls = {"X-Forwarded-Proto": "https"}
    forged = client.post(
        "/api/challenges", json={}, headers={**behind_tls, "Origin": "http://testserver"}
    )
    assert forged.status_code == 403 and forged.json()["error"] == "bad_origin"
    own = client.post(
        "/api/challenges", json={}, headers={**behind_tls, "Origin": "https://testserver"}
    )
    assert own.status_code == 201, own.text
