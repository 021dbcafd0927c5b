"""Sampled games agree with everything the seat observed, and only with that."""

from __future__ import annotations

import random
from typing import Any

import pytest

from panal.enjambre import Game, Observation, Options, Phase, PublicState
from panal.enjambre.actions import Combat, Scouted
from panal.env.enjambre_actions import EnjambreTable
from panal.env.enjambre_sampler import sample_game, sample_table


def observation_key(observation: Observation) -> tuple[Any, ...]:
    state = observation.state
    public = tuple(
        getattr(state, name)
        if name not in ("occupant", "bonus", "entered_from")
        else dict(getattr(state, name))
        for name in PublicState.__slots__
    )
    return (
        observation.viewer,
        public,
        dict(observation.numbers),
        observation.shown,
        dict(observation.revealed),
        observation.history,
        observation.result,
    )


def check_sample(game: Game, sampled: Game, seat: int) -> None:
    assert observation_key(sampled.observe(seat)) == observation_key(game.observe(seat))
    state = game.state
    for player in range(game.players):
        if state.placed[player] and state.phase is not Phase.SETUP:
            numbers = sorted(sampled.number(t) for t in state.tiles_of(player))
            assert numbers == list(range(1, 11))
    # the seat's own tiles and everything shown keep their true numbers
    if state.placed[seat]:
        for tile in state.tiles_of(seat):
            assert sampled.number(tile) == game.number(tile)
    for event in game.history:
        if isinstance(event, Combat):
            assert sampled.number(event.attacker) == event.attacker_number
            assert sampled.number(event.defender) == event.defender_number
        if isinstance(event, Scouted):
            assert sampled.number(event.tile) == event.number
            for tile, number in event.revealed:
                assert sampled.number(tile) == number


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_sampled_games_match_the_seats_observation(players: int) -> None:
    rng = random.Random(players)
    options = Options(rounds=3, scout_extra_step=True, colmena_combat=True, scout_retry=True)
    table = EnjambreTable(players, options=options, seed=players)
    samples = differing = 0
    while not table.over:
        if rng.random() < 0.15:
            seat = rng.randrange(players)
            sampled = sample_table(table, seat, rng)
            check_sample(table.game, sampled.game, seat)
            assert sampled.legal_indices() == table.legal_indices() or seat != table.to_move
            samples += 1
            differing += sampled.game.numbers != table.game.numbers
        table.apply(rng.choice(table.legal_indices()))
    sampled = sample_table(table, 0, rng)
    check_sample(table.game, sampled.game, 0)
    assert samples > 5 and differing > 0


def test_unknown_numbers_are_drawn_from_every_possibility() -> None:
    table = EnjambreTable(2, seed=11, first_player=0)
    while table.state.phase is Phase.SETUP:
        table.apply(table.legal_indices()[0])
    rng = random.Random(0)
    seen: dict[int, set[int]] = {tile: set() for tile in range(10, 20)}
    for _ in range(300):
        sampled = sample_game(table.observe(0), rng)
        for tile in seen:
            seen[tile].add(sampled.number(tile))
    assert all(numbers == set(range(1, 11)) for numbers in seen.values())


def test_during_the_set_up_other_positions_are_drawn() -> None:
    table = EnjambreTable(3, seed=2, first_player=0)
    for _ in range(15):  # seat 0 placed, seat 1 halfway through its picks
        table.apply(table.legal_indices()[-1])
    rng = random.Random(1)
    for seat in range(3):
        sampled = sample_table(table, seat, rng)
        check_sample(table.game, sampled.game, seat)
        assert len(sampled.picks[1]) == 5
        if seat == 1:
            assert sampled.picks[1] == table.picks[1]
    positions = {tuple(sample_table(table, 2, rng).game.state.tile_cell[:10]) for _ in range(10)}
    assert len(positions) > 1  # seat 0's set-up is secret to seat 2


def test_memory_play_uses_the_remembered_set_up() -> None:
    rng = random.Random(3)
    table = EnjambreTable(2, seed=3, options=Options(memory_play=True, rounds=3))
    while table.state.round < 2:
        table.apply(rng.choice(table.legal_indices()))
    assert not table.observe(0).numbers
    sampled = sample_table(table, 0, rng)
    for tile in table.state.tiles_of(0):
        assert sampled.game.number(tile) == table.game.number(tile)
    with pytest.raises(ValueError, match="not where this seat's tiles started"):
        wrong = table.placements[1]
        assert wrong is not None
        sample_game(table.observe(0), rng, own_placement=wrong)
    remembered = table.placements[0]
    assert remembered is not None
    forgetful = sample_game(table.observe(0), rng, own_placement=None)
    check_sample(table.game, sample_game(table.observe(0), rng, own_placement=remembered), 0)
    assert sorted(forgetful.number(t) for t in range(10)) == list(range(1, 11))
