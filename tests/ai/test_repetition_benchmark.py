"""benchmarks/ai_repetition.py finds where a game drawn by repetition began to go round."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from panal.hive import Game
from panal.puzzles import load_puzzles
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


def test_the_limit_draws_report_proves_a_surround_panal_could_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--limit-draws --prove K``: at panal's last turn, the fewest own moves that force the
    surround (shipped puzzles' positions as the games' ends: surrounds in one and in two), or
    how far the proof got within its node limit."""
    load_ladder()
    module = load_benchmark("ai_repetition")
    puzzles = {
        moves: next(
            p
            for p in load_puzzles()
            # limit_draws replays a game with no rule option but repetition_draw=False
            if p.kind == "surround" and p.moves == moves and set(p.options) <= {"repetition_draw"}
        )
        for moves in (1, 2)
    }
    records = [
        {
            "game": moves,
            "reason": "adjudicated draw after 300 plies",
            "player_white": puzzle.position.split(";")[2].startswith("White"),
            "game_string": puzzle.position,
        }
        for moves, puzzle in puzzles.items()
    ]
    (tmp_path / "games.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    module.limit_draws([tmp_path], prove=3)
    found = capsys.readouterr().out.splitlines()
    assert found[0].endswith("surround forced in 1"), found
    assert found[1].endswith("surround forced in 2"), found
    module.limit_draws([tmp_path], prove=3, prove_nodes=1)
    cut_short = capsys.readouterr().out.splitlines()[1]
    assert cut_short.endswith("none forced within 1, 2 undecided after 1 positions"), cut_short
    module.limit_draws([tmp_path], prove=1, first_pass=True)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(line.endswith("; the opponent never passed") for line in lines)
