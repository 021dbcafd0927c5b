"""The engine ladder's rating table: Bradley-Terry strengths with 95% intervals, and an offline
ladder (every pair of engines plays an :mod:`panal.uhp.arena` match) that fills it.

The same table ranks the server's ladder (``/ladder``, :mod:`panal.server.ladder`) from the games
its bots played there.

**The model.** Bradley-Terry: engine *i* beats *j* with probability γᵢ / (γᵢ + γⱼ); a draw
counts half a win for each. Strengths are fitted by maximum likelihood with Hunter's MM
iteration (Hunter 2004, "MM algorithms for generalized Bradley-Terry models"). Every engine also
has one virtual draw against an anchor of strength 1: it fixes the scale (the anchor is rated
1500) and keeps a perfect or zero score finite (a weak prior, as BayesElo's). Ratings are on the
Elo scale: 1500 + 400 · log₁₀ γ. The 95% interval is ±1.96 standard errors from the inverse of
the Fisher information of log γ at the fit (the anchor's draw included).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from panal.uhp.arena import ArenaSettings, GameOutcome, play_match

__all__ = ["LadderGame", "Standing", "bradley_terry", "ladder_text", "play_ladder"]

ANCHOR = 1500.0
ELO_PER_NATURAL_LOG = 400 / math.log(10)
Z95 = 1.959964


@dataclass(frozen=True)
class LadderGame:
    white: str
    black: str
    score: float  # white's: 1, 0.5 or 0


@dataclass(frozen=True)
class Standing:
    name: str
    rating: float
    low: float  # 95% interval
    high: float
    games: int
    score: float  # points won

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "rating": round(self.rating),
            "low": round(self.low),
            "high": round(self.high),
            "games": self.games,
            "score": self.score,
        }


def bradley_terry(
    games: Iterable[LadderGame], names: Sequence[str] = (), iterations: int = 2000
) -> list[Standing]:
    """Every engine's rating and interval, best first (engines in ``names`` appear even
    without games)."""
    played = list(games)
    players = sorted({*names, *(g.white for g in played), *(g.black for g in played)})
    index = {name: i for i, name in enumerate(players)}
    n = len(players)
    meetings = [[0.0] * n for _ in range(n)]
    points = [0.0] * n
    counts = [0] * n
    for game in played:
        w, b = index[game.white], index[game.black]
        if w == b:
            continue
        meetings[w][b] += 1
        meetings[b][w] += 1
        points[w] += game.score
        points[b] += 1 - game.score
        counts[w] += 1
        counts[b] += 1
    strength = [1.0] * n
    for _ in range(iterations):
        moved = 0.0
        for i in range(n):
            # The anchor's virtual draw: half a point against strength 1, one meeting.
            denominator = 1 / (strength[i] + 1) + sum(
                meetings[i][j] / (strength[i] + strength[j]) for j in range(n) if meetings[i][j]
            )
            new = (points[i] + 0.5) / denominator
            moved = max(moved, abs(math.log(new / strength[i])))
            strength[i] = new
        if moved < 1e-10:
            break
    deviations = _standard_errors(strength, meetings)
    table = []
    for i, name in enumerate(players):
        rating = ANCHOR + ELO_PER_NATURAL_LOG * math.log(strength[i])
        margin = Z95 * ELO_PER_NATURAL_LOG * deviations[i]
        table.append(Standing(name, rating, rating - margin, rating + margin, counts[i], points[i]))
    table.sort(key=lambda s: (-s.rating, s.name))
    return table


def _standard_errors(strength: list[float], meetings: list[list[float]]) -> list[float]:
    """√ of the diagonal of the inverse Fisher information of log γ."""
    n = len(strength)
    information = [[0.0] * n for _ in range(n)]
    for i in range(n):
        p = strength[i] / (strength[i] + 1)
        information[i][i] += p * (1 - p)  # the anchor's draw
        for j in range(n):
            if i != j and meetings[i][j]:
                q = strength[i] / (strength[i] + strength[j])
                weight = meetings[i][j] * q * (1 - q)
                information[i][i] += weight
                information[i][j] -= weight
    inverse = _inverse(information)
    return [math.sqrt(max(inverse[i][i], 0.0)) for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting (the information matrix is positive definite)."""
    n = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column][column]
        rows[column] = [value / head for value in rows[column]]
        for r in range(n):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [row[n:] for row in rows]


def ladder_text(table: Sequence[Standing]) -> str:
    """The table as the README shows it (Markdown)."""
    lines = [
        "| # | engine | rating | 95% interval | games | points |",
        "|---|---|---|---|---|---|",
    ]
    for place, s in enumerate(table, 1):
        lines.append(
            f"| {place} | {s.name} | {s.rating:.0f} | {s.low:.0f} .. {s.high:.0f} | {s.games} "
            f"| {s.score:g} |"
        )
    return "\n".join(lines)


def _ladder_games(names: tuple[str, str], outcomes: Iterable[GameOutcome]) -> list[LadderGame]:
    return [LadderGame(names[o.white], names[1 - o.white], o.score_of(o.white)) for o in outcomes]


async def play_ladder(
    engines: Sequence[tuple[str, str, dict[str, str]]],
    settings: ArenaSettings,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[Standing], list[LadderGame]]:
    """Every pair of ``engines`` (name, command, options) plays ``settings.games`` games with
    :func:`panal.uhp.arena.play_match` (the openings, the colours swapped, the referee are the
    arena's); the Bradley-Terry table of all the games."""
    games: list[LadderGame] = []
    for (name_a, command_a, options_a), (name_b, command_b, options_b) in combinations(engines, 2):
        pair = replace(
            settings,
            engines=(command_a, command_b),
            options=(options_a, options_b),
            names=(name_a, name_b),
            out=None if settings.out is None else settings.out / f"{name_a}-vs-{name_b}",
        )
        summary = await play_match(pair)
        games.extend(_ladder_games((name_a, name_b), summary.outcomes))
        if progress is not None:
            progress(summary.text())
    names = [name for name, _, _ in engines]
    return bradley_terry(games, names), games
