"""What issue 24 added to the evaluation and search so that won positions are won, not drawn at
a move limit, and that the cheaper evaluation scores exactly what it scored before.
"""

from __future__ import annotations

import pytest

from panal.ai import Searcher
from panal.ai.evaluation import FEATURES, evaluate, feature_counts
from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Game, GameState
from panal.hive.codes import PASS_CODE

# A Base game from benchmarks/results/2026-11-26-base-1s (game 19), 176 plies: panal (Black) has
# covered White's queen with a beetle and nothing White has can move; it passed from here to the
# 300-ply limit while panal shuffled.
IMMOBILE_WHITE = (
    "wS1;bS1 \\wS1;wG1 /wS1;bA1 bS1/;wQ wG1\\;bQ -bS1;wA1 wG1-;bA2 /bQ;wA1 -bA2;bB1 \\bQ;"
    "wA2 wG1-;bA1 wQ\\;wA2 \\bB1;bA3 bA1-;wB1 wG1-;bA3 /wQ;wA3 wS1-;bB2 bA1-;wA3 bB1-;bB2 bA1;"
    "wB2 wS1-;bG1 bA3\\;wB2 wS1;bG1 /wG1;wB1 wG1;bB2 wQ-;wB1 bG1;bG2 bA1-;wA3 bG2-;bG3 bB1-;"
    "wA2 bG3/;bB1 bQ;wS2 wB2-;bS2 /bA3;wA2 \\bG3;bB1 \\bA2;wA1 /bA2;bS2 /wA1;wS2 wA2-;bB1 bQ;"
    "wA2 -bB1;bS2 -wA2;wB2 wG1;bB1 wA2;wG2 wS1-;bA3 wA3/;wG3 wG2-;bS2 /wA1;wG3 bA2-;bS1 wG2-;"
    "wB2 wA1-;bB2 wQ;wB1 bB2;bG1 wB1-;wB2 wG1;bA3 /wB2;wA3 bG2\\;bA3 wA3-;wB2 wS1\\;bA3 /wA3;"
    "wB2 bG1;bA3 wA3\\;wB2 wG1-;bA3 wA3-;wB2 bG1;bA3 /wA3;wB2 wG1-;bA3 wA3\\;wB2 bG1;bA3 /wB1;"
    "wA3 wG2\\;bG2 -bA3;wG1 -bG3;bA1 -wS2;wG1 bG3-;bA1 wG1-;wS2 bA1-;bS1 wS2-;wB2 bA3-;"
    "bS1 \\bA1;wB2 bA3;bG2 wB2-;wB1 bG2;bS1 wS2-;wB1 bB2;bS1 wG2-;wB1 bG1;bS1 bG2-;wB1 bG2;"
    "bB1 bQ;wA2 -bG3;bB1 wA2;wB1 bB2;bG2 wG2-;wB1 wB2-;bS1 bG2-;wB1 bB2;bS1 wS2/;wB1 wB2-;"
    "bB2 wB2;wB1 bG1\\;bB1 -bB1;wB1 bB2-;bB2 wQ;wB1 bB2;bG2 -bA2;wB2 wB2\\;bB1 \\wA2;wB2 /bA3;"
    "bB1 wA2;wB2 bA3\\;bG2 wG2-;wB2 bA3;bB1 -bB1;wB2 wB1;bA3 -wB2;wB2 wG3\\;bB1 wA2;wB2 wB1;"
    "bA3 wA3-;wB2 wS1\\;bG2 wB1\\;wB1 bG1;bA3 wA1-;wG2 -bA2;bA3 \\wG2;wA3 \\bA3;bB2 -bB2;"
    "wA3 bS2-;bB2 wA3;wQ -bG2;bS2 /wQ;wB1 bG2;bA3 -wG2;wB1 wQ;bA3 bS1-;wB1 bS2-;bA3 wB1\\;"
    "wQ bB2\\;bG2 wB2-;wG2 wS1-;bG2 wG3\\;wG2 -bA2;bG2 wG1\\;wG2 bS2\\;bA3 wB1-;wG1 wS2-;"
    "bS1 wG1\\;wG2 -bA2;bG3 /wA1;wG2 bS2\\;bG3 bB2-;wG2 -bA2;bG3 /wQ;wG2 bS2\\;bB2 wQ/;wG2 -bA2;"
    "bB2 wQ;wG2 wS1-;bG3 wA3-;wG2 -bA1;bB2 -bS2;wG2 wS1-;bA3 bG2-;wB1 bS2;bG2 \\wS2;wB1 bB2;"
    "bA1 bS1-;wB1 bS2;bA1 /wA3;wB1 bB2;bA1 bG1-;wB1 bS2;bB2 /wA3;wB1 wQ;bB2 wB1"
)

