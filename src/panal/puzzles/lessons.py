"""The tutorial's lessons as data: one per rule the rulebooks teach.

Each lesson (``data/lessons.json``) is a position (board text, as ``print(game)`` shows it), the
rulebook and section it follows (``000`` the Spanish base rules, ``002`` the Spanish rules with
the Mosquito, Ladybug and Dragonfly, ``004`` the football re-skin, ``docs/rules.md`` for the
official Pillbug, which no seeded rulebook has), the look to draw it in, the moves it asks for
(any one of them answers it), the moves it forbids with the :class:`~panal.hive.errors.Rule`
that forbids each (its ``key``), and for the lessons on the end of a game the outcome the asked
move brings. Titles and prompts are keys into the catalogs ``data/lessons/<language>.json``
(``en``, ``es``, ``pt-PT``, ``pt-BR``): ``lesson.<id>.title`` and ``lesson.<id>.prompt``.

Positions follow the rulebook's example as far as its words go: the counts they give (the queen
"can move to one of four gaps", the grasshopper to three, the spider to four, the ant to eleven
but not into the middle), the piece that may not move, the gap marked X.

>>> from panal.puzzles.lessons import load_lessons, lesson_texts
>>> lessons = load_lessons()
>>> lesson = next(l for l in lessons if l.id == "ant")
>>> lesson.rulebook, lesson.section, len(lesson.asks)
('000', 'Hormiga', 11)
>>> lesson.answer(lesson.forbids[0].move)
Answer(asked=False, legal=False, rule='ant')
>>> lesson.answer(lesson.asks[0])
Answer(asked=True, legal=True, rule=None)
>>> lesson_texts("es")["lesson.ant.title"]
'La hormiga'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from panal.hive import Game, GameState, IllegalMoveError, InvalidMoveError

__all__ = ["LANGUAGES", "Answer", "Forbidden", "Lesson", "lesson_texts", "load_lessons"]

LANGUAGES = ("en", "es", "pt-PT", "pt-BR")


class Forbidden(NamedTuple):
    """A move the lesson shows refused, and the key of the rule that refuses it."""

    move: str
    rule: str


class Answer(NamedTuple):
    """What a move means in a lesson: is it one ``asked`` for, is it ``legal``, and if not, the
    ``rule`` key that refuses it."""

    asked: bool
    legal: bool
    rule: str | None


@dataclass(frozen=True)
class Lesson:
    id: str
    rulebook: str
    section: str
    look: str
    position: str
    asks: tuple[str, ...]
    forbids: tuple[Forbidden, ...]
    outcome: str | None = None

    @property
    def title_key(self) -> str:
        return f"lesson.{self.id}.title"

    @property
    def prompt_key(self) -> str:
        return f"lesson.{self.id}.prompt"

    def game(self) -> Game:
        """A new game at the lesson's position."""
        return Game.from_board_text(self.position)

    def answer(self, move: str) -> Answer:
        """Judge a player's move (a MoveString or ``pass``); the lesson is not changed."""
        game = self.game()
        try:
            game.push(move)
        except IllegalMoveError as exc:
            return Answer(False, False, exc.rule.key)
        except InvalidMoveError:
            return Answer(False, False, "invalid")
        code = game.move_codes[-1]
        game.pop_code()
        asked = any(game.parse_move_code(text) == code for text in self.asks)
        return Answer(asked, True, None)

    def outcome_after(self, move: str) -> GameState:
        """The game's state after ``move`` (for the lessons on the end of a game)."""
        game = self.game()
        game.push(move)
        return game.state

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lesson:
        return cls(
            id=data["id"],
            rulebook=data["rulebook"],
            section=data["section"],
            look=data["look"],
            position="\n".join(data["position"]),
            asks=tuple(data["asks"]),
            forbids=tuple(Forbidden(f["move"], f["rule"]) for f in data["forbids"]),
            outcome=data.get("outcome"),
        )


def _data() -> Any:
    return resources.files("panal.puzzles") / "data"


@cache
def _lessons() -> tuple[Lesson, ...]:
    raw = json.loads((_data() / "lessons.json").read_text(encoding="utf-8"))
    return tuple(Lesson.from_json(item) for item in raw)


def load_lessons() -> list[Lesson]:
    """Every lesson, in teaching order."""
    return list(_lessons())


@cache
def _texts(language: str) -> dict[str, str]:
    path = _data() / "lessons" / f"{language}.json"
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return texts


def lesson_texts(language: str) -> dict[str, str]:
    """The catalog of lesson titles and prompts in ``language`` (one of :data:`LANGUAGES`)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    return dict(_texts(language))
