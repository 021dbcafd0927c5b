"""What a bot can infer from its observation, and movement helpers shared by the bots.

* :class:`Knowledge`: every number the viewer knows (own setup, everything shown so far) and, for
  the rest, the numbers each player still has unaccounted for. An unknown tile of player ``q`` is
  equally likely to hold any number of ``q``'s pool; :meth:`Knowledge.sample` draws a complete
  assignment consistent with the observation.
* :class:`Geometry`: step distances on the board (adjacency, the colmena crossing, linked dark
  cells), computed once per board and options.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Mapping
from functools import cache

from panal.hex import Hex

from ..board import Board
from ..observation import Observation
from ..state import PublicState, linked_dark_cells

__all__ = ["Geometry", "Knowledge", "geometry_for"]


class Knowledge:
    """Known numbers and, per player, the pool of numbers not yet tied to a tile."""

    def __init__(
        self, state: PublicState, known: Mapping[int, int], viewer: int | None = None
    ) -> None:
        self.state = state
        self.viewer = viewer
        self.known = dict(known)
        count = state.tiles_per_player
        self.pools: list[tuple[int, ...]] = []
        self.unknown: list[tuple[int, ...]] = []
        for player in range(state.players):
            tiles = state.tiles_of(player)
            taken = {self.known[t] for t in tiles if t in self.known}
            self.pools.append(tuple(n for n in range(1, count + 1) if n not in taken))
            self.unknown.append(tuple(t for t in tiles if t not in self.known))

    @classmethod
    def from_observation(
        cls, observation: Observation, own_numbers: Mapping[int, int]
    ) -> Knowledge:
        known = dict(observation.revealed)
        known.update(own_numbers)
        known.update(observation.numbers)
        return cls(observation.state, known, observation.me)

    def options(self, tile: int) -> tuple[int, ...]:
        number = self.known.get(tile)
        if number is not None:
            return (number,)
        return self.pools[self.state.owner(tile)]

    def p_above(self, tile: int, number: int) -> float:
        options = self.options(tile)
        return sum(1 for n in options if n > number) / len(options) if options else 0.0

    def p_at_least(self, tile: int, number: int) -> float:
        options = self.options(tile)
        return sum(1 for n in options if n >= number) / len(options) if options else 0.0

    def p_equal(self, tile: int, number: int) -> float:
        options = self.options(tile)
        return sum(1 for n in options if n == number) / len(options) if options else 0.0

    def expected(self, tile: int) -> float:
        options = self.options(tile)
        return sum(options) / len(options) if options else 0.0

    def sample(
        self,
        rng: random.Random,
        queen_prior: float = 0.0,
        activity: Mapping[int, float] | None = None,
    ) -> list[int]:
        """One complete assignment of numbers consistent with everything the viewer knows.

        Without priors every arrangement of a player's unaccounted numbers over their unknown
        tiles is equally likely. Priors only reweigh those arrangements, never rule one out:

        * ``queen_prior``: the chance that an unknown tile on its owner's colmena cell holds the
          owner's highest unaccounted number (players put their best tile home);
        * ``activity``: a weight per tile (e.g. how far it has walked); busier tiles tend to get
          the higher numbers (players send strong tiles out and keep weak ones back). Each tile's
          rank key is its weight plus Gumbel noise, which with no weights is a uniform shuffle.
        """
        state = self.state
        numbers = [0] * len(state.tile_cell)
        for tile, number in self.known.items():
            numbers[tile] = number
        for player in range(state.players):
            pool = list(self.pools[player])
            tiles = list(self.unknown[player])
            if queen_prior and pool and rng.random() < queen_prior:
                queen = state.occupant.get(state.colmena_cell(player))
                if queen is not None and queen in tiles:
                    numbers[queen] = pool.pop()  # pools are sorted: the highest
                    tiles.remove(queen)
            if activity:
                keys = {t: activity.get(t, 0.0) - math.log(-math.log(rng.random() or 1e-12))
                        for t in tiles}  # fmt: skip
                tiles.sort(key=lambda t: -keys[t])
                pool.sort(reverse=True)
            else:
                rng.shuffle(pool)
            for tile, number in zip(tiles, pool, strict=False):
                numbers[tile] = number
        return numbers


class Geometry:
    """Shortest step counts between cells, for a board and the options that change adjacency.

    Colmena cells are dead ends: a tile may enter only its own colour's cell, so paths never
    cross them (crossing the colmena is the one-step move between cells next to it).
    """

    def __init__(self, board: Board, linked_dark: str, queen_exit_anywhere: bool) -> None:
        self.board = board
        links: dict[Hex, list[Hex]] = {}
        for cell in board.cells:
            if cell == board.centre:
                continue
            targets = [n for n in board.neighbours[cell] if n != board.centre]
            if cell in board.colmena_adjacent or (
                queen_exit_anywhere and cell in board.colmena_owner
            ):
                targets += [c for c in board.colmena_adjacent_order if c != cell]
            targets += linked_dark_cells(board, linked_dark, cell)
            links[cell] = list(dict.fromkeys(targets))
        self.links = links
        self.distance: dict[Hex, dict[Hex, int]] = {cell: self._bfs(cell) for cell in links}
        self._within: dict[tuple[Hex, int], tuple[Hex, ...]] = {}

    def _bfs(self, source: Hex) -> dict[Hex, int]:
        colmena = self.board.colmena_owner
        seen = {source: 0}
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            if cell in colmena and cell != source:
                continue
            for nxt in self.links[cell]:
                if nxt not in seen:
                    seen[nxt] = seen[cell] + 1
                    queue.append(nxt)
        return seen

    def within(self, source: Hex, steps: int) -> tuple[Hex, ...]:
        key = (source, steps)
        found = self._within.get(key)
        if found is None:
            found = tuple(c for c, d in self.distance[source].items() if 0 < d <= steps)
            self._within[key] = found
        return found


@cache
def _geometry(board: Board, linked_dark: str, queen_exit_anywhere: bool) -> Geometry:
    return Geometry(board, linked_dark, queen_exit_anywhere)


def geometry_for(state: PublicState) -> Geometry:
    options = state.options
    return _geometry(state.board, options.linked_dark_cells, options.queen_exit_anywhere)
