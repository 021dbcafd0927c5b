"""The advanced rules of rulebook section 16 and the other options, each on a small position."""

from __future__ import annotations

import pytest
from enjambre_helpers import assert_illegal, at, carry, cell, end_turns, position, started, tile_of

from panal.enjambre import Displace, EndTurn, Game, Options, Scout, Step
from panal.enjambre.scoring import elimination_points, score_game

ORANGE, RED = 0, 1
BLUE = 1  # in four-player games the seats are orange, blue, red, purple


def remove(game: Game, player: int, keep: set[int]) -> None:
    """Take ``player``'s tiles other than the numbers in ``keep`` off the board (set-up)."""
    state = game.state
    for tile in state.tiles_of(player):
        if game.number(tile) not in keep and state.tile_cell[tile] is not None:
            del state.occupant[state.tile_cell[tile]]  # type: ignore[arg-type, attr-defined]
            state.tile_cell[tile] = None  # type: ignore[index]


# ----------------------------------------------------------------------- elimination points


def test_elimination_points_three_and_one_for_three_or_four_players() -> None:
    assert elimination_points([4, 2, 1, 0]) == (3, 1, 0, 0)
    assert elimination_points([0, 5, 5]) == (0, 3, 3)  # equal counts share the rank
    assert elimination_points([2, 2, 1, 0]) == (3, 3, 1, 0)


def test_elimination_points_four_two_one_for_five_or_six_players() -> None:
    assert elimination_points([6, 5, 4, 3, 0]) == (4, 2, 1, 0, 0)
    assert elimination_points([1, 0, 0, 0, 0, 3]) == (2, 0, 0, 0, 0, 4)


def test_elimination_points_with_two_players_reward_only_the_first() -> None:
    assert elimination_points([3, 1]) == (3, 0)
    assert elimination_points([0, 0]) == (0, 0)


def test_elimination_points_replace_the_tiebreak() -> None:
    # Without the rule the tie goes to more eliminations...
    plain = score_game([10, 10, 10], [9, 9, 7], [1, 0, 2], options=Options())
    assert plain.scores == (18, 18, 16) and plain.places == (1, 2, 3)
    # ...with it the points are added and a remaining tie is shared.
    points = score_game([10, 9, 10], [9, 9, 9], [1, 0, 1], options=Options(elimination_points=True))
    assert points.elimination_points == (3, 0, 3)
    assert points.scores == (21, 17, 21) and points.places == (1, 3, 1)


def test_elimination_points_in_a_played_game() -> None:
    options = Options(rounds=1, elimination_points=True)
    game = position(4, {"H9": (ORANGE, 10), "G9": (2, 3)}, options=options)
    game.apply(ORANGE, Step(tile_of(game, ORANGE, 10), cell(game, "G9")))
    end_turns(game, 4)
    assert game.result is not None
    assert game.result.elimination_points == (3, 0, 0, 0)
    assert game.result.scores[ORANGE] == 10 + 3


# ----------------------------------------------------------------------- scout's extra step


def test_the_scout_extra_step_adds_one_to_what_it_has_left() -> None:
    game = started(2, options=Options(scout_extra_step=True))
    scout = tile_of(game, ORANGE, 1)  # on H10, its own zone: normally one step
    game.apply(ORANGE, Scout(scout))
    assert game.state.steps_for(scout)[1] == 2  # type: ignore[index]
    game.apply(ORANGE, Step(scout, cell(game, "H9")))
    game.apply(ORANGE, Step(scout, cell(game, "H8")))
    assert scout in game.state.marked


def test_the_scout_extra_step_during_a_move_and_after_it() -> None:
    game = position(2, {"H9": (ORANGE, 1)}, options=Options(scout_extra_step=True))
    scout = tile_of(game, ORANGE, 1)
    game.apply(ORANGE, Step(scout, cell(game, "H8")))
    game.apply(ORANGE, Scout(scout))
    assert game.state.active_steps == 2  # one left, plus one
    # After its move ended the extra step is lost: a marked tile never moves again.
    later = position(2, {"H9": (ORANGE, 1)}, options=Options(scout_extra_step=True))
    one = tile_of(later, ORANGE, 1)
    later.apply(ORANGE, Step(one, cell(later, "H8")))
    later.apply(ORANGE, Step(one, cell(later, "F8")))
    later.apply(ORANGE, Scout(one))
    assert_illegal(later, ORANGE, Step(one, cell(later, "E8")), "already moved")


