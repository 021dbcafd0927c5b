"""Static evaluation of a Hive position, from the side to move's point of view.

Hive is won around the queens, so most of the score is about them: how many of the six cells
around each queen are filled, whether the filling pieces can still leave, whether a queen can
still slide away, beetles on a queen, pieces ready to fill the last cells, and empty cells beside
a queen where the opponent may drop a new piece. The rest is mobility, the currency of the middle
game: a piece pinned by the one-hive rule, covered by a beetle or gated in is worth little, a free
ant a lot, and pieces in hand are kept in reserve at a discount.

The evaluation is linear in a set of *features* counted for each colour (:func:`features`); the
score is the weighted difference between the side to move and the other, plus a tempo bonus. The
weights (:data:`WEIGHTS`) were fitted to the results of 6,369 BoardGameArena games (a Texel-style
logistic fit, ``benchmarks/ai_tune.py``), so that the score predicts who wins; three more, set
by hand (:data:`HAND_SET_FEATURES`), make a side that has nothing left to move a target to
surround rather than a position to shuffle in until the move limit. Those games all have
the expansion bugs; Base has its own slot (:data:`BASE_WEIGHTS`), which holds the same weights
until a refit for Base is shown to play better. The unit is arbitrary; :data:`WIN` is far above
any static score.

Everything works on the game's low-level surface (``stacks``, ``piece_cells``,
``placed_counts``) and is written for CPython speed: one pass over
the occupied cells and one articulation-point pass (cached by the shape of the hive).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, cast

from panal.hex import NEIGHBOR_OFFSETS, ORIGIN, ORIGIN_CELL, hexagon, neighbor_ring, pack
from panal.hive.codes import PASS_CODE
from panal.hive.movement import SLIDE_STEPS, neighbor_mask
from panal.hive.outcome import GameState
from panal.hive.pieces import BUG_COUNT_BY_VALUE, BUG_OF, Bug

if TYPE_CHECKING:
    from panal.hive.game import Game
    from panal.hive.pieces import GameType

__all__ = [
    "BASE_WEIGHTS",
    "FEATURES",
    "HAND_SET_FEATURES",
    "MATE_BOUND",
    "WEIGHTS",
    "WIN",
    "WIN_CHANCE_SCALE",
    "evaluate",
    "feature_counts",
    "weights_for",
    "win_chance",
]

WIN = 1_000_000
"""The score of a won position; a win found ``n`` plies ahead scores ``WIN - n``."""
MATE_BOUND = WIN - 1_000
"""Scores above this are wins found by search (``WIN`` less the plies to the end), below its
negative losses; no static score comes near."""

_QUEEN: Final = int(Bug.QUEEN)
_SPIDER: Final = int(Bug.SPIDER)
_BEETLE: Final = int(Bug.BEETLE)
_GRASSHOPPER: Final = int(Bug.GRASSHOPPER)
_ANT: Final = int(Bug.ANT)
_MOSQUITO: Final = int(Bug.MOSQUITO)
_LADYBUG: Final = int(Bug.LADYBUG)
_PILLBUG: Final = int(Bug.PILLBUG)
_DRAGONFLY: Final = int(Bug.DRAGONFLY)
_BUGS = tuple(Bug)

# Bugs that need a free ground slide to move at all (a gated one is stuck).
_SLIDERS: Final = frozenset({_QUEEN, _SPIDER, _ANT, _PILLBUG})


def _names() -> list[str]:
    names = [f"mobile_{bug.name.lower()}" for bug in _BUGS if bug != Bug.QUEEN]
    names += ["mosquito_as_ant", "mosquito_as_climber"]
    names += [f"in_hand_{bug.name.lower()}" for bug in _BUGS if bug != Bug.QUEEN]
    names += [f"queen_ring_{filled}" for filled in range(6)]
    names += [f"threat_{filled}" for filled in range(6)]
    names += [
        "on_top",
        "beetle_on_enemy_queen",
        "covered_by_own",
        "covered_by_enemy",
        "queen_helpers",
        "queen_can_move",
        "queen_stuck_ring",
        "queen_in_hand_late",
        "attacker_mobile",
        "attacker_pinned",
        "pillbug_guard",
        "enemy_drop_cells",
        "tempo",
        "ring_of_immobile_queen",
        "closing_on_immobile_queen",
        "reach_of_immobile_queen",
    ]
    return names


FEATURES: tuple[str, ...] = tuple(_names())
"""Names of the features, in the order of :func:`feature_counts` and :data:`WEIGHTS`."""
HAND_SET_FEATURES = frozenset(
    {"ring_of_immobile_queen", "closing_on_immobile_queen", "reach_of_immobile_queen"}
)
"""Features whose weights are set by hand, not fitted (``benchmarks/ai_tune.py`` keeps them):
they price the end of a won game, which human games are resigned or agreed before."""
_INDEX = {name: i for i, name in enumerate(FEATURES)}
_MOBILE: Final = [_INDEX.get(f"mobile_{bug.name.lower()}", -1) for bug in _BUGS]
_IN_HAND: Final = [_INDEX.get(f"in_hand_{bug.name.lower()}", -1) for bug in _BUGS]
_MOSQUITO_AS_ANT: Final = _INDEX["mosquito_as_ant"]
_MOSQUITO_AS_CLIMBER: Final = _INDEX["mosquito_as_climber"]
_QUEEN_RING: Final = _INDEX["queen_ring_0"]
_THREAT: Final = _INDEX["threat_0"]
_ON_TOP: Final = _INDEX["on_top"]
_BEETLE_ON_QUEEN: Final = _INDEX["beetle_on_enemy_queen"]
_COVERED_BY_OWN: Final = _INDEX["covered_by_own"]
_COVERED_BY_ENEMY: Final = _INDEX["covered_by_enemy"]
_HELPERS: Final = _INDEX["queen_helpers"]
_QUEEN_CAN_MOVE: Final = _INDEX["queen_can_move"]
_QUEEN_STUCK_RING: Final = _INDEX["queen_stuck_ring"]
_QUEEN_IN_HAND_LATE: Final = _INDEX["queen_in_hand_late"]
_ATTACKER_MOBILE: Final = _INDEX["attacker_mobile"]
_ATTACKER_PINNED: Final = _INDEX["attacker_pinned"]
_PILLBUG_GUARD: Final = _INDEX["pillbug_guard"]
_ENEMY_DROP_CELLS: Final = _INDEX["enemy_drop_cells"]
_TEMPO: Final = _INDEX["tempo"]
_RING_OF_IMMOBILE: Final = _INDEX["ring_of_immobile_queen"]
_CLOSING_ON_IMMOBILE: Final = _INDEX["closing_on_immobile_queen"]
_REACH_OF_IMMOBILE: Final = _INDEX["reach_of_immobile_queen"]
_COUNT: Final = len(FEATURES)
_WINS = (GameState.WHITE_WINS, GameState.BLACK_WINS)
REACH_WEIGHT = 40
"""Score units per empty cell beside an immobile queen that a free piece can fill in a move."""
_MOBILE_MOSQUITO: Final = _MOBILE[_MOSQUITO]
# A colour with none of these counts has no piece on the board that can move.
_MOVERS: Final = (
    *(index for index in _MOBILE if index >= 0),
    _MOSQUITO_AS_ANT,
    _MOSQUITO_AS_CLIMBER,
    _ON_TOP,
    _QUEEN_CAN_MOVE,
)

# fmt: off
WEIGHTS: tuple[int, ...] = (
    # mobile_: spider beetle grasshopper ant mosquito ladybug pillbug dragonfly
    42, 34, 23, 44, 11, 40, 19, 40,
    # mosquito_as_ant, mosquito_as_climber
    41, 39,
    # in_hand_: spider beetle grasshopper ant mosquito ladybug pillbug dragonfly
    43, -12, 24, 2, -54, -14, -37, 24,
    # queen_ring_0..5 (cells filled around one's own queen)
    0, 68, 21, 9, -13, -85,
    # threat_0..5 (pieces ready to fill, by the cells already filled around the enemy queen)
    0, 23, 17, 15, 20, 69,
    # on_top, beetle_on_enemy_queen, covered_by_own, covered_by_enemy
    111, 61, -58, 17,
    # queen_helpers, queen_can_move, queen_stuck_ring, queen_in_hand_late
    5, -46, -26, -40,
    # attacker_mobile, attacker_pinned, pillbug_guard, enemy_drop_cells, tempo
    45, 38, 35, -7, 26,
    # ring_of_immobile_queen, closing_on_immobile_queen, reach_of_immobile_queen (set by
    # hand, not fitted: see feature_counts)
    60, 4, REACH_WEIGHT,
)
# fmt: on
"""Weight of each feature in :data:`FEATURES` (score units per count), for games with expansion
bugs."""

BASE_WEIGHTS: tuple[int, ...] = WEIGHTS
"""The weights for Base (no expansion bug): for now those of :data:`WEIGHTS`. Two refits on
engine games of Base (the corpus has none) predicted those games' results better but did not win
more games against nokamute; docs/benchmarks.md has the figures."""


def weights_for(game_type: GameType) -> tuple[int, ...]:
    """The weights :func:`evaluate` uses in games of ``game_type``."""
    return WEIGHTS if game_type.expansions else BASE_WEIGHTS


WIN_CHANCE_SCALE = 131.5
"""The logistic's scale: a score ``s`` (side to move) wins with probability
``1 / (1 + exp(-s / WIN_CHANCE_SCALE))``. Fitted by ``benchmarks/ai_tune.py --check`` (the
current weights, every position from ply 8 of half the 6,368 BoardGameArena games: 139,387
positions, log-loss 0.534 on those fitted, 0.518 on the tenth held out)."""


def win_chance(score: int) -> float:
    """The side to move's expected result (0 lost .. 1 won; a draw counts half) for a score of
    :func:`evaluate` or of a search, by the fitted logistic (:data:`WIN_CHANCE_SCALE`).

    A search's proven result (beyond :data:`MATE_BOUND`) is certain: exactly 1.0 or 0.0.
    """
    if score > MATE_BOUND:
        return 1.0
    if score < -MATE_BOUND:
        return 0.0
    # Clamped so that exp() cannot overflow on a big static score.
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, score / WIN_CHANCE_SCALE))))


_CAN_SLIDE: Final[tuple[bool, ...]] = tuple(bool(steps) for steps in SLIDE_STEPS)
"""By the mask of occupied neighbours: could a ground piece there make one slide (ignoring the
one-hive rule)?"""


def feature_counts(game: Game) -> tuple[list[int], list[int]]:
    """The feature counts of White and of Black (see :data:`FEATURES`).

    Written for speed, pure and compiled (the evaluation is the search's biggest cost): one pass
    over the occupied cells, tables instead of calls, the pinned cells as the game keeps them
    (derived from the last position's, or from the cache by the hive's shape), and constants the
    compiled build inlines.
    """
    # The board as the dict it is: the compiled build then reads it without the generic
    # Mapping protocol. Nothing here writes to it.
    stacks = cast("dict[int, list[int]]", game.stacks)
    cells = game.piece_cells
    pinned = game.pinned_cells()
    bug_of = BUG_OF
    can_slide = _CAN_SLIDE
    reach = _REACH
    distance = _DISTANCE
    neighbor_set = _NEIGHBOR_SET
    white = [0] * _COUNT
    black = [0] * _COUNT
    white_queen = cells[0]
    black_queen = cells[16]
    threats = [0, 0]  # free pieces not yet beside the enemy queen that could get there soon
    closing = [0, 0]  # how near the free pieces not beside the enemy queen are to it

    for cell, stack in stacks.items():
        top = stack[-1]
        if top >> 4:
            color = 1
            mine = black
            enemy_queen = white_queen
            own_queen = black_queen
        else:
            color = 0
            mine = white
            enemy_queen = black_queen
            own_queen = white_queen
        if len(stack) > 1:
            # On top of the hive: free to step; everything beneath is covered.
            theirs = white if color else black
            for buried in stack[:-1]:
                if buried >> 4 == color:
                    mine[_COVERED_BY_OWN] += 1
                else:
                    theirs[_COVERED_BY_ENEMY] += 1
            mine[_ON_TOP] += 1
            if cell == enemy_queen:
                mine[_BEETLE_ON_QUEEN] += 1
            elif enemy_queen >= 0:
                away = distance.get(cell - enemy_queen, _FAR)
                if away == 1:
                    mine[_ATTACKER_MOBILE] += 1
                else:
                    closing[color] += _FAR - away
                    if away == 2:
                        threats[color] += 1
            if own_queen >= 0 and (cell - own_queen) in neighbor_set:
                mine[_HELPERS] += 1
            continue
        bug = bug_of[top]
        if bug == _QUEEN:
            continue  # scored below, with the queen's surroundings
        if cell in pinned:
            mobile = False
        elif bug in _SLIDERS:
            mobile = can_slide[neighbor_mask(stacks, cell)]
        else:
            mobile = True
        if mobile:
            if bug == _MOSQUITO:
                bug = _mosquito_as(stacks, cell)
                if bug == _ANT:
                    mine[_MOSQUITO_AS_ANT] += 1
                elif bug == _BEETLE:
                    mine[_MOSQUITO_AS_CLIMBER] += 1
                elif bug >= 0:
                    mine[_MOBILE_MOSQUITO] += 1
                else:
                    mobile = False
                    bug = _MOSQUITO
            else:
                mine[_MOBILE[bug]] += 1
        if own_queen >= 0 and (cell - own_queen) in neighbor_set:
            if mobile:
                mine[_HELPERS] += 1
            if bug == _PILLBUG:
                mine[_PILLBUG_GUARD] += 1
        if enemy_queen >= 0:
            away = distance.get(cell - enemy_queen, _FAR)
            if away == 1:
                mine[_ATTACKER_MOBILE if mobile else _ATTACKER_PINNED] += 1
            elif mobile:
                closing[color] += _FAR - away
                if bug == _ANT or away <= reach[bug]:
                    threats[color] += 1

    placed = game.placed_counts
    white_in_hand = _count_in_hand(white, placed, game.game_type.bugs, 0)
    black_in_hand = _count_in_hand(black, placed, game.game_type.bugs, 16)
    ply = game.ply
    for color in (0, 1):
        if color:
            mine, other = black, white
            queen = black_queen
            other_in_hand = white_in_hand
        else:
            mine, other = white, black
            queen = white_queen
            other_in_hand = black_in_hand
        if queen < 0:
            if ply >= 6:
                mine[_QUEEN_IN_HAND_LATE] += 1
            continue
        filled = 0
        drops = 0
        # Cells as the objects neighbor_ring keeps: compiled, none is boxed again to be looked up.
        board = cast("dict[object, list[int]]", stacks)
        for around in neighbor_ring(queen):
            if around in board:
                filled += 1
            elif _enemy_may_drop(board, around, color):
                drops += 1
        mine[_QUEEN_RING + min(filled, 5)] += 1
        if other_in_hand or not placed[(color ^ 1) << 4 | _QUEEN]:
            mine[_ENEMY_DROP_CELLS] += drops
        if (
            len(stacks[queen]) == 1
            and queen not in pinned
            and can_slide[neighbor_mask(stacks, queen)]
        ):
            mine[_QUEEN_CAN_MOVE] += 1
        else:
            mine[_QUEEN_STUCK_RING] += filled
        # Threats against this queen belong to the other colour, by how filled it already is.
        usable = min(threats[color ^ 1], 6 - filled)
        if usable and filled < 6:
            other[_THREAT + min(filled, 5)] += usable
        if not _can_move(mine):
            # Nothing of this colour can move (in hand, the hive allowing, it may still place):
            # the other side has all the time it needs, and only filling the ring around this
            # queen brings the game to an end. The fitted weights score the mobility the other
            # side would give up doing so; these terms, set by hand, outweigh it and draw its
            # free pieces nearer, so a won position is played out instead of shuffled to the
            # move limit.
            other[_RING_OF_IMMOBILE] += filled
            other[_CLOSING_ON_IMMOBILE] += closing[color ^ 1]
            # Counting pieces near the ring is not enough: its last cells are often gated, and
            # a fill that sets a defender free loses the terms above; what brings the end
            # nearer is a piece that can fill a cell and keep the defender pinned.
            other[_REACH_OF_IMMOBILE] += ring_reach(game, color ^ 1)
    (black if ply & 1 else white)[_TEMPO] += 1
    return white, black


def _count_in_hand(counts: list[int], placed: Sequence[int], bugs: Sequence[Bug], base: int) -> int:
    """Adds the pieces of one colour (``base``: its colour << 4) still in hand, bar the queen,
    to its ``counts``; returns how many there are."""
    in_hand = 0
    for bug in bugs:
        if bug != _QUEEN:
            left = BUG_COUNT_BY_VALUE[bug] - placed[base | bug]
            if left:
                counts[_IN_HAND[bug]] += left
                in_hand += left
    return in_hand


def _can_move(counts: list[int]) -> bool:
    """Whether a colour with these feature counts has a piece on the board that can move."""
    return any(counts[index] for index in _MOVERS)


def ring_reach(game: Game, color: int) -> int:
    """How many empty cells beside the enemy queen ``color`` can fill, one move each, without
    setting the enemy (who can only pass) free: the smaller of the cells such fills reach and
    the pieces that make them (a fill that surrounds the queen counts too). Plays each fill on
    ``game`` and takes it back: the rules' own move generation, affordable only in the
    endgames where it is asked for, where one side has stopped moving."""
    passed = game.ply & 1 != color
    if passed:
        game.push_code(PASS_CODE)
    try:
        cells: set[int] = set()
        pieces: set[int] = set()
        win = _WINS[color]
        for code in filling_moves(game):
            game.push_code(code)
            try:
                state = game.state
                safe = state is win or (
                    state is GameState.IN_PROGRESS and game.legal_move_codes() == [PASS_CODE]
                )
            finally:
                game.pop_code()
            if safe:
                cells.add(code >> 6)
                pieces.add(code & 31)
    finally:
        if passed:
            game.pop_code()
    return min(len(cells), len(pieces))


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


def _mosquito_as(stacks: dict[int, list[int]], cell: int) -> int:
    """The bug a free Mosquito on the ground moves as, by the neighbour that lends the most: an
    ant, else a climber (as ``_BEETLE``), else any other bug; -1 when only Mosquitoes touch it."""
    best = -1
    for step in NEIGHBOR_OFFSETS:
        near = stacks.get(cell + step)
        if near is not None:
            kind = BUG_OF[near[-1]]
            if kind == _ANT:
                return _ANT
            if kind in _CLIMBERS:
                best = _BEETLE
            elif kind != _MOSQUITO and best < 0:
                best = kind
    return best


def _enemy_may_drop(board: dict[object, list[int]], cell: object, color: int) -> bool:
    """Could the opponent of ``color`` place a new piece on the empty ``cell``?"""
    enemy_touch = False
    for around in neighbor_ring(cell):
        near = board.get(around)
        if near is not None:
            if near[-1] >> 4 == color:
                return False
            enemy_touch = True
    return enemy_touch


def evaluate(game: Game, weights: tuple[int, ...] | None = None) -> int:
    """The static score of ``game`` for the player to move (positive: good for them), with
    ``weights`` or those of the game's type (:func:`weights_for`)."""
    if weights is None:
        weights = weights_for(game.game_type)
    mine, theirs = feature_counts(game)
    if game.ply & 1:
        mine, theirs = theirs, mine
    # A loop the compiled build runs natively (most counts are 0 on both sides).
    score = 0
    for index, weight in enumerate(weights):
        count = mine[index]
        other = theirs[index]
        if count != other:
            score += weight * (count - other)
    return score


_NEIGHBOR_SET: Final = frozenset(NEIGHBOR_OFFSETS)
_CLIMBERS: Final = frozenset({_BEETLE, _LADYBUG, _DRAGONFLY})


_CLOSENESS_RADIUS: Final = 8
_FAR: Final = _CLOSENESS_RADIUS + 1
_DISTANCE: Final[dict[int, int]] = {
    pack(h) - ORIGIN_CELL: h.distance(ORIGIN) for h in hexagon(_CLOSENESS_RADIUS)
}
"""Packed offsets from a queen up to 8 cells away → their distance (beyond: ``_FAR``). A piece
2..8 cells away scores ``_FAR - distance`` (7..1) of closeness: nearer scores more."""
_REACH_BY_BUG = {
    _BEETLE: 2,
    _MOSQUITO: 2,
    _LADYBUG: 3,
    _DRAGONFLY: 3,
    _SPIDER: 3,
    _GRASSHOPPER: 3,
    _PILLBUG: 2,
}
_REACH: Final[tuple[int, ...]] = tuple(_REACH_BY_BUG.get(bug, 0) for bug in range(max(_BUGS) + 1))
"""By bug: the farthest distance from a queen (2 or 3) from which it could reach a cell beside it
soon; 0 for none (an ant: anywhere, counted apart)."""
