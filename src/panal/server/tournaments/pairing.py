"""Pairings for tournaments, as pure functions over plain data (no web, no database).

A participant is a player id (an ``int``: an account, and later a bot account the same way).
A pairing is ``(white, black)``; ``black`` is ``None`` for a bye.

* **Round robin**: the Berger tables of the FIDE Handbook (C.05, Annex 1), computed rather than
  copied: with ``n`` players (a phantom ``n + 1`` when ``n`` is odd, whose opponent has the bye)
  and ``m = n - 1``, players ``i`` and ``j`` meet in round ``r`` when ``i + j ≡ r + 1 (mod m)``,
  and player ``n`` meets the ``i`` with ``2i ≡ r + 1``; ``n`` has White in even rounds, and of
  two others White goes to the one from whom the other is an odd number of steps on
  (``(black - white) mod m`` odd), which alternates everyone's colours as the tables do. A double
  round robin plays the cycle again with the colours reversed, the first cycle's last two rounds
  exchanged (as the handbook recommends).
* **Swiss**: a weighted-matching Swiss (documented in docs/web.md, "Tournaments"). The bye goes to
  the lowest-ranked player who has not had one and without whom the others can all be paired
  without a rematch; then every possible pair that has not met is an edge of a graph, weighted so
  that, in this order, (1) the fewest steps of colour difference beyond ``[-1, 1]`` and third
  games running with one colour (none whenever a round allows it), (2) players meet
  others of the same score, (3) within a score group the upper half meets the lower half
  (``S1`` against ``S2``, as in FIDE's Dutch system); and a maximum-weight matching of maximum
  cardinality (networkx's implementation of Edmonds' blossom algorithm, Galil 1986) is the round.
  Colours: the one with fewer Whites than Blacks gets White; if equal, the one whose last game
  was with Black; else the higher-ranked (unless the other way strays less from those rules).
  **Completion** (FIDE C.04.3's absolute criterion C3, "the pairing must allow the tournament
  to be completed"): given ``rounds_left``, a round is kept only if the rounds after it can
  still all be paired without a rematch (and an odd field's byes each to a new player); when
  the best round fails that, the rounds the field allows are searched in order of the same
  weights (:func:`rounds_pairable`) and the best one that leaves a complete tournament is
  played. A six-player Swiss of five rounds, paired greedily, can leave two triangles of
  players who have all met after round 3, and no fourth round: this never pairs round 3 so.
  In fields of up to :data:`BALANCED_LOOK_AHEAD` players it also keeps, the same way, every
  colour difference within ±1 after every round to the end, where the field allows it.
* **Arena** (as lichess runs them): players waiting for a game are paired with the waiting
  player nearest in rank who is not the last opponent they played.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

__all__ = [
    "Pairing",
    "PlayerHistory",
    "arena_pairings",
    "berger_round",
    "round_robin",
    "round_robin_rounds",
    "rounds_pairable",
    "swiss_pairings",
]

Pairing = tuple[int, int | None]


def round_robin_rounds(players: int, cycles: int = 1) -> int:
    """How many rounds a round robin of ``players`` takes (``cycles`` 2: a double one)."""
    if players < 2:
        raise ValueError("a round robin needs at least 2 players")
    return (players - 1 + players % 2) * cycles


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (1-based) of the Berger table for ``n`` players (``n`` even),
    as (white, black) seat numbers from 1, board by board in the handbook's order."""
    if n < 2 or n % 2:
        raise ValueError("Berger tables are for an even number of seats")
    m = n - 1
    if not 1 <= round_number <= m:
        raise ValueError(f"a Berger table for {n} has rounds 1 to {m}")

    def seat(value: int) -> int:  # residues 1..m
        return (value - 1) % m + 1

    target = round_number + 1
    partner = next(i for i in range(1, n) if (2 * i - target) % m == 0)
    boards: list[tuple[int, int]] = [(n, partner) if round_number % 2 == 0 else (partner, n)]
    for step in range(1, n // 2):
        a, b = seat(partner + step), seat(partner - step)
        boards.append((a, b) if (b - a) % m % 2 == 1 else (b, a))
    return boards


def round_robin(players: Sequence[int], cycles: int = 1) -> list[list[Pairing]]:
    """Every round of a round robin of ``players`` (seat 1 first), ``cycles`` times (the second
    cycle with colours reversed). An odd number of players: whoever the phantom last seat
    meets has the bye."""
    if cycles not in (1, 2):
        raise ValueError("a round robin is single or double")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    seats = list(players)
    n = len(seats) + len(seats) % 2
    if len(seats) < 2:
        raise ValueError("a round robin needs at least 2 players")

    def who(seat: int) -> int | None:
        return seats[seat - 1] if seat <= len(seats) else None

    # A double round robin plays the cycle again with colours reversed; the first cycle's last
    # two rounds are exchanged (FIDE C.05 Annex 1), or players would have the same colour three
    # times running across the two cycles.
    order = list(range(1, n))
    first = order[:-2] + order[:-3:-1] if cycles == 2 and n >= 4 else order
    rounds: list[list[Pairing]] = []
    for cycle in range(cycles):
        for number in first if cycle == 0 else order:
            pairs: list[Pairing] = []
            for white_seat, black_seat in berger_round(n, number):
                white, black = who(white_seat), who(black_seat)
                if cycle == 1:
                    white, black = black, white
                if white is None:  # the phantom seat: its opponent has the bye
                    white, black = black, None
                assert white is not None
                pairs.append((white, black))
            # the bye last, as pairing lists show it
            rounds.append(sorted(pairs, key=lambda p: p[1] is None))
    return rounds


@dataclass
class PlayerHistory:
    """What pairing needs to know of a player: score, colours, opponents, byes."""

    player: int
    score: float = 0.0
    opponents: list[int] = field(default_factory=list)  # in order, byes not included
    colours: list[int] = field(default_factory=list)  # 0 White, 1 Black, game by game
    byes: int = 0

    @property
    def colour_difference(self) -> int:
        """Whites minus Blacks."""
        return self.colours.count(0) - self.colours.count(1)


def _white_first(a: PlayerHistory, b: PlayerHistory, a_ranked_higher: bool) -> bool:
    """Whether ``a`` takes White against ``b``."""
    if a.colour_difference != b.colour_difference:
        return a.colour_difference < b.colour_difference
    last_a = a.colours[-1] if a.colours else None
    last_b = b.colours[-1] if b.colours else None
    if last_a != last_b and last_a is not None and last_b is not None:
        return last_a == 1
    return a_ranked_higher


def _coloured(a: PlayerHistory, b: PlayerHistory, a_ranked_higher: bool) -> Pairing:
    return (a.player, b.player) if _white_first(a, b, a_ranked_higher) else (b.player, a.player)


def _colour_cost(white: PlayerHistory, black: PlayerHistory) -> int:
    """How far these colours stray from FIDE's colour rules (C.04.1 e, f): each step of a
    colour difference beyond ±1, and each third game running with one colour."""
    cost = 0
    for player, colour in ((white, 0), (black, 1)):
        difference = player.colour_difference + (1 if colour == 0 else -1)
        cost += max(0, abs(difference) - 1) + (player.colours[-2:] == [colour, colour])
    return cost


def _colours(a: PlayerHistory, b: PlayerHistory) -> tuple[int, PlayerHistory, PlayerHistory]:
    """(the colour cost, White, Black) for ``a`` (ranked higher) and ``b``: the colours the
    rules prefer, unless the other way round strays less."""
    first = (a, b) if _white_first(a, b, True) else (b, a)
    cost, swapped = _colour_cost(*first), _colour_cost(first[1], first[0])
    return (swapped, first[1], first[0]) if swapped < cost else (cost, *first)


def _can_pair_all(players: Sequence[PlayerHistory]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(p.player for p in players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if b.player not in a.opponents:
                graph.add_edge(a.player, b.player)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(players)


#: How many candidate rounds one Swiss round's completion search may look at before it gives
#: up and plays the best round by the weights (only fields small for their number of rounds
#: need a search at all: see rounds_pairable).
SEARCH_BUDGET = 20_000
#: The largest field whose colours are kept within ±1 to the end by a search (a larger field
#: pairs each round's colours by the weights, which almost always keeps them so).
BALANCED_LOOK_AHEAD = 12
#: The most candidate rounds ranked when one must be chosen for the rounds after it (fields of
#: up to about ten players; a larger field has more, and plays the best round by the weights).
CANDIDATE_LIMIT = 1_000


class _OutOfBudget(Exception):
    pass


class _Budget:
    def __init__(self, steps: int = SEARCH_BUDGET) -> None:
        self.steps = steps

    def spend(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise _OutOfBudget


Pair = tuple[int, int]  # a game of a round being searched for: no bye


def _matchings(players: Sequence[int], unmet: Mapping[int, set[int]]) -> Iterator[list[Pair]]:
    """Every way to pair all of ``players`` (an even number) among pairs that have not met."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        if partner in unmet[first]:
            others = [p for p in rest if p != partner]
            for more in _matchings(others, unmet):
                yield [(first, partner), *more]


def _field(players: Sequence[PlayerHistory]) -> tuple[list[int], dict[int, set[int]], set[int]]:
    """The players' ids, each one's possible opponents, and those who have had a bye."""
    ids = [p.player for p in players]
    unmet = {p.player: set(ids) - set(p.opponents) - {p.player} for p in players}
    return ids, unmet, {p.player for p in players if p.byes}


def _byes_and_rounds(
    players: Sequence[int], unmet: Mapping[int, set[int]], byes: set[int]
) -> Iterator[tuple[int | None, list[Pair]]]:
    """Every round the field allows: (the bye or None, the pairs), the bye from the last."""
    if len(players) % 2 == 0:
        for pairs in _matchings(players, unmet):
            yield None, pairs
        return
    for bye in reversed(players):
        if bye not in byes:
            rest = [p for p in players if p != bye]
            for pairs in _matchings(rest, unmet):
                yield bye, pairs


def rounds_pairable(players: Sequence[PlayerHistory], rounds: int) -> bool:
    """Whether ``rounds`` more rounds can all be paired with no rematch and no second bye.

    Settled at once when every player still has at least ``n / 2 + rounds`` possible
    opponents (Dirac's theorem: a graph whose every vertex meets half the others has a
    Hamiltonian cycle, so a perfect matching, and each round takes one opponent from each);
    else by a depth-first search over the rounds, which gives up (answering True) after
    :data:`SEARCH_BUDGET` rounds looked at."""
    try:
        return _pairable(*_field(players), rounds, _Budget())
    except _OutOfBudget:
        return True


def _pairable(
    ids: list[int], unmet: dict[int, set[int]], byes: set[int], rounds: int, budget: _Budget
) -> bool:
    if rounds <= 0:
        return True
    if len(ids) % 2 and len(ids) - len(byes) < rounds:
        return False  # not enough players left who have not had a bye
    if min(len(unmet[p]) for p in ids) - rounds >= len(ids) / 2:
        return True
    for bye, pairs in _byes_and_rounds(ids, unmet, byes):
        budget.spend()
        for a, b in pairs:
            unmet[a].discard(b)
            unmet[b].discard(a)
        if bye is not None:
            byes.add(bye)
        found = _pairable(ids, unmet, byes, rounds - 1, budget)
        for a, b in pairs:
            unmet[a].add(b)
            unmet[b].add(a)
        if bye is not None:
            byes.discard(bye)
        if found:
            return True
    return False


def _after(players: Sequence[PlayerHistory], round_: Sequence[Pairing]) -> list[PlayerHistory]:
    """The players' histories as they will be once ``round_`` is played (scores aside)."""
    met: dict[int, tuple[int | None, int | None]] = {}  # player: (opponent, colour)
    for white, black in round_:
        met[white] = (black, 0 if black is not None else None)
        if black is not None:
            met[black] = (white, 1)
    after = []
    for p in players:
        opponent, colour = met.get(p.player, (None, None))
        after.append(
            PlayerHistory(
                p.player,
                opponents=[*p.opponents, *([opponent] if opponent is not None else [])],
                colours=[*p.colours, *([colour] if colour is not None else [])],
                byes=p.byes + (p.player in met and opponent is None),
            )
        )
    return after


# --- balanced colours to the end ---------------------------------------------------------------


def _balanced(players: Sequence[PlayerHistory]) -> bool:
    return all(abs(p.colour_difference) <= 1 for p in players)


def _balanced_field(
    players: Sequence[PlayerHistory],
) -> tuple[list[int], dict[int, set[int]], set[int], dict[int, int]]:
    """As :func:`_field`, each player's possible opponents only those a game with keeps both
    colour differences within ±1 (not two players who both have one White more, or one Black
    more), and the colour differences."""
    ids, unmet, byes = _field(players)
    diffs = {p.player: p.colour_difference for p in players}
    fitting = {a: {b for b in unmet[a] if not diffs[a] == diffs[b] != 0} for a in ids}
    return ids, fitting, byes, diffs


def _colourings(pairs: Sequence[Pair], diffs: Mapping[int, int]) -> Iterator[list[Pair]]:
    """Each way to give the ``pairs`` colours (White first) that keeps every colour difference
    within ±1: forced where a player has one colour more, either way between two even ones."""
    if not pairs:
        yield []
        return
    (a, b), rest = pairs[0], pairs[1:]
    for white, black in ((a, b), (b, a)):
        if diffs[white] <= 0 <= diffs[black]:
            for more in _colourings(rest, diffs):
                yield [(white, black), *more]


def _balanced_to_the_end(
    ids: list[int],
    fitting: dict[int, set[int]],
    byes: set[int],
    diffs: dict[int, int],
    rounds: int,
    budget: _Budget,
) -> bool:
    """Whether ``rounds`` more rounds exist with no rematch, no second bye and every colour
    difference within ±1 after each (so nobody has one colour three times running)."""
    if rounds <= 0:
        return True
    if len(ids) % 2 and len(ids) - len(byes) < rounds:
        return False
    for bye, pairs in _byes_and_rounds(ids, fitting, byes):
        for coloured in _colourings(pairs, diffs):
            budget.spend()
            if _balanced_after(ids, fitting, byes, diffs, bye, coloured, rounds - 1, budget):
                return True
    return False


def _balanced_after(
    ids: list[int],
    fitting: dict[int, set[int]],
    byes: set[int],
    diffs: dict[int, int],
    bye: int | None,
    coloured: list[Pair],
    rounds: int,
    budget: _Budget,
) -> bool:
    """:func:`_balanced_to_the_end` once the round (``bye``, ``coloured``) is played."""
    after = dict(diffs)
    for white, black in coloured:
        after[white] += 1
        after[black] -= 1
    met = {frozenset(pair) for pair in coloured}
    fits = {
        a: {b for b in fitting[a] if frozenset((a, b)) not in met and not after[a] == after[b] != 0}
        for a in ids
    }
    return _balanced_to_the_end(
        ids, fits, byes | ({bye} if bye is not None else set()), after, rounds, budget
    )


def _balanced_round(
    players: list[PlayerHistory], later: int, budget: _Budget
) -> list[Pairing] | None:
    """The best round, with colours, after which ``later`` more rounds keep every colour
    difference within ±1 (None if there is none): the candidates in the order of
    :func:`_completing_round`, each first with the colours the weights give it."""
    ids, fitting, byes, diffs = _balanced_field(players)
    rank = {player: i for i, player in enumerate(ids)}
    for bye, pairs in _candidate_rounds(players, ids, fitting, byes):
        preferred = _swiss_round(players, bye=bye, only={frozenset(pair) for pair in pairs})
        games = [(w, b) for w, b in preferred if b is not None]
        others = [c for c in _colourings(pairs, diffs) if set(c) != set(games)]
        for coloured in [games, *others]:
            budget.spend()
            if not all(diffs[w] <= 0 <= diffs[b] for w, b in coloured):
                continue
            if _balanced_after(ids, fitting, byes, diffs, bye, coloured, later, budget):
                if coloured is games:
                    return preferred
                boards = sorted(coloured, key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
                return [*boards, *([(bye, None)] if bye is not None else [])]
    return None


def swiss_pairings(ranked: Sequence[PlayerHistory], rounds_left: int = 0) -> list[Pairing]:
    """The next Swiss round for players listed best first (the caller's ranking: score, then
    tie-breaks, then seed), such that the ``rounds_left`` rounds after it can still be paired
    (fewer, the most the field allows, when a withdrawal has made that impossible). Raises
    ``ValueError`` when no round without a rematch exists."""
    players = list(ranked)
    if len({p.player for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    best = _swiss_round(players)
    if rounds_left > 0 and len(players) <= BALANCED_LOOK_AHEAD and _balanced(players):
        budget = _Budget()
        try:
            after = _after(players, best)
            if _balanced(after) and _balanced_to_the_end(
                *_balanced_field(after), rounds_left, budget
            ):
                return best
            balanced = _balanced_round(players, rounds_left, budget)
            if balanced is not None:
                return balanced
        except _OutOfBudget:
            pass  # then at least no dead end, below
    budget = _Budget()
    try:
        for later in range(rounds_left, 0, -1):
            if _pairable(*_field(_after(players, best)), later, budget):
                return best
            if _pairable(*_field(players), later + 1, budget):
                return _completing_round(players, later, budget)
    except _OutOfBudget:
        pass  # a field too large to search is one where the best round rarely dead-ends
    return best


def _completing_round(players: list[PlayerHistory], later: int, budget: _Budget) -> list[Pairing]:
    """The best round after which ``later`` more rounds can be paired (one is known to exist):
    the candidate rounds with the bye lowest in the ranking first, then by the weights."""
    ids, unmet, byes = _field(players)
    for bye, pairs in _candidate_rounds(players, ids, unmet, byes):
        round_: list[Pairing] = [*pairs, *([(bye, None)] if bye is not None else [])]
        if _pairable(*_field(_after(players, round_)), later, budget):
            return _swiss_round(players, bye=bye, only={frozenset(pair) for pair in pairs})
    raise AssertionError("_pairable promised a round")


def _candidate_rounds(
    players: Sequence[PlayerHistory],
    ids: list[int],
    allowed: Mapping[int, set[int]],
    byes: set[int],
) -> list[tuple[int | None, list[Pair]]]:
    """Every round of ``allowed`` pairs (at most :data:`CANDIDATE_LIMIT`), the bye lowest in the
    ranking first, then by the pairing weights, heaviest first."""
    weights = _weights(players)
    bye_order = {player: i for i, player in enumerate(reversed(ids))}
    candidates: list[tuple[int, int, int | None, list[Pair]]] = []
    for bye, pairs in _byes_and_rounds(ids, allowed, byes):
        if len(candidates) == CANDIDATE_LIMIT:
            raise _OutOfBudget
        weight: int = sum(weights[frozenset(pair)] for pair in pairs)
        candidates.append((bye_order[bye] if bye is not None else 0, -weight, bye, pairs))
    candidates.sort(key=lambda c: (c[0], c[1]))
    return [(bye, pairs) for _, _, bye, pairs in candidates]


def _weights(players: Sequence[PlayerHistory]) -> dict[frozenset[int], int]:
    """Each pair that may meet and its weight, as the matching of the whole field sees it."""
    graph = _graph(players)
    return {frozenset((u, v)): data["weight"] for u, v, data in graph.edges(data=True)}


def _swiss_round(
    ranked: Sequence[PlayerHistory],
    bye: int | None = None,
    only: set[frozenset[int]] | None = None,
) -> list[Pairing]:
    """The best round by the weights (the ``bye`` and the pairs ``only`` given: those)."""
    players = list(ranked)
    pairs: list[Pairing] = []
    if bye is not None:
        pairs.append((bye, None))
        players = [p for p in players if p.player != bye]
    elif len(players) % 2:
        for candidate in reversed(players):
            rest = [p for p in players if p is not candidate]
            if candidate.byes == 0 and _can_pair_all(rest):
                pairs.append((candidate.player, None))
                players = rest
                break
        else:
            raise ValueError("every player has had a bye, or no bye leaves a pairing")
    rank = {p.player: i for i, p in enumerate(players)}
    n = len(players)
    by_id = {p.player: p for p in players}
    graph = _graph(players)
    if only is not None:
        graph = graph.edge_subgraph(tuple(pair) for pair in only)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != n:
        raise ValueError("no round pairs everyone without a rematch")
    boards: list[tuple[int, tuple[int, int]]] = []
    for u, v in matching:
        a, b = (by_id[u], by_id[v]) if rank[u] < rank[v] else (by_id[v], by_id[u])
        _, white_player, black_player = _colours(a, b)
        boards.append((min(rank[u], rank[v]), (white_player.player, black_player.player)))
    boards.sort()
    ordered: list[Pairing] = []
    for board, (_, (white, black)) in enumerate(boards):
        fresh = not by_id[white].colours and not by_id[black].colours
        # nobody has a colour yet (round 1): White alternates board by board, top board first
        ordered.append(
            (black, white)
            if fresh and board % 2 and white == min((white, black), key=rank.__getitem__)
            else (white, black)
        )
    return ordered + pairs


def _graph(players: Sequence[PlayerHistory]) -> nx.Graph:
    """Every pair of ``players`` (ranked best first) that may meet, weighted as the module's
    docstring orders the Swiss's rules."""
    rank = {p.player: i for i, p in enumerate(players)}
    groups: dict[float, list[int]] = {}
    for p in players:
        groups.setdefault(p.score, []).append(rank[p.player])
    # Weights in strictly separated bands: straying from the colour rules costs more than any
    # score difference, a score difference more than any ordering inside a group.
    n = len(players)
    order_band = (n + 1) ** 2
    score_band = order_band * (4 * n * n + 1)
    clash_cost = score_band * (4 * n * n + 1) * (n + 1)
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if b.player in a.opponents:
                continue  # no rematch: FIDE C.04.1 (b)
            half_points = round(abs(a.score - b.score) * 2)
            group = groups[a.score] if a.score == b.score else []
            ideal = len(group) // 2
            order_cost = (abs(rank[b.player] - rank[a.player]) - ideal) ** 2 if group else 0
            cost = (
                clash_cost * _colours(a, b)[0] + score_band * half_points * half_points + order_cost
            )
            graph.add_edge(a.player, b.player, weight=clash_cost * 8 - cost)
    return graph


def arena_pairings(
    waiting: Iterable[int],
    ranking: Sequence[int],
    last_opponent: Mapping[int, int],
    colours: Mapping[int, Sequence[int]],
) -> list[tuple[int, int]]:
    """Pair the ``waiting`` players (an arena): each with a waiting player nearest in
    ``ranking`` (best first) who is not their last opponent; a player left over waits for the
    next pairing. ``colours``: each player's colours so far (0 White, 1 Black)."""
    position = {player: i for i, player in enumerate(ranking)}
    ready = sorted(set(waiting), key=lambda p: position.get(p, len(position)))
    graph = nx.Graph()
    span = len(ranking) + len(ready) + 1
    for i, a in enumerate(ready):
        for b in ready[i + 1 :]:
            if last_opponent.get(a) == b or last_opponent.get(b) == a:
                continue
            distance = position.get(b, span) - position.get(a, span)
            graph.add_edge(a, b, weight=span * span - distance * distance)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    for u, v in matching:
        a, b = (u, v) if ready.index(u) < ready.index(v) else (v, u)
        history_a = PlayerHistory(a, colours=list(colours.get(a, ())))
        history_b = PlayerHistory(b, colours=list(colours.get(b, ())))
        white, black = _coloured(history_a, history_b, True)
        assert black is not None
        pairs.append((ready.index(a), (white, black)))
    pairs.sort()
    return [pair for _, pair in pairs]
