"""Game options: the rulebook's advanced rules and the decisions players may disagree on.

Every field defaults to the basic rules. ``docs/enjambre.md`` explains each one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = ["ELIMINATION_POINTS", "Options"]

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


@dataclass(frozen=True)
class Options:
    """Rule switches. ``Options()`` is the basic game of the rulebook."""

    rounds: int = 10
    """Number of rounds (advanced rule: adjust the rounds to the players' style)."""
    elimination_points: bool = False
    """Advanced rule: victory points to the top eliminators instead of the elimination tiebreak."""
    scout_extra_step: bool = False
    """Advanced rule: activating the scout adds one step to what the scout has left."""
    colmena_combat: bool = False
    """Advanced rule: tiles can be eliminated in the colmena during the last two rounds."""
    must_move_one: bool = False
    """Advanced rule: every player must move at least one tile per turn."""
    must_move_all: bool = False
    """Advanced rule: every player must move every tile they have on the board."""
    linked_dark_cells: bool = False
    """Advanced rule: the dark cells between zones are joined; one dark cell to another is a step."""
    eliminated_visible: bool = False
    """Easier version (rulebook section 14): everyone may look at the eliminated tiles."""
    memory_play: bool = False
    """Players do not see even their own numbers after setup (the rulebook's physical game)."""
    queen_exit_anywhere: bool = False
    """A tile leaving its own colmena cell may land on any cell adjacent to the colmena."""

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

    @classmethod
    def names(cls) -> list[str]:
        return [field.name for field in fields(cls)]
