"""Every rule sentence of rulebook 003, proved on small constructed positions.

Two-player games unless said otherwise: player 0 is orange (colmena cell G8, zone around I10),
player 1 is red (colmena cell G6, zone around E2). By default player p's tile k+1 stands on the
k-th cell of their zone; ``position`` carries the tiles a test is about to the middle.
"""

from __future__ import annotations

import pytest
from enjambre_helpers import assert_illegal, at, carry, cell, end_turns, position, started, tile_of

from panal.enjambre import EndTurn, Game, Options, Place, Scout, Step
from panal.enjambre.actions import Combat, Scouted
from panal.enjambre.state import Phase

ORANGE, RED = 0, 1


def step(game: Game, player: int, number: int, *labels: str) -> None:
    tile = tile_of(game, player, number)
    for label in labels:
        game.apply(player, Step(tile, cell(game, label)))


def targets(game: Game, player: int, number: int) -> set[str]:
    tile = tile_of(game, player, number)
    return {game.board.label(t.cell) for t in game.state.step_targets(tile)}


def reachable(game: Game, player: int, number: int) -> set[str]:
    """Every cell the tile can end its move on this turn (stops and combats)."""
    tile = tile_of(game, player, number)
    return {game.board.label(p.end) for p in game.state.paths(tile)}


# --------------------------------------------------------------------------------- 1. a match


