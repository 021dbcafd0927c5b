"""Bots: they see observations only, are deterministic, and reason about hidden numbers."""

from __future__ import annotations

import gc
import random
from types import FunctionType, ModuleType

import pytest
from enjambre_helpers import position, started, tile_of

from panal.enjambre import OPTION_SPECS, EndTurn, Game, Observation, Options, Scout, Step
from panal.enjambre.bots import BOTS, HeuristicBot, RandomBot, SearchBot, SearchParams, make_bot
from panal.enjambre.bots.base import Bot
from panal.enjambre.bots.heuristic import HeuristicParams, Planner
from panal.enjambre.bots.knowledge import Knowledge
from panal.enjambre.runner import play_game, run_tournament

ORANGE, RED = 0, 1
QUICK_SEARCH = SearchParams(samples=2, candidates=2)


def reachable_objects(root: object, limit: int = 200_000) -> list[object]:
    """Everything reachable from ``root`` through references, except code and types."""
    seen: set[int] = set()
    found = []
    stack = [root]
    while stack and len(found) < limit:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (type, ModuleType, FunctionType)):
            continue
        seen.add(id(item))
        found.append(item)
        stack.extend(gc.get_referents(item))
    return found


def test_an_observation_holds_no_reference_to_the_game_or_its_secrets() -> None:
    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 3)})
    view = game.observe(RED)
    reachable = reachable_objects(view)
    ids = {id(item) for item in reachable}
    assert not any(isinstance(item, Game) for item in reachable)
    for private in (game.numbers, game.state, game.state.occupant, game.shown, game.history):
        assert id(private) not in ids
    with pytest.raises(TypeError):
        view.state.occupant[game.board.centre] = 0  # type: ignore[index]


def test_bots_refuse_anything_but_an_observation() -> None:
    game = started(2)
    for name in BOTS:
        with pytest.raises(TypeError, match="observations only"):
            make_bot(name, 1).act(game)  # type: ignore[arg-type]


def test_the_runner_hands_bots_their_own_observations_only() -> None:
    seen: list[tuple[type, int, int | None]] = []

    class Spy(RandomBot):
        def act(self, observation: Observation) -> object:  # type: ignore[override]
            seen.append((type(observation), observation.viewer, observation.to_move))
            return super().act(observation)

    play_game([Spy(1), Spy(2), Spy(3)], seed=4, options=Options(rounds=2))
    assert seen and all(kind is Observation for kind, _, _ in seen)
    assert all(viewer == to_move for _, viewer, to_move in seen)


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_bots_are_deterministic_for_a_seed(name: str) -> None:
    def log(seed: int) -> str:
        bots: list[Bot] = [
            SearchBot(seed + k, QUICK_SEARCH) if name == "search" else make_bot(name, seed + k)
            for k in range(3)
        ]
        return play_game(bots, seed=11, options=Options(rounds=3)).log.to_json()

    assert log(5) == log(5)
    if name != "search":  # the search bot's setup comes from its heuristic, the same for both
        assert log(5) != log(6)


def test_knowledge_tracks_shown_and_eliminated_numbers() -> None:
    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 3), "F8": (RED, 9)})
    game.apply(ORANGE, Step(tile_of(game, ORANGE, 8), game.board.parse_label("G9")))
    view = game.observe(ORANGE)
    know = Knowledge.from_observation(view, {})
    assert know.known[tile_of(game, RED, 3)] == 3  # eliminated: shown in the combat
    assert know.pools[RED] == (1, 2, 4, 5, 6, 7, 8, 9, 10)
    nine = tile_of(game, RED, 9)
    assert know.options(nine) == know.pools[RED]
    assert know.p_above(nine, 8) == pytest.approx(2 / 9)  # the 9 or the 10
    game.apply(ORANGE, EndTurn())
    later = Knowledge.from_observation(game.observe(ORANGE), {})
    assert later.known[tile_of(game, RED, 3)] == 3  # remembered after the turn ends


def test_samples_are_consistent_with_what_the_viewer_knows() -> None:
    game = position(3, {"H9": (ORANGE, 1), "G9": (1, 4), "I8": (1, 7)})
    game.apply(ORANGE, Scout(tile_of(game, ORANGE, 1)))
    know = Knowledge.from_observation(game.observe(ORANGE), {})
    rng = random.Random(2)
    samples = [know.sample(rng) for _ in range(50)]
    for numbers in samples:
        for player in range(3):
            assert sorted(numbers[t] for t in game.state.tiles_of(player)) == list(range(1, 11))
        for tile in game.state.tiles_of(ORANGE):
            assert numbers[tile] == game.number(tile)
        assert numbers[tile_of(game, 1, 4)] == 4 and numbers[tile_of(game, 1, 7)] == 7
    unknown = tile_of(game, 2, 5)
    assert len({numbers[unknown] for numbers in samples}) > 3


def planner_for(game: Game, player: int) -> Planner:
    view = game.observe(player)
    return Planner(view.state, Knowledge.from_observation(view, {}), player, HeuristicParams())


def play_turn(game: Game, bot: Bot) -> None:
    """Let ``bot`` play the current player's whole turn."""
    player = game.to_move
    assert player is not None
    bot.own_numbers = {t: game.number(t) for t in game.state.tiles_of(player)}
    while game.to_move == player and not game.over:
        game.apply(player, bot.act(game.observe(player)))


def test_the_heuristic_takes_a_sure_win() -> None:
    game = position(2, {"H9": (ORANGE, 6), "G9": (RED, 3)})
    three = tile_of(game, RED, 3)
    game.revealed[three] = 3  # shown earlier in the game
    play_turn(game, HeuristicBot(1))
    assert game.state.tile_cell[three] is None
    assert [by for t, by, _ in game.state.eliminated if t == three] == [ORANGE]


