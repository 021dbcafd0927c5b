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
from panal.hive import DragonflySidestep, Game, IllegalMoveError, Piece
from tests.hive.positions import destinations, position

# The hole at (0,0): five occupied neighbours, (-1,0) empty; wD NW of the hole's rim.
HOLE = {
    (-1, -2): "wD",
    (-1, -1): "wQ",
    (0, -1): "bQ",
    (1, -1): "wA1",
    (1, 0): "bA1",
    (0, 1): "wA2",
    (-1, 1): "bA2",
}

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
    game = position("Base+D", HOLE)
    # Stepping SW instead from (-1,0) reaches (-2,1), which touches bA2.
    assert destinations(game, "wD") == {(0, 0), (-2, 1)}


def test_gaps_option_refuses_the_step_between_two_pieces() -> None:
    # The step E from (-1,0) into (0,0) passes between bQ (0,-1) and bA2 (-1,1): a gap.
    assert destinations(position("Base+D", HOLE, dragonfly_gaps=True), "wD") == {(-2, 1)}
    # It does keep contact (it passes along both), so the contact option alone allows it.
    assert destinations(position("Base+D", HOLE, dragonfly_contact=True), "wD") == {
        (0, 0),
        (-2, 1),
    }


# The jump E from (0,0) over wQ ends at (2,0); the step SE to (2,1) passes between (3,0) and
# (1,1), both empty, yet (2,1) touches bA2 at (1,2). The jump SE over bQ and bA1 ends at (0,3);
# its step E to (1,3) passes along bA2, its step SW to (-1,4) touches nothing.
ALONG_NOTHING = {(0, 0): "wD", (1, 0): "wQ", (0, 1): "bQ", (0, 2): "bA1", (1, 2): "bA2"}


def test_contact_option_refuses_a_step_that_passes_along_nothing() -> None:
    assert destinations(position("Base+D", ALONG_NOTHING), "wD") == {(2, 1), (1, 3)}
    contact = position("Base+D", ALONG_NOTHING, dragonfly_contact=True)
    assert destinations(contact, "wD") == {(1, 3)}
    # No gap is involved: the gaps option alone changes nothing.
    gaps = position("Base+D", ALONG_NOTHING, dragonfly_gaps=True)
    assert destinations(gaps, "wD") == {(2, 1), (1, 3)}


def test_gaps_option_on_a_stack_compares_heights() -> None:
    # The jump E from (0,0) ends at (2,0); the step SE lands on bA1 (height 1) at (2,1) between
    # two stacks of two at (3,0) and (1,1): too narrow under the gaps option, like a beetle's
    # step. The step NE to (3,-1) passes between (2,-1) (empty) and (3,0): open. The jump SE
    # over bQ ends at (0,2); its step E to (1,2) passes (1,1) and (0,3): open.
    board = {
        (0, 0): "wD",
        (1, 0): "wQ",
        (0, 1): "bQ",
        (1, 1): "bG2 wB1",
        (3, 0): "bG1 bB1",
        (2, 1): "bA1",
    }
    assert destinations(position("Base+D", board), "wD") == {(3, -1), (2, 1), (1, 2)}
    assert destinations(position("Base+D", board, dragonfly_gaps=True), "wD") == {
        (3, -1),
        (1, 2),
    }
    # Landing on a stack needs no contact: the contact option alone keeps all three.
    assert destinations(position("Base+D", board, dragonfly_contact=True), "wD") == {
        (3, -1),
        (2, 1),
        (1, 2),
    }


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


# --- Which way is "a la izquierda o derecha" (option dragonfly_sidestep) ------------------------

ISSUE_POSITION = r"Base+D;InProgress;White[4];wQ;bQ wQ-;wD -wQ;bA1 bQ-;wA1 \wQ;bA2 bA1-"


