"""Opponents for the single-agent wrapper and the text-agent driver: a uniformly random mover,
panal's AI at any of its levels, or any Universal Hive Protocol engine.

An opponent is any callable ``game -> move`` (a :class:`~panal.hive.Move`, a move code or a
MoveString) that leaves ``game`` unchanged; :func:`make_opponent` builds the usual ones from a
short name:

>>> from panal.hive import Game
>>> from panal.env.hive_opponents import make_opponent
>>> game = Game("Base")
>>> code = make_opponent("random", seed=3)(game)  # a move code
>>> code in game.legal_move_codes(), game.move_string(code)
(True, 'wS1')
>>> make_opponent("medium", seed=1)  # panal.ai.LEVELS
AIOpponent('medium')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from panal.ai import LEVELS, choose_move
from panal.hive.game import Game
from panal.hive.move import Move
from panal.uhp.client import SimpleEngine

__all__ = [
    "AIOpponent",
    "Opponent",
    "RandomOpponent",
    "UhpOpponent",
    "make_opponent",
    "move_code",
]

Opponent = Callable[[Game], Move | int | str]
"""Anything that answers a position with a legal move (and leaves the game unchanged)."""


class RandomOpponent:
    """A uniformly random legal move (from its own seeded generator)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, game: Game) -> int:
        codes = game.legal_move_codes()
        if not codes:
            raise ValueError("the game is over: there is no move to choose")
        return codes[self.rng.randrange(len(codes))]

    def __repr__(self) -> str:
        return "RandomOpponent()"


class AIOpponent:
    """panal's AI at ``level`` (one of :data:`panal.ai.LEVELS`); ``seed`` makes a level's
    random choices repeatable (its node budgets make its strength machine-independent)."""

    def __init__(self, level: str = "medium", seed: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
        self.level = level
        self.rng = random.Random(seed)

    def __call__(self, game: Game) -> Move:
        return choose_move(game, self.level, seed=self.rng.randrange(2**31))

    def __repr__(self) -> str:
        return f"AIOpponent({self.level!r})"


class UhpOpponent:
    """Any UHP engine, started as ``command`` (``"nokamute uhp"``, ``"panal uhp"``…).

    Each move sends the whole game (``newgame <GameString>``), so the engine never falls out of
    step; ``time`` (seconds) or ``depth`` bounds its ``bestmove``. Close it (or use it as a
    context manager) to stop the engine. Engines see only standard UHP: rule options panal
    reads differently are not passed on.
    """

    def __init__(
        self, command: str, *, time: float | None = 1.0, depth: int | None = None, **popen: Any
    ) -> None:
        if (time is None) == (depth is None):
            raise ValueError("give the engine either a time (seconds) or a depth, not both")
        self.command = command
        self.time = time
        self.depth = depth
        self.engine = SimpleEngine.popen(command, **popen)

    def __call__(self, game: Game) -> str:
        self.engine.newgame(game.game_string())
        return self.engine.bestmove(time=self.time, depth=self.depth)

    def close(self) -> None:
        self.engine.quit()

    def __enter__(self) -> UhpOpponent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"UhpOpponent({self.command!r})"


def make_opponent(spec: str | Opponent, *, seed: int | None = None) -> Opponent:
    """``"random"``, a level of :data:`panal.ai.LEVELS`, ``"uhp:<command>"`` (a UHP engine
    thinking 1 s a move), or an opponent callable, returned as it is."""
    if callable(spec):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"an opponent is a name or a callable, not {spec!r}")
    if spec == "random":
        return RandomOpponent(seed)
    if spec in LEVELS:
        return AIOpponent(spec, seed)
    if spec.startswith("uhp:") and spec[4:].strip():
        return UhpOpponent(spec[4:].strip())
    raise ValueError(
        f"unknown opponent {spec!r}: 'random', one of {', '.join(LEVELS)}, or 'uhp:<command>'"
    )


def move_code(game: Game, move: Move | int | str) -> int:
    """An opponent's answer as a legal move code of ``game``; ``IllegalMoveError`` (a
    ``ValueError``) when it is not legal."""
    if isinstance(move, str):
        return game.parse_move_code(move)
    code = move.code if isinstance(move, Move) else move
    if code not in game.legal_move_codes():
        game.move_string(code)  # raises IllegalMoveError naming the rule
    return code
