"""The third-party PyPI toolset ``uhp-utils`` against ``panal uhp``: no protocol error.

Its tools launch an executable by path, so these tests need the ``panal`` console script and
``uhp-utils`` itself (the ``test`` extra) installed beside the Python that runs pytest, so that
they test this checkout and not another ``panal`` on PATH; they skip otherwise.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared_data import read_lines, shared


def _installed(name: str) -> str:
    """The console script ``name`` of the environment running the tests."""
    return str(Path(sys.executable).with_name(name))


PANAL = _installed("panal")

pytestmark = pytest.mark.skipif(
    not (Path(_installed("uhp-compare-validmoves")).exists() and Path(PANAL).exists()),
    reason="uhp-utils or the panal console script is not installed beside this Python",
)


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


def test_compare_validmoves_on_real_positions(tmp_path: Path) -> None:
    source = shared("oracles", "mzinga", "Board_ValidMovesFromRealGamesTest.csv")
    positions = [line.split("\t")[0] for line in read_lines(source) if line.startswith("Base")]
    listing = tmp_path / "positions.txt"
    listing.write_text("\n".join(positions[::8]) + "\n")
    result = _run(
        _installed("uhp-compare-validmoves"), PANAL, PANAL, str(listing),
        "--engine-a-arg", "uhp", "--engine-b-arg", "uhp", "-t", "60",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 differed" in result.stdout


def test_compare_perft() -> None:
    result = _run(
        _installed("uhp-compare-perft"), PANAL, PANAL, "Base+MLP;NotStarted;White[1]", "3",
        "--engine-a-arg", "uhp", "--engine-b-arg", "uhp",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "{1: 7, 2: 294, 3: 6678}" in result.stdout
    assert "Perft results match" in result.stdout


def test_arena_plays_a_game_to_the_end(tmp_path: Path) -> None:
    result = _run(
        _installed("uhp-arena"), PANAL, PANAL, "--white-arg", "uhp", "--black-arg", "uhp",
        "-d", "1", "-g", "1", "-G", "Base+MLP", "-m", "120", "-r", str(tmp_path / "r.json"),
    )  # fmt: skip
    assert result.returncode in (0, 2), result.stdout + result.stderr
    assert "ProtocolError" not in result.stdout and "Crash" not in result.stdout
    assert "Games: 1" in result.stdout


def test_wrapper_and_to_pgn() -> None:
    result = subprocess.run(
        [_installed("uhp-wrapper"), PANAL, "-a", "uhp", "-t", "60"],
        input="newgame Base\nbestmove depth 1\noptions\nexit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Level;enum;strongest" in result.stdout and "err" not in result.stdout
    pgn = _run(
        _installed("uhp-to-pgn"), "Base;InProgress;White[2];wS1;bS1 wS1-", "-w", "a", "-b", "b"
    )
    assert pgn.returncode == 0 and "bS1 wS1-" in pgn.stdout
