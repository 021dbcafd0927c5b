"""A legal game of any length, for tests that need a huge record (built once per session)."""

from __future__ import annotations

import functools
import random

from panal.hive import Game


@functools.cache
def long_game_string(plies: int, seed: int = 3) -> str:
    """A Base game of ``plies`` random legal moves that never ends (no surrounded queen, no
    threefold repetition): what a hostile client could send to ``POST /api/import``."""
    rng = random.Random(seed)
    game = Game("Base")
    while game.ply < plies:
        codes = game.legal_move_codes()
        rng.shuffle(codes)
        for code in codes:
            game.push_code(code)
            if not game.state.is_over:
                break
            game.pop_code()
        else:
            raise RuntimeError("no move keeps the game going")
    return game.game_string()
