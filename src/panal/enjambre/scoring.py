"""Final scores, places within a game, and the ranking of a match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .options import Options

__all__ = ["GameResult", "competition_places", "elimination_points", "match_places", "score_game"]


@dataclass(frozen=True)
class GameResult:
    """Per player (index = seat): the final figures and the place (1 = won; ties share)."""

    scores: tuple[int, ...]
    queen_numbers: tuple[int | None, ...]
    survivors: tuple[int, ...]
    eliminations: tuple[int, ...]
    elimination_points: tuple[int, ...]
    places: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, place in enumerate(self.places) if place == 1)

    def to_dict(self) -> dict[str, list[int | None]]:
        return {
            "scores": list(self.scores),
            "queen_numbers": list(self.queen_numbers),
            "survivors": list(self.survivors),
            "eliminations": list(self.eliminations),
            "elimination_points": list(self.elimination_points),
            "places": list(self.places),
        }


def competition_places(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Place 1 + the number of players with a strictly better key: ties share a place."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def elimination_points(
    eliminations: Sequence[int], options: Options | None = None
) -> tuple[int, ...]:
    """Advanced rule: points to the most eliminations, then the second most, and so on.

    A player who eliminated nothing receives nothing. Players with equal counts share a rank and
    each receives its points; the next count is the next rank (``dense``: 2, 2, 1 eliminations
    score 3, 3, 1) or the rank after the tied players (``competition``: 3, 3, 0). The table
    comes from the player count (two players: ``two_player_elimination_points``).
    """
    options = options or Options()
    table = options.elimination_table(len(eliminations))
    counts = sorted((e for e in eliminations if e > 0), reverse=True)
    if options.elimination_ranking == "dense":
        counts = sorted(set(counts), reverse=True)
    rank: dict[int, int] = {}
    for index, count in enumerate(counts):
        rank.setdefault(count, index)
    return tuple(table[rank[e]] if e > 0 and rank[e] < len(table) else 0 for e in eliminations)


def score_game(
    queen_numbers: Sequence[int | None],
    survivors: Sequence[int],
    eliminations: Sequence[int],
    *,
    options: Options | None = None,
) -> GameResult:
    """Score = the number of the tile on your own colmena cell + 1 per other tile on the board.

    Ties go to the player with more eliminations, then are shared. With the elimination-points
    advanced rule the points replace that tiebreak, so ties are shared directly (unless the rule
    gives no points for this player count: two players with ``two_player_elimination_points``
    ``none`` keep the tiebreak).
    """
    options = options or Options()
    use_points = options.elimination_points and bool(options.elimination_table(len(eliminations)))
    points = (
        elimination_points(eliminations, options) if use_points else tuple(0 for _ in eliminations)
    )
    scores = []
    for queen, alive, bonus in zip(queen_numbers, survivors, points, strict=True):
        others = alive - 1 if queen is not None else alive
        scores.append((queen or 0) + others + bonus)
    keys: list[tuple[int, ...]]
    if use_points:
        keys = [(s,) for s in scores]
    else:
        keys = [(s, e) for s, e in zip(scores, eliminations, strict=True)]
    return GameResult(
        scores=tuple(scores),
        queen_numbers=tuple(queen_numbers),
        survivors=tuple(survivors),
        eliminations=tuple(eliminations),
        elimination_points=points,
        places=competition_places(keys),
    )


def match_places(game_places: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Rank a match: most wins, then most second places, and so on; full ties share a place."""
    players = len(game_places[0])
    counts = [
        tuple(sum(1 for places in game_places if places[p] == k) for k in range(1, players + 1))
        for p in range(players)
    ]
    return competition_places(counts)
