"""Record formats in detail, on hand-made files: every boardspace SGF rule FORMATS.md describes,
PGN and GameString lines, broken files of each kind, and a PGN write → read round trip."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from panal.hex import Hex
from panal.hive import Game, GameState, Piece, Termination
from panal.hive.records import (
    TERMINATIONS,
    GameRecord,
    RecordError,
    load_records,
    read_game_strings,
    read_pgn,
    read_sgf,
    read_sgf_file,
    write_pgn,
)
from tests.hive.record_samples import CHUCKQ, OPENING, sgf

# --- boardspace SGF ---------------------------------------------------------------------------


def test_sgf_verbatim_opening_of_formats_example_a() -> None:
    """The first plies of FORMATS.md §1.5 exactly as the file writes them (``\\\\`` escapes)."""
    text = (
        " (;\nGM[27]VV[1]\nCM[0,1]\nSU[Hive]\nDT[Sun Mar 29 18:46:33 EDT 2020]\n"
        "GN[HV-SmartBot0-ChuckQ-2020-03-29-2246]\nRE[Game won by SmartBot]\n"
        'P0[id "SmartBot0"]\nP1[id "ChuckQ"]\n; P0[0 Start P0]\n; P0[1 move W wA1 N 13 .]\n'
        "; P0[2 done]\n; P1[3 pick B 1 bA1]\n; P1[4 dropb bA1 M 12 /wA1]\n; P1[5 done]\n"
        "; P0[6 move W wS1 O 13 wA1-]\n; P0[7 done]\n; P1[8 pick B 1 bA2]\n"
        "; P1[9 dropb bA2 M 11 bA1\\\\]\n; P1[10 done]\n;\nP0[time 0:01:48 ]\n)\n"
    )
    record = read_sgf(text, source="example-a.sgf")
    assert record.moves == CHUCKQ.split(";")[3:7]
    assert record.headers["White"] == "SmartBot0" and record.headers["Black"] == "ChuckQ"
    assert record.headers["Date"] == "2020.03.29"
    assert record.result is GameState.WHITE_WINS  # "SmartBot" names the robot SmartBot0
    assert record.move_lines == [11, 14, 16, 19]


@pytest.mark.parametrize(
    ("column", "row", "direction"),
    [  # FORMATS.md §1.4: E (+1,0), NE (+1,+1), NW (0,+1), W (-1,0), SW (-1,-1), SE (0,-1)
        ("O", 13, "wA1-"),
        ("O", 14, "wA1/"),
        ("N", 14, "\\wA1"),
        ("M", 13, "-wA1"),
        ("M", 12, "/wA1"),
        ("N", 12, "wA1\\"),
    ],
)
def test_sgf_grid_neighbours(column: str, row: int, direction: str) -> None:
    dropped = [(0, "Move W wA1 N 13 ."), (0, "Done"), (1, f"Move B bA1 {column} {row} {direction}")]
    assert read_sgf(sgf(*dropped)).moves == ["wA1"]  # dropped, never committed
    assert read_sgf(sgf(*dropped, (1, "Done"))).moves == ["wA1", f"bA1 {direction}"]


def _second_piece(first: str, second: str, attachment: str = ".") -> list[str]:
    actions = [(0, f"Move W wA1 {first} ."), (0, "Done"), (1, f"Move B bA1 {second} {attachment}")]
    return read_sgf(sgf(*actions, (1, "Done"))).moves


def test_sgf_columns_beyond_the_edges() -> None:
    """``1A`` is the column west of ``A``; ``1Z`` the column east of ``Z``."""
    assert _second_piece("A 13", "1A 13", "-wA1") == ["wA1", "bA1 -wA1"]
    assert _second_piece("Z 13", "1Z 13", "wA1-") == ["wA1", "bA1 wA1-"]
    assert _second_piece("1A 13", "2A 13", "-wA1") == ["wA1", "bA1 -wA1"]


def test_sgf_only_the_last_drop_before_done_counts() -> None:
    record = read_sgf(
        sgf(
            *OPENING,
            (1, "Pick B 2 bS1"),
            (1, "Dropb bS1 L 12 -bA1"),
            (1, "Pickb L 12 bS1"),
            (1, "Dropb bS1 M 11 bA1\\"),
            (1, "Done"),
        )
    )
    assert record.moves[-1] == "bS1 bA1\\"


def test_sgf_drop_back_to_the_reserve_cancels() -> None:
    record = read_sgf(
        sgf(
            *OPENING,
            (1, "Pick B 2 bS1"),
            (1, "Dropb bS1 L 12 -bA1"),
            (1, "Pickb L 12 bS1"),
            (1, "Drop B 2 bS1 Rack"),
            (1, "Move B bQ L 12 -bA1"),
            (1, "Done"),
        )
    )
    assert record.moves[-1] == "bQ -bA1"


def test_sgf_old_colourless_tokens() -> None:
    """2013 files: ``pick w 2 G1``, ``dropb g1 …``, ``move B A1 …``, lowercase commands."""
    record = read_sgf(
        sgf(
            (0, "pick w 2 G1"),
            (0, "dropb g1 N 13 ."),
            (0, "done"),
            (1, "move B A1 N 14 \\wG1"),
            (1, "done"),
            (0, "pick w 0 Q"),
            (0, "dropb q N 12 wG1\\"),
            (0, "done"),
            su="hive-p",
        )
    )
    assert str(record.game_type) == "Base+P"
    assert record.moves == ["wG1", "bA1 \\wG1", "wQ wG1\\"]
    assert record.result is None  # no RE[]: the file does not say


def test_sgf_pillbug_moves_an_opponent_piece() -> None:
    """``pmove``/``pdropb`` name the moved piece, which may be the opponent's (``bs2`` style)."""
    actions = [
        (0, "Move W wP1 N 13 ."),
        (0, "Done"),
        (1, "Move B bQ M 12 /wP"),
        (1, "Done"),
        (0, "Move W wQ O 14 wP/"),
        (0, "Done"),
        (1, "Move B bA1 L 12 -bQ"),
        (1, "Done"),
        (0, "Move W wA1 P 15 wQ/"),
        (0, "Done"),
        (1, "Move B bA1 O 15 -wA1"),
        (1, "Done"),
    ]
    record = read_sgf(sgf(*actions, (0, "pmove B Q O 13 wP-"), (0, "Done"), su="hive-plm"))
    assert record.moves[-1] == "bQ wP-"
    old_style = [(0, "pickb M 12 Q"), (0, "pdropb bq O 13 wP-"), (0, "done")]
    assert read_sgf(sgf(*actions, *old_style, su="hive-p")).moves[-1] == "bQ wP-"


