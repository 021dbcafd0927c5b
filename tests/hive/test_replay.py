"""``replay_files`` (``panal replay``) on small files written here: good and broken."""

from __future__ import annotations

import io
from pathlib import Path

from panal.hive.replay import replay_files
from tests.hive.record_samples import CHUCKQ, OPENING, sgf


def _run(paths: list[Path]) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = replay_files([str(p) for p in paths], out)
    return code, out.getvalue().splitlines()


def _summary(lines: list[str]) -> dict[str, int]:
    keys = ("games", "plies", "illegal moves", "result mismatches", "unreadable files")
    pairs = (line.partition(": ") for line in lines)
    return {key: int(value) for key, _, value in pairs if key in keys}


def test_clean_files(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text(f"# two games\n{CHUCKQ}\nBase;Draw;White[2];wS1;bS1 wS1-\n", encoding="utf-8")
    pgn = tmp_path / "game.pgn"
    pgn.write_text('[GameType "Base"]\n[Result "InProgress"]\n\n1. wS1\n2. bS1 wS1-\n')
    board = tmp_path / "HV-alice-bob.sgf"
    board.write_text(sgf(*OPENING, (1, "Resign"), (1, "Done"), re="Game won by alice"))
    code, lines = _run([games, pgn, board])
    assert code == 0
    assert lines == [
        "games: 4",
        f"plies: {21 + 2 + 2 + 3}",
        "illegal moves: 0",
        "result mismatches: 0",
    ]


def test_illegal_moves_and_mismatches(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    lost = CHUCKQ.replace("WhiteWins", "BlackWins")
    games.write_text(f"{CHUCKQ}\nBase;InProgress;Black[2];wS1;bS1 wS1-;wQ bS1-\n{lost}\n")
    pgn = tmp_path / "game.pgn"
    pgn.write_text('[GameType "Base"]\n\n1. wS1\n2. bS1 wS1-\n3. wQ -wS1\n4. bQ wQ\n')
    board = tmp_path / "HV-alice-bob.sgf"
    board.write_text(sgf(*OPENING, (1, "Move B bA2 P 13 wS1-"), (1, "Done")))
    code, lines = _run([games, pgn, board])
    assert code == 1
    assert lines[0] == (
        f"{games}:2: game 2, ply 3 (wQ bS1-): illegal move: "
        "a new piece may not touch your opponent's pieces"
    )
    assert lines[1] == (
        f"{games}: game 3: result mismatch: the record says BlackWins but the final position is "
        "WhiteWins"
    )
    assert lines[2].startswith(f"{pgn}:6: game 1, ply 4 (bQ wQ): illegal move: ")
    assert lines[3].startswith(f"{board}:")
    assert ", ply 4 (" in lines[3] and "may not touch your opponent" in lines[3]
    assert _summary(lines) == {
        "games": 5,
        "plies": 21 + 2 + 21 + 3 + 3,
        "illegal moves": 3,
        "result mismatches": 1,
    }


def test_unreadable_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pgn"
    broken.write_text('[GameType "Base+Q"]\n\n1. wS1\n')
    ultimate = tmp_path / "HV-u.sgf"
    ultimate.write_text(sgf(su="Hive-Ultimate"))
    good = tmp_path / "good.txt"
    good.write_text("Base;InProgress;White[1]\n")
    code, lines = _run([broken, tmp_path / "missing.pgn", ultimate, good])
    assert code == 1
    assert lines[0].startswith(f"{broken}:1: game 1: unreadable: invalid GameTypeString")
    assert lines[1].startswith(f"{tmp_path / 'missing.pgn'}: unreadable: cannot read the file")
    assert lines[2].startswith(f"{ultimate}:4: unreadable: Hive-Ultimate is not supported")
    assert lines[3:] == [
        "games: 1",
        "plies: 0",
        "illegal moves: 0",
        "result mismatches: 0",
        "unreadable files: 3",
    ]
