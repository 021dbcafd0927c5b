"""The leaderboard, the player search and the archive's filters in Chromium, on a phone
(390×844) and on a desktop. Accounts, ratings and finished games are written into the test
server's database (their names begin with ``lbz`` so that other tests' players never mix in)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.test_browser_phone import OVERFLOW, SMALL_TAP_TARGETS, WIDTH
from tests.server.community_helpers import BLITZ, BULLET, World
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def seeded(server: ServerProcess) -> Iterator[World]:
    world = World(f"sqlite:///{server.db_path}")
    try:
        world.accounts("lbz_Ann", "lbz_bob", "lbz_cid", "lbz_dan")
        world.rating("lbz_Ann", "hive:classic", 1705.0, 60.0, 40)
        world.rating("lbz_bob", "hive:classic", 1890.0, 70.0, 30)
        world.rating("lbz_cid", "hive:classic", 1600.0, 50.0, 80)
        world.rating("lbz_dan", "hive:classic", 2100.0, 250.0, 2)  # provisional
        world.rating("lbz_bob", "enjambre", 30.0, 3.0, 12)
        world.game("lbzg1", "lbz_Ann", "lbz_bob", "WhiteWins", day=0, clock=BLITZ, rated=True)
        world.game("lbzg2", "lbz_bob", "lbz_Ann", "Draw", day=1, clock=BLITZ, rated=True)
        world.game("lbzg3", "lbz_Ann", "lbz_cid", "BlackWins", day=2, clock=BULLET)
        world.game("lbzg4", "lbz_cid", "lbz_bob", "WhiteWins", day=3, clock=BLITZ)
        yield world
    finally:
        world.store.close()


def ours(page: Any, selector: str) -> list[str]:
    names: list[str] = page.eval_on_selector_all(
        f"{selector} li[data-name]", "items => items.map((item) => item.dataset.name)"
    )
    return [name for name in names if name.startswith("lbz")]


def test_the_leaderboard_on_a_phone(open_page: Any, artifacts: Path, seeded: World) -> None:
    page = open_page("/leaderboard?game=hive&speed=classic", phone=True)
    page.wait_for_selector("[data-ranked] li[data-name=lbz_bob]")
    page.wait_for_selector("[data-provisional-list] li[data-name=lbz_dan]")
    # Best first; the provisional rating is apart, marked with "?" and never ranked.
    assert ours(page, "[data-ranked]") == ["lbz_bob", "lbz_Ann", "lbz_cid"]
    assert ours(page, "[data-provisional-list]") == ["lbz_dan"]
    dan = page.locator("[data-provisional-list] li[data-name=lbz_dan]")
    assert dan.locator(".value").inner_text() == "2100?"
    assert dan.locator(".rank").inner_text() == ""
    bob = page.locator("[data-ranked] li[data-name=lbz_bob]")
    assert bob.locator(".value").inner_text() == "1890"
    assert page.get_attribute("a[data-board='hive:classic']", "aria-current") == "page"
    assert page.evaluate(OVERFLOW, WIDTH) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "leaderboard-phone.png"), full_page=True)

    # The player search: the first letters in any case.
    page.fill("input[name=q]", "LBZ_B")
    page.wait_for_selector("[data-search-results] a[href='/@/lbz_bob']")
    assert page.locator("[data-search-results] a").all_inner_texts() == ["lbz_bob"]
    page.fill("input[name=q]", "lbz%")
    page.wait_for_selector("[data-search-results] li.hint")
    assert "first letters" in page.inner_text("[data-search-results]")
    page.screenshot(path=str(artifacts / "leaderboard-search-phone.png"))

    # Another board: Enjambre's, by tapping its tab; the address follows.
    page.tap("a[data-board=enjambre]")
    page.wait_for_selector("[data-ranked] li[data-name=lbz_bob]")
    assert page.get_attribute("a[data-board=enjambre]", "aria-current") == "page"
    assert parse_qs(urlparse(page.url).query) == {"game": ["enjambre"]}
    assert "lbz_Ann" not in ours(page, "[data-ranked]")
    # A name leads to the profile.
    page.tap("[data-ranked] li[data-name=lbz_bob] a")
    page.wait_for_selector(".profile-name")
    assert page.inner_text(".profile-name") == "lbz_bob"


def test_the_archive_filters(open_page: Any, artifacts: Path, seeded: World) -> None:
    page = open_page("/archive")
    page.wait_for_selector("form[data-archive-filters]")
    page.click("form[data-archive-filters] summary")
    page.fill("input[name=player]", "LBZ_ann")
    page.fill("input[name=opponent]", "lbz_bob")
    page.click("form[data-archive-filters] button[type=submit]")
    page.wait_for_function(
        "() => document.querySelectorAll('table.archive a[href^=\"/game/lbzg\"]').length === 2"
    )
    assert parse_qs(urlparse(page.url).query) == {"player": ["LBZ_ann"], "opponent": ["lbz_bob"]}
    page.screenshot(path=str(artifacts / "archive-filters.png"), full_page=True)
    # Combined with a result: only Ann's win over Bob.
    page.select_option("select[name=result]", "WhiteWins")
    page.click("form[data-archive-filters] button[type=submit]")
    page.wait_for_function(
        "() => document.querySelectorAll('table.archive a[href^=\"/game/\"]').length === 1"
    )
    assert page.get_attribute("table.archive a[href^='/game/']", "href") == "/game/lbzg1?watch=1"
    # A filtered address opens filtered (shareable), and clearing shows every game again.
    page.goto(page.url.split("/archive")[0] + "/archive?player=lbz_cid&speed=bullet")
    page.wait_for_function(
        "() => document.querySelectorAll('table.archive a[href^=\"/game/\"]').length === 1"
    )
    assert page.get_attribute("table.archive a[href^='/game/']", "href") == "/game/lbzg3?watch=1"
    assert page.input_value("input[name=player]") == "lbz_cid"
    assert page.input_value("select[name=speed]") == "bullet"
    page.click("[data-action=clear-filters]")
    page.wait_for_function(
        "() => document.querySelectorAll('table.archive a[href^=\"/game/lbzg\"]').length === 4"
    )
    assert urlparse(page.url).query == ""


def test_a_refused_filter_is_explained_in_the_readers_language(
    open_page: Any, artifacts: Path, seeded: World
) -> None:
    page = open_page("/archive?player=lbz_nobody", locale="es-ES", phone=True)
    page.wait_for_selector(".archive-page .banner.error")
    assert page.inner_text(".archive-page .banner.error") == "No hay ningún jugador con ese nombre."
    page.fill("input[name=player]", "lbz_cid")
    page.fill("input[name=since]", "2026-02-01")
    page.fill("input[name=until]", "2026-01-01")
    page.click("form[data-archive-filters] button[type=submit]")
    page.wait_for_selector(".archive-page .banner.error >> text=La primera fecha")
    assert page.inner_text(".archive-page .banner.error") == (
        "La primera fecha es posterior a la última."
    )
    assert page.evaluate(OVERFLOW, WIDTH) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "archive-filters-error-phone.png"), full_page=True)
