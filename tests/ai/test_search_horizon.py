"""At the search's horizon, a surround the side to move can make at once is a win, not a score.

The position came from a random Base+MLP game (seed 5, game 37, ply 62): White's queen has five
occupied neighbours, and 13 of White's 81 moves let Black fill the sixth cell next. A search of
depth 1 ends on Black's turn after each White move; the static evaluation prices a queen with
five neighbours at about one piece, so the previous search chose ``wB2`` onto ``wB1``, one of the
13, scoring it +43. The search now asks, at each leaf, whether the side to move can surround the
enemy queen with one move, and scores those leaves as the wins they are.
"""

from __future__ import annotations

from panal.ai.evaluation import MATE_BOUND
from panal.ai.search import Searcher
from panal.hive import Game, GameState

WHITE_QUEEN_AT_FIVE = (
    "Base+MLP;InProgress;White[32];wQ;bM \\wQ;wB1 wQ-;bQ -bM;wB1 bM-;bA1 /bQ;wB1 bM/;bS1 -bQ;"
    "wL wQ-;bP \\bS1;wS1 wL/;bA1 -wB1;wS1 wQ\\;bA1 bP/;wA1 wL-;bA2 /bS1;wM wS1-;bB1 bP-;"
    "wA2 wB1-;bA1 wA1/;wB2 \\wA2;bA3 bA2-;wP wS1\\;bA2 bA1/;wL wA2\\;bA3 /wQ;wG1 wB2/;"
    "bS1 \\bB1;wA2 /bP;bA3 wB1-;wM bQ\\;bS2 bA2/;wS2 -wA2;bG1 bA1-;wA1 -bS2;bS2 wG1/;"
    "wP /wS1;bG2 bS1/;wA1 -bS1;bA2 wA2\\;wG2 -wG1;bA2 /wP;wA3 wS2\\;bA2 \\wA1;wA3 \\bG1;"
    "bA2 wS1-;wA1 /wM;bG3 \\bS2;wA1 wA3-;bL bS2-;wA1 wA3/;bL \\bG3;wG3 wA2\\;bA2 -bG2;"
    "wA1 wB2-;bA2 bS1-;wB2 wB1;bS1 bG2/;wA3 wM\\;bB2 bS1/;wP wS1\\;bG1 bM-"
)


def black_surrounds_next(game: Game, code: int) -> bool:
    """After White's ``code``, can Black surround White's queen with one move?"""
    game.push_code(code)
    try:
        for reply in game.legal_move_codes():
            game.push_code(reply)
            won = game.state is GameState.BLACK_WINS
            game.pop_code()
            if won:
                return True
        return False
    finally:
        game.pop_code()


def test_every_move_that_lets_the_queen_be_surrounded_scores_as_lost_at_depth_one() -> None:
    game = Game.from_game_string(WHITE_QUEEN_AT_FIVE)
    codes = game.legal_move_codes()
    allowing = {code for code in codes if black_surrounds_next(game, code)}
    assert len(allowing) == 13 and len(codes) == 81
    # A node limit makes the search selective, as a timed one is; depth 1 ends on Black's turn.
    lines = Searcher().search_lines(game, len(codes), depth=1, node_limit=10**7)
    assert {line.code for line in lines} == set(codes)
    for line in lines:
        assert (line.score < -MATE_BOUND) == (line.code in allowing), game.move_string(line.code)


def test_a_depth_one_search_no_longer_plays_into_the_surround() -> None:
    game = Game.from_game_string(WHITE_QUEEN_AT_FIVE)
    result = Searcher().search(game, depth=1, node_limit=10**7)
    assert not black_surrounds_next(game, result.code), game.move_string(result.code)
    assert result.score > -MATE_BOUND
