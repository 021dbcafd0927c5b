"""Static evaluation of a Hive position, from the side to move's point of view.

Hive is won around the queens, so most of the score is about them: how many of the six cells
around each queen are filled, by whom, and whether the filling pieces can still leave; whether a
queen can still slide away; beetles sitting on a queen or standing next to one. The rest is
mobility, the currency of the middle game: a piece that is pinned by the one-hive rule, covered by
a beetle or gated in is worth little, a free ant is worth a lot, and pieces in hand are kept in
reserve at a discount. A pillbug next to its own queen is a defender (it can throw attackers away).

The unit is roughly a hundredth of a free ant; :data:`WIN` is far above any static score.

Everything works on the game's low-level surface (``stacks``, ``piece_cells``,
``placed_counts``) and is written for CPython speed: one pass over the occupied cells, one
articulation-point pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from panal.hex import NEIGHBOR_OFFSETS, ORIGIN, ORIGIN_CELL, hexagon, pack
from panal.hive.movement import SLIDE_STEPS, neighbor_mask, pinned_cells
from panal.hive.pieces import BUG_COUNTS, BUG_OF, Bug

if TYPE_CHECKING:
    from panal.hive.game import Game

__all__ = ["WIN", "Weights", "evaluate"]

WIN = 1_000_000
"""The score of a won position; a win found ``n`` plies ahead scores ``WIN - n``."""

_QUEEN = int(Bug.QUEEN)
_SPIDER = int(Bug.SPIDER)
_BEETLE = int(Bug.BEETLE)
_GRASSHOPPER = int(Bug.GRASSHOPPER)
_ANT = int(Bug.ANT)
_MOSQUITO = int(Bug.MOSQUITO)
_LADYBUG = int(Bug.LADYBUG)
_PILLBUG = int(Bug.PILLBUG)
_DRAGONFLY = int(Bug.DRAGONFLY)

# Bugs that need a free ground slide to move at all (a gated one is stuck).
_SLIDERS = frozenset({_QUEEN, _SPIDER, _ANT, _PILLBUG})


class Weights:
    """The evaluation's tunable numbers, one place to read and change them."""

    # A free (movable) piece on the board, by bug.
    mobile: ClassVar[dict[int, int]] = {
        _QUEEN: 0,  # the queen's freedom is scored by queen_free
        _SPIDER: 18,
        _BEETLE: 40,
        _GRASSHOPPER: 24,
        _ANT: 55,
        _MOSQUITO: 40,
        _LADYBUG: 32,
        _PILLBUG: 22,
        _DRAGONFLY: 40,
    }
    # A piece still in hand: flexible but slow, and it may never reach the enemy queen.
    in_hand: ClassVar[dict[int, int]] = {
        _QUEEN: 0,
        _SPIDER: 10,
        _BEETLE: 24,
        _GRASSHOPPER: 14,
        _ANT: 34,
        _MOSQUITO: 24,
        _LADYBUG: 18,
        _PILLBUG: 14,
        _DRAGONFLY: 24,
    }
    # Pressure on a queen, indexed by "weighted neighbours": 2 per filled cell around it, minus
    # 1 for each of its own pieces there that could step away. Steep near the end: 6 filled
    # cells lose the game.
    queen_pressure = (0, 5, 12, 21, 32, 46, 64, 90, 120, 165, 220, 300, 400)
    queen_free = 30  # the queen can still slide (an escape)
    queen_stuck_per_neighbour = 8  # a queen that cannot move is worse off for each neighbour
    queen_not_placed = 40  # after the opening, a queen in hand is a liability
    beetle_on_enemy_queen = 90  # a beetle (or mosquito) on top of the enemy queen
    attacker_next_to_enemy_queen = 10  # a free piece beside the enemy queen, ready to fill
    covered_own_piece = 12  # each own piece buried under a stack
    pillbug_guard = 30  # own pillbug (uncovered) beside own queen
    tempo = 6  # having the move
    # A free piece that could fill a cell around the enemy queen soon (an ant anywhere, a
    # climber within two cells, a spider or grasshopper within three), by how many of the
    # queen's cells are already filled: the closer to surrounded, the more each one counts.
    threat_by_filled = (0, 3, 6, 10, 18, 32, 0)


def _can_slide(stacks: Mapping[int, Sequence[int]], cell: int) -> bool:
    """Could a ground piece on ``cell`` make one slide (ignoring the one-hive rule)?"""
    return bool(SLIDE_STEPS[neighbor_mask(stacks, cell)])


