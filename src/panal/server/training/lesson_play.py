"""The tutorial's lessons for the browser: a lesson's position and words, a learner's move judged.

The Hive lessons are :mod:`panal.puzzles.lessons`' (the rulebooks' example positions), then
come Enjambre Tácticas's (:mod:`panal.enjambre.lessons`: set-up, movement, combat, the scout,
scoring); the words are their catalogs, in the reader's language.

A Hive move that breaks a rule is refused naming the rule (409 ``illegal_move``, put into words
by the browser as a game's refusal is); a legal move the lesson does not ask for is answered
``asked: false`` (try again); an asked move completes it and shows the position after it (for
the lessons on the end of a game, with its result). An Enjambre lesson is shown as a table is
(:func:`panal.enjambre.views.observation_data`, the learner's view) and answered with an action
text (``H9-H8-E6``, ``scout I8``, ``place 1 H10``); a refused one names the engine's rule (409
``illegal_action``), as a table's refusal does.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from panal.enjambre import IllegalActionError
from panal.enjambre.lessons import (
    ActionTextError,
    TableLesson,
    load_table_lessons,
    play,
    table_lesson_texts,
)
from panal.enjambre.views import board_data, observation_data
from panal.puzzles.lessons import LANGUAGES, Lesson, lesson_texts, load_lessons
from panal.server.http.request_error import RequestError
from panal.server.training.positions import board_json, push_shown, read_move

__all__ = ["lesson_by_id", "lesson_json", "lessons_json", "try_lesson_move"]


AnyLesson = Lesson | TableLesson


@cache
def _lessons() -> dict[str, AnyLesson]:
    hive: list[AnyLesson] = list(load_lessons())
    return {lesson.id: lesson for lesson in [*hive, *load_table_lessons()]}


def lesson_by_id(lesson_id: str) -> AnyLesson:
    lesson = _lessons().get(lesson_id)
    if lesson is None:
        raise RequestError("not_found", f"no lesson {lesson_id[:40]!r}", 404)
    return lesson


def _texts(language: str) -> dict[str, str]:
    language = language if language in LANGUAGES else "en"
    return {**lesson_texts(language), **table_lesson_texts(language)}


def _game_of(lesson: AnyLesson) -> str:
    return "enjambre" if isinstance(lesson, TableLesson) else "hive"


def lessons_json(language: str) -> list[dict[str, Any]]:
    """Every lesson in teaching order: id, title, rulebook and section."""
    texts = _texts(language)
    return [
        {
            "id": lesson.id,
            "game": _game_of(lesson),
            "title": texts.get(lesson.title_key, lesson.id),
            "section": lesson.section,
        }
        for lesson in _lessons().values()
    ]


def lesson_json(lesson: AnyLesson, language: str) -> dict[str, Any]:
    texts = _texts(language)
    order = list(_lessons())
    index = order.index(lesson.id)
    shown: dict[str, Any] = {
        "id": lesson.id,
        "game": _game_of(lesson),
        "title": texts.get(lesson.title_key, lesson.id),
        "prompt": texts.get(lesson.prompt_key, ""),
        "section": lesson.section,
        "next": order[index + 1] if index + 1 < len(order) else None,
    }
    if isinstance(lesson, TableLesson):
        game = lesson.game()
        shown["table"] = board_data(game.board)
        shown["view"] = observation_data(game.observe(lesson.learner))
    else:
        shown["look"] = lesson.look
        shown["board"] = board_json(lesson.game())
    return shown


def try_lesson_move(lesson: AnyLesson, message: dict[str, Any]) -> dict[str, Any]:
    """The learner's move: refused with its rule when illegal, else ``asked`` (the lesson is
    done, the position after it shown) or not."""
    if isinstance(lesson, TableLesson):
        return _try_table_action(lesson, message.get("action"))
    game = lesson.game()
    text = read_move(game, message)
    answer = lesson.answer(text)
    if not answer.legal:  # read_move found it legal; the lesson's own judge must agree
        raise RequestError("illegal_move", text, 409, rule=answer.rule or "illegal")
    result: dict[str, Any] = {"move": text, "asked": answer.asked}
    if answer.asked:
        result["board"] = push_shown(game, text)
    return result


def _try_table_action(lesson: TableLesson, text: Any) -> dict[str, Any]:
    if not isinstance(text, str) or not 0 < len(text) <= 40:
        raise RequestError(
            "bad_request", "an Enjambre lesson needs 'action' (at most 40 characters)"
        )
    game = lesson.game()
    try:
        play(game, text, lesson.learner)
    except ActionTextError as exc:
        raise RequestError("bad_request", str(exc)) from None
    except IllegalActionError as exc:
        raise RequestError(
            "illegal_action", str(exc), 409, rule=exc.code, details=dict(exc.details)
        ) from None
    asked = lesson.answer(text).asked
    result: dict[str, Any] = {"action": text, "asked": asked}
    if asked:
        result["view"] = observation_data(game.observe(lesson.learner), legal=False)
        if lesson.to_round is not None:  # the last round: the game ends, and is scored
            while not game.over:
                play(game, "end")
            assert game.result is not None
            result["score"] = game.result.scores[lesson.learner]
    return result
