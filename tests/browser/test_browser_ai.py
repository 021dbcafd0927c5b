"""A whole game against the AI in Chromium, then its replay from the archive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import (
    click_move,
    drag_move,
    game_id,
    game_state,
    seat_token,
    wait_for_ply,
)
from tests.browser.strategy import choose_losing_move
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser


def test_whole_game_against_the_ai(open_page: Any, server: ServerProcess, artifacts: Path) -> None:
    page = open_page("/new")
    page.check("input[name=mode][value=ai]")
    page.select_option("select[name=level]", "easy")
    page.select_option("select[name=color]", "white")
    page.click("button[data-action=start]")
    game = game_id(page)
    token = seat_token(page, game)
    assert token
    page.wait_for_selector(".hand button[data-piece=wQ]:not([disabled])")
    page.screenshot(path=str(artifacts / "ai-start.png"))

    for moves_played in range(60):
        state = game_state(server.url, game, token)
        if state["result"]:
            break
        assert state["legal"], state
        move = choose_losing_move(state)
        ply = state["ply"]
        # Legal destinations light up when a piece is picked.
        if moves_played == 1:
            page.click(f".hand button[data-piece={move['piece']}]")
            assert page.locator(".board [data-dest]").count() >= 1
            page.screenshot(path=str(artifacts / "ai-destinations-lit.png"))
            page.keyboard.press("Escape")
        if moves_played == 2 and move["piece"] is not None:
            drag_move(page, move, state["hands"])
        else:
            click_move(page, move, state["hands"])
        wait_for_ply(page, ply + 2)
        if moves_played == 2:
            assert page.locator(".board .last-to").count() == 1
            page.screenshot(path=str(artifacts / "ai-midgame.png"))
    else:
        pytest.fail("the game did not end")

    page.wait_for_selector(".result-overlay:not([hidden]) [data-result]")
    banner = page.locator(".result-card h2").inner_text()
    assert banner in ("Black wins", "Draw")
    page.screenshot(path=str(artifacts / "ai-result.png"))

    # The finished game is in the archive, replayable move by move.
    page.click("a[data-nav=archive]")
    page.wait_for_selector(f'a[href="/game/{game}?watch=1"]')
    page.screenshot(path=str(artifacts / "archive.png"))
    page.click(f'a[href="/game/{game}?watch=1"]')
    page.wait_for_selector(".move-list")
    assert page.is_hidden(".result-overlay"), "the result card covers a finished game's board"
    assert page.inner_text(".status").startswith(banner)  # the result, in the status line
    page.click("[data-action=first]")
    assert page.locator(".board .stack").count() == 0
    page.click("[data-action=forward]")
    page.click("[data-action=forward]")
    assert page.locator(".board .stack").count() == 2
    assert page.locator('.move-list [aria-current="step"]').inner_text().strip() != ""
    page.screenshot(path=str(artifacts / "archive-replay.png"))