def test_sgf_passes() -> None:
    """A bare Done by the side to move is a pass, as are Pass + Done and PassDone."""
    prefix = [(0, "Move W wA1 N 13 ."), (0, "Done"), (1, "Move B bA1 M 12 /wA1"), (1, "Done")]
    for ending in ([(0, "Done")], [(0, "Pass"), (0, "Done")], [(0, "PassDone")]):
        with pytest.raises(RecordError) as caught:
            read_sgf(sgf(*prefix, *ending))
        # White can move here, so the pass is illegal, and the error says so.
        assert caught.value.ply == 3 and caught.value.move == "pass"
        assert "can't pass" in str(caught.value)


def test_sgf_resignation() -> None:
    record = read_sgf(sgf(*OPENING, (1, "Resign"), (1, "Done"), re="Game won by alice"))
    assert record.result is GameState.WHITE_WINS
    assert record.termination is Termination.RESIGNATION
    assert record.check_result(record.replay()) is None


def test_sgf_draw_offers_are_not_turns() -> None:
    record = read_sgf(
        sgf(
            *OPENING,
            (1, "OfferDraw"),
            (1, "Done"),
            (0, "DeclineDraw"),
            (0, "Done"),
            (1, "Move B bQ L 12 -bA1"),
            (1, "Done"),
            (0, "offerdraw"),
            (0, "done"),
            (1, "acceptdraw"),
            (1, "done"),
            re="The game is a draw",
        )
    )
    assert record.moves[-1] == "bQ -bA1" and len(record.moves) == 4
    assert record.result is GameState.DRAW
    assert record.termination is Termination.AGREEMENT


