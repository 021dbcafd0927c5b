"""Property tests: long random games never break an invariant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Color, Game, GameState

GAME_TYPES = ["Base", "Base+M", "Base+L", "Base+P", "Base+MLP", "Base+D", "Base+MLPD"]


def set_up_again(game: Game) -> Game:
    """The same position set up from its board, without history (hash computed from scratch)."""
    return Game.from_board(
        game.board(),
        game_type=game.game_type,
        turn=game.turn,
        turn_number=game.turn_number,
        last_moved=game.last_moved,
        options=game.options,
    )


def assert_invariants(game: Game) -> None:
    stacks = game.stacks
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
            assert game.piece_cells[piece] == cell
    for color in Color:
        pieces = game.game_type.pieces(color)
        assert len(game.in_hand(color)) + sum(p in on_board for p in pieces) == len(pieces)
    # The same board set up from scratch (every invariant checked) has the same hash and moves,
    # and its text form reads back to the same position.
    again = set_up_again(game)
    assert again.hash == game.hash
    if game.state is not GameState.DRAW:  # a repetition draw needs the history
        assert again.state is game.state
        assert sorted(again.legal_move_codes()) == sorted(game.legal_move_codes())
        assert Game.from_board_text(game.board_text()).board_text() == game.board_text()
    codes = game.legal_move_codes()
    assert len(codes) == len(set(codes)), "duplicate legal moves"
    strings = [game.move_string(code) for code in codes]
    assert len(strings) == len(set(strings)), "two legal moves share a MoveString"


def snapshot(game: Game) -> tuple:
    return (
        game.game_string(),
        game.hash,
        game.state,
        sorted(game.legal_move_codes()),
        game.board(),
        game.move_stack,
    )


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
    again = Game.from_game_string(game.game_string(), tournament_opening=tournament_opening)
    assert again == game
    assert again.game_string() == game.game_string()
    assert again.hash == game.hash
    assert again.state == game.state
