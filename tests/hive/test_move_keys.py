"""panal.hive.move_keys: each legal move's key names the piece, reference and relation of the
MoveString panal writes for it, from scratch and through a tracker, in every game type."""

from __future__ import annotations

import pickle
import random

import pytest

from panal.hive import Game
from panal.hive.codes import CARRY_FLAG, PASS_CODE
from panal.hive.move_keys import ON_TOP, MoveKeys
from panal.hive.notation import DIRECTION_SYMBOLS
from panal.hive.pieces import PIECE_BY_VALUE

# key = piece * 448 + reference * 14 + relation (+ 7 for a carry): every part can be read back
KEYS = MoveKeys([p * 448 for p in range(32)], [p * 14 for p in range(32)], 7, pass_key=-5)

GAMES = [
    ("Base", {}),
    ("Base+MLP", {"tournament_opening": True}),
    ("Base+MLPD", {}),
    ("Base+MLPD", {"dragonfly_carry": "next_turn", "mosquito_stays_dragonfly": True}),
]


def written(game: Game, key: int, code: int) -> str:
    """The MoveString a key names, written from the key's parts alone."""
    piece, rest = divmod(key, 448)
    reference, relation = divmod(rest, 14)
    name = PIECE_BY_VALUE[piece].name
    assert piece == code & 31
    if relation >= 7:
        assert code & CARRY_FLAG
        under = game.stacks[game.piece_cells[piece]][-2]
        name += "+" + PIECE_BY_VALUE[under].name
        relation -= 7
    if not game.stacks:
        assert (reference, relation) == (piece, ON_TOP)
        return name
    if relation == ON_TOP:
        return f"{name} {PIECE_BY_VALUE[reference].name}"
    prefix, suffix = DIRECTION_SYMBOLS[relation]
    return f"{name} {prefix}{PIECE_BY_VALUE[reference].name}{suffix}"


@pytest.mark.parametrize(("game_type", "rules"), GAMES)
def test_keys_name_the_movestrings_panal_writes(game_type: str, rules: dict[str, object]) -> None:
    rng = random.Random(3)
    positions = 0
    for _ in range(3):
        game = Game(game_type, **rules)  # type: ignore[arg-type]
        tracker = KEYS.tracker(game)
        while not game.is_over() and game.ply < 150:
            legal = tracker.legal()
            assert legal == KEYS.legal(game)
            codes = game.legal_move_codes()
            assert sorted(legal.values()) == sorted(codes)  # one key per legal move
            if codes == [PASS_CODE]:
                assert legal == {-5: PASS_CODE}
            else:
                for key, code in legal.items():
                    assert written(game, key, code) == game.move_string(code)
            positions += 1
            tracker.push(rng.choice(codes))
        assert KEYS.legal(game) == ({} if game.is_over() else tracker.legal())
    assert positions > 300


def test_weights_take_one_int_per_piece_value() -> None:
    with pytest.raises(ValueError, match="one int per piece value"):
        MoveKeys([0] * 31, [0] * 32, 7)


def test_keys_and_trackers_pickle() -> None:
    """OpenSpiel serialises states with pickle; a tracker comes back following a copy of its
    game, with the same keys."""
    game = Game("Base+MLP", tournament_opening=True)
    tracker = KEYS.tracker(game)
    for _ in range(9):
        tracker.push(sorted(tracker.legal().values())[0])
    twin = pickle.loads(pickle.dumps(tracker))
    assert twin.game is not game and twin.game.hash == game.hash
    assert twin.legal() == tracker.legal() and twin.keys.pass_key == -5