RING = FEATURES.index("ring_of_immobile_queen")
CLOSING = FEATURES.index("closing_on_immobile_queen")
REACH = FEATURES.index("reach_of_immobile_queen")


def _immobile_white() -> Game:
    game = Game("Base", tournament_opening=True, repetition_draw=False)
    for move in IMMOBILE_WHITE.split(";"):
        game.push(move)
    return game


def _ring(game: Game, queen: int) -> int:
    cell = game.piece_cells[queen]
    return sum(cell + step in game.stacks for step in NEIGHBOR_OFFSETS)


def test_a_side_that_cannot_move_scores_its_ring_for_the_other() -> None:
    game = _immobile_white()
    assert game.legal_move_codes() == [PASS_CODE]
    white, black = feature_counts(game)
    assert black[RING] == _ring(game, 0) == 3
    assert black[CLOSING] > 0
    assert white[RING] == white[CLOSING] == 0


def test_filling_the_ring_of_a_queen_that_cannot_escape_scores_more() -> None:
    game = _immobile_white()
    game.push_code(PASS_CODE)
    before = evaluate(game)
    game.push("bA1 bB2-")  # fills a cell beside White's queen; White still cannot move
    assert _ring(game, 0) == 4
    assert feature_counts(game)[1][RING] == 4
    assert -evaluate(game) > before  # evaluate is for the side to move: now White


def test_only_a_side_with_nothing_to_move_counts() -> None:
    game = Game("Base", tournament_opening=True)
    for move in ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]:
        game.push(move)
    white, black = feature_counts(game)
    assert white[RING] == black[RING] == white[CLOSING] == black[CLOSING] == 0


def test_a_forced_pass_costs_the_search_no_depth() -> None:
    """Against a side that can only pass, a selective search of N plies sees N of its own moves
    (an exact-depth search still counts every ply)."""
    game = _immobile_white()
    game.push_code(PASS_CODE)
    seen: list[int] = []

    def count_depth(position: Game) -> int:
        seen.append(position.ply - game.ply)
        return evaluate(position)

    Searcher(evaluator=count_depth).search(game, depth=2, node_limit=10**6)
    assert max(seen) == 3  # move, pass (free), move
    seen.clear()
    Searcher(evaluator=count_depth).search(game, depth=2)
    assert max(seen) == 2


