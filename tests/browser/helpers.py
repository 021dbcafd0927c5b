"""Driving the game page like a player: pick a piece, then a lit cell."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx

BOX = """(selector) => {
    const element = document.querySelector(selector);
    const box = element && element.getBoundingClientRect();
    return box && box.width > 0 ? {x: box.x, y: box.y, width: box.width, height: box.height} : null;
}"""
"""Where the first element matching a CSS selector is drawn, once it is (JavaScript for
``wait_for_function``)."""


def box(page: Any, selector: str) -> dict[str, float]:
    """x, y, width and height of the first element matching the CSS ``selector``, once it is
    drawn, found and measured in one step in the page. Pages draw parts of themselves again
    whenever a state arrives (the board, a tournament's pairings), and a redraw between finding
    an element and measuring it (``locator(...).bounding_box()``) leaves nothing to measure."""
    # Imported here: the browser tests' conftest skips them where Playwright is missing.
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        found: dict[str, float] = page.wait_for_function(BOX, arg=selector).json_value()
    except PlaywrightTimeoutError:
        raise AssertionError(f"nothing matching {selector!r} was drawn") from None
    return found


def game_id(page: Any) -> str:
    page.wait_for_url("**/game/*")
    return page.url.rstrip("/").split("/game/")[1].split("?")[0].split("#")[0]


def seat_token(page: Any, game: str) -> str | None:
    return page.evaluate(f"localStorage.getItem('panal.token.{game}')")


def game_state(base_url: str, game: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{base_url}/api/games/{game}", headers=headers).json()


def wait_for_ply(page: Any, ply: int) -> None:
    """Until the move list shows ``ply`` moves (or the game ended)."""
    page.wait_for_function(
        """(ply) => document.querySelector(`.move-list [data-ply="${ply}"]`)
                 || !document.querySelector('.result-overlay').hidden""",
        arg=ply,
    )


def click_move(page: Any, move: dict[str, Any], hands: list[list[str]]) -> None:
    """Play ``move`` (an entry of the state's legal moves) by click-click."""
    piece = move["piece"]
    if piece is None:
        page.click("[data-action=pass]")
        return
    in_hand = any(piece in hand for hand in hands)
    if in_hand:
        page.click(f".hand button[data-piece={piece}]")
    else:
        page.click(f".board .cell.selectable[data-piece={piece}]")
    key = f"{move['to'][0]},{move['to'][1]}"
    page.click(f'.board [data-cell="{key}"][data-dest]')


def drag_move(page: Any, move: dict[str, Any], hands: list[list[str]]) -> None:
    """Play ``move`` by drag-and-drop."""
    piece = move["piece"]
    in_hand = any(piece in hand for hand in hands)
    source = box(
        page,
        f".hand button[data-piece={piece}]"
        if in_hand
        else f".board .cell.selectable[data-piece={piece}]",
    )
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    key = f"{move['to'][0]},{move['to'][1]}"
    page.mouse.move(
        source["x"] + source["width"] / 2 + 20, source["y"] + source["height"] / 2 + 10, steps=4
    )
    target = box(page, f'.board [data-cell="{key}"][data-dest]')
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=8)
    page.mouse.up()


def window_listeners(page: Any, kind: str) -> int:
    """How many ``kind`` listeners the page's window has (read through the DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    try:
        window = cdp.send("Runtime.evaluate", {"expression": "window"})["result"]["objectId"]
        found = cdp.send("DOMDebugger.getEventListeners", {"objectId": window})["listeners"]
    finally:
        cdp.detach()
    return sum(1 for listener in found if listener["type"] == kind)


class Relay:
    """A page's websockets through Playwright (``page.route_web_socket(pattern, relay)``): each
    connection goes on to the server, and what the page sends on each is kept, parsed, in
    ``from_page``. ``drop(index, message)`` may keep a server's message from the page."""

    def __init__(self, drop: Callable[[int, dict[str, Any]], bool] | None = None) -> None:
        self.routes: list[Any] = []  # the page's websockets, in order
        self.from_page: list[list[dict[str, Any]]] = []
        self.drop = drop or (lambda index, message: False)

    def __call__(self, ws: Any) -> None:
        index = len(self.routes)
        self.routes.append(ws)
        sent: list[dict[str, Any]] = []
        self.from_page.append(sent)
        upstream = ws.connect_to_server()

        def page_sent(message: str | bytes) -> None:
            sent.append(json.loads(message))
            upstream.send(message)

        def server_sent(message: str | bytes) -> None:
            if not self.drop(index, json.loads(message)):
                ws.send(message)

        ws.on_message(page_sent)
        upstream.on_message(server_sent)


def host_online_game(open_page: Any, locale: str = "en-US") -> tuple[Any, str, str]:
    """A browser that starts an online game as White: its page, the game's id and the
    invitation link it shows."""
    host = open_page("/new", locale=locale)
    host.check("input[name=mode][value=online]")
    host.select_option("select[name=color]", "white")
    host.click("button[data-action=start]")
    game = game_id(host)
    host.wait_for_selector("[data-link-kind=invite] input")
    return host, game, host.input_value("[data-link-kind=invite] input")