def test_a_single_game_draws_its_first_player_with_the_games_generator() -> None:
    """'se sortea quien empieza': without a first player the seed decides, reproducibly."""
    firsts = {Game(4, seed=seed).state.first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert Game(4, seed=7).state.first_player == Game(4, seed=7).state.first_player


def test_a_match_is_one_game_per_player_each_starting_once() -> None:
    from panal.enjambre.runner import play_match

    results, places = play_match(["random", "random", "random"], seed=5)
    assert len(results) == 3
    assert sorted(places)[0] == 1
    # Each game has its own first player: the match rotates it clockwise.
    from panal.enjambre import runner

    firsts = []
    original = runner._play_one

    def spy(names, seats, seed, first, options):  # type: ignore[no-untyped-def]
        firsts.append(first)
        return original(names, seats, seed, first, options)

    runner._play_one = spy  # type: ignore[assignment]
    try:
        play_match(["random", "random", "random"], seed=5)
    finally:
        runner._play_one = original  # type: ignore[assignment]
    assert firsts == [0, 1, 2]


def test_the_match_goes_to_most_wins_then_most_second_places() -> None:
    from panal.enjambre.scoring import match_places

    # Everyone wins once; player 1 has two second places, players 0 and 2 one each and the
    # same thirds, so they share second place.
    games = [(1, 2, 3), (3, 1, 2), (2, 2, 1)]
    assert match_places(games) == (2, 1, 2)
    assert match_places([(1, 2, 3), (1, 3, 2), (2, 1, 3)]) == (1, 2, 3)
    # A full tie shares the place ("y así sucesivamente" runs out).
    assert match_places([(1, 2), (2, 1)]) == (1, 1)


@pytest.mark.parametrize("players", [0, 1, 7])
def test_the_game_is_for_two_to_six_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        Game(players, seed=1)


# --------------------------------------------------------------------------------- 2. contents


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_player_has_ten_tiles_numbered_one_to_ten(players: int) -> None:
    game = started(players)
    assert len(game.state.tile_cell) == 10 * players  # 60 tiles for six players
    for player in range(players):
        numbers = sorted(game.number(t) for t in game.state.tiles_of(player))
        assert numbers == list(range(1, 11))


# --------------------------------------------------------------------------------- 3. setup


def test_setup_puts_all_ten_tiles_on_cells_of_the_own_zone() -> None:
    game = Game(2, seed=3, first_player=0)
    zone = game.state.zone(ORANGE)
    chosen = (zone[11], *zone[1:10])
    game.apply(ORANGE, Place(chosen))
    for number, place in enumerate(chosen, start=1):
        tile = game.state.occupant[place]
        assert game.number(tile) == number
    assert game.phase is Phase.SETUP and game.to_move == RED


@pytest.mark.parametrize(
    ("label", "fragment"),
    [
        ("G9", "on a dark cell"),  # between two zones
        ("G8", "on a colmena cell"),
        ("G7", "on a centre cell"),
        ("H9", "on a neutral cell"),
        ("F3", "on a zone cell"),  # red's zone
    ],
)
def test_setup_refuses_cells_outside_the_own_zone(label: str, fragment: str) -> None:
    game = Game(2, seed=3, first_player=0)
    cells = (cell(game, label), *game.state.zone(ORANGE)[1:10])
    message = assert_illegal(game, ORANGE, Place(cells), fragment)
    assert "tile 1" in message


def test_setup_refuses_two_tiles_on_one_cell_and_wrong_counts() -> None:
    game = Game(2, seed=3, first_player=0)
    zone = game.state.zone(ORANGE)
    assert_illegal(game, ORANGE, Place((zone[0], *zone[0:9])), "one tile per cell")
    assert_illegal(game, ORANGE, Place(tuple(zone[:9])), "exactly 10 tiles")
    assert_illegal(game, ORANGE, Place(tuple(zone[:11])), "exactly 10 tiles")
    assert_illegal(game, ORANGE, EndTurn(), "only action is placing")


def test_setup_placements_come_in_any_order() -> None:
    """Each player arranges their own zone in secret, so a table may take the placements in
    whatever order the players confirm them; play still starts with the first player."""
    game = Game(3, seed=3, first_player=1)
    assert game.to_move == 1  # the first player still arranging
    game.apply(2, Place(tuple(game.state.zone(2)[:10])))
    assert_illegal(game, 2, Place(tuple(game.state.zone(2)[:10])), "already placed")
    assert game.to_move == 1 and game.observe(0).my_turn and not game.observe(2).my_turn
    game.apply(0, Place(tuple(game.state.zone(0)[:10])))
    assert game.phase is Phase.SETUP and game.to_move == 1
    game.apply(1, Place(tuple(game.state.zone(1)[:10])))
    assert game.phase is Phase.PLAY and game.to_move == 1
    assert [(type(e).__name__, e.player) for e in game.history] == [
        ("Placed", 2),
        ("Placed", 0),
        ("Placed", 1),
    ]
    assert Game.replay(game.log).snapshot() == game.snapshot()


def test_setup_is_secret_and_face_down() -> None:
    """Tiles go face down: nobody sees another player's setup, not even where it is, until all
    have placed; afterwards positions are public and numbers stay hidden."""
    game = Game(2, seed=3, first_player=0)
    game.apply(ORANGE, Place(tuple(game.state.zone(ORANGE)[:10])))
    red_view = game.observe(RED)
    assert red_view.tiles() == []
    assert red_view.numbers == {}
    assert len(game.observe(ORANGE).tiles()) == 10
    game.apply(RED, Place(tuple(game.state.zone(RED)[:10])))
    red_view = game.observe(RED)
    assert len(red_view.tiles()) == 20
    for view in red_view.tiles():
        assert (view.number is not None) == (view.owner == RED)
    assert game.phase is Phase.PLAY and game.to_move == ORANGE


def test_tile_ids_come_from_positions_not_numbers() -> None:
    """Public tile ids follow the zone's cell order, so two setups with the same cells but
    different numbers look identical to the other players."""
    zone = started(2).state.zone(ORANGE)
    first = started(2, placements={ORANGE: tuple(zone[:10])})
    second = started(2, placements={ORANGE: tuple(reversed(zone[:10]))})
    assert first.observe(RED).tiles() == second.observe(RED).tiles()
    assert first.number(0) != second.number(0)


# --------------------------------------------------------------------------------- 4. play


def test_rounds_start_with_the_first_player_and_pass_clockwise() -> None:
    game = started(4, first_player=2)
    seen = []
    for _ in range(8):
        seen.append((game.state.round, game.to_move))
        game.apply(game.to_move, EndTurn())  # type: ignore[arg-type]
    assert seen == [(1, 2), (1, 3), (1, 0), (1, 1), (2, 2), (2, 3), (2, 0), (2, 1)]
    # Seats are listed clockwise on the board: each next seat's zone is further clockwise.
    sectors = game.state.sectors
    turns = [(b - a) % 6 for a, b in zip(sectors, sectors[1:] + sectors[:1], strict=True)]
    assert all(t > 0 for t in turns) and sum(turns) == 6


def test_the_game_lasts_ten_rounds() -> None:
    game = started(3)
    end_turns(game, 29)
    assert game.state.round == 10 and not game.over
    end_turns(game, 1)
    assert game.over and game.result is not None


def test_a_turn_may_move_no_tile_at_all() -> None:
    game = started(2)
    game.apply(ORANGE, EndTurn())
    assert game.to_move == RED


def test_a_turn_may_move_every_tile_one_after_another() -> None:
    game = started(2)
    moved = 0
    for tile in game.state.tiles_of(ORANGE):
        options = game.state.step_targets(tile)
        if options:
            game.apply(ORANGE, Step(tile, options[0].cell))
            moved += 1
    assert moved == 10
    assert game.state.moved_this_turn() == set(game.state.tiles_of(ORANGE))


def test_the_whole_board_is_usable_including_dark_cells() -> None:
    game = position(2, {"H9": (ORANGE, 5)})
    step(game, ORANGE, 5, "G9")  # a dark cell between two zones
    assert game.board.kind[cell(game, "G9")] == "dark"
    assert at(game, "G9") == tile_of(game, ORANGE, 5)


# --------------------------------------------------------------------------------- 5. scoring


def finish(game: Game) -> None:
    while not game.over:
        game.apply(game.to_move, EndTurn())  # type: ignore[arg-type]


def test_the_rulebook_scoring_example_nine_in_the_colmena_plus_six_is_fifteen() -> None:
    """Blue has a 9 on its colmena cell and 6 other tiles on the board: 9 + 6 = 15."""
    game = position(4, {"H7": (1, 9)}, options=Options(rounds=1))  # blue's colmena cell
    assert game.state.colour(1) == "blue"
    state = game.state
    for number in (1, 2, 3):  # three blue tiles were eliminated earlier
        tile = tile_of(game, 1, number)
        del state.occupant[state.tile_cell[tile]]  # type: ignore[arg-type, attr-defined]
        state.tile_cell[tile] = None  # type: ignore[index]
    finish(game)
    assert game.result is not None
    assert game.result.scores[1] == 15
    assert game.result.queen_numbers[1] == 9


def test_without_a_queen_every_surviving_tile_counts_one() -> None:
    game = started(2, options=Options(rounds=1))
    carry(game, ORANGE, 10, "G8")
    finish(game)
    assert game.result is not None
    assert game.result.scores == (10 + 9, 10)
    assert game.result.places == (1, 2)


def test_only_the_tile_on_the_colmena_cell_at_the_end_counts_its_number() -> None:
    game = position(2, {"G8": (ORANGE, 10)}, options=Options(rounds=1))
    step(game, ORANGE, 10, "H8")  # leaves before the end of the last round
    finish(game)
    assert game.result is not None and game.result.scores[ORANGE] == 10
    assert game.result.queen_numbers[ORANGE] is None


def test_ties_go_to_most_eliminations_then_are_shared() -> None:
    from panal.enjambre.scoring import score_game

    result = score_game([10, 10, None], [8, 8, 9], [2, 1, 0], options=Options())
    assert result.scores == (17, 17, 9)
    assert result.places == (1, 2, 3)
    shared = score_game([10, 10], [8, 8], [1, 1], options=Options())
    assert shared.places == (1, 1) and shared.winners == (0, 1)


def test_final_scoring_shows_each_queen_to_everyone() -> None:
    game = position(2, {"G8": (ORANGE, 7)}, options=Options(rounds=1))
    finish(game)
    view = game.observe(RED)
    assert view.revealed[tile_of(game, ORANGE, 7)] == 7
    assert view.result is not None and view.result.scores[ORANGE] == 7 + 9


# --------------------------------------------------------------------------------- 6. movement


def test_a_tile_starting_in_its_own_zone_takes_one_step() -> None:
    game = started(2)
    tile = tile_of(game, ORANGE, 1)  # on H10, own zone
    assert game.state.steps_for(tile)[1] == 1  # type: ignore[index]
    step(game, ORANGE, 1, "H9")
    assert game.state.marked == {tile}  # no step left: the move is over
    message = assert_illegal(game, ORANGE, Step(tile, cell(game, "H8")), "already moved")
    # The player sees a tile on a cell, never its internal id.
    assert message.startswith("the tile on H9 has already moved"), message
    reason = game.why_illegal(ORANGE, Step(tile, cell(game, "H8")))
    assert reason is not None and reason.code == "already_moved"
    assert dict(reason.details) == {"cell": "H9"}


@pytest.mark.parametrize("label", ["H9", "G9", "C1"])  # neutral, dark, the enemy's zone
def test_a_tile_elsewhere_takes_up_to_two_steps(label: str) -> None:
    game = position(2, {label: (ORANGE, 5)})
    tile = tile_of(game, ORANGE, 5)
    assert game.state.steps_for(tile)[1] == 2  # type: ignore[index]
    first = next(t.cell for t in game.state.step_targets(tile) if t.occupant == "empty")
    game.apply(ORANGE, Step(tile, first))
    assert game.state.active == tile and game.state.active_steps == 1


def test_the_own_colmena_cell_counts_as_home_one_step() -> None:
    game = position(2, {"G8": (ORANGE, 9)})
    assert targets(game, ORANGE, 9) == {"G9", "H8", "F8"}  # not F7/H7 (foreign), not G7
    step(game, ORANGE, 9, "H8")
    assert tile_of(game, ORANGE, 9) in game.state.marked


def test_the_own_colmena_cell_holds_only_one_tile() -> None:
    game = position(2, {"G8": (ORANGE, 10), "G9": (ORANGE, 4)})
    four = tile_of(game, ORANGE, 4)
    game.apply(ORANGE, Step(four, cell(game, "G8")))  # passes over the queen...
    assert game.state.is_floating()
    assert_illegal(game, ORANGE, EndTurn(), "cannot stop there")
    game.apply(ORANGE, Step(four, cell(game, "H8")))  # ...and must leave the cell
    assert at(game, "G8") == tile_of(game, ORANGE, 10)


def test_only_the_own_colmena_cell_may_be_entered_and_never_the_centre() -> None:
    game = position(2, {"H8": (ORANGE, 6)})
    tile = tile_of(game, ORANGE, 6)
    assert_illegal(game, ORANGE, Step(tile, cell(game, "H7")), "another colour's colmena")
    assert_illegal(game, ORANGE, Step(tile, cell(game, "G7")), "centre")
    step(game, ORANGE, 6, "G8")  # its own colmena cell, entered from a cell next to it
    assert at(game, "G8") == tile


def test_crossing_the_colmena_is_one_step_between_cells_next_to_it() -> None:
    """The rulebook's example: a tile next to the colmena, out of its zone, crosses the colmena
    to another cell next to it with its first step and takes a second, ordinary step."""
    game = position(2, {"E6": (ORANGE, 6)})
    ring = sorted(game.board.colmena_adjacent)
    tile = tile_of(game, ORANGE, 6)
    first = {t.cell for t in game.state.step_targets(tile) if t.via == "colmena"}
    assert first == set(ring) - {cell(game, "E6")} - set(game.board.neighbours[cell(game, "E6")])
    step(game, ORANGE, 6, "I6", "J6")  # across the colmena, then next door
    assert at(game, "J6") == tile and tile in game.state.marked


def test_every_destination_of_a_tile_next_to_the_colmena() -> None:
    """The rulebook's second picture marks every cell the tile can reach; recompute it from the
    rule's words on an empty middle board and compare."""
    game = position(2, {"E6": (ORANGE, 6)})
    board = game.board
    start = cell(game, "E6")
    own = game.state.colmena_cell(ORANGE)

    def one_step(c):  # type: ignore[no-untyped-def]
        near = {n for n in board.neighbours[c] if n != board.centre}
        if c in board.colmena_adjacent:
            near |= set(board.colmena_adjacent)
        return {n for n in near if n not in board.colmena_owner or n == own} - {c}

    first = one_step(start)
    second = set().union(*(one_step(c) for c in first))
    expected = (first | second) - {start}
    expected = {c for c in expected if c not in game.state.occupant}
    labels = {board.label(c) for c in expected}
    assert reachable(game, ORANGE, 6) == labels
    assert {"I6", "J6", "G8", "G10", "D5"} <= labels
    assert not {"E6", "F6", "F7", "G7"} & labels


def test_a_tile_never_returns_to_its_starting_cell() -> None:
    game = position(2, {"H9": (ORANGE, 5), "F8": (ORANGE, 6)})
    five, six = tile_of(game, ORANGE, 5), tile_of(game, ORANGE, 6)
    step(game, ORANGE, 5, "G9")
    assert_illegal(game, ORANGE, Step(five, cell(game, "H9")), "never return")
    # Not even through the colmena: F8 -> I6 across, then back across to F8.
    step(game, ORANGE, 6, "I6")
    assert_illegal(game, ORANGE, Step(six, cell(game, "F8")), "never return")


def test_one_tile_per_cell_a_tile_passes_over_its_own_tiles_but_never_stops_on_them() -> None:
    game = position(2, {"H9": (ORANGE, 5), "G9": (ORANGE, 6)})
    five, six = tile_of(game, ORANGE, 5), tile_of(game, ORANGE, 6)
    step(game, ORANGE, 5, "G9")  # on top of its own 6, with a step left
    assert game.state.is_floating()
    assert_illegal(game, ORANGE, EndTurn(), "cannot stop there")
    assert_illegal(game, ORANGE, Step(six, cell(game, "F9")), "must finish its move")
    step(game, ORANGE, 5, "F8")
    assert at(game, "G9") == six and at(game, "F8") == five
    assert len(set(game.state.occupant)) == len(game.state.occupant.values())


def test_stepping_onto_an_own_tile_with_no_step_left_is_refused() -> None:
    game = started(2)
    one = tile_of(game, ORANGE, 1)  # H10, own zone: a single step
    carry(game, ORANGE, 9, "H9")
    assert_illegal(game, ORANGE, Step(one, cell(game, "H9")), "never stop on them")


def test_passing_an_enemy_tile_means_fighting_it() -> None:
    """A move that goes through a cell held by another player is an attempt to take it."""
    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 3)})
    eight = tile_of(game, ORANGE, 8)
    game.apply(ORANGE, Step(eight, cell(game, "G9")))
    combat = [e for e in game.history if isinstance(e, Combat)]
    assert len(combat) == 1 and combat[0].cell == cell(game, "G9")


