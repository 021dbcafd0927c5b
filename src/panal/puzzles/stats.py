"""Counting a puzzle set and proving its claims again with the solver."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from panal.hive.codes import PASS_CODE
from panal.puzzles.record import Puzzle
from panal.puzzles.solver import Solver

__all__ = ["counts", "prove", "summary", "tables"]


def counts(puzzles: Sequence[Puzzle]) -> dict[str, Counter[str]]:
    """Puzzles by kind and length, by theme, by game type and by source."""
    return {
        "kind": Counter(f"{p.kind} in {p.moves}" for p in puzzles),
        "theme": Counter(theme for p in puzzles for theme in p.themes),
        "game_type": Counter(p.game_type for p in puzzles),
        "source": Counter(str(p.source["file"]).split("/")[0] for p in puzzles),
    }


def summary(puzzles: Sequence[Puzzle]) -> str:
    """A few lines of counts, largest first."""
    lines = [f"{len(puzzles)} puzzles"]
    for name, counter in counts(puzzles).items():
        parts = ", ".join(f"{key} {value}" for key, value in counter.most_common())
        lines.append(f"{name}: {parts}")
    return "\n".join(lines)


_HEADINGS = {"kind": "kind", "game_type": "game type", "theme": "theme", "source": "source"}


def tables(puzzles: Sequence[Puzzle]) -> str:
    """The counts as the Markdown tables of docs/puzzles-and-lessons.md: by kind and length, game
    type, theme and source, largest first (ties in name order)."""
    found = counts(puzzles)
    parts = []
    for name in ("kind", "game_type", "theme", "source"):
        rows = sorted(found[name].items(), key=lambda item: (-item[1], item[0]))
        lines = [f"| {_HEADINGS[name]} | puzzles |", "|---|---|"]
        lines += [f"| {key} | {value:,} |" for key, value in rows]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def prove(puzzle: Puzzle) -> str | None:
    """What is wrong with the puzzle's claims, by the solver (None when all hold)."""
    game = puzzle.game()
    solver = Solver(game)
    first = game.parse_move_code(puzzle.solution[0])
    if puzzle.kind == "defence":
        solver.push(PASS_CODE)
        threatened = solver.wins_within(puzzle.moves)
        solver.pop()
        if not threatened:
            return "no threat to defend against"
        saving = [
            code
            for code in game.legal_move_codes()
            if code != PASS_CODE and solver.defends_after(code, puzzle.moves)
        ]
        return None if saving == [first] else f"{len(saving)} moves defend"
    if puzzle.moves > 1 and solver.wins_within(puzzle.moves - 1):
        return "a shorter win exists"
    winning = solver.winning_moves(puzzle.moves)
    if winning != [first]:
        return f"{len(winning)} first moves win"
    # The stored line and replies: every answer keeps the win.
    solver.push(first)
    try:
        for reply, answer in puzzle.replies.items():
            reply_code = solver.game.parse_move_code(reply)
            solver.push(reply_code)
            try:
                answer_code = solver.game.parse_move_code(answer)
                if not solver.wins_after(answer_code, puzzle.moves - 1):
                    return f"after {reply}, {answer} does not keep the win"
            finally:
                solver.pop()
        replies = {solver.game.move_string(c) for c in solver.game.legal_move_codes()}
        missing = replies - set(puzzle.replies) if puzzle.moves > 1 else set()
        for reply in sorted(missing):
            solver.push(solver.game.parse_move_code(reply))
            over = solver.game.is_over()
            solver.pop()
            if not over:
                return f"the reply {reply} is not stored"
    finally:
        solver.pop()
    return None
