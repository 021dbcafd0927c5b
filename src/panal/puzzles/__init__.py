"""Hive puzzles mined from real games, and the tutorial's lessons.

Every shipped puzzle is a position from a real game (or an engine game, for the game types the
corpus lacks) where the side to move forces the enemy queen's surround in one, two or three of
its moves with exactly one first move, or has exactly one move that stops a surround; each was
proven by an exhaustive search (docs/puzzles.md).

>>> from panal.puzzles import Attempt, load_puzzles, select
>>> puzzles = load_puzzles()
>>> sorted({p.kind for p in puzzles}), sorted({p.moves for p in puzzles}) >= [1, 2]
(['defence', 'surround'], True)
>>> twos = select(puzzles, kind="surround", moves=2)
>>> puzzle = twos[0]
>>> attempt = Attempt(puzzle)
>>> attempt.hint() == puzzle.solution[0].split()[0]
True
>>> step = attempt.play(puzzle.solution[0])
>>> step.correct, step.reply == puzzle.solution[1], step.solved
(True, True, False)

:class:`Attempt` checks a player's moves one by one: each must keep a forced win within the
moves left (the first must be the puzzle's only one), the opponent answers from the puzzle's
stored line and replies or, off them, from the solver, and a caller may choose the opponent's
answer itself (``play(move, reply=...)``) to try every defence.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from panal.hive import Game, GameState, IllegalMoveError, InvalidMoveError
from panal.hive.codes import PASS_CODE
from panal.puzzles.record import KINDS, Puzzle, Rating
from panal.puzzles.solver import Solver
from panal.puzzles.themes import THEMES

__all__ = [
    "KINDS",
    "THEMES",
    "Attempt",
    "Puzzle",
    "PuzzleError",
    "Rating",
    "Step",
    "load_puzzles",
    "select",
    "verify",
]


class PuzzleError(ValueError):
    """A move that does not parse or is illegal in the puzzle, or a puzzle already over."""


def _data_path() -> Path:
    return Path(str(resources.files("panal.puzzles") / "data" / "puzzles.jsonl.gz"))


def load_puzzles(path: str | Path | None = None) -> list[Puzzle]:
    """Every puzzle of a gzipped JSON-lines file (the shipped set when ``path`` is None)."""
    if path is None:
        return list(_shipped())
    return _read(Path(path))


@cache
def _shipped() -> tuple[Puzzle, ...]:
    return tuple(_read(_data_path()))


def _read(path: Path) -> list[Puzzle]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        out = []
        for number, line in enumerate(lines, 1):
            if line.strip():
                try:
                    out.append(Puzzle.from_json(json.loads(line)))
                except ValueError as exc:
                    raise ValueError(f"{path}, line {number}: {exc}") from exc
        return out


def select(
    puzzles: Iterable[Puzzle],
    *,
    theme: str | None = None,
    kind: str | None = None,
    moves: int | None = None,
    game_type: str | None = None,
    min_rating: float | None = None,
    max_rating: float | None = None,
) -> list[Puzzle]:
    """The puzzles matching every filter given (an unknown theme or kind is an error)."""
    if theme is not None and theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; known: {', '.join(THEMES)}")
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    return [
        p
        for p in puzzles
        if (theme is None or theme in p.themes)
        and (kind is None or p.kind == kind)
        and (moves is None or p.moves == moves)
        and (game_type is None or p.game_type == game_type)
        and (min_rating is None or p.rating.rating >= min_rating)
        and (max_rating is None or p.rating.rating <= max_rating)
    ]


@dataclass(frozen=True)
class Step:
    """What one move of the player brought: was it ``correct``, the opponent's ``reply`` (a
    MoveString, None when the puzzle ended or the move was wrong), and is the puzzle ``solved``."""

    correct: bool
    reply: str | None
    solved: bool


class Attempt:
    """One try at a puzzle, move by move. ``game`` is the position now."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.game = puzzle.game()
        self.side = self.game.ply & 1
        self.played = 0  # the player's moves so far
        self.line: list[str] = []  # both sides' moves since the puzzle's position
        self.failed = False
        self.solved = False

    @property
    def moves_left(self) -> int:
        return self.puzzle.moves - self.played

    def _main_line(self) -> bool:
        return tuple(self.line) == self.puzzle.solution[: len(self.line)]

    def hint(self) -> str:
        """The piece the next move of the solution moves (``wA1``)."""
        if self.solved or self.failed:
            raise PuzzleError("the puzzle is over")
        if self._main_line() and len(self.line) < len(self.puzzle.solution):
            return self.puzzle.solution[len(self.line)].split()[0]
        code = Solver(self.game).first_winning_move(self.moves_left)
        if code is None:  # cannot happen in a proven puzzle
            raise PuzzleError("no winning move from here")
        return self.game.move_string(code).split()[0]

    def play(self, move: str, reply: str | None = None) -> Step:
        """Play the player's ``move``; on a correct move that does not end the puzzle the
        opponent answers with ``reply`` when given (it must be legal), else from the puzzle's
        line, its stored replies or the solver."""
        if self.solved or self.failed:
            raise PuzzleError("the puzzle is over")
        game = self.game
        code = _legal_code(game, move)
        solver = Solver(game)
        if self.puzzle.kind == "defence":
            correct = solver.defends_after(code, self.puzzle.moves)
        else:
            correct = solver.wins_after(code, self.moves_left)
        text = game.move_string(code)
        game.push_code(code)
        self.played += 1
        self.line.append(text)
        on_line = self._main_line()
        if not correct:
            self.failed = True
            return Step(False, None, False)
        if self.puzzle.kind == "defence" or game.state is not GameState.IN_PROGRESS:
            self.solved = True
            return Step(True, None, True)
        answer = self._reply(reply, on_line)
        text = game.move_string(answer)
        game.push_code(answer)
        self.line.append(text)
        return Step(True, text, False)

    def _reply(self, reply: str | None, on_line: bool) -> int:
        game = self.game
        if reply is not None:
            return _legal_code(game, reply)
        line = self.puzzle.solution
        index = len(self.line)
        if on_line and index < len(line):
            return game.parse_move_code(line[index])
        return _stubborn_reply(game, self.moves_left)