@pytest.mark.parametrize(
    ("re", "expected"),
    [
        ("Game won by bob", GameState.BLACK_WINS),
        ("Partie gagnée par alice", GameState.WHITE_WINS),
        ("Игру выиграл(а) bob.", GameState.BLACK_WINS),
        ("alice vann spelet", GameState.WHITE_WINS),
        ("bob hat gewonnen", GameState.BLACK_WINS),
        ("La partie est nulle", GameState.DRAW),
        ("La partida finaliza en empate", GameState.DRAW),
        ("Game won by carol", None),
    ],
)
def test_sgf_localized_results(re: str, expected: GameState | None) -> None:
    record = read_sgf(sgf(*OPENING, re=re))
    assert record.result is expected
    if expected is not None:
        # The position is unfinished and nothing was resigned: a win came by time or absence,
        # a draw is unexplained (the position never repeated).
        assert record.termination is (None if expected is GameState.DRAW else Termination.FORFEIT)


def test_sgf_colour_map_swapped() -> None:
    """``CM[1,0]``: player 0 plays black, so player 1 opens."""
    record = read_sgf(
        sgf(
            (1, "Move W wA1 N 13 ."),
            (1, "Done"),
            (0, "Move B bA1 M 12 /wA1"),
            (0, "Done"),
            cm="1,0",
            re="Game won by alice",
        )
    )
    assert record.moves == ["wA1", "bA1 /wA1"]
    assert record.headers["White"] == "bob" and record.headers["Black"] == "alice"
    assert record.result is GameState.BLACK_WINS


def test_sgf_variants() -> None:
    assert str(read_sgf(sgf(su="hive-plm 2 0 101")).game_type) == "Base+MLP"
    assert str(read_sgf(sgf(su="Hive-LM")).game_type) == "Base+ML"
    assert str(read_sgf(sgf(su="hive")).game_type) == "Base"
    with pytest.raises(RecordError, match="Hive-Ultimate is not supported"):
        read_sgf(sgf(su="Hive-Ultimate"))


def test_sgf_queen_on_the_first_turn_and_boardspace_options() -> None:
    record = read_sgf(sgf((0, "Move W wQ N 13 ."), (0, "Done")))
    assert record.moves == ["wQ"]
    assert record.options.tournament_opening is False
    assert record.options.repetition_draw is False  # boardspace's own rule fires later than ours


def test_sgf_second_tree_and_viewer_noise_are_ignored() -> None:
    text = sgf(*OPENING).replace(
        "; P0[0 Start P0]", "; P-1[Pop P0\\[0 Start P0\\]]\n; P0[0 Start P0]"
    )
    record = read_sgf(text + "\n" + sgf((0, "Move W wQ N 13 ."), (0, "Done")))
    assert record.moves == ["wA1", "bA1 /wA1", "wS1 wA1-"]


def test_sgf_file_in_latin_1(tmp_path) -> None:
    path = tmp_path / "HV-alice-bob.sgf"
    path.write_bytes(sgf(*OPENING, re="Partie gagnée par alice").encode("latin-1"))
    record = read_sgf_file(path)
    assert record.headers["SgfResult"] == "Partie gagnée par alice"
    assert record.source == str(path)
    assert load_records(path)[0].moves == record.moves


def test_sgf_beetle_climbs_and_comes_down() -> None:
    """``.`` marks a climb (2018–2020 files) or a piece touching only the cell it left."""
    actions = [
        (0, "Move W wB1 N 13 ."),
        (0, "Done"),
        (1, "Move B bB1 O 13 wB1-"),
        (1, "Done"),
        (0, "Move W wQ M 13 -wB1"),
        (0, "Done"),
        (1, "Move B bQ P 13 bB1-"),
        (1, "Done"),
        (0, "Move W wQ N 14 \\wB1"),  # the queen walks round so the beetle may leave
        (0, "Done"),
        (1, "Move B bA1 Q 13 bQ-"),
        (1, "Done"),
        (0, "Move W wQ O 14 wB1/"),
        (0, "Done"),
        (1, "Move B bA2 Q 14 bQ/"),
        (1, "Done"),
        (0, "Pickb N 13 wB1"),
        (0, "Dropb wB1 O 13 ."),  # climbs onto bB1
        (0, "Done"),
        (1, "Move B bA3 R 13 bA1-"),
        (1, "Done"),
        (0, "Pickb O 13 wB1"),
        (0, "Dropb wB1 N 12 ."),  # comes down where it touches only the stack it left
        (0, "Done"),
    ]
    record = read_sgf(sgf(*actions))
    assert record.moves[8] == "wB1 bB1"
    game = record.replay()
    assert game.position_of(Piece.wB1) == (0, 1)  # N 12 is south-east of the first piece
    assert game.stack_at(Hex(1, 0)) == [Piece.bB1]


