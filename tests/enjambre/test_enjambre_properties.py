"""Random legal play never breaks an invariant, never leaks a secret, and replays exactly.

The secrecy checks do not trust the engine's own bookkeeping: a witness follows the actions and
works out, from the rules alone, which numbers have been shown to everyone and which are face up
now; every observation must agree with it. A second check swaps two numbers its viewer has never
seen and demands an identical observation.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from panal.enjambre import (
    OPTION_SPECS,
    Action,
    EndTurn,
    Game,
    GameLog,
    IllegalActionError,
    Observation,
    Options,
    Place,
    Scout,
    Step,
)
from panal.enjambre.actions import Combat, GameEnded, Scouted
from panal.enjambre.state import Phase


class Witness:
    """Which numbers every player has seen, derived from the actions and the rules."""

    def __init__(self) -> None:
        self.revealed: set[int] = set()
        self.face_up: set[int] = set()
        self.events_checked = 0

    def before(self, game: Game, player: int, action: Action) -> None:
        state = game.state
        if isinstance(action, Step):
            holder = state.occupant.get(action.target)
            if holder is not None and state.owner(holder) != player:
                self.revealed |= {action.tile, holder}
                self.face_up |= {action.tile, holder}
        elif isinstance(action, Scout):
            self.revealed.add(action.tile)
            if game.number(action.tile) == 1:
                self.face_up.add(action.tile)
                here = state.tile_cell[action.tile]
                for neighbour in state.board.neighbours[here]:  # type: ignore[index]
                    holder = state.occupant.get(neighbour)
                    if holder is not None and state.owner(holder) != player:
                        self.revealed.add(holder)
                        self.face_up.add(holder)

    def after(self, game: Game, action: Action) -> None:
        state = game.state
        if isinstance(action, EndTurn):
            self.face_up.clear()
            if game.over:
                for player in range(state.players):
                    queen = state.occupant.get(state.colmena_cell(player))
                    if queen is not None:
                        self.revealed.add(queen)
                        self.face_up.add(queen)
        self.face_up = {t for t in self.face_up if state.tile_cell[t] is not None}


def check_observation(game: Game, witness: Witness, viewer: int) -> None:
    view = game.observe(viewer)
    state = game.state
    options = state.options
    own_visible = state.phase is Phase.SETUP or not options.memory_play
    for tile, number in view.numbers.items():
        assert number == game.number(tile)
        own = state.owner(tile) == viewer and own_visible
        assert own or tile in witness.face_up, f"player {viewer} sees tile {tile}"
    expected = set(witness.face_up)
    if own_visible and state.placed[viewer]:
        expected |= set(state.tiles_of(viewer))
    assert set(view.numbers) == expected
    assert view.shown == witness.face_up
    assert set(view.revealed) == witness.revealed
    assert all(game.number(t) == n for t, n in view.revealed.items())
    # Recorded numbers stay legitimate once checked (the revealed set only grows).
    for event in view.history[witness.events_checked :]:
        for tile, number in _numbers_in(event):
            assert tile in witness.revealed and game.number(tile) == number
    witness.events_checked = len(view.history)
    for item in view.eliminated_tiles():
        if item.number is not None:
            assert options.eliminated_visible or (item.owner == viewer and own_visible)
    for tile_view in view.tiles():
        assert tile_view.number == view.numbers.get(tile_view.id)
        if state.phase is Phase.SETUP:
            assert tile_view.owner == viewer  # others' setups are behind screens


def _numbers_in(event: object) -> list[tuple[int, int]]:
    if isinstance(event, Combat):
        return [(event.attacker, event.attacker_number), (event.defender, event.defender_number)]
    if isinstance(event, Scouted):
        return [(event.tile, event.number), *event.revealed]
    if isinstance(event, GameEnded):
        return [(tile, number) for _, tile, number in event.queens]
    return []


def fingerprint(view: Observation) -> tuple[Any, ...]:
    state = view.state
    return (
        view.tiles(),
        view.eliminated_tiles(),
        view.history,
        dict(view.numbers),
        dict(view.revealed),
        view.shown,
        view.result,
        [(f, repr(getattr(state, f))) for f in type(state).__slots__ if f != "board"],
        view.legal_actions(),
    )


def check_non_interference(game: Game, witness: Witness, viewer: int, rng: random.Random) -> None:
    """Swapping two numbers the viewer never saw leaves the observation unchanged."""
    state = game.state
    for other in rng.sample(range(state.players), state.players):
        if other == viewer:
            continue
        hidden = [
            t
            for t in state.tiles_of(other)
            if t not in witness.revealed and state.tile_cell[t] is not None
        ]
        if len(hidden) >= 2:
            a, b = rng.sample(hidden, 2)
            before = fingerprint(game.observe(viewer))
            game.numbers[a], game.numbers[b] = game.numbers[b], game.numbers[a]
            after = fingerprint(game.observe(viewer))
            game.numbers[a], game.numbers[b] = game.numbers[b], game.numbers[a]
            assert before == after
            return


def check_invariants(game: Game, *, legality: bool) -> None:
    state = game.state
    board = state.board
    occupant = state.occupant
    assert len(set(occupant.values())) == len(occupant)  # one tile per cell
    for place, tile in occupant.items():
        assert state.tile_cell[tile] == place
    assert board.centre not in occupant
    for place, tile in occupant.items():
        colour = board.colmena_owner.get(place)
        if colour is not None:
            assert state.sectors[state.owner(tile)] == colour  # never a foreign colmena cell
    floating = state.is_floating()
    on_board = {t for t, c in enumerate(state.tile_cell) if c is not None}
    assert on_board == set(occupant.values()) | ({state.active} if floating else set())
    if floating:
        holder = occupant[state.tile_cell[state.active]]  # type: ignore[index]
        assert state.owner(holder) == state.owner(state.active)  # type: ignore[arg-type]
    eliminated = [t for t, _, _ in state.eliminated]
    assert len(set(eliminated)) == len(eliminated)
    credited = [by for _, by, _ in state.eliminated if by is not None]
    assert list(state.eliminations) == [credited.count(p) for p in range(state.players)]
    if state.options.tie_credit == "each":
        assert len(credited) == len(eliminated)
    for tile, by, _ in state.eliminated:
        assert by != state.owner(tile)  # nobody is credited with their own tile
    for player in range(state.players):
        tiles = set(state.tiles_of(player))
        alive = tiles & on_board
        gone = tiles & set(eliminated)
        pending = tiles & ({state.displacing} if state.displacing is not None else set())
        if state.placed[player]:
            assert len(alive) + len(gone) + len(pending) == 10  # tiles are never lost or made
            assert sorted(game.number(t) for t in tiles) == list(range(1, 11))
    if state.phase is Phase.PLAY and legality:
        mover = state.turn_player
        assert all(state.owner(t) == mover for t in state.marked)
        legal = state.legal_actions()
        assert all(a.tile not in state.marked for a in legal if isinstance(a, Step))
        assert all(state.why_illegal(mover, a) is None for a in legal)


def random_options(rng: random.Random, rounds: int) -> Options:
    values: dict[str, object] = {}
    for spec in OPTION_SPECS:
        if spec.kind == "bool":
            values[spec.name] = rng.random() < 0.3
        elif spec.kind == "choice":
            assert spec.choices is not None
            values[spec.name] = rng.choice(spec.choices)
    return Options(rounds=rounds, **values)  # type: ignore[arg-type]


def random_action(game: Game, rng: random.Random) -> Action:
    state = game.state
    player = game.to_move
    assert player is not None
    if state.phase is Phase.SETUP:
        return Place(tuple(rng.sample(state.zone(player), 10)))
    legal = state.legal_actions()
    steps = [a for a in legal if not isinstance(a, (EndTurn, Scout))]
    if EndTurn() in legal and (not steps or rng.random() < 0.12):
        return EndTurn()
    if rng.random() < 0.05:
        scouts = [a for a in legal if isinstance(a, Scout)]
        if scouts:
            return rng.choice(scouts)
    return rng.choice(steps or legal)


def try_illegal(game: Game, rng: random.Random) -> None:
    """A random action that is not legal is refused and changes nothing."""
    state = game.state
    player = game.to_move
    assert player is not None
    tile = rng.randrange(len(state.tile_cell))
    action: Action = Step(tile, rng.choice(state.board.cells))
    if action in state.legal_actions():
        return
    before = game.snapshot()
    with pytest.raises(IllegalActionError):
        game.apply(player, action)
    assert game.snapshot() == before


def check_paths(game: Game, rng: random.Random) -> None:
    """Every whole move the state offers (``PublicState.paths``, what the web page lights) is a
    sequence of legal steps that ends where it says, and every legal single step that stops or
    attacks is among them."""
    state = game.state
    player = state.turn_player
    movers = [t for t in state.tiles_on_board(player) if state.steps_for(t) is not None]
    if not movers or state.displacing is not None:
        return
    tile = rng.choice(movers)
    paths = state.paths(tile)
    ends = {(p.end, p.attack is not None) for p in paths}
    assert len(ends) == len(paths)
    for target in state.step_targets(tile):
        if target.occupant != "own":
            assert (target.cell, target.occupant == "enemy") in ends
    for path in paths:
        trial = Game.from_public(state, game.numbers, shown=frozenset(game.shown))
        for index, cell in enumerate(path.cells):
            holder = trial.state.occupant.get(cell)
            enemy = holder is not None and trial.state.owner(holder) != player
            assert enemy == (index == len(path.cells) - 1 and path.attack is not None)
            trial.apply(player, Step(tile, cell))
        if path.attack is None:
            assert trial.state.tile_cell[tile] == path.end
            assert trial.state.occupant.get(path.end) == tile  # a stop, not a pass-over


def play_random(seed: int, *, players: int, options: Options, deep: bool) -> tuple[Game, int]:
    rng = random.Random(seed)
    game = Game(players, options=options, seed=seed)
    witness = Witness()
    checks = 0
    while not game.over:
        player = game.to_move
        assert player is not None
        action = random_action(game, rng)
        witness.before(game, player, action)
        game.apply(player, action)
        witness.after(game, action)
        check_invariants(game, legality=deep)
        check_observation(game, witness, rng.randrange(players))
        checks += 1
        if deep and game.phase is not Phase.SETUP:
            if rng.random() < 0.2:
                check_non_interference(game, witness, rng.randrange(players), rng)
            if rng.random() < 0.1 and not game.over:
                try_illegal(game, rng)
            if rng.random() < 0.2 and game.phase is Phase.PLAY:
                check_paths(game, rng)
    for viewer in range(players):
        check_observation(game, witness, viewer)
    return game, checks


@pytest.mark.slow
def test_thousands_of_random_games_keep_every_secret_and_invariant() -> None:
    """2,000 short games with 2-6 players and random options; every observation is checked."""
    games = checks = 0
    for seed in range(2000):
        rng = random.Random(seed)
        players = 2 + seed % 5
        options = random_options(rng, rounds=rng.choice((1, 2)))
        _, count = play_random(seed, players=players, options=options, deep=seed % 4 == 0)
        games += 1
        checks += count
    assert games == 2000 and checks > 100_000


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_full_length_random_games(players: int) -> None:
    for seed in range(6):
        options = random_options(random.Random(seed), rounds=10)
        game, _ = play_random(1000 + seed, players=players, options=options, deep=True)
        assert game.result is not None and len(game.result.scores) == players


@pytest.mark.slow
def test_many_full_length_random_games() -> None:
    for seed in range(500):
        rng = random.Random(seed)
        options = random_options(rng, rounds=rng.choice((3, 10)))
        play_random(50_000 + seed, players=2 + seed % 5, options=options, deep=True)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    rounds=st.integers(1, 4),
    choice=st.integers(0, 2**32),
)
def test_a_game_log_replays_to_the_same_final_state(
    seed: int, players: int, rounds: int, choice: int
) -> None:
    options = random_options(random.Random(choice), rounds)
    rng = random.Random(seed)
    game = Game(players, options=options, seed=seed)
    while not game.over:
        game.apply(game.to_move, random_action(game, rng))  # type: ignore[arg-type]
    text = game.log.to_json()
    again = Game.replay(GameLog.from_json(text))
    assert again.snapshot() == game.snapshot()
    assert again.result == game.result
    assert again.log.to_json() == text


def test_replay_rejects_a_tampered_log() -> None:
    rng = random.Random(3)
    game = Game(2, seed=3, options=Options(rounds=2))
    while not game.over:
        game.apply(game.to_move, random_action(game, rng))  # type: ignore[arg-type]
    data = game.log.to_dict()
    steps = [i for i, (_, a) in enumerate(data["actions"]) if a["type"] == "step"]
    data["actions"][steps[0]][1]["target"] = [0, 0]  # the centre: never a legal step
    with pytest.raises(IllegalActionError, match="centre"):
        Game.replay(GameLog.from_dict(data))


def test_a_copy_plays_on_without_touching_the_original() -> None:
    rng = random.Random(8)
    game = Game(4, seed=8)
    for _ in range(120):
        game.apply(game.to_move, random_action(game, rng))  # type: ignore[arg-type]
    before = game.snapshot()
    copy = game.copy()
    assert copy.snapshot() == before
    while not copy.over:
        copy.apply(copy.to_move, random_action(copy, rng))  # type: ignore[arg-type]
    assert game.snapshot() == before and len(game.log.actions) == 120
    assert Game.replay(copy.log).snapshot() == copy.snapshot()
