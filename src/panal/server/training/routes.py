"""HTTP API and pages of the trainer: puzzles and the tutorial's lessons.

Puzzles (``panal.puzzles``' shipped set; :mod:`.puzzle_play` says how each is chosen and judged):

* ``GET /api/puzzles`` → ``{"count", "themes": {theme: count}, "daily", "rating", "tried",
  "solved"}`` (``rating`` the signed-in player's puzzle rating as shown, else null);
* ``GET /api/puzzles/next?theme=&rating=`` → a puzzle near the player's rating (a guest sends
  the ``rating`` its browser keeps), not tried yet by a signed-in player;
* ``GET /api/puzzles/daily`` → the puzzle of the day (UTC); ``GET /api/puzzles/streak?seed=&index=``
  → the ``index``-th puzzle of a streak; ``GET /api/puzzles/{id}`` → that puzzle;
* ``POST /api/puzzles/{id}/move`` ``{"played": [...], "move"}`` (or ``"piece"``, ``"to"``,
  ``"carry"``) → ``{"move", "correct", "solved", "reply"?, "refutation"?, "why"?, "board"}``;
  an illegal move is refused like a game's (409 ``illegal_move`` with the rule);
* ``POST /api/puzzles/{id}/hint`` and ``/solution`` ``{"played"}`` → ``{"piece"}``, ``{"steps"}``.

A move, a hint and a solution are computed by the solver in the runtime's heavy pool
(:mod:`.puzzle_jobs`), one request of a client's at a time: a client's second while its first is
at work is refused (429 ``too_many_puzzle_answers``), a full pool answers 503 ``busy``.

With ``"rated": true`` the first result of a signed-in player's first try at a puzzle changes
both ratings (Glicko-2, :mod:`.training_store`): a wrong move, a hint or the solution is a miss,
solving it a win; the answer carries ``"rating"``. A guest sends ``"guest": {"rating",
"deviation", "volatility"}``, the rating its browser keeps, and gets the new one back
(``"guest_rating"``); nothing is stored and the puzzle's rating does not move.

Lessons: ``GET /api/lessons?language=`` → ``{"lessons": [...], "done": [...] | null}``;
``GET /api/lessons/{id}?language=`` → the lesson; ``POST /api/lessons/{id}/move`` → ``{"move",
"asked", "board"?}`` (409 ``illegal_move`` naming the rule); ``POST /api/lessons/done``
``{"lessons": [ids]}`` records a signed-in player's completed lessons (a guest's, kept in its
browser, are sent once it signs in).
"""

from __future__ import annotations

import datetime
import random
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import Field

from panal.puzzles import Puzzle
from panal.server.http.clients import InFlightCap, client_of
from panal.server.http.models import StrictModel
from panal.server.players.auth import require_account, session_account
from panal.server.players.player_store import PlayerStore
from panal.server.ratings.glicko2 import Glicko2, rate_game
from panal.server.runtime.runtime import Runtime
from panal.server.training import lesson_play, puzzle_play
from panal.server.training.puzzle_jobs import PUZZLE_JOB, refusal_error, shipped_book
from panal.server.training.training_store import TrainingStore

__all__ = ["training_router"]

MOVE_MAX = 64
MOVE_FIELDS = {"move", "action", "piece", "to", "carry"}


class GuestRating(StrictModel):
    rating: float = Field(ge=0, le=4000)
    deviation: float = Field(ge=30, le=350)
    volatility: float = Field(gt=0, le=0.2)


class MoveFields(StrictModel):
    move: str | None = Field(default=None, max_length=MOVE_MAX)
    action: str | None = Field(default=None, max_length=40)  # an Enjambre lesson's
    piece: str | None = Field(default=None, max_length=8)
    to: list[int] | None = Field(default=None, min_length=2, max_length=2)
    carry: bool = False

    def message(self) -> dict[str, Any]:
        """The move as a game's request names it (``hive_games.actions.requested_move``)."""
        return self.model_dump(include=MOVE_FIELDS, exclude_none=True)


class PuzzleRequest(StrictModel):
    played: list[Annotated[str, Field(max_length=MOVE_MAX)]] = Field(
        default_factory=list, max_length=3
    )
    rated: bool = False
    guest: GuestRating | None = None


class PuzzleMoveRequest(PuzzleRequest, MoveFields):
    """The player's moves so far and the next one."""


class LessonsDone(StrictModel):
    lessons: list[str] = Field(max_length=100)


