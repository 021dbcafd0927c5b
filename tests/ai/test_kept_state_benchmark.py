"""benchmarks/ai_kept_state.py gives each search a copy of exactly one part of the kept state."""

from __future__ import annotations

from panal.ai.search import Searcher
from panal.hive import Game
from tests.ai.ladder import load_benchmark
from tests.ai.test_search_contempt import LOOP


def test_each_part_is_copied_alone_and_the_kept_state_is_not_shared() -> None:
    module = load_benchmark("ai_kept_state")
    kept = Searcher()
    kept.search(Game.from_game_string(LOOP), depth=3, node_limit=20_000)
    assert kept.table and kept.history and kept.scores
    copies = {part: module.part_of(kept, part) for part in module.PARTS}
    for part, searcher in copies.items():
        assert (searcher.table == kept.table) is (part in ("all", "table"))
        assert (searcher.history == kept.history) is (part in ("all", "history"))
        assert (searcher.scores == kept.scores) is (part in ("all", "scores"))
        assert (searcher.killers == kept.killers) is (part in ("all", "killers"))
    copies["all"].table.clear()
    assert kept.table
