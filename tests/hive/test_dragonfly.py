"""The Dragonfly (rulebook 002, "Libélula"), as docs/rules.md reads it.

"Su movimiento es como el del Saltamontes, pero una vez hecho el salto se desplaza un movimiento
hacia la izquierda o derecha, pudiendo ponerse encima de otra pieza. En su siguiente turno, la pieza
que quedó debajo de la libélula, que no podrá moverse mientras ésta esté encima, podrá ser movida
por la Libélula (nunca al revés)."

Axial cells: E (1,0), SE (0,1), SW (-1,1), W (-1,0), NW (0,-1), NE (1,-1). Every expectation
below is worked out by hand from that text in the comments.
"""

from __future__ import annotations

import pytest

from panal.hex import Hex
from panal.hive import IllegalMoveError, Piece
from tests.hive.positions import destinations, position

# wQ at the centre; bQ E, wA1 W, bA1 SE, bS1 at (-2, 1); the Dragonfly on bG1 NE of the centre.
FLOWER = {
    (0, 0): "wQ",
    (1, 0): "bQ",
    (-1, 0): "wA1",
    (0, 1): "bA1",
    (-2, 1): "bS1",
    (1, -1): "bG1 wD",
}


def test_jump_then_step_sixty_degrees() -> None:
    # wD at (0,0) jumps E over wQ and bQ to (3,0), the first empty cell; it must then step SE to
    # (3,1), which touches bA1, or NE to (4,-1), which touches nothing. (3,0) itself is no landing.
    game = position("Base+D", {(0, 0): "wD", (1, 0): "wQ", (2, 0): "bQ", (2, 1): "bA1"})
    assert destinations(game, "wD") == {(3, 1)}


def test_lands_on_top_of_a_stack() -> None:
    # As above, but bA1 stands on (3,1): the Dragonfly lands on top of it.
    game = position(
        "Base+D", {(0, 0): "wD", (1, 0): "wQ", (2, 0): "bQ", (2, 1): "bG1", (3, 1): "bA1"}
    )
    assert destinations(game, "wD") == {(3, 1)}
    game.push("wD bA1")
    assert game.stack_at(Hex(3, 1)) == [Piece.bA1, Piece.wD]


def test_no_gates_when_flying_into_a_hole() -> None:
    # (0,0) has five occupied neighbours and (-1,0) empty: no slider could enter it through the
    # gate from (-1,0), but the Dragonfly jumps SE over wQ to (-1,0) and steps E into it.
    board = {
        (-1, -2): "wD",
        (-1, -1): "wQ",
        (0, -1): "bQ",
        (1, -1): "wA1",
        (1, 0): "bA1",
        (0, 1): "wA2",
        (-1, 1): "bA2",
    }
    game = position("Base+D", board)
    # Stepping SW instead from (-1,0) reaches (-2,1), which touches bA2.
    assert destinations(game, "wD") == {(0, 0), (-2, 1)}
    # With the dragonfly_gates option the step into (0,0) passes between bQ and bA2: refused.
    gated = position("Base+D", board, dragonfly_gates=True)
    assert destinations(gated, "wD") == {(-2, 1)}


def test_moves_and_carries_from_a_stack() -> None:
    # From (1,-1) it jumps SE over bQ to (1,1), then E to (2,1) (touches nothing) or SW to (0,2)
    # (touches bA1); or SW over wQ to (-1,1), then SE to (-1,2) (touches bA1) or W onto bS1.
    game = position("Base+D", FLOWER)
    assert destinations(game, "wD") == {(0, 2), (-1, 2), (-2, 1)}
    # Carrying bG1, the pair needs an empty ground cell: not onto bS1.
    assert destinations(game, "wD", carry=True) == {(0, 2), (-1, 2)}


def test_carry_moves_the_pair_and_is_written_unambiguously() -> None:
    game = position("Base+D", FLOWER)
    carry = next(
        m for m in game.legal_moves if m.piece == Piece.wD and m.carry and m.to == Hex(0, 2)
    )
    text = game.move_string(carry)
    assert text.startswith("wD+bG1 ")
    plain = next(
        m for m in game.legal_moves if m.piece == Piece.wD and not m.carry and m.to == Hex(0, 2)
    )
    assert game.move_string(plain) == text.replace("+bG1", "")
    assert game.parse_move(text) == carry
    game.push(text)
    assert game.stack_at(Hex(0, 2)) == [Piece.bG1, Piece.wD]
    assert game.stack_at(Hex(1, -1)) == []
    game.pop()
    assert game.stack_at(Hex(1, -1)) == [Piece.bG1, Piece.wD]


