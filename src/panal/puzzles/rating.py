"""Initial Glicko-2 ratings of puzzles, before any player has tried them.

A puzzle starts at

    rating = 800 + 350 × (moves − 1) + 150 × [defence] + 4 × min(choices, 100)

* every extra own move of a forced surround is a whole extra layer of defences to see through
  (350 points, about the gap lichess's first ratings show between mates in one and in two);
* finding the only defence is harder than a surround of the same length (150 points);
* ``choices``, the legal moves the player could make, is how much there is to look through:
  4 points a move, at most 400.

So a surround in one among 30 moves starts at 920, a surround in three among 100 at 1,900. The
deviation starts at 300 (a guess, not knowledge: lichess starts new puzzles wide too) and the
volatility at Glicko-2's usual 0.06; a server rates players and puzzles from there.
"""

from __future__ import annotations

from panal.puzzles.record import Rating

__all__ = ["INITIAL_DEVIATION", "INITIAL_VOLATILITY", "initial_rating"]

INITIAL_DEVIATION = 300.0
INITIAL_VOLATILITY = 0.06


def initial_rating(kind: str, moves: int, choices: int) -> Rating:
    """The starting rating of a puzzle (see the module's documentation)."""
    value = 800 + 350 * (moves - 1) + (150 if kind == "defence" else 0) + 4 * min(choices, 100)
    return Rating(float(value), INITIAL_DEVIATION, INITIAL_VOLATILITY)
