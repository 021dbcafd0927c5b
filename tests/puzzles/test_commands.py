"""``panal puzzles``: mining is reproducible and resumable, list and verify read the set."""

from __future__ import annotations

import doctest
import itertools
import json
from pathlib import Path

import pytest

from panal.cli import main
from panal.puzzles import load_puzzles
from panal.puzzles.miner import BGA_FILE, iter_corpus
from tests.shared_data import shared

ROOT = Path(__file__).resolve().parents[2]


def _small_corpus(tmp_path: Path, games: int) -> Path:
    source = shared("corpus", BGA_FILE)
    target = tmp_path / "corpus" / BGA_FILE
    target.parent.mkdir(parents=True)
    with source.open(encoding="utf-8") as lines:
        target.write_text("".join(itertools.islice(lines, games)), encoding="utf-8")
    return tmp_path / "corpus"


def test_mining_is_reproducible_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = _small_corpus(tmp_path, 3)
    one, two = tmp_path / "one.jsonl.gz", tmp_path / "two.jsonl.gz"
    base = ["puzzles", "mine", "--corpus", str(corpus), "--stages", "one"]
    assert main([*base, "--work", str(tmp_path / "w1"), "--out", str(one)]) == 0
    # The same in two runs: two games, then the rest from the checkpoint.
    for games in ("2", "3"):
        args = [*base, "--work", str(tmp_path / "w2"), "--out", str(two), "--games", games]
        assert main(args) == 0
    assert one.read_bytes() == two.read_bytes()
    mined = load_puzzles(one)
    assert mined and all(p.source["file"] == BGA_FILE and p.source["game"] <= 3 for p in mined)
    assert "puzzles written" in capsys.readouterr().out


def test_the_miner_skips_games_panal_cannot_read(tmp_path: Path) -> None:
    """A Hive-Ultimate record (other pieces) is left out; the games around it are mined."""
    folder = tmp_path / "roach-boardspace-sgf"
    folder.mkdir()
    for name in (
        "HV-Asevenson-Dumbot-2020-03-31-1706.sgf",
        "HV-aundreg-Dumbot1-2020-03-30-0038.sgf",  # Hive-Ultimate
        "HV-BartV-Dumbot1-2020-03-29-1641.sgf",
    ):
        (folder / name).write_bytes(shared("corpus", "roach-boardspace-sgf", name).read_bytes())
    games = [game.file for game in iter_corpus(tmp_path)]
    assert games == [
        "roach-boardspace-sgf/HV-Asevenson-Dumbot-2020-03-31-1706.sgf",
        "roach-boardspace-sgf/HV-BartV-Dumbot1-2020-03-29-1641.sgf",
    ]


def test_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--corpus", str(tmp_path / "none")]) == 2
    assert main(["puzzles", "mine", "--stages", "four"]) == 2
    assert main(["puzzles", "list", "--theme", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert "no corpus folder" in err and "unknown stage" in err and "unknown theme" in err


def test_list_and_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "list", "--kind", "defence", "--print", "1"]) == 0
    out = capsys.readouterr().out
    assert "defence in 1" in out and "solution:" in out
    assert main(["puzzles", "list", "--kind", "defence", "--tables"]) == 0
    assert capsys.readouterr().out.startswith("| kind | puzzles |\n|---|---|\n| defence in 1 |")
    # A few surrounds in one and two and defences (the solver proves a surround in three in
    # seconds to a minute: the slow suite's independent checker proves those).
    short = [p for p in load_puzzles() if p.moves < 3][::400]
    sample = tmp_path / "sample.jsonl"
    sample.write_text("".join(json.dumps(p.to_json()) + "\n" for p in short), encoding="utf-8")
    assert main(["puzzles", "verify", "--file", str(sample)]) == 0
    assert f"{len(short)} of {len(short)} proven" in capsys.readouterr().out


def test_the_docs_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "puzzles.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