def evaluate(game: Game, weights: type[Weights] = Weights) -> int:
    """The static score of ``game`` for the player to move (positive: good for them)."""
    stacks = game.stacks
    cells = game.piece_cells
    pinned = pinned_cells(stacks)
    mobile_value = weights.mobile
    bug_of = BUG_OF
    scores = [0, 0]
    queen_cells = (cells[0], cells[16])
    # Per colour: own pieces beside own queen that could step away (they relieve pressure).
    queen_helpers = [0, 0]
    attackers = [0, 0]
    threats = [0, 0]  # free pieces not yet beside the enemy queen that could get there soon

    for cell, stack in stacks.items():
        top = stack[-1]
        color = top >> 4
        bug = bug_of[top]
        height = len(stack)
        if height > 1:
            # On top of the hive: always free to step; everything beneath is buried.
            value = mobile_value[_BEETLE] + 10
            for buried in stack[:-1]:
                if buried >> 4 == color:
                    scores[color] -= weights.covered_own_piece
            if cell == queen_cells[color ^ 1]:
                value += weights.beetle_on_enemy_queen
            mobile = True
        else:
            if cell in pinned:
                mobile = False
            elif bug in _SLIDERS:
                mobile = _can_slide(stacks, cell)
            else:
                mobile = True
            if bug == _MOSQUITO and mobile:
                best = 0
                for step in NEIGHBOR_OFFSETS:
                    near = stacks.get(cell + step)
                    if near is not None:
                        copied = mobile_value[bug_of[near[-1]]]
                        if copied > best and bug_of[near[-1]] != _MOSQUITO:
                            best = copied
                value = best
            elif bug == _QUEEN:
                value = weights.queen_free if mobile else 0
            else:
                value = mobile_value[bug] if mobile else 0
        if mobile:
            scores[color] += value
        elif (cell - queen_cells[color ^ 1]) in _NEIGHBOR_SET and bug != _QUEEN:
            # Pinned beside the enemy queen, a piece is doing its job: no mobility lost.
            scores[color] += mobile_value[bug]
        # Relations with the queens (a piece is next to at most both of them).
        own_queen = queen_cells[color]
        enemy_queen = queen_cells[color ^ 1]
        if own_queen >= 0 and cell != own_queen and (cell - own_queen) in _NEIGHBOR_SET:
            if mobile and bug != _QUEEN:
                queen_helpers[color] += 1
            if bug == _PILLBUG and height == 1:
                scores[color] += weights.pillbug_guard
        if enemy_queen >= 0 and mobile:
            offset = cell - enemy_queen
            if offset in _NEIGHBOR_SET:
                attackers[color] += 1
            elif height > 1 or bug == _ANT:
                if bug == _ANT or offset in _WITHIN_TWO:
                    threats[color] += 1
            elif offset in _REACH_BY_BUG.get(bug, _EMPTY):
                threats[color] += 1

    placed = game.placed_counts
    for color in (0, 1):
        queen = queen_cells[color]
        base = color << 4
        hand = 0
        for bug in game.game_type.bugs:
            hand += (BUG_COUNTS[bug] - placed[base | bug]) * weights.in_hand[bug]
        score = scores[color] + hand
        score += attackers[color] * weights.attacker_next_to_enemy_queen
        enemy_queen = queen_cells[color ^ 1]
        if enemy_queen >= 0 and threats[color]:
            enemy_filled = 0
            for step in NEIGHBOR_OFFSETS:
                if enemy_queen + step in stacks:
                    enemy_filled += 1
            usable = min(threats[color], 6 - enemy_filled)
            score += usable * weights.threat_by_filled[enemy_filled]
        if queen < 0:
            if game.ply >= 6:
                score -= weights.queen_not_placed
        else:
            filled = 0
            for step in NEIGHBOR_OFFSETS:
                if queen + step in stacks:
                    filled += 1
            pressure = 2 * filled - queen_helpers[color]
            score -= weights.queen_pressure[pressure]
            queen_stack = stacks[queen]
            queen_moves = len(queen_stack) == 1 and queen not in pinned
            if not (queen_moves and _can_slide(stacks, queen)):
                score -= weights.queen_stuck_per_neighbour * filled
        scores[color] = score

    me = game.ply & 1
    return scores[me] - scores[me ^ 1] + weights.tempo


_NEIGHBOR_SET = frozenset(NEIGHBOR_OFFSETS)
_EMPTY: frozenset[int] = frozenset()


def _offsets_within(radius: int) -> frozenset[int]:
    """Packed offsets of the cells 2..radius steps from a cell."""
    return frozenset(pack(h) - ORIGIN_CELL for h in hexagon(radius) if h.distance(ORIGIN) >= 2)


_WITHIN_TWO = _offsets_within(2)
_WITHIN_THREE = _offsets_within(3)
_REACH_BY_BUG = {
    _BEETLE: _WITHIN_TWO,
    _MOSQUITO: _WITHIN_TWO,
    _LADYBUG: _WITHIN_THREE,
    _DRAGONFLY: _WITHIN_THREE,
    _SPIDER: _WITHIN_THREE,
    _GRASSHOPPER: _WITHIN_THREE,
}
