"""What the helpers of :class:`~panal.hive.game.Game` read: its documented, read-only surface.

Notation, rule explanations, board pictures and the text form of a board are written against
this protocol rather than against ``Game`` itself, so that ``game.py`` can use them without an
import cycle. Any object with these members works; ``Game`` is the one that matters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from panal.hex import Hex
from panal.hive.options import Options
from panal.hive.outcome import GameState
from panal.hive.pieces import Color, GameType, Piece

__all__ = ["GameView"]


class GameView(Protocol):
    """The read-only surface of a game (see ``Game`` for what each member means)."""

    @property
    def game_type(self) -> GameType: ...

    @property
    def options(self) -> Options: ...

    @property
    def state(self) -> GameState: ...

    @property
    def ply(self) -> int: ...

    @property
    def turn(self) -> Color: ...

    @property
    def turn_number(self) -> int: ...

    @property
    def last_moved(self) -> Piece | None: ...

    @property
    def stacks(self) -> Mapping[int, Sequence[int]]: ...

    @property
    def piece_cells(self) -> Sequence[int]: ...

    @property
    def placed_counts(self) -> Sequence[int]: ...

    def board(self) -> dict[Hex, list[Piece]]: ...

    def is_over(self) -> bool: ...

    def is_queen_placed(self, color: Color) -> bool: ...

    def must_place_queen(self) -> bool: ...

    def may_carry(self, piece: int) -> bool: ...

    def is_flying(self, piece: Piece | int) -> bool: ...
