"""The tutorial's lessons: every asked move is legal, every forbidden move is refused for exactly
the rule the lesson gives, the counts match the rulebooks' examples, and every text exists in the
four languages."""

from __future__ import annotations

import pytest

from panal.hive import GameState, IllegalMoveError, Piece
from panal.hive.codes import PASS_CODE
from panal.puzzles.lessons import LANGUAGES, Lesson, lesson_texts, load_lessons
from tests.shared_data import shared

LESSONS = load_lessons()
# What the rulebooks' examples say each piece can do from their pictured position (000).
RULEBOOK_COUNTS = {"queen": 4, "beetle": 4, "grasshopper": 3, "spider": 4, "ant": 11}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_asked_moves_are_legal(lesson: Lesson) -> None:
    game = lesson.game()
    assert lesson.asks
    for move in lesson.asks:
        assert game.is_legal(move) or (move == "pass" and game.legal_move_codes() == [PASS_CODE])
        assert lesson.answer(move) == (True, True, None)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_forbidden_moves_break_exactly_their_rule(lesson: Lesson) -> None:
    for forbidden in lesson.forbids:
        game = lesson.game()
        before = game.board_text()
        with pytest.raises(IllegalMoveError) as caught:
            game.push(forbidden.move)
        assert caught.value.rule.key == forbidden.rule
        assert game.board_text() == before
        assert lesson.answer(forbidden.move) == (False, False, forbidden.rule)


def test_every_lesson_teaches_something_refused_or_an_ending() -> None:
    for lesson in LESSONS:
        assert lesson.forbids or lesson.outcome, lesson.id


@pytest.mark.parametrize("lesson", [x for x in LESSONS if x.outcome], ids=lambda x: x.id)
def test_the_endings(lesson: Lesson) -> None:
    for move in lesson.asks:
        assert lesson.outcome_after(move) is GameState(lesson.outcome)


@pytest.mark.parametrize(("lesson_id", "count"), sorted(RULEBOOK_COUNTS.items()))
def test_positions_match_the_rulebook_counts(lesson_id: str, count: int) -> None:
    (lesson,) = [x for x in LESSONS if x.id == lesson_id]
    game = lesson.game()
    piece = lesson.asks[0].split()[0]
    moves = [c for c in game.legal_move_codes() if c != PASS_CODE and c & 31 == Piece[piece]]
    assert len(moves) == count
    assert len(lesson.asks) == count


def test_the_lessons_cover_the_rules() -> None:
    ids = [lesson.id for lesson in LESSONS]
    assert len(set(ids)) == len(ids)
    wanted = {"placing", "queen_by_fourth", "queen", "beetle", "grasshopper", "spider", "ant"}
    wanted |= {"one_hive", "freedom", "pass", "end", "draw", "mosquito", "ladybug", "pillbug"}
    wanted |= {"dragonfly", "football_shield", "football_boot"}
    assert wanted <= set(ids)
    assert {lesson.look for lesson in LESSONS} == {"classic", "football"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_in_every_language(language: str) -> None:
    texts = lesson_texts(language)
    keys = {key for lesson in LESSONS for key in (lesson.title_key, lesson.prompt_key)}
    assert set(texts) == keys
    assert all(text.strip() for text in texts.values())


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        lesson_texts("fr")


def test_a_bad_move_is_answered_not_raised() -> None:
    lesson = LESSONS[0]
    assert lesson.answer("wQ nowhere") == (False, False, "invalid")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_each_lesson_cites_its_rulebook_section(lesson: Lesson) -> None:
    if lesson.rulebook == "docs/rules.md":
        return  # checked by the docs test below
    (path,) = shared("seeds").glob(f"{lesson.rulebook}_*.txt")
    text = path.read_text(encoding="utf-8")
    assert lesson.section in text


def test_the_pillbug_lesson_cites_the_rules_document() -> None:
    from pathlib import Path

    rules = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    assert "Pillbug" in rules.read_text(encoding="utf-8")