def _legal_code(game: Game, move: str) -> int:
    """The code of a legal MoveString; :class:`PuzzleError` for anything else."""
    try:
        code = game.parse_move_code(move)
    except (InvalidMoveError, IllegalMoveError) as exc:
        raise PuzzleError(str(exc)) from exc
    if code not in game.legal_move_codes():
        raise PuzzleError(f"{move!r} is not legal here")
    return code


def _stubborn_reply(game: Game, moves_left: int) -> int:
    """The solver's defence: the reply that leaves the fewest winning answers (the first in
    MoveString order among equals); a reply that ends the game only when nothing else is left."""
    best: tuple[int, str, int] | None = None
    for code in game.legal_move_codes():
        game.push_code(code)
        try:
            if game.state is not GameState.IN_PROGRESS:
                continue
            answers = len(Solver(game).winning_moves(moves_left)) if moves_left else 0
        finally:
            game.pop_code()
        choice = (answers, game.move_string(code), code)
        if best is None or choice < best:
            best = choice
    if best is not None:
        return best[2]
    codes = game.legal_move_codes()
    return codes[0] if codes else PASS_CODE


def verify(puzzle: Puzzle, moves: Sequence[str]) -> bool:
    """Whether the player's ``moves`` (their own only; the opponent answers as in
    :class:`Attempt`) solve ``puzzle``; an illegal move is a wrong one."""
    attempt = Attempt(puzzle)
    for move in moves:
        try:
            step = attempt.play(move)
        except PuzzleError:
            return False
        if not step.correct:
            return False
        if step.solved:
            return True
    return False
