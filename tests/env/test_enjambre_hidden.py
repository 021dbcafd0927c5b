"""No hidden number ever reaches an agent of the Enjambre environment.

Every observation of random 2–6 seat games (random rule options) is checked against a witness
built here from the public record alone (the events that show numbers to everyone, and the seat's
own set-up), and against the engine's own per-seat view; changing numbers the seat has never
seen in the true game must leave the observation identical.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from panal.enjambre import OPTION_SPECS, Game, Phase
from panal.enjambre.actions import Combat, GameEnded, Scouted
from panal.env.enjambre_aec import EnjambreEnv
from panal.env.enjambre_tensor import encode_observation, known_numbers


def random_options(rng: random.Random) -> dict[str, object]:
    values: dict[str, object] = {"rounds": rng.randint(1, 3)}
    for spec in OPTION_SPECS:
        if spec.kind == "bool":
            values[spec.name] = rng.random() < 0.5
        elif spec.kind == "choice":
            values[spec.name] = rng.choice(spec.choices or ())
    return values


def witness(game: Game, seat: int, placed_numbers: dict[int, int]) -> dict[int, int]:
    """What ``seat`` may know: its own numbers (during the set-up, or always unless memory play)
    and every number an event showed to everyone."""
    allowed: dict[int, int] = {}
    if game.phase is Phase.SETUP or not game.options.memory_play:
        allowed.update(placed_numbers)
    for event in game.history:
        match event:
            case Combat() as c:
                allowed[c.attacker] = c.attacker_number
                allowed[c.defender] = c.defender_number
            case Scouted() as s:
                allowed[s.tile] = s.number
                allowed.update(dict(s.revealed))
            case GameEnded() as g:
                allowed.update({tile: number for _, tile, number in g.queens})
    return allowed


def own_numbers(game: Game, seat: int) -> dict[int, int]:
    if not game.state.placed[seat]:
        return {}
    return {tile: game.number(tile) for tile in game.state.tiles_of(seat)}


def unseen_swap(game: Game, seat: int, known: dict[int, int], rng: random.Random) -> Game | None:
    """A copy of ``game`` where two tiles of another seat, unknown to ``seat``, trade numbers."""
    others = [p for p in range(game.players) if p != seat and game.state.placed[p]]
    rng.shuffle(others)
    for other in others:
        hidden = [t for t in game.state.tiles_of(other) if t not in known]
        if len(hidden) >= 2:
            a, b = rng.sample(hidden, 2)
            swapped = game.copy()
            swapped.numbers[a], swapped.numbers[b] = swapped.numbers[b], swapped.numbers[a]
            return swapped
    return None


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2])
def test_observations_hold_only_what_each_seat_may_know(players: int, seed: int) -> None:
    rng = random.Random(seed * 10 + players)
    moves = ("steps", "paths")[seed % 2]
    env = EnjambreEnv(players, moves=moves, **random_options(rng))
    env.reset(seed=seed)
    checked = swaps = 0
    for agent in env.agent_iter():
        game = env.table.game
        for seat, name in enumerate(env.possible_agents):
            vector = env.observe(name)["observation"]
            engine_view = game.observe(seat)
            assert np.array_equal(vector, encode_observation(engine_view, env.table.picks[seat]))
            known = known_numbers(vector, game.board, seat, players)
            allowed = witness(game, seat, own_numbers(game, seat))
            assert known == allowed  # nothing more, nothing less
            assert all(game.number(t) == n for t, n in known.items())
            if rng.random() < 0.2:
                swapped = unseen_swap(game, seat, known, rng)
                if swapped is not None:
                    again = encode_observation(swapped.observe(seat), env.table.picks[seat])
                    assert np.array_equal(vector, again)
                    swaps += 1
            checked += 1
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert env.table.over and checked > 40 and swaps > 2


def test_the_set_up_shows_no_other_seats_positions() -> None:
    env = EnjambreEnv(3)
    env.reset(seed=0)
    first = env.agent_selection
    seat = env.seat(first)
    for _ in range(10):
        env.step(int(np.flatnonzero(env.observe(first)["action_mask"])[0]))
    assert env.table.state.placed[seat]
    for name in env.possible_agents:
        if name == first:
            continue
        other = env.seat(name)
        vector = env.observe(name)["observation"]
        # the placed seat's tiles are nowhere in another seat's cell block: moving them changes
        # nothing, and only the viewer's own zone picks appear
        game = env.table.game
        assert game.observe(other).state.tiles_on_board(seat) == []
        assert known_numbers(vector, game.board, other, 3) == {}


def test_memory_play_hides_even_own_numbers_after_the_set_up() -> None:
    env = EnjambreEnv(2, memory_play=True, rounds=1)
    env.reset(seed=4)
    for _ in range(20):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    game = env.table.game
    assert game.phase is Phase.PLAY
    for seat, name in enumerate(env.possible_agents):
        vector = env.observe(name)["observation"]
        assert known_numbers(vector, game.board, seat, 2) == {}
        # … while an OpenSpiel player with perfect recall passes its own set-up along
        own = own_numbers(game, seat)
        with_memory = encode_observation(game.observe(seat), extra_known=own)
        assert known_numbers(with_memory, game.board, seat, 2) == own
