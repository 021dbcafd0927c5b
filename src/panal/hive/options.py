"""Rule options: where players (and sites) disagree, panal lets them choose.

Every decision and its reason is in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Options"]


@dataclass(frozen=True)
class Options:
    """Rule options where players disagree (see docs/rules.md).

    ``tournament_opening``: no queen on a player's first turn (every reference engine assumes it).
    ``repetition_draw``: the third occurrence of a position (pieces, side to move, frozen piece)
    is a draw.
    ``dragonfly_gates``: the Dragonfly's sideways step after its jump obeys freedom to move, as a
    beetle's step does. Off by default: it flies, like the grasshopper it copies.
    """

    tournament_opening: bool = False
    repetition_draw: bool = True
    dragonfly_gates: bool = False
