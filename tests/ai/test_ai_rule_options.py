"""The AI plays by the game's rule options: it searches the moves the game's options allow."""

from __future__ import annotations

import random

import pytest

from panal.ai import think
from panal.ai.evaluation import WIN
from panal.hex import Hex
from panal.hive import Game, GameState
from tests.hive.test_properties import DRAGONFLY_COMBINATIONS, _label

# bQ at (0,0) has five neighbours; the sixth, (1,-1), is reached only by wD: it jumps E over wG1
# to (2,-2) and steps SW, 120° from its jump, onto (1,-1). At 60° it steps to (2,-1) or (3,-3).
BOARD = {
    (0, 0): "bQ",
    (1, 0): "bB1",
    (0, 1): "bA1",
    (-1, 1): "bA2",
    (-1, 0): "wS1",
    (0, -1): "bA3",
    (1, -2): "wG1",
    (0, -2): "wD",
    (-2, 0): "wQ",
}


def test_the_ai_wins_with_a_backward_sidestep_only_when_the_rules_allow_it() -> None:
    backward = Game.from_board(BOARD, game_type="Base+D", dragonfly_sidestep="backward")
    result = think(backward, "medium", depth=1, seed=1)
    assert backward.move_string(result.code) == "wD bA3-"
    assert result.score >= WIN - 1
    backward.push_code(result.code)
    assert backward.state is GameState.WHITE_WINS

    forward = Game.from_board(BOARD, game_type="Base+D")
    result = think(forward, "medium", depth=1, seed=1)
    assert result.code in forward.legal_move_codes()
    assert forward.stack_at(Hex(1, -1)) == []
    assert result.score < WIN // 2


@pytest.mark.parametrize("options", DRAGONFLY_COMBINATIONS[::7], ids=_label)
def test_the_ai_only_plays_legal_moves_under_each_reading(options: object) -> None:
    """Short games of AI moves against random ones; ``think`` itself refuses an illegal
    choice, and every move is checked again against the game."""
    rng = random.Random(5)
    game = Game("Base+MLPD", options=options)  # type: ignore[arg-type]
    for ply in range(40):
        if game.is_over():
            break
        if ply % 2:
            code = rng.choice(game.legal_move_codes())
        else:
            code = think(game, "beginner", depth=1, seed=ply).code
        assert code in game.legal_move_codes()
        game.push_code(code)