def test_without_the_option_the_scout_adds_no_step() -> None:
    game = started(2)
    scout = tile_of(game, ORANGE, 1)
    game.apply(ORANGE, Scout(scout))
    assert game.state.steps_for(scout)[1] == 1  # type: ignore[index]


# ----------------------------------------------------------------------- rounds


@pytest.mark.parametrize("rounds", [1, 3, 12])
def test_the_number_of_rounds_is_adjustable(rounds: int) -> None:
    game = started(2, options=Options(rounds=rounds))
    end_turns(game, 2 * rounds - 1)
    assert not game.over and game.state.round == rounds
    end_turns(game, 1)
    assert game.over


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_bad_option_values_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="rounds"):
        Options(rounds=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="true or false"):
        Options(memory_play=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown options"):
        Options.from_dict({"scout_bonus": True})


# ----------------------------------------------------------------------- colmena combat


def colmena_fight(attacker: int, defender: int, round_: int = 9, **extra: tuple[int, int]) -> Game:
    """Four players; orange's tile on H8 next to blue's colmena cell H7, held by blue."""
    options = Options(colmena_combat=True)
    pieces = {"H8": (ORANGE, attacker), "H7": (BLUE, defender), **extra}
    game = position(4, pieces, options=options)
    end_turns(game, 4 * (round_ - 1))
    assert game.state.round == round_ and game.to_move == ORANGE
    return game


def test_colmena_combat_only_in_the_last_two_rounds() -> None:
    early = colmena_fight(9, 4, round_=8)
    attacker = tile_of(early, ORANGE, 9)
    assert_illegal(early, ORANGE, Step(attacker, cell(early, "H7")), "another colour's colmena")
    plain = position(4, {"H8": (ORANGE, 9), "H7": (BLUE, 4)})
    end_turns(plain, 36)
    assert_illegal(plain, ORANGE, Step(tile_of(plain, ORANGE, 9), cell(plain, "H7")), "colmena")
    late = colmena_fight(9, 4, round_=9)
    late.apply(ORANGE, Step(tile_of(late, ORANGE, 9), cell(late, "H7")))
    assert tile_of(late, BLUE, 4) not in {t for t in late.state.occupant.values()}


def test_a_winner_in_a_foreign_colmena_cell_moves_to_its_own_cell() -> None:
    game = colmena_fight(9, 4)
    nine = tile_of(game, ORANGE, 9)
    game.apply(ORANGE, Step(nine, cell(game, "H7")))
    assert at(game, "G8") == nine  # orange's own colmena cell
    assert at(game, "H7") is None
    assert nine in game.state.marked  # it was placed automatically: its move is over


def test_the_tile_pushed_out_of_the_own_cell_goes_to_the_nearest_empty_cell() -> None:
    game = colmena_fight(9, 4, G8=(ORANGE, 3), G9=(ORANGE, 5))
    nine, three = tile_of(game, ORANGE, 9), tile_of(game, ORANGE, 3)
    game.apply(ORANGE, Step(nine, cell(game, "H7")))
    assert at(game, "G8") == nine
    state = game.state
    assert state.displacing == three and state.tile_cell[three] is None
    # G8's neighbours outside the colmena are G9 (taken), H8 (now empty) and F8.
    assert {game.board.label(c) for c in state.displace_options} == {"H8", "F8"}
    assert_illegal(game, ORANGE, EndTurn(), "pushed out of your colmena")
    assert_illegal(game, ORANGE, Displace(cell(game, "I8")), "nearest empty cell")
    game.apply(ORANGE, Displace(cell(game, "F8")))  # its owner chooses among the nearest
    assert at(game, "F8") == three and state.displacing is None
    game.apply(ORANGE, EndTurn())


def test_colmena_combat_the_defender_can_win_or_both_fall() -> None:
    stronger = colmena_fight(5, 8)
    stronger.apply(ORANGE, Step(tile_of(stronger, ORANGE, 5), cell(stronger, "H7")))
    assert at(stronger, "H7") == tile_of(stronger, BLUE, 8)
    equal = colmena_fight(6, 6)
    equal.apply(ORANGE, Step(tile_of(equal, ORANGE, 6), cell(equal, "H7")))
    assert at(equal, "H7") is None and at(equal, "G8") is None


def test_colmena_combat_cannot_start_from_a_colmena_cell() -> None:
    game = colmena_fight(9, 4, G8=(ORANGE, 10))
    ten = tile_of(game, ORANGE, 10)
    assert_illegal(game, ORANGE, Step(ten, cell(game, "H7")), "another colour's colmena")


def test_an_empty_foreign_colmena_cell_stays_closed_even_in_the_last_rounds() -> None:
    game = colmena_fight(9, 4)
    assert_illegal(game, ORANGE, Step(tile_of(game, ORANGE, 9), cell(game, "G7")), "centre")
    carry(game, ORANGE, 7, "F8")
    assert_illegal(game, ORANGE, Step(tile_of(game, ORANGE, 7), cell(game, "F7")), "colmena")


# ----------------------------------------------------------------------- compulsory moves


def test_must_move_one_tile_per_turn() -> None:
    game = started(2, options=Options(must_move_one=True))
    assert_illegal(game, ORANGE, EndTurn(), "at least one tile")
    one = tile_of(game, ORANGE, 1)
    game.apply(ORANGE, Step(one, cell(game, "H9")))
    game.apply(ORANGE, EndTurn())


def test_must_move_one_lets_a_player_with_no_possible_move_pass() -> None:
    game = started(2, options=Options(must_move_one=True))
    remove(game, ORANGE, keep=set())
    game.apply(ORANGE, EndTurn())
    assert game.to_move == RED


def test_must_move_every_tile_that_can_move() -> None:
    game = position(
        2,
        {"G8": (ORANGE, 10), "G10": (ORANGE, 6), "I8": (ORANGE, 7), "E8": (ORANGE, 8)},
        options=Options(must_move_all=True),
    )
    remove(game, ORANGE, keep={6, 7, 8, 10})
    message = assert_illegal(game, ORANGE, EndTurn(), "every tile must move")
    assert "has not moved" in message
    # Fill the queen's three exits with tiles that have moved: the queen cannot move, so the
    # turn may end without her.
    for number, label in ((6, "G9"), (7, "H8"), (8, "F8")):
        game.apply(ORANGE, Step(tile_of(game, ORANGE, number), cell(game, label)))
        if number != 8:
            assert game.why_illegal(ORANGE, EndTurn()) is not None
    assert game.state.step_targets(tile_of(game, ORANGE, 10)) == []
    game.apply(ORANGE, EndTurn())


# ----------------------------------------------------------------------- linked dark cells


def test_linked_dark_cells_are_one_step_apart() -> None:
    far = "M7"  # a dark cell on another spoke
    linked = position(2, {"G9": (ORANGE, 5)}, options=Options(linked_dark_cells="all"))
    five = tile_of(linked, ORANGE, 5)
    assert linked.board.kind[cell(linked, far)] == "dark"
    linked.apply(ORANGE, Step(five, cell(linked, far)))
    assert at(linked, far) == five and linked.history[-1].via == "dark"  # type: ignore[attr-defined]
    plain = position(2, {"G9": (ORANGE, 5)})
    assert_illegal(plain, ORANGE, Step(tile_of(plain, ORANGE, 5), cell(plain, far)), "one step")


def test_linked_dark_cells_do_not_link_other_cells() -> None:
    game = position(2, {"H9": (ORANGE, 5)}, options=Options(linked_dark_cells="all"))
    assert_illegal(game, ORANGE, Step(tile_of(game, ORANGE, 5), cell(game, "M7")), "one step")


# ----------------------------------------------------------------------- leaving the colmena


def test_leaving_the_own_colmena_cell_anywhere_next_to_the_colmena_is_an_option() -> None:
    plain = position(2, {"G8": (ORANGE, 10)})
    assert_illegal(plain, ORANGE, Step(tile_of(plain, ORANGE, 10), cell(plain, "I6")), "one step")
    free = position(2, {"G8": (ORANGE, 10)}, options=Options(queen_exit_anywhere=True))
    ten = tile_of(free, ORANGE, 10)
    free.apply(ORANGE, Step(ten, cell(free, "I6")))
    assert at(free, "I6") == ten and ten in free.state.marked  # still a single step


# ----------------------------------------------------------------------- memory play


def test_memory_play_keeps_shown_numbers_in_the_public_record() -> None:
    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 3)}, options=Options(memory_play=True))
    game.apply(ORANGE, Step(tile_of(game, ORANGE, 8), cell(game, "G9")))
    view = game.observe(ORANGE)
    eight = tile_of(game, ORANGE, 8)
    assert view.numbers == {eight: 8}  # face up this turn, for everyone
    game.apply(ORANGE, EndTurn())
    view = game.observe(ORANGE)
    assert view.numbers == {} and view.revealed[eight] == 8
    assert all(e.number is None for e in view.eliminated_tiles())
