"""Game records against third-party games: hivegame.com's test PGNs, boardspace SGF (with its
reference conversion and Mzinga's PGN conversions) and the BoardGameArena GameString corpus."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from panal.hive import Game, GameState, IllegalMoveError, Termination
from panal.hive.records import (
    GameRecord,
    RecordError,
    load_records,
    read_game_strings,
    read_sgf_file,
)
from panal.hive.rules import Rule
from tests.shared_data import SHARED_DIR, shared, shared_cases

CORPUS = ("corpus",)
HIVEGAME = (*CORPUS, "hivegame-com-test-pgns")
BOARDSPACE_DIRS = ("roach-boardspace-sgf", "mzinga-boardspace-sgf")


def _meaning(record_or_type: GameRecord | str, moves: list[str] | None = None, options=None):
    """The moves as (piece, destination, carry), which do not depend on the reference chosen."""
    if isinstance(record_or_type, GameRecord):
        game = Game(record_or_type.game_type, options=record_or_type.options)
        moves = record_or_type.moves
    else:
        game = Game(record_or_type, options=options)
    assert moves is not None
    return [game.push(text, lenient=True) for text in moves]


def _pgn(path: Path) -> GameRecord:
    (record,) = load_records(path)
    return record


# --- hivegame.com test PGNs -------------------------------------------------------------------


def _files(*parts: str) -> list:
    return shared_cases(
        lambda folder: [pytest.param(p, id=p.name) for p in sorted(folder.glob("*.pgn"))], *parts
    )


@pytest.mark.parametrize(
    "path",
    _files(*HIVEGAME, "valid")
    + _files(*HIVEGAME, "hash", "valid")
    + _files(*HIVEGAME, "hash", "mirroring")
    + _files(*HIVEGAME, "hash", "rotation")
    + _files(*HIVEGAME, "hash", "same_position")
    + [
        pytest.param(p, id=p.name)
        for p in (
            SHARED_DIR.joinpath(*HIVEGAME, "hash", "short_pass.pgn"),
            SHARED_DIR.joinpath(*HIVEGAME, "print", "comb.pgn"),
        )
        if p.exists()
    ],
)
def test_hivegame_valid_games_replay(path: Path) -> None:
    """Every move is legal and the recorded result agrees with the final position."""
    record = _pgn(path)
    game = record.replay()
    assert game.ply == len(record.moves)
    assert record.check_result(game) is None


# The ply (1-based) at which each deliberately illegal game must be rejected, read from the files,
# and the rule it breaks (None: the move does not even name a cell on the board).
INVALID_GAMES = {
    # 12. bA1 bP: Black's soldier ant would climb onto the pillbug.
    "ant_climb.pgn": (12, Rule.NO_CLIMB),
    # "9. wM \bQ" is written twice: the copy is the 10th ply, White moving on Black's turn.
    "duplicated_move.pgn": (10, Rule.OPPONENT_PIECE),
    # 7. wM /bQ then 8. wM bP-: Black's pillbug throws the mosquito White has just moved.
    "move_a_just_moved.pgn": (8, Rule.THROW_LAST_MOVED),
    # 3. wB1 bL: White's beetle moves before White's queen is placed.
    "move_before_q.pgn": (3, Rule.QUEEN_BEFORE_MOVING),
    # 1. wP wP/: the first piece is placed next to itself.
    "spawn_relative_to_self.pgn": (1, None),
    # 9. wA1 bP-: a new white ant placed touching Black's pillbug.
    "spawn_unallowed.pgn": (9, Rule.PLACE_NOT_ENEMY),
    # 10. bS1 \wB1: no three-step spider path leads there.
    "spider_moves.pgn": (10, Rule.SPIDER),
    # 5. wQ \wA2 then 6. wB1 -wQ: White places twice in a row; ply 6 is Black's.
    "white_double_spawn.pgn": (6, Rule.NOT_YOUR_TURN),
}
# Games that reach the same position (pieces, side to move) a third time and go on: the threefold
# repetition ended the game, so the next ply is refused.
REPEATED_GAMES = {
    # wQ and bQ shuffle between two cells: plies 4, 8 and 12 leave the same position.
    "repeat.pgn": 13,
    "repeat2.pgn": 13,
    # The queens shuffle from ply 61: plies 61, 65 and 69 leave the same position.
    "shuriken_repeat.pgn": 70,
    # A boardspace game: plies 26, 30 and 34 leave the same position (boardspace let it go on).
    "HV-entomokine-CoalLover-2021-07-31-1516.pgn": 35,
}


def test_hivegame_invalid_folders_are_all_covered() -> None:
    assert {p.name for p in shared(*HIVEGAME, "invalid").glob("*.pgn")} == set(INVALID_GAMES)
    assert {p.name for p in shared(*HIVEGAME, "hash", "invalid").glob("*.pgn")} == set(
        REPEATED_GAMES
    )


@pytest.mark.parametrize(("name", "expected"), sorted(INVALID_GAMES.items()))
def test_hivegame_invalid_games_rejected_at_the_right_ply(name: str, expected: tuple) -> None:
    ply, rule = expected
    record = _pgn(shared(*HIVEGAME, "invalid", name))
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.ply == ply
    assert caught.value.move == record.moves[ply - 1]
    assert name in str(caught.value) and f"ply {ply}" in str(caught.value)
    assert isinstance(caught.value.__cause__, ValueError)
    if rule is not None:
        assert isinstance(caught.value.__cause__, IllegalMoveError)
        assert caught.value.__cause__.rule is rule
    # Everything before the bad ply replays.
    GameRecord(record.game_type, record.moves[: ply - 1], options=record.options).replay()


@pytest.mark.parametrize(("name", "ply"), sorted(REPEATED_GAMES.items()))
def test_hivegame_games_ended_by_repetition(name: str, ply: int) -> None:
    record = _pgn(shared(*HIVEGAME, "hash", "invalid", name))
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.ply == ply
    assert caught.value.__cause__.rule is Rule.GAME_OVER
    before = GameRecord(record.game_type, record.moves[: ply - 1], options=record.options).replay()
    assert before.state is GameState.DRAW
    assert before.repetitions() == 3


def test_hivegame_print_file_with_a_third_spider_is_rejected() -> None:
    """print/print.pgn places 'wS3' at ply 15; there are two spiders."""
    record = _pgn(shared(*HIVEGAME, "print", "print.pgn"))
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.ply == 15
    assert "wS3" in str(caught.value)


# --- boardspace SGF ---------------------------------------------------------------------------


def _reference_rows(path: Path) -> list:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [pytest.param(row, id=row["file"]) for row in rows]


REFERENCE = shared_cases(_reference_rows, *CORPUS, "derived", "boardspace_sgf_176.uhp.jsonl")


def _sgf_path(name: str) -> Path:
    for folder in BOARDSPACE_DIRS:
        path = SHARED_DIR / "corpus" / folder / name
        if path.exists():
            return path
    raise AssertionError(f"{name} is in the reference conversion but not in the corpus")


# Recorded draws the moves cannot explain: no draw offer, no repeated position, no surround.
UNEXPLAINED_RESULTS = {"HV-Dumbot-makobwoy-2020-03-28-2327.sgf"}


def test_boardspace_corpus_is_complete() -> None:
    files = {p.name for d in BOARDSPACE_DIRS for p in shared(*CORPUS, d).glob("*.sgf")}
    names = {case.values[0]["file"] for case in REFERENCE}
    assert len(files) == 176
    assert files == names
    assert sum(case.values[0]["gametype"] is not None for case in REFERENCE) == 174


@pytest.mark.parametrize("row", REFERENCE)
def test_sgf_import_reproduces_the_reference_conversion(row: dict) -> None:
    path = _sgf_path(row["file"])
    if row["gametype"] is None:  # Hive-Ultimate: other pieces
        with pytest.raises(RecordError, match="Hive-Ultimate"):
            read_sgf_file(path)
        return
    record = read_sgf_file(path)
    assert str(record.game_type) == row["gametype"]
    # By meaning: the piece and its destination cell, whatever reference each side chose.
    assert _meaning(record) == _meaning(row["gametype"], row["moves"], record.options)
    game = record.replay()  # every move legal
    assert game.ply == len(row["moves"])
    recorded = record.result if record.result is not None else game.state
    assert str(recorded) == row["result"]
    ending = row["end"]
    if ending.startswith("queen-surrounded"):
        loser = ending.split(":")[1]
        assert game.state is (GameState.BLACK_WINS if loser == "wQ" else GameState.WHITE_WINS)
        assert record.termination is None
    elif ending.startswith("resign-"):
        assert record.termination is Termination.RESIGNATION
        loser_white = ending == "resign-P0"
        assert record.result is (GameState.BLACK_WINS if loser_white else GameState.WHITE_WINS)
    elif ending == "draw-agreed":
        assert record.termination is Termination.AGREEMENT
    else:
        assert ending == "draw-recorded"
        assert record.result is GameState.DRAW and not game.is_over()
    if row["file"] in UNEXPLAINED_RESULTS:
        assert record.termination is None and record.check_result(game) is not None
    else:
        assert record.check_result(game) is None


def _mzinga_pairs(folder: Path) -> list:
    return [pytest.param(p, id=p.name) for p in sorted(folder.glob("*.pgn"))]


MZINGA_PGNS = shared_cases(_mzinga_pairs, *CORPUS, "mzinga-boardspace-sgf")


def test_mzinga_conversions_count() -> None:
    shared(*CORPUS, "mzinga-boardspace-sgf")
    assert len(MZINGA_PGNS) == 19


@pytest.mark.parametrize("path", MZINGA_PGNS)
def test_mzinga_pgn_matches_the_sgf_import(path: Path) -> None:
    pgn = _pgn(path)
    sgf = read_sgf_file(path.with_suffix(".sgf"))
    assert pgn.game_type == sgf.game_type
    assert _meaning(pgn) == _meaning(sgf)
    assert (pgn.headers["White"], pgn.headers["Black"]) == (
        sgf.headers["White"],
        sgf.headers["Black"],
    )
    game = pgn.replay()
    assert pgn.check_result(game) is None
    if sgf.result is not None:
        assert pgn.result is sgf.result


# --- BoardGameArena GameString lines ----------------------------------------------------------

BGA = (*CORPUS, "alpha-hive-bga-uhp")


@pytest.mark.slow
def test_bga_corpus_replays() -> None:
    """6,369 human games: every move legal, every recorded win a surrounded queen."""
    path = shared(*BGA, "bga_base_mlp_renumbered.uhp.txt")
    records = load_records(path)
    assert len(records) == 6369
    endings: Counter[str] = Counter()
    plies = 0
    for record in records:
        game = record.replay()
        plies += game.ply
        assert record.check_result(game) is None, record.game
        if record.result in (GameState.WHITE_WINS, GameState.BLACK_WINS):
            assert game.state is record.result, record.game  # won on the board, not resigned
            endings[str(record.result)] += 1
        elif game.state is GameState.DRAW:
            endings["both queens surrounded"] += 1
        else:
            assert record.result is GameState.DRAW and record.termination is Termination.AGREEMENT
            endings["agreed draw"] += 1
    assert endings == {
        "WhiteWins": 3469,
        "BlackWins": 2620,
        "both queens surrounded": 99,
        "agreed draw": 181,
    }
    assert plies == 329_730


def test_bga_raw_numbering_is_rejected() -> None:
    """The unrenumbered file names pieces by BGA's ids: its first game opens with wG3."""
    path = shared(*BGA, "BoardGameArena_Base+MLP+NoBots_20240704_110945.txt")
    with path.open(encoding="utf-8") as lines:
        first = lines.readline()
    (record,) = read_game_strings(first, source=path.name)
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.ply == 1
    assert caught.value.__cause__.rule is Rule.ORDER
    assert "place wG1 first" in str(caught.value)


def test_bga_renumbered_first_game_replays_as_an_agreed_draw() -> None:
    path = shared(*BGA, "bga_base_mlp_renumbered.uhp.txt")
    with path.open(encoding="utf-8") as lines:
        (record,) = read_game_strings(lines.readline())
    game = record.replay()
    assert record.result is GameState.DRAW and not game.is_over()
    assert record.termination is Termination.AGREEMENT