# --- broken SGF -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("", "no SGF game tree", None),
        ("hello", "not an SGF game tree", 1),
        ("(;GM[27]SU[Hive]\n", "not closed", 2),
        ("(;GM[27]SU[Hive]\n; P0[1 move W wA1 N 13 .\n", "not closed with ']'", 2),
        ("(;GM[1]SU[Hive])", "not a Hive game", 1),
        ("(;GM[27])", "no SU[]", None),
        ("(;GM[27]\nSU[Chess])", "unknown Hive variant", 2),
        ("(;GM[27]SU[Hive-X])", "unknown Hive variant", 1),
        ("(;GM[27]SU[Hive](;P0[1 done]))", "variations", 1),
        ("(;GM[27]SU[Hive]CM[0,0])", "colour map", 1),
        ("(;GM[27]SU[Hive]\n; P0[1 move W wZ1 N 13 .])", "unknown piece 'wZ1'", 2),
        ("(;GM[27]SU[Hive]\n; P0[1 move W wA1 ?? 13 .])", "bad cell", 2),
        ("(;GM[27]SU[Hive]\n; P0[1 move W wA1])", "expected a piece", 2),
        ("(;GM[27]SU[Hive]\n; P0[1 move X wA1 N 13 .])", "bad colour", 2),
        ("(;GM[27]SU[Hive]\n; P0[1 swap])", "unsupported boardspace command 'swap'", 2),
        ("(;GM[27]SU[Hive]\n; P1[1 move B bA1 N 13 .]\n; P1[2 done])", "White's turn", 3),
        ("(;GM[27]SU[Hive] ; P0 x)", "has no [value]", 1),
        ("(;GM[27]SU[Hive] ; P0[1 move W wA1 N 13 .] * )", "unexpected character", 1),
    ],
)
def test_broken_sgf(text: str, message: str, line: int | None) -> None:
    with pytest.raises(RecordError) as caught:
        read_sgf(text, source="broken.sgf")
    assert message in str(caught.value)
    assert caught.value.line == line
    assert str(caught.value).startswith("broken.sgf")


def test_sgf_illegal_move_names_ply_and_line() -> None:
    text = sgf(*OPENING, (1, "Move B bA2 P 13 wS1-"), (1, "Done"))
    with pytest.raises(RecordError) as caught:
        read_sgf(text, source="x.sgf")
    assert caught.value.ply == 4
    assert caught.value.line == text.splitlines().index("; P1[8 Move B bA2 P 13 wS1-]TM[8000]") + 1
    assert "may not touch your opponent" in str(caught.value)


def test_sgf_attachment_must_agree_with_the_grid() -> None:
    with pytest.raises(RecordError, match="attachment 'wA1/' names cell"):
        read_sgf(
            sgf((0, "Move W wA1 N 13 ."), (0, "Done"), (1, "Move B bA1 M 12 wA1/"), (1, "Done"))
        )
    with pytest.raises(RecordError, match="names a piece that is not on the board"):
        read_sgf(
            sgf((0, "Move W wA1 N 13 ."), (0, "Done"), (1, "Move B bA1 M 12 /wQ"), (1, "Done"))
        )


# --- PGN --------------------------------------------------------------------------------------


def test_pgn_styles() -> None:
    mzinga = '[GameType "Base"]\n[Result "WhiteWins"]\n\n' + "\n".join(
        f"{ply}. {move}" for ply, move in enumerate(CHUCKQ.split(";")[3:], 1)
    )
    hivegame = mzinga.replace("WhiteWins", "1-0").replace("1. wA1", "1. wA1 ")
    for text in (mzinga + "\n\nWhiteWins\n", hivegame + "\n"):
        (record,) = read_pgn(text, source="g.pgn")
        game = record.replay()
        assert record.result is GameState.WHITE_WINS is game.state
        assert record.termination is None and record.check_result(game) is None


