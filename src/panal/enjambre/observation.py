"""What one player may see: the only thing a bot or a human interface ever receives.

An observation is a frozen copy. It holds the public state (positions, markers, the tile in
motion, eliminations), the numbers its player may see right now, and the public history: every
event with its round and player, including the numbers shown in combats and by scouts. A player
with a perfect memory knows exactly this; nothing else leaks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from panal.hex import Hex

from .actions import Action, Event, Reason
from .board import Board
from .options import Options
from .scoring import GameResult
from .state import Phase, PublicState, StepTarget

__all__ = ["EliminatedTile", "Observation", "TileView"]


class TileView(NamedTuple):
    """A tile on the board as the viewer sees it (``number`` is None when face down to them)."""

    id: int
    owner: int
    cell: Hex
    number: int | None
    marked: bool
    shown: bool


class EliminatedTile(NamedTuple):
    """An eliminated tile; ``by`` is the player who keeps it (the one who eliminated it), None
    when nobody does (a tie under ``tie_credit`` ``attacker`` or ``none``)."""

    id: int
    owner: int
    by: int | None
    round: int
    number: int | None


@dataclass(frozen=True, eq=False)
class Observation:
    viewer: int | None
    """The player who sees this; None for a spectator (or the referee's view of every number)."""
    state: PublicState
    numbers: Mapping[int, int]
    """Numbers the viewer may look at now: own tiles (unless memory play), face-up tiles."""
    shown: frozenset[int]
    """Tiles face up right now (shown this turn by a combat or a scout)."""
    revealed: Mapping[int, int]
    """Every number ever shown to all players (combats, scouts, final scoring)."""
    history: tuple[Event, ...]
    result: GameResult | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", MappingProxyType(dict(self.numbers)))
        object.__setattr__(self, "revealed", MappingProxyType(dict(self.revealed)))

    # Convenience views of the public state.

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def options(self) -> Options:
        return self.state.options

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    @property
    def me(self) -> int:
        """The viewer's seat (a spectator's observation has none: ValueError)."""
        if self.viewer is None:
            raise ValueError("a spectator's observation belongs to no player")
        return self.viewer

    @property
    def my_turn(self) -> bool:
        """Whether the viewer may act now: their turn, or their setup is still to do."""
        state = self.state
        if self.viewer is None or state.phase is Phase.OVER:
            return False
        if state.phase is Phase.SETUP:
            return not state.placed[self.viewer]
        return state.turn_player == self.viewer

    def legal_actions(self) -> list[Action]:
        """The viewer's legal actions (setup placements are checked by :meth:`why_illegal`)."""
        if not self.my_turn or self.viewer is None:
            return []
        return self.state.legal_actions(self.viewer)

    def why_illegal(self, action: Action) -> Reason | None:
        if self.viewer is None:
            return Reason("spectator", "a spectator cannot act")
        return self.state.why_illegal(self.viewer, action)

    def step_targets(self, tile: int) -> list[StepTarget]:
        return self.state.step_targets(tile)

    def known_number(self, tile: int) -> int | None:
        """The number of ``tile`` if the viewer sees it now or saw it shown to everyone."""
        number = self.numbers.get(tile)
        return number if number is not None else self.revealed.get(tile)

    def tiles(self) -> list[TileView]:
        state = self.state
        return [
            TileView(
                id=tile,
                owner=state.owner(tile),
                cell=cell,
                number=self.numbers.get(tile),
                marked=tile in state.marked,
                shown=tile in self.shown,
            )
            for tile, cell in enumerate(state.tile_cell)
            if cell is not None
        ]

    def eliminated_tiles(self) -> list[EliminatedTile]:
        """Eliminated tiles, with numbers only where the rules let the viewer look at them."""
        state = self.state
        return [
            EliminatedTile(
                id=tile,
                owner=state.owner(tile),
                by=by,
                round=round_,
                number=self.revealed.get(tile)
                if state.options.eliminated_visible
                else self.numbers.get(tile),
            )
            for tile, by, round_ in state.eliminated
        ]
