"""Contempt: what a draw by repetition costs the side that searches.

The position is a loop of both queens: Black's ``bQ bS1-`` makes the third occurrence, a draw
under panal's rule. A hand-made evaluation puts Black behind by a set margin in every position,
so a one-ply search compares exactly two numbers: the draw (``-contempt``) and playing on (the
margin). The side behind takes the draw only when playing on looks worse than the contempt.
"""

from __future__ import annotations

import pytest

from panal.ai.search import CONTEMPT, Searcher
from panal.hive import Game, GameState
from panal.uhp.engine import PanalEngine

LOOP = (
    "Base;InProgress;Black[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ /wS1;bQ bS1/;wQ -wS1;bQ bS1-;"
    "wQ /wS1;bQ bS1/;wQ -wS1"
)
DRAWING_MOVE = "bQ bS1-"


def black_behind_by(margin: int):  # type: ignore[no-untyped-def]
    def evaluate(game: Game) -> int:
        # Scores are for the side to move: Black is down ``margin``, White up as much.
        return -margin if game.ply & 1 else margin

    return evaluate


def loop() -> Game:
    return Game.from_game_string(LOOP)


def test_the_drawing_move_draws_by_repetition() -> None:
    game = loop()
    game.push(DRAWING_MOVE)
    assert game.state is GameState.DRAW


@pytest.mark.parametrize(
    ("contempt", "margin", "draws"),
    [
        (CONTEMPT, 50, True),  # the default: a little behind, the draw is better
        (100, 50, False),  # a larger contempt plays on a little behind
        (100, 200, True),  # ... but not far behind
        (0, 1, True),
    ],
)
def test_the_side_behind_repeats_only_when_playing_on_is_worse_than_the_contempt(
    contempt: int, margin: int, draws: bool
) -> None:
    game = loop()
    searcher = Searcher(evaluator=black_behind_by(margin), contempt=contempt)
    result = searcher.search(game, depth=1)
    drawing = game.parse_move_code(DRAWING_MOVE)
    assert (result.code == drawing) is draws
    assert result.score == (-contempt if draws else -margin)


def test_a_large_contempt_does_not_carry_draw_scores_to_the_other_side() -> None:
    # The table's draw scores are from the searching side's point of view: a searcher with a
    # large contempt forgets them when it searches for the other colour (or another contempt).
    searcher = Searcher(contempt=200)
    game = loop()
    black_root = game.hash
    game.push_code(searcher.search(game, depth=2).code)  # plays on: White to move now
    assert black_root in searcher.table
    game.push_code(searcher.search(game, depth=2).code)  # White to move now
    searcher.search(game, depth=2)
    assert black_root not in searcher.table
    searcher.contempt = 100
    searcher.search(game, depth=2)
    assert game.hash in searcher.table  # the table refilled after its clear


def test_the_default_contempt_keeps_the_table_across_sides() -> None:
    # A review searches both sides with one searcher; the default's contempt is small and the
    # table is kept as before.
    searcher = Searcher()
    game = loop()
    black_root = game.hash
    game.push_code(searcher.search(game, depth=2).code)
    searcher.search(game, depth=2)
    assert black_root in searcher.table


def test_the_uhp_engine_searches_with_its_contempt_option() -> None:
    engine = PanalEngine()
    assert f"Contempt;int;{CONTEMPT};{CONTEMPT};0;1000" in engine.handle("options")
    assert engine.handle("options set Contempt 120") == ["Contempt;int;120;15;0;1000", "ok"]
    for bad in ("Contempt -1", "Contempt 1001", "Contempt much"):
        assert engine.handle(f"options set {bad}")[0].startswith("err"), bad
    engine.handle(f"newgame {LOOP}")
    reply = engine.handle("bestmove depth 1")
    assert reply[-1] == "ok"
    assert engine._searcher is not None
    assert engine._searcher.contempt == 120  # type: ignore[attr-defined]


def test_a_third_occurrence_is_a_draw_in_the_search_without_the_rule() -> None:
    # Under rules without the repetition draw, the selective search still counts the third
    # occurrence (two before the search began) as a draw: going round again gains nothing.
    game = Game.from_game_string(LOOP, repetition_draw=False)
    searcher = Searcher(evaluator=black_behind_by(50))
    result = searcher.search(game, depth=1, node_limit=1_000_000)
    assert game.move_string(result.code) == DRAWING_MOVE
    assert result.score == -CONTEMPT
    exact = Searcher(evaluator=black_behind_by(50)).search(game, depth=1)  # no such scoring
    assert exact.score == -50
