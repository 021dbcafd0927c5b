"""An exhaustive checker of puzzle claims, written apart from panal.puzzles.solver.

It shares nothing with the miner's solver but the rules engine (``legal_move_codes``,
``push_code``/``pop_code``, ``state``): a plain AND-OR search over every legal move, with no
table and no move ordering of the solver's. One fact of the game keeps it affordable: a move
fills at most one cell, so with two or more cells around the enemy queen empty, a move can only
surround it by moving the queen itself, which needs a piece of the mover's on top of the queen
(a carry) or a Pillbug or Mosquito beside it (a throw). Where that piece exists, every move is
tried.
"""

from __future__ import annotations

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Bug, Game, GameState
from panal.hive.codes import OFF_BOARD
from panal.hive.pieces import BUG_OF

WINS = {0: GameState.WHITE_WINS, 1: GameState.BLACK_WINS}
_MOVERS = {int(Bug.PILLBUG), int(Bug.MOSQUITO)}


def _immediate_win_impossible(game: Game) -> bool:
    mover = game.ply & 1
    queen = game.piece_cells[(mover ^ 1) << 4]
    if queen == OFF_BOARD:
        return True
    stacks = game.stacks
    around = [queen + step for step in NEIGHBOR_OFFSETS]
    if sum(cell not in stacks for cell in around) < 2:
        return False
    if len(stacks[queen]) > 1:
        return not any(p >> 4 == mover for p in stacks[queen][1:])
    return not any(
        p >> 4 == mover and BUG_OF[p] in _MOVERS for cell in around for p in stacks.get(cell, ())
    )


def forces_win(game: Game, moves: int) -> bool:
    """The side to move surrounds the enemy queen within ``moves`` own moves, every defence
    tried."""
    if moves == 1 and _immediate_win_impossible(game):
        return False
    return any(wins_by(game, code, moves) for code in list(game.legal_move_codes()))


def wins_by(game: Game, code: int, moves: int) -> bool:
    """Playing ``code`` first, the mover forces the surround within ``moves`` own moves."""
    mover = game.ply & 1
    game.push_code(code)
    try:
        if game.state is WINS[mover]:
            return True
        if game.state is not GameState.IN_PROGRESS or moves == 1:
            return False
        for reply in list(game.legal_move_codes()):
            game.push_code(reply)
            try:
                if game.state is WINS[mover]:
                    continue
                if game.state is not GameState.IN_PROGRESS or not forces_win(game, moves - 1):
                    return False
            finally:
                game.pop_code()
        return True
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
