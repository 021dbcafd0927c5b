"""Issue 25: a player challenges another by name from the other's profile (with takebacks
allowed); the challenge reaches the addressee's lobby page live, on a phone, and nobody else's;
accepted, the game begins, and a takeback is proposed and accepted on both screens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import box, game_id
from tests.browser.test_browser_phone import OVERFLOW, SMALL_TAP_TARGETS
from tests.browser.test_browser_players import two_people, type_move
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser

OPENING = ("wS1", "bS1 wS1-", "wQ -wS1")


def test_a_named_challenge_accepted_then_a_takeback(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    ana, bruno = two_people(open_page, "ana_c", "bruno_c")
    bruno.goto(f"{server.url}/lobby")
    bruno.wait_for_selector("form.challenge-form")

    # From Bruno's profile, Ana challenges him: the lobby's form comes addressed to him.
    ana.goto(f"{server.url}/@/bruno_c")
    ana.click("[data-challenge-player]")
    ana.wait_for_selector("form.challenge-form input[name=to]")
    assert ana.input_value("input[name=to]") == "bruno_c"
    ana.check("input[name=takebacks]")
    ana.select_option("select[name=color]", "white")
    ana.click("[data-action=post]")
    ana.wait_for_selector("[data-named=sent] [data-action=cancel]")
    assert ana.locator(".lobby-challenges [data-challenge-row]").count() == 0
    ana.screenshot(path=str(artifacts / "challenges-sent-desktop.png"))

    # It reaches Bruno's open lobby page by itself, in his language, and only his.
    bruno.wait_for_selector("[data-named=incoming] [data-action=accept]")
    assert "ana_c" in bruno.inner_text("[data-named=incoming]")
    assert "deshacer" in bruno.inner_text("[data-named=incoming]")
    assert bruno.evaluate(OVERFLOW, 390) == [] and bruno.evaluate(SMALL_TAP_TARGETS) == []
    accept = box(bruno, "[data-named=incoming] [data-action=accept]")
    assert accept["y"] + accept["height"] <= 844  # on the phone's first screen
    bruno.screenshot(path=str(artifacts / "challenges-incoming-phone.png"))
    bruno.tap("[data-named=incoming] [data-action=accept]")
    game = game_id(bruno)
    assert game_id(ana) == game  # Ana's page follows her challenge to the game

    for ply, move in enumerate(OPENING):
        type_move(ana if ply % 2 == 0 else bruno, move, ply)
    bruno.wait_for_selector('.move-list [data-ply="3"]')
    # Ana takes back her queen; Bruno is asked and accepts.
    ana.click("[data-action=offer-takeback]")
    ana.wait_for_selector("[data-banner=takeback]")
    assert "Takeback proposed" in ana.inner_text("[data-banner=takeback]")
    bruno.wait_for_selector("[data-banner=takeback] [data-action=accept-takeback]")
    bruno.screenshot(path=str(artifacts / "challenges-takeback-phone.png"))
    assert "Blancas pide deshacer" in bruno.inner_text("[data-banner=takeback]")
    assert bruno.evaluate(SMALL_TAP_TARGETS) == []
    bruno.tap("[data-banner=takeback] [data-action=accept-takeback]")
    for page in (ana, bruno):
        page.wait_for_selector('.move-list [data-ply="3"]', state="detached")
        assert page.locator("[data-banner=takeback]").count() == 0
    ana.wait_for_selector("form.type-move input")  # Ana is to move again
    type_move(ana, "wG1 -wS1", 2)
    bruno.wait_for_selector('.move-list [data-ply="3"]')
    assert "wG1" in bruno.inner_text(".move-list")
