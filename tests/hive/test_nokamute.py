"""nokamute's named UHP positions (edre/nokamute, uhp_tests.txt): state and valid moves."""

from __future__ import annotations

import pytest

from panal.hive import Game
from tests.hive.oracles import nokamute_cases
from tests.shared_data import shared_cases


@pytest.mark.parametrize(
    ("game_string", "expected"),
    shared_cases(nokamute_cases, "oracles", "nokamute", "uhp_tests.txt"),
)
def test_nokamute_position(game_string: str, expected: str | None) -> None:
    game = Game.from_game_string(game_string, tournament_opening=True)
    assert str(game.state) == game_string.split(";")[1]
    if expected is None:
        return
    moves = expected.split(";")
    if moves == ["pass"]:
        assert [m.is_pass for m in game.legal_moves] == [True]
        return
    pieces = {text.split()[0] for text in moves}
    ours = {m for m in game.legal_moves if m and m.piece.name in pieces}
    assert ours == {game.parse_move(text) for text in moves}