def test_pgn_results() -> None:
    base = '[GameType "Base"]\n[Result "{}"]\n\n1. wS1\n2. bS1 wS1-\n'
    expected = {
        "1-0": GameState.WHITE_WINS,
        "0-1": GameState.BLACK_WINS,
        "1/2-1/2": GameState.DRAW,
        "Draw": GameState.DRAW,
        "InProgress": GameState.IN_PROGRESS,
        "error parsing result": None,
        "*": None,
    }
    for word, state in expected.items():
        (record,) = read_pgn(base.format(word))
        assert record.result is state
        game = record.replay()
        assert record.check_result(game) is None
    # A recorded ending with nothing on the board said about it: agreed, or resigned.
    assert read_pgn(base.format("1/2-1/2"))[0].termination is Termination.AGREEMENT
    assert read_pgn(base.format("0-1"))[0].termination is Termination.RESIGNATION
    # An explicit termination that is not an off-board one leaves the result unexplained.
    (record,) = read_pgn(base.format("0-1").replace("\n\n", '\n[Termination "normal"]\n\n'))
    assert record.termination is None
    assert "does not say how the game ended" in record.check_result(record.replay())
    (record,) = read_pgn(base.format("0-1").replace("\n\n", '\n[Termination "forfeit"]\n\n'))
    assert record.termination is Termination.FORFEIT
    assert Termination.FORFEIT in TERMINATIONS


def test_check_result_termination_must_fit_the_result() -> None:
    record = GameRecord(
        Game().game_type, ["wS1"], result=GameState.DRAW, termination=Termination.RESIGNATION
    )
    assert record.check_result(record.replay()) == (
        "the record says Draw, which a resignation cannot give"
    )
    record.termination = Termination.AGREEMENT
    assert record.check_result(record.replay()) is None


def test_pgn_duplicated_numbers_are_separate_plies() -> None:
    (record,) = read_pgn('[GameType "Base"]\n\n1. wS1\n1. bS1 wS1-\n2. wQ -wS1\n')
    assert record.moves == ["wS1", "bS1 wS1-", "wQ -wS1"]


def test_pgn_several_games_and_blank_lines() -> None:
    one = '[GameType "Base"]\n[White "a"]\n\n1. wS1\n\n\n2. bS1 wS1-\n\nInProgress\n'
    two = '\n[GameType "Base+M"]\n[Result "*"]\n1. wM\n'
    records = read_pgn(one + two, source="two.pgn")
    assert [r.moves for r in records] == [["wS1", "bS1 wS1-"], ["wM"]]
    assert [r.game for r in records] == [1, 2]
    assert records[1].move_lines == [len((one + two).splitlines())]
    with pytest.raises(RecordError) as caught:
        read_pgn(one + two.replace("wM", "wM wM-"), source="two.pgn")[1].replay()
    assert caught.value.game == 2 and caught.value.ply == 1


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("", "no game found", None),
        ('[GameType "Base"\n', "expected a tag pair", 1),
        ("1. wS1\n", "no [GameType] tag", 1),
        ('[Event "x"]\n\n1. wS1\n', "no [GameType] tag", 1),
        ('[GameType "Base+X"]\n', "bad expansion", 1),
        ('[GameType "Base"]\n[Result "2-0"]\n', "unknown result", 2),
        ('[GameType "Base"]\n[GameType "Base"]\n', "appears twice", 2),
        ('[GameType "Base"]\n\n1.\n', "ply 1 has no move", 3),
        ('[GameType "Base"]\n\nhello\n', "expected a tag pair, a numbered move", 3),
        ('[GameType "Base"]\n\n1. wS1\nDraw\n2. bS1 wS1-\n', "after the result line", 5),
        ('[GameType "Base"]\n[Result "1-0"]\n\n1. wS1\n\n0-1\n', "result line says 0-1", 6),
        ('[GameType "Base"]\n[RepetitionDraw "maybe"]\n', "must be True or False", 2),
    ],
)
def test_broken_pgn(text: str, message: str, line: int | None) -> None:
    with pytest.raises(RecordError) as caught:
        read_pgn(text, source="broken.pgn")
    assert message in str(caught.value)
    assert caught.value.line == line


