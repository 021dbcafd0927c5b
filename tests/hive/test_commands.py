"""The ``panal perft`` command, run as a user runs it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from panal.cli import main


def test_perft_prints_every_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "Base", "3", "--tournament-opening"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "depth count seconds leaves_per_second"
    # Mzinga's published counts for Base: 1, 4, 96, 1440.
    assert [tuple(map(int, line.split()[:2])) for line in lines[1:]] == [
        (0, 1),
        (1, 4),
        (2, 96),
        (3, 1440),
    ]


def test_perft_from_a_game_string(capsys: pytest.CaptureFixture[str]) -> None:
    # White may place S2, B1, G1 or A1 on 5 cells (20) or slide the queen to 2 cells; wS1 is
    # pinned between the queens.
    assert main(["perft", "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[:2] == ["1", "22"]


@pytest.mark.parametrize("game", ["Chess", "Base;InProgress;White[1];wQ wQ-"])
def test_perft_rejects_bad_games(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", game, "2"]) == 2
    assert "panal perft:" in capsys.readouterr().err


def test_console_script_is_installed() -> None:
    """The ``panal`` script that ``pip install`` puts beside this Python runs the command line."""
    script = shutil.which("panal", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.fail(f"no panal script in {Path(sys.executable).parent}: pip install -e . makes it")
    result = subprocess.run(
        [script, "perft", "Base+MLP", "2", "--tournament-opening"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines()[-1].split()[:2] == ["2", "294"]
    assert subprocess.run([script, "nonsense"], capture_output=True).returncode == 2
