"""The tutorial's lessons for the browser: a lesson's position and words, a learner's move judged.

The lessons are :mod:`panal.puzzles.lessons`' (the rulebooks' example positions); the words are
its catalogs, in the reader's language. A move that breaks a rule is refused naming the rule
(409 ``illegal_move``, put into words by the browser as a game's refusal is); a legal move the
lesson does not ask for is answered ``asked: false`` (try again); an asked move completes it and
shows the position after it (for the lessons on the end of a game, with its result).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from panal.puzzles.lessons import LANGUAGES, Lesson, lesson_texts, load_lessons
from panal.server.http.request_error import RequestError
from panal.server.training.positions import board_json, push_shown, read_move

__all__ = ["lesson_by_id", "lesson_json", "lessons_json", "try_lesson_move"]


@cache
def _lessons() -> dict[str, Lesson]:
    return {lesson.id: lesson for lesson in load_lessons()}


def lesson_by_id(lesson_id: str) -> Lesson:
    lesson = _lessons().get(lesson_id)
    if lesson is None:
        raise RequestError("not_found", f"no lesson {lesson_id[:40]!r}", 404)
    return lesson


def _texts(language: str) -> dict[str, str]:
    return lesson_texts(language if language in LANGUAGES else "en")


def lessons_json(language: str) -> list[dict[str, Any]]:
    """Every lesson in teaching order: id, title, rulebook and section."""
    texts = _texts(language)
    return [
        {
            "id": lesson.id,
            "title": texts.get(lesson.title_key, lesson.id),
            "rulebook": lesson.rulebook,
            "section": lesson.section,
        }
        for lesson in _lessons().values()
    ]


def lesson_json(lesson: Lesson, language: str) -> dict[str, Any]:
    texts = _texts(language)
    order = list(_lessons())
    index = order.index(lesson.id)
    return {
        "id": lesson.id,
        "title": texts.get(lesson.title_key, lesson.id),
        "prompt": texts.get(lesson.prompt_key, ""),
        "rulebook": lesson.rulebook,
        "section": lesson.section,
        "look": lesson.look,
        "next": order[index + 1] if index + 1 < len(order) else None,
        "board": board_json(lesson.game()),
    }


def try_lesson_move(lesson: Lesson, message: dict[str, Any]) -> dict[str, Any]:
    """The learner's move: refused with its rule when illegal, else ``asked`` (the lesson is
    done, the position after it shown) or not."""
    game = lesson.game()
    text = read_move(game, message)
    answer = lesson.answer(text)
    if not answer.legal:  # read_move found it legal; the lesson's own judge must agree
        raise RequestError("illegal_move", text, 409, rule=answer.rule or "illegal")
    result: dict[str, Any] = {"move": text, "asked": answer.asked}
    if answer.asked:
        result["board"] = push_shown(game, text)
    return result