def test_pgn_bad_move_is_reported_at_its_ply_and_line() -> None:
    (record,) = read_pgn('[GameType "Base"]\n\n1. wS1\n2. bZ9 wS1-\n', source="m.pgn")
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert (caught.value.ply, caught.value.line, caught.value.move) == (2, 4, "bZ9 wS1-")
    assert str(caught.value).startswith("m.pgn:4: game 1, ply 2 (bZ9 wS1-): invalid MoveString")


def test_write_pgn_mzinga_style() -> None:
    game = Game.from_game_string(CHUCKQ)
    text = write_pgn(game, {"White": "SmartBot0", "Black": "ChuckQ", "SgfGameName": "HV-x"})
    lines = text.splitlines()
    assert lines[:8] == [
        '[GameType "Base"]',
        '[Date ""]',
        '[Event ""]',
        '[Site ""]',
        '[Round ""]',
        '[White "SmartBot0"]',
        '[Black "ChuckQ"]',
        '[Result "WhiteWins"]',
    ]
    assert lines[8:11] == ['[SgfGameName "HV-x"]', "", "1. wA1"]
    assert lines[-2:] == ["", "WhiteWins"]
    assert lines[-3].startswith("21. wA1 ")
    assert len(lines) == 9 + 1 + 21 + 2


def test_write_pgn_result_override_and_options() -> None:
    game = Game("Base", tournament_opening=True, repetition_draw=False)
    game.push("wS1")
    text = write_pgn(game, {"Result": "0-1", "Termination": "resignation"})
    (record,) = read_pgn(text)
    assert record.result is GameState.BLACK_WINS and record.termination is Termination.RESIGNATION
    assert record.options == game.options
    with pytest.raises(ValueError, match="unknown result"):
        write_pgn(game, {"Result": "White is better"})
    with pytest.raises(ValueError, match="spans lines"):
        write_pgn(game, {"Event": "a\u2028b"})
    with pytest.raises(ValueError, match="tag name"):
        write_pgn(game, {"Bad Name": "x"})


GAME_TYPES = ["Base", "Base+M", "Base+L", "Base+P", "Base+MLP", "Base+D", "Base+MLPD"]
TAG_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    game_type=st.sampled_from(GAME_TYPES),
    plies=st.integers(0, 120),
    tournament_opening=st.booleans(),
    repetition_draw=st.booleans(),
    white=TAG_TEXT,
    event=TAG_TEXT,
)
def test_pgn_round_trip(
    seed: int,
    game_type: str,
    plies: int,
    tournament_opening: bool,
    repetition_draw: bool,
    white: str,
    event: str,
) -> None:
    assume(all(len(f"<{value}>".splitlines()) == 1 for value in (white, event)))
    rng = random.Random(seed)
    game = Game(game_type, tournament_opening=tournament_opening, repetition_draw=repetition_draw)
    while game.ply < plies and not game.is_over():
        game.push(rng.choice(list(game.legal_moves)))
    text = write_pgn(game, {"White": white, "Event": event})
    (record,) = read_pgn(text)
    assert record.moves == game.move_strings()
    assert record.headers["White"] == white and record.headers["Event"] == event
    assert record.result is game.state
    assert record.options == game.options
    replayed = record.replay()
    assert replayed == game
    assert replayed.hash == game.hash
    assert record.check_result(replayed) is None
    assert len(read_pgn(text + "\n" + text)) == 2


# --- GameString lines -------------------------------------------------------------------------


def test_game_string_lines() -> None:
    text = (
        "# BGA export\n\n"
        + CHUCKQ
        + "\nBase;Draw;White[2];wS1;bS1 wS1-;\nBase+MLP;Draw;White[1];\n"
    )
    records = read_game_strings(text, source="bga.txt")
    assert [r.game for r in records] == [1, 2, 3]
    assert records[0].move_lines[0] == 3
    first, second, empty = records
    assert first.termination is None and first.check_result(first.replay()) is None
    assert second.moves == ["wS1", "bS1 wS1-"] and second.termination is Termination.AGREEMENT
    assert empty.moves == [] and empty.termination is Termination.AGREEMENT
    assert first.options.repetition_draw is False  # BGA does not end games by repetition
    resigned = read_game_strings("Base;BlackWins;White[2];wS1;bS1 wS1-")[0]
    assert resigned.termination is Termination.RESIGNATION


