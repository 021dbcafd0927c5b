"""The Enjambre Tácticas AEC environment: PettingZoo's own checks, the action encoding's
bijection with the engine's actions, rewards, truncation and options."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, render_test, seed_test

from panal.enjambre import EndTurn, IllegalActionError, Options, Phase, Step
from panal.enjambre.render import render_board
from panal.env.enjambre_actions import ActionLayout, EnjambreTable
from panal.env.enjambre_aec import EnjambreEnv

# PettingZoo suggests a Box observation; a dict with an action mask is its own masked-game form.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(EnjambreEnv(players), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: EnjambreEnv(players), num_cycles=500)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: EnjambreEnv(3, render_mode=render_mode))
    assert "to act" in capsys.readouterr().out  # human mode prints


def test_paths_mode_passes_the_api_test() -> None:
    api_test(EnjambreEnv(4, moves="paths", rounds=3), num_cycles=500)


def _random_play(env: EnjambreEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("players", [2, 4, 5, 6])
def test_full_games_end_with_zero_sum_rank_rewards(players: int) -> None:
    env = EnjambreEnv(players, rounds=3)
    totals = _random_play(env, seed=players)
    assert env.table.over
    assert sum(totals.values()) == pytest.approx(0.0)
    result = env.table.game.result
    assert result is not None
    for seat, agent in enumerate(env.possible_agents):
        beaten = sum(result.places[seat] < p for p in result.places)
        beaten_by = sum(p < result.places[seat] for p in result.places)
        assert totals[agent] == pytest.approx((beaten - beaten_by) / (players - 1))


def test_score_rewards_are_scores_against_the_mean() -> None:
    env = EnjambreEnv(3, rounds=2, reward="score")
    totals = _random_play(env, seed=5)
    result = env.table.game.result
    assert result is not None
    mean = sum(result.scores) / 3
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx((result.scores[seat] - mean) / 19)


def test_truncation_at_the_step_limit() -> None:
    env = EnjambreEnv(2, max_steps=25)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 25
    assert not env.table.over


def test_seeded_resets_replay_the_same_game() -> None:
    first, second = EnjambreEnv(5), EnjambreEnv(5)
    _random_play(first, seed=9)
    _random_play(second, seed=9)
    assert first.table.game.log.to_json() == second.table.game.log.to_json()
    assert first.table.game.state.sectors == second.table.game.state.sectors


def test_every_rule_option_is_a_keyword() -> None:
    values = {
        "rounds": 3,
        "elimination_points": True,
        "elimination_ranking": "competition",
        "two_player_elimination_points": "three_one",
        "tie_credit": "none",
        "scout_extra_step": True,
        "scout_retry": True,
        "colmena_combat": True,
        "displaced_to": "near_entry",
        "must_move_one": True,
        "must_move_all": True,
        "linked_dark_cells": "spoke",
        "eliminated_visible": True,
        "memory_play": True,
        "queen_exit_anywhere": True,
    }
    assert set(values) == set(Options.__dataclass_fields__)
    env = EnjambreEnv(3, **values)
    assert env.table.game.options == Options(**values)
    _random_play(env, seed=2)
    assert env.table.over


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown Enjambre option"):
        EnjambreEnv(2, colmena=True)
    with pytest.raises(ValueError, match="2 to 6"):
        EnjambreEnv(7)
    with pytest.raises(ValueError, match="moves"):
        EnjambreEnv(2, moves="jumps")
    with pytest.raises(ValueError, match="rounds"):
        EnjambreEnv(2, rounds=0)


def _check_bijection(table: EnjambreTable) -> None:
    seat = table.to_move
    assert seat is not None
    layout = table.layout
    engine = table.state.legal_actions(seat)
    indices = table.legal_indices()
    assert sorted(layout.encode(seat, a) for a in engine) == indices
    for action in engine:
        assert table.engine_actions(layout.encode(seat, action)) == [action]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_legal_indices_are_a_bijection_with_the_engines_legal_actions(players: int) -> None:
    rng = random.Random(players)
    options = Options(rounds=3, colmena_combat=True, scout_retry=True, scout_extra_step=True)
    table = EnjambreTable(players, options=options, seed=players)
    while not table.over:
        if table.state.phase is Phase.PLAY:
            _check_bijection(table)
        table.apply(rng.choice(table.legal_indices()))


def test_the_layout_is_documented() -> None:
    table = EnjambreTable(2, seed=0)
    layout = ActionLayout(table.game.board)
    assert (layout.move_start, layout.scout_start, layout.displace_start) == (12, 1282, 1292)
    assert (layout.end_turn, layout.size) == (1419, 1420)
    assert layout.describe(layout.move_index(3, layout.cells[5])) == ("move", 3, 5)
    assert layout.encode(1, EndTurn()) == 1419
    with pytest.raises(ValueError, match="does not belong"):
        layout.encode(0, Step(15, layout.cells[0]))


def test_set_up_picks_become_one_place() -> None:
    table = EnjambreTable(2, seed=3, first_player=0)
    zone = table.state.zone(0)
    for z in (11, 0, 5, 6, 7, 8, 9, 10, 1):
        table.apply(z)
    assert not table.state.placed[0] and len(table.picks[0]) == 9
    assert 11 not in table.legal_indices() and 2 in table.legal_indices()
    table.apply(2)
    assert table.state.placed[0] and table.picks[0] == []
    expected = tuple(zone[z] for z in (11, 0, 5, 6, 7, 8, 9, 10, 1, 2))
    assert table.placements[0] == expected
    assert table.game.log.actions[0][1].cells == expected  # type: ignore[union-attr]
    # tile number k sits on the k-th picked cell
    for number, cell in enumerate(expected, start=1):
        assert table.game.number(table.state.occupant[cell]) == number


def test_an_illegal_index_changes_nothing() -> None:
    table = EnjambreTable(2, seed=4)
    for _ in range(20):
        table.apply(table.legal_indices()[0])
    before = table.game.snapshot()
    illegal = next(i for i in range(table.layout.size) if i not in table.legal_indices())
    with pytest.raises(IllegalActionError):
        table.apply(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        table.apply(table.layout.size)
    assert table.game.snapshot() == before


def test_paths_are_whole_moves() -> None:
    rng = random.Random(8)
    table = EnjambreTable(3, seed=8, moves="paths", options=Options(rounds=2))
    moved = 0
    while not table.over:
        index = rng.choice(table.legal_indices())
        kind, _, _ = table.layout.describe(index)
        steps = table.engine_actions(index)
        table.apply(index)
        if kind == "move":
            assert all(isinstance(s, Step) for s in steps) and steps
            assert not table.state.is_floating()
            moved += 1
    assert moved > 10


def test_render_is_the_spectators_text() -> None:
    env = EnjambreEnv(2, render_mode="ansi")
    env.reset(seed=3)
    for _ in range(22):  # both set-ups, then two moves
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    text = env.render()
    assert isinstance(text, str)
    spectator = env.table.game.observe(None)
    assert text.startswith(render_board(spectator)) and "round 1/10, play" in text
    assert set(spectator.numbers) == set(spectator.shown)  # only tiles face up to everyone
    assert text.count("?") == 20 - len(spectator.shown)