# Positions met in searches of BoardGameArena mid-games and their scores, which the evaluation
# gave before it was rewritten for speed (checked equal on 4,000 such positions).
SCORES = [
    (
        (
            "Base+MLP;InProgress;Black[11];wG1;bL wG1\\;wM \\wG1;bQ bL\\;wQ /wM;bP bQ\\;wP -wQ;"
            "bA1 bP-;wA1 -wM;bA1 wM/;wA2 -wA1;bA2 bP-;wA2 bA2/;bA3 /bP;wA1 /bA3;bM /bQ;"
            "wL wP\\;bB1 /bL;wL wM-;bA1 \\wM;wA2 bQ-"
        ),
        -134,
    ),
    (
        (
            "Base+MLP;InProgress;Black[12];wG1;bL wG1\\;wM \\wG1;bQ bL\\;wQ /wM;bP bQ\\;wP -wQ;"
            "bA1 bP-;wA1 -wM;bA1 wM/;wA2 -wA1;bA2 bP-;wA2 bA2/;bA3 /bP;wA1 /bA3;bM /bQ;"
            "wL wP\\;bB1 /bL;wL wM-;bA1 \\wM;wB1 wA2/;bB1 wQ\\;wP /wQ"
        ),
        32,
    ),
    (
        (
            "Base+MLP;InProgress;Black[12];wG1;bL wG1\\;wM \\wG1;bQ bL\\;wQ /wM;bP bQ\\;wP -wQ;"
            "bA1 bP-;wA1 -wM;bA1 wM/;wA2 -wA1;bA2 bP-;wA2 bA2/;bA3 /bP;wA1 /bA3;bM /bQ;"
            "wL wP\\;bB1 /bL;wL wM-;bA1 \\wM;wA1 -bA1;bB1 wQ\\;wG1 \\bA1"
        ),
        -2,
    ),
    (
        (
            "Base+MLP;InProgress;Black[15];wP;bS1 \\wP;wM wP\\;bA1 -bS1;wQ /wP;bQ bS1/;wA1 wP-;"
            "bA1 /wQ;wM bQ/;bB1 -bA1;wA1 -bQ;bB1 bA1;wB1 wM-;bB1 wQ;wB1 bQ-;bA2 -bB1;wG1 wM-;"
            "bA3 bA1-;wG1 -wM;bM \\bA2;wG2 \\wG1;bA1 \\wG2;wG3 wM-;bA3 wG3/;wL wG2-;bM wL/;"
            "wB2 wB1-;bP bA2\\;wB2 wG3"
        ),
        -126,
    ),
    (
        (
            "Base+MLP;InProgress;White[17];wG1;bP \\wG1;wM wG1\\;bM \\bP;wQ /wG1;bQ bM-;"
            "wB1 wG1-;bA1 /bM;wB1 wG1;bA2 \\bQ;wP wQ\\;bA1 wM-;wS1 wP\\;bA3 /bM;wS1 wP-;bA3 -wQ;"
            "wA1 /wP;bM /wA1;wM bA1;bB1 /bA3;wB2 wQ-;bB1 bA3;wA2 wB1-;bA2 wA2/;wB1 bP;"
            "bG1 bQ/;wA3 wM-;bB1 wQ;wB2 bB1;bM bA3\\;wA1 -bG1;bA2 wS1-"
        ),
        257,
    ),
    (
        (
            "Base+MLP;InProgress;White[17];wG1;bP \\wG1;wM wG1\\;bM \\bP;wQ /wG1;bQ bM-;"
            "wB1 wG1-;bA1 /bM;wB1 wG1;bA2 \\bQ;wP wQ\\;bA1 wM-;wS1 wP\\;bA3 /bM;wS1 wP-;bA3 -wQ;"
            "wA1 /wP;bM /wA1;wM bA1;bB1 /bA3;wB2 wQ-;bB1 bA3;wA2 wB1-;bA2 wA2/;wB1 bP;"
            "bG1 bQ/;wA3 wM-;bB1 wQ;wB2 bB1;bM bA3\\;wA1 bG1/;bM -bA3"
        ),
        296,
    ),
    (
        (
            "Base+MLP;InProgress;White[20];wP;bL \\wP;wM wP\\;bQ bL/;wQ /wP;bP bQ/;wA1 wP-;"
            "bA1 bP/;wM bA1-;bM -bA1;wA1 -bQ;bA2 bQ-;wA2 wP-;bA2 wA2/;wB1 -wA1;bM wQ\\;"
            "wB1 /wA1;bB1 /bM;wM bB1\\;bA1 /wQ;wM bB1;bB2 bM-;wB2 /wM;bA3 bP/;wB1 bL;bA3 wM-;"
            "wA1 bB2-;bM wQ;wM bA1;bG1 bA3\\;wA3 -wM;bG1 wM-;wA3 bA3\\;bS1 -bP;wM bM;bA2 /wB1;"
            "wB1 bQ;bA1 /wA3"
        ),
        165,
    ),
    (
        (
            "Base+MLP;InProgress;White[20];wP;bL \\wP;wM wP\\;bQ bL/;wQ /wP;bP bQ/;wA1 wP-;"
            "bA1 bP/;wM bA1-;bM -bA1;wA1 -bQ;bA2 bQ-;wA2 wP-;bA2 wA2/;wB1 -wA1;bM wQ\\;"
            "wB1 /wA1;bB1 /bM;wM bB1\\;bA1 /wQ;wM bB1;bB2 bM-;wB2 /wM;bA3 bP/;wB1 bL;bA3 wM-;"
            "wA1 bB2-;bM wQ;wM bA1;bG1 bA3\\;wA3 -wM;bG1 wM-;wA3 bA3\\;bS1 -bP;wM bM;bA2 wA3\\;"
            "wB1 bQ;bA1 wA1\\"
        ),
        170,
    ),
]


