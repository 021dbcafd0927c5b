"""benchmarks/ai_repetition.py finds where a game drawn by repetition began to go round."""

from __future__ import annotations

import json
from pathlib import Path

from panal.hive import Game
from tests.ai.ladder import load_benchmark, load_ladder
from tests.ai.test_search_contempt import DRAWING_MOVE, LOOP


def test_the_loop_starts_at_the_first_occurrence_of_the_repeated_position(
    tmp_path: Path,
) -> None:
    load_ladder()  # ai_repetition imports it by name, as when run from benchmarks/
    module = load_benchmark("ai_repetition")

    drawn = Game.from_game_string(LOOP)
    drawn.push(DRAWING_MOVE)
    moves = drawn.move_strings()
    records = [
        {"game": 7, "reason": "draw by repetition", "player_white": False},
        {"game": 8, "reason": "queen surrounded", "player_white": True},
    ]
    lines = [json.dumps(r | {"game_string": drawn.game_string()}) for r in records]
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    [(name, game_type, before, panal_white, loop)] = module.repetition_starts([tmp_path])
    # The position after the fourth move (White to move) came back after plies 8 and 12.
    assert name == f"{tmp_path.name}:7@4"
    assert game_type == "Base" and panal_white is False
    assert before == moves[:4] and loop == moves[4:] and len(loop) == 8
