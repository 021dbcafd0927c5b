"""How each bug moves: one small function per bug over a shared toolbox.

Every function takes ``stacks`` (packed cell → pieces bottom to top) *with the moving piece already
lifted off the board* and the cell it starts from, and returns destination cells. The caller has
already applied the one-hive rule for lifting the piece (articulation points) and every rule that
is not about movement geometry (queen placed, frozen piece, …).

Freedom to move: a ground slide from ``a`` to its neighbour ``b`` passes between the two cells
both touch (the gate). It is blocked when both are occupied, and impossible when neither is (the
piece would leave the hive mid-move). A step that climbs or descends is blocked only when both gate
stacks are higher than the higher of the two ends (``height_gate_open``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final, cast

from panal.hex import NEIGHBOR_OFFSETS, STRIDE, neighbor_ring
from panal.hive.pieces import Bug

# The board as the movers read it: the game's own dict (typed as such, the compiled build reads it
# without the generic Mapping protocol; none of them writes to it). Functions that others call
# with the game's read-only view (``Game.stacks``) take a ``Board``.
Stacks = dict[int, list[int]]
Board = Mapping[int, Sequence[int]]

# Per direction: (step, gate cell anticlockwise, gate cell clockwise), as packed offsets.
GATES: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (NEIGHBOR_OFFSETS[d], NEIGHBOR_OFFSETS[(d - 1) % 6], NEIGHBOR_OFFSETS[(d + 1) % 6])
    for d in range(6)
)


_E: Final = NEIGHBOR_OFFSETS[0]
_SE: Final = NEIGHBOR_OFFSETS[1]
_SW: Final = NEIGHBOR_OFFSETS[2]
_W: Final = NEIGHBOR_OFFSETS[3]
_NW: Final = NEIGHBOR_OFFSETS[4]
_NE: Final = NEIGHBOR_OFFSETS[5]


def neighbor_mask(stacks: Stacks, cell: int) -> int:
    """Bit ``d`` set when the neighbour in direction ``d`` is occupied (unrolled: a hot path)."""
    return (
        ((cell + _E) in stacks)
        | ((cell + _SE) in stacks) << 1
        | ((cell + _SW) in stacks) << 2
        | ((cell + _W) in stacks) << 3
        | ((cell + _NW) in stacks) << 4
        | ((cell + _NE) in stacks) << 5
    )


def _slide_steps(mask: int) -> tuple[int, ...]:
    """Offsets of the slides open from a cell whose occupied neighbours are ``mask``."""
    return tuple(
        NEIGHBOR_OFFSETS[d]
        for d in range(6)
        if not mask >> d & 1 and (mask >> (d - 1) % 6 & 1) != (mask >> (d + 1) % 6 & 1)
    )


# Ground slides depend only on which of the six neighbours are occupied: tabulate all 64 cases,
# as offsets and as directions.
SLIDE_STEPS: Final[tuple[tuple[int, ...], ...]] = tuple(_slide_steps(mask) for mask in range(64))
SLIDE_DIRECTIONS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(NEIGHBOR_OFFSETS.index(step) for step in steps) for steps in SLIDE_STEPS
)


def slides(stacks: Stacks, cell: int) -> list[int]:
    """Empty neighbours reachable by one ground slide that keeps contact with the hive."""
    return [cell + step for step in SLIDE_STEPS[neighbor_mask(stacks, cell)]]


def height_of(stacks: Stacks, cell: int) -> int:
    stack = stacks.get(cell)
    return len(stack) if stack else 0


def height_gate_open(stacks: Stacks, cell: int, gate: tuple[int, int, int], level: int) -> bool:
    """Can a piece standing on ``level`` pieces at ``cell`` step through ``gate``?

    ``level`` is the height of the stack under the moving piece (0 on the ground).
    """
    step, left, right = gate
    target = stacks.get(cell + step)
    target_height = len(target) if target else 0
    left_stack = stacks.get(cell + left)
    right_stack = stacks.get(cell + right)
    left_height = len(left_stack) if left_stack else 0
    right_height = len(right_stack) if right_stack else 0
    if level == 0 and target_height == 0:
        return (left_height == 0) is not (right_height == 0)
    return min(left_height, right_height) <= max(level, target_height)


_EMPTY: Final[list[int]] = []
# Per direction: (step, index of the anticlockwise gate cell, index of the clockwise one).
_STEP_AND_GATE_INDEXES: Final = tuple((NEIGHBOR_OFFSETS[d], d - 1, (d + 1) % 6) for d in range(6))


def climbs(stacks: Stacks, cell: int, level: int) -> list[int]:
    """Neighbours (empty or occupied) one beetle step away from ``level`` at ``cell``.

    The same test as ``height_gate_open`` for all six directions, reading each height once.
    """
    get = stacks.get
    heights = [len(get(cell + step, _EMPTY)) for step in NEIGHBOR_OFFSETS]
    out = []
    for d, (step, left, right) in enumerate(_STEP_AND_GATE_INDEXES):
        target, left_height, right_height = heights[d], heights[left], heights[right]
        if level == 0 and target == 0:
            if (left_height == 0) is not (right_height == 0):
                out.append(cell + step)
        elif min(left_height, right_height) <= max(level, target):
            out.append(cell + step)
    return out


def touches_hive(stacks: Stacks, cell: int) -> bool:
    return any(cell + step in stacks for step in NEIGHBOR_OFFSETS)


def articulation_points(stacks: Board) -> set[int]:
    """Cells whose removal would split the hive (Tarjan's algorithm).

    A piece alone on such a cell is pinned by the one-hive rule. Computed once per position.
    The cells are numbered first, so that the search itself works on lists of small ints (fast
    when compiled); it recurses at most as deep as there are pieces (28).
    """
    if len(stacks) < 3:
        return set()
    cells = list(stacks)
    neighbors = _neighbors_on_grid(cells)
    if neighbors is None:
        # Keyed by object, the neighbours read as objects: compiled, no int boxed per test.
        number: dict[object, int] = {cell: i for i, cell in enumerate(cells)}
        neighbors = [
            [number[near] for near in neighbor_ring(cell) if near in number] for cell in cells
        ]
    order = [-1] * len(cells)  # visiting order; -1 while unvisited
    low = [0] * len(cells)  # lowest order reachable through the subtree and one back edge
    points: list[int] = []
    _visit(0, -1, 0, neighbors, order, low, points)
    return {cells[i] for i in points}


# A hive is connected, so it spans fewer rows and columns than it has pieces: on a grid of its
# own size (and a margin of one all round) each cell finds its neighbours by list index, without
# hashing. A board that is not connected (a set-up being checked) may spread too far for that.
_GRID_LIMIT: Final = 4096
# The six directions as (rows, columns) steps of the packed cells, in NEIGHBOR_OFFSETS' order.
_ROW_COLUMN_STEPS: Final[tuple[tuple[int, int], ...]] = tuple(
    ((step + STRIDE // 2) // STRIDE, step - (step + STRIDE // 2) // STRIDE * STRIDE)
    for step in NEIGHBOR_OFFSETS
)


def _neighbors_on_grid(cells: list[int]) -> list[list[int]] | None:
    """The numbers (indexes in ``cells``) of each cell's occupied neighbours, in direction
    order; None when the cells spread over more than ``_GRID_LIMIT`` grid places. (Loops, not
    min and max over lists: compiled, the rows and columns are never boxed.)"""
    stride = STRIDE
    top = left = stride
    bottom = right = -1
    for cell in cells:
        row = cell // stride
        column = cell - row * stride
        if row < top:
            top = row
        if row > bottom:
            bottom = row
        if column < left:
            left = column
        if column > right:
            right = column
    width = right - left + 3
    area = (bottom - top + 3) * width
    if area > _GRID_LIMIT:
        return None
    # Origin one row and one column before the first: every neighbour lies on the grid.
    origin = (top - 1) * width + left - 1
    grid = [-1] * area
    for number, cell in enumerate(cells):
        row = cell // stride
        grid[row * width + cell - row * stride - origin] = number
    steps = [rows_step * width + columns_step for rows_step, columns_step in _ROW_COLUMN_STEPS]
    neighbors = []
    for cell in cells:
        row = cell // stride
        place = row * width + cell - row * stride - origin
        adjacent = []
        for step in steps:
            number = grid[place + step]
            if number >= 0:
                adjacent.append(number)
        neighbors.append(adjacent)
    return neighbors


def _visit(
    node: int,
    parent: int,
    counter: int,
    neighbors: list[list[int]],
    order: list[int],
    low: list[int],
    points: list[int],
) -> int:
    """Tarjan's depth-first step from ``node``; returns the next visiting order."""
    order[node] = lowest = counter
    counter += 1
    children = 0
    cut = False
    for neighbor in neighbors[node]:
        seen = order[neighbor]
        if seen < 0:
            counter = _visit(neighbor, node, counter, neighbors, order, low, points)
            children += 1
            below = low[neighbor]
            if below < lowest:
                lowest = below
            if below >= order[node]:
                cut = True  # that subtree reaches nothing above node: removing node cuts it off
        elif seen < lowest and neighbor != parent:
            lowest = seen
    low[node] = lowest
    if (cut and parent >= 0) or (parent < 0 and children > 1):
        points.append(node)
    return counter


# Pinned cells depend only on which cells are occupied, and the positions of a search or a perft
# share few shapes (placing any of several pieces on one cell gives one shape): cache them by
# shape, exactly (a frozenset, not a hash that could collide).
_PINNED_BY_SHAPE: Final[dict[frozenset[int], frozenset[int]]] = {}
_PINNED_CACHE_LIMIT: Final = 10_000  # about 30 MB at most


def pinned_cells(stacks: Board) -> frozenset[int]:
    """The articulation points of the hive's shape, from a bounded cache."""
    shape = frozenset(stacks)
    pinned = _PINNED_BY_SHAPE.get(shape)
    if pinned is None:
        if len(_PINNED_BY_SHAPE) >= _PINNED_CACHE_LIMIT:
            _PINNED_BY_SHAPE.clear()
        pinned = _PINNED_BY_SHAPE[shape] = frozenset(articulation_points(stacks))
    return pinned


def placement_cells(stacks: Stacks, color: int) -> list[int]:
    """Empty cells touching ``color``'s pieces on top and none of the other colour's (packed).
    (The first placement of the second player, next to the enemy's only piece, is the caller's
    exception.)"""
    # Cells as objects (neighbor_ring): compiled, none is boxed again to be tested against the
    # board and listed.
    own: set[object] = set()
    enemy: set[object] = set()
    for cell, stack in stacks.items():
        (own if stack[-1] >> 4 == color else enemy).update(neighbor_ring(cell))
    own -= enemy
    return cast(list[int], [near for near in own if near not in stacks])


# How many cells a colour may place on depends only on which cells are occupied and the colour on
# top of each, and the positions of a perft share few such shapes (the same cells, whichever bug
# was placed): its bulk count caches them by coloured shape, exactly, as the pinned cells. Not
# the cells themselves: a search meets too few shapes twice (37% of lookups hit, measured), and
# shared cells would need one order for every position of a shape (a set's order depends on the
# order its cells went in), which changes the order of the legal moves.
_PLACEMENT_COUNTS: Final[tuple[dict[frozenset[int], int], ...]] = ({}, {})
_PLACEMENT_COUNTS_LIMIT: Final = 10_000  # per colour


def placement_count(stacks: Stacks, color: int) -> int:
    """``len(placement_cells(stacks, color))``, from a bounded cache."""
    shape = frozenset([cell << 1 | stack[-1] >> 4 for cell, stack in stacks.items()])
    cache = _PLACEMENT_COUNTS[color]
    count = cache.get(shape)
    if count is None:
        if len(cache) >= _PLACEMENT_COUNTS_LIMIT:
            cache.clear()
        count = cache[shape] = len(placement_cells(stacks, color))
    return count


# --- The bugs -------------------------------------------------------------------------------


def queen_moves(stacks: Stacks, origin: int) -> list[int]:
    """One slide."""
    return slides(stacks, origin)


def beetle_moves(stacks: Stacks, origin: int) -> list[int]:
    """One step, onto the hive, across it or down from it."""
    return climbs(stacks, origin, height_of(stacks, origin))


def grasshopper_moves(stacks: Stacks, origin: int) -> list[int]:
    """A straight jump over one or more pieces to the first empty cell."""
    out = []
    for step in NEIGHBOR_OFFSETS:
        cell = origin + step
        if cell not in stacks:
            continue
        while cell in stacks:
            cell += step
        out.append(cell)
    return out


def spider_moves(stacks: Stacks, origin: int) -> set[int]:
    """Exactly three slides, never revisiting a cell (every path is enumerated)."""
    ends = set()
    for first in slides(stacks, origin):
        for second in slides(stacks, first):
            if second == origin:
                continue
            for third in slides(stacks, second):
                if third != first and third != origin:
                    ends.add(third)
    return ends


def ant_moves(stacks: Stacks, origin: int) -> set[int]:
    """Any number of slides around the hive.

    The flood keeps its cells as objects (``neighbor_ring``): compiled, no cell is boxed again
    for each test against the board and the cells seen.
    """
    seen: set[object] = {origin}
    frontier: list[object] = [origin]
    while frontier:
        ring = neighbor_ring(frontier.pop())
        mask = (
            (ring[0] in stacks)
            | (ring[1] in stacks) << 1
            | (ring[2] in stacks) << 2
            | (ring[3] in stacks) << 3
            | (ring[4] in stacks) << 4
            | (ring[5] in stacks) << 5
        )
        for direction in SLIDE_DIRECTIONS[mask]:
            target = ring[direction]
            if target not in seen:
                seen.add(target)
                frontier.append(target)
    seen.discard(origin)
    return cast(set[int], seen)


def ladybug_moves(stacks: Stacks, origin: int) -> set[int]:
    """Two steps on top of the hive, then one step down."""
    ends = set()
    for first in climbs(stacks, origin, 0):
        first_level = height_of(stacks, first)
        if not first_level:
            continue
        for second in climbs(stacks, first, first_level):
            second_level = height_of(stacks, second)
            if not second_level:
                continue
            for third in climbs(stacks, second, second_level):
                if third not in stacks and third != origin:
                    ends.add(third)
    return ends


def pillbug_moves(stacks: Stacks, origin: int) -> list[int]:
    """Its own step is the queen's; its throw is a rule of its own (``pillbug_throws``)."""
    return slides(stacks, origin)


_QUEEN: Final = int(Bug.QUEEN)
_SPIDER: Final = int(Bug.SPIDER)
_BEETLE: Final = int(Bug.BEETLE)
_GRASSHOPPER: Final = int(Bug.GRASSHOPPER)
_ANT: Final = int(Bug.ANT)
_LADYBUG: Final = int(Bug.LADYBUG)
_PILLBUG: Final = int(Bug.PILLBUG)


def moves(bug: int, stacks: Stacks, origin: int) -> Collection[int]:
    """Destinations of a ``bug`` (any but the Dragonfly, whose moves take the rule options)
    lifted off ``origin``. (A chain of tests, not a table of functions: the compiled build
    calls each function directly.)"""
    if bug == _ANT:
        return ant_moves(stacks, origin)
    if bug == _QUEEN:
        return queen_moves(stacks, origin)
    if bug == _BEETLE:
        return beetle_moves(stacks, origin)
    if bug == _GRASSHOPPER:
        return grasshopper_moves(stacks, origin)
    if bug == _SPIDER:
        return spider_moves(stacks, origin)
    if bug == _LADYBUG:
        return ladybug_moves(stacks, origin)
    if bug == _PILLBUG:
        return pillbug_moves(stacks, origin)
    raise ValueError(f"no move function for bug {bug}")


# The Dragonfly's sideways step, as turns (in 60° steps) from the direction of its jump.
FORWARD_TURNS: Final = (-1, 1)  # forward-left, forward-right
BACKWARD_TURNS: Final = (-2, 2)  # back-left, back-right


def dragonfly_moves(
    stacks: Stacks,
    origin: int,
    turns: tuple[int, ...] = FORWARD_TURNS,
    gaps: bool = False,
    contact: bool = False,
) -> set[int]:
    """A grasshopper jump, then one step to the side: ``turns`` from the jump's direction.

    It may land on any stack; on the ground it must touch the hive. It flies, so by default
    neither gaps nor contact matter on the way (docs/rules.md). ``gaps``: the step cannot pass
    between two stacks both higher than where it lands (on the ground: between two pieces).
    ``contact``: a step to the ground must pass along a piece, as a slide does.
    The landing is never the origin: it lies at least two cells away.
    """
    ends = set()
    for direction, step in enumerate(NEIGHBOR_OFFSETS):
        hover = origin + step
        if hover not in stacks:
            continue
        while hover in stacks:
            hover += step
        for turn in turns:
            side, left, right = GATES[(direction + turn) % 6]
            landing = hover + side
            below = height_of(stacks, landing)
            beside = (height_of(stacks, hover + left), height_of(stacks, hover + right))
            if gaps and min(beside) > below:
                continue
            if below or (max(beside) > 0 if contact else touches_hive(stacks, landing)):
                ends.add(landing)
    return ends


def throw_targets(stacks: Stacks, pillbug_cell: int) -> list[int]:
    """Neighbours from which a lone piece can climb onto the pillbug (height gate to level 1)."""
    return [
        pillbug_cell + step
        for step, left, right in GATES
        if len(stacks.get(pillbug_cell + step) or ()) == 1
        and min(height_of(stacks, pillbug_cell + left), height_of(stacks, pillbug_cell + right))
        <= 1
    ]


def throw_landings(stacks: Stacks, pillbug_cell: int) -> list[int]:
    """Empty neighbours a thrown piece can step down to from on top of the pillbug."""
    return [
        pillbug_cell + step
        for step, left, right in GATES
        if pillbug_cell + step not in stacks
        and min(height_of(stacks, pillbug_cell + left), height_of(stacks, pillbug_cell + right))
        <= 1
    ]
