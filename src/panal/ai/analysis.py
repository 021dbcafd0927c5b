"""The engine as a coach: the best lines of a position, and a review of a whole game.

>>> from panal.hive import Game
>>> from panal.ai import analyse, review
>>> game = Game.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
>>> analysis = analyse(game, lines=2, nodes=2_000)
>>> [len(line.moves) > 0 for line in analysis.lines]
[True, True]
>>> analysis.lines[0].moves[0] != analysis.lines[1].moves[0]
True

:func:`analyse` gives the best ``lines`` moves of a position (multi-PV, see
:meth:`panal.ai.search.Searcher.search_lines`), best first, no first move twice, each a
:class:`Line`: its moves (UHP MoveStrings, the first one playable in the position), its score,
its win chance, and a forced result when the search proved one:

* ``surround_in = N``: the side to move surrounds the enemy queen with its own N-th move from
  here, whatever the other side does (N = 1: the first move of the line wins);
* ``surrounded_in = N``: the side to move's queen is surrounded by the other side's N-th move
  whatever it does. A separate field rather than a negative ``surround_in``, so that neither
  reads as the other.

``win_chance`` is the side to move's expected result (1 won, 0 lost, a draw half) by the
evaluation's fitted logistic, :func:`panal.ai.evaluation.win_chance`; a proven result is
exactly 1.0 or 0.0. :class:`Analysis` adds the side to move and :attr:`Analysis.white_win_chance`
for an evaluation bar.

The search is bounded by ``nodes`` (the same lines on any machine, at any load) and/or
``seconds`` (whichever ends first); with neither it searches :data:`DEFAULT_NODES` nodes. It draws
no random numbers: the lines depend on the position and the node budget only, and every
``seed`` gives the same ones (the parameter is kept so that callers can pass one, as to
:func:`panal.ai.think`). ``on_progress`` receives the :class:`Analysis` of each completed depth,
so a client can show the lines as they deepen.

**The public API** (``from panal.ai import analyse, review``), kept stable for the server and
the browser:

* ``analyse(game, *, lines=3, nodes=None, seconds=None, seed=0, on_progress=None) -> Analysis``;
* :class:`Analysis`: ``turn``, ``lines`` (best first), ``depth``, ``nodes``, ``seconds``,
  ``white_win_chance``, ``to_json()``;
* :class:`Line`: ``moves``, ``score``, ``depth``, ``nodes``, ``win_chance``, ``surround_in``,
  ``surrounded_in``, ``to_json()``;
* ``review(game_or_moves, *, game_type="Base+MLP", nodes_per_ply=5000, seconds_per_ply=None,
  on_progress=None) -> Review``, in :mod:`panal.ai.game_review` (not ``panal.ai.review``, which
  would hide the function of that name that ``panal.ai`` exports).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from panal.ai.evaluation import MATE_BOUND, WIN, win_chance
from panal.ai.search import Searcher, SearchResult
from panal.hive import Color, Game

__all__ = ["DEFAULT_NODES", "Analysis", "Line", "analyse", "search_position"]

DEFAULT_NODES = 20_000
"""The node budget of :func:`analyse` when it is given neither ``nodes`` nor ``seconds``: about a
second and a half of one core of a 2026 server (16,900 nodes per CPU second in the README)."""


@dataclass
class Line:
    """One line of play from the analysed position, from the side to move's point of view.

    ``depth`` is the depth (plies) the search completed, ``nodes`` the nodes it had searched by
    then (all lines together: they come from one search).
    """

    moves: list[str]
    score: int
    depth: int
    nodes: int
    win_chance: float
    surround_in: int | None = None
    surrounded_in: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "moves": list(self.moves),
            "score": self.score,
            "depth": self.depth,
            "nodes": self.nodes,
            "win_chance": self.win_chance,
            "surround_in": self.surround_in,
            "surrounded_in": self.surrounded_in,
        }


@dataclass
class Analysis:
    """The best lines of a position, best first (never two with the same first move).

    ``depth`` is the last depth completed; ``nodes`` all the nodes searched (in the final
    analysis, also those of the unfinished depth the budget cut short); ``seconds`` the time
    to the last completed depth.
    """

    turn: Color
    lines: list[Line] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    played: Line | None = None
    """The line of the move asked for by :func:`search_position`'s ``played`` (a review's move
    played), scored by the same search; None when none was asked for."""

    @property
    def best(self) -> Line:
        return self.lines[0]

    @property
    def white_win_chance(self) -> float:
        """White's win chance by the best line (for an evaluation bar)."""
        chance = self.lines[0].win_chance
        return chance if self.turn is Color.WHITE else 1.0 - chance

    def to_json(self) -> dict[str, Any]:
        """Plain dicts and lists (``seconds`` is the one machine-dependent value)."""
        return {
            "turn": self.turn.name.lower(),
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "white_win_chance": self.white_win_chance,
            "lines": [line.to_json() for line in self.lines],
            "played": self.played.to_json() if self.played is not None else None,
        }


