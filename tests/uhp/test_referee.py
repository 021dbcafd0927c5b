"""panal as a UHP engine under another program's refereeing (issue 24): the referee's word stands.

The two refusals that forfeited games against nokamute as the referee were a GameString whose
moves went on past panal's draw by repetition (``move N: the game is over``) and one whose state
field said ``InProgress`` where panal's rule said ``Draw``. Both positions are built from a real
repetition line: the six-ply cycle of two ants that nokamute 1.0.3 plays on from
(``tests/ai/test_repetition_rules.py``).
"""

from __future__ import annotations

import random
import re

import pytest

from panal.hive import Game, GameState, Options
from panal.hive.records import read_game_strings
from panal.hive.records.gamestrings import replay_refereed
from panal.uhp.client import SimpleEngine
from panal.uhp.engine import PanalEngine
from tests.ai.test_repetition_rules import CYCLE_MOVES
from tests.shared_data import shared

# The third occurrence of a position arrives with the last move of CYCLE_MOVES (28 moves).
AT_THE_THIRD_OCCURRENCE = f"Base;InProgress;White[15];{CYCLE_MOVES}"
PAST_THE_THIRD_OCCURRENCE = f"Base;InProgress;Black[15];{CYCLE_MOVES};wA1 /bS2"
BEFORE_THE_THIRD_OCCURRENCE = CYCLE_MOVES.rsplit(";", 1)[0]


def _state(reply: list[str]) -> str:
    return reply[0].split(";")[1]


def _answers_a_legal_move(engine: PanalEngine) -> None:
    reply = engine.handle("bestmove depth 1")
    assert len(reply) == 2 and reply[1] == "ok", reply
    assert engine.game is not None
    assert engine.game.is_legal(reply[0]), reply


def test_panals_own_rule_draws_at_the_third_occurrence() -> None:
    """The premise: with panal's default options its own rule ends this game."""
    game = Game(tournament_opening=True)
    for move in CYCLE_MOVES.split(";"):
        game.push(move)
    assert game.state is GameState.DRAW and game.repetitions() == 3


def test_a_game_string_that_says_in_progress_where_panal_says_draw_plays_on() -> None:
    engine = PanalEngine()  # default options: RepetitionDraw True
    reply = engine.handle(f"newgame {AT_THE_THIRD_OCCURRENCE}")
    assert reply == [AT_THE_THIRD_OCCURRENCE, "ok"]
    _answers_a_legal_move(engine)
    # The option still says what panal's own rule is; only this game goes on without it.
    assert engine.handle("options get RepetitionDraw")[0] == "RepetitionDraw;bool;True;True"


def test_moves_past_panals_draw_are_replayed() -> None:
    engine = PanalEngine()
    reply = engine.handle(f"newgame {PAST_THE_THIRD_OCCURRENCE}")
    assert reply == [PAST_THE_THIRD_OCCURRENCE, "ok"]
    _answers_a_legal_move(engine)


def test_a_referee_without_the_rule_plays_on_move_by_move() -> None:
    """As Mzinga's viewer drives an engine: ``play`` moves, no repetition rule of its own."""
    engine = PanalEngine()
    engine.handle(f"newgame Base;InProgress;Black[14];{BEFORE_THE_THIRD_OCCURRENCE}")
    # panal's opinion of the position, in its reply: its rule draws here.
    assert _state(engine.handle("play bA1 -bS1")) == "Draw"
    # The referee asks for a move anyway: panal plays on.
    _answers_a_legal_move(engine)
    assert _state(engine.handle("play wA1 /bS2")) == "InProgress"
    assert engine.handle("validmoves")[0] != ""


def test_the_referees_draw_stands_until_it_plays_on() -> None:
    engine = PanalEngine()
    drawn = f"Base;Draw;White[15];{CYCLE_MOVES}"
    assert engine.handle(f"newgame {drawn}") == [drawn, "ok"]
    assert engine.handle("bestmove depth 1") == [
        "err the game is over: there is no best move",
        "ok",
    ]
    assert engine.handle("validmoves") == ["", "ok"]
    assert _state(engine.handle("play wA1 /bS2")) == "InProgress"


def test_a_refused_move_after_panals_draw_changes_nothing() -> None:
    engine = PanalEngine()
    engine.handle(f"newgame Base;InProgress;Black[14];{BEFORE_THE_THIRD_OCCURRENCE}")
    engine.handle("play bA1 -bS1")
    before = engine.game
    assert engine.handle("play wQ")[0].startswith("invalidmove ")
    assert engine.game is before and before is not None and before.state is GameState.DRAW


def test_rule_options_set_later_keep_the_referees_word() -> None:
    engine = PanalEngine()
    engine.handle(f"newgame {PAST_THE_THIRD_OCCURRENCE}")
    assert engine.handle("options set DragonflyGaps True")[0] == "DragonflyGaps;bool;True;False"
    assert engine.game is not None and engine.game.state is GameState.IN_PROGRESS
    _answers_a_legal_move(engine)


def test_turning_panals_rule_on_during_a_game_applies_it() -> None:
    """Without the rule from the start, nothing was overruled: setting it replays the game under
    it (and the third occurrence is a draw again)."""
    engine = PanalEngine()
    engine.handle("options set RepetitionDraw False")
    assert _state(engine.handle(f"newgame {AT_THE_THIRD_OCCURRENCE}")) == "InProgress"
    engine.handle("options set RepetitionDraw True")
    assert engine.game is not None and engine.game.state is GameState.DRAW


