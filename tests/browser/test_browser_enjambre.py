"""Enjambre Tácticas in Chromium: a 4-player table with two people in two browser contexts and
two bots, played to the final scoreboard and replayed; the pass-the-screen mode with its
hand-over screens; a phone. Screenshots go to ``test-artifacts/browser/``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.test_browser_phone import OVERFLOW, SMALL_TAP_TARGETS
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser

GAME_SECONDS = 240


def table_id(page: Any) -> str:
    page.wait_for_url("**/table/*")
    return str(page.url.rstrip("/").split("/table/")[1].split("#")[0])


def new_table(page: Any, players: int, seats: dict[int, str], mode: str = "online") -> str:
    """Fill in the new-table form: ``seats`` maps a seat to "person" or a bot level."""
    page.wait_for_selector("form.new-table")
    page.select_option("select[name=players]", str(players))
    page.check(f"input[name=mode][value={mode}]")
    for seat, choice in seats.items():
        page.select_option(f"select[data-seat='{seat}']", choice)
    page.fill("input[data-option=rounds]", "2")
    page.dispatch_event("input[data-option=rounds]", "change")
    page.click("[data-action=open-table]")
    return table_id(page)


def arrange(page: Any, *, by_taps: bool = False) -> None:
    """The secret set-up: tap a tray tile then a lit cell (twice), then "Random", then confirm."""
    page.wait_for_selector(".enj-tray")
    if by_taps:
        for number in (1, 2):
            page.click(f".enj-tray [data-tray='{number}']")
            page.click(".enj-board .cell.lit-place >> nth=0")
        assert page.locator(".enj-board .tile.pending").count() == 2
    page.click("[data-action=random]")
    assert page.locator(".enj-board .tile.pending").count() == 10
    page.click("[data-action=confirm]")
    page.wait_for_selector(".enj-tray", state="detached")


def take_turn(page: Any) -> bool:
    """On this page's turn: move one tile to a lit cell, then end the turn. False if it is not
    this page's turn."""
    end = page.locator("[data-action=end]:not([disabled])")
    if not end.count():
        return False
    step = page.locator(".enj-board .tile.selectable")
    if step.count():
        step.first.click()
        lit = page.locator(".enj-board .cell.lit")
        if lit.count():
            lit.first.click(force=True)  # an enemy tile may stand on it (an attack)
            page.wait_for_timeout(150)
    if page.locator("[data-action=end]:not([disabled])").count():
        page.click("[data-action=end]")
        page.wait_for_function("!document.querySelector('[data-action=end]')")
    return True


def scoreboard(page: Any) -> bool:
    return bool(page.locator(".enj-score-card").count())


def no_numbers_on_screen(page: Any) -> None:
    assert page.locator(".enj-board .tile").count() == 0
    assert page.locator(".enj-tray").count() == 0


