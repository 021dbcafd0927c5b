"""Hive: rules, notation and game records.

>>> from panal.hive import Game
>>> game = Game("Base+MLP", tournament_opening=True)
>>> game.push("wS1")
Move(wS1, (0, 0))
>>> game.push("bG1 wS1-")
Move(bG1, (1, 0))
>>> len(game.legal_moves())
24
>>> str(game)
'Base+MLP;InProgress;White[2];wS1;bG1 wS1-'
"""

from panal.hive.game import (
    PASS,
    Game,
    GameState,
    GameStringError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)
from panal.hive.options import (
    OPTION_SPECS,
    DragonflyCarry,
    DragonflySidestep,
    Options,
    OptionsError,
    OptionSpec,
)
from panal.hive.pieces import Bug, Color, GameType, GameTypeError, Piece

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
    "Move",
    "OptionSpec",
    "Options",
    "OptionsError",
    "Piece",
]
