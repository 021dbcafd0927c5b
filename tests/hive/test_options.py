"""Rule options (panal.hive.options): values, the option table, repetition readings, UHP lines.

The Dragonfly's readings are tested in test_dragonfly.py and test_properties.py.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from pathlib import Path

import pytest

from panal.hive import (
    OPTION_SPECS,
    DragonflyCarry,
    DragonflySidestep,
    Game,
    GameState,
    Options,
    OptionsError,
)
from panal.uhp.engine import PanalEngine
from tests.hive.oracles import mzinga_cases
from tests.hive.test_rules import CYCLE, PLACE_QUEENS, START
from tests.shared_data import shared, shared_cases


def test_defaults_are_panals_reading() -> None:
    options = Options()
    assert options.dragonfly_sidestep is DragonflySidestep.FORWARD
    assert options.dragonfly_carry is DragonflyCarry.LATER
    assert not options.dragonfly_gaps and not options.dragonfly_contact
    assert options.repetition_draw and not options.repetition_forced
    assert not options.mosquito_stays_dragonfly and not options.tournament_opening
    assert options.changed() == {}


def test_values_are_checked() -> None:
    assert Options(dragonfly_sidestep="backward").dragonfly_sidestep is DragonflySidestep.BACKWARD
    assert Options(dragonfly_carry="NEXT_TURN").dragonfly_carry is DragonflyCarry.NEXT_TURN
    with pytest.raises(OptionsError, match="forward, backward, either"):
        Options(dragonfly_sidestep="sideways")
    with pytest.raises(OptionsError, match="true or false"):
        Options(dragonfly_gaps="yes")  # type: ignore[arg-type]
    # The one earlier option for both questions is gone: one way to say each thing.
    with pytest.raises(TypeError, match="unknown rule option dragonfly_gates"):
        Game("Base+D", dragonfly_gates=True)
    with pytest.raises(OptionsError, match="forward, backward, either"):
        Game("Base+D", dragonfly_sidestep="sideways")
    with pytest.raises(TypeError):
        Options(True)  # type: ignore[misc]  # keywords only: no silent reordering


def test_values_round_trip_as_plain_data() -> None:
    options = Options(dragonfly_sidestep="either", dragonfly_carry="next_turn", dragonfly_gaps=True)
    values = options.to_values()
    assert values["dragonfly_sidestep"] == "either"
    assert Options.from_values(values) == options
    assert options.changed() == {
        "dragonfly_sidestep": "either",
        "dragonfly_gaps": True,
        "dragonfly_carry": "next_turn",
    }
    with pytest.raises(OptionsError):
        Options.from_values({"dragonfly_angle": 60})


def test_the_option_table_describes_every_option() -> None:
    names = [spec.name for spec in OPTION_SPECS]
    assert names == list(Options().to_values())
    for spec in OPTION_SPECS:
        assert spec.default == Options().to_values()[spec.name]
        assert spec.description and spec.reads
        if spec.choices is not None:
            assert spec.default in spec.choices
        assert set(spec.expansion) <= set("MLPD")


def _letters(text: str) -> str:
    """Lower-case letters only, accents dropped: the OCR of the rulebooks loses accents."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", plain.lower())


@pytest.mark.parametrize("spec", OPTION_SPECS, ids=lambda spec: spec.name)
def test_each_option_quotes_its_rulebook(spec: object) -> None:
    """The sentence an option reads is really in that rulebook (allowing for OCR errors)."""
    reads = spec.reads  # type: ignore[attr-defined]
    number, quote = reads.split(": ", 1)
    seeds = shared("seeds")
    text = _letters(next(seeds.glob(f"{number}_*.txt")).read_text(encoding="utf-8"))
    for part in re.findall(r"«([^»]*)»", quote):
        for piece in part.split("[…]"):
            wanted = _letters(piece)
            # Anchor on the longest exact run, then allow OCR slips around it.
            run = SequenceMatcher(None, text, wanted, autojunk=False).find_longest_match()
            start = run.a - run.b
            best = max(
                SequenceMatcher(None, wanted, text[i : i + len(wanted)]).ratio()
                for i in range(max(0, start - 10), start + 11)
            )
            assert best > 0.9, f"{piece!r} not found in rulebook {number}"


