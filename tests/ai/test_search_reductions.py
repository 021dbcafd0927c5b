"""Late-move reductions must not hide a surround: a fill beside a crowded queen is not reduced.

The position is game 44 of the 2026-11-27 device match (panal White, against nokamute depth 4;
``benchmarks/results/2026-11-27-device/d4-base-mlp``) before White's 24th move. White played
``wB1 bA2\\`` and lost in two: ``bB1 bG1-`` brings White's queen to five occupied neighbours, and
after any reply ``bG2 bA1-`` (or ``bG3 bA1-``) fills the sixth. Black has five other moves beside
or onto White's queen. When Black's history favours three of them, as the history carried over
from panal's earlier searches in that game did, ``bB1 bG1-`` comes fifth at the node after
White's move, was searched a ply short by the late-move reduction and the depth-4 search scored
the losing move +41 (docs/benchmarks.md, "A loss hidden by a reduction").
"""

from __future__ import annotations

from panal.ai.evaluation import MATE_BOUND
from panal.ai.search import Searcher
from panal.hive import Game

GAME_44_BEFORE_PLY_47 = (
    "Base+MLP;InProgress;White[24];wA1;bA1 wA1-;wM /wA1;bP bA1-;wP \\wA1;bQ bP\\;wQ \\wP;"
    "bM bA1\\;wA2 /wP;bM /wQ;wA2 bQ-;bM -wQ;wA3 /wP;bL -bM;wM \\bL;bA2 \\bP;wL wA2\\;bA2 wL\\;"
    "wA3 bQ\\;bA3 bP/;wB1 wA2-;bA3 wB1/;wB2 /wA3;bA2 bP-;wL \\bA2;bQ -wL;wL bQ/;bG1 bL\\;"
    "wB2 wA3;bG1 \\wQ;wB2 wA2;bS1 \\bG1;wA3 bS1/;bB1 bL\\;wG1 wL-;bB1 bM;wG1 -wL;bB1 wQ;"
    "wB2 bA2-;bA3 bB1-;wA1 \\wG1;bA1 bM\\;wP bA1\\;bG2 bL\\;wA2 bA3\\;bG3 /bL"
)
LOSING_MOVE = "wB1 bA2\\"
FAVOURED_FILLS = ("bG2 bA1-", "bB1 bA1-", "bG3 bA1-")  # beside White's queen, not the threat


def played_score(history_weight: int) -> int:
    game = Game.from_game_string(GAME_44_BEFORE_PLY_47)
    losing = game.parse_move_code(LOSING_MOVE)
    after = game.copy()
    after.push_code(losing)
    searcher = Searcher()
    searcher.history = {after.parse_move_code(move): history_weight for move in FAVOURED_FILLS}
    # A node limit makes the search selective (reductions on); depth 4 sees the surround.
    lines = searcher.search_lines(game, 1, depth=4, node_limit=10**7, also=losing)
    return next(line.score for line in lines if line.code == losing)


def test_the_threat_is_not_reduced_whatever_the_history_says() -> None:
    assert played_score(2_000) < -MATE_BOUND