def test_a_surviving_attacker_may_finish_its_move() -> None:
    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 3)})
    eight = tile_of(game, ORANGE, 8)
    step(game, ORANGE, 8, "G9")
    assert at(game, "G9") == eight and game.state.active == eight
    assert game.state.active_steps == 1
    step(game, ORANGE, 8, "F8")
    assert at(game, "F8") == eight


def test_markers_block_a_second_move_and_are_removed_next_turn() -> None:
    game = position(2, {"H9": (ORANGE, 5), "I8": (ORANGE, 6)})
    five = tile_of(game, ORANGE, 5)
    step(game, ORANGE, 5, "G9")  # one step of two...
    step(game, ORANGE, 6, "J7")  # ...moving another tile ends the first one's move
    assert five in game.state.marked
    assert_illegal(game, ORANGE, Step(five, cell(game, "F8")), "already moved")
    assert game.observe(RED).tiles()[0] is not None
    assert {v.id for v in game.observe(RED).tiles() if v.marked} == {five}  # markers are public
    game.apply(ORANGE, EndTurn())
    assert game.state.marked == set()
    game.apply(RED, EndTurn())
    step(game, ORANGE, 5, "F8")  # free to move again


def test_a_step_must_go_to_an_adjacent_cell() -> None:
    game = position(2, {"H9": (ORANGE, 5)})
    tile = tile_of(game, ORANGE, 5)
    assert_illegal(game, ORANGE, Step(tile, cell(game, "F9")), "not one step from H9")
    assert_illegal(game, ORANGE, Step(tile, cell(game, "H9")), "not one step")


