"""The trainer in the browser: a guest solves a puzzle, a signed-in player's puzzle rating
changes, a wrong move is refused with an explanation, and a tutorial lesson is completed on a
390×844 phone. Screenshots go to test-artifacts/browser/training-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from panal.enjambre.lessons import load_table_lessons
from panal.puzzles import load_puzzles, select
from panal.puzzles.lessons import load_lessons
from tests.browser.helpers import click_move
from tests.browser.test_browser_enjambre import new_table
from tests.browser.test_browser_phone import OVERFLOW, SMALL_TAP_TARGETS, WIDTH
from tests.browser.test_browser_players import sign_up
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser

ONES = select(load_puzzles(), kind="surround", moves=1)


def _play(page: Any, base: str, path: str, move: str) -> None:
    """Click ``move`` on the trainer's board (an entry of the position's legal moves)."""
    board = httpx.get(f"{base}{path}").json()["board"]
    entry = next(m for m in board["legal"] if m["move"] == move)
    click_move(page, entry, board["hands"])


def _open_puzzle(page: Any, puzzle_id: str) -> None:
    page.goto(f"{page.url.split('/', 3)[0]}//{page.url.split('/', 3)[2]}/puzzles/{puzzle_id}")
    page.wait_for_selector(".trainer-page .board .cell")
    page.wait_for_selector("[data-task] strong")


def test_a_guest_solves_a_puzzle(open_page: Any, server: ServerProcess, artifacts: Path) -> None:
    puzzle = ONES[0]
    page = open_page(f"/puzzles/{puzzle.id}")
    page.wait_for_selector("[data-task] strong")
    assert "in 1 move" in page.inner_text("[data-task]")
    assert "1500" in page.inner_text("[data-rating]")  # a guest starts as a newcomer
    _play(page, server.url, f"/api/puzzles/{puzzle.id}", puzzle.solution[0])
    page.wait_for_selector("[data-feedback][data-kind=success]")
    assert "Solved!" in page.inner_text("[data-feedback]")
    assert "Rating +" in page.inner_text("[data-feedback]")
    page.screenshot(path=str(artifacts / "training-guest-solved.png"))
    # The guest's rating is kept in this browser.
    rating = page.evaluate("JSON.parse(localStorage.getItem('panal.puzzleRating')).rating")
    assert rating > 1500
    assert page.locator("[data-action=next]").is_visible()


def test_a_wrong_move_is_refused_with_an_explanation(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    puzzle = ONES[1]
    page = open_page(f"/puzzles/{puzzle.id}")
    page.wait_for_selector("[data-task] strong")
    board = httpx.get(f"{server.url}/api/puzzles/{puzzle.id}").json()["board"]
    # An illegal move: a piece on the board to an empty cell that is not lit.
    mover = next(
        m
        for m in board["legal"]
        if m["piece"] and m["piece"] not in board["hands"][0] + board["hands"][1]
    )
    page.click(f".board .cell.selectable[data-piece={mover['piece']}]")
    lit = set(
        page.eval_on_selector_all(".board [data-dest]", "cells => cells.map(c => c.dataset.cell)")
    )
    unlit = page.eval_on_selector_all(
        ".board .cell.empty:not([data-dest])", "cells => cells.map(c => c.dataset.cell)"
    )
    target = next(cell for cell in unlit if cell not in lit)
    page.click(f'.board [data-cell="{target}"]')
    page.wait_for_selector("[data-feedback][data-kind=error]")
    assert "Illegal move" in page.inner_text("[data-feedback]")
    page.screenshot(path=str(artifacts / "training-illegal-move.png"))
    # A legal move that does not win: the explanation, and the board after it.
    wrong = next(m for m in board["legal"] if m["move"] != puzzle.solution[0] and m["piece"])
    click_move(page, wrong, board["hands"])
    page.wait_for_function(
        "() => /does not/.test(document.querySelector('[data-feedback]').textContent)"
    )
    text = page.inner_text("[data-feedback]")
    assert wrong["move"] in text
    page.screenshot(path=str(artifacts / "training-wrong-move.png"))
    assert page.locator("[data-action=retry]").is_visible()
    page.click("[data-action=retry]")
    _play(page, server.url, f"/api/puzzles/{puzzle.id}", puzzle.solution[0])
    page.wait_for_selector("[data-feedback][data-kind=success]")
    assert "Rating" not in page.inner_text("[data-feedback]")  # a retry is not rated


def test_a_signed_in_players_puzzle_rating_changes(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    puzzle = ONES[2]
    page = open_page("/lobby")
    sign_up(page, "puzzler")
    page.click("a[data-nav=puzzles]")
    page.wait_for_selector("[data-task] strong")
    assert "after your first puzzle" in page.inner_text("[data-rating]")
    _open_puzzle(page, puzzle.id)
    _play(page, server.url, f"/api/puzzles/{puzzle.id}", puzzle.solution[0])
    page.wait_for_selector("[data-feedback][data-kind=success]")
    assert "Rating +" in page.inner_text("[data-feedback]")
    page.wait_for_function("() => /\\d/.test(document.querySelector('[data-rating]').textContent)")
    page.screenshot(path=str(artifacts / "training-rated.png"))
    page.goto(f"{server.url}/@/puzzler")
    page.wait_for_selector(".profile-name")
    assert "Puzzles" in page.inner_text("main")


def test_a_tutorial_lesson_completed_on_a_phone(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    lesson = next(x for x in load_lessons() if x.id == "placing")
    page = open_page("/learn", phone=True)
    page.wait_for_selector(".lesson-list li")
    assert page.locator(".lesson-list li").count() == len(load_lessons()) + len(
        load_table_lessons()
    )
    assert page.evaluate(OVERFLOW, WIDTH) == []
    page.screenshot(path=str(artifacts / "training-lessons-phone.png"), full_page=True)
    # The trainer is one tap from the phone's header, beside the brand.
    page.tap("a[data-nav=puzzles]")
    page.wait_for_selector("[data-task] strong")
    assert page.evaluate(OVERFLOW, WIDTH) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "training-puzzle-phone.png"))
    page.tap(".trainer-modes a[href='/learn']")
    page.wait_for_selector(".lesson-list li")
    page.click(".lesson-list a[href='/learn/placing']")
    page.wait_for_selector(".lesson-page .board .cell")
    page.wait_for_function("() => document.querySelector('[data-prompt]').textContent.length > 20")
    # The Queen beside the black Spider: refused, with the rule.
    page.click(".hand button[data-piece=wQ]")
    board = httpx.get(f"{server.url}/api/lessons/placing").json()["board"]
    black = next(key for key, stack in board["stacks"].items() if stack[-1].startswith("b"))
    q, r = (int(v) for v in black.split(","))
    lit = set(
        page.eval_on_selector_all(".board [data-dest]", "cells => cells.map(c => c.dataset.cell)")
    )
    beside = next(
        f"{q + dq},{r + dr}"
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        if f"{q + dq},{r + dr}" not in board["stacks"] and f"{q + dq},{r + dr}" not in lit
    )
    page.click(f'.board [data-cell="{beside}"]')
    page.wait_for_selector("[data-feedback][data-kind=error]")
    assert "Illegal move" in page.inner_text("[data-feedback]")
    page.screenshot(path=str(artifacts / "training-lesson-refused-phone.png"))
    # The asked move completes it.
    entry = next(m for m in board["legal"] if m["move"] == lesson.asks[0])
    click_move(page, entry, board["hands"])
    page.wait_for_selector("[data-feedback][data-kind=success]")
    assert page.locator("[data-next]").is_visible()
    assert page.evaluate(OVERFLOW, WIDTH) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "training-lesson-done-phone.png"))
    assert page.evaluate("JSON.parse(localStorage.getItem('panal.lessonsDone'))") == ["placing"]
    page.click("[data-next]")
    page.wait_for_url("**/learn/queen_by_fourth")


def _cell_key(lesson: dict[str, Any], label: str) -> str:
    cell = next(c["cell"] for c in lesson["table"]["cells"] if c["label"] == label)
    return f"{cell[0]},{cell[1]}"


def test_an_enjambre_lesson_on_a_phone_and_the_goal_at_the_table(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    lesson = httpx.get(f"{server.url}/api/lessons/enjambre_combat").json()
    page = open_page("/learn", phone=True)
    page.wait_for_selector(".lesson-list li")
    page.click(".lesson-list a[href='/learn/enjambre_combat']")
    page.wait_for_selector(".enj-board .tile.selectable")
    h8, h7, f5 = (_cell_key(lesson, label) for label in ("H8", "H7", "F5"))
    page.click(f'.enj-board .tile[data-at="{h8}"]')
    page.wait_for_selector(".enj-board .cell.lit-attack")
    page.click(f'.enj-board [data-cell="{h7}"]')  # another colour's colmena cell
    page.wait_for_selector("[data-feedback][data-kind=error]")
    assert "colmena" in page.inner_text("[data-feedback]")
    page.screenshot(path=str(artifacts / "training-enjambre-refused-phone.png"))
    page.click(f'.enj-board .tile[data-at="{h8}"]')
    page.click(f'.enj-board .tile[data-at="{f5}"]')  # the attack
    page.wait_for_selector("[data-feedback][data-kind=success]")
    assert page.evaluate(OVERFLOW, WIDTH) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "training-enjambre-done-phone.png"))
    # The goal is stated at the table.
    page.goto(f"{server.url}/enjambre")
    page.wait_for_selector("form.new-table")
    new_table(page, 2, {1: "heuristic"})
    page.wait_for_selector("[data-goal]")
    assert "10 rounds" in page.inner_text("[data-goal]")
