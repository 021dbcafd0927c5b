"""Hive as a PettingZoo environment: the action encoding, the observations and PettingZoo's own
API and seed tests."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from panal.env.hive_actions import ON_TOP, HiveActions
from panal.env.hive_aec import AGENTS, HiveEnv
from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Color, Game, Piece
from panal.hive.codes import CARRY_FLAG, PASS_CODE

GAMES = [
    ("Base", {}),
    ("Base+MLP", {"tournament_opening": True}),
    ("Base+MLPD", {}),
    ("Base+PD", {"dragonfly_carry": "next_turn", "mosquito_stays_dragonfly": True}),
    ("Base+MD", {"dragonfly_sidestep": "either", "mosquito_stays_dragonfly": True}),
]


def random_positions(game_type: str, rules: dict[str, object], games: int, seed: int):
    """Every position of ``games`` random games (at most 150 plies each)."""
    rng = random.Random(seed)
    for _ in range(games):
        game = Game(game_type, **rules)
        for _ in range(150):
            codes = game.legal_move_codes()
            if not codes:
                break
            yield game
            game.push_code(rng.choice(codes))


@pytest.mark.parametrize(("game_type", "rules"), GAMES)
def test_actions_are_a_bijection_with_panals_move_strings(game_type, rules) -> None:
    actions = HiveActions(game_type)
    carries = positions = 0
    for game in random_positions(game_type, rules, games=6, seed=len(game_type)):
        positions += 1
        codes = game.legal_move_codes()
        legal = actions.legal(game)
        assert sorted(legal.values()) == sorted(codes)  # one action per legal move
        for action, code in legal.items():
            assert 0 <= action < actions.size
            assert actions.code_of(game, action) == code
            assert actions.move_string(game, action) == game.move_string(code)
            assert game.parse_move_code(actions.move_string(game, action)) == code
            carries += code != PASS_CODE and bool(code & CARRY_FLAG)
    assert positions > 500
    if "D" in game_type:
        assert carries > 0, "no Dragonfly carried anything: the carry actions went untested"


def test_action_sizes_and_layout() -> None:
    assert HiveActions("Base").size == 22 * 22 * 7 + 1
    assert HiveActions("Base+MLP").size == 28 * 28 * 7 + 1 == 5489
    assert HiveActions("Base+MLPD").size == 30 * 30 * 14 + 1
    actions = HiveActions("Base+MLP")
    game = Game("Base+MLP")
    assert actions.legal(game)  # the first move: (piece, piece, on top)
    for action in actions.legal(game):
        piece, reference, relation, carry = actions.split(action)
        assert (piece, relation, carry) == (reference, ON_TOP, False)
    assert actions.split(actions.pass_action) is None
    with pytest.raises(ValueError, match="outside"):
        actions.split(actions.size)
    with pytest.raises(ValueError, match="not on the board"):
        game.push("wS1")
        actions.code_of(game, (actions.piece_index("bQ") * 28 + actions.piece_index("wQ")) * 7)
    with pytest.raises(ValueError, match="empty cell"):
        actions.action_of(game, "bQ wS1")
    game.push("bS1 wS1-")
    with pytest.raises(ValueError, match="may not touch your opponent"):
        actions.action_of(game, (game.piece_cells[Piece.bS1] + NEIGHBOR_OFFSETS[0]) << 6)


def test_pettingzoo_api_test_and_seed_test() -> None:
    for game_type, rules in GAMES[:3]:
        api_test(HiveEnv(game_type, **rules), num_cycles=200)
        seed_test(lambda game_type=game_type, rules=rules: HiveEnv(game_type, **rules), 200)


def test_seeded_openings_are_reproducible() -> None:
    env = HiveEnv("Base+MLP")
    strings = []
    for seed in (5, 5, 6):
        env.reset(seed=seed, options={"opening_plies": 8})
        assert env.game.ply == 8 and env.agent_selection == "player_0"
        strings.append(env.game.game_string())
    assert strings[0] == strings[1] != strings[2]
    env.reset(options={"game_string": strings[2]})
    assert env.game.game_string() == strings[2]


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = HiveEnv("Base+MLP", tournament_opening=True)
    env.reset()
    env.step(env.actions.action_of(env.game, "wS1"))
    before = env.game.game_string()
    mask = env.observe("player_1")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[5])
    for action in (illegal, env.actions.size, -1, env.actions.pass_action, "1", True):
        with pytest.raises(ValueError):
            env.step(action)  # type: ignore[arg-type]
    assert env.game.game_string() == before
    queen_first = (env.actions.piece_index("bQ") * 28 + env.actions.piece_index("wS1")) * 7
    with pytest.raises(ValueError, match=r"\(bQ wS1-\) is not a legal move of player_1"):
        env.step(queen_first)  # the tournament opening: no queen on the first turn
    assert env.game.game_string() == before


def test_a_finished_game_gives_plus_and_minus_one() -> None:
    rng = random.Random(3)
    env = HiveEnv("Base", max_plies=None)
    for _ in range(200):
        env.reset(seed=rng.randrange(1000), options={"opening_plies": 0})
        game = Game("Base")
        while not game.is_over() and game.ply < 600:
            game.push_code(rng.choice(game.legal_move_codes()))
        if game.outcome() is not None and game.outcome().winner is not None:
            break
    winner = AGENTS[game.outcome().winner]
    last = game.pop()
    env.reset(options={"game_string": game.game_string()})
    env.step(env.actions.action_of(env.game, last))
    assert env.terminations == {a: True for a in AGENTS}
    assert env.rewards[winner] == 1.0 and sum(env.rewards.values()) == 0.0
    assert env.infos[winner]["game_string"].split(";")[1] in ("WhiteWins", "BlackWins")
    assert env.observe(env.agent_selection)["action_mask"].sum() == 0


def test_truncation_at_the_ply_limit() -> None:
    env = HiveEnv("Base", max_plies=10)
    env.reset(seed=1)
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert env.game.ply == 10 and truncation and not termination
            env.step(None)  # type: ignore[arg-type]
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.agents == []


def test_observation_planes_show_stacks_and_the_side() -> None:
    env = HiveEnv("Base+MLP")
    game_string = (
        "Base+MLP;InProgress;White[5];wS1;bG1 wS1-;wQ -wS1;bQ bG1-;wB1 \\wS1;bA1 bQ\\;"
        "wB1 wS1;bM bQ/"
    )
    env.reset(options={"game_string": game_string})
    bugs = env.observer.bugs  # Q S B G A M L P
    assert env.observer.shape == (4 * 8 + 3, 29, 29)
    white = env.observe("player_0")
    black = env.observe("player_1")
    planes, hand = white["observation"], white["in_hand"]
    assert planes[4 * bugs].sum() == 7 and planes[4 * bugs].max() == 2  # heights: wB1 on wS1
    assert planes[2].sum() == 1  # my beetle on top
    assert planes[2 * bugs + 1].sum() == 1  # my spider covered
    assert planes[bugs + 5].sum() == 1  # their mosquito, the last piece moved
    assert (planes[4 * bugs + 1] == planes[bugs + 5]).all()
    assert planes[-1].all() and not black["observation"][-1].any()
    assert (black["observation"][:bugs] == planes[bugs : 2 * bugs]).all()
    assert hand.tolist()[0] == [0, 1, 1, 3, 3, 1, 1, 1]  # White: wQ S1 B1 placed
    assert (black["in_hand"] == hand[::-1]).all()
    assert white["action_mask"].sum() == len(env.game.legal_move_codes())
    assert black["action_mask"].sum() == 0


def test_every_hive_fits_the_grid() -> None:
    """A line of all 22 Base pieces, recentred, still lies inside the 23 x 23 grid."""
    cells = {(q, 0): "wQ" if q == 0 else None for q in range(22)}
    names = [p.name for color in Color for p in Game("Base").in_hand(color)]
    names.remove("wQ")
    for q in range(1, 22):
        cells[(q, 0)] = names[q - 1]
    game = Game.from_board(cells)
    env = HiveEnv("Base")
    env.game = game
    planes = env.observer.planes_of(game, 0)
    assert planes[4 * 5].sum() == 22


def test_render_modes() -> None:
    env = HiveEnv("Base", render_mode="ansi")
    env.reset(options={"game_string": "Base;InProgress;White[2];wS1;bS1 wS1-"})
    assert env.render() == str(env.game)
    image = HiveEnv("Base", render_mode="rgb_array")
    image.reset(options={"game_string": "Base;InProgress;White[2];wS1;bS1 wS1-"})
    array = image.render()
    assert array.dtype == np.uint8 and array.ndim == 3 and array.shape[2] == 3
    assert len({tuple(c) for c in array.reshape(-1, 3)[::7]}) > 3
    with pytest.raises(ValueError, match="render_mode"):
        HiveEnv("Base", render_mode="svg")


@pytest.mark.parametrize(("game_type", "rules"), GAMES)
def test_the_tracker_agrees_with_a_fresh_encoding_move_after_move(game_type, rules) -> None:
    """MoveKeyTracker keeps destinations' references between positions; it must always give what
    HiveActions.legal computes from scratch (Pillbug throws and Dragonfly carries included)."""
    actions = HiveActions(game_type)
    rng = random.Random(7)
    for _ in range(4):
        game = Game(game_type, **rules)
        tracker = actions.tracker(game)
        while not game.is_over() and game.ply < 200:
            legal = tracker.legal()
            assert legal == actions.legal(game)
            code = rng.choice(sorted(legal.values()))
            if game.ply % 7 == 3:  # a copy goes on by itself, as OpenSpiel's clones do
                twin = tracker.copy()
                twin.push(code)
                assert twin.legal() == actions.legal(twin.game)
                assert tracker.legal() == legal and twin.game.ply == game.ply + 1
            tracker.push(code)
        game.pop()  # a move taken back behind the tracker's back
        assert tracker.legal() == actions.legal(game)


def test_bad_reset_options_raise_and_change_nothing() -> None:
    env = HiveEnv("Base")
    env.reset(options={"game_string": "Base;InProgress;White[2];wS1;bS1 wS1-"})
    before = env.game
    for options in ({"opening_plies": -1}, {"opening_plies": "3"}, {"game_string": "Base+M"}):
        with pytest.raises(ValueError):
            env.reset(options=options)
        assert env.game is before
    with pytest.raises(ValueError, match="not a Base game"):
        env.reset(options={"game_string": "Base+M;NotStarted;White[1]"})
    assert env.game is before
