"""The analysis board and game review in Chromium (issue 20), on a desktop and on a 390×844
phone: a position set up in the editor (a broken invariant said in words first) shows its
evaluation and the winning line; a finished game is reviewed from its page, with marks on the
move list and an evaluation graph whose blunder can be clicked. Screenshots are kept in
test-artifacts/browser/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser
pytest.importorskip("panal.ai.analysis")

#: White surrounds the black queen with wA1, which slides round to (1, -1).
SET_UP = [
    ("bQ", "0,0"),
    ("wQ", "1,0"),
    ("wS1", "0,1"),
    ("wS2", "-1,1"),
    ("bS1", "-1,0"),
    ("bA1", "0,-1"),
    ("wA1", "2,0"),
]
#: White moved its own queen's last neighbour in: it lost at ply 11 (a blunder if any is).
FINISHED = (
    "Base;BlackWins;Black[6];wQ;bG1 -wQ;wS1 wQ/;bQ \\bG1;wS2 wQ-;bQ -wS1;wG1 wQ\\;bA1 /bG1;"
    "wS2 \\wS1;bA1 bG1\\;wA1 wQ-"
)


def size(phone: bool) -> str:
    return "phone" if phone else "desktop"


@pytest.mark.parametrize("phone", [False, True], ids=size)
def test_set_up_a_position_and_see_the_winning_line(
    open_page: Any, artifacts: Path, phone: bool
) -> None:
    # On the phone in the football look (its names in the editor's message too).
    look = "football" if phone else "classic"

    def choose_look(page: Any) -> None:
        page.add_init_script(f"localStorage.setItem('panal.look', '{look}')")

    page = open_page("/analysis", phone=phone, prepare=choose_look)
    assert page.evaluate("document.body.dataset.look") == look
    page.wait_for_selector("[data-final], [data-engine-thinking]")
    page.click("[data-tools] summary")
    page.click("[data-action=edit]")
    page.click("[data-action=edit-clear]")
    # A broken invariant first: an ant cannot stand on the queen.
    page.click("[data-edit-piece=bQ]")
    page.click("[data-cell='0,0']")
    page.click("[data-edit-piece=wA1]")
    page.click("[data-cell='0,0']")
    page.click("[data-action=edit-done]")
    error = page.wait_for_selector("[data-edit-error]")
    expected = (
        "Boot 1 (White) is on top of another piece, but only the Wall, the"
        if phone
        else "Soldier Ant 1 (White) is on top of another piece, but only the Beetle, the Mosquito"
    )
    assert expected in error.inner_text()
    page.screenshot(path=str(artifacts / f"analysis-editor-error-{size(phone)}.png"))
    page.click("[data-cell='0,0']")  # nothing chosen: the ant comes off again
    for piece, cell in SET_UP[1:]:
        page.click(f"[data-edit-piece={piece}]")
        page.click(f"[data-cell='{cell}']")
    page.select_option("[data-edit-turn]", "0")
    # The Dragonfly in play, with one of its rule options changed: still a win in one.
    page.check("[data-edit-expansion=D]")
    page.select_option("[data-edit-rules] [data-field=dragonfly_sidestep]", "either")
    page.click("[data-action=edit-done]")
    page.wait_for_selector("[data-final='1']")
    best = page.inner_text("[data-line='0']")
    assert "Surrounds in 1 move" in best
    assert "wA1" in page.inner_text("[data-line='0'] .line-moves")
    assert float(page.get_attribute("[data-eval]", "data-white") or 0) >= 0.99
    assert page.query_selector(".board .best-move .best-ring")  # the best move drawn
    assert page.query_selector("[data-hand='0'] [data-hand-piece=wD]")  # the Dragonfly in hand
    page.screenshot(path=str(artifacts / f"analysis-winning-line-{size(phone)}.png"))
    # Playing it ends the game: the engine has nothing more to say.
    winning = page.inner_text("[data-line='0'] .line-moves").split(" · ")[0]
    other = page.inner_text("[data-line='1'] .line-moves").split(" · ")[0]
    page.click("[data-play-line='0']")
    page.wait_for_selector(".tree-move[data-ply='1'][aria-current='true']")
    page.wait_for_selector(".board [data-surrounded]")
    # A variation: back to the start, the second line's move; promoted, then deleted.
    page.click("[data-action=back]")
    page.wait_for_selector("[data-final='1']")
    page.click("[data-play-line='1']")
    page.wait_for_selector(".variation .tree-move[aria-current='true']")
    first = ".move-tree > .tree-move[data-ply='1']"
    assert page.inner_text(first) == winning
    page.click("[data-action=promote]")
    page.wait_for_function(
        f"(move) => document.querySelector(`{first}`).textContent === move", arg=other
    )
    assert page.inner_text(".variation .tree-move") == winning
    page.click("[data-action=delete]")
    page.wait_for_function("() => !document.querySelector('.variation')")
    assert page.inner_text(first) == winning


@pytest.mark.parametrize("phone", [False, True], ids=size)
def test_review_a_finished_game_and_jump_to_its_blunder(
    open_page: Any, server: ServerProcess, artifacts: Path, phone: bool
) -> None:
    game_id = httpx.post(f"{server.url}/api/import", json={"text": FINISHED}).json()["id"]
    page = open_page(f"/game/{game_id}", phone=phone)
    page.click("[data-engine-review]")
    page.wait_for_url(f"**/analysis/{game_id}")
    page.click("[data-action=review]")  # each test imports a game of its own: not reviewed yet
    page.wait_for_selector("[data-review-done]", timeout=90_000)
    graph = page.wait_for_selector(".eval-graph")
    assert graph.get_attribute("data-plies") == "11"
    assert page.query_selector_all(".tree-move .mark")  # marks on the move list
    assert "accuracy" in page.inner_text("[data-accuracy='0']")
    page.screenshot(path=str(artifacts / f"analysis-review-{size(phone)}.png"), full_page=True)
    ply = page.wait_for_selector(".graph-mark.blunder").get_attribute("data-graph-ply")
    page.click(f".graph-mark.blunder[data-graph-ply='{ply}']")
    page.wait_for_selector(f".tree-move[data-ply='{ply}'][aria-current='true']")
    assert "??" in page.inner_text(f".tree-move[data-ply='{ply}']")
    assert page.inner_text("[data-better]").startswith("Better was ")
    page.screenshot(path=str(artifacts / f"analysis-blunder-{size(phone)}.png"), full_page=True)