@pytest.mark.parametrize(
    ("sent", "recomputed"),
    [
        # the turn field left at White[1], as in the BoardGameArena exports of the issue
        (
            "Base;InProgress;White[1];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
            "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
        ),
        # NotStarted for a started game (Mzinga's test data) and a result the moves do not reach
        (
            "Base;NotStarted;Black[9];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
            "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
        ),
        (
            "Base;BlackWins;Black[9];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
            "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
        ),
    ],
)
def test_a_mislabelled_turn_or_state_is_recomputed(sent: str, recomputed: str) -> None:
    engine = PanalEngine()
    assert engine.handle(f"newgame {sent}") == [recomputed, "ok"]


# What is still refused, and the error that says why.
REFUSED = [
    (
        "Base;InProgress;White[1];wQ",
        "err invalid GameString: move 1 ('wQ'): the queen may not be placed on a player's first "
        "turn (tournament opening)",
    ),
    (
        "Base;InProgress;Black[1];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wA1 bQ\\;"
        "bA2 bQ/;wA2 bQ/;bA2 /wQ",
        None,  # an illegal move: its rule is named
    ),
    ("Base;InProgress;White[1];wG3", "err invalid GameString: move 1 ('wG3'): pieces of one kind"),
    ("Base;InProgress;White[1];wS1;bS1 wS1-;bogus", "err invalid GameString: move 3 ('bogus')"),
    ("Base+X;InProgress;White[1];wS1", "err invalid GameString:"),
    ("Base;InProgress", "err invalid GameString"),
]


@pytest.mark.parametrize(("sent", "error"), REFUSED)
def test_what_is_still_refused(sent: str, error: str | None) -> None:
    engine = PanalEngine()
    engine.handle("newgame Base;InProgress;White[2];wS1;bS1 wS1-")
    before = engine.game
    reply = engine.handle(f"newgame {sent}")
    assert reply[0].startswith(error or "err invalid GameString: move "), reply
    assert reply[1] == "ok"
    assert engine.game is before  # a refusal changes nothing


# White's queen surrounded by move 12 (its own pieces help); nothing may follow it.
SURROUNDED = (
    "wS1;bB1 \\wS1;wG1 /wS1;bQ \\bB1;wG2 -wG1;bS1 bQ/;wQ \\wG2;bG1 bS1/;wQ /bB1;bA1 bQ-;"
    "wS2 -wQ;bQ -bB1"
)


def test_a_move_after_a_surrounded_queen_is_still_refused() -> None:
    engine = PanalEngine()
    game = Game(tournament_opening=True)
    for move in SURROUNDED.split(";"):
        game.push(move)
    assert game.state is GameState.BLACK_WINS
    finished = engine.handle(f"newgame Base;InProgress;White[1];{SURROUNDED}")
    assert finished == [game.game_string(), "ok"]  # the state recomputed: Black won
    assert engine.handle("bestmove depth 1")[0] == "err the game is over: there is no best move"
    reply = engine.handle(f"newgame Base;InProgress;White[1];{SURROUNDED};wG3 wS1/")
    assert reply[0] == "err invalid GameString: move 13 ('wG3 wS1/'): the game is over"


def test_boardgamearena_games_with_the_turn_field_at_white_1_are_accepted() -> None:
    """300 BoardGameArena games, their turn field rewritten to ``White[1]`` as in the issue's
    exports: all but those with a move the tournament opening forbids are accepted, and the
    reply names the position the moves reach. (nokamute 1.0.3 accepts 299 of the same 300.)"""
    path = shared("corpus", "alpha-hive-bga-uhp", "bga_base_mlp_renumbered.uhp.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    sample = random.Random(1).sample(lines, 300)
    engine = PanalEngine()
    refused = []
    for line in sample:
        sent = re.sub(r";(White|Black)\[\d+\];", ";White[1];", line, count=1)
        reply = engine.handle(f"newgame {sent}")
        if reply[0].startswith("err"):
            refused.append(reply[0])
            continue
        (record,) = read_game_strings(sent)
        assert engine.game is not None
        assert engine.game.move_codes == record.replay().move_codes
        assert reply[0] == engine.game.game_string()
    assert refused == [
        "err invalid GameString: move 2 ('bQ \\\\wS1'): the queen may not be placed on a "
        "player's first turn (tournament opening)"
    ]


def test_game_string_files_read_a_wrong_turn_field_as_the_moves_say() -> None:
    (record,) = read_game_strings("Base;InProgress;White[1];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    assert record.replay().game_string() == "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def test_under_nokamute_as_the_referee_panal_plays_on() -> None:
    """The issue's match: nokamute 1.0.3 referees, so its reading of the repetition line stands.
    It plays on past the third occurrence; panal, at its default options, follows it move by
    move and answers ``bestmove`` where its own rule would have ended the game."""
    nokamute = shared("engines", "nokamute")
    panal = PanalEngine()

    def same(ours: list[str], theirs: str) -> None:
        # The same moves and state; nokamute may name the reference pieces differently.
        assert ours[1] == "ok" and _state(ours) == _state([theirs]) == "InProgress"
        assert _codes(ours[0]) == _codes(theirs)

    with SimpleEngine.popen([str(nokamute), "uhp", "--num-threads=1"]) as referee:
        for sent in (AT_THE_THIRD_OCCURRENCE, PAST_THE_THIRD_OCCURRENCE):
            same(panal.handle(f"newgame {sent}"), referee.newgame(sent))
            for _ in range(4):  # each answers bestmove and the other takes the move
                move = referee.bestmove(depth=1)
                same(panal.handle(f"play {move}"), referee.play(move))
                (ours, ok) = panal.handle("bestmove depth 1")
                assert ok == "ok" and not ours.startswith("err"), ours
                same(panal.handle(f"play {ours}"), referee.play(ours))


def _codes(game_string: str) -> list[int]:
    return replay_refereed(game_string, Options(repetition_draw=False)).move_codes