def test_only_the_player_to_move_moves_and_only_their_own_tiles() -> None:
    game = position(2, {"H9": (ORANGE, 5), "F9": (RED, 5)})
    red = tile_of(game, RED, 5)
    assert_illegal(game, RED, Step(red, cell(game, "F8")), "it is orange's turn, not red's")
    assert_illegal(game, ORANGE, Step(red, cell(game, "F8")), "the tile on F9 belongs to red")
    assert_illegal(game, ORANGE, Step(999, cell(game, "F8")), "no tile 999")


# --------------------------------------------------------------------------------- 7. combat


@pytest.mark.parametrize(
    ("attacker", "defender", "left"),
    [(8, 3, "attacker"), (3, 8, "defender"), (6, 6, "nobody")],
)
def test_combat_the_higher_number_stays_the_lower_is_eliminated(
    attacker: int, defender: int, left: str
) -> None:
    game = position(2, {"H9": (ORANGE, attacker), "G9": (RED, defender)})
    a, d = tile_of(game, ORANGE, attacker), tile_of(game, RED, defender)
    step(game, ORANGE, attacker, "G9")
    holder = at(game, "G9")
    assert holder == {"attacker": a, "defender": d, "nobody": None}[left]
    eliminated = {tile for tile, _, _ in game.state.eliminated}
    assert eliminated == {"attacker": {d}, "defender": {a}, "nobody": {a, d}}[left]
    # The eliminator keeps the tile: each eliminated tile is credited to the other player.
    for tile, by, _ in game.state.eliminated:
        assert by == (RED if tile == a else ORANGE)
    assert at(game, "H9") is None  # the attacker left its cell either way


