"""An Enjambre series: every player at one table each round, the seats rotated, ranked by
pairwise results over the rounds (docs/web.md, "Enjambre tournaments").

Enjambre Tácticas is played by 2 to 6 at one table, so a series is for 2 to 6 players: each
round is one table of every active player, one game, the seat order turned by one each round
(seat 0 moves first, so the first move goes round). A table's places become pairwise results,
each pair of players at the table one "game": the better place scores 1, an equal place ½; the
plain standings and their tie-breaks then apply unchanged (a player's score is the number of
players they finished above, ties half).
"""

from __future__ import annotations

from itertools import combinations

from panal.server.tournaments.standings import GameResult
from panal.server.tournaments.tournament_store import Snapshot

__all__ = ["MAX_SERIES_PLAYERS", "seating", "series_results"]

MAX_SERIES_PLAYERS = 6  # one table: Enjambre's 2 to 6 players


def seating(players: list[int], number: int) -> list[int]:
    """Round ``number``'s seat order: the players (by seed) turned by one seat a round."""
    turn = (number - 1) % len(players)
    return players[turn:] + players[:turn]


def series_results(snapshot: Snapshot) -> list[GameResult]:
    """Each finished table's places as pairwise results (better place 1, equal ½)."""
    found = []
    for number in sorted({p.round for p in snapshot.pairings}):
        tables = {p.table_id for p in snapshot.pairings if p.round == number and p.table_id}
        for table_id in sorted(tables):
            places = snapshot.places.get(table_id)
            if places is None:
                continue  # still playing
            seated = [
                p.player
                for p in snapshot.pairings
                if p.round == number and p.table_id == table_id and p.counted
            ]
            for first, second in combinations(seated, 2):
                a, b = places[first], places[second]
                points = 1.0 if a < b else 0.5 if a == b else 0.0
                found.append(GameResult(number, first, second, points))
    return found
