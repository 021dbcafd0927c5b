"""``panal analyse``: the annotated PGN of real games reads back with the moves unchanged, the
summary and the progress bar, a position's lines, and clear errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from panal.cli import main
from panal.hive import Game
from panal.hive.records import iter_records, read_pgn
from tests.shared_data import shared

SGF = ("corpus", "mzinga-boardspace-sgf", "HV-Abbo69-WeakBot-2018-10-28-2007.sgf")
MZINGA_PGN = ("corpus", "mzinga-boardspace-sgf", "HV-Abbo69-WeakBot-2018-11-03-1941.pgn")
BGA = ("corpus", "alpha-hive-bga-uhp", "bga_base_mlp_renumbered.uhp.txt")


def _reads_back(source: Path, annotated: Path, game: int = 1) -> str:
    """Check the annotated PGN against the record it came from; return its text."""
    original = list(iter_records(source))[game - 1]
    text = annotated.read_text(encoding="utf-8")
    (back,) = read_pgn(text)
    replayed = original.replay()
    assert back.moves == replayed.move_strings()
    assert back.replay().move_strings() == replayed.move_strings()
    assert back.game_type == original.game_type
    # The recorded result, or the position's when the record says none (an old boardspace file).
    assert back.result == (original.result if original.result is not None else replayed.state)
    return text


@pytest.mark.parametrize("parts", [SGF, MZINGA_PGN], ids=["sgf", "pgn"])
def test_a_corpus_game_reads_back_unchanged(
    parts: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = shared(*parts)
    out = tmp_path / "annotated.pgn"
    assert main(["analyse", str(source), "--nodes", "300", "-o", str(out)]) == 0
    text = _reads_back(source, out)
    printed = capsys.readouterr()
    assert "accuracy" in printed.out and "Turning points" in printed.out
    assert f"Annotated PGN: {out}" in printed.out
    assert "plies" in printed.err  # the progress bar
    # Every ply has its evaluation; every mark its better move and a variation.
    moves = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    assert all(re.search(r"\{White \d+%", line) for line in moves)
    marked = [line for line in moves if re.search(r" (\?!|\?|\?\?) \{", line)]
    assert marked, "a game against WeakBot without a single marked move"
    assert all("; better " in line and line.endswith(")") for line in marked)
    for line in marked:
        mark = line.split(" {")[0].rsplit(" ", 1)[1]
        word = {"?!": "Inaccuracy", "?": "Mistake", "??": "Blunder"}[mark]
        assert f". {word}: " in line
        assert f" {mark}  {word.lower()}: " in printed.out


def test_a_game_string_line_and_the_pgn_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = shared(*BGA).read_text(encoding="utf-8").splitlines()
    source = tmp_path / "games.txt"
    source.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    assert main(["analyse", str(source), "--game", "2", "--nodes", "200", "-o", "-"]) == 0
    printed = capsys.readouterr()
    out = tmp_path / "stdout.pgn"
    out.write_text(printed.out, encoding="utf-8")
    _reads_back(source, out, game=2)
    assert "accuracy" in printed.err  # the summary goes to stderr


def test_the_default_output_is_named_after_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "short.txt"
    source.write_text("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-\n")
    monkeypatch.chdir(tmp_path)
    assert main(["analyse", str(source), "--nodes", "100", "--no-progress"]) == 0
    assert (tmp_path / "short.annotated.pgn").exists()
    assert main(["analyse", "Base;InProgress;White[2];wS1;bS1 wS1-", "--nodes", "100"]) == 0
    (back,) = read_pgn((tmp_path / "game.annotated.pgn").read_text())
    assert back.moves == ["wS1", "bS1 wS1-"]


def test_a_position_gets_its_best_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    position = tmp_path / "position.txt"
    position.write_text(game.board_text(), encoding="utf-8")
    assert main(["analyse", str(position), "--nodes", "500", "--lines", "2"]) == 0
    printed = capsys.readouterr().out
    assert "white to move" in printed
    shown = [line for line in printed.splitlines() if re.match(r"\d\. \d+%", line)]
    assert len(shown) == 2
    for line in shown:
        first = line.split(": ", 1)[1].split("; ")[0]
        assert game.is_legal(first)
    assert main(["analyse", game.game_string(), "--position", "--nodes", "500"]) == 0
    assert len(re.findall(r"^\d\. \d+%", capsys.readouterr().out, re.MULTILINE)) == 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["no-such-file.pgn"], "no such file: no-such-file.pgn"),
        (["Base;InProgress;White[2];wS1;bQ wS1-;wS2"], "move 3 ('wS2')"),
        (["Base;InProgress;White[1]"], "the game has no move to review"),
        (["Base;InProgress;White[2];wS1;bS1 wS1-", "--nodes", "0"], "--nodes is at least 1"),
        (["Base;InProgress;White[2];wS1;bS1 wS1-", "--game", "0"], None),
    ],
)
def test_bad_input_gets_a_clear_error(
    arguments: list[str], message: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["analyse", *arguments, "--no-progress", "-o", "-"])
    error = capsys.readouterr().err
    if message is None:
        assert code == 0  # --game only counts in a file
    else:
        assert code == 2
        assert error.startswith("panal analyse: ") and message in error


def test_a_finished_position_has_no_lines(capsys: pytest.CaptureFixture[str]) -> None:
    won = (
        r"Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;"
        r"bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bA1 bG2/;wQ /bG1"
    )
    assert main(["analyse", won, "--position"]) == 2
    assert "the game is over" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mzinga-boardspace-sgf", "roach-boardspace-sgf"])
def test_every_boardspace_game_of_a_folder_reads_back(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every SGF of the folder (passes, pillbug throws, every expansion boardspace plays), at a
    small budget: the annotations are what is checked, not the engine."""
    folder = shared("corpus", name)
    for source in sorted(folder.glob("*.sgf"))[:40]:
        if "Ultimate" in source.read_text(encoding="utf-8", errors="replace")[:2000]:
            continue  # a different set of pieces, not read by panal
        out = tmp_path / f"{source.stem}.pgn"
        assert main(["analyse", str(source), "--nodes", "50", "--no-progress", "-o", str(out)]) == 0
        _reads_back(source, out)
    capsys.readouterr()
