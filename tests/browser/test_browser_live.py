"""What every live page shares, and the texts' catalogs, in Chromium: an Enjambre table's page
reconnects through the one websocket module and resumes with its seat (the game page's
reconnect is in ``test_browser_deltas.py``); a catalog missing a key shows the English text,
and a key missing in English shows the key itself; a catalog that cannot be fetched leaves its
area in English; and no key flashes on screen while the catalogs are on their way."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest

from tests.browser.helpers import Relay
from tests.server.helpers import ServerProcess
from tests.server.translations import MERGED

pytestmark = pytest.mark.browser

# A text that looks like one of the catalogs' keys ("new.title", "enj.seat.you").
_PREFIXES = sorted({key.split(".")[0] for key in MERGED["en"]})
KEY_ON_SCREEN = rf"\b(?:{'|'.join(_PREFIXES)})\.[a-z][A-Za-z_.]*[A-Za-z]\b"


def edited_catalog(route: Any, drop: tuple[str, ...]) -> None:
    """Serve the real catalog less the keys ``drop``."""
    table = route.fetch().json()
    for key in drop:
        del table[key]
    route.fulfill(status=200, content_type="application/json", body=json.dumps(table))


def test_a_missing_text_falls_back_visibly(open_page: Any) -> None:
    def prepare(page: Any) -> None:
        spanish = ("new.title", "new.opponent")
        page.route("**/locales/es/hive.json", lambda route: edited_catalog(route, spanish))
        page.route("**/locales/en/hive.json", lambda route: edited_catalog(route, spanish[1:]))

    page = open_page("/new", locale="es-ES", prepare=prepare)
    assert page.inner_text("h1") == "New game"  # English, where Spanish has no text
    assert page.inner_text("form.new-game legend >> nth=0") == "new.opponent"  # nobody has one
    assert page.inner_text("[data-action=start]") == "Empezar"  # the rest is Spanish


def test_a_catalog_that_cannot_be_fetched_leaves_its_area_in_english(open_page: Any) -> None:
    def prepare(page: Any) -> None:
        page.route("**/locales/es/hive.json", lambda route: route.fulfill(status=404, body="{}"))

    page = open_page("/new", locale="es-ES", prepare=prepare)
    assert page.inner_text("h1") == "New game"
    assert page.inner_text("[data-nav=archive]") == "Archivo"  # common.json came


def test_no_key_shows_while_the_catalogs_are_on_their_way(open_page: Any) -> None:
    def slow(route: Any) -> None:
        time.sleep(0.3)
        route.continue_()

    def prepare(page: Any) -> None:
        page.route(re.compile(r"/locales/"), slow)
        # Every text the page ever shows, from its first paint on.
        page.add_init_script(
            """
            window.__seen = [];
            new MutationObserver(() => document.body && window.__seen.push(document.body.innerText))
                .observe(document, { subtree: true, childList: true, characterData: true });
            """
        )

    page = open_page("/new", locale="pt-BR", prepare=prepare)
    assert page.inner_text("h1") == "Novo jogo"
    seen = page.evaluate("window.__seen")
    assert seen
    keys = {match for text in seen for match in re.findall(KEY_ON_SCREEN, text)}
    assert keys == set()
    # Another language is fetched when chosen, and the page speaks it once it is here.
    page.select_option("select[name=language]", "es")
    page.wait_for_function("document.querySelector('h1').textContent === 'Nueva partida'")
    seen = page.evaluate("window.__seen")
    assert {match for text in seen for match in re.findall(KEY_ON_SCREEN, text)} == set()


def test_a_table_page_reconnects_and_resumes_with_its_seat(
    open_page: Any, server: ServerProcess
) -> None:
    created = httpx.post(
        f"{server.url}/api/enjambre/tables",
        json={
            "players": 2,
            "mode": "online",
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}],
            "options": {"rounds": 1},
        },
    ).json()
    table, token = created["id"], created["token"]
    relay = Relay()
    routes, from_page = relay.routes, relay.from_page

    page = open_page(
        f"/table/{table}#token={token}",
        locale="en-GB",
        prepare=lambda page: page.route_web_socket(re.compile(r"/ws/tables/"), relay),
    )
    page.wait_for_selector(".enj-tray [data-tray]")
    assert from_page[0][0] == {"type": "hello", "token": token}
    assert page.url.endswith(f"/table/{table}")  # the token left the address bar
    assert page.evaluate(f"localStorage.getItem('panal.table.{table}')") == token
    page.evaluate(
        """window.__sawReconnecting = false;
        new MutationObserver(() => {
            if (document.querySelector('[data-banner=reconnecting]'))
                window.__sawReconnecting = true;
        }).observe(document.body, { subtree: true, childList: true });"""
    )

    routes[0].close(code=1012, reason="restarting")
    page.wait_for_function("window.__sawReconnecting")
    page.wait_for_function("!document.querySelector('[data-banner=reconnecting]')")
    assert len(routes) == 2
    assert from_page[1][0] == {"type": "hello", "token": token}  # the same seat, again
    # The seat is still this page's: its arrangement is taken.
    page.click("[data-action=random]")
    page.click("[data-action=confirm]")
    page.wait_for_function("!document.querySelector('.enj-tray')")
    assert any(message["type"] == "place" for message in from_page[1])
    state = httpx.get(f"{server.url}/api/enjambre/tables/{table}").json()
    assert state["view"]["placed"][0] is True
