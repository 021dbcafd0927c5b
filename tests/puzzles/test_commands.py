"""``panal puzzles``: mining is reproducible and resumable, list and verify read the set."""

from __future__ import annotations

import doctest
import itertools
from pathlib import Path

import pytest

from panal.cli import main
from panal.puzzles import load_puzzles
from panal.puzzles.miner import BGA_FILE
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


def test_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--corpus", str(tmp_path / "none")]) == 2
    assert main(["puzzles", "mine", "--stages", "four"]) == 2
    assert main(["puzzles", "list", "--theme", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert "no corpus folder" in err and "unknown stage" in err and "unknown theme" in err


def test_list_and_verify(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "list", "--kind", "defence", "--print", "1"]) == 0
    out = capsys.readouterr().out
    assert "defence in 1" in out and "solution:" in out
    assert main(["puzzles", "list", "--kind", "defence", "--tables"]) == 0
    assert capsys.readouterr().out.startswith("| kind | puzzles |\n|---|---|\n| defence in 1 |")
    assert main(["puzzles", "verify", "--sample", "400"]) == 0
    assert " proven" in capsys.readouterr().out


def test_the_docs_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "puzzles.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
