"""Game options: the rulebook's advanced rules and the decisions players may disagree on.

Every field defaults to the basic rules. ``docs/enjambre.md`` explains each one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = ["ELIMINATION_POINTS", "OPTION_HELP", "Options"]

# Advanced rule: victory points for the players who eliminated most tiles, by player count.
# The rulebook gives 3/1 for 3-4 players and 4/2/1 for 5-6; two players are not covered, and
# rewarding the "second" of two (the last) would contradict the rule, so only the first scores.
ELIMINATION_POINTS: dict[int, tuple[int, ...]] = {
    2: (3,),
    3: (3, 1),
    4: (3, 1),
    5: (4, 2, 1),
    6: (4, 2, 1),
}

OPTION_HELP: dict[str, str] = {
    "rounds": "number of rounds (advanced rule: fewer for quick games, more for slow ones)",
    "elimination_points": "advanced rule: victory points to the top eliminators "
    "(3/1 with 3-4 players, 4/2/1 with 5-6) instead of the elimination tiebreak",
    "scout_extra_step": "advanced rule: using the scout adds one step to what it has left",
    "colmena_combat": "advanced rule: tiles can be eliminated in the colmena in the last "
    "two rounds",
    "must_move_one": "advanced rule: every player must move at least one tile per turn",
    "must_move_all": "advanced rule: every player must move every tile they have on the board",
    "linked_dark_cells": "advanced rule: the dark cells between zones are joined, so one dark "
    "cell to any other is a single step",
    "eliminated_visible": "easier version: everyone may look at the eliminated tiles' numbers",
    "memory_play": "players no longer see even their own numbers after setup",
    "queen_exit_anywhere": "a tile leaving its own colmena cell may land on any cell next to "
    "the colmena",
}


@dataclass(frozen=True)
class Options:
    """Rule switches (see :data:`OPTION_HELP`). ``Options()`` is the basic game."""

    rounds: int = 10
    elimination_points: bool = False
    scout_extra_step: bool = False
    colmena_combat: bool = False
    must_move_one: bool = False
    must_move_all: bool = False
    linked_dark_cells: bool = False
    eliminated_visible: bool = False
    memory_play: bool = False
    queen_exit_anywhere: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.rounds, int) or isinstance(self.rounds, bool) or self.rounds < 1:
            raise ValueError(f"rounds must be a positive integer, not {self.rounds!r}")
        for field in fields(self):
            if field.name != "rounds" and not isinstance(getattr(self, field.name), bool):
                raise ValueError(f"option {field.name} must be true or false")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        known = {field.name for field in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        return cls(**data)