def test_four_players_two_people_and_two_bots_play_to_the_scoreboard(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    host = open_page("/enjambre", locale="en-GB")
    table = new_table(host, 4, {1: "person", 2: "random", 3: "heuristic"})
    host.wait_for_selector("[data-invite='1']")
    assert "Waiting for the players" in host.inner_text(".status")
    invite = host.input_value("[data-invite='1']")
    assert "#seat=1&invite=" in invite  # the secret travels in the fragment, never to a log
    host.screenshot(path=str(artifacts / "enjambre-waiting.png"))

    guest = open_page(invite.replace(server.url, ""), locale="es-ES")
    guest.fill("input[name=name]", "Lucía")
    guest.click("[data-action=join]")
    guest.wait_for_selector(".enj-tray")
    assert "invite=" not in guest.url
    assert "Colocación" in guest.inner_text(".status")  # the guest reads Spanish
    host.wait_for_selector(".enj-tray")
    arrange(host, by_taps=True)
    host.screenshot(path=str(artifacts / "enjambre-setup-done.png"))
    arrange(guest)

    deadline = time.monotonic() + GAME_SECONDS
    shots = 0
    while not (scoreboard(host) and scoreboard(guest)):
        assert time.monotonic() < deadline, "the game did not end"
        moved = False
        for page in (host, guest):
            if not scoreboard(page) and take_turn(page):
                moved = True
                if shots < 2:
                    page.screenshot(path=str(artifacts / f"enjambre-turn-{shots}.png"))
                    shots += 1
        if not moved:
            host.wait_for_timeout(100)
    host.screenshot(path=str(artifacts / "enjambre-scoreboard.png"))
    guest.screenshot(path=str(artifacts / "enjambre-scoreboard-es.png"))
    rows = host.locator(".enj-score-card .enj-scores tbody tr")
    assert rows.count() == 4
    assert "Game over" in host.inner_text(".enj-score-card h2")
    assert "Lucía" in host.inner_text(".enj-score-card")
    state = httpx.get(f"{server.url}/api/enjambre/tables/{table}").json()
    assert state["table"]["status"] == "over"
    assert sum(1 for e in state["events"] if e["type"] == "turn_ended") == 8  # 4 seats × 2 rounds

    # The replay: from the host's seat, then with every number.
    host.click(".enj-score-card [data-action=replay]")
    host.wait_for_selector(".enj-replay")
    host.click("[data-action=replay-step][data-to=nextTurn]")
    host.wait_for_timeout(300)
    host.select_option("select[name=replay-view]", "all")
    host.wait_for_function(
        "document.querySelectorAll('.enj-board .tile-number:not(.hidden-number)').length >= 40"
    )
    host.screenshot(path=str(artifacts / "enjambre-replay-all.png"))


def test_pass_the_screen_hands_over_and_hides_the_previous_players_tiles(
    open_page: Any, artifacts: Path
) -> None:
    page = open_page("/enjambre", locale="pt-PT")
    new_table(page, 3, {1: "person", 2: "random"}, mode="local")
    handovers = 0
    deadline = time.monotonic() + GAME_SECONDS
    while not scoreboard(page):
        assert time.monotonic() < deadline, "the game did not end"
        cover = page.locator(".enj-handover [data-look]")
        if cover.count():
            no_numbers_on_screen(page)  # nothing of the previous player's behind the cover
            if handovers == 0:
                page.screenshot(path=str(artifacts / "enjambre-handover.png"))
            handovers += 1
            cover.click()
            page.wait_for_selector(".enj-handover", state="hidden")
            continue
        if page.locator(".enj-tray").count():
            arrange(page)
            continue
        if not take_turn(page):
            page.wait_for_timeout(100)
    # Two people: two set-ups, then (at most) one hand-over per turn of theirs.
    assert handovers >= 3
    assert "Fim do jogo" in page.inner_text(".enj-score-card h2")
    page.screenshot(path=str(artifacts / "enjambre-local-scoreboard.png"))


def test_a_table_on_a_phone(open_page: Any, artifacts: Path) -> None:
    page = open_page("/enjambre", locale="en-US", phone=True)
    page.wait_for_selector("form.new-table")
    assert page.evaluate(OVERFLOW, 390) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "enjambre-phone-form.png"), full_page=True)
    new_table(page, 2, {1: "heuristic"})
    page.wait_for_selector(".enj-tray")
    assert page.evaluate(OVERFLOW, 390) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    # The set-up zooms in on the own zone: its cells are big enough to tap.
    cell = page.locator(".enj-board .cell.lit-place").first.bounding_box()
    assert cell is not None and cell["width"] >= 44 and cell["height"] >= 44
    page.screenshot(path=str(artifacts / "enjambre-phone-setup.png"))
    arrange(page, by_taps=True)
    page.wait_for_selector(".enj-board .tile.selectable")
    assert page.evaluate(OVERFLOW, 390) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "enjambre-phone-turn.png"))
