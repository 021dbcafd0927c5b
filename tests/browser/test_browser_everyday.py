"""What a new player tripped over (issue 25), each a regression test: element boxes measured at
1366×768 and 390×844 in Chromium, the texts in the page's language."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from panal.server.players.auth import SESSION_COOKIE
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
BLITZ = {"kind": "realtime", "base": 180, "increment": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of this module's own: its sign-ups do not slow the other modules' down."""
    directory = tmp_path_factory.mktemp("everyday-server")
    process = ServerProcess(
        directory / "games.sqlite3", directory / "serve.log", ("--ai-workers", "1")
    )
    process.start()
    yield process
    process.stop()


def sign_up(server: ServerProcess, name: str) -> str:
    """A new account's session token (the API, as the sign-up form calls it)."""
    answer = httpx.post(
        f"{server.url}/api/account/signup",
        json={"name": name, "password": "correct horse battery"},
        headers={"Origin": server.url},
    )
    assert answer.status_code == 201, answer.text
    return str(answer.cookies[SESSION_COOKIE])


def as_account(server: ServerProcess, session: str) -> Any:
    """``prepare`` for ``open_page``: the page's browser holds the account's session."""

    def prepare(page: Any) -> None:
        page.context.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": server.url}])

    return prepare


def challenge_accepted(server: ServerProcess, white: str, black: str) -> str:
    """A rated blitz game between two accounts (White's challenge, Black accepts): its id."""
    posted = httpx.post(
        f"{server.url}/api/challenges",
        json={"clock": BLITZ, "rated": True, "color": "white"},
        headers={"Origin": server.url},
        cookies={SESSION_COOKIE: white},
    )
    assert posted.status_code == 201, posted.text
    accepted = httpx.post(
        f"{server.url}/api/challenges/{posted.json()['id']}/accept",
        headers={"Origin": server.url},
        cookies={SESSION_COOKIE: black},
    )
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["id"])


# Each element that shows text cut short (its text wider than its box), by the box's selector.
CUT_SHORT = """(selector) => [...document.querySelectorAll(selector)]
  .filter((element) => element.scrollWidth > element.clientWidth + 0.5)
  .map((element) => element.textContent.trim())"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_game_page_shows_whom_you_play(
    open_page: Any, server: ServerProcess, artifacts: Path, viewport: dict[str, int]
) -> None:
    """The desktop page cut both names to "Negras …": each player's whole name is shown."""
    phone = viewport is PHONE
    white, black = f"Bartholomew_{viewport['width']}", f"Maximiliana_{viewport['width']}"
    white_session = sign_up(server, white)
    game = challenge_accepted(server, white_session, sign_up(server, black))
    page = open_page(
        f"/game/{game}", locale="es-ES", phone=phone, prepare=as_account(server, white_session)
    )
    page.set_viewport_size(viewport)
    page.wait_for_selector(".player[data-color=black] .player-who")
    for color, name in (("white", white), ("black", black)):
        who = page.locator(f".player[data-color={color}] .player-who")
        assert who.inner_text() == name
        box = who.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert page.evaluate(CUT_SHORT, ".player-name, .player-who") == []
    page.screenshot(path=str(artifacts / f"everyday-names-{viewport['width']}.png"))


QUEEN_NOT_PLACED = "Base;InProgress;White[2];wS1;bS1 wS1-;wS1 bS1-"


def test_an_import_says_the_broken_rule_and_the_limit_in_the_pages_language(
    open_page: Any,
) -> None:
    """The import page named the broken rule in English on a Spanish page, and refused a large
    file as "too big" with no limit."""
    page = open_page("/import", locale="es-ES")
    page.fill("textarea[name=text]", QUEEN_NOT_PLACED)
    page.click("form.import-game button[type=submit]")
    page.wait_for_selector("[data-form-error]:not(:empty)")
    error = page.inner_text("[data-form-error]")
    assert "jugada 3 (wS1 bS1-)" in error and "hasta poner" in error, error
    assert "queen" not in error
    # Over the limit: said before anything is sent, with the limit.
    page.evaluate(
        "(text) => { const area = document.querySelector('textarea[name=text]');"
        " area.value = text; area.dispatchEvent(new Event('input', { bubbles: true })); }",
        "[Event x]\n" * 60_000,
    )
    page.click("form.import-game button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('[data-form-error]').textContent.includes('500')"
    )
    assert "caracteres" in page.inner_text("[data-form-error]")