def test_the_issue_position_has_no_forward_sidestep_but_four_backward() -> None:
    # wD (-1,0) jumps E over wQ, bQ, bA1, bA2 to (4,0), or NE over wA1 (0,-1) to (1,-2).
    # Forward (60°): (5,-1), (4,1), (1,-3) and (2,-2) touch nothing: no move at all.
    # Backward (120°): from (4,0) NW to (4,-1) and SW to (3,1), both beside bA2; from (1,-2)
    # W to (0,-2) beside wA1 and SE to (1,-1) beside wA1 and bQ.
    backward = {(4, -1), (3, 1), (0, -2), (1, -1)}
    assert destinations(Game.from_game_string(ISSUE_POSITION), "wD") == set()
    game = Game.from_game_string(ISSUE_POSITION, dragonfly_sidestep="backward")
    assert destinations(game, "wD") == backward
    game = Game.from_game_string(ISSUE_POSITION, dragonfly_sidestep=DragonflySidestep.EITHER)
    assert destinations(game, "wD") == backward


def test_each_sidestep_reading_on_a_hand_worked_jump() -> None:
    # wD (0,0) jumps E over wQ and bQ to (3,0). Forward: SE to (3,1) beside bA1; NE to (4,-1)
    # touches nothing. Backward: SW onto bA1 at (2,1); NW to (3,-1) beside bQ.
    board = {(0, 0): "wD", (1, 0): "wQ", (2, 0): "bQ", (2, 1): "bA1"}
    expected = {
        "forward": {(3, 1)},
        "backward": {(2, 1), (3, -1)},
        "either": {(3, 1), (2, 1), (3, -1)},
    }
    for reading, cells in expected.items():
        assert destinations(position("Base+D", board, dragonfly_sidestep=reading), "wD") == cells


def test_the_backward_step_always_keeps_contact() -> None:
    # The backward step passes along the last piece jumped, so the contact option never removes
    # one (ALONG_NOTHING: from (2,0) to (2,-1) and (1,1) along wQ; from (0,3) onto bA2 at (1,2)
    # and to (-1,3) along bA1).
    cells = {(2, -1), (1, 1), (1, 2), (-1, 3)}
    for contact in (False, True):
        game = position(
            "Base+D", ALONG_NOTHING, dragonfly_sidestep="backward", dragonfly_contact=contact
        )
        assert destinations(game, "wD") == cells


def test_the_sidestep_error_message_names_no_angle() -> None:
    game = position("Base+D", {(0, 0): "wD", (1, 0): "wQ", (2, 0): "bQ", (2, 1): "bA1"})
    with pytest.raises(IllegalMoveError, match="to the side of its jump"):
        game.push("wD bQ/")


# --- When it may carry (option dragonfly_carry) -------------------------------------------------

# FLOWER without the Dragonfly, which waits at (-3,2): it jumps NE over bS1 and wA1 to (0,-1) and
# steps E onto bG1, making FLOWER.
BEFORE_FLOWER = {**{k: v for k, v in FLOWER.items() if k != (1, -1)}, (1, -1): "bG1", (-3, 2): "wD"}


def play_to_flower(**options: str) -> Game:
    game = position("Base+D", BEFORE_FLOWER, **options)
    game.push("wD bG1")
    game.push("bA2 -bS1")  # black places a piece at (-3,1), away from the stack
    return game


def test_carry_on_the_next_turn_under_both_readings() -> None:
    for reading in ("later", "next_turn"):
        game = play_to_flower(dragonfly_carry=reading)
        assert destinations(game, "wD", carry=True) == {(0, 2), (-1, 2)}


