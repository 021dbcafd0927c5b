"""Final scores, places within a game, and the ranking of a match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .options import ELIMINATION_POINTS

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


def elimination_points(eliminations: Sequence[int]) -> tuple[int, ...]:
    """Advanced rule: points to the most eliminations, then the second most, and so on.

    Players with equal counts are at the same rank and each receives that rank's points; a
    player who eliminated nothing receives nothing.
    """
    table = ELIMINATION_POINTS[len(eliminations)]
    distinct = sorted({e for e in eliminations if e > 0}, reverse=True)
    rank = {count: index for index, count in enumerate(distinct)}
    return tuple(table[rank[e]] if e > 0 and rank[e] < len(table) else 0 for e in eliminations)


def score_game(
    queen_numbers: Sequence[int | None],
    survivors: Sequence[int],
    eliminations: Sequence[int],
    *,
    use_elimination_points: bool,
) -> GameResult:
    """Score = the number of the tile on your own colmena cell + 1 per other tile on the board.

    Ties go to the player with more eliminations, then are shared. With the elimination-points
    advanced rule the points replace that tiebreak, so ties are shared directly.
    """
    points = (
        elimination_points(eliminations)
        if use_elimination_points
        else tuple(0 for _ in eliminations)
    )
    scores = []
    for queen, alive, bonus in zip(queen_numbers, survivors, points, strict=True):
        others = alive - 1 if queen is not None else alive
        scores.append((queen or 0) + others + bonus)
    keys: list[tuple[int, ...]]
    if use_elimination_points:
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
