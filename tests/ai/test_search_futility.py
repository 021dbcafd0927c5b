"""Reverse futility leaves alone a node whose side to move has its queen beside five pieces.

There the opponent may close the ring next, which the static score does not see: a search of
such a position falls below its static score by any margin (benchmarks/ai_futility.py: 5 of
51 positions; of 943 others, 1 at depth 1's margin and none at depth 2's)."""

from __future__ import annotations

from panal.ai import Searcher
from panal.hive import Game

# A BoardGameArena game after 40 plies, White to move (benchmarks/ai_search.py). White wins in
# three plies: `wM wB2` leaves Black's queen beside five pieces, and every Black move lets White
# fill the last cell. A depth-2 search sees it only if Black's reply, a depth-1 node, is searched:
# its static score is far above beta there, and reverse futility used to return it unsearched
# (2fe733e, margin 150, scored 136 and played `wB2 bB2-`).
WIN_IN_THREE = (
    r"Base+MLP;InProgress;White[21];wP;bL wP-;wQ \wP;bQ bL/;wM /wQ;bP bQ/;wA1 wM\;"
    r"bM bL-;wM bM-;bA1 bL\;wA1 /bA1;bA2 \bP;wS1 -wA1;bA3 bP-;wS1 wA1-;bA3 /wA1;"
    r"wA2 /wP;bA2 -wA2;wB1 wM/;bB1 -bP;wB1 wM;bB1 bQ;wB1 bM;bB1 wB1;wM bB1;bS1 \bA2;"
    r"wM bQ;bS1 \wQ;wM bP;bB2 bS1/;wB2 \wM;bB2 bS1-;wB2 bB2-;bL wM/;wG1 wS1\;bS2 \bB2;"
    r"wG1 wP-;bB2 wQ;wS1 bQ-;bB1 wS1"
)


def test_a_queen_beside_five_is_searched_not_pruned() -> None:
    game = Game.from_game_string(WIN_IN_THREE)
    result = Searcher().search(game, depth=2, exact_depth=False)
    assert result.is_win
    assert game.move_string(result.code) == "wM wB2"
