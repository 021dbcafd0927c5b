"""What a player noticed in the pages (issue 10), one test each. The hidden form parts and the
keyboard focus are in test_browser_forms.py; the PGN tags in tests/server/test_server_api.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.helpers import box, game_id, wait_for_ply, window_listeners
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser

# A real game (found by the rules engine): White's last move, wA1 wQ-, surrounds White's own
# Queen Bee: Black wins.
SURROUNDED_MOVES = (
    "wQ;bG1 -wQ;wS1 wQ/;bQ \\bG1;wS2 wQ-;bQ -wS1;wG1 wQ\\;bA1 /bG1;wS2 \\wS1;bA1 bG1\\;wA1 wQ-"
)
BEFORE_SURROUND = "Base;InProgress;White[6];" + SURROUNDED_MOVES.rsplit(";", 1)[0]
SURROUNDED = "Base;BlackWins;Black[6];" + SURROUNDED_MOVES


def import_game(page: Any, record: str, mode: str) -> str:
    page.click("a[data-nav=import]")
    page.fill("textarea[name=text]", record)
    page.check(f"input[name=mode][value={mode}]")
    page.click("form.import-game button[type=submit]")
    return game_id(page)


def test_the_result_card_steps_aside(open_page: Any, artifacts: Path) -> None:
    page = open_page("/new")
    game = import_game(page, BEFORE_SURROUND, "hotseat")
    wait_for_ply(page, 10)
    page.fill("form.type-move input", "wA1 wQ-")
    page.keyboard.press("Enter")
    # The game ends while it is watched: the card shows, over the board.
    page.wait_for_selector(".result-overlay:not([hidden]) [data-result=BlackWins]")
    page.screenshot(path=str(artifacts / "result-card.png"))
    # Stepping back shows the board: the card steps aside instead of staying over it.
    page.keyboard.press("ArrowLeft")
    assert page.is_hidden(".result-overlay")
    assert page.locator('.move-list [aria-current="step"]').get_attribute("data-ply") == "10"
    assert page.locator(".board .stack").count() == 7  # wA1 not placed yet

    # From the archive, a finished game opens on its board, with the result in the status line.
    page.click("a[data-nav=archive]")
    page.click(f'a[href="/game/{game}?watch=1"]')
    page.wait_for_selector(".move-list [data-ply='11']")
    assert page.is_hidden(".result-overlay")
    assert page.inner_text(".status").startswith("Black wins")
    page.click("[data-action=back]")
    area = box(page, ".board-area")
    at_centre = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.board') !== null",
        [area["x"] + area["width"] / 2, area["y"] + area["height"] / 2],
    )
    assert at_centre, "something covers the board while stepping"
    page.screenshot(path=str(artifacts / "archive-step-back.png"))


def test_the_surrounded_queen_is_ringed(open_page: Any, artifacts: Path) -> None:
    page = open_page("/new")
    import_game(page, SURROUNDED, "review")
    wait_for_ply(page, 11)
    ringed = page.locator(".board .cell[data-surrounded]")
    assert ringed.count() == 1
    assert ringed.get_attribute("data-piece") == "wQ"
    assert "Queen Bee (White), surrounded" in ringed.get_attribute("aria-label")
    assert page.locator(".board .surround-ring").count() == 1
    page.screenshot(path=str(artifacts / "surrounded-queen.png"))
    page.click("[data-action=back]")  # one move earlier the queen was free
    assert page.locator(".board .cell[data-surrounded], .board .surround-ring").count() == 0


def test_a_typed_garbage_move_is_answered_in_the_readers_language(open_page: Any) -> None:
    page = open_page("/new", locale="es-ES")
    page.check("input[name=mode][value=hotseat]")
    page.click("button[data-action=start]")
    game_id(page)
    page.wait_for_selector("form.type-move input")
    expected = {
        "hola": "Eso no es una jugada: «hola» no es una pieza (se escriben wQ, bA2, wM…).",
        "wQ wS1-x": "Eso no es una jugada: «wS1-x» no dice dónde",
        "wQ bQ- wS1": "Eso no es una jugada: escribe la pieza y adónde va",
    }
    for typed, answer in expected.items():
        page.fill("form.type-move input", typed)
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-banner=notice]")
        notice = page.inner_text("[data-banner=notice]")
        assert notice.startswith(answer), notice
        assert "MoveString" not in notice and "unknown" not in notice
        page.evaluate("document.querySelector('[data-banner=notice]').remove()")


def test_brazilian_and_european_portuguese(open_page: Any, artifacts: Path) -> None:
    page = open_page("/new", locale="pt-BR")
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    assert page.input_value("select[name=language]") == "pt-BR"
    assert "Você joga com" in page.inner_text("form.new-game")
    legend = page.inner_text(".legend")
    assert "Tatuzinho" in legend and "Besouro" in legend and "Bicho-de-conta" not in legend
    page.screenshot(path=str(artifacts / "language-pt-BR.png"))
    page.select_option("select[name=language]", "pt-PT")
    assert "Jogas com" in page.inner_text("form.new-game")
    assert "Bicho-de-conta" in page.inner_text(".legend")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate("document.documentElement.lang") == "pt-PT"  # the choice is kept

    # The language comes from the browser's list, Portuguese by region.
    picks = page.evaluate(
        """async () => {
            const { pickLanguage } = await import('/static/js/i18n.js');
            return [
                pickLanguage(null, ['pt-BR', 'en']), pickLanguage(null, ['pt-PT']),
                pickLanguage(null, ['pt']), pickLanguage(null, ['pt-AO', 'pt-BR']),
                pickLanguage(null, ['fr-FR', 'es-MX', 'en']), pickLanguage(null, ['de']),
                pickLanguage('pt', ['pt-BR']), pickLanguage('es', ['pt-BR']),
            ];
        }"""
    )
    assert picks == ["pt-BR", "pt-PT", "pt-PT", "pt-PT", "es", "en", "pt-PT", "es"]


def test_the_chosen_look_is_remembered(open_page: Any, server: ServerProcess) -> None:
    page = open_page("/new")
    page.select_option("select[name=look]", "football")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.input_value("select[name=look]") == "football"
    assert page.get_attribute("body", "data-look") == "football"
    assert "Crest" in page.inner_text(".legend")
    # A game created in the classic look shows the reader's chosen look, also after a reload.
    body = {"mode": "hotseat", "look": "classic"}
    created = httpx.post(f"{server.url}/api/games", json=body).json()
    page.goto(f"{server.url}/game/{created['id']}?watch=1")
    page.wait_for_selector(".hand button[data-piece=wQ]")
    assert page.get_attribute("body", "data-look") == "football"
    page.select_option("select[name=look]", "classic")
    page.reload()
    page.wait_for_selector(".hand button[data-piece=wQ]")
    assert page.get_attribute("body", "data-look") == "classic"


def test_a_declined_draw_is_told_to_the_offerer(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    host = open_page("/new")
    host.check("input[name=mode][value=online]")
    host.click("button[data-action=start]")
    game_id(host)
    invite = host.input_value("[data-link-kind=invite] input")
    guest = open_page(invite.replace(server.url, ""), locale="es-ES")
    guest.wait_for_selector(".moves-panel")
    host.wait_for_selector("[data-action=offer-draw]")
    host.click("[data-action=offer-draw]")
    host.wait_for_selector("[data-banner=draw]")
    guest.click("[data-action=decline-draw]")
    host.wait_for_selector("[data-notice=drawDeclined]")
    assert host.inner_text("[data-notice=drawDeclined]") == "Black declined the draw."
    host.screenshot(path=str(artifacts / "draw-declined.png"))
    # The offer can be made again, and the guest's screen has no stale offer.
    assert host.is_visible("[data-action=offer-draw]")
    assert guest.locator("[data-banner=draw]").count() == 0


def test_the_spider_is_drawn_as_a_spider(open_page: Any, artifacts: Path) -> None:
    page = open_page("/new")
    for color in "wb":
        spider = (
            page.locator(".legend li", has_text="Spider")
            .locator("svg")
            .nth(0 if color == "w" else 1)
        )
        assert spider.locator("[data-part=leg]").count() == 8
        assert spider.locator("[data-part=head]").count() == 1
        assert spider.locator("[data-part=abdomen]").count() == 1
    page.locator(".legend").screenshot(path=str(artifacts / "legend-classic.png"))


def test_a_hand_tile_shows_one_number(open_page: Any, server: ServerProcess) -> None:
    page = open_page("/new")
    page.check("input[name=mode][value=hotseat]")
    page.click("button[data-action=start]")
    game_id(page)
    ants = page.locator(".hand button[data-piece=wA1]")
    ants.wait_for()
    assert ants.locator(".piece-number").count() == 0, "the tile's number beside the count"
    assert ants.locator(".count").inner_text() == "3"
    page.fill("form.type-move input", "wA1")
    page.keyboard.press("Enter")
    wait_for_ply(page, 1)
    # On the board a piece keeps its number: which ant it is.
    assert page.locator(".board [data-piece=wA1] .piece-number").text_content() == "1"
    assert page.locator(".hand button[data-piece=wA2] .count").inner_text() == "2"
    state = httpx.get(f"{server.url}/api/games/{game_id(page)}").json()
    assert state["history"][0]["piece"] == "wA1"


def test_a_board_left_behind_keeps_no_listeners(open_page: Any, server: ServerProcess) -> None:
    """Each game page's board listened to the window's pointer events for good: a player who
    opened games one after another had every old board answering each move of the mouse."""
    created = httpx.post(f"{server.url}/api/games", json={"mode": "hotseat"}).json()
    page = open_page("/new")
    kinds = ("pointermove", "pointerup", "pointercancel")
    without_board = {kind: window_listeners(page, kind) for kind in kinds}
    go = "async (path) => (await import('/static/js/main.js')).navigate(path)"
    for _ in range(3):
        page.evaluate(go, f"/game/{created['id']}")
        page.wait_for_selector(".board [data-cell]")
        with_board = {kind: window_listeners(page, kind) for kind in kinds}
        assert with_board == {kind: without_board[kind] + 1 for kind in kinds}
        page.evaluate(go, "/archive")
        page.wait_for_selector(".archive-page")
        assert {kind: window_listeners(page, kind) for kind in kinds} == without_board
    assert page.locator("svg.board").count() == 0


def test_a_player_watching_their_own_game_is_not_counted(
    open_page: Any, server: ServerProcess
) -> None:
    page = open_page("/new")
    page.check("input[name=mode][value=online]")
    page.click("button[data-action=start]")
    game = game_id(page)
    watch = f"{server.url}/game/{game}?watch=1"
    page.goto(watch)  # the player's own watch link, in the browser that holds the seat
    page.wait_for_selector(".side-panel .move-nav")
    stranger = open_page(f"/game/{game}?watch=1")  # another browser: a spectator
    stranger.wait_for_selector(".spectators")
    assert stranger.inner_text(".spectators") == "1 watching"
    assert httpx.get(f"{server.url}/api/games/{game}").json()["spectators"] == 1