def test_combat_shows_both_numbers_to_everyone_until_the_turn_ends() -> None:
    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 9)})
    step(game, ORANGE, 8, "G9")
    nine = tile_of(game, RED, 9)
    for viewer in (ORANGE, RED):
        view = game.observe(viewer)
        assert view.numbers[nine] == 9 and nine in view.shown
        assert view.revealed[tile_of(game, ORANGE, 8)] == 8
    game.apply(ORANGE, EndTurn())
    view = game.observe(ORANGE)
    assert nine not in view.numbers and nine not in view.shown  # hidden again...
    assert view.revealed[nine] == 9  # ...but everyone saw it, and the record says so


def test_a_tile_can_fight_as_many_times_as_it_has_steps() -> None:
    """'El límite de eliminar fichas es la cantidad de movimientos posibles.'"""
    game = position(2, {"H9": (ORANGE, 10), "G9": (RED, 2), "F8": (RED, 3), "E7": (RED, 4)})
    step(game, ORANGE, 10, "G9", "F8")
    assert len([e for e in game.history if isinstance(e, Combat)]) == 2
    ten = tile_of(game, ORANGE, 10)
    assert ten in game.state.marked
    assert_illegal(game, ORANGE, Step(ten, cell(game, "E7")), "already moved")


def test_no_combat_in_the_colmena() -> None:
    """A tile on its colmena cell cannot be attacked: nobody may enter another colour's cell."""
    game = position(2, {"G6": (RED, 2), "H5": (ORANGE, 10)})
    ten = tile_of(game, ORANGE, 10)
    assert_illegal(game, ORANGE, Step(ten, cell(game, "G6")), "another colour's colmena")
    assert "G6" not in targets(game, ORANGE, 10)


