"""Playing levels: one table shared by the library, the UHP engine and the web platform.

Each level is a search depth limit and/or a node budget, a thinking-time ceiling, root noise
(random score units added to each root move, so weaker levels pick among near-equal moves and
sometimes worse ones) and a blunder rate (the chance of playing a random legal move instead of
thinking). Node budgets make a level as strong on a slow machine as on a fast one; the time is
only a ceiling.

=========  =====  ======  ======  =====  =======  ==========================================
level      depth  nodes   time s  noise  blunder  comparable to (benchmarks/ai_calibrate.py)
=========  =====  ======  ======  =====  =======  ==========================================
beginner   1      -       0.2     90     15%      between a random mover and a greedy player
easy       1      -       0.3     60     10%      a one-ply greedy player, nokamute depth 1
medium     2      400     1.0     15     0%       hivegame.com's easy bot (nokamute depth 2)
hard       -      2,000   3.0     0      0%       nokamute depth 3
expert     -      8,000   5.0     0      0%       hivegame.com's medium bot (depth 4)
strongest  -      -       10.0    0      0%       beyond hivegame.com's medium bot (depth 4)
=========  =====  ======  ======  =====  =======  ==========================================

Whichever limit comes first ends the search.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "get_level"]


@dataclass(frozen=True)
class Level:
    name: str
    depth: int | None  # None: as deep as time allows
    time_limit: float  # seconds per move, unless the caller gives one
    noise: int  # random score units added to each root move
    blunder_rate: float  # chance of a random legal move instead of a search
    description: str
    nodes: int | None = None  # a node budget: the same strength on any machine


_LEVELS = (
    Level("beginner", 1, 0.2, 90, 0.15, "a first game: grabs obvious wins, misses most else"),
    Level("easy", 1, 0.3, 60, 0.10, "a casual player; sees one move ahead"),
    Level("medium", 2, 1.0, 15, 0.0, "a club player; sees the reply to each move", 400),
    Level("hard", None, 3.0, 0, 0.0, "a strong player; 2,000 positions a move", 2_000),
    Level("expert", None, 5.0, 0, 0.0, "a very strong player; 8,000 positions a move", 8_000),
    Level("strongest", None, 10.0, 0, 0.0, "as deep as the whole time budget allows"),
)
LEVELS: tuple[str, ...] = tuple(level.name for level in _LEVELS)
"""Level names from weakest to strongest."""
DEFAULT_LEVEL = "medium"
_BY_NAME = {level.name: level for level in _LEVELS}


def get_level(name: str) -> Level:
    """The :class:`Level` called ``name`` (case-insensitive); ValueError names the choices."""
    level = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if level is None:
        raise ValueError(f"unknown level {name!r}; choose one of {', '.join(LEVELS)}")
    return level