def analyse(
    game: Game,
    *,
    lines: int = 3,
    nodes: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    on_progress: Callable[[Analysis], None] | None = None,
) -> Analysis:
    """The best ``lines`` lines of the position of ``game`` (not modified), from a fresh search:
    the same position and node budget give the same analysis, whatever was analysed before.

    Raises ValueError when the game is over, or for ``lines`` or a budget below 1 (see the
    module's docstring for the rest).
    """
    del seed  # the search is deterministic; see the module's docstring
    return search_position(
        game, Searcher(), lines=lines, nodes=nodes, seconds=seconds, on_progress=on_progress
    )


def search_position(
    game: Game,
    searcher: Searcher,
    *,
    lines: int = 1,
    nodes: int | None = None,
    seconds: float | None = None,
    on_progress: Callable[[Analysis], None] | None = None,
    played: int | None = None,
) -> Analysis:
    """:func:`analyse` with a given :class:`Searcher`, whose table carries what it learnt from
    one position to the next (a review of a game searches its positions in order with one).

    ``played`` is the code of a legal move to score as exactly as the best ones, in
    :attr:`Analysis.played` (see :meth:`~panal.ai.search.Searcher.search_lines`'s ``also``).
    """
    if game.is_over():
        raise ValueError(f"the game is over ({game.state}): there is no move to analyse")
    if lines < 1:
        raise ValueError(f"lines is at least 1, not {lines}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"nodes is at least 1, not {nodes}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds is more than 0, not {seconds}")
    if nodes is None and seconds is None:
        nodes = DEFAULT_NODES
    turn = game.turn

    def progress(results: list[SearchResult]) -> None:
        if on_progress is not None:
            on_progress(_analysis(game, turn, results, lines, played))

    found = searcher.search_lines(
        game,
        lines,
        time_limit=seconds,
        node_limit=nodes,
        on_iteration=progress if on_progress is not None else None,
        also=played,
    )
    analysis = _analysis(game, turn, found, lines, played)
    analysis.nodes = searcher.nodes
    return analysis


def _analysis(
    game: Game, turn: Color, results: list[SearchResult], lines: int, played: int | None
) -> Analysis:
    shown = [_line(game, result) for result in results]
    extra = None
    if played is not None:
        # The played move is among the lines, or one more after them.
        index = next(i for i, result in enumerate(results) if result.code == played)
        extra = shown[index]
        shown = shown[:lines]
    return Analysis(
        turn=turn,
        lines=shown,
        depth=results[0].depth,
        nodes=results[0].nodes,
        seconds=results[0].seconds,
        played=extra,
    )


def _line(game: Game, result: SearchResult) -> Line:
    """A search result as a :class:`Line`: its codes written as MoveStrings, each in its own
    position, and the forced result its score proves, if any."""
    position = game.copy()
    moves = []
    for code in result.pv:
        moves.append(position.move_string(code))
        position.push_code(code)
    score = result.score
    surround_in = surrounded_in = None
    if score > MATE_BOUND:
        # A win at ply p of the line: the side to move made the odd plies, (p + 1) // 2 moves.
        surround_in = (WIN - score + 1) // 2
    elif score < -MATE_BOUND:
        # A loss at ply p: the other side made p // 2 moves (at least one, unless the side to
        # move has only moves that surround its own queen, which the first move then does).
        surrounded_in = max(1, (WIN + score) // 2)
    return Line(
        moves=moves,
        score=score,
        depth=result.depth,
        nodes=result.nodes,
        win_chance=win_chance(score),
        surround_in=surround_in,
        surrounded_in=surrounded_in,
    )
