"""benchmarks/ai_blunders.py's decisive positions and their summary (no engine needed)."""

from __future__ import annotations

from typing import Any

from tests.ai.ladder import load_benchmark

blunders = load_benchmark("ai_blunders")


def _judged(game: int, ply: int, proven: int | None) -> Any:
    return blunders.JudgedMove(
        game=game,
        ply=ply,
        move="wQ",
        best="wQ",
        best_line=[],
        depth=4,
        score_best=0,
        score_played=0,
        chance_best=0.5,
        chance_played=0.5,
        loss=0.0,
        proven_loss_after=proven,
        own_queen_neighbours=4,
        enemy_queen_neighbours=3,
        legal_moves=20,
    )


def test_the_decisive_move_is_nokamutes_else_the_judges_first_proven_loss() -> None:
    records = [{"game": number} for number in (1, 2, 3)]
    opinions = [  # game 1: nokamute's value falls below -300 after ply 19 (listed unordered)
        {"game": 1, "ply": 21, "value": -100_000},
        {"game": 1, "ply": 17, "value": -150},
        {"game": 1, "ply": 19, "value": -400},
    ]
    rows = [_judged(1, 15, 2), _judged(2, 31, None), _judged(2, 33, 3), _judged(2, 35, 2)]
    found = blunders.decisive_positions(records, rows, opinions)
    assert [(record["game"], ply) for record, ply in found] == [(1, 19), (2, 33)]


def test_the_summary_counts_the_choices_nokamute_refutes() -> None:
    def row(ply: int, chosen: str, score: int, value: int) -> dict[str, Any]:
        return {
            "game": 7,
            "ply": ply,
            "decisive": 40,
            "played": "wA1 -bQ",
            "nodes": 1000,
            "chosen": chosen,
            "score": score,
            "depth": 4,
            "engine_value": value,
        }

    rows = [row(40, "wA1 -bQ", 12, -100_000), row(38, "wG1 bQ-", -50, -200)]
    summary = blunders.decisive_summary(rows, savable={(7, 40)})
    lines = summary.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("1000 nodes, decisive moves (1): the game's move chosen again 1;")
    assert "nokamute proves a win 1, values it lost (<= -300) 1, mean value -1000" in lines[0]
    assert "where nokamute values it lost 1" in lines[0]  # scored 12 by panal
    assert lines[1].startswith("1000 nodes, decisive moves where one holds (1)")
    assert "moves before them (1): the game's move chosen again 0;" in lines[2]
    assert "proves a win 0, values it lost (<= -300) 0, mean value -200" in lines[2]
