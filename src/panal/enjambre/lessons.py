"""The Enjambre Tácticas tutorial's lessons as data: set-up, movement, combat, the scout, scoring.

Each lesson (``data/lessons.json``) is a two-player game (seed 1, orange first; red sits
opposite) set up from the rulebook's words (rulebook 003, the section each follows): both
players' tiles placed (``setups``: the cell of tile 1, 2, … 10 of each), then the actions
``before`` it, then empty turns up to ``to_round`` when given. The learner plays the side to move
(orange in every lesson). A lesson asks for one of its ``asks`` and shows, in ``forbids``, actions
the engine refuses, each with the code of the rule that refuses it
(:class:`~panal.enjambre.actions.IllegalActionError`'s ``code``).

Actions are written as players read the board, by cell labels:

* ``place N CELL``: the set-up, with tile N on CELL and the other tiles on the zone's other cells
  in order (only the cell of tile N is the learner's choice);
* ``H9-H8-E6``: the tile on H9 moves step by step through H8 to E6 (a step from a cell beside the
  colmena into it comes out on any other cell beside it: H8 to E6 is one step);
* ``scout I8``: the tile on I8 is flipped to show it is the 1; ``end``: the turn ends.

A move answers a lesson when it starts and ends where an asked move does (the way between is
the learner's). Titles and prompts are keys into the catalogs ``data/lessons/<language>.json``:
``lesson.<id>.title`` and ``lesson.<id>.prompt``.

>>> from panal.enjambre.lessons import load_table_lessons
>>> combat = next(x for x in load_table_lessons() if x.id == "enjambre_combat")
>>> combat.answer("H8-F5")
TableAnswer(asked=True, legal=True, rule=None)
>>> combat.answer("H8-H7")
TableAnswer(asked=False, legal=False, rule='foreign_colmena')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from .actions import Action, EndTurn, IllegalActionError, Place, Scout, Step
from .engine import Game

__all__ = [
    "LANGUAGES",
    "ActionTextError",
    "TableAnswer",
    "TableForbidden",
    "TableLesson",
    "load_table_lessons",
    "parse_action",
    "play",
    "table_lesson_texts",
]

LANGUAGES = ("en", "es", "pt-PT", "pt-BR")


class ActionTextError(ValueError):
    """An action text that does not parse, or names a cell with no tile."""


class TableForbidden(NamedTuple):
    action: str
    rule: str


class TableAnswer(NamedTuple):
    """Is the action one the lesson asks for, is it legal, and if not the rule's code."""

    asked: bool
    legal: bool
    rule: str | None


@dataclass(frozen=True)
class TableLesson:
    id: str
    section: str
    setups: tuple[tuple[str, ...], ...]
    placed: bool
    before: tuple[str, ...]
    to_round: int | None
    asks: tuple[str, ...]
    forbids: tuple[TableForbidden, ...]
    players: int = 2
    seed: int = 1
    first_player: int = 0

    @property
    def title_key(self) -> str:
        return f"lesson.{self.id}.title"

    @property
    def prompt_key(self) -> str:
        return f"lesson.{self.id}.prompt"

    def game(self) -> Game:
        """A new game at the lesson's position."""
        game = Game(self.players, seed=self.seed, first_player=self.first_player)
        board = game.board
        if self.placed:
            for player, labels in enumerate(self.setups):
                game.apply(player, Place(tuple(board.cells_by_label[x] for x in labels)))
        for text in self.before:
            play(game, text)
        while self.to_round is not None and (
            game.state.round < self.to_round or game.state.turn_player != self.first_player
        ):
            play(game, "end")
        return game

    @property
    def learner(self) -> int:
        return self.first_player

    def answer(self, text: str) -> TableAnswer:
        """Judge the learner's action text; the lesson is not changed."""
        game = self.game()
        try:
            play(game, text, self.learner)
        except IllegalActionError as exc:
            return TableAnswer(False, False, exc.code)
        return TableAnswer(any(_same(text, ask) for ask in self.asks), True, None)

    @classmethod
    def from_json(cls, data: dict[str, Any], shared: dict[str, Any]) -> TableLesson:
        return cls(
            id=data["id"],
            section=data["section"],
            setups=tuple(tuple(cells) for cells in shared["setups"]),
            placed=bool(data["placed"]),
            before=tuple(data["before"]),
            to_round=data.get("to_round"),
            asks=tuple(data["asks"]),
            forbids=tuple(TableForbidden(f["action"], f["rule"]) for f in data["forbids"]),
            players=int(shared["players"]),
            seed=int(shared["seed"]),
            first_player=int(shared["first_player"]),
        )


def _same(text: str, ask: str) -> bool:
    """Whether ``text`` answers ``ask``: the same text, or a move from the same cell to the
    same cell."""
    if text == ask:
        return True
    moved, asked = text.split("-"), ask.split("-")
    return len(moved) > 1 and len(asked) > 1 and (moved[0], moved[-1]) == (asked[0], asked[-1])


def parse_action(game: Game, text: str, player: int | None = None) -> list[Action]:
    """The engine's actions an action text stands for (see the module's documentation), for
    ``player`` (the side to move when None)."""
    board = game.board
    state = game.state
    me = state.turn_player if player is None else player

    def cell(label: str) -> Any:
        found = board.cells_by_label.get(label)
        if found is None:
            raise ActionTextError(f"no cell {label!r}")
        return found

    def tile_on(label: str) -> int:
        tile = state.occupant.get(cell(label))
        if tile is None:
            raise ActionTextError(f"no tile on {label}")
        return tile

    words = text.split()
    if words == ["end"]:
        return [EndTurn()]
    if len(words) == 2 and words[0] == "scout":
        return [Scout(tile_on(words[1]))]
    if len(words) == 3 and words[0] == "place" and words[1].isdigit():
        number, chosen = int(words[1]), cell(words[2])
        count = board.tiles_per_player
        if not 1 <= number <= count:
            raise ActionTextError(f"tiles are numbered 1 to {count}")
        others = iter(c for c in state.zone(me) if c != chosen)
        return [Place(tuple(chosen if n == number else next(others) for n in range(1, count + 1)))]
    cells = text.split("-")
    if len(words) == 1 and len(cells) >= 2:
        tile = tile_on(cells[0])
        return [Step(tile, cell(label)) for label in cells[1:]]
    raise ActionTextError(f"not an action: {text!r}")


def play(game: Game, text: str, player: int | None = None) -> None:
    """Apply an action text (all of its steps, or none if one is refused)."""
    me = game.state.turn_player if player is None else player
    trial = game.copy()
    actions = parse_action(trial, text, me)
    for action in actions:
        trial.apply(me, action)
    for action in actions:
        game.apply(me, action)


def _data() -> Any:
    return resources.files("panal.enjambre") / "data"


@cache
def _lessons() -> tuple[TableLesson, ...]:
    raw = json.loads((_data() / "lessons.json").read_text(encoding="utf-8"))
    return tuple(TableLesson.from_json(item, raw) for item in raw["lessons"])


def load_table_lessons() -> list[TableLesson]:
    """Every Enjambre lesson, in teaching order."""
    return list(_lessons())


@cache
def _texts(language: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads(
        (_data() / "lessons" / f"{language}.json").read_text(encoding="utf-8")
    )
    return texts


def table_lesson_texts(language: str) -> dict[str, str]:
    """The catalog of the lessons' titles and prompts in ``language``."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    return dict(_texts(language))
