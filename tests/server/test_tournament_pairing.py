"""Tournament pairings and standings (panal.server.tournaments): round robins against the Berger
tables of the FIDE Handbook (C.05 Annex 1, as published, e.g. c.w.fox.tripod.com/chess/berger.html),
Swiss rounds against the rules FIDE states for every Swiss system (C.04.1), checked over many
random tournaments, arenas, and tie-breaks computed by hand from FIDE's definitions (C.07)."""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from panal.server.tournaments.pairing import (
    PlayerHistory,
    arena_pairings,
    berger_round,
    round_robin,
    round_robin_rounds,
    rounds_pairable,
    swiss_pairings,
)
from panal.server.tournaments.standings import GameResult, arena_scores, standings

# The FIDE Handbook's Berger tables, round by round, White first, boards in the published order.
BERGER = {
    4: "1-4 2-3 / 4-3 1-2 / 2-4 3-1",
    6: "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1",
    8: (
        "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 / "
        "3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1"
    ),
    10: (
        "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 / "
        "10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / "
        "4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1"
    ),
    12: (
        "1-12 2-11 3-10 4-9 5-8 6-7 / 12-7 8-6 9-5 10-4 11-3 1-2 / "
        "2-12 3-1 4-11 5-10 6-9 7-8 / 12-8 9-7 10-6 11-5 1-4 2-3 / "
        "3-12 4-2 5-1 6-11 7-10 8-9 / 12-9 10-8 11-7 1-6 2-5 3-4 / "
        "4-12 5-3 6-2 7-1 8-11 9-10 / 12-10 11-9 1-8 2-7 3-6 4-5 / "
        "5-12 6-4 7-3 8-2 9-1 10-11 / 12-11 1-10 2-9 3-8 4-7 5-6 / "
        "6-12 7-5 8-4 9-3 10-2 11-1"
    ),
}


def published(n: int) -> list[list[tuple[int, int]]]:
    return [
        [tuple(int(x) for x in board.split("-")) for board in line.split()]  # type: ignore[misc]
        for line in BERGER[n].split(" / ")
    ]


@pytest.mark.parametrize("n", sorted(BERGER))
def test_berger_tables_are_the_handbooks(n: int) -> None:
    assert [berger_round(n, r) for r in range(1, n)] == published(n)


@pytest.mark.parametrize("n", sorted(BERGER))
def test_round_robin_by_player_ids(n: int) -> None:
    ids = [100 + i for i in range(1, n + 1)]
    rounds = round_robin(ids)
    assert len(rounds) == round_robin_rounds(n) == n - 1
    expected = [[(ids[w - 1], ids[b - 1]) for w, b in line] for line in published(n)]
    assert rounds == expected


def test_odd_round_robin_gives_the_phantoms_opponent_the_bye() -> None:
    # 5 players: the table for 6, seat 6 a bye (the handbook: "the highest number counts as a bye").
    rounds = round_robin([1, 2, 3, 4, 5])
    assert len(rounds) == round_robin_rounds(5) == 5
    assert [r[-1] for r in rounds] == [(1, None), (4, None), (2, None), (5, None), (3, None)]
    assert rounds[1][:2] == [(5, 3), (1, 2)]
    met = {frozenset(p) for r in rounds for p in r if p[1] is not None}
    assert len(met) == 10  # everyone met everyone once
    byes = sorted(p[0] for r in rounds for p in r if p[1] is None)
    assert byes == [1, 2, 3, 4, 5]


def test_double_round_robin_reverses_colours_and_never_three_in_a_row() -> None:
    ids = list(range(1, 7))
    rounds = round_robin(ids, cycles=2)
    assert len(rounds) == round_robin_rounds(6, 2) == 10
    games = [p for r in rounds for p in r]
    for a, b in itertools.combinations(ids, 2):
        assert sorted(g for g in games if set(g) == {a, b}) == sorted([(a, b), (b, a)])
    for player in ids:
        colours = [
            0 if r_pair[0] == player else 1 for r in rounds for r_pair in r if player in r_pair
        ]
        runs = [len(list(g)) for _, g in itertools.groupby(colours)]
        assert max(runs) <= 2, (player, colours)
    # the first cycle's last two rounds exchanged, the second cycle in order, colours reversed
    assert rounds[3] == [(w, b) for w, b in published(6)[4]]
    assert rounds[5] == [(b, w) for w, b in published(6)[0]]


def test_round_robin_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        round_robin([1])
    with pytest.raises(ValueError, match="twice"):
        round_robin([1, 1, 2])
    with pytest.raises(ValueError, match="single or double"):
        round_robin([1, 2], cycles=3)
    with pytest.raises(ValueError, match="even"):
        berger_round(5, 1)


# --- Swiss ---------------------------------------------------------------------------------