# --- Repetition: any third occurrence, or only a forced loop -----------------------------------

# All 22 base pieces in one line from (-10,0) to (11,0), bQ at the west end and wQ at the east
# end. Every other piece is the only link between two parts of the line, so only the queens can
# move, each between its end cell and the two cells beside its neighbour: both players are
# forced to move one same piece over and over (rulebook 002).
LINE = ["bQ", "bS1", "bS2", "bB1", "bB2", "bG1", "bG2", "bG3", "bA1", "bA2", "bA3"]
LINE += ["wA3", "wA2", "wA1", "wG3", "wG2", "wG1", "wB2", "wB1", "wS2", "wS1", "wQ"]
FORCED_LOOP = ["wQ wS1/", "bQ \\bS1", "wQ wS1-", "bQ -bS1"]


def line_game(**options: bool) -> Game:
    return Game.from_board(
        {(k - 10, 0): name for k, name in enumerate(LINE)}, turn_number=20, **options
    )


def test_a_forced_loop_is_drawn_under_both_readings() -> None:
    for forced in (False, True):
        game = line_game(repetition_forced=forced)
        assert {m.piece.name for m in game.legal_moves if m.piece is not None} == {"wQ"}
        for move in FORCED_LOOP * 2:
            assert game.state is GameState.IN_PROGRESS
            game.push(move)
        assert game.repetitions() == 3
        assert game.state is GameState.DRAW


def test_a_free_repetition_is_drawn_only_by_default() -> None:
    # The issue's case: queens shuffling while each side could place or move other pieces.
    default = Game.from_game_string(START)
    forced = Game.from_game_string(START, repetition_forced=True)
    for game in (default, forced):
        for move in PLACE_QUEENS + CYCLE * 2:
            game.push(move)
        assert game.repetitions() == 3
    assert len(forced.legal_moves) > 20  # far from forced
    assert default.state is GameState.DRAW
    assert forced.state is GameState.IN_PROGRESS
    # Undo and redo keep the record of which positions were forced.
    forced.pop()
    forced.push(CYCLE[-1])
    assert forced.state is GameState.IN_PROGRESS


def test_a_loop_where_one_side_has_a_choice_is_not_forced() -> None:
    # The same line without bA3 (the black half moved one cell east to close the gap): black
    # may always place bA3 beside the black half, so black is never forced and the loop of the
    # two queens is a free repetition.
    black_half = {(k - 9, 0): name for k, name in enumerate(LINE[:10])}
    white_half = {(k - 10, 0): name for k, name in enumerate(LINE) if k > 10}
    game = Game.from_board({**black_half, **white_half}, turn_number=20, repetition_forced=True)
    game.push(FORCED_LOOP[0])
    assert "bA3" in {m.piece.name for m in game.legal_moves if m.piece is not None}
    game.pop()
    for move in FORCED_LOOP * 2:
        game.push(move)
    assert game.repetitions() == 3
    assert game.state is GameState.IN_PROGRESS


def test_repetition_forced_needs_repetition_draw() -> None:
    game = line_game(repetition_draw=False, repetition_forced=True)
    for move in FORCED_LOOP * 2:
        game.push(move)
    assert game.state is GameState.IN_PROGRESS


# --- The options leave games without the Dragonfly alone -----------------------------------------

EVERYTHING = Options(
    repetition_forced=True,
    dragonfly_sidestep="either",
    dragonfly_gaps=True,
    dragonfly_contact=True,
    dragonfly_carry="next_turn",
    mosquito_stays_dragonfly=True,
)


@pytest.mark.parametrize(
    ("game_string", "depth", "expected"),
    [
        case
        for name in ("Base", "BaseM", "BaseMLP")
        for case in shared_cases(mzinga_cases, "oracles", "mzinga", f"Board_{name}_PerftTest.csv")
        if int(case.values[1]) <= 3
    ],
)
@pytest.mark.parametrize("sidestep", ["either", "backward"])
def test_dragonfly_readings_leave_mzinga_perft_unchanged(
    game_string: str, depth: str, expected: str, sidestep: str
) -> None:
    options = EVERYTHING.with_values(tournament_opening=True, dragonfly_sidestep=sidestep)
    game = Game.from_game_string(game_string, options=options)
    assert game.perft(int(depth)) == int(expected)


