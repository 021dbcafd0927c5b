"""Property tests: long random games never break an invariant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Game, GameType
from panal.hive.game import SIDE_KEY, _frozen_key, _zobrist

GAME_TYPES = ["Base", "Base+M", "Base+L", "Base+P", "Base+MLP", "Base+D", "Base+MLPD"]


def hash_from_scratch(game: Game) -> int:
    h = 0
    for cell, stack in game._stacks.items():
        for level, piece in enumerate(stack):
            h ^= _zobrist(piece, cell, level)
    if game.ply % 2:
        h ^= SIDE_KEY
    if "P" in str(game.game_type) and game.last_moved is not None:
        h ^= _frozen_key(game._cell[game.last_moved])
    return h


def assert_invariants(game: Game) -> None:
    stacks = game._stacks
    # One hive: every occupied cell is reachable from any other.
    if stacks:
        start = next(iter(stacks))
        seen, todo = {start}, [start]
        while todo:
            cell = todo.pop()
            for step in NEIGHBOR_OFFSETS:
                if cell + step in stacks and cell + step not in seen:
                    seen.add(cell + step)
                    todo.append(cell + step)
        assert seen == set(stacks), "the hive is split"
    # Every piece is in hand or on exactly one cell, and the piece index agrees with the board.
    on_board = [p for stack in stacks.values() for p in stack]
    assert len(on_board) == len(set(on_board))
    assert all(stack for stack in stacks.values())
    for cell, stack in stacks.items():
        for piece in stack:
            assert game._cell[piece] == cell
    for color in (0, 1):
        pieces = GameType.parse(str(game.game_type)).pieces(color)  # type: ignore[arg-type]
        assert len(game.in_hand(color)) + sum(p in on_board for p in pieces) == len(pieces)  # type: ignore[arg-type]
    assert game.hash == hash_from_scratch(game)
    codes = game.legal_move_codes()
    assert len(codes) == len(set(codes)), "duplicate legal moves"
    strings = [game.move_string(code) for code in codes]
    assert len(strings) == len(set(strings)), "two legal moves share a MoveString"


def snapshot(game: Game) -> tuple:
    return (str(game), game.hash, game.state, sorted(game.legal_move_codes()), game.board())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    game_type=st.sampled_from(GAME_TYPES),
    tournament_opening=st.booleans(),
)
def test_random_games_keep_invariants(seed: int, game_type: str, tournament_opening: bool) -> None:
    rng = random.Random(seed)
    game = Game(game_type, tournament_opening=tournament_opening)
    for _ in range(120):
        assert_invariants(game)
        codes = game.legal_move_codes()
        if not codes:
            assert game.is_over()
            break
        # Undo restores position and hash exactly, for a sample of the legal moves.
        before = snapshot(game)
        for code in rng.sample(codes, min(3, len(codes))):
            game.push_code(code)
            game.pop()
            assert snapshot(game) == before
        # Every legal MoveString parses back to the same move.
        for code in rng.sample(codes, min(5, len(codes))):
            assert game.parse_move_code(game.move_string(code)) == code
        game.push_code(rng.choice(codes))
    # The GameString round trip rebuilds the same game.
    again = Game.from_game_string(str(game), tournament_opening=tournament_opening)
    assert str(again) == str(game)
    assert again.hash == game.hash
    assert again.state == game.state
