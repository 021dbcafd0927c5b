"""Notifications in the page (issue 25): two people, two browsers. Ana moves in a correspondence
game; Bruno, on a phone in Brazilian Portuguese and on another page of the site (the lobby), sees
a banner that leads to the game, the count on the player menu's bell and in the page's title;
the notifications page lists it and turns a switch; opening it marks it read. And by Web Push:
the server's message reaches a push service on loopback, encrypted; decrypted with the
subscription's keys, it is handed to the player's own service worker (Chromium's DevTools
protocol stands in for the browser's push service), which shows it in the player's language."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from panal.server.database.store import Store
from panal.server.notifications.notification_store import NotificationStore
from panal.server.players.auth import SESSION_COOKIE
from tests.browser.test_browser_players import sign_up, type_move
from tests.server.helpers import ServerProcess
from tests.server.push_helpers import BrowserKeys, running_push_service

pytestmark = pytest.mark.browser

POST = {"kind": "correspondence", "days": 3}


def as_player(page: Any, server: ServerProcess) -> httpx.Client:
    """An HTTP client with the page's session (the API used as the page would)."""
    session = next(c["value"] for c in page.context.cookies() if c["name"] == SESSION_COOKIE)
    headers = {"Origin": server.url, "Cookie": f"{SESSION_COOKIE}={session}"}
    return httpx.Client(base_url=server.url, headers=headers)


def test_a_correspondence_move_notifies_the_opponents_page(
    open_page: Any, server: ServerProcess
) -> None:
    ana = open_page("/new", locale="en-GB")
    bruno = open_page("/new", locale="pt-BR", phone=True)
    sign_up(ana, "nana")
    bruno.tap(".settings-toggle")  # on a phone the player menu folds behind it
    sign_up(bruno, "nbruno")
    with as_player(ana, server) as ana_api, as_player(bruno, server) as bruno_api:
        challenge = ana_api.post("/api/challenges", json={"clock": POST, "color": "white"}).json()
        game = bruno_api.post(f"/api/challenges/{challenge['id']}/accept").json()["id"]
    bruno.tap("a[data-nav=lobby]")
    bruno.wait_for_selector("form.challenge-form")
    # Ana was told of the accepted challenge; her banner stays until she answers it.
    ana.wait_for_selector(".notice-banner[data-notice=challenge]")
    ana.goto(f"{server.url}/game/{game}")
    type_move(ana, "wS1", 0)

    banner = bruno.wait_for_selector(".notice-banner[data-notice=your_turn]")
    assert banner.inner_text().startswith("Sua vez contra nana")
    box = banner.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["y"] + box["height"] <= 844  # on the screen, not below it
    bruno.wait_for_function("document.title.startsWith('(1) ')")  # the count follows the notice
    assert bruno.get_attribute(".settings-toggle", "data-unread") == "1"  # the menu is folded

    # The notifications page: the notice, and the switches (here: no sound for a move).
    bruno.tap(".settings-toggle")
    assert bruno.inner_text("[data-notification-count]") == "1"
    bruno.tap("[data-notifications-link]")
    bruno.wait_for_selector("[data-notice-item=your_turn]")
    bruno.uncheck("[data-switch='your_turn:sound']")
    bruno.wait_for_selector("[data-notify-message]:has-text('Salvo')")
    with as_player(bruno, server) as bruno_api:
        switches = bruno_api.get("/api/notifications").json()["switches"]
    assert switches["your_turn"] == {"page": True, "sound": False, "push": True}

    # The banner leads to the game and marks the notice read: the count goes on every page.
    bruno.tap(".notice-banner[data-notice=your_turn] [data-notice-open]")
    bruno.wait_for_url(f"**/game/{game}")
    bruno.wait_for_function("!document.title.startsWith('(')")
    assert bruno.is_hidden("[data-notification-count]")
    assert bruno.get_attribute(".settings-toggle", "data-unread") is None


def service_worker_registration(page: Any) -> tuple[Any, str]:
    """A DevTools session on the page, and its service worker's registration id."""
    session = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    session.send("ServiceWorker.enable")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_timeout(200)  # the registration's event comes after it is ready
    live = [r for r in registrations if not r.get("isDeleted")]
    assert live, "no service worker"
    return session, live[-1]["registrationId"]


def test_a_push_reaches_the_players_phone_in_their_language(
    open_page: Any, server: ServerProcess
) -> None:
    ana = open_page("/new", locale="en-GB")
    bruno = open_page("/new", locale="es-ES", phone=True)
    bruno.context.grant_permissions(["notifications"], origin=server.url)
    sign_up(ana, "pana")
    bruno.tap(".settings-toggle")
    sign_up(bruno, "pbruno")
    keys = BrowserKeys()
    with running_push_service() as push, as_player(ana, server) as ana_api:
        # Bruno's phone subscribed (written here: a real push service's address is https).
        store = Store(f"sqlite:///{server.db_path}")
        with store.engine.connect() as conn:
            query = "SELECT id FROM users WHERE name = 'pbruno'"
            bruno_id = conn.exec_driver_sql(query).scalar_one()
        subscription = keys.subscription(f"{push.url}/ok/bruno")
        NotificationStore(store.engine).subscribe(
            bruno_id, subscription["endpoint"], **subscription["keys"], now=0.0
        )
        store.close()
        challenge = ana_api.post("/api/challenges", json={"clock": POST, "color": "white"})
        with as_player(bruno, server) as bruno_api:
            game = bruno_api.post(f"/api/challenges/{challenge.json()['id']}/accept").json()["id"]
        ana.goto(f"{server.url}/game/{game}")
        type_move(ana, "wS1", 0)
        (pushed,) = push.wait(1)
    message = keys.decrypt(pushed.body)
    assert message["kind"] == "your_turn" and message["lang"] == "es"
    assert message["data"] == {"url": f"/game/{game}", "by": "pana"}

    session, registration = service_worker_registration(bruno)
    session.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": server.url, "registrationId": registration, "data": keys.plaintext(pushed.body)},
    )
    shown: list[Any] = []
    for _ in range(100):  # the worker shows it once it has read the language's words
        shown = bruno.evaluate(
            """navigator.serviceWorker.ready
                .then((r) => r.getNotifications())
                .then((all) => all.map((n) => [n.title, n.body, n.data.url]))"""
        )
        if shown:
            break
        bruno.wait_for_timeout(100)
    assert shown == [["panal", "Te toca mover contra pana", f"/game/{game}"]]
