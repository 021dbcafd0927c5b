"""Mzinga's rule test data (jonthysell/Mzinga, MIT): perft, valid moves, invalid moves by rule."""

from __future__ import annotations

import pytest

from panal.hive import Game, IllegalMoveError, InvalidMoveError, Move
from tests.hive.oracles import mzinga_cases
from tests.shared_data import shared_cases

MZINGA = ("oracles", "mzinga")
GAME_TYPES = ("Base", "BaseM", "BaseL", "BaseP", "BaseML", "BaseMP", "BaseLP", "BaseMLP")


def _perft_cases(max_depth: int, min_depth: int = 0) -> list:
    cases = []
    for name in GAME_TYPES:
        for case in shared_cases(mzinga_cases, *MZINGA, f"Board_{name}_PerftTest.csv"):
            values = case.values
            if min_depth <= int(values[1]) <= max_depth:
                cases.append(case)
    return cases


@pytest.mark.parametrize(("game_string", "depth", "expected"), _perft_cases(4))
def test_perft(game_string: str, depth: str, expected: str) -> None:
    game = Game.from_game_string(game_string, tournament_opening=True)
    assert game.perft(int(depth)) == int(expected)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_string", "depth", "expected"),
    [c for c in _perft_cases(5, 5) if c.values[0].split(";")[0] in ("Base", "Base+MLP")],
)
def test_perft_depth_5(game_string: str, depth: str, expected: str) -> None:
    game = Game.from_game_string(game_string, tournament_opening=True)
    assert game.perft(int(depth)) == int(expected)


def _destinations(game: Game, move_strings: list[str]) -> set[Move]:
    """Moves compared by piece and destination, not by how the reference was chosen."""
    return {game.parse_move(text) for text in move_strings}


def _valid_move_cases() -> list:
    bugs = (
        "Beetle",
        "Grasshopper",
        "Ladybug",
        "Mosquito",
        "Pillbug",
        "QueenBee",
        "SoldierAnt",
        "Spider",
    )
    cases = []
    for bug in bugs:
        cases += shared_cases(mzinga_cases, *MZINGA, f"Board_ValidMovesFor{bug}Test.csv")
    return cases


@pytest.mark.parametrize(("game_string", "expected"), _valid_move_cases())
def test_valid_moves_for_bug(game_string: str, expected: str) -> None:
    """Each case lists every legal move of the pieces it names."""
    game = Game.from_game_string(game_string, tournament_opening=True)
    expected_moves = expected.split(";")
    pieces = {text.split()[0].lower() for text in expected_moves}
    ours = {m for m in game.legal_moves if m and m.piece.name.lower() in pieces}
    assert ours == _destinations(game, expected_moves)


@pytest.mark.parametrize(
    ("game_string", "expected"),
    shared_cases(mzinga_cases, *MZINGA, "Board_ValidMovesFromRealGamesTest.csv"),
)
def test_valid_moves_from_real_games(game_string: str, expected: str) -> None:
    game = Game.from_game_string(game_string, tournament_opening=True)
    assert set(game.legal_moves) == _destinations(game, expected.split(";"))


@pytest.mark.parametrize(
    ("game_string", "move"), shared_cases(mzinga_cases, *MZINGA, "Board_InvalidMovesByRuleTest.csv")
)
def test_invalid_moves_by_rule(game_string: str, move: str) -> None:
    # Mzinga's hand-written cases say NotStarted (and White[1]) for games already started.
    game = Game.from_game_string(game_string, lenient=True, tournament_opening=True)
    before = game.game_string()
    with pytest.raises((IllegalMoveError, InvalidMoveError)) as caught:
        game.push(move)
    assert str(caught.value)
    assert game.game_string() == before
