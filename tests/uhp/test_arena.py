"""panal arena: Elo arithmetic, openings, refereeing, files, the command line."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from panal.hive import Game
from panal.uhp.arena import ArenaSettings, elo_interval, make_openings, run_match
from panal.uhp.commands import parse_time

FAKE = f"{sys.executable} {Path(__file__).with_name('fake_engine.py')}"
RANDOM = f"{sys.executable} -m panal.uhp.players random 1"
GREEDY = f"{sys.executable} -m panal.uhp.players greedy 1"


def test_elo_interval() -> None:
    elo, low, high = elo_interval(5, 0, 5)
    assert elo == 0 and low < 0 < high and math.isclose(low, -high)
    elo, low, high = elo_interval(7, 2, 1)
    assert 200 < elo < 400 and low < elo < high
    elo, low, high = elo_interval(10, 0, 0)
    assert elo == math.inf and high == math.inf and 100 < low < 300
    assert elo_interval(0, 0, 4)[0] == -math.inf
    assert elo_interval(0, 3, 0)[0] == 0


def test_parse_time() -> None:
    assert parse_time("1s") == 1.0
    assert parse_time("500ms") == 0.5
    assert parse_time("0.25") == 0.25
    assert parse_time("2m") == 120
    assert parse_time("00:00:03") == 3
    with pytest.raises(ValueError):
        parse_time("soon")
    for bad in ("00:99:00", "1:2:3", "00:00:00"):
        with pytest.raises(ValueError):
            parse_time(bad)


def test_openings_are_varied_legal_and_reproducible() -> None:
    openings = make_openings("Base+MLP", 8, 4, seed=3)
    assert openings == make_openings("Base+MLP", 8, 4, seed=3)
    positions = set()
    for moves in openings:
        game = Game("Base+MLP", tournament_opening=True)
        for text in moves:
            game.push(text)
        positions.add(game.hash)
        assert game.ply == 4 and not game.is_queen_placed(game.turn)
    assert len(positions) == 8


def test_match_with_files(tmp_path: Path) -> None:
    settings = ArenaSettings(
        engines=(GREEDY, RANDOM),
        games=2,
        time_per_move=None,
        depth=1,
        max_plies=60,
        names=("greedy", "random"),
        out=tmp_path,
    )
    summary = run_match(settings, show_progress=False)
    assert summary.games == 2
    assert summary.wins + summary.draws + summary.losses == 2
    assert {o.white for o in summary.outcomes} == {0, 1}  # colours alternate
    lines = (tmp_path / "games.txt").read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        Game.from_game_string(line, tournament_opening=True)  # every game replays
    assert (tmp_path / "games.pgn").read_text().count('[Event "panal arena"]') == 2
    data = json.loads((tmp_path / "summary.json").read_text())
    assert data["names"] == ["greedy", "random"] and len(data["results"]) == 2


def test_illegal_moves_and_crashes_lose(tmp_path: Path) -> None:
    for mode, reason in [("illegal", "illegal move"), ("crash", "engine failure")]:
        settings = ArenaSettings(
            engines=(RANDOM, f"{FAKE} {mode}"), games=2, time_per_move=0.2, names=("r", mode)
        )
        summary = run_match(settings, show_progress=False)
        assert summary.wins == 2, summary.text()
        assert len(summary.illegal) == 2 and all(reason in e for e in summary.illegal)


def test_command_line_json(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "panal.cli",
            "arena",
            "--engine",
            RANDOM,
            "--engine",
            "panal uhp",
            "--option",
            "2:Level=easy",
            "--name",
            "1:randy",
            "--games",
            "2",
            "--time",
            "200ms",
            "--game-type",
            "Base+MLP",
            "--max-plies",
            "40",
            "--json",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    data = json.loads(result.stdout)
    assert data["games"] == 2
    assert data["names"] == ["randy", "panal uhp [Level=easy]"]
    assert "2/2 games" in result.stderr  # the progress bar
    assert (tmp_path / "games.txt").exists()


def test_command_line_errors() -> None:
    for args in [["--engine", "x"], ["--engine", "x", "--engine", "y", "--time", "soon"]]:
        result = subprocess.run(
            [sys.executable, "-m", "panal.cli", "arena", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 2 and "panal arena" in result.stderr
