"""Game-tree search: iterative-deepening principal-variation search over move codes.

The search plays moves on a private copy of the game with ``push_code``/``pop_code`` and never
builds :class:`~panal.hive.game.Move` objects on the way. Pieces of the classic toolbox, each
chosen for what it buys in Hive:

* a transposition table keyed on the incremental Zobrist hash (``game.hash``), which also carries
  the best move of the previous iteration to the front of the move list;
* move ordering: table move, two killer moves per ply, then a static score (moves that fill a
  cell next to the enemy queen first, moves that free our own queen next) plus a history score;
* principal-variation search with null windows; when the search is driven by the clock, also
  null-move and reverse-futility pruning, late-move reductions, and late-move pruning of quiet
  moves near the horizon (``exact_depth`` turns all of them off so ``depth N`` is exactly N);
* at the horizon, a leaf where the side to move can surround the enemy queen with one move
  scores as that win (selective searches only, so ``depth N`` stays exactly N plies);
* terminal scores with mate distance (a faster win scores higher); a draw (by the rules, or a
  position met before) costs the searching side ``contempt`` score units, so it avoids
  repetitions in level positions; a larger contempt plays on in a somewhat worse position
  rather than accept the draw (against nokamute depth 4, 100 did worse than 15);
* a hard deadline checked at every node: an unfinished iteration still counts when it has
  already found a better root move than the last finished one.

Levels below the strongest add noise to the root scores and, for beginners, outright blunders.

One module, over the project's 600 lines, because the recursion and what it keeps between nodes
(table, killers, history, counters, deadline) are one class's private fields on the hottest path;
the evaluation, the levels and the analysis built on the search live apart.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, cast

from panal.ai.evaluation import MATE_BOUND, WIN, evaluate, filling_moves
from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Game, GameState, Move
from panal.hive.codes import PASS_CODE

__all__ = ["SearchResult", "SearchTimeout", "Searcher"]

INFINITY = WIN + 1_000
MAX_PLY = 128

CONTEMPT = 15  # score units a draw costs the side that searches, by default
# Reverse futility's margins, in score units, by the depth left. Where the side to move's queen
# is not beside five pieces, a search of depth 1 fell below the static score by more than 50 in
# 1 position of 943, and of depth 2 by more than 300 in none (benchmarks/ai_futility.py); beside
# five, 5 of 51 fell below it by any margin, so reverse futility leaves those alone. Depth 1's
# margin was 150: 50 took the mean depth reached in 1 s from 4.70 to 4.90, and won 61.7% of 115
# games of self-play at 1 s (docs/benchmarks.md, "Reverse futility's margin").
FUTILITY_MARGINS: Final = {1: 50, 2: 300}
NULL_REDUCTION = 2
LATE_MOVE_LIMITS = {1: 16, 2: 28}  # quiet moves searched at these remaining depths

_EXACT = 0
_LOWER = 1  # the score is a lower bound (the search failed high)
_UPPER = 2  # the score is an upper bound (the search failed low)

_EMPTY: frozenset[int] = frozenset()
_IN_PROGRESS = GameState.IN_PROGRESS
_DRAW = GameState.DRAW
_WHITE_WINS = GameState.WHITE_WINS
_BLACK_WINS = GameState.BLACK_WINS

# Move ordering packs (score, code) into score << _ORDER_SHIFT | code - PASS_CODE: a code is a
# cell (28 bits) << 6 | 6 bits of piece and flag, and PASS_CODE the smallest.
_ORDER_SHIFT: Final = 36
_ORDER_MASK: Final = (1 << _ORDER_SHIFT) - 1

# Bytes a table entry costs in CPython (key, tuple of four small ints, dict slot), measured.
_BYTES_PER_ENTRY = 200


class SearchTimeout(Exception):
    """Raised inside the search when the deadline passes; caught by :meth:`Searcher.search`."""


@dataclass
class SearchResult:
    """What a search found: the move, its score for the side to move, and how hard it looked."""

    move: Move
    code: int
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[int] = field(default_factory=list)

    @property
    def is_win(self) -> bool:
        return self.score > MATE_BOUND

    @property
    def is_loss(self) -> bool:
        return self.score < -MATE_BOUND

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class Searcher:
    """An alpha-beta searcher with a transposition table that persists between searches.

    Reuse one Searcher across the moves of a game to keep what it learnt; call :meth:`clear`
    (or use a fresh one) when results must not depend on earlier searches.
    """

    def __init__(
        self,
        hash_size_mb: int = 32,
        evaluator: Callable[[Game], int] = evaluate,
        contempt: int = CONTEMPT,
    ) -> None:
        self.evaluate = evaluator
        # What a draw costs the side to move at the root, in score units: a draw scores
        # -contempt for it and +contempt for its opponent. Scores in the table depend on it and
        # on which side searched, so the table is cleared when either changes.
        self.contempt = contempt
        self._table_owner = (contempt, -1)  # (contempt, colour at the root) of the table
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.hash_size_mb = hash_size_mb
        self.history: dict[int, int] = {}
        self.scores: dict[int, int] = {}  # static evaluations by position hash
        self.surrounds: dict[int, bool] = {}  # by position hash: can the side to move win at once
        self.killers: list[list[int]] = [[PASS_CODE, PASS_CODE] for _ in range(MAX_PLY + 1)]
        self.nodes = 0
        self.deadline = float("inf")
        self.node_limit = 1 << 62
        self.selective = False  # reductions and pruning (off for exact-depth searches)
        self._game: Game | None = None

    @property
    def hash_size_mb(self) -> int:
        return self._hash_size_mb

    @hash_size_mb.setter
    def hash_size_mb(self, megabytes: int) -> None:
        self._hash_size_mb = max(1, int(megabytes))
        self.max_entries = self._hash_size_mb * 1024 * 1024 // _BYTES_PER_ENTRY
        if len(self.table) > self.max_entries:
            self.table.clear()

    def clear(self) -> None:
        """Forget everything learnt (table, history, killers)."""
        self.table.clear()
        self.scores.clear()
        self.surrounds.clear()
        self.history.clear()
        for pair in self.killers:
            pair[0] = pair[1] = PASS_CODE

    # --- the driver -----------------------------------------------------------------------

    def search(
        self,
        game: Game,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        noise: int = 0,
        rng: random.Random | None = None,
        exact_depth: bool | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
        node_limit: int | None = None,
    ) -> SearchResult:
        """Search ``game`` (not modified) to ``depth`` plies, for ``time_limit`` seconds and/or
        ``node_limit`` nodes, whichever ends first.

        With none of them, the search stops at depth 3. ``noise`` (score units) perturbs the root
        choice with ``rng``. ``exact_depth`` (default: when neither a time nor a node limit is
        given) searches every line to the full depth, without reductions. A node limit makes a
        search as selective as a timed one and, unlike the clock, repeatable on any machine.
        """
        # The search makes no reference cycles; a collector pass over a big table could only
        # make it late.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search(
                game, depth, time_limit, node_limit, noise, rng, exact_depth, on_iteration
            )
        finally:
            if collecting:
                gc.enable()

    def _search(
        self,
        game: Game,
        depth: int | None,
        time_limit: float | None,
        node_limit: int | None,
        noise: int,
        rng: random.Random | None,
        exact_depth: bool | None,
        on_iteration: Callable[[SearchResult], None] | None,
    ) -> SearchResult:
        start = time.perf_counter()
        bounded = time_limit is not None or node_limit is not None
        position, max_depth = self._begin(game, start, depth, time_limit, node_limit, exact_depth)
        codes = list(position.legal_move_codes())
        rng = rng or random.Random()
        # Each root move's noise is drawn once, by move (not by search order), so that a seed
        # gives the same choice whatever the table remembers from earlier searches.
        jitter = {code: rng.randint(-noise, noise) for code in sorted(codes)} if noise else {}
        root = self._order(position, codes, 0, self._table_move(position.hash))
        best = SearchResult(Move.from_code(root[0]), root[0], 0, 0, 0, 0.0, [root[0]])
        if len(root) == 1 and bounded:
            # A forced move (or a pass): nothing to think about.
            best.seconds = time.perf_counter() - start
            return best

        for iteration in range(1, max_depth + 1):
            try:
                code, score, root = self._search_root(position, root, iteration, noise, jitter)
            except SearchTimeout as timeout:
                partial = timeout.args[0] if timeout.args else None
                if partial is not None:
                    code, score = partial
                    # The move comes from the unfinished iteration; the depth is the last
                    # one completed.
                    best = SearchResult(
                        Move.from_code(code), code, score, iteration - 1, self.nodes, 0.0, [code]
                    )
                break
            best = SearchResult(
                Move.from_code(code),
                code,
                score,
                iteration,
                self.nodes,
                time.perf_counter() - start,
                self._principal_variation(position, code),
            )
            if on_iteration is not None:
                on_iteration(best)
            if MATE_BOUND < abs(score) < WIN and WIN - abs(score) <= iteration:
                break  # a forced result is proven; deeper search cannot change it
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - start
        assert best.code in game.legal_move_codes(), "the search chose an illegal move"
        return best

    def _begin(
        self,
        game: Game,
        start: float,
        depth: int | None,
        time_limit: float | None,
        node_limit: int | None,
        exact_depth: bool | None,
    ) -> tuple[Game, int]:
        """Set the limits of a new search; returns the private copy it plays on and the depth
        it may reach."""
        bounded = time_limit is not None or node_limit is not None
        if depth is None and not bounded:
            depth = 3
        self.deadline = start + time_limit if time_limit is not None else float("inf")
        self.node_limit = node_limit if node_limit is not None else 1 << 62
        self.selective = not (exact_depth if exact_depth is not None else not bounded)
        self.nodes = 0
        owner = (self.contempt, game.ply & 1)
        if owner != self._table_owner:
            # Stored draw scores from another contempt, or from the other side's point of view,
            # would be wrong here by up to twice the contempt. The default's is within the
            # evaluation's noise: a table searching for both sides (a review) keeps it.
            if max(abs(self.contempt), abs(self._table_owner[0])) > CONTEMPT:
                self.table.clear()
            self._table_owner = owner
        if len(self.table) > self.max_entries:
            self.table.clear()
        if len(self.scores) > self.max_entries:
            self.scores.clear()
        if len(self.surrounds) > self.max_entries:
            self.surrounds.clear()
        # Histories fade between searches so old habits do not dominate.
        self.history = {code: value >> 2 for code, value in self.history.items() if value >= 4}
        position = game.copy()
        self._game = position
        if not position.legal_move_codes():
            raise ValueError("the game is over: there is no move to search")
        return position, depth if depth is not None else MAX_PLY - 8

    def search_lines(
        self,
        game: Game,
        lines: int,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        on_iteration: Callable[[list[SearchResult]], None] | None = None,
        also: int | None = None,
    ) -> list[SearchResult]:
        """The best ``lines`` moves of ``game`` (not modified), best first, each with its exact
        score and principal variation, no root move twice (multi-PV).

        Each iteration searches every root move: the first ``lines`` with an open window, the
        others with a null window at the worst of the best ``lines`` so far, and again with an
        open one when they beat it. Only completed iterations count, and the first always
        completes whatever the limits, so a node limit gives the same lines on any machine.
        ``on_iteration`` gets each completed iteration's lines. Limits as in :meth:`search`; the
        search also stops when every line's result is proven.

        ``also`` is a root move whose exact score is wanted too, however bad (the move played,
        in a review: scored by the same search as the best, at the same depth, so the two
        compare). When it is not among the best ``lines``, its result comes last, one more.
        """
        if lines < 1:
            raise ValueError(f"lines is at least 1, not {lines}")
        if also is not None and also not in game.legal_move_codes():
            raise ValueError(f"the move code {also} is not legal in this position")
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search_lines(
                game, lines, depth, time_limit, node_limit, on_iteration, also
            )
        finally:
            if collecting:
                gc.enable()

    def _search_lines(
        self,
        game: Game,
        lines: int,
        depth: int | None,
        time_limit: float | None,
        node_limit: int | None,
        on_iteration: Callable[[list[SearchResult]], None] | None,
        also: int | None,
    ) -> list[SearchResult]:
        start = time.perf_counter()
        position, max_depth = self._begin(game, start, depth, time_limit, node_limit, None)
        root = self._order(
            position, position.legal_move_codes(), 0, self._table_move(position.hash)
        )
        wanted = min(lines, len(root))
        found: list[SearchResult] = []
        limits = (self.deadline, self.node_limit)
        for iteration in range(1, max_depth + 1):
            if iteration == 1:
                # Depth 1 costs one evaluation a move: there are lines to show, always.
                self.deadline, self.node_limit = float("inf"), 1 << 62
            ranked: list[tuple[int, int]] | None
            try:
                ranked = self._search_root_lines(position, root, iteration, wanted, also)
            except SearchTimeout:
                ranked = None  # this depth is unfinished: the last finished one stands
            self.deadline, self.node_limit = limits
            if ranked is None:
                break
            root = [code for _, code in ranked]
            shown = ranked[:wanted]
            if also is not None and also not in root[:wanted]:
                shown += [pair for pair in ranked if pair[1] == also]
            seconds = time.perf_counter() - start
            found = [
                SearchResult(
                    Move.from_code(code),
                    code,
                    score,
                    iteration,
                    self.nodes,
                    seconds,
                    self._principal_variation(position, code),
                )
                for score, code in shown
            ]
            if on_iteration is not None:
                on_iteration(found)
            if all(WIN - abs(line.score) <= iteration for line in found):
                break  # every line's result is proven; deeper search cannot change them
        return found

    def _search_root_lines(
        self, game: Game, root: list[int], depth: int, wanted: int, also: int | None
    ) -> list[tuple[int, int]]:
        """One multi-PV iteration: (score, code) of every root move, best first. The first
        ``wanted`` scores and that of ``also`` are exact; the others are upper bounds."""
        scored: list[tuple[int, int]] = []
        best: list[int] = []  # the exact scores of the best ``wanted`` moves so far, best first
        push, pop = game.push_code, game.pop_code
        for index, code in enumerate(root):
            push(code)
            try:
                if index < wanted or code == also:
                    score = -self._negamax(depth - 1, -INFINITY, INFINITY, 1)
                else:
                    floor = best[-1]
                    score = -self._negamax(depth - 1, -floor - 1, -floor, 1)
                    if score > floor:
                        score = -self._negamax(depth - 1, -INFINITY, -floor, 1)
            finally:
                pop()
            scored.append((score, code))
            if index < wanted or score > best[-1]:
                best = sorted([*best, score], reverse=True)[:wanted]
        # Stable: among equal scores the earlier (exact) one stays in front.
        ranked = sorted(scored, key=lambda pair: -pair[0])
        self._store(game.hash, depth, _EXACT, ranked[0][0], ranked[0][1], 0)
        return ranked

    def _search_root(
        self,
        game: Game,
        root: list[int],
        depth: int,
        noise: int,
        jitter: dict[int, int],
    ) -> tuple[int, int, list[int]]:
        """One iteration at the root. Returns (best code, its score, root moves reordered)."""
        alpha = -INFINITY
        best_code = root[0]
        best_score = -INFINITY
        best_noisy = -INFINITY
        truly_best = root[0]  # without noise; the noisy choice is best_code
        scored: list[tuple[int, int]] = []
        push, pop = game.push_code, game.pop_code
        for index, code in enumerate(root):
            push(code)
            try:
                if index == 0:
                    score = -self._negamax(depth - 1, -INFINITY, INFINITY, 1)
                else:
                    # Moves that cannot come within the noise of the best are not of interest.
                    floor = alpha - 2 * noise if noise else alpha
                    score = -self._negamax(depth - 1, -floor - 1, -floor, 1)
                    if score > floor:
                        score = -self._negamax(depth - 1, -INFINITY, -floor, 1)
            except SearchTimeout:
                pop()
                # Keep what this iteration proved: a root move better than the first one.
                partial = (best_code, best_score) if index > 0 and best_score > -INFINITY else None
                raise SearchTimeout(partial) from None
            pop()
            scored.append((score, code))
            # No noise on a forced result: a win is taken by the shortest way.
            noisy = score + jitter[code] if noise and -MATE_BOUND < score < MATE_BOUND else score
            if noisy > best_noisy or index == 0:
                best_noisy = noisy
                best_code = code
                best_score = score
            if score > alpha:
                alpha = score
                truly_best = code
        # Next iteration: the truly best first, the rest by this iteration's scores (stable).
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        reordered = [truly_best] + [scored[i][1] for i in order if scored[i][1] != truly_best]
        self._store(game.hash, depth, _EXACT, alpha, truly_best, 0)
        return best_code, best_score, reordered

    # --- the tree -------------------------------------------------------------------------

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool = True) -> int:
        self.nodes += 1
        if self.nodes > self.node_limit or time.perf_counter() > self.deadline:
            raise SearchTimeout(None)
        game = self._game
        assert game is not None
        state = game.state
        if state is not _IN_PROGRESS:
            if state is _DRAW:
                # Contempt: the searching side treats a draw as bad for itself by
                # self.contempt, so it does not settle for a repetition it can avoid.
                return -self.contempt if ply & 1 == 0 else self.contempt
            winner = 0 if state is _WHITE_WINS else 1
            # The side to move won only when the opponent surrounded their own queen.
            return WIN - ply if winner == game.ply & 1 else ply - WIN

        if self.selective and game.repetitions() > 1:
            # A position met before (in this line or in the game): going round again gains
            # nothing, whatever the rules say of the third time; score it as a draw. This also
            # keeps the search out of cycles when it plays without the repetition rule, and
            # clear of a referee that tells positions apart less finely than panal (nokamute
            # ignores which piece moved last): counting only repetitions within the line, or a
            # third occurrence, let nokamute end 7 of 20 games as draws by its own rule
            # (docs/benchmarks.md, "draws by repetition").
            return -self.contempt if ply & 1 == 0 else self.contempt

        key = game.hash
        entry = self.table.get(key)
        table_move = PASS_CODE
        if entry is not None:
            entry_depth, flag, stored, table_move = entry
            if entry_depth >= depth:
                score = stored
                if stored > MATE_BOUND:
                    score -= ply
                elif stored < -MATE_BOUND:
                    score += ply
                if flag == _EXACT:
                    return score
                if flag == _LOWER and score >= beta:
                    return score
                if flag == _UPPER and score <= alpha:
                    return score

        if depth <= 0:
            cached = self.scores.get(key)
            if cached is None:
                cached = self.scores[key] = self.evaluate(game)
            if cached < beta and self.selective and self._surrounds_next(game, key):
                # The horizon's one exact fact: the side to move surrounds the enemy queen with
                # its next move. The static score cannot see it (it prices a queen with five
                # neighbours at about one piece), so a line that leaves a queen there for the
                # opponent to close looked playable one ply too long. (At or above beta the
                # leaf fails high either way.)
                return WIN - ply - 1
            return cached

        if self.selective and beta < MATE_BOUND and alpha > -MATE_BOUND:
            static = self.scores.get(key)
            if static is None:
                static = self.scores[key] = self.evaluate(game)
            # Reverse futility: far enough above beta near the horizon, the side to move
            # surely has a move that keeps it there. Not when its queen is beside five pieces:
            # the opponent may close the ring next, which the static score does not see.
            if (
                depth <= 2
                and static - FUTILITY_MARGINS[depth] >= beta
                and self._queen_neighbors(game) < 5
            ):
                return static
            # Null move: if passing still holds beta, a real move surely would. Not when our
            # queen is nearly surrounded: there a pass can hide a threat (zugzwang-like).
            if null_ok and depth >= 3 and static >= beta and 0 <= self._queen_neighbors(game) <= 3:
                game.push_code(PASS_CODE)
                try:
                    score = -self._negamax(
                        depth - 1 - NULL_REDUCTION, -beta, -beta + 1, ply + 1, False
                    )
                finally:
                    game.pop_code()
                if score >= beta:
                    # A win found after a pass is not proven for the real moves: a bound only.
                    return beta if score > MATE_BOUND else score

        codes = game.legal_move_codes()
        # Late-move pruning near the horizon: with a hundred moves and more, only the first few
        # quiet ones and every move around a queen are worth a look.
        prune_after = LATE_MOVE_LIMITS.get(depth, 0) if self.selective else 0
        tactical: set[int] = set()
        if len(codes) > 1:
            codes = self._order(game, codes, ply, table_move, tactical if prune_after else None)
        push, pop = game.push_code, game.pop_code
        original_alpha = alpha
        best_score = -INFINITY
        best_code = codes[0]
        reductions = self.selective and depth >= 3
        checks = self._checks(game, codes) if reductions else _EMPTY
        child_depth = depth - 1
        if self.selective and codes[0] == PASS_CODE and ply < MAX_PLY - 8:
            # A forced pass (the only legal move) costs no depth: against a side that can only
            # pass, the search sees as many of its own moves ahead as in an open position, and
            # a won position is won, not shuffled to the move limit.
            child_depth = depth
        for index, code in enumerate(codes):
            if (
                prune_after
                and index >= prune_after
                and code not in tactical
                and best_score > -MATE_BOUND
            ):
                # Only once a move that does not lose is in hand: when every move searched so
                # far loses, a skipped quiet move may be the only defence, and skipping it
                # would report a loss (a false mate for the other side) that is not there.
                continue
            push(code)
            try:
                if index == 0:
                    score = -self._negamax(child_depth, -beta, -alpha, ply + 1)
                else:
                    reduce = 1 if reductions and index >= 4 and code not in checks else 0
                    score = -self._negamax(child_depth - reduce, -alpha - 1, -alpha, ply + 1)
                    if score > alpha and reduce:
                        score = -self._negamax(child_depth, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._negamax(child_depth, -beta, -alpha, ply + 1)
            finally:
                pop()
            if score > best_score:
                best_score = score
                best_code = code
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        self._reward(code, ply, depth)
                        break

        if best_score <= original_alpha:
            flag = _UPPER
        elif best_score >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self._store(key, depth, flag, best_score, best_code, ply)
        return best_score

    # --- helpers --------------------------------------------------------------------------

    @staticmethod
    def _queen_neighbors(game: Game) -> int:
        """How many of the six cells around the side to move's queen are occupied; -1 while it
        is in hand."""
        cell = game.piece_cells[(game.ply & 1) << 4]
        if cell < 0:
            return -1
        stacks = game.stacks
        return sum(cell + step in stacks for step in NEIGHBOR_OFFSETS)

    def _surrounds_next(self, game: Game, key: int) -> bool:
        """The side to move can win at once: the enemy queen has one empty neighbour left, and
        a legal move fills it without surrounding its own queen too (a draw). Costs a move
        generation only where five of the six cells are occupied, once a position (kept by
        ``key``, its hash, as the static scores are)."""
        queen = game.piece_cells[((game.ply & 1) ^ 1) << 4]
        if queen < 0:
            return False
        stacks = game.stacks
        empty = -1
        for step in NEIGHBOR_OFFSETS:
            if queen + step not in stacks:
                if empty >= 0:
                    return False
                empty = queen + step
        if empty < 0:
            return False
        known = self.surrounds.get(key)
        if known is None:
            known = False
            win = _WHITE_WINS if game.ply & 1 == 0 else _BLACK_WINS
            # With one cell left, every filling move fills that one.
            for code in filling_moves(game):
                game.push_code(code)
                state = game.state
                game.pop_code()
                if state is win:
                    known = True
                    break
            self.surrounds[key] = known
        return known

    @staticmethod
    def _checks(game: Game, codes: list[int]) -> frozenset[int]:
        """Hive's checks: the moves that fill a cell beside the enemy queen when four or more
        of its neighbours are occupied already, so that one more fill may surround it.

        They are never reduced. With several fills beside a crowded queen, the history kept
        from earlier searches can order the one that threatens the surround fifth, and a
        reduced search of it cannot see the surround (docs/benchmarks.md, "A loss hidden by a
        reduction")."""
        queen = game.piece_cells[((game.ply & 1) ^ 1) << 4]
        if queen < 0:
            return _EMPTY
        stacks = game.stacks
        ring = [queen + step for step in NEIGHBOR_OFFSETS]
        if sum(cell in stacks for cell in ring) < 4:
            return _EMPTY
        return frozenset(code for code in codes if code >> 6 in ring)

    def _store(self, key: int, depth: int, flag: int, score: int, code: int, ply: int) -> None:
        # Mate scores are stored relative to this node so they stay true wherever it recurs.
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        old = self.table.get(key)
        if old is None or old[0] <= depth or flag == _EXACT:
            self.table[key] = (depth, flag, score, code)

    def _table_move(self, key: int) -> int:
        entry = self.table.get(key)
        return entry[3] if entry is not None else PASS_CODE

    def _reward(self, code: int, ply: int, depth: int) -> None:
        killers = self.killers[ply]
        if killers[0] != code:
            killers[1] = killers[0]
            killers[0] = code
        self.history[code] = self.history.get(code, 0) + depth * depth

    def _order(
        self,
        game: Game,
        codes: list[int],
        ply: int,
        table_move: int,
        tactical: set[int] | None = None,
    ) -> list[int]:
        """Most promising first: table move, killers, then a static and history score.

        The static score favours filling a cell beside the enemy queen (or climbing on it),
        freeing our own queen, and keeping attackers where they are. Moves that touch either
        queen's surroundings are added to ``tactical`` when it is given.
        """
        # The list it is: the compiled build then reads it directly.
        cells = cast("list[int]", game.piece_cells)
        color = game.ply & 1
        own_queen = cells[color << 4]
        enemy_queen = cells[(color ^ 1) << 4]
        own_ring = {own_queen + step for step in NEIGHBOR_OFFSETS} if own_queen >= 0 else _EMPTY
        enemy_ring = (
            {enemy_queen + step for step in NEIGHBOR_OFFSETS} if enemy_queen >= 0 else _EMPTY
        )
        history = self.history
        # Each move's score and code in one int that sorts as the pair (score, code) would:
        # sorting ints is several times faster than sorting tuples.
        keyed: list[int] = []
        # Most moves touch neither queen's surroundings: one test each for them.
        near = {*own_ring, *enemy_ring}
        if enemy_queen >= 0:
            near.add(enemy_queen)
        for code in codes:
            dest = code >> 6
            origin = cells[code & 31]
            score = history.get(code, 0)
            if origin < 0:
                score -= 1_000  # placements after movements of equal merit
            if dest in near or origin in near:
                near_queen = False  # the move touches either queen's surroundings
                if dest in enemy_ring:
                    score += 20_000
                    near_queen = True
                elif dest == enemy_queen:
                    score += 30_000
                    near_queen = True
                if origin in enemy_ring:
                    score -= 8_000
                    near_queen = True
                if origin in own_ring:
                    score += 6_000
                    near_queen = True
                if dest in own_ring:
                    score -= 4_000
                    near_queen = True
                if near_queen and tactical is not None:
                    tactical.add(code)
            keyed.append(score << _ORDER_SHIFT | code - PASS_CODE)
        keyed.sort(reverse=True)
        ordered = [(key & _ORDER_MASK) + PASS_CODE for key in keyed]
        # Killers, then the table move, go to the front when they are legal here.
        for first in (*self.killers[ply], table_move) if ply <= MAX_PLY else (table_move,):
            if first != PASS_CODE and first in codes:
                ordered.remove(first)
                ordered.insert(0, first)
        return ordered

    def _principal_variation(self, game: Game, first: int, limit: int = 12) -> list[int]:
        """The expected line, read back from the table."""
        line = [first]
        game.push_code(first)
        try:
            while len(line) < limit and not game.is_over():
                code = self._table_move(game.hash)
                if code == PASS_CODE and game.legal_move_codes() != [PASS_CODE]:
                    break
                if code not in game.legal_move_codes():
                    break
                line.append(code)
                game.push_code(code)
        finally:
            for _ in line:
                game.pop_code()
        return line