# --- UHP ---------------------------------------------------------------------------------------


def test_uhp_lists_and_sets_every_option() -> None:
    engine = PanalEngine()
    lines = engine.handle("options")
    for spec in OPTION_SPECS:
        assert any(line.startswith(f"{spec.uhp};") for line in lines), spec.uhp
    assert engine.handle("options set DragonflySidestep Backward") == [
        "DragonflySidestep;enum;Backward;Forward;Forward;Backward;Either",
        "ok",
    ]
    assert engine.handle("options set dragonflycarry next_turn")[0].startswith(
        "DragonflyCarry;enum;NextTurn;Later;"
    )
    assert engine.handle("options set DragonflyGaps True")[0] == "DragonflyGaps;bool;True;False"
    assert engine.handle("options set DragonflySidestep Sideways")[0].startswith(
        "err DragonflySidestep must be one of Forward, Backward, Either"
    )
    assert engine.handle("options set DragonflyGates True")[0].startswith("err unknown option")
    engine.handle("newgame Base+D")
    game = engine.game
    assert game is not None
    assert game.options.dragonfly_sidestep is DragonflySidestep.BACKWARD
    assert game.options.dragonfly_carry is DragonflyCarry.NEXT_TURN
    assert game.options.dragonfly_gaps


def test_uhp_plays_the_issue_position_under_each_sidestep() -> None:
    engine = PanalEngine()
    issue = r"Base+D;InProgress;White[4];wQ;bQ wQ-;wD -wQ;bA1 bQ-;wA1 \wQ;bA2 bA1-"
    engine.handle("options set TournamentOpening False")  # the position opens with a queen
    assert engine.handle(f"newgame {issue}")[0] == issue
    moves = engine.handle("validmoves")[0].split(";")
    assert len(moves) > 10 and not [m for m in moves if m.startswith("wD")]
    engine.handle("options set DragonflySidestep Backward")  # replays the game under the rule
    moves = engine.handle("validmoves")[0].split(";")
    assert sorted(m for m in moves if m.startswith("wD")) == sorted(
        ["wD \\wA1", "wD wA1-", "wD bA2/", "wD bA2\\"]
    )


# --- Game records ----------------------------------------------------------------------------


def test_pgn_carries_every_option_and_replays_under_it() -> None:
    from panal.hive.records import read_pgn, write_pgn

    issue = r"Base+D;InProgress;White[4];wQ;bQ wQ-;wD -wQ;bA1 bQ-;wA1 \wQ;bA2 bA1-"
    game = Game.from_game_string(issue, options=EVERYTHING)
    game.push("wD wA1-")  # legal only under a backward (or either) sidestep
    text = write_pgn(game)
    assert '[DragonflySidestep "Either"]' in text
    assert '[DragonflyCarry "NextTurn"]' in text
    assert '[MosquitoStaysDragonfly "True"]' in text
    assert "[TournamentOpening" not in text  # the default is not written
    (record,) = read_pgn(text)
    assert record.options == EVERYTHING
    assert str(record.replay()) == str(game)
    with pytest.raises(ValueError, match="DragonflySidestep must be one of"):
        read_pgn(text.replace('"Either"', '"Sideways"'))
    # Without the tags the same moves are refused by the default (forward) reading.
    plain = "\n".join(line for line in text.splitlines() if "Dragonfly" not in line)
    with pytest.raises(ValueError, match="dragonfly"):
        read_pgn(plain)[0].replay()


# --- docs/rules.md says what the code does ----------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_the_rules_document_table_lists_every_option_as_the_code_has_it() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Rule options", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table = {}
    for row in rows:
        name, values, uhp, reads, _see = (cell.strip() for cell in row.strip("|").split("|"))
        table[name.strip("`")] = (values, uhp.strip("`"), reads)
    assert list(table) == [spec.name for spec in OPTION_SPECS]
    for spec in OPTION_SPECS:
        values, uhp, reads = table[spec.name]
        choices = spec.choices or ("false", "true")
        default = str(spec.default).lower()
        assert [v.strip() for v in values.split(",")] == [
            f"**{c}**" if c == default else c for c in sorted(choices, key=lambda c: c != default)
        ], spec.name
        assert uhp == spec.uhp
        assert reads == spec.reads
