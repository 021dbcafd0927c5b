"""The puzzle trainer's logic, without the web: which puzzle to show, and a player's move judged.

Nothing is kept between requests: the browser sends the player's moves so far (``played``),
which are replayed with :class:`panal.puzzles.Attempt` (the opponent's answers are the puzzle's
own, so a replay always reaches the same position), then the new move is judged.

* **Which puzzle.** A signed-in player gets one not tried yet whose rating is near the player's
  (within 150 points, widened until one is found), of the chosen theme; a guest sends the rating
  its browser keeps. The puzzle of the day is the same for everyone on a date: the SHA-256 of
  the date's ISO text picks it among the puzzles in id order. A streak is the ``n``-th puzzle of
  a ladder cut from the puzzles in order of shipped rating (40 rungs; a seed picks one puzzle in
  each rung), so every next puzzle is at least as hard as the last.
* **A wrong move** is explained: an illegal one is refused with the rule it breaks (409, as a
  game move is); a legal one that does not force the win comes back with the opponent's
  refutation: for a surround, the opponent's answer after which no win is left within the moves
  remaining (or its own surround of the player's queen), for a defence the opponent's surround.
"""

from __future__ import annotations

import datetime
import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from panal.hive import Color, GameState
from panal.puzzles import THEMES, Attempt, Puzzle, PuzzleError
from panal.puzzles.solver import Solver
from panal.server.http.request_error import RequestError
from panal.server.training.positions import board_json, push_shown, read_move

__all__ = ["LADDER_RUNGS", "PuzzleBook", "judge", "puzzle_json", "replay"]

LADDER_RUNGS = 40
NEAR = 150.0


