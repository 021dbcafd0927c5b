"""nokamute's uhp_tests.txt (edre/nokamute) driven through ``panal uhp`` over the protocol.

One engine process, as a viewer would use it: ``newgame <GameString>`` for each case, the state
in the reply compared with the case's, then ``validmoves`` compared with the expected moves as
sets of move codes (the same move can be written against different reference pieces).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from panal.hive import Game
from panal.uhp.client import SimpleEngine
from tests.hive.oracles import nokamute_cases
from tests.shared_data import shared_cases


@pytest.fixture(scope="module")
def engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen([sys.executable, "-m", "panal.cli", "uhp"]) as running:
        yield running


@pytest.mark.parametrize(
    ("game_string", "expected"),
    shared_cases(nokamute_cases, "oracles", "nokamute", "uhp_tests.txt"),
)
def test_nokamute_case_over_uhp(
    engine: SimpleEngine, game_string: str, expected: str | None
) -> None:
    reply = engine.newgame(game_string)
    assert reply.split(";")[1] == game_string.split(";")[1]
    referee = Game.from_game_string(reply, tournament_opening=True)
    assert referee.game_string() == reply
    if referee.is_over():
        assert engine.validmoves() == []
        return
    ours = engine.validmoves()
    ours_codes = {referee.parse_move_code(text) for text in ours}
    assert len(ours_codes) == len(ours)  # no move listed twice
    assert ours_codes == set(referee.legal_move_codes())
    if expected is None:
        return
    moves = expected.split(";")
    wanted = {referee.parse_move_code(text) for text in moves}
    if moves == ["pass"]:
        assert ours == ["pass"]
        return
    pieces = {code & 31 for code in wanted}
    assert {code for code in ours_codes if code & 31 in pieces} == wanted
