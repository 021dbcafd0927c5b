"""The rule disagreement found in engine matches: panal declared a draw by repetition where the
referee played on, and then answered ``bestmove`` with ``err the game is over``.

panal's rule: the third occurrence of a position is a draw, however far apart. nokamute only
compares positions 4, 8, ... 32 plies back and needs two matches among them; Mzinga has no such
rule at all. So a cycle of six plies (each side walks an ant round three cells) is a draw for
panal at its third occurrence while nokamute, and a referee following it or Mzinga, plays on.
Under their rules (``RepetitionDraw False``, which the match runner sets to the referee's rule)
panal must play on too. Positions are compared as nokamute compares them: pieces of one kind are
interchangeable (``tests/hive/test_rules.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from panal.hive import Game, GameState
from panal.uhp.engine import PanalEngine
from tests.ai.ladder import load_ladder

# A Base game whose last ply leaves, for the third time, the position left by plies 16 and 22:
# a six-ply cycle of the two ants. nokamute 1.0.3 answers InProgress here and plays 'wA2 wA1\'.
CYCLE_MOVES = (
    "wB1;bG1 wB1/;wG1 wB1\\;bB1 bG1-;wA1 wG1-;bB2 \\bG1;wQ /wG1;"
    "bQ -bB2;wS1 wQ-;bG2 bB1/;wA1 wQ\\;bS1 bG2/;wA1 wB1-;bA1 -bS1;wG2 wS1-;bS2 \\bQ;wA1 /bS2;"
    "bA1 wG1-;wA1 -wQ;bA1 bS1-;wA1 wB1-;bA1 -bS1;wA1 /bS2;bA1 wG1-;wA1 -wQ;bA1 bS1-;"
    "wA1 wB1-;bA1 -bS1"
)
# The GameString's state field must agree with the rules it is read under.
CYCLE_OF_SIX = f"Base;InProgress;White[15];{CYCLE_MOVES}"
CYCLE_OF_SIX_DRAWN = f"Base;Draw;White[15];{CYCLE_MOVES}"


def test_a_cycle_of_six_plies_is_a_draw_under_panals_rule() -> None:
    game = Game.from_game_string(CYCLE_OF_SIX_DRAWN, tournament_opening=True)
    assert game.repetitions() == 3
    assert game.state is GameState.DRAW


def test_without_the_repetition_rule_the_game_goes_on() -> None:
    game = Game.from_game_string(CYCLE_OF_SIX, tournament_opening=True, repetition_draw=False)
    assert game.state is GameState.IN_PROGRESS
    assert game.legal_move_codes()


def test_panal_plays_on_under_rules_without_that_draw() -> None:
    engine = PanalEngine()
    engine.handle("options set RepetitionDraw False")
    reply = engine.handle(f"newgame {CYCLE_OF_SIX}")
    assert reply[0].split(";")[1] == "InProgress"
    move = engine.handle("bestmove depth 1")
    assert len(move) == 2 and move[1] == "ok"
    referee = Game.from_game_string(CYCLE_OF_SIX, tournament_opening=True, repetition_draw=False)
    assert referee.is_legal(move[0])
    # Under panal's own rule the same position is over, and says so.
    engine.handle("options set RepetitionDraw True")
    assert engine.handle(f"newgame {CYCLE_OF_SIX_DRAWN}")[0].split(";")[1] == "Draw"
    assert engine.handle("bestmove depth 1")[0].startswith("err the game is over")


@pytest.mark.parametrize("repetition", ["on", "off"])
def test_the_match_runner_gives_panal_the_referees_rule(repetition: str, tmp_path: Path) -> None:
    ladder = load_ladder()
    random_player = f"{sys.executable} -m panal.uhp.players random"
    settings = ladder.parse_args(
        [
            "--engine",
            random_player,
            "--go",
            "bestmove depth 1",
            "--player",
            random_player,
            "--player-go",
            "bestmove depth 1",
            "--player-option",
            "Seed=3",
            "--engine-option",
            "Seed=4",
            "--game-type",
            "Base",
            "--games",
            "2",
            "--jobs",
            "1",
            "--max-plies",
            "40",
            "--repetition",
            repetition,
            "--out",
            str(tmp_path),
        ]
    )
    match = ladder.Match(settings)
    engine = ladder.Engine(random_player, "probe")
    match._ready(engine, settings.player)
    try:
        expected = "True" if repetition == "on" else "False"
        assert engine.send("options get RepetitionDraw") == [f"RepetitionDraw;bool;{expected};True"]
    finally:
        engine.close()
    match.run()
    match.write()
    summary = match.summary()
    assert summary["games"] == 2
    assert summary["disagreements"] == []
    assert len((tmp_path / "games.txt").read_text().splitlines()) == 2


def test_the_match_runner_reports_an_engine_that_ends_the_game_early(tmp_path: Path) -> None:
    """A referee without the repetition rule and an engine with it: the engine's Draw at the
    third occurrence is reported and the game adjudicated, not played into a crash."""
    ladder = load_ladder()
    match = ladder.Match(ladder.parse_args(["--engine", "x", "--repetition", "off"]))
    referee = Game.from_game_string(CYCLE_OF_SIX, tournament_opening=True, repetition_draw=False)
    claimed = Game.from_game_string(CYCLE_OF_SIX_DRAWN, tournament_opening=True)
    state = match._compare(0, referee, "opponent", [str(claimed)], "an engine")
    assert state == "Draw"
    assert [(d.who, d.says, d.referee) for d in match.disagreements] == [
        ("an engine", "Draw", "InProgress")
    ]
