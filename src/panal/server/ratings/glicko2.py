"""Ratings, for any game: Glicko-2 for two players, OpenSkill for tables of several.

Nothing here knows Hive or Enjambre: a rating belongs to a *category* (the server uses
``hive:blitz``, ``hive:correspondence``…, and ``enjambre`` for tables), and a result is a score
(two players) or a ranking (a table).

**Glicko-2** (Mark Glickman, "Example of the Glicko-2 system", 2013) is written here, following the
paper's eight steps: the one Python package for it (``glicko2`` on PyPI) computes the volatility
with the player's rating where the paper has the rating deviation, an error the paper's own
example cannot reveal (its player is rated 1500, μ = 0). The tests check this module against the
paper's worked example and its volatility against an independent root search. As on
hivegame.com and lichess, every game is its own rating period, and a rating is shown with a "?"
while its deviation is 95 or more.

**OpenSkill** (Weng and Lin's Bayesian approximation, the ``openskill`` package, Plackett-Luce
model) rates a table of two to six players from the order they finished in:
:func:`rate_table`. Its rating is shown on the same scale (20 points to OpenSkill's unit), and
with the same "?" while its uncertainty on that scale, 20σ, is 95 or more (a newcomer's is 167).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

__all__ = [
    "DEFAULT_TAU",
    "PROVISIONAL_DEVIATION",
    "Glicko2",
    "TableRating",
    "glicko2_update",
    "rate_game",
    "rate_table",
]

SCALE = 173.7178  # the paper's conversion between the Glicko scale and Glicko-2's
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5  # the system constant: how much the volatility may change (paper: 0.3 to 1.2)
CONVERGENCE = 0.000001  # the paper's ε for the volatility iteration
#: A rating whose deviation is at least this much is shown with a "?" (hivegame.com's threshold).
PROVISIONAL_DEVIATION = 95.0
#: Bounds applied after each game (lichess's practice): a deviation never falls so low that a
#: rating stops moving, nor rises above a newcomer's; the volatility never runs away.
MIN_DEVIATION = 45.0
MAX_DEVIATION = DEFAULT_DEVIATION
MAX_VOLATILITY = 0.1
#: Points of the shown scale to one unit of OpenSkill's μ and σ (a newcomer's μ − 3σ = 0 is 1500).
TABLE_SCALE = 20.0


@dataclass(frozen=True)
class Glicko2:
    """A Glicko-2 rating on the Glicko scale (a newcomer: 1500, deviation 350, volatility 0.06)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain (shown as "1500?")."""
        return self.deviation >= PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """The rating as players read it: "1523", or "1500?" while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f, as the paper writes it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def glicko2_update(
    player: Glicko2, results: Sequence[tuple[Glicko2, float]], tau: float = DEFAULT_TAU
) -> Glicko2:
    """The player's rating after one rating period: ``results`` pairs each opponent's rating
    (as it was before the period) with the player's score against them (1 win, ½ draw, 0 loss).
    A period without games only widens the deviation (step 6). No bounds are applied here."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return replace(player, deviation=math.sqrt(phi * phi + sigma * sigma) * SCALE)
    opponents = [
        ((opponent.rating - DEFAULT_RATING) / SCALE, opponent.deviation / SCALE, score)
        for opponent, score in results
    ]
    # Steps 3 and 4: the estimated variance v and the estimated improvement Δ.
    inverse_v = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        expected = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    # Steps 5 to 8.
    new_sigma = _new_volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko2(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, new_sigma)


def _bounded(rating: Glicko2) -> Glicko2:
    return Glicko2(
        rating.rating,
        min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation)),
        min(MAX_VOLATILITY, rating.volatility),
    )


def rate_game(
    white: Glicko2, black: Glicko2, white_score: float, tau: float = DEFAULT_TAU
) -> tuple[Glicko2, Glicko2]:
    """Both players' ratings after one game between them (``white_score``: 1, ½ or 0), each
    computed from the other's rating before the game, within the site's bounds."""
    if white_score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a score is 0, 0.5 or 1, not {white_score!r}")
    return (
        _bounded(glicko2_update(white, [(black, white_score)], tau)),
        _bounded(glicko2_update(black, [(white, 1.0 - white_score)], tau)),
    )


# --- tables of several players (OpenSkill) --------------------------------------------------


@dataclass(frozen=True)
class TableRating:
    """An OpenSkill rating: the skill's mean ``mu`` and its uncertainty ``sigma`` (a newcomer:
    25 and 25/3). Players read :attr:`shown`, a conservative estimate on a Glicko-like scale."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0

    @property
    def ordinal(self) -> float:
        """μ − 3σ: the skill the player has with near certainty (0 for a newcomer)."""
        return self.mu - 3.0 * self.sigma

    @property
    def shown(self) -> int:
        """The ordinal on a scale players know: a newcomer shows 1500, as in Glicko-2."""
        return round(DEFAULT_RATING + TABLE_SCALE * self.ordinal)

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain: σ on the shown scale is at least Glicko-2's
        threshold (:data:`PROVISIONAL_DEVIATION`), so both kinds of rating get their "?" alike."""
        return TABLE_SCALE * self.sigma >= PROVISIONAL_DEVIATION

    def shown_text(self) -> str:
        """The rating as players read it: "1523", or "1500?" while provisional."""
        return f"{self.shown}{'?' if self.provisional else ''}"


def rate_table(players: Sequence[TableRating], places: Sequence[int]) -> list[TableRating]:
    """Every player's rating after a table game: ``places[i]`` is where player ``i`` finished
    (1 first; equal places are a tie). Needs the ``openskill`` package (the ``web`` extra)."""
    from openskill.models import PlackettLuce

    if len(players) != len(places):
        raise ValueError("one place per player")
    if len(players) < 2:
        raise ValueError("a table game needs at least two players")
    if any(place < 1 for place in places):
        raise ValueError("places start at 1")
    model = PlackettLuce()
    teams = [[model.rating(mu=p.mu, sigma=p.sigma)] for p in players]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [TableRating(team[0].mu, team[0].sigma) for team in rated]
