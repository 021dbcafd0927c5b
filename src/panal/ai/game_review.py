"""A review of a whole game: each move's cost in win chance, marked as lichess marks chess moves.

>>> from panal.ai import review
>>> moves = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-"]
>>> result = review(moves, game_type="Base", nodes_per_ply=500)
>>> [ply.move for ply in result.plies][:2]
['wS1', 'bS1 wS1-']

The position before each move is searched once (:func:`~panal.ai.analysis.search_position`,
one :class:`~panal.ai.search.Searcher` for the whole game, ``nodes_per_ply`` nodes each: the same
review on any machine), and that one search scores both its best move and the move played, at
the same depth. Comparing them within one search matters: a shallow search flatters the side to
move, so comparing one position's score with the next one's (as lichess does with Stockfish)
would mark most moves of a balanced game. For the move played at each ply, from its mover's
point of view:

* ``win_chance_before``: the win chance of the best move (:func:`panal.ai.evaluation.win_chance`);
* ``win_chance_after``: the win chance of the move played (1 when it surrounds the enemy queen);
* ``loss = max(0, before - after)``; the engine's own choice loses nothing, nor does a forced move
  (a single legal move, a pass included), which gets no mark.

**Marks** (the thresholds of lichess, whose "winning chances" run from -1 to 1, so a loss of
0.1 there is 0.05 here): a loss of at least :data:`INACCURACY` (0.05) is an *inaccuracy* (``?!``),
of :data:`MISTAKE` (0.10) a *mistake* (``?``), of :data:`BLUNDER` (0.15) a *blunder* (``??``).

**Accuracy** of a move, in percent, is lichess's fit of the win-chance loss in percentage points
``d``: ``103.1668 * exp(-0.04354 * d) - 3.1669``, kept within 0..100 (a loss of 0 scores 100, 5
points 80, 10 points 64, 30 points 25). A side's accuracy is the mean over its unforced moves
(``None`` when it made none).

**Turning points** are the plies at which the advantage changed hands through a mistake: the
mover's win chance was at least 0.5 before, below 0.5 after, and the loss at least :data:`MISTAKE`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from panal.ai.analysis import Line, search_position
from panal.ai.search import Searcher
from panal.hive import Color, Game
from panal.hive.records import GameRecord, PlyNote, write_pgn

__all__ = [
    "BLUNDER",
    "DEFAULT_NODES_PER_PLY",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "PlyReview",
    "Review",
    "annotated_pgn",
    "move_accuracy",
    "review",
    "summary",
]

DEFAULT_NODES_PER_PLY = 5_000
"""The node budget per position of :func:`review` (a 60-ply game: see the README's benchmark)."""
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The PGN mark of each judgement."""
VARIATION_PLIES = 4
"""How much of the better line an annotated PGN shows at a marked move."""


def move_accuracy(before: float, after: float) -> float:
    """The accuracy (0..100) of a move that takes its mover's win chance from ``before`` to
    ``after`` (lichess's fit; see the module's docstring)."""
    lost = (before - after) * 100.0
    if lost <= 0.0:
        return 100.0  # the fit gives 99.9999 for a perfect move
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * lost) - 3.1669))


def judgement(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None``, by the win chance lost."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass
class PlyReview:
    """The review of one move. ``ply`` counts from 1; win chances are the mover's."""

    ply: int
    color: Color
    move: str
    best: Line
    win_chance_before: float
    win_chance_after: float
    loss: float
    judgement: str | None
    accuracy: float
    forced: bool = False

    @property
    def mark(self) -> str:
        """``?!``, ``?`` or ``??``; empty for a move without a judgement."""
        return MARKS[self.judgement] if self.judgement else ""

    @property
    def best_move(self) -> str:
        return self.best.moves[0]

    @property
    def white_win_chance_after(self) -> float:
        after = self.win_chance_after
        return after if self.color is Color.WHITE else 1.0 - after

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "color": self.color.name.lower(),
            "move": self.move,
            "best": self.best.to_json(),
            "win_chance_before": self.win_chance_before,
            "win_chance_after": self.win_chance_after,
            "white_win_chance_after": self.white_win_chance_after,
            "loss": self.loss,
            "judgement": self.judgement,
            "mark": self.mark,
            "accuracy": self.accuracy,
            "forced": self.forced,
        }