class PuzzleBook:
    """The shipped puzzles, indexed (one per process)."""

    def __init__(self, puzzles: Sequence[Puzzle]) -> None:
        self.puzzles = tuple(sorted(puzzles, key=lambda p: p.id))
        self.by_id = {p.id: p for p in self.puzzles}

    @cached_property
    def theme_counts(self) -> dict[str, int]:
        counts = Counter(theme for p in self.puzzles for theme in p.themes)
        return {theme: counts[theme] for theme in THEMES if counts[theme]}

    @cached_property
    def ladder(self) -> tuple[Puzzle, ...]:
        return tuple(sorted(self.puzzles, key=lambda p: (p.rating.rating, p.id)))

    def get(self, puzzle_id: str) -> Puzzle:
        puzzle = self.by_id.get(puzzle_id)
        if puzzle is None:
            raise RequestError("not_found", f"no puzzle {puzzle_id[:16]!r}", 404)
        return puzzle

    def daily(self, day: datetime.date) -> Puzzle:
        digest = hashlib.sha256(day.isoformat().encode("ascii")).digest()
        return self.puzzles[int.from_bytes(digest[:8], "big") % len(self.puzzles)]

    def streak(self, seed: int, index: int) -> Puzzle:
        """The ``index``-th puzzle (0 first) of the streak ``seed``: from rung ``index`` of the
        ladder (the last rung once the streak is longer than the ladder)."""
        ladder = self.ladder
        rung = min(index, LADDER_RUNGS - 1)
        start = len(ladder) * rung // LADDER_RUNGS
        end = max(start + 1, len(ladder) * (rung + 1) // LADDER_RUNGS)
        return ladder[random.Random(f"{seed}:{index}").randrange(start, end)]

    def choose(
        self,
        rating: float,
        theme: str | None,
        skip: set[str],
        rng: random.Random,
    ) -> Puzzle:
        """A puzzle of ``theme`` (any when None) not in ``skip`` (unless every one is), whose
        shipped rating is near ``rating`` (the stored ratings move slowly around it; choosing
        by the shipped one needs no query)."""
        if theme is not None and theme not in self.theme_counts:
            raise RequestError("bad_request", f"unknown theme {theme[:40]!r}")
        pool = [
            p for p in self.puzzles if (theme is None or theme in p.themes) and p.id not in skip
        ] or [p for p in self.puzzles if theme is None or theme in p.themes]

        width = NEAR
        while True:
            near = [p for p in pool if abs(p.rating.rating - rating) <= width]
            if near:
                return rng.choice(near)
            width *= 2


def puzzle_json(puzzle: Puzzle, rating: float | None = None) -> dict[str, Any]:
    """What the trainer page needs to show a puzzle (never its solution)."""
    return {
        "id": puzzle.id,
        "kind": puzzle.kind,
        "moves": puzzle.moves,
        "side": puzzle.side,
        "game_type": puzzle.game_type,
        "themes": list(puzzle.themes),
        "rating": round(puzzle.rating.rating if rating is None else rating),
        "source": puzzle.source,
        "board": board_json(puzzle.game()),
    }


def replay(puzzle: Puzzle, played: Sequence[str]) -> Attempt:
    """An attempt with the player's moves so far replayed; each must be correct."""
    attempt = Attempt(puzzle)
    for move in played:
        try:
            step = attempt.play(move)
        except PuzzleError as exc:
            raise RequestError(
                "bad_request", f"'played' is not a line of this puzzle: {exc}"
            ) from None
        if not step.correct or step.solved:
            raise RequestError("bad_request", "'played' is not an unfinished line of this puzzle")
    return attempt


def judge(puzzle: Puzzle, played: Sequence[str], message: dict[str, Any]) -> dict[str, Any]:
    """The player's next move judged: ``correct``, and then the opponent's ``reply`` and the
    position after it, or ``solved``; or not ``correct``, with the ``refutation`` and why."""
    attempt = replay(puzzle, played)
    text = read_move(attempt.game, message)  # an illegal move is refused, naming its rule
    shown = attempt.game.copy()
    step = attempt.play(text)
    after_move = push_shown(shown, text)
    answer: dict[str, Any] = {"move": text, "correct": step.correct, "solved": step.solved}
    if step.correct:
        if step.reply is not None:  # drawn after the player's move, a moment later
            answer["reply"] = step.reply
            answer["before_reply"] = after_move
            answer["board"] = push_shown(shown, step.reply)
        else:
            answer["board"] = after_move
        return answer
    answer.update(_refutation(puzzle, attempt, shown))
    return answer


def _refutation(puzzle: Puzzle, attempt: Attempt, game: Any) -> dict[str, Any]:
    """Why a legal move fails, and the opponent's move that shows it, played on ``game``."""
    if game.state is not GameState.IN_PROGRESS:
        # The move ended the game: both queens surrounded (a draw) or only the player's.
        draw = game.state is GameState.DRAW
        return {"why": "draw" if draw else "own_queen", "board": board_json(game)}
    moves_left = puzzle.moves - attempt.played
    if puzzle.kind == "defence":
        code = Solver(game).first_winning_move(1)
        why = "no_defence"
    elif moves_left == 0:
        return {"why": "not_surrounded", "board": board_json(game)}
    else:
        code = _refuting_reply(game, moves_left)
        why = "no_forced_win"
    if code is None:
        return {"why": why, "board": board_json(game)}
    reply = game.move_string(code)
    return {"why": why, "refutation": reply, "board": push_shown(game, reply)}


def _refuting_reply(game: Any, moves_left: int) -> int | None:
    """The opponent's answer that leaves no forced win within ``moves_left``: one that
    surrounds the player's queen first, else the first that leaves the player no winning move."""
    codes = game.legal_move_codes()
    opponent_wins = GameState.WHITE_WINS if game.turn == Color.WHITE else GameState.BLACK_WINS
    fallback = None
    for code in codes:
        game.push_code(code)
        try:
            if game.state is opponent_wins:
                return int(code)
            if (
                game.state is GameState.IN_PROGRESS
                and fallback is None
                and not Solver(game).winning_moves(moves_left)
            ):
                fallback = code
        finally:
            game.pop_code()
    return fallback if fallback is not None else (codes[0] if codes else None)


def hint(puzzle: Puzzle, played: Sequence[str]) -> str:
    """The piece the next move of the solution moves."""
    return replay(puzzle, played).hint()


def solution(puzzle: Puzzle, played: Sequence[str]) -> list[dict[str, Any]]:
    """The rest of the solution from the player's position, each move with the position after
    it: the puzzle's line while the player is on it, else the solver's moves and answers."""
    attempt = replay(puzzle, played)
    shown = attempt.game.copy()
    steps = []
    while not attempt.solved:
        piece_move = _next_solution_move(attempt)
        step = attempt.play(piece_move)
        steps.append({"move": piece_move, "board": push_shown(shown, piece_move)})
        if step.reply is not None:
            steps.append({"move": step.reply, "board": push_shown(shown, step.reply)})
    return steps


def _next_solution_move(attempt: Attempt) -> str:
    line = attempt.puzzle.solution
    if tuple(attempt.line) == line[: len(attempt.line)] and len(attempt.line) < len(line):
        return line[len(attempt.line)]
    code = Solver(attempt.game).first_winning_move(attempt.moves_left)
    if code is None:  # cannot happen in a proven puzzle
        raise RequestError("bad_request", "no winning move from here")
    return attempt.game.move_string(code)
