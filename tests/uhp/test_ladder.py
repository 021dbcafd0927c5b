"""The ladder's Bradley-Terry table: the fit solves the likelihood's equations, its intervals are
the inverse of the likelihood's curvature (checked by finite differences, independently of the
code's Fisher information), and the obvious cases come out as they must."""

from __future__ import annotations

import math
import random

import pytest

from panal.uhp.ladder import ANCHOR, LadderGame, bradley_terry, ladder_text

ELO = 400 / math.log(10)


def _games(seed: int) -> list[LadderGame]:
    rng = random.Random(seed)
    strength = {"a": 2.0, "b": 1.0, "c": 0.5, "d": 0.25}
    names = sorted(strength)
    games = []
    for _ in range(120):
        white, black = rng.sample(names, 2)
        p = strength[white] / (strength[white] + strength[black])
        roll = rng.random()
        score = 0.5 if abs(roll - p) < 0.05 else (1.0 if roll < p else 0.0)
        games.append(LadderGame(white, black, score))
    return games


def _log_likelihood(theta: dict[str, float], games: list[LadderGame]) -> float:
    """Log-likelihood of log-strengths, draws as half wins, plus each engine's virtual draw
    against the anchor (log-strength 0)."""
    total = 0.0
    for t in theta.values():
        total += 0.5 * math.log(1 / (1 + math.exp(-t))) + 0.5 * math.log(1 / (1 + math.exp(t)))
    for g in games:
        d = theta[g.white] - theta[g.black]
        total += g.score * -math.log1p(math.exp(-d)) + (1 - g.score) * -math.log1p(math.exp(d))
    return total


@pytest.mark.parametrize("seed", [1, 2])
def test_the_fit_is_the_maximum_and_the_interval_its_curvature(seed: int) -> None:
    games = _games(seed)
    table = bradley_terry(games)
    theta = {s.name: (s.rating - ANCHOR) / ELO for s in table}
    names = sorted(theta)
    best = _log_likelihood(theta, games)
    step = 1e-4
    for name in names:
        for sign in (1, -1):
            moved = {**theta, name: theta[name] + sign * 0.01}
            assert _log_likelihood(moved, games) < best
    # The Hessian by finite differences, inverted: its diagonal gives the standard errors.
    n = len(names)
    hessian = [[0.0] * n for _ in range(n)]
    for i, a in enumerate(names):
        for j, b in enumerate(names):

            def at(da: float, db: float, a: str = a, b: str = b) -> float:
                moved = dict(theta)
                moved[a] += da
                moved[b] += db
                return _log_likelihood(moved, games)

            hessian[i][j] = (
                at(step, step) - at(step, -step) - at(-step, step) + at(-step, -step)
            ) / (4 * step * step)
    import numpy as np

    covariance = np.linalg.inv(-np.array(hessian))
    for i, name in enumerate(names):
        standing = next(s for s in table if s.name == name)
        expected = 1.959964 * ELO * math.sqrt(covariance[i][i])
        assert standing.high - standing.rating == pytest.approx(expected, rel=1e-3)
        assert standing.rating - standing.low == pytest.approx(expected, rel=1e-3)
    assert [s.name for s in table] == ["a", "b", "c", "d"]  # the true order, 120 games


def test_even_results_and_perfect_scores() -> None:
    even = bradley_terry([LadderGame("x", "y", 1.0), LadderGame("y", "x", 1.0)])
    assert [round(s.rating) for s in even] == [1500, 1500]
    assert even[0].games == 2 and even[0].score == 1.0
    perfect = bradley_terry([LadderGame("x", "y", 1.0), LadderGame("y", "x", 0.0)] * 3, ["z"])
    ratings = {s.name: s for s in perfect}
    assert ratings["x"].rating > 1500 > ratings["y"].rating  # finite: the anchor's draw
    assert math.isfinite(ratings["x"].high) and ratings["x"].games == 6
    assert ratings["z"].rating == pytest.approx(1500) and ratings["z"].games == 0
    text = ladder_text(perfect)
    assert text.splitlines()[2].startswith("| 1 | x |")
