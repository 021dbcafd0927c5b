"""What the search and the evaluation compute, pinned: work that only makes them faster
(issue 24) must leave every count, score, move and node count as it was.

The values were taken from main at 3294127, before the speed work of branch ``evalspeed``. A
change that means to search or evaluate differently (new terms, new pruning, a new draw rule)
changes them on purpose: regenerate them from the repository root with
``PYTHONPATH=. python tests/ai/test_search_pinned.py`` (it imports ``tests.ai``) and say so in
the commit, since a search that differs is a different engine (new strength matches).
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from panal.ai import Searcher
from panal.ai.evaluation import evaluate, feature_counts
from panal.hive import Game
from tests.ai.test_evaluation_progress import SURROUND_IN_TWO

# (game type, seed): a seeded random game of 200 plies, every position's feature counts.
RANDOM_GAMES = (("Base", 1), ("Base+MLP", 2), ("Base+MLPD", 3), ("Base+MLP", 4))
# (game type, seed, plies): a search of NODES nodes after that many seeded random plies.
SEARCHES = (("Base+MLP", 5, 24), ("Base+MLP", 6, 40), ("Base", 7, 30), ("Base+MLPD", 8, 36))
NODES = 1500

# Digests of the feature counts and scores along each game of RANDOM_GAMES, then along the
# endgame of SURROUND_IN_TWO (a side that can only pass: the hand-set terms and ring_reach).
FEATURE_DIGESTS = [
    "5e849a138fe1fc23",
    "8c5073443761f0a6",
    "518cc2ae11f5af67",
    "b1d379e0beabaefa",
    "d357a71b0e7ec935",
]
# Per search of SEARCHES, then one of the endgame (White to pass, Black to fill the ring):
# move code, score, depth completed, nodes, principal variation.
SEARCH_RESULTS = [
    [8587313219, -37, 2, 1501, [8587313219]],
    [8593604426, 85, 2, 1501, [8593604426]],
    [8591507588, -63, 4, 1501, [8591507588, 8584167569, 8592555904, 8588361748]],
    [8586264581, 11, 2, 1501, [8586264581]],
    [8588361944, 873, 2, 1501, [8588361944]],
]


def _random_game(game_type: str, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game(game_type)
    for _ in range(plies):
        if game.is_over():
            break
        game.push_code(rng.choice(sorted(game.legal_move_codes())))
    return game


def _endgame() -> list[Game]:
    """The positions of SURROUND_IN_TWO from White's first pass (ply 176) on."""
    game = Game("Base", tournament_opening=True, repetition_draw=False)
    positions = []
    for move in SURROUND_IN_TWO.split(";"):
        game.push(move)
        if game.ply >= 176:
            positions.append(game.copy())
    return positions


def _digest(positions: list[Game]) -> str:
    digest = hashlib.sha256()
    for game in positions:
        white, black = feature_counts(game)
        digest.update(json.dumps([white, black, evaluate(game)]).encode())
    return digest.hexdigest()[:16]


def _random_positions(game_type: str, seed: int) -> list[Game]:
    rng = random.Random(seed)
    game = Game(game_type)
    positions = []
    while not game.is_over() and game.ply < 200:
        positions.append(game.copy())
        game.push_code(rng.choice(sorted(game.legal_move_codes())))
    return positions


def feature_digests() -> list[str]:
    games = [_random_positions(game_type, seed) for game_type, seed in RANDOM_GAMES]
    return [_digest(positions) for positions in [*games, _endgame()]]


def searched_position(index: int) -> Game:
    """The position of SEARCH_RESULTS[index]."""
    if index < len(SEARCHES):
        return _random_game(*SEARCHES[index])
    return _endgame()[1]  # White has passed: Black to move


def search_result(index: int) -> list[object]:
    result = Searcher().search(searched_position(index), node_limit=NODES)
    return [result.code, result.score, result.depth, result.nodes, result.pv]


def test_the_feature_counts_are_as_pinned() -> None:
    assert feature_digests() == FEATURE_DIGESTS


@pytest.mark.parametrize("index", range(len(SEARCH_RESULTS)))
def test_a_search_bounded_by_nodes_finds_what_it_found(index: int) -> None:
    assert search_result(index) == SEARCH_RESULTS[index]


if __name__ == "__main__":
    searches = [search_result(index) for index in range(len(SEARCH_RESULTS))]
    print(json.dumps({"features": feature_digests(), "searches": searches}))