def test_next_turn_reading_forbids_a_later_carry() -> None:
    later = play_to_flower()
    next_turn = play_to_flower(dragonfly_carry="next_turn")
    for game in (later, next_turn):
        game.push("wS1 \\wA1")  # white places instead at (-1,-1)
        game.push("bA3 -bA2")  # black places at (-4,1)
    assert destinations(later, "wD", carry=True) == {(0, 2), (-1, 2)}
    assert destinations(next_turn, "wD", carry=True) == set()
    # The Dragonfly alone still flies.
    assert destinations(next_turn, "wD") == destinations(later, "wD") != set()
    with pytest.raises(IllegalMoveError, match="only on the turn right after"):
        next_turn.push("wD+bG1 bA1\\")


def test_next_turn_carry_right_is_part_of_the_position() -> None:
    # Same pieces on the same cells, but only one of the two positions lets white carry: their
    # keys differ, so repetition never confuses them.
    game = play_to_flower(dragonfly_carry="next_turn")
    assert game.carrier == Piece.wD
    fresh = game.hash
    game.push("wS1 \\wA1")
    game.push("bA3 -bA2")
    assert game.carrier is None
    game.pop()
    game.pop()
    assert game.hash == fresh
    assert game.carrier == Piece.wD


def test_a_set_up_position_has_no_next_turn_carrier() -> None:
    # Without history nobody has just landed: only the "later" reading lets FLOWER carry.
    game = position("Base+D", FLOWER, dragonfly_carry="next_turn")
    assert destinations(game, "wD", carry=True) == set()


# --- A Mosquito that flew up as a Dragonfly (option mosquito_stays_dragonfly) ------------------

# wM (1,-1) touches wD and wQ; as a Dragonfly it jumps SW over wQ to (-1,1) and steps W onto bS1.
MOSQUITO_BOARD = {
    (1, -1): "wM",
    (1, 0): "wD",
    (0, 0): "wQ",
    (0, 1): "bQ",
    (-1, 0): "wA1",
    (-2, 1): "bS1",
}


def fly_mosquito_onto_bs1(**options: bool) -> Game:
    game = position("Base+MD", MOSQUITO_BOARD, **options)
    game.push("wM bS1")
    game.push("bA1 bQ\\")  # black places at (0,2)
    return game


def test_mosquito_that_flew_up_is_a_beetle_by_default() -> None:
    game = fly_mosquito_onto_bs1()
    assert not game.is_flying(Piece.wM)
    assert destinations(game, "wM") == {(-1, 1), (-2, 2), (-3, 2), (-3, 1), (-2, 0), (-1, 0)}
    assert destinations(game, "wM", carry=True) == set()


def test_mosquito_that_flew_up_stays_a_dragonfly_under_the_option() -> None:
    # From bS1 (-2,1) the only jump is NE over wA1 to (0,-1); forward steps: NW to (0,-2)
    # (touches nothing) or E to (1,-1) beside wD. It may carry bS1 there too.
    game = fly_mosquito_onto_bs1(mosquito_stays_dragonfly=True)
    assert game.is_flying(Piece.wM)
    assert destinations(game, "wM") == {(1, -1)}
    assert destinations(game, "wM", carry=True) == {(1, -1)}
    with pytest.raises(IllegalMoveError, match="dragonfly jumps"):
        game.push("wM -bS1")  # a beetle's step is no longer its move
    game.push("wM+bS1 \\wD")
    assert game.stack_at(Hex(1, -1)) == [Piece.bS1, Piece.wM]
    assert game.is_flying(Piece.wM)  # still up there, on the piece it carried
    game.pop()
    assert game.is_flying(Piece.wM)


def test_mosquito_that_climbed_as_a_beetle_stays_a_beetle_under_the_option() -> None:
    # wM next to a beetle climbs onto wQ with one step: it came up as a beetle.
    board = {(1, -1): "wM", (1, 0): "wB1", (0, 0): "wQ", (0, 1): "bQ", (-1, 1): "bD"}
    game = position("Base+MD", board, mosquito_stays_dragonfly=True)
    game.push("wM wQ")
    game.push("bA1 bQ\\")
    assert not game.is_flying(Piece.wM)
    assert destinations(game, "wM") == {(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)}
