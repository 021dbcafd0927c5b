"""Themes found automatically in a puzzle's solution.

Each theme is read off the position and the solution's moves, never guessed:

* ``finisher_<bug>``: the bug of the move that completes the surround (``finisher_ant``, ...);
  for a defence, ``defender_<bug>``, the bug of the saving move;
* ``placement``: a solution move of the solver's side puts a new piece on the board;
* ``beetle_drop``: a Beetle (or a Mosquito acting as one) comes down from the top of the hive;
* ``closed_cell_entry``: a Grasshopper, Ladybug or Dragonfly (or a Mosquito copying one) lands
  on a cell no piece could slide into (every way in is a closed gate or the cell is walled in);
* ``pillbug_throw``: a solution move moves one of the opponent's pieces (a Pillbug's power);
* ``mosquito_copy``: a solution move is made by a Mosquito;
* ``one_hive_pin``: after the first move, a piece of the side being surrounded that touches an
  empty cell around its own queen (or the queen itself) cannot move without splitting the hive;
* ``queen_escape_blocked``: the queen being surrounded could move before the first move and
  cannot after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Bug, Game
from panal.hive.codes import CARRY_FLAG, OFF_BOARD, PASS_CODE
from panal.hive.movement import pinned_cells
from panal.hive.pieces import BUG_OF

__all__ = ["THEMES", "find_themes", "is_closed_cell"]

_JUMPERS = frozenset({int(Bug.GRASSHOPPER), int(Bug.LADYBUG), int(Bug.DRAGONFLY)})

THEMES = (
    *(f"finisher_{bug.name.lower()}" for bug in Bug),
    *(f"defender_{bug.name.lower()}" for bug in Bug),
    "placement",
    "beetle_drop",
    "closed_cell_entry",
    "pillbug_throw",
    "mosquito_copy",
    "one_hive_pin",
    "queen_escape_blocked",
)
"""Every theme a puzzle can carry."""


def is_closed_cell(stacks: Mapping[int, Sequence[int]], cell: int) -> bool:
    """Whether no piece could slide into empty ``cell``: each empty neighbour is a closed gate
    (both cells beside the step are occupied) or there is none."""
    occupied = [cell + step in stacks for step in NEIGHBOR_OFFSETS]
    for direction in range(6):
        if occupied[direction]:
            continue
        if not (occupied[direction - 1] and occupied[(direction + 1) % 6]):
            return False
    return True


def _move_themes(game: Game, code: int, mover: int) -> set[str]:
    """Themes of one move by ``mover`` in ``game`` (before the move is played)."""
    if code == PASS_CODE:
        return set()
    found = set()
    piece = code & 31
    dest = code >> 6
    origin = game.piece_cells[piece]
    stacks = game.stacks
    bug = BUG_OF[piece]
    if origin == OFF_BOARD:
        found.add("placement")
        return found
    if piece >> 4 != mover:
        found.add("pillbug_throw")
    if bug == Bug.MOSQUITO:
        found.add("mosquito_copy")
    lands_on_ground = dest not in stacks
    if bug in (Bug.BEETLE, Bug.MOSQUITO) and len(stacks[origin]) > 1 and lands_on_ground:
        found.add("beetle_drop")
    jumper = bug in _JUMPERS or (bug == Bug.MOSQUITO and not code & CARRY_FLAG)
    hops = dest - origin not in NEIGHBOR_OFFSETS
    if jumper and lands_on_ground and hops and is_closed_cell(stacks, dest):
        found.add("closed_cell_entry")
    return found


def _queen_moves(game: Game, queen: int) -> int:
    return sum(1 for code in game.legal_move_codes() if code != PASS_CODE and code & 31 == queen)


def find_themes(game: Game, line: Sequence[int], kind: str) -> list[str]:
    """The themes of a puzzle: ``game`` is its position, ``line`` the solution's move codes
    (the solver's and the opponent's alternately, solver first), ``kind`` ``surround`` or
    ``defence``."""
    game = game.copy()
    solver_side = game.ply & 1
    found: set[str] = set()
    target_color = solver_side if kind == "defence" else solver_side ^ 1
    queen = target_color << 4
    # Could the target queen move before the first move? Ask on the target's own turn.
    queen_could_move = _queen_could_move(game, queen)
    last_bug = None
    for index, code in enumerate(line):
        mover = game.ply & 1
        if mover == solver_side:
            found |= _move_themes(game, code, mover)
            if code != PASS_CODE:
                last_bug = Bug(BUG_OF[code & 31])
        game.push_code(code)
        if index == 0:
            found |= _after_first_move(game, queen, queen_could_move)
    if last_bug is not None:
        prefix = "defender" if kind == "defence" else "finisher"
        found.add(f"{prefix}_{last_bug.name.lower()}")
    return sorted(found)


def _queen_could_move(game: Game, queen: int) -> bool:
    if game.piece_cells[queen] == OFF_BOARD:
        return False
    if game.ply & 1 == queen >> 4:
        return _queen_moves(game, queen) > 0
    game.push_code(PASS_CODE)  # only to ask the other side's moves; taken back at once
    try:
        return _queen_moves(game, queen) > 0
    finally:
        game.pop_code()


def _after_first_move(game: Game, queen: int, queen_could_move: bool) -> set[str]:
    found: set[str] = set()
    cell = game.piece_cells[queen]
    if cell == OFF_BOARD or game.is_over():
        return found
    stacks = game.stacks
    pinned = pinned_cells(stacks)
    if cell in pinned:
        found.add("one_hive_pin")
    else:
        empty = [cell + s for s in NEIGHBOR_OFFSETS if cell + s not in stacks]
        for near in empty:
            for step in NEIGHBOR_OFFSETS:
                stack = stacks.get(near + step)
                if (
                    stack
                    and len(stack) == 1
                    and stack[0] >> 4 == queen >> 4
                    and near + step in pinned
                ):
                    found.add("one_hive_pin")
    if queen_could_move and not _queen_could_move(game, queen):
        found.add("queen_escape_blocked")
    return found
