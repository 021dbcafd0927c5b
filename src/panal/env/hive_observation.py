"""What a seat sees: board planes recentred on the hive, pieces in hand, and a text view.

**Planes** (``int8``, shape ``(4 * B + 3, S, S)``), seen from the observing side ("mine" and
"theirs", so one network plays both colours), with ``B`` the bug kinds in play in
``game_type.bugs`` order (Q S B G A, then M L P D as the game has them):

=================  ==========================================================================
planes             value at a cell
=================  ==========================================================================
``0 .. B-1``       1 where the top piece is mine and of bug ``b``
``B .. 2B-1``      1 where the top piece is theirs and of bug ``b``
``2B .. 3B-1``     how many of my pieces of bug ``b`` lie covered under the top
``3B .. 4B-1``     how many of theirs lie covered
``4B``             the height of the stack (0 for an empty cell)
``4B + 1``         1 on the piece that moved last (no one may move or throw it now)
``4B + 2``         all 1 when I play White (who moves first), all 0 when I play Black
=================  ==========================================================================

The grid is axial: plane ``[k, r - r0 + H, q - q0 + H]`` holds cell ``(q, r)``, where
``(q0, r0)`` is the middle of the hive's bounding box (rounded down) and ``H = S // 2``. For a
game type of ``N`` pieces ``H = N // 2`` and ``S = 2 * H + 1`` (23 for Base, 29 for Base+MLP, 31
for Base+MLPD): a hive of ``N`` pieces spans at most ``N - 1`` columns and rows, so every
position fits and none is cut, however stretched (OpenSpiel's fixed 17 x 17 grid instead ends
such games in a draw).

**Pieces in hand**: ``int8`` of shape ``(2, B)``, mine then theirs, per bug.

**Text view** (:func:`text_view`): the board as ``print(game)`` draws it, the side to move and,
optionally, the legal moves in UHP notation: what a language model reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from panal.hex import STRIDE
from panal.hive.game import Game
from panal.hive.pieces import BUG_OF, Color, GameType

__all__ = ["HiveObserver", "text_view"]


class HiveObserver:
    """Builds the observation arrays of one game type (see the module's table)."""

    def __init__(self, game_type: GameType) -> None:
        self.game_type = game_type
        bugs = [int(b) for b in game_type.bugs]
        self.bugs = len(bugs)
        pieces = [int(p) for color in Color for p in game_type.pieces(color)]
        self.half = len(pieces) // 2
        self.side = 2 * self.half + 1
        self.planes = 4 * self.bugs + 3
        self.shape = (self.planes, self.side, self.side)
        self._bug_index = [-1] * 16
        for index, bug in enumerate(bugs):
            self._bug_index[bug] = index
        self._bug_of_piece = [self._bug_index[BUG_OF[p]] for p in range(32)]
        # Pieces in hand per bug = the game type's count - how many are on the board
        # (game.placed_counts, indexed colour << 4 | bug), mine first: one vectorised read.
        self._counts = np.array(
            [sum(BUG_OF[p] == bug for p in pieces) // 2 for _ in (0, 1) for bug in bugs],
            dtype=np.int8,
        )
        self._placed_index = [
            np.array([(side << 4) | bug for side in (color, 1 - color) for bug in bugs])
            for color in (0, 1)
        ]
        # Flat offsets into the planes, per observing colour and piece value: where a piece
        # on top, and a piece covered, is counted.
        area = self.side * self.side
        self._area = area
        self._top: list[list[int]] = []
        self._covered: list[list[int]] = []
        for color in (0, 1):
            mine = [int((p >> 4) != color) * self.bugs + self._bug_of_piece[p] for p in range(32)]
            self._top.append([plane * area for plane in mine])
            self._covered.append([(2 * self.bugs + plane) * area for plane in mine])

    def planes_of(self, game: Game, color: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The board planes of ``game`` seen by ``color`` (0 White, 1 Black)."""
        out = np.zeros(self.shape, dtype=np.int8)
        if color == 0:
            out[-1] = 1
        stacks = game.stacks
        if not stacks:
            return out
        # Packed cells are (q + BIAS) * STRIDE + (r + BIAS): biased q and r, fine for offsets.
        qs = [cell // STRIDE for cell in stacks]
        rs = [cell % STRIDE for cell in stacks]
        side = self.side
        # the flat index of the bounding box's middle cell, minus the grid's middle
        half = self.half
        corner = ((min(rs) + max(rs)) // 2 - half) * side + (min(qs) + max(qs)) // 2 - half
        area = self._area
        top = self._top[color]
        covered_at = self._covered[color]
        heights_at = 4 * self.bugs * area
        ones: list[int] = []
        heights: list[int] = []
        height_values: list[int] = []
        covered: list[int] = []
        for stack, q, r in zip(stacks.values(), qs, rs, strict=True):
            at = r * side + q - corner
            ones.append(top[stack[-1]] + at)
            heights.append(heights_at + at)
            height_values.append(len(stack))
            if len(stack) > 1:
                covered.extend(covered_at[piece] + at for piece in stack[:-1])
        flat = out.reshape(-1)
        flat[ones] = 1
        flat[heights] = height_values
        if covered:
            np.add.at(flat, covered, 1)
        last = game.last_moved
        if last is not None:
            cell = game.piece_cells[last]
            flat[heights_at + area + (cell % STRIDE) * side + cell // STRIDE - corner] = 1
        return out

    def in_hand_of(self, game: Game, color: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """Pieces in hand per bug, ``color``'s row first."""
        placed = np.array(game.placed_counts, dtype=np.int8)[self._placed_index[color]]
        return (self._counts - placed).reshape(2, self.bugs)


def text_view(game: Game, *, legal_moves: bool = True) -> str:
    """A seat's observation as text: the board panal prints, who moves, the legal moves.

    >>> from panal.hive import Game
    >>> game = Game("Base", tournament_opening=True)
    >>> _ = game.push("wS1"); _ = game.push("bS1 wS1-")
    >>> print(text_view(game, legal_moves=False))
    Base;InProgress;White[2];last bS1
    wS1 bS1
    <BLANKLINE>
    You play White; it is your turn 2 (ply 3).
    """
    lines = [str(game), ""]
    if game.is_over():
        lines.append(f"The game is over: {game.state}.")
        return "\n".join(lines)
    lines.append(
        f"You play {game.turn.title}; it is your turn {game.turn_number} (ply {game.ply + 1})."
    )
    if game.must_place_queen():
        lines.append("You must place your queen (wQ/bQ) this turn.")
    if legal_moves:
        moves = sorted(game.move_string(code) for code in game.legal_move_codes())
        lines.append(f"Legal moves ({len(moves)}): " + ", ".join(moves))
    return "\n".join(lines)