def clean_round_exists(players: list[PlayerHistory]) -> bool:
    """Whether some pairing of ``players`` without a rematch keeps every colour difference
    within one and gives nobody a third game running with one colour (by brute force)."""

    def fine(h: PlayerHistory, colour: int) -> bool:
        after = [*h.colours, colour]
        return abs(after.count(0) - after.count(1)) <= 1 and after[-3:] != [colour] * 3

    def clean(a: PlayerHistory, b: PlayerHistory) -> bool:
        return b.player not in a.opponents and (
            (fine(a, 0) and fine(b, 1)) or (fine(a, 1) and fine(b, 0))
        )

    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        clean(first, other) and clean_round_exists([p for p in rest if p is not other])
        for other in rest
    )


def play_swiss(
    players: int, rounds: int, seed: int, look_ahead: bool = False
) -> list[list[tuple[int, int | None]]]:
    """A Swiss of ``players`` with random results (``seed`` -1: the higher seed always wins);
    checks FIDE C.04.1 round by round; ``look_ahead``: pairs with the rounds left in mind."""
    rng = random.Random(seed)
    history = {p: PlayerHistory(p) for p in range(1, players + 1)}
    played: list[list[tuple[int, int | None]]] = []
    for number in range(1, rounds + 1):
        ranked = sorted(history.values(), key=lambda h: (-h.score, h.player))
        before = copy.deepcopy(history)
        pairs = swiss_pairings(ranked, rounds_left=rounds - number if look_ahead else 0)
        # the look-ahead may overrule the best round (a dead end, or colours out of balance
        # later); the round it plays instead is checked as any other, but for its colours
        plain = swiss_pairings(ranked) if look_ahead else pairs
        seen = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seen) == list(range(1, players + 1))  # everyone once
        for white, black in pairs:
            if black is None:
                assert history[white].byes == 0  # (c) no second bye
                history[white].byes += 1
                history[white].score += 1
                continue
            assert black not in history[white].opponents  # (b) no rematch
            points = rng.choice((1.0, 0.5, 0.0)) if seed >= 0 else float(white < black)
            history[white].score += points
            history[black].score += 1 - points
            for player, opponent, colour in ((white, black, 0), (black, white, 1)):
                history[player].opponents.append(opponent)
                history[player].colours.append(colour)
        strays = False
        for h in history.values():
            assert abs(h.colour_difference) <= 2, (h.player, h.colours)  # (e)
            runs = [len(list(g)) for _, g in itertools.groupby(h.colours)]
            assert not runs or max(runs) <= 3, (h.player, h.colours)
            strays |= abs(h.colour_difference) > 1 or (bool(runs) and max(runs) > 2)
        if strays and pairs == plain:  # ours is stricter than FIDE's, whenever a round allows it
            paired = [before[p] for pair in pairs if pair[1] is not None for p in pair]
            assert not clean_round_exists(paired), pairs
        played.append(pairs)
    return played


def after_round(
    ranked: list[PlayerHistory], pairs: list[tuple[int, int | None]]
) -> list[PlayerHistory]:
    after = copy.deepcopy(ranked)
    by_id = {h.player: h for h in after}
    for white, black in pairs:
        if black is None:
            by_id[white].byes += 1
        else:
            by_id[white].opponents.append(black)
            by_id[black].opponents.append(white)
    return after


def test_a_greedy_swiss_dead_ends_and_the_look_ahead_does_not() -> None:
    # Six players, five rounds, the higher seed always winning: the best round 3 by the
    # weights leaves two triangles of players who have all met each other (1-2-3 and 4-5-6
    # or the like), and no round 4 exists. Looking ahead, round 3 is paired so that every
    # round can be played: five rounds, a full round robin, every pair once.
    with pytest.raises(ValueError, match="rematch"):
        play_swiss(6, 5, seed=-1)
    rounds = play_swiss(6, 5, seed=-1, look_ahead=True)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == 15 == len(set(pairs))
    # The first two rounds are the plain Swiss's: the look-ahead only acts at the dead end.
    assert play_swiss(6, 2, seed=-1) == rounds[:2]


@pytest.mark.parametrize(("players", "rounds"), [(5, 5), (6, 5)])
def test_a_swiss_that_looks_ahead_always_plays_its_rounds(players: int, rounds: int) -> None:
    # Fields as small as their rounds allow: without the look-ahead, 18 of these 60 random
    # six-player Swisses end before round 5 (and 11 of five players, 2 of seven, 9 of eight).
    for seed in range(8):
        assert len(play_swiss(players, rounds, seed, look_ahead=True)) == rounds