def test_a_defeated_attacker_cannot_go_on() -> None:
    game = position(2, {"H9": (ORANGE, 2), "G9": (RED, 7)})
    two = tile_of(game, ORANGE, 2)
    step(game, ORANGE, 2, "G9")
    assert game.state.tile_cell[two] is None and game.state.active is None
    assert_illegal(game, ORANGE, Step(two, cell(game, "F8")), "not on the board")


# --------------------------------------------------------------------------------- 8. the scout


def test_the_scout_shows_itself_and_every_adjacent_enemy_tile_to_all() -> None:
    game = position(
        2, {"H9": (ORANGE, 1), "G9": (RED, 7), "I8": (RED, 4), "H8": (ORANGE, 9), "F8": (RED, 2)}
    )
    scout = tile_of(game, ORANGE, 1)
    game.apply(ORANGE, Scout(scout))
    shown = {tile_of(game, RED, 7), tile_of(game, RED, 4), scout}
    for viewer in (ORANGE, RED):
        assert game.observe(viewer).shown == shown  # F8 is not adjacent; H8 is orange's own
    event = game.history[-1]
    assert isinstance(event, Scouted) and event.success
    assert sorted(n for _, n in event.revealed) == [4, 7]


def test_the_scout_works_once_per_turn_and_then_may_keep_moving() -> None:
    game = position(2, {"H9": (ORANGE, 1), "G10": (RED, 7)})
    scout = tile_of(game, ORANGE, 1)
    step(game, ORANGE, 1, "I8")  # first step of two
    game.apply(ORANGE, Scout(scout))  # in the middle of its move
    assert_illegal(game, ORANGE, Scout(scout), "once per turn")
    step(game, ORANGE, 1, "J7")  # finishes the move after scouting
    assert at(game, "J7") == scout