def training_router(store: TrainingStore, players: PlayerStore, runtime: Runtime) -> APIRouter:
    router = APIRouter()
    at_work = InFlightCap("too_many_puzzle_answers", "puzzle answers", per_client=1)

    async def solved_off_loop(
        request: Request, ask: str, puzzle: Puzzle, body: PuzzleRequest, **more: Any
    ) -> Any:
        """The answer to ``ask`` computed in the heavy pool (see the module's documentation)."""
        account = await account_id(request)
        payload = {"ask": ask, "puzzle": puzzle.id, "played": body.played, **more}
        with at_work.one_more(client_of(request, account)):
            result = await runtime.heavy_job(PUZZLE_JOB, payload)
        if "refused" in result:
            raise refusal_error(result["refused"])
        return result["answer"]

    async def account_id(request: Request) -> int | None:
        account = await session_account(request, players)
        return None if account is None else account.id

    async def shown(puzzle: Puzzle) -> dict[str, Any]:
        stored = await runtime.db(store.puzzle_ratings, [puzzle.id])
        rating = stored.get(puzzle.id)
        return puzzle_play.puzzle_json(puzzle, None if rating is None else rating.rating)

    async def settle(
        request: Request, body: PuzzleRequest, puzzle: Puzzle, solved: bool
    ) -> dict[str, Any]:
        """Rate a finished try (see the module's documentation); what to add to the answer."""
        if not body.rated:
            return {}
        user = await account_id(request)
        if user is not None:
            change = await runtime.db(store.rate_try, user, puzzle.id, _initial(puzzle), solved)
            return {} if change is None else {"rating": change.to_json()}
        if body.guest is None:
            return {}
        guest = Glicko2(body.guest.rating, body.guest.deviation, body.guest.volatility)
        after, _ = rate_game(guest, _initial(puzzle), 1.0 if solved else 0.0)
        return {
            "guest_rating": {
                "rating": after.rating,
                "deviation": after.deviation,
                "volatility": after.volatility,
                "change": round(after.rating - guest.rating),
            }
        }

    @router.get("/api/puzzles")
    async def overview(request: Request) -> dict[str, Any]:
        book = shipped_book()
        user = await account_id(request)
        rating = tried = None
        if user is not None:
            rating = await runtime.db(store.player_rating, user)
            tried = await runtime.db(store.tried, user)
        return {
            "count": len(book.puzzles),
            "themes": book.theme_counts,
            "daily": book.daily(_today()).id,
            "rating": None if rating is None else rating.shown(),
            "tried": None if tried is None else len(tried),
            "solved": None if tried is None else sum(tried.values()),
        }

    @router.get("/api/puzzles/next")
    async def next_puzzle(
        request: Request,
        theme: str | None = Query(default=None, max_length=40),
        rating: float = Query(default=1500.0, ge=0, le=4000),
    ) -> dict[str, Any]:
        book = shipped_book()
        user = await account_id(request)
        skip: set[str] = set()
        if user is not None:
            own = await runtime.db(store.player_rating, user)
            rating = own.rating if own is not None else rating
            skip = set(await runtime.db(store.tried, user))
        puzzle = book.choose(rating, theme or None, skip, random.Random())
        return await shown(puzzle)

    @router.get("/api/puzzles/daily")
    async def daily() -> dict[str, Any]:
        today = _today()
        return {**await shown(shipped_book().daily(today)), "date": today.isoformat()}

    @router.get("/api/puzzles/streak")
    async def streak(
        seed: int = Query(ge=0, lt=2**31), index: int = Query(ge=0, le=10_000)
    ) -> dict[str, Any]:
        return {**await shown(shipped_book().streak(seed, index)), "index": index}

    @router.get("/api/puzzles/{puzzle_id}")
    async def one_puzzle(puzzle_id: str) -> dict[str, Any]:
        return await shown(shipped_book().get(puzzle_id))

    @router.post("/api/puzzles/{puzzle_id}/move")
    async def puzzle_move(
        puzzle_id: str, body: PuzzleMoveRequest, request: Request
    ) -> dict[str, Any]:
        puzzle = shipped_book().get(puzzle_id)
        answer = await solved_off_loop(request, "move", puzzle, body, move=body.message())
        if not answer["correct"] or answer["solved"]:
            answer.update(await settle(request, body, puzzle, bool(answer["correct"])))
        return answer

    @router.post("/api/puzzles/{puzzle_id}/hint")
    async def puzzle_hint(puzzle_id: str, body: PuzzleRequest, request: Request) -> dict[str, Any]:
        puzzle = shipped_book().get(puzzle_id)
        piece = await solved_off_loop(request, "hint", puzzle, body)
        return {"piece": piece, **await settle(request, body, puzzle, False)}

    @router.post("/api/puzzles/{puzzle_id}/solution")
    async def puzzle_solution(
        puzzle_id: str, body: PuzzleRequest, request: Request
    ) -> dict[str, Any]:
        puzzle = shipped_book().get(puzzle_id)
        steps = await solved_off_loop(request, "solution", puzzle, body)
        return {"steps": steps, **await settle(request, body, puzzle, False)}

    @router.get("/api/lessons")
    async def lessons(
        request: Request, language: str = Query(default="en", max_length=8)
    ) -> dict[str, Any]:
        user = await account_id(request)
        done = None if user is None else await runtime.db(store.lessons_done, user)
        return {"lessons": lesson_play.lessons_json(language), "done": done}

    @router.post("/api/lessons/done")
    async def lessons_done(body: LessonsDone, request: Request) -> dict[str, Any]:
        account = await require_account(request)
        known = [lesson_play.lesson_by_id(lesson_id).id for lesson_id in body.lessons]
        await runtime.db(store.complete_lessons, account.id, known)
        return {"done": await runtime.db(store.lessons_done, account.id)}

    @router.get("/api/lessons/{lesson_id}")
    async def lesson(
        lesson_id: str, language: str = Query(default="en", max_length=8)
    ) -> dict[str, Any]:
        return lesson_play.lesson_json(lesson_play.lesson_by_id(lesson_id), language)

    @router.post("/api/lessons/{lesson_id}/move")
    async def lesson_move(lesson_id: str, body: MoveFields, request: Request) -> dict[str, Any]:
        lesson = lesson_play.lesson_by_id(lesson_id)
        answer = lesson_play.try_lesson_move(lesson, body.message())
        if answer["asked"]:
            user = await account_id(request)
            if user is not None:
                await runtime.db(store.complete_lessons, user, [lesson.id])
        return answer

    return router


def _initial(puzzle: Puzzle) -> Glicko2:
    return Glicko2(puzzle.rating.rating, puzzle.rating.deviation, puzzle.rating.volatility)


def _today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()
