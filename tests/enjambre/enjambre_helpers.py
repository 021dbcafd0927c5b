"""Helpers for the Enjambre Tácticas tests: set up games and build small positions.

Positions are built the honest way (every player places ten tiles in their zone) and then the
tiles a test is about are carried to their cells, as a referee would arrange a puzzle.
"""

from __future__ import annotations

from collections.abc import Mapping

from panal.enjambre import Game, Options, Place
from panal.enjambre.state import Phase
from panal.hex import Hex


def started(
    players: int = 2,
    *,
    options: Options | None = None,
    first_player: int = 0,
    seed: int = 1,
    placements: Mapping[int, tuple[Hex, ...]] | None = None,
) -> Game:
    """A game past setup. By default player p puts tile k+1 on the k-th cell of their zone."""
    game = Game(players, options=options, seed=seed, first_player=first_player)
    while game.phase is Phase.SETUP:
        player = game.to_move
        assert player is not None
        cells = (placements or {}).get(player) or game.state.zone(player)[:10]
        game.apply(player, Place(tuple(cells)))
    return game


def tile_of(game: Game, player: int, number: int) -> int:
    """The id of ``player``'s tile numbered ``number`` (the referee's view)."""
    for tile in game.state.tiles_of(player):
        if game.number(tile) == number:
            return tile
    raise LookupError(f"player {player} has no tile {number}")


def cell(game: Game, label: str) -> Hex:
    return game.board.parse_label(label)


def carry(game: Game, player: int, number: int, label: str) -> int:
    """Put ``player``'s tile ``number`` on the cell ``label`` (test set-up, not a move)."""
    tile = tile_of(game, player, number)
    target = cell(game, label)
    state = game.state
    assert target not in state.occupant, f"{label} is occupied"
    old = state.tile_cell[tile]
    if old is not None and state.occupant.get(old) == tile:
        del state.occupant[old]  # type: ignore[attr-defined]
    state.tile_cell[tile] = target  # type: ignore[index]
    state.occupant[target] = tile  # type: ignore[index]
    return tile


def position(
    players: int,
    pieces: Mapping[str, tuple[int, int]],
    *,
    options: Options | None = None,
    first_player: int = 0,
    seed: int = 1,
) -> Game:
    """A started game with ``pieces`` (label -> (player, number)) carried to their cells.

    Tiles not mentioned stay where they were placed: in their own zones, well away from the
    middle of the board where the tests happen.
    """
    game = started(players, options=options, first_player=first_player, seed=seed)
    for label, (player, number) in pieces.items():
        carry(game, player, number, label)
    return game


def at(game: Game, label: str) -> int | None:
    """The tile resting on ``label``, if any."""
    return game.state.occupant.get(cell(game, label))


def end_turns(game: Game, count: int) -> None:
    for _ in range(count):
        player = game.to_move
        assert player is not None
        from panal.enjambre import EndTurn

        game.apply(player, EndTurn())


def assert_illegal(game: Game, player: int, action: object, fragment: str) -> str:
    """The action is refused with a message containing ``fragment`` and nothing changes."""
    import pytest

    from panal.enjambre import IllegalActionError

    before = game.snapshot()
    log_length = len(game.log.actions)
    with pytest.raises(IllegalActionError) as error:
        game.apply(player, action)  # type: ignore[arg-type]
    message = str(error.value)
    assert fragment in message, message
    assert game.snapshot() == before
    assert len(game.log.actions) == log_length
    return message