@dataclass
class Review:
    """A whole game's review: one :class:`PlyReview` per move played."""

    game_type: str
    plies: list[PlyReview] = field(default_factory=list)
    start_white_win_chance: float = 0.5
    nodes_per_ply: int | None = None

    def accuracy(self, color: Color) -> float | None:
        """The mean accuracy of ``color``'s unforced moves; None when it made none."""
        scores = [p.accuracy for p in self.plies if p.color is color and not p.forced]
        return sum(scores) / len(scores) if scores else None

    def count(self, color: Color, what: str) -> int:
        """How many of ``color``'s moves were judged ``what`` (``"blunder"``...)."""
        return sum(1 for p in self.plies if p.color is color and p.judgement == what)

    @property
    def turning_points(self) -> list[int]:
        """The plies at which the advantage changed hands by a mistake (module's docstring)."""
        return [
            p.ply
            for p in self.plies
            if p.win_chance_before >= 0.5 > p.win_chance_after and p.loss >= MISTAKE
        ]

    @property
    def white_win_chances(self) -> list[float]:
        """White's win chance at the start and after each ply (an evaluation graph)."""
        return [self.start_white_win_chance] + [p.white_win_chance_after for p in self.plies]

    def to_json(self) -> dict[str, Any]:
        sides = {}
        for color in Color:
            sides[color.name.lower()] = {
                "accuracy": self.accuracy(color),
                **{what: self.count(color, what) for what in MARKS},
            }
        return {
            "game_type": self.game_type,
            "nodes_per_ply": self.nodes_per_ply,
            "plies": [p.to_json() for p in self.plies],
            "sides": sides,
            "turning_points": self.turning_points,
            "white_win_chances": self.white_win_chances,
        }


