"""What every live page shares, in Chromium: an Enjambre table's page reconnects through the one
websocket module and resumes with its seat (the game page's reconnect is in
``test_browser_deltas.py``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.browser.conftest import DESKTOP
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture
def fresh_page(browser: Any, server: ServerProcess) -> Iterator[Callable[..., Any]]:
    """``fresh_page(locale)``: a page in a new context, not opened yet (routes go first)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(locale: str = "en-US") -> Any:
        context = browser.new_context(locale=locale, **DESKTOP)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(20_000)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_table_page_reconnects_and_resumes_with_its_seat(
    fresh_page: Any, server: ServerProcess
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
    routes: list[Any] = []
    from_page: list[list[dict[str, Any]]] = []

    def route(ws: Any) -> None:
        routes.append(ws)
        sent: list[dict[str, Any]] = []
        from_page.append(sent)
        upstream = ws.connect_to_server()

        def page_sent(message: str | bytes) -> None:
            sent.append(json.loads(message))
            upstream.send(message)

        ws.on_message(page_sent)
        upstream.on_message(ws.send)

    page = fresh_page("en-GB")
    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.goto(f"{server.url}/table/{table}#token={token}")
    page.wait_for_selector("body[data-ready]")
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
