"""Positions equal up to rotation, reflection and translation share one key; others do not."""

from __future__ import annotations

import random

import pytest

from panal.hex import Hex
from panal.hive import Color, Game
from panal.puzzles import load_puzzles
from panal.puzzles.symmetry import TRANSFORMS, canonical_key, transform


def _moved(game: Game, turns: int, mirrored: bool, shift: Hex) -> Game:
    board = {
        transform(cell, turns, mirrored) + shift: [p.name for p in stack]
        for cell, stack in game.board().items()
    }
    last = game.last_moved
    return Game.from_board(
        board,
        game_type=game.game_type,
        turn=Color(game.turn),
        turn_number=game.turn_number,
        last_moved=last,
        options=game.options,
    )


def test_the_twelve_transforms_are_distinct_and_keep_neighbours() -> None:
    images = {tuple(transform(Hex(q, r), t, m) for q, r in ((1, 0), (0, 1))) for t, m in TRANSFORMS}
    assert len(images) == 12
    for turns, mirrored in TRANSFORMS:
        for a in Hex(0, 0).neighbors():
            assert transform(a, turns, mirrored).distance(Hex(0, 0)) == 1


@pytest.mark.parametrize("puzzle", load_puzzles()[:5], ids=lambda p: p.id)
def test_every_image_of_a_position_has_its_key(puzzle) -> None:  # type: ignore[no-untyped-def]
    game = puzzle.game()
    key = canonical_key(game)
    rng = random.Random(puzzle.id)
    for turns, mirrored in TRANSFORMS:
        shift = Hex(rng.randint(-5, 5), rng.randint(-5, 5))
        assert canonical_key(_moved(game, turns, mirrored, shift)) == key


def test_different_positions_have_different_keys() -> None:
    a = Game.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    b = Game.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ /wS1;bQ bS1-")
    c = Game.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/")
    assert len({canonical_key(a), canonical_key(b), canonical_key(c)}) == 3
