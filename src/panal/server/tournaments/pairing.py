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
* **Arena** (as lichess runs them): players waiting for a game are paired with the waiting
  player nearest in rank who is not the last opponent they played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

__all__ = [
    "Pairing",
    "PlayerHistory",
    "arena_pairings",
    "berger_round",
    "round_robin",
    "round_robin_rounds",
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


def swiss_pairings(ranked: Sequence[PlayerHistory]) -> list[Pairing]:
    """The next Swiss round for players listed best first (the caller's ranking: score, then
    tie-breaks, then seed). Raises ``ValueError`` when no round without a rematch exists."""
    players = list(ranked)
    if len({p.player for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    pairs: list[Pairing] = []
    if len(players) % 2:
        for candidate in reversed(players):
            rest = [p for p in players if p is not candidate]
            if candidate.byes == 0 and _can_pair_all(rest):
                pairs.append((candidate.player, None))
                players = rest
                break
        else:
            raise ValueError("every player has had a bye, or no bye leaves a pairing")
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
    by_id = {p.player: p for p in players}
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
