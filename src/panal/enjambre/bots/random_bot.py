"""The baseline: a random setup, then a uniformly random legal action each time."""

from __future__ import annotations

from ..actions import Action, Place
from ..observation import Observation
from .base import Bot

__all__ = ["RandomBot"]


class RandomBot(Bot):
    name = "random"

    def place(self, observation: Observation) -> Place:
        zone = observation.state.zone(observation.me)
        count = observation.board.tiles_per_player
        return Place(tuple(self.rng.sample(zone, count)))

    def choose(self, observation: Observation) -> Action:
        return self.rng.choice(observation.legal_actions())
