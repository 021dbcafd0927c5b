"""One key per position up to the board's symmetries: 12 rotations and reflections, translation.

Hive has no fixed board: a position moved anywhere, turned by any multiple of 60° or mirrored is
the same puzzle. :func:`canonical_key` writes the position under each of the 12 transforms,
translated so that its smallest cell is the origin, and keeps the smallest text. The side to
move, the game type and the piece that may not move (the last one moved, which a Pillbug may not
throw) are part of the key; pieces in hand follow from the board.

>>> from panal.hive import Game
>>> a = Game.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
>>> b = Game.from_game_string("Base;InProgress;White[2];wS1;bS1 /wS1")
>>> canonical_key(a) == canonical_key(b)
True
"""

from __future__ import annotations

from panal.hex import Hex, unpack
from panal.hive import Game

__all__ = ["TRANSFORMS", "canonical_key", "transform"]

# Cube coordinates (q, r, s): a rotation by 60° is (q, r, s) -> (-r, -s, -q); swapping q and r
# is a reflection. The six rotations, each with and without the reflection.
TRANSFORMS = tuple((turns, mirrored) for mirrored in (False, True) for turns in range(6))


def transform(cell: Hex, turns: int, mirrored: bool) -> Hex:
    """``cell`` mirrored (q and r swapped) when asked, then turned by ``turns`` × 60°."""
    q, r = (cell.r, cell.q) if mirrored else (cell.q, cell.r)
    for _ in range(turns):
        q, r = -r, q + r
    return Hex(q, r)


def canonical_key(game: Game) -> str:
    """The same text for every position equal to this one up to symmetry."""
    cells = [(unpack(cell), stack) for cell, stack in game.stacks.items()]
    best = ""
    for turns, mirrored in TRANSFORMS:
        moved = [(transform(cell, turns, mirrored), stack) for cell, stack in cells]
        low_q = min(cell.q for cell, _ in moved)
        low_r = min(cell.r for cell, _ in moved if cell.q == low_q)
        text = ";".join(
            f"{cell.q - low_q},{cell.r - low_r}:{'.'.join(map(str, stack))}"
            for cell, stack in sorted(moved)
        )
        if not best or text < best:
            best = text
    frozen = game.last_moved
    return f"{game.game_type}|{int(game.turn)}|{frozen.name if frozen else '-'}|{best}"
