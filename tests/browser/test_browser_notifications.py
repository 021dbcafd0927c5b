"""Notifications in the page (issue 25): two people, two browsers. Ana moves in a correspondence
game; Bruno, on a phone in Brazilian Portuguese and on another page of the site (the lobby), sees
a banner that leads to the game, the count on the player menu's bell and in the page's title;
the notifications page lists it and turns a switch; opening it marks it read."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from panal.server.players.auth import SESSION_COOKIE
from tests.browser.test_browser_players import sign_up, type_move
from tests.server.helpers import ServerProcess

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
    assert bruno.get_attribute(".settings-toggle", "data-unread") == "1"  # the menu is folded
    bruno.wait_for_function("document.title.startsWith('(1) ')")

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
