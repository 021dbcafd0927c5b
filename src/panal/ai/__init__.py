"""Hive AI: a searcher, an evaluation that knows Hive, and playing levels.

>>> from panal.hive import Game
>>> from panal.ai import choose_move, LEVELS
>>> game = Game("Base", tournament_opening=True)
>>> move = choose_move(game, "easy", seed=1)
>>> game.is_legal(move)
True

``choose_move`` never changes the game it is given and, for a given ``seed``, returns the same
move whenever the search is bounded by depth (every level but ``expert`` and ``strongest``, or an
explicit ``depth``). A :class:`Searcher` keeps its transposition table between moves.
"""

from __future__ import annotations

import random

from panal.ai.analysis import Analysis, Line, analyse
from panal.ai.evaluation import WIN, evaluate, win_chance
from panal.ai.game_review import PlyReview, Review, review
from panal.ai.levels import DEFAULT_LEVEL, LEVELS, Level, get_level
from panal.ai.search import Searcher, SearchResult
from panal.hive import PASS, Game, Move
from panal.hive.codes import PASS_CODE

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "WIN",
    "Analysis",
    "Level",
    "Line",
    "PlyReview",
    "Review",
    "SearchResult",
    "Searcher",
    "analyse",
    "choose_move",
    "evaluate",
    "get_level",
    "review",
    "think",
    "win_chance",
]


def think(
    game: Game,
    level: str = DEFAULT_LEVEL,
    *,
    time_limit: float | None = None,
    depth: int | None = None,
    seed: int | None = None,
    searcher: Searcher | None = None,
    max_time: float | None = None,
    nodes: int | None = None,
) -> SearchResult:
    """Like :func:`choose_move`, with the whole :class:`SearchResult` (score, depth, nodes, pv).

    ``max_time`` (seconds) is a ceiling that does not change how the search prunes: a ``depth``
    search still searches every line, but stops after ``max_time`` with the best move of its
    deepest finished iteration. ``nodes`` bounds the search by a node count instead of the clock
    (the same choice on any machine, as selective as a timed search).
    """
    settings: Level = get_level(level)
    codes = game.legal_move_codes()
    if not codes:
        raise ValueError("the game is over: there is no move to choose")
    rng = random.Random(seed)
    if codes == [PASS_CODE]:
        return SearchResult(PASS, PASS_CODE, 0, 0, 0, 0.0, [PASS_CODE])
    if settings.blunder_rate and rng.random() < settings.blunder_rate:
        code = rng.choice(sorted(codes))
        return SearchResult(Move.from_code(code), code, 0, 0, 0, 0.0, [code])
    if depth is None:
        # The level decides: its depth, node budget and thinking time are ceilings.
        depth = settings.depth
        if nodes is None:
            nodes = settings.nodes
        if time_limit is None:
            time_limit = settings.time_limit
    searcher = searcher or Searcher()
    exact_depth = depth is not None and time_limit is None and nodes is None
    if max_time is not None:
        time_limit = max_time if time_limit is None else min(time_limit, max_time)
    return searcher.search(
        game,
        depth=depth,
        time_limit=time_limit,
        noise=settings.noise,
        rng=rng,
        exact_depth=exact_depth,
        node_limit=nodes,
    )


def choose_move(
    game: Game,
    level: str = DEFAULT_LEVEL,
    *,
    time_limit: float | None = None,
    depth: int | None = None,
    seed: int | None = None,
) -> Move:
    """The AI's move in ``game`` at ``level`` (one of :data:`LEVELS`); ``PASS`` when forced.

    ``time_limit`` (seconds) overrides the level's thinking time; ``depth`` (plies) replaces the
    level's depth and, without a ``time_limit``, searches exactly that deep however long it takes.
    ``game`` is not modified. Raises ValueError when the game is over or the level is unknown.
    """
    return think(game, level, time_limit=time_limit, depth=depth, seed=seed).move
