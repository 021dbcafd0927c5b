"""Full games consistent with what one seat has observed: determinisation for search.

Information-set search (IS-MCTS, determinised playouts) needs complete states that the seat
cannot tell apart from the true one. :func:`sample_game` builds one from a seat's
:class:`~panal.enjambre.Observation` alone:

1. every tile's starting cell is read from the public record (the origin of its first move, the
   cell of its first combat, or where it stands if it never moved), so the seat's view of each
   other seat's set-up is the cells, not which number went where;
2. the numbers are drawn with the bots' :class:`~panal.enjambre.bots.knowledge.Knowledge`: what
   the seat knows stays fixed (its own numbers, every number shown in a combat, by a scout or at
   the final scoring) and each other seat's unaccounted numbers are shuffled uniformly over its
   unknown tiles;
3. each seat's ``Place`` follows from its tiles' starting cells and drawn numbers, and the
   public record is replayed action by action (``Moved`` → ``Step``, ``Scouted`` → ``Scout``,
   ``Displaced`` → ``Displace``, ``TurnEnded`` → ``EndTurn``) on a new game with the same seats
   and first player; the engine checks every action again.

Because combats and scouts only ever involve numbers that were shown, the replay reproduces the
same history, so the sampled game's ``observe(seat)`` equals the seat's observation (the tests
check every field). During the set-up, the positions of seats that have placed are unknown to
the others and are drawn uniformly in their zones.

The draw is uniform over the assignments consistent with the observation: it ignores what the
other seats' choices may say about their numbers (a seat that keeps a tile at home probably put
a high one there); ``Knowledge.sample``'s priors can add such beliefs.

In memory play the observation no longer shows the seat its own numbers; pass ``own_placement``
(its ``Place`` cells) for a seat that remembers them, otherwise they are drawn too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from panal.enjambre import (
    Action,
    Displace,
    EndTurn,
    Game,
    Observation,
    Phase,
    Place,
    PublicState,
    Scout,
    Step,
)
from panal.enjambre.actions import Combat, Displaced, Moved, Placed, Scouted, TurnEnded
from panal.enjambre.bots.knowledge import Knowledge
from panal.hex import Hex

from .enjambre_actions import EnjambreTable

__all__ = ["sample_game", "sample_table", "starting_cells"]


def starting_cells(observation: Observation) -> dict[int, Hex]:
    """Where each placed tile stood when the set-up ended, from the public record."""
    state = observation.state
    found: dict[int, Hex] = {}
    for event in observation.history:
        match event:
            case Moved(tile=tile, origin=origin):
                found.setdefault(tile, origin)
            case Combat(defender=defender, cell=cell):
                found.setdefault(defender, cell)
    for tile, now in enumerate(state.tile_cell):
        if now is not None:
            found.setdefault(tile, now)
    return found


def _placement(state: PublicState, player: int, cells_by_number: dict[int, Hex]) -> Place:
    return Place(tuple(cells_by_number[n] for n in range(1, state.tiles_per_player + 1)))


def _random_placement(state: PublicState, player: int, rng: random.Random) -> Place:
    return Place(tuple(rng.sample(state.zone(player), state.tiles_per_player)))


def sample_game(
    observation: Observation,
    rng: random.Random,
    *,
    own_placement: Sequence[Hex] | None = None,
) -> Game:
    """A complete game that ``observation``'s seat cannot tell from the true one."""
    state = observation.state
    seat = observation.me
    placements: dict[int, Place] = {}
    if state.phase is Phase.SETUP:
        for player in range(state.players):
            if not state.placed[player]:
                continue
            if player == seat:
                mine = {n: state.tile_cell[t] for t, n in observation.numbers.items()}
                placements[player] = _placement(
                    state, player, {n: c for n, c in mine.items() if c is not None}
                )
            else:
                placements[player] = _random_placement(state, player, rng)
    else:
        known = dict(observation.revealed)
        known.update(observation.numbers)
        start = starting_cells(observation)
        if own_placement is not None:
            own = Place(tuple(own_placement))
            own_cells = {start[t] for t in state.tiles_of(seat)}
            if len(own.cells) != state.tiles_per_player or set(own.cells) != own_cells:
                raise ValueError("own_placement is not where this seat's tiles started")
            numbers = state.placement_tiles(seat, own.cells)
            if any(known.get(t, n) != n for t, n in numbers.items()):
                raise ValueError("own_placement contradicts what the observation shows")
            known.update(numbers)
        drawn = Knowledge(state, known, seat).sample(rng)
        for player in range(state.players):
            cells = {drawn[t]: start[t] for t in state.tiles_of(player)}
            placements[player] = _placement(state, player, cells)
    game = Game.from_public(
        PublicState(state.board, state.options, state.sectors, state.first_player),
        [0] * len(state.tile_cell),
    )
    for player, action in _public_actions(observation, placements):
        game.apply(player, action)
    return game


def _public_actions(
    observation: Observation, placements: dict[int, Place]
) -> list[tuple[int, Action]]:
    actions: list[tuple[int, Action]] = []
    for event in observation.history:
        match event:
            case Placed(player=player):
                actions.append((player, placements[player]))
            case Moved(player=player, tile=tile, target=target):
                actions.append((player, Step(tile, target)))
            case Scouted(player=player, tile=tile):
                actions.append((player, Scout(tile)))
            case Displaced(player=player, target=target):
                actions.append((player, Displace(target)))
            case TurnEnded(player=player):
                actions.append((player, EndTurn()))
    return actions


def sample_table(table: EnjambreTable, seat: int, rng: random.Random) -> EnjambreTable:
    """A copy of ``table`` with everything ``seat`` cannot see drawn again: the game (with the
    seat's own set-up, which it remembers even in memory play) and the set-up picks of a seat
    still arranging (their count is public, their cells are not)."""
    game = sample_game(table.observe(seat), rng, own_placement=table.placements[seat])
    picks: list[list[Hex]] = []
    for player, own in enumerate(table.picks):
        if player == seat or not own:
            picks.append(list(own))
        else:
            picks.append(rng.sample(table.state.zone(player), len(own)))
    placements: list[tuple[Hex, ...] | None] = [None] * table.players
    for player, action in game.log.actions:
        if isinstance(action, Place):
            placements[player] = action.cells
    return EnjambreTable.from_game(
        game,
        moves=table.moves,
        picks=picks,
        placements=placements,
        actions_taken=table.actions_taken,
    )
