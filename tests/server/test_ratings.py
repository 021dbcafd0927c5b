"""Ratings: Glicko-2 against Glickman's published worked example, and OpenSkill tables."""

from __future__ import annotations

import math
import random

import pytest

from panal.server.ratings.glicko2 import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    Glicko2,
    TableRating,
    glicko2_update,
    rate_game,
    rate_table,
)

# Mark Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf, 2013): a player
# rated 1500 (RD 200, volatility 0.06) beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a
# 1700 (RD 300), with τ = 0.5. The paper's figures, to the digits it prints.
PAPER_PLAYER = Glicko2(1500, 200, 0.06)
PAPER_RESULTS = [(Glicko2(1400, 30), 1.0), (Glicko2(1550, 100), 0.0), (Glicko2(1700, 300), 0.0)]


def test_the_papers_worked_example() -> None:
    after = glicko2_update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    # The paper rounds as it goes (1464.06 from μ′ = −0.2069); exact arithmetic gives 1464.0507.
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)  # printed as 0.05999
    # The paper's Glicko-2-scale intermediate values: μ′ = −0.2069, φ′ = 0.8722.
    assert round((after.rating - 1500) / 173.7178, 4) == -0.2069
    assert round(after.deviation / 173.7178, 4) == 0.8722


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = glicko2_update(PAPER_PLAYER, [])
    phi = 200 / 173.7178
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.deviation == pytest.approx(math.sqrt(phi**2 + 0.06**2) * 173.7178)


def _bisect_root(f, low: float, high: float) -> float:  # type: ignore[no-untyped-def]
    """A root by plain bisection: an independent check of the paper's Illinois iteration."""
    assert f(low) > 0 > f(high)
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


@pytest.mark.parametrize("seed", range(40))
def test_the_volatility_solves_the_papers_equation_away_from_1500(seed: int) -> None:
    """The paper's example has μ = 0, where mistaking μ for φ in f(x) goes unseen (the glicko2
    package does); random players and opponents far from 1500 check step 5 for real."""
    rng = random.Random(seed)
    player = Glicko2(rng.uniform(900, 2400), rng.uniform(50, 350), rng.uniform(0.03, 0.09))
    results = [
        (Glicko2(rng.uniform(900, 2400), rng.uniform(30, 350)), rng.choice((0.0, 0.5, 1.0)))
        for _ in range(rng.randint(1, 5))
    ]
    after = glicko2_update(player, results)
    mu = (player.rating - 1500) / 173.7178
    phi = player.deviation / 173.7178
    g = [1 / math.sqrt(1 + 3 * (o.deviation / 173.7178) ** 2 / math.pi**2) for o, _ in results]
    e = [
        1 / (1 + math.exp(-gj * (mu - (o.rating - 1500) / 173.7178)))
        for gj, (o, _) in zip(g, results, strict=True)
    ]
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(g, e, strict=True))
    delta = v * sum(gj * (s - ej) for gj, ej, (_, s) in zip(g, e, results, strict=True))

    a = math.log(player.volatility**2)

    def f(x: float) -> float:  # the paper's step 5, written out here again
        return (
            math.exp(x)
            * (delta**2 - phi**2 - v - math.exp(x))
            / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / 0.5**2
        )

    root = _bisect_root(f, -60.0, 10.0)
    assert after.volatility == pytest.approx(math.exp(root / 2), rel=1e-5)
    # Steps 6 to 8 from that volatility.
    phi_star = math.sqrt(phi**2 + math.exp(root))
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    assert after.deviation == pytest.approx(new_phi * 173.7178, rel=1e-6)
    new_mu = mu + new_phi**2 * sum(
        gj * (s - ej) for gj, ej, (_, s) in zip(g, e, results, strict=True)
    )
    assert after.rating == pytest.approx(new_mu * 173.7178 + 1500, rel=1e-9)


def test_a_game_between_two_newcomers() -> None:
    white, black = rate_game(Glicko2(), Glicko2(), 1.0)
    assert white.rating > 1500 > black.rating
    assert white.rating - 1500 == pytest.approx(1500 - black.rating)
    assert white.deviation < 350 and white.provisional and white.shown().endswith("?")
    draw_white, draw_black = rate_game(Glicko2(1600, 80), Glicko2(1400, 80), 0.5)
    assert draw_white.rating < 1600 and draw_black.rating > 1400  # the stronger side drew: loses


def test_bounds_and_the_question_mark() -> None:
    settled = Glicko2(1700, MIN_DEVIATION + 0.2, 0.0001)
    assert glicko2_update(settled, [(Glicko2(1700, 30), 1.0)]).deviation < MIN_DEVIATION
    settled, _ = rate_game(settled, Glicko2(1700, 30), 1.0)
    assert settled.deviation == MIN_DEVIATION and not settled.provisional
    assert settled.shown() == str(round(settled.rating))
    assert rate_game(Glicko2(), Glicko2(), 0.0)[0].deviation <= MAX_DEVIATION
    assert Glicko2(1500, 95).provisional and not Glicko2(1500, 94.9).provisional
    with pytest.raises(ValueError):
        rate_game(Glicko2(), Glicko2(), 2.0)


def test_a_table_ranks_its_players() -> None:
    before = [TableRating(), TableRating(), TableRating(), TableRating()]
    after = rate_table(before, [1, 2, 3, 4])
    assert [r.mu for r in after] == sorted((r.mu for r in after), reverse=True)
    assert all(r.sigma < TableRating().sigma for r in after)
    assert TableRating().shown == 1500 and after[0].shown > after[3].shown
    # uncertain ("?") while 20σ, the uncertainty on the shown scale, is Glicko-2's threshold or more
    assert TableRating().provisional and TableRating().shown_text() == "1500?"
    assert TableRating(25, 4.75).provisional and not TableRating(25, 4.74).provisional
    assert TableRating(30, 4).shown_text() == str(TableRating(30, 4).shown) == "1860"
    tied = rate_table([TableRating(), TableRating()], [1, 1])
    assert tied[0].mu == pytest.approx(tied[1].mu) == pytest.approx(25.0)
    # The same table, players listed in another order: the same ratings for the same places.
    shuffled = rate_table(before[::-1], [4, 3, 2, 1])
    assert [r.mu for r in shuffled[::-1]] == pytest.approx([r.mu for r in after])
    with pytest.raises(ValueError):
        rate_table([TableRating()], [1])