def test_the_piece_beneath_cannot_move_and_the_stack_is_the_dragonflys_colour() -> None:
    game = position("Base+D", FLOWER, to_move="b")
    assert destinations(game, "bG1", carry=None) == set()
    # (2,-1) touches bQ and the white-topped stack only: black may not place there.
    placements = {
        (m.to.q, m.to.r) for m in game.legal_moves if m and game.position_of(m.piece) is None
    }
    assert (2, -1) not in placements
    with pytest.raises(IllegalMoveError):
        game.push("bG2 bG1/")


def test_no_carry_when_lifting_the_pair_splits_the_hive() -> None:
    # wG1 at (2,-2) touches only the stack: carrying bG1 away would leave wG1 alone, so every
    # carry is illegal, while the Dragonfly alone may still fly (bG1 keeps the hive together).
    game = position("Base+D", {**FLOWER, (2, -2): "wG1"})
    assert destinations(game, "wD", carry=True) == set()
    assert destinations(game, "wD") == {(0, 2), (-1, 2), (-2, 1)}


def test_carries_only_the_piece_directly_beneath() -> None:
    # On a stack of three (bG1, wB1, wD) it carries wB1 and leaves bG1, which still holds wG1.
    game = position("Base+D", {**FLOWER, (1, -1): "bG1 wB1 wD", (2, -2): "wG1"})
    assert destinations(game, "wD", carry=True) == {(0, 2), (-1, 2)}
    game.push(next(m for m in game.legal_moves if m.carry and m.to == Hex(-1, 2)))
    assert game.stack_at(Hex(-1, 2)) == [Piece.wB1, Piece.wD]
    assert game.stack_at(Hex(1, -1)) == [Piece.bG1]


def test_carry_needs_a_piece_beneath() -> None:
    game = position("Base+D", {(0, 0): "wD", (1, 0): "wQ", (2, 0): "bQ", (2, 1): "bA1"})
    with pytest.raises(IllegalMoveError, match="carry"):
        game.push("wD+wQ bA1-")


def test_mosquito_copies_the_dragonfly_from_the_ground() -> None:
    # wM at (1,-1) touches wD (E side below it) and wQ. As a Dragonfly: SE over wD to (1,1),
    # then SW to (0,2) (touches bQ); SW over wQ to (-1,1), then SE to (-1,2) or W onto bS1.
    # As a queen: slides E to (2,-1) and W to (0,-1).
    board = {
        (1, -1): "wM",
        (1, 0): "wD",
        (0, 0): "wQ",
        (0, 1): "bQ",
        (-1, 0): "wA1",
        (-2, 1): "bS1",
    }
    game = position("Base+MD", board)
    assert destinations(game, "wM") == {(0, 2), (-1, 2), (-2, 1), (2, -1), (0, -1)}
    assert destinations(game, "wM", carry=True) == set()


def test_mosquito_on_top_moves_only_as_a_beetle_and_never_carries() -> None:
    # wM on bS1 next to wD: one step to each of the six neighbours, nothing else.
    board = {(-2, 1): "bS1 wM", (-1, 1): "wD", (0, 0): "wQ", (-1, 0): "wA1", (0, 1): "bQ"}
    game = position("Base+MD", board)
    assert destinations(game, "wM") == {(-1, 1), (-2, 2), (-3, 2), (-3, 1), (-2, 0), (-1, 0)}
    with pytest.raises(IllegalMoveError):
        game.push("wM+bS1 wA1-")


def test_pillbug_throws_a_lone_dragonfly_but_not_one_on_a_stack() -> None:
    # wP at (0,0) lifts bD from (1,0) over itself to its empty neighbours SW, NW and NE.
    game = position("Base+PD", {(0, 0): "wP", (1, 0): "bD", (-1, 0): "wQ", (0, 1): "bQ"})
    assert destinations(game, "bD") == {(-1, 1), (0, -1), (1, -1)}
    stacked = position("Base+PD", {(0, 0): "wP", (1, 0): "bA1 bD", (-1, 0): "wQ", (0, 1): "bQ"})
    assert destinations(stacked, "bD") == set()