def test_the_scout_may_be_used_without_moving_or_after_moving() -> None:
    game = position(2, {"H9": (ORANGE, 1), "G9": (RED, 7)})
    scout = tile_of(game, ORANGE, 1)
    game.apply(ORANGE, Scout(scout))
    assert scout not in game.state.moved_this_turn()
    end_turns(game, 2)
    step(game, ORANGE, 1, "I8", "H8")  # moved (and marked)
    assert scout in game.state.marked
    game.apply(ORANGE, Scout(scout))
    assert game.history[-1].success  # type: ignore[attr-defined]


def test_flipping_a_tile_that_is_not_the_one_shows_it_and_does_nothing_else() -> None:
    """'si no lo fuera, la volverá a girar y continuaría el juego'."""
    game = position(2, {"H9": (ORANGE, 6), "G9": (RED, 7)})
    six = tile_of(game, ORANGE, 6)
    game.apply(ORANGE, Scout(six))
    event = game.history[-1]
    assert isinstance(event, Scouted) and not event.success and event.number == 6
    red_view = game.observe(RED)
    assert red_view.revealed[six] == 6  # everyone saw it
    assert six not in red_view.shown  # flipped back at once
    assert tile_of(game, RED, 7) not in red_view.revealed  # nothing else was shown
    assert_illegal(game, ORANGE, Scout(tile_of(game, ORANGE, 1)), "once per turn")


def test_shown_tiles_are_hidden_again_when_the_turn_ends() -> None:
    game = position(2, {"H9": (ORANGE, 1), "G9": (RED, 7)})
    game.apply(ORANGE, Scout(tile_of(game, ORANGE, 1)))
    assert game.observe(ORANGE).shown
    game.apply(ORANGE, EndTurn())
    for viewer in (ORANGE, RED):
        view = game.observe(viewer)
        assert not view.shown
        assert tile_of(game, RED, 7) not in view.numbers or viewer == RED


# --------------------------------------------------------------------------------- 14. secrets


def test_nobody_sees_numbers_in_play_except_their_own() -> None:
    game = started(3)
    for viewer in range(3):
        view = game.observe(viewer)
        assert set(view.numbers) == set(game.state.tiles_of(viewer))
        assert not view.revealed


def test_eliminated_tiles_are_face_down_unless_the_easier_version_is_chosen() -> None:
    for visible in (False, True):
        game = position(
            2, {"H9": (ORANGE, 8), "G9": (RED, 3)}, options=Options(eliminated_visible=visible)
        )
        step(game, ORANGE, 8, "G9")
        game.apply(ORANGE, EndTurn())
        (orange_view,) = game.observe(ORANGE).eliminated_tiles()
        (red_view,) = game.observe(RED).eliminated_tiles()
        assert orange_view.number == (3 if visible else None)
        assert red_view.number == 3  # its owner knows their own numbers (not memory play)
        assert orange_view.by == ORANGE


def test_memory_play_hides_even_the_own_numbers_after_setup() -> None:
    game = Game(2, seed=3, first_player=0, options=Options(memory_play=True))
    game.apply(ORANGE, Place(tuple(game.state.zone(ORANGE)[:10])))
    assert len(game.observe(ORANGE).numbers) == 10  # seen while placing
    game.apply(RED, Place(tuple(game.state.zone(RED)[:10])))
    assert game.observe(ORANGE).numbers == {}
    assert all(v.number is None for v in game.observe(ORANGE).tiles())
