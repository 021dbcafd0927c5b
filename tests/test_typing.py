"""Types users can check: a user's program, type-checked with ``mypy --strict`` against the
installed package (it ships ``py.typed``), has no finding, and a mistake in it is found."""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy comes with the test extra")

USER_PROGRAM = """
from panal.hex import Hex
from panal.hive import PASS, Color, Game, Move, Outcome, Piece, Termination
from panal.hive.records import iter_records
from panal.hive.svg import board_svg

game = Game("Base+MLP", tournament_opening=True)
first: Move = game.push("wS1")
cell: Hex = Hex(1, 0) + (0, 1)
piece: Piece = Piece.wA1
count: int = len(game.legal_moves)
playable: bool = "bA1 wS1-" in game.legal_moves
moves: list[Move] = list(game.legal_moves)
outcome: Outcome | None = game.outcome()
if outcome is not None and outcome.termination is Termination.SURROUNDED:
    winner: Color | None = outcome.winner
if not PASS and first:
    where: Hex = first.to
picture: str = board_svg(game, language="es", look="football")
names = [record.moves for record in iter_records("games.pgn")]
"""


def _check(tmp_path: Path, source: str) -> tuple[str, int]:
    program = tmp_path / "user_program.py"
    program.write_text(source, encoding="utf-8")
    out, err, status = mypy_api.run(
        ["--strict", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(program)]
    )
    return out + err, status


def test_user_code_type_checks_strictly(tmp_path: Path) -> None:
    report, status = _check(tmp_path, USER_PROGRAM)
    assert status == 0, report


def test_mistakes_are_found(tmp_path: Path) -> None:
    report, status = _check(
        tmp_path, USER_PROGRAM + "wrong: str = Piece.wZ9\nlate: int = game.outcome()\n"
    )
    assert status == 1
    assert 'has no attribute "wZ9"' in report
    assert "Incompatible types in assignment" in report
