"""Notifications (issue 25): a correspondence move, a draw offer and an accepted challenge reach
the other player's pages live and stay unread for a page opened later; Web Push messages reach a
push service the test runs on loopback, encrypted as RFC 8291 says (aes128gcm, decrypted here with
the subscription's own private key and auth secret) and signed with the server's VAPID key; a
subscription the push service answers 410 is deleted; each player's switches are respected. On
SQLite and on PostgreSQL + Redis, where a notice also crosses from one process to another."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from panal.server.app import create_app
from tests.server.conftest import Backend, first_legal_move
from tests.server.helpers import receive_state
from tests.server.players_helpers import Person
from tests.server.push_helpers import (
    BrowserKeys,
    PushService,
    check_vapid,
    running_push_service,
    unb64,
)

POST = {"kind": "correspondence", "days": 3}


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with running_push_service() as service:
        yield service


# --- the players ---------------------------------------------------------------------------------


def app_for(backend: Backend) -> Any:
    app = create_app(
        backend.db_url,
        ai_runner=first_legal_move,
        levels=("beginner",),
        ai_workers=1,
        **backend.app_options(),
    )
    app.state.notifications.allow_loopback_push = True
    return app


@pytest.fixture
def client(backend: Backend) -> Iterator[TestClient]:
    with TestClient(app_for(backend)) as test_client:
        yield test_client


def correspondence_game(creator: Person, acceptor: Person) -> tuple[str, str, str]:
    """A correspondence game between two accounts, ``creator`` White; (game, White's token,
    Black's token)."""
    challenge = creator.post("/api/challenges", {"clock": POST, "color": "white"}).json()
    accepted = acceptor.post(f"/api/challenges/{challenge['id']}/accept").json()
    return accepted["id"], challenge["token"], accepted["token"]


def receive_notice(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] == "notice" and message["notice"]["kind"] == kind:
            notice: dict[str, Any] = message
            return notice
    raise AssertionError(f"no {kind} notice")


def wait_for(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# --- the tests -----------------------------------------------------------------------------------


def test_a_correspondence_move_and_a_draw_offer_reach_the_opponents_pages(
    client: TestClient,
) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("ana")
    bruno.sign_up("bruno")
    game, white, black = correspondence_game(ana, bruno)
    with client.websocket_connect("/ws/notifications", headers=bruno.headers()) as page:
        first = page.receive_json()
        assert first["type"] == "notifications" and first["count"] == 0
        with ana.websocket(game, white) as ws:
            ws.receive_json()
            ws.send_json({"type": "move", "move": "wS1"})
            notice = receive_notice(page, "your_turn")
            assert notice["notice"]["data"] == {"url": f"/game/{game}", "by": "ana"}
            assert notice["sound"] is True
            ws.send_json({"type": "offer_draw"})
            offer = receive_notice(page, "draw_offer")
            assert offer["notice"]["data"]["by"] == "ana"
            # Offered again after a refusal: still one notice of it (a new one, the old gone).
            with bruno.websocket(game, black) as bruno_ws:
                bruno_ws.receive_json()
                bruno_ws.send_json({"type": "decline_draw"})
                receive_state(ws, lambda state: state["draw_offer"] is None)
                ws.send_json({"type": "offer_draw"})
                again = receive_notice(page, "draw_offer")
            assert again["notice"]["id"] > offer["notice"]["id"]
    # A page opened later shows them, unread, newest first; read, they are gone everywhere.
    later = bruno.get("/api/notifications").json()
    assert [n["kind"] for n in later["unread"]] == ["draw_offer", "your_turn"]
    assert later["count"] == 2
    # Ana was told that Bruno accepted her challenge.
    wait_for(lambda: ana.get("/api/notifications").json()["count"] == 1)
    told = ana.get("/api/notifications").json()["unread"]
    assert [(n["kind"], n["data"].get("event"), n["data"].get("by")) for n in told] == [
        ("challenge", "accepted", "bruno")
    ]
    assert bruno.post("/api/notifications/read", {"ids": None}).json() == {"count": 2}
    assert bruno.get("/api/notifications").json()["count"] == 0
    assert client.get("/api/notifications").status_code == 401  # a guest has none
    # Another site's page cannot read them with Bruno's cookie.
    foreign = {**bruno.headers(), "Origin": "https://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/ws/notifications", headers=foreign) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4403


def test_web_push_reaches_a_push_service_encrypted_and_a_gone_subscription_is_dropped(
    client: TestClient, push_service: PushService
) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("ana")
    bruno.sign_up("bruno")
    phone, old_laptop = BrowserKeys(), BrowserKeys()
    endpoints = (f"{push_service.url}/ok/phone", f"{push_service.url}/gone/laptop")
    for keys, endpoint in zip((phone, old_laptop), endpoints, strict=True):
        response = ana.post("/api/notifications/push", keys.subscription(endpoint))
        assert response.status_code == 204, response.text
    server_key = client.get("/api/notifications/push-key").json()["key"]
    assert len(unb64(server_key)) == 65
    notifications = client.app.state.notifications  # type: ignore[attr-defined]
    players = client.app.state.players  # type: ignore[attr-defined]
    ana_id = players.account_by_key("ana")[0].id

    game, _white, _black = correspondence_game(ana, bruno)  # Ana: "challenge accepted"
    received = push_service.wait(2)
    by_path = {r.path: r for r in received}
    pushed = by_path["/ok/phone"]
    assert pushed.headers["content-encoding"] == "aes128gcm"
    assert int(pushed.headers["ttl"]) > 0
    check_vapid(pushed.headers, server_key, push_service.url)
    message = phone.decrypt(pushed.body)
    assert message["kind"] == "challenge"
    assert message["data"] == {"url": f"/game/{game}", "by": "bruno", "event": "accepted"}
    with pytest.raises(Exception):  # noqa: B017 (any failure: it was not encrypted for it)
        old_laptop.decrypt(pushed.body)
    # The push service said 410 for the old laptop: its subscription is gone, the phone's kept.
    store = notifications.store
    wait_for(lambda: len(store.subscriptions(ana_id)) == 1)
    kept = store.subscriptions(ana_id)
    assert [s.endpoint for s in kept] == [endpoints[0]]


def test_each_players_switches_are_respected(client: TestClient, push_service: PushService) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("ana")
    bruno.sign_up("bruno")
    keys = BrowserKeys()
    ana.post("/api/notifications/push", keys.subscription(f"{push_service.url}/ok/ana"))
    defaults = ana.get("/api/notifications").json()["switches"]
    assert defaults["challenge"] == {"page": True, "sound": True, "push": True}
    assert defaults["draw_offer"]["push"] is False  # a live game's offer: on the board already
    off = {"challenge": {"page": False, "push": False}, "your_turn": {"sound": False}}
    response = ana.request("PUT", "/api/notifications/switches", json={"switches": off})
    assert response.json()["switches"]["challenge"] == {"page": False, "sound": True, "push": False}
    bad = ana.request("PUT", "/api/notifications/switches", json={"switches": {"mail": {}}})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_switch"

    game, white, black = correspondence_game(ana, bruno)  # nothing for Ana: both off
    with client.websocket_connect("/ws/notifications", headers=ana.headers()) as page:
        assert page.receive_json()["count"] == 0
        with bruno.websocket(game, black) as ws, ana.websocket(game, white) as ana_ws:
            ws.receive_json()
            ana_ws.receive_json()
            ws.send_json({"type": "offer_draw"})
            assert receive_notice(page, "draw_offer")["sound"] is True
            ana_ws.send_json({"type": "move", "move": "wS1"})  # declines the offer
            receive_state(ws, lambda state: state["ply"] == 1)
            ws.send_json({"type": "move", "move": "bS1 -wS1"})
            assert receive_notice(page, "your_turn")["sound"] is False  # turned off
    told = [n["kind"] for n in ana.get("/api/notifications").json()["unread"]]
    assert told == ["your_turn", "draw_offer"]
    # Pushed: only the move (the draw offer's push is off by default, the challenge's turned off).
    (pushed,) = push_service.wait(1)
    assert keys.decrypt(pushed.body)["kind"] == "your_turn"
    time.sleep(0.2)
    assert len(push_service.received) == 1


def test_a_subscription_must_be_a_real_push_subscription(client: TestClient) -> None:
    ana = Person(client)
    ana.sign_up("ana")
    good = BrowserKeys().subscription("https://push.example/abc")
    assert ana.post("/api/notifications/push", good).status_code == 204
    for endpoint in ("http://push.example/abc", "ftp://x/y", "https:///nohost"):
        refused = ana.post("/api/notifications/push", {**good, "endpoint": endpoint})
        assert refused.status_code == 422, endpoint
    short_key = {**good, "keys": {**good["keys"], "p256dh": "A" * 86}}
    assert ana.post("/api/notifications/push", short_key).json()["error"] == "bad_subscription"
    assert Person(client).post("/api/notifications/push", good).status_code == 401


def test_a_notice_crosses_processes(backend: Backend) -> None:
    """Two processes on one PostgreSQL and one Redis: Ana's page on one hears of the challenge
    Bruno accepts on the other."""
    if backend.name != "postgres":
        pytest.skip("one process on SQLite")
    with TestClient(app_for(backend)) as first, TestClient(app_for(backend)) as second:
        ana, bruno = Person(first), Person(second)
        ana.sign_up("ana")
        bruno.sign_up("bruno")
        challenge = ana.post("/api/challenges", {"clock": POST}).json()
        with first.websocket_connect("/ws/notifications", headers=ana.headers()) as page:
            assert page.receive_json()["count"] == 0
            bruno.post(f"/api/challenges/{challenge['id']}/accept")
            notice = receive_notice(page, "challenge")
            assert notice["notice"]["data"]["by"] == "bruno"


def test_the_vapid_key_is_made_once_and_kept(backend: Backend) -> None:
    keys = []
    for _ in range(2):  # a restart keeps the key the browsers subscribed with
        with TestClient(app_for(backend)) as client:
            keys.append(client.get("/api/notifications/push-key").json()["key"])
    assert keys[0] == keys[1] and len(keys[0]) == 87


def test_a_tournament_round_that_begins_tells_both_players(client: TestClient) -> None:
    ana, bea = Person(client), Person(client)
    ana.sign_up("ana")
    bea.sign_up("bea")
    clock = {"kind": "realtime", "base": 600, "increment": 0}
    body = {"name": "Spring cup", "format": "round_robin", "clock": clock, "max_players": 2}
    cup = ana.post("/api/tournaments", {**body, "start_when_full": True}).json()
    with client.websocket_connect("/ws/notifications", headers=bea.headers()) as page:
        assert page.receive_json()["count"] == 0
        for person in (ana, bea):
            assert person.post(f"/api/tournaments/{cup['id']}/join").status_code == 200
        notice = receive_notice(page, "tournament_round")["notice"]
    game = client.get(f"/api/tournaments/{cup['id']}").json()["pairings"][0]["boards"][0]["game"]
    assert notice["data"] == {
        "url": f"/game/{game}",
        "by": "ana",
        "round": 1,
        "tournament": "Spring cup",
    }
    wait_for(lambda: ana.get("/api/notifications").json()["count"] == 1)  # published apart
    told = ana.get("/api/notifications").json()["unread"]
    assert [(n["kind"], n["data"]["by"]) for n in told] == [("tournament_round", "bea")]


def test_a_series_round_that_begins_tells_each_player_of_the_table(client: TestClient) -> None:
    ana, bea = Person(client), Person(client)
    ana.sign_up("ana")
    bea.sign_up("bea")
    body = {"name": "Enjambre night", "format": "series", "game_type": "Enjambre"}
    series = ana.post("/api/tournaments", {**body, "max_players": 2, "start_when_full": True})
    path = f"/api/tournaments/{series.json()['id']}"
    with client.websocket_connect("/ws/notifications", headers=bea.headers()) as page:
        assert page.receive_json()["count"] == 0
        for person in (ana, bea):
            assert person.post(f"{path}/join").status_code == 200
        notice = receive_notice(page, "tournament_round")["notice"]
    assert notice["data"] == {  # the page's "Sit down" takes the seat: no game to link to
        "url": f"/tournament/{series.json()['id']}",
        "round": 1,
        "tournament": "Enjambre night",
        "table": True,
    }


def test_a_kind_or_detail_that_is_not_one_is_a_bug_in_the_caller(client: TestClient) -> None:
    notifications = client.app.state.notifications  # type: ignore[attr-defined]
    for kind, details in (("mail", {}), ("challenge", {"event": "x" * 500})):
        with pytest.raises(ValueError):
            client.portal.call(
                functools.partial(notifications.publish, 1, kind, url="/", **details)
            )


def test_a_named_challenge_and_a_takeback_offer_tell_the_other_player(client: TestClient) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("ana_named")
    bruno.sign_up("bruno_named")
    with client.websocket_connect("/ws/notifications", headers=bruno.headers()) as page:
        assert page.receive_json()["count"] == 0
        body = {"to": "bruno_named", "clock": POST, "color": "white", "takebacks": True}
        challenge = ana.post("/api/challenges", body).json()
        named = receive_notice(page, "challenge")["notice"]["data"]
        assert named == {"url": "/lobby", "by": "ana_named", "event": "received"}
        game = bruno.post(f"/api/challenges/{challenge['id']}/accept").json()
        with ana.websocket(game["id"], challenge["token"]) as ws:
            ws.receive_json()
            ws.send_json({"type": "move", "move": "wS1"})
            receive_notice(page, "your_turn")
            ws.send_json({"type": "offer_takeback"})
            offer = receive_notice(page, "takeback_offer")["notice"]["data"]
            assert offer == {"url": f"/game/{game['id']}", "by": "ana_named"}