def test_game_string_results_the_board_contradicts() -> None:
    lost = read_game_strings(CHUCKQ.replace("WhiteWins", "BlackWins"))[0]
    assert "says BlackWins but the final position is WhiteWins" in lost.check_result(lost.replay())
    running = read_game_strings(CHUCKQ.replace("WhiteWins", "InProgress"))[0]
    assert running.check_result(running.replay()) is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Base", "expected GameType;GameState;Turn;moves"),
        ("Base+Q;InProgress;White[1]", "bad expansion"),
        ("Base;Winning;White[1]", "unknown game state"),
        ("Base;1-0;White[1]", "unknown game state"),
        ("Base;InProgress;Red[1]", "bad turn"),
    ],
)
def test_broken_game_string_lines(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_game_strings("\n" + text, source="g.txt")
    assert message in str(caught.value)
    assert caught.value.line == 2 and caught.value.game == 1


def test_game_string_empty_move_fails_at_its_ply() -> None:
    (record,) = read_game_strings("Base;InProgress;Black[2];wS1;;bS1 wS1-")
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.ply == 2


def test_load_records_chooses_the_reader(tmp_path) -> None:
    (tmp_path / "a.sgf").write_text(sgf(*OPENING), encoding="utf-8")
    (tmp_path / "b.pgn").write_text('[GameType "Base"]\n\n1. wS1\n', encoding="utf-8")
    (tmp_path / "c.txt").write_text(CHUCKQ + "\n", encoding="utf-8")
    (tmp_path / "d").write_text('[GameType "Base"]\n\n1. wS1\n', encoding="utf-8")
    (tmp_path / "e").write_text(sgf(*OPENING), encoding="utf-8")
    lengths = [
        len(load_records(tmp_path / name)[0].moves)
        for name in ["a.sgf", "b.pgn", "c.txt", "d", "e"]
    ]
    assert lengths == [3, 1, 21, 1, 3]
    with pytest.raises(RecordError, match="cannot read"):
        load_records(tmp_path / "missing.pgn")


# --- no input makes a reader fail with anything but RecordError --------------------------------

SAMPLES = {
    "sgf": sgf(*OPENING, (1, "Pickb M 12 bA1"), (1, "Dropb bA1 P 13 wS1-"), (1, "Done")),
    "pgn": '[GameType "Base+P"]\n[Result "1-0"]\n\n1. wS1\n2. bP wS1-\n3. wQ -wS1\n\n1-0\n',
    "txt": CHUCKQ + "\nBase+MLP;Draw;White[2];wP;bM wP\\\n",
}
ALPHABET = st.sampled_from([*'()[];\\/-. \n"0123456789ABLMNPQSGwbdonePickrmv', "\u2028"])


def _read_and_replay(kind: str, text: str) -> None:
    reader = {"sgf": lambda t: [read_sgf(t)], "pgn": read_pgn, "txt": read_game_strings}[kind]
    try:
        records: list[GameRecord] = reader(text)
    except RecordError as exc:
        assert exc.source == "<string>"
        return
    for record in records:
        try:
            game = record.replay()
        except RecordError as exc:
            assert exc.ply is not None and isinstance(exc.__cause__, ValueError)
            continue
        problem = record.check_result(game)
        # The verdict agrees with the board: a finished position accepts only its own result,
        # and a problem always quotes what the record claims.
        if problem is None:
            assert not (game.state.is_over and record.result not in (None, game.state))
        else:
            assert record.result is not None and f"the record says {record.result}" in problem


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(sorted(SAMPLES)),
    edits=st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 6), st.text(ALPHABET, max_size=4)), max_size=4
    ),
)
def test_mangled_records_fail_cleanly(kind: str, edits: list[tuple[float, int, str]]) -> None:
    """Random cuts and insertions in valid files: only RecordError, never another exception."""
    text = SAMPLES[kind]
    for where, cut, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert + text[at + cut :]
    _read_and_replay(kind, text)


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(sorted(SAMPLES)), text=st.text(max_size=200))
def test_arbitrary_text_fails_cleanly(kind: str, text: str) -> None:
    _read_and_replay(kind, text)
