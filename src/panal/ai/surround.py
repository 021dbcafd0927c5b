"""Forced-surround search: the side to move fills the enemy queen's ring, whatever the defence.

A chess engine's mate search in Hive's terms. The attacker may only play *filling* moves (a
piece put on an empty cell beside the enemy queen, from a cell that does not empty the ring);
the defender may play anything. A line is proven when every defence is answered by a fill and
the last fill surrounds the queen. With only fills on one side, the tree is narrow enough to be
searched several moves deeper than the full-width search sees at the same cost, which is what a
won endgame needs: the full-width search sees the queen one cell short, two moves ahead, from any
of many positions, and shuffles (docs/benchmarks.md, "converting wins").

An AND-OR depth-first search with a node cap, a deadline and a table of positions already
refuted; used by :class:`~panal.ai.search.Searcher` at the root of a bounded search.
"""

from __future__ import annotations

import time

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Game, GameState

__all__ = ["SurroundSearch", "filling_moves"]

_WINS = (GameState.WHITE_WINS, GameState.BLACK_WINS)
_NEIGHBOR_SET = frozenset(NEIGHBOR_OFFSETS)


def filling_moves(game: Game) -> list[int]:
    """The side to move's legal moves that fill an empty cell beside the enemy queen (none when
    it is not placed); a piece already beside it, alone on its cell, does not count: moving it
    along the ring gains no cell."""
    cells = game.piece_cells
    stacks = game.stacks
    queen = cells[((game.ply & 1) ^ 1) << 4]
    if queen < 0:
        return []
    empty = {queen + step for step in NEIGHBOR_OFFSETS if queen + step not in stacks}
    found = []
    for code in game.legal_move_codes():
        if code < 0 or (code >> 6) not in empty:
            continue
        origin = cells[code & 31]
        if origin >= 0 and origin - queen in _NEIGHBOR_SET and len(stacks[origin]) == 1:
            continue
        found.append(code)
    return found


class _OutOfBudget(Exception):
    """The node cap or the deadline was reached: nothing is proven."""


class SurroundSearch:
    """One search for a forced surround by the side to move of ``game`` (played on, restored).

    ``nodes`` counts the positions entered; :meth:`find` stops unproven past ``node_cap`` of
    them or at ``deadline`` (``time.perf_counter()``).
    """

    def __init__(self, game: Game, node_cap: int, deadline: float = float("inf")) -> None:
        self.game = game
        self.attacker = game.ply & 1
        self.node_cap = node_cap
        self.deadline = deadline
        self.nodes = 0
        self._refuted: dict[int, int] = {}  # position hash -> most fills known not to suffice

    def find(self, max_fills: int) -> tuple[int, int] | None:
        """(first move code, plies to the surround) of the quickest forced surround in at most
        ``max_fills`` of the attacker's moves, or None when none is proven within the budget."""
        try:
            for fills in range(1, max_fills + 1):
                code = self._attack(fills)
                if code is not None:
                    return code, 2 * fills - 1
        except _OutOfBudget:
            pass
        return None

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_cap or time.perf_counter() > self.deadline:
            raise _OutOfBudget

    def _empty_cells(self) -> int:
        game = self.game
        queen = game.piece_cells[(self.attacker ^ 1) << 4]
        stacks = game.stacks
        return sum(queen + step not in stacks for step in NEIGHBOR_OFFSETS)

    def _attack(self, fills: int) -> int | None:
        """The attacker (to move) forces a surround in ``fills`` moves: the first move, or None."""
        self._count()
        game = self.game
        if self._empty_cells() > fills or self._refuted.get(game.hash, 0) >= fills:
            return None
        codes = filling_moves(game)
        if not codes:
            return None
        win = _WINS[self.attacker]
        push, pop = game.push_code, game.pop_code
        for code in codes:
            push(code)
            try:
                state = game.state
                if state is win:
                    return code
                if fills > 1 and state is GameState.IN_PROGRESS and self._defend(fills - 1):
                    return code
            finally:
                pop()
        self._refuted[game.hash] = fills
        return None

    def _defend(self, fills: int) -> bool:
        """Every defence (the defender to move) is answered by a surround in ``fills`` moves."""
        self._count()
        game = self.game
        win = _WINS[self.attacker]
        push, pop = game.push_code, game.pop_code
        for code in game.legal_move_codes():
            push(code)
            try:
                state = game.state
                if state is not win and (
                    state is not GameState.IN_PROGRESS or self._attack(fills) is None
                ):
                    return False
            finally:
                pop()
        return True