@pytest.mark.parametrize(("players", "rounds"), [(6, 4), (8, 5)])
def test_a_swiss_that_looks_ahead_keeps_colours_within_one(players: int, rounds: int) -> None:
    # Six players in four rounds, paired round by round, end with someone on three Whites and
    # one Black in 162 of 400 random tournaments; looking ahead, no player is ever outside ±1.
    for seed in range(6):
        history = {p: PlayerHistory(p) for p in range(1, players + 1)}
        for white, black in itertools.chain.from_iterable(
            play_swiss(players, rounds, seed, look_ahead=True)
        ):
            if black is not None:
                history[white].colours.append(0)
                history[black].colours.append(1)
                for h in (history[white], history[black]):
                    assert abs(h.colour_difference) <= 1, (seed, h.player, h.colours)


def test_rounds_pairable_by_hand() -> None:
    # Each of 1, 2, 3 has met each of 4, 5, 6: the games left are two triangles, no round.
    h = {p: PlayerHistory(p) for p in range(1, 7)}
    for a, b in itertools.product((1, 2, 3), (4, 5, 6)):
        h[a].opponents.append(b)
        h[b].opponents.append(a)
    assert not rounds_pairable(list(h.values()), 1)
    # Those three rounds played the other way (a six-cycle of games left): two more rounds.
    h = {p: PlayerHistory(p) for p in range(1, 7)}
    for a, b in ((1, 2), (3, 4), (5, 6), (2, 3), (4, 5), (6, 1), (1, 3), (2, 5), (4, 6)):
        h[a].opponents.append(b)
        h[b].opponents.append(a)
    assert rounds_pairable(list(h.values()), 2)
    assert not rounds_pairable(list(h.values()), 3)
    fresh = [PlayerHistory(p) for p in range(1, 41)]
    assert rounds_pairable(fresh, 19)  # Dirac's bound settles it at once
    assert rounds_pairable([PlayerHistory(p) for p in range(1, 8)], 7)  # each a bye once
    assert not rounds_pairable([PlayerHistory(p) for p in range(1, 8)], 8)


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 12), st.integers(0, 10_000))
def test_swiss_keeps_fides_basic_rules(players: int, seed: int) -> None:
    rounds = min(players - 1, max(3, players // 2))
    play_swiss(players, rounds, seed)


@pytest.mark.parametrize("players", [6, 8, 9])
def test_swiss_over_many_seeds(players: int) -> None:
    # seed 452 with 8 players once left a colour difference of 2 where none was needed
    for seed in [452, *range(25)]:
        play_swiss(players, max(3, players // 2), seed)


def test_swiss_first_round_is_upper_half_against_lower_half() -> None:
    # FIDE's Dutch system, round 1: S1 against S2 (1-4, 2-5, 3-6 for six), top seed White.
    ranked = [PlayerHistory(p) for p in range(1, 7)]
    assert swiss_pairings(ranked) == [(1, 4), (5, 2), (3, 6)]


def test_swiss_pairs_equal_scores_and_gives_the_bye_to_the_lowest() -> None:
    h = {p: PlayerHistory(p) for p in range(1, 6)}
    # after round 1: 1 beat 4, 2 beat 5, 3 had the bye
    for w, b in ((1, 4), (5, 2)):
        h[w].opponents.append(b)
        h[b].opponents.append(w)
        h[w].colours.append(0)
        h[b].colours.append(1)
    h[1].score = h[2].score = h[3].score = 1
    h[3].byes = 1
    ranked = [h[1], h[2], h[3], h[4], h[5]]
    pairs = swiss_pairings(ranked)
    assert pairs[-1] == (5, None)  # the lowest-ranked without a bye
    score_pairs = {frozenset(p) for p in pairs[:-1]}
    assert frozenset({4, 3}) in score_pairs or frozenset({3, 1}) in score_pairs
    # the two leaders who have not met meet (1 and 2 or 1 and 3), never 1 against 4 again
    assert frozenset({1, 4}) not in score_pairs


def test_swiss_says_when_no_round_exists() -> None:
    h = {p: PlayerHistory(p) for p in range(1, 3)}
    h[1].opponents.append(2)
    h[2].opponents.append(1)
    with pytest.raises(ValueError, match="rematch"):
        swiss_pairings([h[1], h[2]])
    with pytest.raises(ValueError, match="twice"):
        swiss_pairings([h[1], h[1]])


# --- arena ---------------------------------------------------------------------------------


def test_arena_pairs_neighbours_in_rank_but_not_the_last_opponent() -> None:
    ranking = [1, 2, 3, 4, 5]
    pairs = arena_pairings([1, 2, 3, 4], ranking, {}, {})
    assert {frozenset(p) for p in pairs} == {frozenset({1, 2}), frozenset({3, 4})}
    pairs = arena_pairings([1, 2, 3, 4], ranking, {1: 2, 2: 1}, {})
    assert frozenset({1, 2}) not in {frozenset(p) for p in pairs}
    assert len(pairs) == 2
    # two players who just played each other wait for someone else
    assert arena_pairings([1, 2], ranking, {1: 2, 2: 1}, {}) == []
    # colours: the one who had White more often gets Black
    assert arena_pairings([3, 4], ranking, {}, {3: [0, 0], 4: [1]}) == [(4, 3)]


def test_arena_score_has_lichess_streaks() -> None:
    results = [
        GameResult(1, 1, 2, 1.0),  # 1: 2
        GameResult(2, 1, 3, 1.0),  # 1: 2 (streak begins after two wins)
        GameResult(3, 4, 1, 0.5),  # 1 on a streak: a draw is 2
        GameResult(4, 1, 2, 1.0),  # streak broken by the draw: 2
        GameResult(5, 3, 4, 0.0),
    ]
    scores = arena_scores(results)
    assert scores[1] == 8
    assert scores[4] == 1 + 2 and scores[2] == 0 and scores[3] == 0


# --- standings -----------------------------------------------------------------------------


def test_tie_breaks_by_hand() -> None:
    # Four players, round robin: 1 beats 2 and 3, loses to 4 with Black... worked by hand.
    results = [
        GameResult(1, 1, 4, 0.0),  # 4 wins as Black
        GameResult(1, 2, 3, 0.5),
        GameResult(2, 4, 3, 0.0),  # 3 wins as Black
        GameResult(2, 1, 2, 1.0),
        GameResult(3, 2, 4, 1.0),  # 2 beats 4
        GameResult(3, 3, 1, 0.0),  # 1 wins as Black
    ]
    table = {s.player: s for s in standings([1, 2, 3, 4], results)}
    # scores: 1: 2, 2: 1.5, 3: 1.5, 4: 1
    assert [table[p].score for p in (1, 2, 3, 4)] == [2, 1.5, 1.5, 1]
    # Buchholz: sum of opponents' scores (everyone met everyone: total 6 minus own score)
    assert table[2].buchholz == 2 + 1.5 + 1 and table[3].buchholz == 2 + 1.5 + 1
    # Sonneborn-Berger: 2 drew 3 (0.75), beat 4 (1): 1.75; 3 drew 2 (0.75), beat 4 (1): 1.75
    assert table[2].sonneborn_berger == table[3].sonneborn_berger == 1.75
    # head-to-head between 2 and 3: a draw; wins as Black decide: 3 won with Black, 2 did not
    assert table[2].head_to_head == table[3].head_to_head == 0.5
    assert table[3].wins_as_black == 1 and table[2].wins_as_black == 0
    order = [s.player for s in standings([1, 2, 3, 4], results)]
    assert order == [1, 3, 2, 4]
    assert [s.rank for s in standings([1, 2, 3, 4], results)] == [1, 2, 3, 4]
    # without tie-breaks, 2 and 3 share second place
    ranks = {s.player: s.rank for s in standings([1, 2, 3, 4], results, tie_breaks=())}
    assert ranks == {1: 1, 2: 2, 3: 2, 4: 4}


def test_the_order_of_tie_breaks_decides() -> None:
    # 1 and 2 finish on 2 points; 1 beat 2, but 2 beat stronger players.
    wins = [(1, 2), (1, 5), (3, 1), (2, 3), (2, 4), (3, 4), (3, 5), (4, 5)]
    results = [GameResult(r, w, b, 1.0) for r, (w, b) in enumerate(wins, 1)]
    table = {s.player: s for s in standings([1, 2, 3, 4, 5], results)}
    assert [table[p].score for p in range(1, 6)] == [2, 2, 3, 1, 0]
    assert (table[1].buchholz, table[2].buchholz) == (5, 6)
    assert (table[1].sonneborn_berger, table[2].sonneborn_berger) == (2, 4)
    assert (table[1].head_to_head, table[2].head_to_head) == (1, 0)

    def order(tie_breaks: tuple[str, ...]) -> list[int]:
        return [s.player for s in standings([1, 2, 3, 4, 5], results, tie_breaks)]

    assert order(("head_to_head", "sonneborn_berger")) == [3, 1, 2, 4, 5]
    assert order(("sonneborn_berger", "head_to_head")) == [3, 2, 1, 4, 5]
    assert order(("buchholz",)) == [3, 2, 1, 4, 5]


def test_byes_and_forfeits_count_in_the_score_only() -> None:
    results = [GameResult(1, 1, None, 1.0), GameResult(1, 2, 3, 1.0, played=False)]
    table = {s.player: s for s in standings([1, 2, 3], results)}
    assert table[1].score == 1 and table[1].games == 0 and table[1].buchholz == 0
    assert table[2].score == 1 and table[2].wins == 0 and table[2].buchholz == 0
    with pytest.raises(ValueError, match="unknown tie-breaks"):
        standings([1], [], tie_breaks=("coin",))
    with pytest.raises(ValueError, match="not listed"):
        standings([1], [GameResult(1, 1, 9, 1.0)])
