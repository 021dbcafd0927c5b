"""Hot-seat on one screen: click, keyboard and typed moves, undo, stepping, resign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import click_move, game_id, game_state, seat_token, wait_for_ply
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser


def test_hotseat_game(open_page: Any, server: ServerProcess, artifacts: Path) -> None:
    page = open_page("/new")
    page.check("input[name=mode][value=hotseat]")
    page.check("input[name=expansion][value=D]")
    page.click("button[data-action=start]")
    game = game_id(page)
    token = seat_token(page, game)
    assert game_state(server.url, game, token)["game_type"] == "Base+MLPD"

    # White by clicks, Black by keyboard only, White by typing UHP.
    state = game_state(server.url, game, token)
    click_move(page, next(m for m in state["legal"] if m["piece"] == "wG1"), state["hands"])
    wait_for_ply(page, 1)
    page.focus(".hand button[data-piece=bS1]")
    page.keyboard.press("Enter")
    focused = page.evaluate("document.activeElement.dataset.dest")
    assert focused == "1", "the first lit destination takes the focus"
    page.keyboard.press("Enter")
    wait_for_ply(page, 2)
    page.fill("form.type-move input", "wQ -wG1")
    page.keyboard.press("Enter")
    wait_for_ply(page, 3)
    assert page.locator(".move-list [data-ply]").all_inner_texts() == ["wG1", "bS1 wG1-", "wQ -wG1"]

    # A cell no piece may reach tells why, in words.
    page.click(".hand button[data-piece=bQ]")
    page.click('.board [data-cell="-2,0"]')
    page.wait_for_selector("[data-banner=notice]")
    assert "may not touch your opponent's pieces" in page.inner_text("[data-banner=notice]")

    # Queen reminder on the fourth turn, stacks shown with their height.
    for text in ("bQ bS1-", "wB1 -wQ", "bB1 bQ-", "wB1 wQ", "bB1 bQ"):
        count = page.locator(".move-list [data-ply]").count()
        page.fill("form.type-move input", text)
        page.keyboard.press("Enter")
        wait_for_ply(page, count + 1)
    assert page.locator('.board .stack[data-height="2"]').count() == 2
    assert page.locator(".board .height-badge").count() == 2
    page.screenshot(path=str(artifacts / "hotseat-stacks.png"))

    # Step back and forward through the moves.
    page.click("[data-action=first]")
    assert page.locator(".board .stack").count() == 0
    page.click("[data-action=forward]")
    assert page.locator(".board .stack").count() == 1
    page.wait_for_selector("[data-banner=viewing]")
    page.keyboard.press("End")
    assert page.locator(".board .stack").count() == 4

    # Undo takes back one move in hot-seat.
    page.click("[data-action=undo]")
    wait_for_ply(page, 7)
    page.wait_for_function("!document.querySelector('.move-list [data-ply=\"8\"]')")
    assert game_state(server.url, game)["ply"] == 7

    page.click("[data-action=resign]")
    page.click("[data-action=resign-yes]")
    page.wait_for_selector(".result-overlay:not([hidden])")
    assert page.inner_text(".result-card h2") == "White wins"
    page.screenshot(path=str(artifacts / "hotseat-resigned.png"))


def test_forced_pass_is_shown(open_page: Any, server: ServerProcess, artifacts: Path) -> None:
    from tests.server.helpers import FORCED_PASS

    page = open_page("/import")
    page.fill("textarea[name=text]", FORCED_PASS)
    page.check("input[name=mode][value=hotseat]")
    page.click("form.import-game button[type=submit]")
    game = game_id(page)
    page.wait_for_selector("[data-banner=pass]")
    assert "must pass" in page.inner_text("[data-banner=pass]")
    page.screenshot(path=str(artifacts / "forced-pass.png"))
    page.click("[data-action=pass]")
    wait_for_ply(page, 12)
    assert page.locator('.move-list [data-ply="12"]').inner_text() == "pass"
    assert game_state(server.url, game)["history"][-1]["move"] == "pass"
