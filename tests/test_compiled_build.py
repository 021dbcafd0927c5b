"""The compiled build (mypyc; docs/library.md, "Compiled build") plays exactly as the pure
source does.

On the compiled build this runs a fingerprint of the rules and the AI (perft counts, every legal
move and its move key along seeded random games, searches bounded by nodes with a seeded noise)
in this process and again in a subprocess on a pure copy of the same package, and compares the
two. On the pure build it is skipped: there is nothing to compare.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

import panal
from panal.ai import Searcher
from panal.hive import Game
from panal.hive.move_keys import MoveKeys

PERFTS = (("Base", 4), ("Base+MLP", 3), ("Base+MLPD", 3))
RANDOM_GAMES = (("Base+MLP", 1), ("Base+MLPD", 2), ("Base", 3))
SEARCHES = (("Base+MLP", 11, 30), ("Base+MLP", 12, 44), ("Base", 13, 26))
NODES = 3000
KEYS = MoveKeys([p * 448 for p in range(32)], [p * 14 for p in range(32)], 7)


def fingerprint() -> dict[str, Any]:
    """What the build computes, as JSON: perfts, legal moves, bounded searches."""
    perfts = [Game(kind, tournament_opening=True).perft(depth) for kind, depth in PERFTS]
    games = []
    for kind, seed in RANDOM_GAMES:
        rng = random.Random(seed)
        game = Game(kind)
        tracker = KEYS.tracker(game)  # the action keys of panal.env, kept move to move
        moves = []
        keys = []
        while not game.is_over() and game.ply < 150:
            codes = sorted(game.legal_move_codes())
            moves.append(codes)
            keys.append([[key, code] for key, code in sorted(tracker.legal().items())])
            tracker.push(rng.choice(codes))
        games.append([moves, keys, game.hash, game.state.value])
    searches = []
    for kind, seed, plies in SEARCHES:
        rng = random.Random(seed)
        game = Game(kind)
        for _ in range(plies):
            if game.is_over():
                break
            game.push_code(rng.choice(sorted(game.legal_move_codes())))
        if game.is_over():
            continue
        result = Searcher().search(game, node_limit=NODES, noise=20, rng=random.Random(seed))
        searches.append([result.code, result.score, result.depth, result.nodes, result.pv])
    return {"compiled": panal.compiled(), "perfts": perfts, "games": games, "searches": searches}


def pure_fingerprint() -> dict[str, Any]:
    """``fingerprint()`` in a subprocess importing a copy of the package's ``.py`` files only."""
    package = Path(panal.__file__).resolve().parent
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    with tempfile.TemporaryDirectory(prefix="panal-pure-") as folder:
        shutil.copytree(
            package,
            Path(folder) / "panal",
            ignore=lambda _, names: [n for n in names if n.endswith(suffixes)],
        )
        done = subprocess.run(
            [sys.executable, __file__],
            env=dict(os.environ, PYTHONPATH=folder),
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(not panal.compiled(), reason="the pure build: no compiled build to compare")
def test_compiled_build_plays_as_the_pure_source() -> None:
    compiled = fingerprint()
    pure = pure_fingerprint()
    assert compiled["compiled"] and not pure["compiled"]
    assert len(compiled["searches"]) == len(SEARCHES)
    for key in ("perfts", "games", "searches"):
        assert compiled[key] == pure[key], key


def test_fingerprint_covers_what_it_compares() -> None:
    """The fingerprint is not vacuous: known perft counts, long games, real searches."""
    assert Game("Base", tournament_opening=True).perft(4) == 21600  # nokamute's perft table
    result = fingerprint()
    assert result["perfts"][0] == 21600
    assert all(len(moves) > 10 for moves, _, _, _ in result["games"])
    assert all(len(keys) == len(moves) for moves, keys, _, _ in result["games"])
    assert all(nodes >= NODES for _, _, _, nodes, _ in result["searches"])


if __name__ == "__main__":
    print(json.dumps(fingerprint()))
