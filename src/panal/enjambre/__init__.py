"""Enjambre Tácticas: a 2–6 player game of hidden numbered tiles (rulebook 003).

The engine (:class:`Game`) keeps the secrets; players act on :class:`Observation` objects only.
"""

from .actions import (
    Action,
    Displace,
    EndTurn,
    IllegalActionError,
    Place,
    Scout,
    Step,
)
from .board import Board, CellKind, default_board
from .engine import Game, GameLog
from .observation import Observation
from .options import OPTION_SPECS, Options, OptionSpec
from .scoring import GameResult
from .state import Phase, PublicState

__all__ = [
    "OPTION_SPECS",
    "Action",
    "Board",
    "CellKind",
    "Displace",
    "EndTurn",
    "Game",
    "GameLog",
    "GameResult",
    "IllegalActionError",
    "Observation",
    "OptionSpec",
    "Options",
    "Phase",
    "Place",
    "PublicState",
    "Scout",
    "Step",
    "default_board",
]
