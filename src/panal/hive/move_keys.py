"""Legal moves as ints built from their MoveStrings' parts: the hot path of an action space.

A MoveString names the moving piece, a reference piece and where the destination lies from
the reference (one of six directions, clockwise from east as :data:`panal.hex.DIRECTIONS`, or
6, on top). :class:`MoveKeys` turns each legal move of a position into one int, its *key*::

    key = piece_weights[piece] + reference_weights[reference] + relation  (+ carry_weight)

for the reference and relation of the MoveString :func:`panal.hive.notation.format_move`
writes: the destination's top piece when climbing, else its first occupied neighbour clockwise
from east that is not the moving piece's own cell (that cell only when it is the sole one,
``wQ -wQ``); the first piece of a game is its own reference, on top. ``carry_weight`` is added
when a Dragonfly carries the piece beneath it. With weights that keep the parts apart (as
:mod:`panal.env.hive_actions` chooses them), the keys of a position's legal moves are distinct.

A :class:`MoveKeyTracker` follows one game and keeps each destination's references from one
position to the next: they depend only on the destination and its six neighbours, and a move
changes two cells. This lives with the engine, not with the environments that use it, so
that the compiled build compiles it: it runs at every step of an environment.

>>> from panal.hive import Game
>>> from panal.hive.move_keys import MoveKeys
>>> game = Game("Base", tournament_opening=True)
>>> game.push("wS1")
Move(wS1, (0, 0))
>>> keys = MoveKeys([100 * p for p in range(32)], list(range(0, 320, 10)), 7)
>>> sorted(keys.legal(game))[:2]  # bS1 (value 17) east (0) and south-east (1) of wS1 (value 1)
[1710, 1711]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive.codes import CARRY_FLAG, OFF_BOARD, PASS_CODE
from panal.hive.game import Game

__all__ = ["ON_TOP", "MoveKeyTracker", "MoveKeys"]

ON_TOP = 6
"""The relation of a climb onto the reference (and of the first piece of a game)."""
_NOT_A_CELL = -2  # never a piece's cell (OFF_BOARD is -1)
_STEPS = tuple(enumerate(NEIGHBOR_OFFSETS))

References = tuple[int, int, int]
"""A destination's references: (cell of its first reference or ``_NOT_A_CELL`` when there is no
other to fall back on, its part of a key, the second reference's part)."""


class MoveKeys:
    """The keys of every legal move of a position (see the module); ``pass_key`` for a pass.

    ``piece_weights`` and ``reference_weights`` are indexed by piece value (0-31).
    """

    def __init__(
        self,
        piece_weights: Sequence[int],
        reference_weights: Sequence[int],
        carry_weight: int,
        pass_key: int = -1,
    ) -> None:
        if len(piece_weights) != 32 or len(reference_weights) != 32:
            raise ValueError("piece_weights and reference_weights take one int per piece value")
        self.piece_weights = list(piece_weights)
        self.reference_weights = list(reference_weights)
        self.carry_weight = carry_weight
        self.pass_key = pass_key

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled by its arguments (OpenSpiel serialises states with pickle; a class that the
        # compiled build compiles is rebuilt only through its constructor)
        weights = (self.piece_weights, self.reference_weights, self.carry_weight, self.pass_key)
        return (MoveKeys, weights)

    def legal(self, game: Game) -> dict[int, int]:
        """Every legal move's key → its move code; ``{pass_key: PASS_CODE}`` when a pass is
        the only move, ``{}`` once the game is over."""
        return self.legal_with(game, {})

    def legal_with(self, game: Game, near: dict[int, References]) -> dict[int, int]:
        """:meth:`legal`, with ``near`` (destination → its references) known for some
        destinations already and filled in for the others (:class:`MoveKeyTracker` keeps it)."""
        codes = game.legal_move_codes()
        if not codes:
            return {}
        if codes[0] == PASS_CODE:
            return {self.pass_key: PASS_CODE}
        weights = self.piece_weights
        stacks = game.stacks
        if not stacks:  # the first piece: its own reference, on top
            referred = self.reference_weights
            return {weights[c & 31] + referred[c & 31] + ON_TOP: c for c in codes}
        cells = game.piece_cells
        carry = self.carry_weight
        out: dict[int, int] = {}
        for code in codes:
            dest = code >> 6
            found = near.get(dest)
            if found is None:
                found = near[dest] = self._references(game, dest)
            own_cell, part, other = found
            piece = code & 31
            if own_cell == cells[piece]:
                part = other  # not the moving piece's own cell, unless it is the only one
            if code & CARRY_FLAG:
                part += carry
            out[weights[piece] + part] = code
        return out

    def _references(self, game: Game, dest: int) -> References:
        referred = self.reference_weights
        stacks = game.stacks
        stack = stacks.get(dest)
        if stack:  # a climb: the reference is the top piece
            part = referred[stack[-1]] + ON_TOP
            return (_NOT_A_CELL, part, part)
        first_cell = _NOT_A_CELL
        first = -1
        for direction, step in _STEPS:
            stack = stacks.get(dest - step)  # dest lies in `direction` from there
            if stack:
                if first < 0:
                    first_cell, first = dest - step, referred[stack[-1]] + direction
                else:
                    return (first_cell, first, referred[stack[-1]] + direction)
        return (_NOT_A_CELL, first, first)  # one neighbour: no other to fall back on

    def tracker(self, game: Game) -> MoveKeyTracker:
        """A :class:`MoveKeyTracker` of ``game``."""
        return MoveKeyTracker(self, game)


class MoveKeyTracker:
    """The keys of one game's legal moves as it goes forward, move by move through :meth:`push`.

    Each destination's references are kept from one position to the next; a move forgets only
    those around the two cells it changed. Anything else done to the game (a move pushed past
    the tracker, a move taken back) is noticed by its ply and starts afresh.
    """

    def __init__(self, keys: MoveKeys, game: Game) -> None:
        self.keys = keys
        self.game = game
        self._near: dict[int, References] = {}
        self._ply = game.ply

    def __reduce__(self) -> tuple[Any, ...]:
        return (MoveKeyTracker, (self.keys, self.game))  # what it remembers is only a cache

    def legal(self) -> dict[int, int]:
        """:meth:`MoveKeys.legal` of the game's position."""
        game = self.game
        if game.ply != self._ply:
            self._near.clear()
            self._ply = game.ply
        return self.keys.legal_with(game, self._near)

    def copy(self) -> MoveKeyTracker:
        """A tracker of a copy of the game (``game.copy()``) that keeps what this one knows."""
        other = MoveKeyTracker(self.keys, self.game.copy())
        other._near = dict(self._near)  # the values are tuples, never changed
        other._ply = self._ply
        return other

    def push(self, code: int) -> None:
        """Play move ``code`` (known to be legal) in the game."""
        game = self.game
        near = self._near
        if game.ply != self._ply:
            near.clear()
        elif code != PASS_CODE:
            dest = code >> 6
            origin = game.piece_cells[code & 31]
            _forget_around(near, dest)
            if origin != OFF_BOARD:
                _forget_around(near, origin)
        game.push_code(code)
        self._ply = game.ply


def _forget_around(near: dict[int, References], cell: int) -> None:
    """Forget the references of ``cell`` and its six neighbours."""
    pop = near.pop
    pop(cell, None)
    for step in NEIGHBOR_OFFSETS:
        pop(cell + step, None)
