"""An exhaustive checker of puzzle claims, written apart from panal.puzzles.solver.

It shares nothing with the miner's solver but the rules engine (``legal_move_codes``,
``push_code``/``pop_code``, ``state``): a plain AND-OR search over every legal move, with no
table and no move ordering of the solver's. One fact of the game keeps it affordable: a move
fills at most one cell, its destination, so a move that leaves the enemy queen where it is can
surround it only when one cell around it is empty and the move goes there; the other moves that
can surround it move the queen itself (a Pillbug's or Mosquito's throw, a carry).

Every move is tried, but not in the order the engine lists them: the move that last decided a
node of the same depth (the defender's refutation, the attacker's win) is tried first, because
the same escape usually refutes the next attack too, and before the node's moves are generated
at all (``is_legal_code`` decides that one move): most nodes are decided by it, and generating
every move was most of the checker's time. The order decides only how soon a search stops,
never its answer: a node is refuted only by a reply found to hold, and proven only after every
reply has been tried.
"""

from __future__ import annotations

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Game, GameState, Piece
from panal.hive.codes import CARRY_FLAG, OFF_BOARD

WINS = {0: GameState.WHITE_WINS, 1: GameState.BLACK_WINS}
PILLBUG = Piece.wP.value
THROWERS = (Piece.wM.value, PILLBUG)  # slots: a Mosquito copies a Pillbug's throw
PILLBUGS = (Piece.wP.value, Piece.bP.value)
DRAGONFLY = Piece.wD.value


def _may_surround_now(game: Game) -> bool:
    """Whether a move of the mover might surround the enemy queen now: not while it is in hand,
    nor with two cells around it empty when nothing of the mover's can move it (a move fills
    one cell, its destination, so another stays empty unless the queen moves)."""
    cell = game.piece_cells[((game.ply & 1) ^ 1) << 4]
    if cell == OFF_BOARD:
        return False
    stacks = game.stacks
    empty = sum(cell + step not in stacks for step in NEIGHBOR_OFFSETS)
    return empty <= 1 or _may_move_queen(game, cell)


def _may_finish(game: Game) -> list[int]:
    """The mover's legal moves that could surround the enemy queen now (where
    ``_may_surround_now``). A move moves the queen only when it is the queen's own code (a
    throw) or a carry: so a move that leaves the queen where it is surrounds it only when the
    one empty cell around it is the move's destination."""
    queen = ((game.ply & 1) ^ 1) << 4
    cell = game.piece_cells[queen]
    stacks = game.stacks
    empty = [cell + step for step in NEIGHBOR_OFFSETS if cell + step not in stacks]
    last = empty[0] if len(empty) == 1 else None
    return [
        code
        for code in game.legal_move_codes()
        if code >= 0 and (code & 31 == queen or code & CARRY_FLAG or code >> 6 == last)
    ]


def _may_move_queen(game: Game, cell: int) -> bool:
    """Whether the mover might move the enemy queen (on ``cell``) at all: only a Dragonfly's
    carry does, or a throw, which lifts a lone piece over a thrower standing alone beside it:
    the mover's Pillbug, or its Mosquito when a Pillbug is beside the Mosquito to copy. A test
    that may say yes wrongly (it is then a move generation more) but never no wrongly."""
    cells = game.piece_cells
    if cells[DRAGONFLY] != OFF_BOARD or cells[16 | DRAGONFLY] != OFF_BOARD:
        return True
    stacks = game.stacks
    if len(stacks[cell]) > 1:
        return False
    mover = (game.ply & 1) << 4
    for slot in THROWERS:
        at = cells[mover | slot]
        if at == OFF_BOARD or at - cell not in NEIGHBOR_OFFSETS or len(stacks[at]) > 1:
            continue
        if slot == PILLBUG or any(cells[p] - at in NEIGHBOR_OFFSETS for p in PILLBUGS):
            return True
    return False


# The last deciding move by depth: the attacker's win, the defender's refutation.
_last_win: dict[int, int] = {}
_last_refutation: dict[int, int] = {}


def forces_win(game: Game, moves: int) -> bool:
    """The side to move surrounds the enemy queen within ``moves`` own moves, every defence
    tried."""
    if moves == 1 and not _may_surround_now(game):
        return False
    known = _last_win.get(moves)
    if known is not None and game.is_legal_code(known) and wins_by(game, known, moves):
        return True
    for code in _may_finish(game) if moves == 1 else game.legal_move_codes():
        if code != known and wins_by(game, code, moves):
            _last_win[moves] = code
            return True
    return False


def wins_by(game: Game, code: int, moves: int) -> bool:
    """Playing ``code`` first, the mover forces the surround within ``moves`` own moves."""
    mover = game.ply & 1
    game.push_code(code)
    try:
        if game.state is WINS[mover]:
            return True
        if game.state is not GameState.IN_PROGRESS or moves == 1:
            return False
        known = _last_refutation.get(moves)
        if known is not None and game.is_legal_code(known) and _refutes(game, known, moves):
            return False
        for reply in game.legal_move_codes():
            if reply != known and _refutes(game, reply, moves):
                _last_refutation[moves] = reply
                return False
        return True
    finally:
        game.pop_code()


def _refutes(game: Game, reply: int, moves: int) -> bool:
    """The defender's ``reply`` leaves the opponent no surround within ``moves - 1`` more own
    moves (a reply that surrounds the defender's own queen refutes nothing)."""
    attacker = (game.ply & 1) ^ 1
    game.push_code(reply)
    try:
        if game.state is WINS[attacker]:
            return False
        return game.state is not GameState.IN_PROGRESS or not forces_win(game, moves - 1)
    finally:
        game.pop_code()


def holds_by(game: Game, code: int, moves: int) -> bool:
    """After ``code`` the opponent has no forced surround within ``moves`` of its moves, and
    the move itself neither loses nor draws."""
    mover = game.ply & 1
    game.push_code(code)
    try:
        if game.state is not GameState.IN_PROGRESS:
            return game.state is WINS[mover]
        return not forces_win(game, moves)
    finally:
        game.pop_code()