def review(
    game: Game | GameRecord | Sequence[str],
    *,
    game_type: str = "Base+MLP",
    nodes_per_ply: int | None = DEFAULT_NODES_PER_PLY,
    seconds_per_ply: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every move of ``game``: a :class:`Game` (from its start, an empty board or a set-up
    position, with its rule options), a :class:`~panal.hive.records.GameRecord`, or MoveStrings
    played from the empty board of ``game_type`` with the default rules.

    Each position gets ``nodes_per_ply`` nodes and/or ``seconds_per_ply`` seconds (whichever
    ends first; only a node budget gives the same review on any machine). ``on_progress(done,
    total)`` is called after each move reviewed. The game is not modified. Raises
    ValueError for an illegal move or a budget below 1.
    """
    if isinstance(game, Game):
        start = game.copy()
        codes = start.move_codes
        for _ in codes:
            start.pop_code()
    else:
        replayed = game.replay() if isinstance(game, GameRecord) else _replay(game, game_type)
        codes = replayed.move_codes
        start = Game(replayed.game_type, options=replayed.options)
    searcher = Searcher()
    result = Review(game_type=str(start.game_type), nodes_per_ply=nodes_per_ply)
    position = start
    for ply, code in enumerate(codes, 1):
        color = position.turn
        analysis = search_position(
            position, searcher, nodes=nodes_per_ply, seconds=seconds_per_ply, played=code
        )
        best, played = analysis.best, analysis.played
        assert played is not None
        forced = len(position.legal_move_codes()) == 1
        before = best.win_chance
        # The move played and the best are scored by one search, at one depth: they compare.
        after = played.win_chance
        loss = 0.0 if forced or played.moves[0] == best.moves[0] else max(0.0, before - after)
        if ply == 1:
            result.start_white_win_chance = before if color is Color.WHITE else 1.0 - before
        result.plies.append(
            PlyReview(
                ply=ply,
                color=color,
                move=played.moves[0],
                best=best,
                win_chance_before=before,
                win_chance_after=after,
                loss=loss,
                judgement=None if forced else judgement(loss),
                accuracy=move_accuracy(before, before - loss),
                forced=forced,
            )
        )
        position.push_code(code)
        if on_progress is not None:
            on_progress(ply, len(codes))
    return result


def _replay(moves: Sequence[str], game_type: str) -> Game:
    if isinstance(moves, str):
        raise TypeError("review takes a Game, a GameRecord or a list of MoveStrings, not a str")
    game = Game(game_type)
    for number, text in enumerate(moves, 1):
        try:
            game.push(text, lenient=True)
        except ValueError as exc:
            raise ValueError(f"move {number} ({text!r}): {exc}") from exc
    return game


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def _side(color: Color) -> str:
    return color.name.lower()


def annotated_pgn(game: Game, result: Review, headers: dict[str, str] | None = None) -> str:
    """``game`` (the game reviewed) as PGN with the review in it: after each move White's win
    chance as a comment; at a marked move its mark (``?!``, ``?``, ``??``), the mover's win
    chance before and after, the better move (with "surrounds in N" when it forces a win) in
    the comment, and the engine's line from it as a variation. ``headers`` as for
    :func:`~panal.hive.records.write_pgn`; panal's PGN reader reads the moves back unchanged.
    """
    if len(result.plies) != game.ply:
        raise ValueError(f"a review of {len(result.plies)} plies for a game of {game.ply}")
    notes: list[PlyNote | None] = []
    for ply in result.plies:
        comment = f"White {_percent(ply.white_win_chance_after)}"
        if not ply.judgement:
            notes.append(PlyNote(comment=comment))
            continue
        better = ply.best_move
        if ply.best.surround_in is not None:
            better += f", which surrounds in {ply.best.surround_in}"
        comment += (
            f". {ply.judgement.capitalize()}: {_side(ply.color)} "
            f"{_percent(ply.win_chance_before)} -> {_percent(ply.win_chance_after)}; "
            f"better {better}"
        )
        variation = tuple(ply.best.moves[:VARIATION_PLIES])
        notes.append(PlyNote(mark=ply.mark, comment=comment, variation=variation))
    tags = dict(headers or {})
    budget = f"{result.nodes_per_ply} nodes a ply" if result.nodes_per_ply else "timed"
    tags.setdefault("Annotator", f"panal analyse ({budget})")
    return write_pgn(game, tags, notes)


def summary(result: Review, names: dict[Color, str] | None = None) -> str:
    """A few lines for a terminal: each side's accuracy and marks, the turning points and every
    marked move with the better one."""
    names = names or {}
    lines = [f"{'':16} accuracy  inaccuracies  mistakes  blunders"]
    for color in Color:
        accuracy = result.accuracy(color)
        shown = f"{accuracy:.0f}%" if accuracy is not None else "-"
        label = _side(color).capitalize() + (f" ({names[color]})" if names.get(color) else "")
        counts = [result.count(color, what) for what in MARKS]
        lines.append(f"{label[:16]:16} {shown:>8}  {counts[0]:>12}  {counts[1]:>8}  {counts[2]:>8}")
    points = result.turning_points
    lines.append(
        "Turning points: "
        + (", ".join(f"{p}. {result.plies[p - 1].move}" for p in points) if points else "none")
    )
    for ply in result.plies:
        if ply.judgement:
            lines.append(
                f"  {ply.ply}. {ply.move} {ply.mark}  {ply.judgement}: {_side(ply.color)} "
                f"{_percent(ply.win_chance_before)} -> {_percent(ply.win_chance_after)}, "
                f"better {ply.best_move}"
            )
    return "\n".join(lines)