@pytest.mark.parametrize(
    ("locale", "skip", "title"),
    [
        ("es-ES", "Saltar al contenido", "Página no encontrada"),
        ("pt-BR", "Pular para o conteúdo", "Página não encontrada"),
        ("en-GB", "Skip to content", "Page not found"),
    ],
)
def test_an_unknown_address_is_a_page_in_the_readers_language(
    open_page: Any, server: ServerProcess, locale: str, skip: str, title: str
) -> None:
    """An unknown address answered raw JSON; "Skip to content" and the page's description
    were English in every language."""
    answer = httpx.get(f"{server.url}/no/such/page")
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    api = httpx.get(f"{server.url}/api/no-such-thing")
    assert api.status_code == 404 and api.json()["error"] == "not_found"  # the API keeps JSON
    page = open_page("/no/such/page", locale=locale)
    page.wait_for_selector("[data-not-found]")
    assert page.inner_text("[data-not-found] h1") == title
    assert page.text_content(".skip-link") == skip
    description = page.get_attribute("meta[name=description]", "content")
    assert (
        description
        and ("Hive" in description)
        and (locale == "en-GB") == ("browser" in description)
    )


# Each piece on the board whose centre another element covers, by its cell's piece.
COVERED_PIECES = """() => [...document.querySelectorAll('.board .stack')].filter((stack) => {
  const box = stack.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return !hit || !hit.closest('.board');
}).length"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_result_card_leaves_the_final_position_in_sight(
    open_page: Any, artifacts: Path, viewport: dict[str, int]
) -> None:
    """The result card hid the final position and Escape did not close it; reviewing, the
    header kept the final result and nothing said "move X of Y"."""
    from tests.browser.test_browser_noticed import BEFORE_SURROUND, import_game

    page = open_page("/new", phone=viewport is PHONE)
    page.set_viewport_size(viewport)
    if viewport is PHONE:
        page.goto(page.url.replace("/new", "/import"))
        page.wait_for_selector("textarea[name=text]")
        page.fill("textarea[name=text]", BEFORE_SURROUND)
        page.check("input[name=mode][value=hotseat]")
        page.click("form.import-game button[type=submit]")
    else:
        import_game(page, BEFORE_SURROUND, "hotseat")
    page.wait_for_selector(".move-list [data-ply='10']")
    page.fill("form.type-move input", "wA1 wQ-")
    page.keyboard.press("Enter")
    page.wait_for_selector(".result-overlay:not([hidden]) [data-result=BlackWins]")
    assert page.locator(".board .stack").count() == 8
    page.evaluate("() => window.scrollTo(0, 0)")  # the board, as the game page opens
    page.screenshot(path=str(artifacts / f"everyday-result-{viewport['width']}.png"))
    assert page.evaluate(COVERED_PIECES) == 0, "the result card hides the final position"
    page.locator("body").press("Escape")
    assert page.is_hidden(".result-overlay")
    page.locator("body").press("ArrowLeft")
    page.wait_for_selector("[data-banner=viewing]")
    assert "10 of 11" in page.inner_text(".status")
    assert "10 of 11" in page.inner_text("[data-banner=viewing]")


def test_the_phones_panels_below_the_board_take_its_width(open_page: Any) -> None:
    """On a phone the panels below the board (moves, actions) used 58% of the width."""
    page = open_page("/new", phone=True)
    page.check("input[name=mode][value=hotseat]")
    page.click("button[data-action=start]")
    page.wait_for_selector(".side-panel > *")
    widths = page.evaluate(
        "() => [...document.querySelectorAll('.side-panel > :not([hidden])')]"
        ".map((panel) => panel.getBoundingClientRect().width)"
    )
    panel_width = page.evaluate(
        "() => document.querySelector('.side-panel').getBoundingClientRect().width"
    )
    assert widths and panel_width > 0.9 * PHONE["width"]
    assert all(width >= panel_width - 1 for width in widths), widths


def test_a_spectator_follows_the_rematch(open_page: Any, server: ServerProcess) -> None:
    """The players went on to their rematch; the spectator stayed on the finished game."""
    white_session, black_session = sign_up(server, "rematch_w"), sign_up(server, "rematch_b")
    game = challenge_accepted(server, white_session, black_session)
    white = open_page(f"/game/{game}", prepare=as_account(server, white_session))
    black = open_page(f"/game/{game}", prepare=as_account(server, black_session))
    spectator = open_page(f"/game/{game}?watch=1", locale="pt-BR")
    spectator.wait_for_selector(".moves-panel")
    white.click("[data-action=resign]")
    white.click("[data-action=resign-yes]")
    white.keyboard.press("Escape")
    white.click("[data-action=rematch]")
    black.click("[data-banner=rematch] [data-action=accept-rematch]")
    black.wait_for_url(lambda url: game not in url)
    rematch = black.url.rsplit("/", 1)[-1]
    spectator.wait_for_url(f"**/game/{rematch}?watch=1")
    spectator.wait_for_selector(".moves-panel")
    assert spectator.locator(".hand button:not([disabled])").count() == 0  # still watching
    spectator.wait_for_function(
        "() => document.querySelector('.status').textContent.includes('Você está assistindo')"
    )


# Own-zone cells (lit for the set-up) whose centre a control covers, by cell label.
COVERED_CELLS = """() => [...document.querySelectorAll('.enj-board .cell.lit-place')]
.filter((cell) => {
  const box = cell.getBoundingClientRect();
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  const area = document.querySelector('.enj-board-area').getBoundingClientRect();
  if (x < area.left || x > area.right || y < area.top || y > area.bottom) return false;
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;  // below the fold
  const hit = document.elementFromPoint(x, y);
  return !hit || hit.closest('.cell') !== cell;
}).map((cell) => cell.getAttribute('aria-label'))"""

# Score tables (the card over the board, the results beside it) whose columns do not all show:
# cut, behind a scroll, or past the screen's edge.
CUT_TABLES = """(width) => [...document.querySelectorAll('.enj-table-wrap')]
  .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 0.5
    || wrap.getBoundingClientRect().right > width + 0.5)
  .map((wrap) => `${wrap.parentElement.className}: ${wrap.scrollWidth} > ${wrap.clientWidth}`)"""


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_enjambre_table_covers_no_cell_offers_the_scout_only_and_shows_every_column(
    open_page: Any, artifacts: Path, viewport: dict[str, int]
) -> None:
    """Enjambre: the zoom "−" covered a cell of the player's own zone on a phone; "Explore with
    this tile" was offered for any tile, not only the scout (the 1); the scoreboard lost its
    last columns on desktop and phone."""
    from tests.browser.test_browser_enjambre import (
        GAME_SECONDS,
        arrange,
        new_table,
        scoreboard,
        take_turn,
    )

    phone = viewport is PHONE
    page = open_page("/enjambre", locale="es-ES", phone=phone)
    page.set_viewport_size(viewport)
    new_table(page, 2, {1: "heuristic"}, rounds=1)
    page.wait_for_selector(".enj-tray")
    assert page.evaluate(COVERED_CELLS) == []
    arrange(page)
    page.wait_for_selector("[data-action=end]:not([disabled])", timeout=60_000)
    mine = page.locator(".enj-board .tile.mine")
    numbers = [mine.nth(i).locator("text.tile-number").text_content() for i in range(mine.count())]
    other = numbers.index(next(n for n in numbers if n not in ("1", "")))
    mine.nth(other).click()
    page.wait_for_selector("[data-action=deselect]")
    assert page.locator("[data-action=scout]").count() == 0  # not the scout
    page.click("[data-action=deselect]")
    mine.nth(numbers.index("1")).click()
    page.wait_for_selector("[data-action=scout]")
    page.click("[data-action=deselect]")
    deadline = time.monotonic() + GAME_SECONDS
    while not scoreboard(page):
        assert time.monotonic() < deadline, "the game did not end"
        if not take_turn(page):
            page.wait_for_timeout(100)
    page.wait_for_selector(".enj-score-card .enj-scores")
    page.screenshot(path=str(artifacts / f"everyday-enjambre-score-{viewport['width']}.png"))
    assert page.evaluate(CUT_TABLES, viewport["width"]) == []
    page.click("[data-action=close-score]")  # the results stay beside the board
    page.wait_for_selector(".enj-results .enj-scores")
    page.screenshot(path=str(artifacts / f"everyday-enjambre-results-{viewport['width']}.png"))
    assert page.evaluate(CUT_TABLES, viewport["width"]) == []
