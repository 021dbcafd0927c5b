"""On a 390×844 phone: no page scrolls sideways, every tap target is at least 44 px, and a game
shows the board first, both hands as strips and the move to confirm on the first screen. The app
is installable: a manifest, icons, and a service worker that caches the static files (never the
API)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.helpers import box, game_id, wait_for_ply
from tests.server.helpers import ServerProcess
from tests.server.translations import AREAS, LANGUAGES

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 390, 844
NARROW = 360  # the header's links fit from this width in every language
FINISHED = (
    "Base;BlackWins;Black[6];wQ;bG1 -wQ;wS1 wQ/;bQ \\bG1;wS2 wQ-;bQ -wS1;wG1 wQ\\;bA1 /bG1;"
    "wS2 \\wS1;bA1 bG1\\;wA1 wQ-"
)

# Every visible control whose tap target is smaller than 44 × 44 px (a checkbox or a radio
# button is tapped through its label).
SMALL_TAP_TARGETS = """() => {
  const small = [];
  for (const control of document.querySelectorAll("a[href], button, select, input, textarea")) {
    if (control.closest(".skip-link, svg")) continue;
    const box = control.matches("[type=checkbox], [type=radio]")
      ? control.closest("label").getBoundingClientRect()
      : control.getBoundingClientRect();
    if (!box.width || !box.height) continue;  // not shown
    if (box.width < 44 || box.height < 44) {
      const name = control.getAttribute("aria-label") || control.textContent || control.name;
      const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
      small.push(`${control.tagName} ${name.trim().slice(0, 30)}: ${size}`);
    }
  }
  return small;
}"""

# Elements wider than the screen, or reaching past its edges (a hand strip scrolls inside itself).
OVERFLOW = """(width) => {
  const out = [];
  const page = document.documentElement.scrollWidth;
  if (page > width) out.push(`page ${page}`);
  for (const element of document.body.querySelectorAll("*")) {
    if (element.closest(".hand-strip, .skip-link, svg")) continue;
    const box = element.getBoundingClientRect();
    if (box.width && (box.right > width + 0.5 || box.left < -0.5))
      out.push(`${element.tagName}.${element.className}: ${box.left}..${box.right}`);
  }
  return out.slice(0, 10);
}"""


def on_screen(page: Any, selector: str, width: int = WIDTH) -> dict[str, float]:
    found = box(page, selector)
    assert found["x"] >= 0 and found["x"] + found["width"] <= width + 0.5, (selector, found)
    assert found["y"] >= 0 and found["y"] + found["height"] <= HEIGHT + 0.5, (selector, found)
    return found


def pinch(page: Any, area: dict[str, float]) -> None:
    """Two fingers on the middle of ``area`` moving apart (touch events through CDP)."""
    cdp = page.context.new_cdp_session(page)
    x, y = area["x"] + area["width"] / 2, area["y"] + area["height"] / 2

    def touch(kind: str, spread: float) -> None:
        points = [{"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 20)
    for spread in range(30, 130, 10):
        touch("touchMove", spread)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_phone_pages_fit_and_a_game_fits_the_first_screen(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    httpx.post(f"{server.url}/api/import", json={"text": FINISHED}).raise_for_status()
    page = open_page("/archive", phone=True)
    page.wait_for_selector("table.archive a")
    for path in ("/archive", "/import", "/new"):
        if path != "/archive":
            page.click(f"a[data-nav={path[1:]}]")
            page.wait_for_selector("form")
        assert page.evaluate(OVERFLOW, WIDTH) == [], path
        assert page.evaluate(SMALL_TAP_TARGETS) == [], path
        page.screenshot(path=str(artifacts / f"phone{path.replace('/', '-')}.png"), full_page=True)
    # The preferences fold behind a button; open, they fit too.
    page.tap(".settings-toggle")
    assert page.is_visible("select[name=language]")
    assert page.evaluate(OVERFLOW, WIDTH) == [] and page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "phone-preferences.png"))
    page.tap(".settings-toggle")

    # Nothing covers the start button: a tap reaches it (Playwright checks what receives it).
    page.tap("input[name=mode][value=hotseat]")
    page.tap("input[name=expansion][value=D]")
    page.tap("button[data-action=start]")
    game_id(page)
    page.wait_for_selector(".hand button[data-piece=wQ]:not([disabled])")
    assert page.evaluate(OVERFLOW, WIDTH) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    # Board first: the opponent's strip, the board, the player's own strip, all on screen.
    top = on_screen(page, ".player[data-hand=top]")
    board = on_screen(page, ".board-area")
    bottom = on_screen(page, ".player[data-hand=bottom]")
    assert top["y"] < board["y"] < bottom["y"]
    assert board["height"] >= 0.5 * HEIGHT, board
    for side in ("top", "bottom"):  # a place for a clock in each player's bar
        assert page.locator(f".player[data-hand={side}] .player-bar [data-clock]").count() == 1
    page.screenshot(path=str(artifacts / "phone-game.png"))

    # Two fingers spread apart zoom the board in.
    width = float(page.get_attribute(".board", "viewBox").split()[2])
    pinch(page, board)
    assert float(page.get_attribute(".board", "viewBox").split()[2]) < width / 2
    page.tap("[data-action=fit]")

    # On a touch screen a move waits for "Play it", which is on screen with the board.
    page.tap(".hand button[data-piece=wQ]")
    page.tap(".board [data-dest]")
    on_screen(page, ".action-bar [data-action=confirm-move]")
    on_screen(page, ".board-area")
    assert page.locator(".board .pending-piece").count() == 1
    assert page.inner_text(".pending-move") == "Play wQ?"
    assert page.locator(".move-list [data-ply]").count() == 0, "played before confirming"
    page.screenshot(path=str(artifacts / "phone-game-confirm.png"))
    page.tap("[data-action=confirm-move]")
    wait_for_ply(page, 1)
    assert page.is_hidden(".action-bar")
    # With confirmation off (the preference), a tap on a lit cell plays at once.
    page.tap(".settings-toggle")
    page.tap("input[name=confirm_moves]")
    page.tap(".settings-toggle")
    page.tap(".hand button[data-piece=bG1]")
    page.tap(".board [data-dest]")
    wait_for_ply(page, 2)
    assert page.evaluate("localStorage.getItem('panal.confirmMoves')") == "0"


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "pt-PT", "pt-BR"])
def test_every_page_is_reachable_from_the_phone_header(
    open_page: Any, artifacts: Path, locale: str
) -> None:
    page = open_page("/new", locale=locale, phone=True)
    page.set_viewport_size({"width": NARROW, "height": HEIGHT})  # the narrow phones' width
    header = on_screen(page, ".site-header", NARROW)
    links = page.locator(".site-header nav a")
    assert links.count() == 7  # lobby, new game, import, archive, Enjambre, analysis, tournaments
    boxes = []
    for index in range(links.count()):
        link = links.nth(index).bounding_box()
        assert link is not None, links.nth(index).inner_text()
        # on screen, in the header, and big enough to tap
        assert link["x"] >= 0 and link["x"] + link["width"] <= NARROW + 0.5, link
        top, bottom = link["y"], link["y"] + link["height"]
        assert header["y"] <= top <= bottom <= header["y"] + header["height"], link
        # (44 px less a layout rounding: a box at y 49.89 can measure 43.99999)
        assert link["width"] >= 44 - 0.01 and link["height"] >= 44 - 0.01, link
        # no two links' boxes (nor their texts, which may not spill out of the box) overlap
        text_width = links.nth(index).evaluate("(link) => link.scrollWidth")
        assert text_width <= link["width"] + 0.5, (links.nth(index).inner_text(), text_width, link)
        for other in boxes:
            apart = (
                link["x"] >= other["x"] + other["width"] - 0.5
                or other["x"] >= link["x"] + link["width"] - 0.5
                or link["y"] >= other["y"] + other["height"] - 0.5
                or other["y"] >= link["y"] + link["height"] - 0.5
            )
            assert apart, (locale, links.nth(index).inner_text(), link, other)
        boxes.append(link)
    assert page.evaluate(OVERFLOW, NARROW) == []
    page.screenshot(path=str(artifacts / f"phone-header-{locale}.png"))
    page.tap("a[data-nav=enjambre]")
    page.wait_for_selector("form.new-table")
    assert page.url.endswith("/enjambre")
    assert page.get_attribute("a[data-nav=enjambre]", "aria-current") == "page"


def test_installable_with_a_service_worker(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = open_page("/new", phone=True)
    manifest_url = page.get_attribute("link[rel=manifest]", "href")
    response = page.request.get(server.url + manifest_url)
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(response.text())
    assert manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/new"
    purposes = set()
    for icon in manifest["icons"]:
        image = page.request.get(server.url + icon["src"])
        assert image.ok and image.headers["content-type"].startswith(icon["type"]), icon
        purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}

    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == server.url + "/"
    # Chromium's own installability check (manifest, icons, worker): nothing is missing, except
    # that a test's browser context is incognito, where no app installs.
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    cdp.detach()
    assert {error["errorId"] for error in errors} <= {"in-incognito"}, errors
    page.evaluate("fetch('/api/config').then((r) => r.json())")
    cached = page.evaluate(
        """async () => {
            const names = await caches.keys();
            const cache = await caches.open(names.find((n) => n.startsWith('panal-static-')));
            return (await cache.keys()).map((request) => new URL(request.url).pathname);
        }"""
    )
    assert {"/", "/static/js/main.js", "/static/style.css", "/manifest.webmanifest"} <= set(cached)
    catalogs = {f"/static/locales/{lang}/{area}.json" for lang in LANGUAGES for area in AREAS}
    assert catalogs <= set(cached)  # every language's texts, for offline
    assert not [path for path in cached if path.startswith(("/api/", "/ws/"))]

    # Offline, the app still starts from the cache (and says the server cannot be reached).
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("main:has-text('The server cannot be reached.')")
    assert page.inner_text("[data-nav=new]") == "New game"
    page.context.set_offline(False)
