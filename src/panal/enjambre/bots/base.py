"""The bot interface: a bot sees observations only and answers with actions."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..actions import Action, Place
from ..observation import Observation
from ..state import Phase

__all__ = ["Bot"]


class Bot(ABC):
    """A player program. Deterministic for a given seed and sequence of observations.

    Subclasses implement :meth:`place` and :meth:`choose`. The base class remembers the bot's
    own setup, so bots keep playing correctly under memory play (own numbers hidden after setup).
    """

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.own_numbers: dict[int, int] = {}

    def act(self, observation: Observation) -> Action:
        if not isinstance(observation, Observation):
            raise TypeError("bots act on observations only")
        if observation.phase is Phase.SETUP:
            action = self.place(observation)
            self.own_numbers = observation.state.placement_tiles(observation.me, action.cells)
            return action
        return self.choose(observation)

    def recall_setup(self, observation: Observation, place: Place) -> None:
        """Give a bot made after the set-up its own set-up back: a server that makes a fresh bot
        for each turn hands it the placement it made (under memory play the observation no
        longer shows its numbers, but a bot remembers them, as a player would)."""
        self.own_numbers = observation.state.placement_tiles(observation.me, place.cells)

    @abstractmethod
    def place(self, observation: Observation) -> Place:
        """Choose the secret setup: ten distinct cells of the own zone, for numbers 1 to 10."""

    @abstractmethod
    def choose(self, observation: Observation) -> Action:
        """Choose one legal action during play (called only on the bot's own turn)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
