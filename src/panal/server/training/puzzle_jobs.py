"""The trainer's solver work, computed in the runtime's heavy pool (a worker process of
``panal serve``'s, :meth:`panal.server.runtime.runtime.Runtime.heavy_job`), never on the web
process's event loop or its threads: judging a move (a wrong one is refuted by the solver, up
to seconds of search), a hint, the rest of the solution.

The payload is plain JSON: ``{"ask": "move" | "hint" | "solution", "puzzle", "played",
"move"?}``. The result is ``{"answer": ...}``, or ``{"refused": ...}`` for a request the rules or
the puzzle refuse (an illegal move, a ``played`` that is not the puzzle's line): the refusal's
:class:`~panal.server.http.request_error.RequestError`, to raise again in the web process
(:func:`refusal_error`), so the page says it by its code and rule as before.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from panal.puzzles import load_puzzles
from panal.server.http.request_error import RequestError
from panal.server.runtime.jobs import JobInputError
from panal.server.training import puzzle_play
from panal.server.training.puzzle_play import PuzzleBook

__all__ = ["PUZZLE_JOB", "puzzle_answer", "refusal_error", "shipped_book"]

PUZZLE_JOB = "training.puzzle"  # its kind in runtime.jobs.JOB_KINDS


@cache
def shipped_book() -> PuzzleBook:
    """The shipped puzzles, loaded once per process (about a second and a half)."""
    return PuzzleBook(load_puzzles())


def puzzle_answer(payload: dict[str, Any]) -> dict[str, Any]:
    """Compute the answer to one trainer request (see the module docstring)."""
    try:
        ask, played = payload["ask"], list(payload["played"])
        puzzle = shipped_book().get(str(payload["puzzle"]))
        if ask == "move":
            return {"answer": puzzle_play.judge(puzzle, played, dict(payload["move"]))}
        if ask == "hint":
            return {"answer": puzzle_play.hint(puzzle, played)}
        if ask == "solution":
            return {"answer": puzzle_play.solution(puzzle, played)}
    except RequestError as exc:
        return {"refused": {**exc.to_json(), "status": exc.status}}
    except (KeyError, TypeError) as exc:
        raise JobInputError(f"not a trainer request: {exc!r}") from None
    raise JobInputError(f"unknown trainer request {ask!r}")


def refusal_error(refused: dict[str, Any]) -> RequestError:
    """The web process's :class:`RequestError` for a refusal computed in the worker."""
    return RequestError(
        refused["code"],
        refused["message"],
        int(refused["status"]),
        rule=refused.get("rule"),
        reason=refused.get("reason"),
        details=refused.get("details"),
    )
