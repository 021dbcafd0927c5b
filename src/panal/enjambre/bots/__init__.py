"""Bots for Enjambre Tácticas. They receive observations only, never the game."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .heuristic import HeuristicBot, HeuristicParams
from .random_bot import RandomBot
from .search import SearchBot, SearchParams

__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "HeuristicParams",
    "RandomBot",
    "SearchBot",
    "SearchParams",
    "make_bot",
]

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}


def make_bot(name: str, seed: int) -> Bot:
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None
    return factory(seed)
