"""The analysis board's jobs, computed in a worker process (``panal serve``'s or
``panal ai-worker``'s, on any machine): the best lines of a position, and a whole game's review.

Their payloads are plain JSON (a position as :mod:`panal.server.analysis.positions` reads it), so
they can wait in Redis for a worker elsewhere. Both report progress while they run
(:func:`panal.server.runtime.jobs.report_progress`): the lines at each depth the search
completes, the plies of a game reviewed so far.
"""

from __future__ import annotations

from typing import Any

from panal.server.analysis.positions import read_position
from panal.server.http.request_error import RequestError
from panal.server.runtime.jobs import JobInputError, report_progress

__all__ = ["analyse_position", "review_game"]


def _position(payload: dict[str, Any]) -> Any:
    try:
        return read_position(payload["position"])
    except (RequestError, KeyError, TypeError) as exc:
        raise JobInputError(f"not a position: {exc}") from None


def analyse_position(payload: dict[str, Any]) -> dict[str, Any]:
    """``{"position", "nodes", "lines"}`` → the library's ``Analysis.to_json()``; each depth
    completed on the way is reported as it comes."""
    from panal.ai import analyse

    position = _position(payload)

    def deeper(partial: Any) -> None:
        report_progress(partial.to_json())

    result = analyse(
        position.game,
        lines=int(payload.get("lines", 3)),
        nodes=int(payload["nodes"]),
        seed=0,
        on_progress=deeper,
    )
    return dict(result.to_json())


def review_game(payload: dict[str, Any]) -> dict[str, Any]:
    """``{"position", "nodes_per_ply"}`` (the game's moves) → the library's
    ``Review.to_json()``; the plies reviewed so far are reported as they are."""
    from panal.ai import review

    position = _position(payload)

    def step(done: int, total: int) -> None:
        report_progress({"done": done, "total": total})

    result = review(position.game, nodes_per_ply=int(payload["nodes_per_ply"]), on_progress=step)
    return dict(result.to_json())