@pytest.mark.parametrize(("game_string", "score"), SCORES)
def test_the_faster_evaluation_scores_as_before(game_string: str, score: int) -> None:
    game = Game.from_game_string(game_string, repetition_draw=False)
    assert evaluate(game) == score


# The same game played on from the first pass by panal on both sides (benchmarks/ai_convert.py):
# White passes throughout (94 more plies; Black then fills the ring in two moves whatever
# White does).
SURROUND_IN_TWO = (
    IMMOBILE_WHITE
    + ";"
    + (
        "pass;bA1 /wA3;pass;bA1 bB2-;pass;bG3 /bB2;pass;bA1 wA3-;pass;bA1 /bB1;pass;bG3 wA3-;"
        "pass;bS2 /wA1;pass;bA1 bS2\\;pass;bS2 bA1\\;pass;bA1 bB2-;pass;bA1 /bB1;pass;bQ bB1-;"
        "pass;bQ bB1/;pass;bB1 bA1-;pass;bA1 /wA3;pass;bA1 bB2-;pass;bQ \\wA2;pass;bA1 bS2-;"
        "pass;bA1 /wA3;pass;bQ -wA2;pass;bA1 bB2-;pass;bA1 bS2-;pass;bA1 bG2-;pass;bG2 bA1-;"
        "pass;bA1 bB2-;pass;bS1 bG2/;pass;bS1 \\wS2;pass;bQ \\wA2;pass;bA1 /wA3;pass;bQ wA2/;"
        "pass;bA1 bB2-;pass;bA1 bS2-;pass;bQ \\wA2;pass;bQ -wA2;pass;bA1 wA2/;pass;bQ /wA2;pass;"
        "bB1 wA2;pass;bA1 bB2-;pass;bS1 \\wS1;pass;bA1 bS2-;pass;bA1 /wA3;pass;bB1 \\bB1;pass;"
        "bS1 bB1-;pass;bB1 wA2;pass;bS1 -bQ;pass;bS1 /wA1;pass;bS1 /bS2;pass"
    )
)


def test_the_reach_of_an_immobile_queen_counts_the_fills_that_keep_it_pinned() -> None:
    """Checked against the rules engine on each position of the game played on: the cells beside
    White's queen that Black's legal moves fill while White can still only pass (or that end
    the game), and the pieces that make such fills."""
    game = Game("Base", tournament_opening=True, repetition_draw=False)
    moves = SURROUND_IN_TWO.split(";")
    for move in moves[:176]:
        game.push(move)
    counted = []
    for move in moves[176:]:
        game.push(move)
        if game.turn != 1:
            continue
        queen = game.piece_cells[0]
        empty = {queen + step for step in NEIGHBOR_OFFSETS} - set(game.stacks)
        cells, pieces = set(), set()
        for code in game.legal_move_codes():
            origin = game.piece_cells[code & 31]
            if code >> 6 not in empty or (
                origin - queen in NEIGHBOR_OFFSETS and len(game.stacks[origin]) == 1
            ):
                continue
            game.push_code(code)
            if game.state is GameState.BLACK_WINS or game.legal_move_codes() == [PASS_CODE]:
                cells.add(code >> 6)
                pieces.add(code & 31)
            game.pop_code()
        before = game.hash
        assert feature_counts(game)[1][REACH] == min(len(cells), len(pieces))
        assert game.hash == before  # the fills tried are taken back
        game.push_code(PASS_CODE)
        assert feature_counts(game)[1][REACH] == min(len(cells), len(pieces))
        game.pop_code()
        counted.append(min(len(cells), len(pieces)))
    assert len(counted) > 40
    assert 0 in counted and max(counted) >= 2