def test_the_heuristic_refuses_a_sure_loss() -> None:
    game = position(2, {"H9": (ORANGE, 6), "G9": (RED, 10)})
    ten = tile_of(game, RED, 10)
    game.revealed[ten] = 10
    value, win = planner_for(game, ORANGE).attack_value(6, ten)
    assert win == 0 and value < 0
    play_turn(game, HeuristicBot(1))
    assert not game.state.eliminated


def test_the_heuristic_estimates_unknown_tiles_from_the_numbers_still_unaccounted() -> None:
    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 5)})
    planner = planner_for(game, ORANGE)
    unknown = tile_of(game, RED, 5)
    _, win_blind = planner.attack_value(8, unknown)
    assert win_blind == pytest.approx(7 / 10)
    for number in (10, 9, 1, 2):  # four red tiles shown elsewhere: the rest is 3..8
        game.revealed[tile_of(game, RED, number)] = number
    _, win_informed = planner_for(game, ORANGE).attack_value(8, unknown)
    assert win_informed == pytest.approx(5 / 6)


def test_the_heuristic_moves_a_known_weak_tile_out_of_reach() -> None:
    from panal.enjambre.bots.knowledge import geometry_for

    game = position(2, {"H8": (ORANGE, 2), "F9": (RED, 9)})
    two, nine = tile_of(game, ORANGE, 2), tile_of(game, RED, 9)
    game.revealed[two] = 2  # everyone knows the 2 ...
    game.revealed[nine] = 9  # ... and the 9 two steps from it
    here = game.state.tile_cell[two]
    assert planner_for(game, ORANGE).danger(here, 2, exposed=True) == 1.0  # type: ignore[arg-type]
    play_turn(game, HeuristicBot(1))
    there = game.state.tile_cell[two]
    distances = geometry_for(game.state).distance[game.board.parse_label("F9")]
    assert there is not None and distances[there] > 2  # out of the 9's reach


def test_the_heuristic_brings_its_ten_home_and_uses_the_scout() -> None:
    game = play_game(
        [HeuristicBot(1), HeuristicBot(2)], seed=3, first_player=0, options=Options(rounds=10)
    )
    assert game.result is not None
    assert game.result.queen_numbers == (10, 10)
    scouted = [e for e in game.history if type(e).__name__ == "Scouted"]
    assert all(e.success for e in scouted)  # type: ignore[attr-defined]


def test_bots_remember_their_setup_under_memory_play() -> None:
    game = play_game(
        [HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)],
        seed=8,
        options=Options(memory_play=True),
    )
    assert game.result is not None and game.result.queen_numbers == (10, 10, 10)


def test_the_search_bot_finds_the_sure_win_too() -> None:
    game = position(2, {"H9": (ORANGE, 6), "G9": (RED, 3)})
    three = tile_of(game, RED, 3)
    game.revealed[three] = 3
    play_turn(game, SearchBot(1, SearchParams(samples=4, candidates=4)))
    assert game.state.tile_cell[three] is None


# Every value of every option other than the basic game's (and than rounds).
OPTION_VALUES = [
    (spec.name, value)
    for spec in OPTION_SPECS
    if spec.kind != "int"
    for value in (spec.choices or (True,))
    if value != spec.default
]


@pytest.mark.parametrize(("name", "value"), OPTION_VALUES)
def test_every_bot_plays_legally_under_every_option(name: str, value: object) -> None:
    options = Options(rounds=3, **{name: value})
    if name in ("colmena_combat", "displaced_to"):  # colmena combat happens in the last 2 rounds
        options = Options(rounds=2, **{"colmena_combat": True, name: value})
    bots: list[Bot] = [RandomBot(1), HeuristicBot(2), SearchBot(3, QUICK_SEARCH), RandomBot(4)]
    game = play_game(bots, seed=17, options=options)  # an illegal choice would raise
    assert game.over


def test_heuristic_beats_random_in_a_small_tournament() -> None:
    result = run_tournament(["heuristic", "random", "random", "random"], games=8, seed=2)
    heuristic = result.entries[0]
    assert heuristic.wins >= 7
    assert heuristic.average_score > max(e.average_score for e in result.entries[1:]) + 5


def test_sampling_priors_reweigh_but_never_contradict_the_observation() -> None:
    game = position(2, {"G6": (RED, 4), "H9": (ORANGE, 1), "G9": (RED, 2)})
    game.apply(ORANGE, Scout(tile_of(game, ORANGE, 1)))  # shows red's 2 on G9
    know = Knowledge.from_observation(game.observe(ORANGE), {})
    queen = tile_of(game, RED, 4)  # on red's colmena cell, number unknown to orange
    walker = tile_of(game, RED, 7)
    rng = random.Random(5)
    plain = [know.sample(rng) for _ in range(300)]
    biased = [know.sample(rng, queen_prior=1.0, activity={walker: 3.0}) for _ in range(300)]
    for numbers in plain + biased:
        assert numbers[tile_of(game, RED, 2)] == 2  # what was shown stays fixed
        assert sorted(numbers[t] for t in game.state.tiles_of(RED)) == list(range(1, 11))
    assert all(numbers[queen] == 10 for numbers in biased)  # the best unaccounted number
    assert sum(numbers[queen] == 10 for numbers in plain) < 100  # about 1 in 9 without it
    average = sum(numbers[walker] for numbers in biased) / len(biased)
    assert average > sum(numbers[walker] for numbers in plain) / len(plain) + 1
