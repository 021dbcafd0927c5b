"""How the tests' human loses quickly: crowd your own queen so the AI can surround it."""

from __future__ import annotations

from typing import Any

DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def positions(state: dict[str, Any]) -> dict[str, tuple[int, int]]:
    where: dict[str, tuple[int, int]] = {}
    for entry in state["history"]:
        if entry["piece"]:
            where[entry["piece"]] = tuple(entry["to"])  # type: ignore[assignment]
            if entry.get("carry"):
                pass  # the carried piece's new place is not needed for this strategy
    return where


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def choose_losing_move(state: dict[str, Any]) -> dict[str, Any]:
    """Place the queen at once, then move pieces next to it (never away from it)."""
    legal = state["legal"]
    me = state["turn"]
    queen = "wQ" if me == 0 else "bQ"
    where = positions(state)
    if queen not in where:
        for move in legal:
            if move["piece"] == queen:
                return move
    if legal[0]["piece"] is None:
        return legal[0]
    target = where[queen]

    def score(move: dict[str, Any]) -> tuple[int, int, str]:
        to = tuple(move["to"])
        piece = move["piece"]
        gain = 0
        if piece in where and piece != queen:
            gain = distance(where[piece], target) - distance(to, target)
        near = 0 if distance(to, target) == 1 else 1
        moving_queen = 1 if piece == queen else 0
        return (moving_queen, near, -gain, move["move"])

    return min(legal, key=score)
