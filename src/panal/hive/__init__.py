"""Hive: rules, notation, positions and game records.

>>> from panal.hive import Game
>>> game = Game("Base+MLP", tournament_opening=True)
>>> game.push("wS1")
Move(wS1, (0, 0))
>>> game.push("bG1 wS1-")
Move(bG1, (1, 0))
>>> len(game.legal_moves)
24
>>> game.game_string()
'Base+MLP;InProgress;White[2];wS1;bG1 wS1-'

The modules, from the leaves up: :mod:`~panal.hive.pieces` (colours, bugs, pieces, game types),
:mod:`~panal.hive.codes` (moves as ints), :mod:`~panal.hive.errors`, :mod:`~panal.hive.options`,
:mod:`~panal.hive.outcome`, :mod:`~panal.hive.move`, :mod:`~panal.hive.movement` (how each bug
moves), :mod:`~panal.hive.notation` (UHP), :mod:`~panal.hive.rules` (why a move is illegal),
:mod:`~panal.hive.setup` and :mod:`~panal.hive.board_text` (positions without moves),
:mod:`~panal.hive.svg` and :mod:`~panal.hive.names` (pictures and names), then
:mod:`~panal.hive.game`, and on top :mod:`~panal.hive.records` (SGF, PGN, GameString files).
"""

from panal.hive.errors import (
    GameStringError,
    GameTypeError,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    RecordError,
    Rule,
)
from panal.hive.game import Game, LegalMoves
from panal.hive.move import PASS, Move
from panal.hive.options import (
    OPTION_SPECS,
    DragonflyCarry,
    DragonflySidestep,
    Options,
    OptionsError,
    OptionSpec,
)
from panal.hive.outcome import GameState, Outcome, Termination
from panal.hive.pieces import Bug, Color, GameType, Piece

__all__ = [
    "OPTION_SPECS",
    "PASS",
    "Bug",
    "Color",
    "DragonflyCarry",
    "DragonflySidestep",
    "Game",
    "GameState",
    "GameStringError",
    "GameType",
    "GameTypeError",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "OptionSpec",
    "Options",
    "OptionsError",
    "Outcome",
    "Piece",
    "PositionError",
    "RecordError",
    "Rule",
    "Termination",
]
