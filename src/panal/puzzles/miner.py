"""The puzzle miner: real games in, proven puzzles out, in the manner of lichess's generator.

Each game is replayed, and at each position from the sixth move on the miner asks the
:class:`~panal.puzzles.solver.Solver` (exact, every defence tried):

* ``surround`` puzzles: does the side to move force the enemy queen's surround in N of its
  moves (N = 1, 2, 3, the fewest), with exactly one first move doing it? The solution goes on
  with the opponent's answer that leaves the fewest winning replies (for N = 2), and every answer
  to the first move is stored with a reply that keeps the win;
* ``defence`` puzzles: the opponent would surround the side to move's queen next move if it
  passed, the side to move cannot win at once itself, and exactly one of its moves leaves the
  opponent no surround in one.

Which positions it asks about is a cost choice, written in :data:`STAGES`: a surround in N is
only looked for where at most N cells around the enemy queen are empty, a surround in three only
in a game's last plies, and every search has a node limit (a position past it is skipped, never
half-proven). Positions are deduplicated under the board's symmetries
(:func:`~panal.puzzles.symmetry.canonical_key`).

The miner runs the stages on each game in a fixed order and checkpoints after every game
(``found.jsonl`` and ``state.json`` in its work folder), so a run can stop and resume;
:func:`build` writes the shipped, deduplicated, sorted set. The same stages over the same corpus
give the same file.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from panal.hive import Game, GameState, Options
from panal.hive.codes import PASS_CODE
from panal.hive.errors import RecordError
from panal.hive.records import iter_records
from panal.puzzles.rating import initial_rating
from panal.puzzles.record import Puzzle, puzzle_id
from panal.puzzles.solver import NodeLimitReached, Solver, empty_queen_cells
from panal.puzzles.symmetry import canonical_key
from panal.puzzles.themes import find_themes

__all__ = [
    "CORPUS_FILES",
    "STAGES",
    "SourceGame",
    "Stage",
    "build",
    "examine",
    "iter_corpus",
    "mine",
    "self_play_games",
]

BGA_FILE = "alpha-hive-bga-uhp/bga_base_mlp_renumbered.uhp.txt"
CORPUS_FILES = (BGA_FILE, "mzinga-boardspace-sgf/*.sgf", "roach-boardspace-sgf/*.sgf")
"""The corpus files mined, in order (globs under the corpus folder)."""

SELF_PLAY_TYPES = (
    "Base",
    "Base+M",
    "Base+L",
    "Base+P",
    "Base+ML",
    "Base+MP",
    "Base+LP",
    "Base+D",
    "Base+MLPD",
)
"""Game types the corpus lacks (it holds Base+MLP, and Base from boardspace)."""


@dataclass(frozen=True)
class Stage:
    """What the miner asks at each position of each game."""

    name: str
    surround: tuple[int, ...]
    defence: bool
    before_end: int | None = None
    node_limit: int = 20_000


STAGES = (
    Stage("one", surround=(1,), defence=True),
    Stage("two", surround=(2,), defence=False),
    Stage("three", surround=(3,), defence=False, before_end=5, node_limit=50_000),
)
"""The stages, cheapest first: surrounds in one and defences; in two; in three (only five plies
before a game's end, where the winner's third-last move was: a surround in three is costly to
look for)."""

FIRST_PLY = 6
_WIN_STATE = (GameState.WHITE_WINS, GameState.BLACK_WINS)


@dataclass(frozen=True)
class SourceGame:
    """A game to mine: where it comes from and its moves."""

    file: str
    game: int
    game_type: str
    options: Options
    moves: tuple[str, ...]


def iter_corpus(root: Path) -> Iterator[SourceGame]:
    """Every game of the corpus folder, files in :data:`CORPUS_FILES` order. A file stops at
    the first record panal cannot read (the corpus's two Hive-Ultimate games, a variant with
    other pieces, are each a file of their own)."""
    for pattern in CORPUS_FILES:
        for path in sorted(root.glob(pattern)):
            relative = path.relative_to(root).as_posix()
            records = iter_records(path)
            index = 0
            while True:
                try:
                    record = next(records)
                except (StopIteration, RecordError):
                    break
                index += 1
                yield SourceGame(
                    relative, index, str(record.game_type), record.options, tuple(record.moves)
                )


def self_play_games(per_type: int) -> Iterator[SourceGame]:
    """Engine games (``panal.ai`` at level ``beginner``, seeded, so the same every run) for each of
    :data:`SELF_PLAY_TYPES`, up to 120 plies each."""
    from panal.ai import choose_move

    for game_type in SELF_PLAY_TYPES:
        for seed in range(1, per_type + 1):
            game = Game(game_type)
            while not game.is_over() and game.ply < 120:
                game.push(choose_move(game, "beginner", seed=seed * 1000 + game.ply))
            yield SourceGame("self-play", seed, game_type, game.options, tuple(game.move_strings()))


def _source(game: SourceGame, ply: int) -> dict[str, Any]:
    return {"file": game.file, "game": game.game, "ply": ply}


def _make(
    game: Game,
    kind: str,
    moves: int,
    line: list[int],
    replies: dict[str, str],
    choices: int,
    source: dict[str, Any],
) -> Puzzle:
    texts = []
    replay = game.copy()
    for code in line:
        texts.append(replay.move_string(code))
        replay.push_code(code)
    return Puzzle(
        id=puzzle_id(canonical_key(game)),
        kind=kind,
        moves=moves,
        game_type=str(game.game_type),
        position=game.game_string(),
        solution=tuple(texts),
        themes=tuple(find_themes(game, line, kind)),
        source=source,
        rating=initial_rating(kind, moves, choices),
        choices=choices,
        options=dict(game.options.changed()),
        replies=replies,
    )


def _surround(game: Game, moves: int, node_limit: int, source: dict[str, Any]) -> Puzzle | None:
    """A surround-in-``moves`` puzzle at ``game`` (already known not to be shorter), or None."""
    solver = Solver(game, node_limit=node_limit)
    if not solver.wins_within(moves):
        return None
    winning = solver.winning_moves(moves)
    if len(winning) != 1:
        return None
    (first,) = winning
    line = [first]
    replies: dict[str, str] = {}
    if moves > 1:
        solver.push(first)
        best: tuple[int, int, int] | None = None
        for reply in solver.game.legal_move_codes():
            solver.push(reply)
            if solver.game.is_over():  # the opponent surrounded its own queen
                solver.pop()
                continue
            answers = solver.winning_moves(moves - 1) if moves == 2 else []
            answer = answers[0] if answers else solver.first_winning_move(moves - 1)
            solver.pop()
            if answer is None:
                raise AssertionError("a proven win has a refutation")  # a solver defect
            replies[solver.game.move_string(reply)] = _answer_string(solver, reply, answer)
            count = len(answers) if answers else 1
            if best is None or count < best[0]:
                best = (count, reply, answer)
        solver.pop()
        if best is not None:
            line += [best[1], best[2]]
    return _make(game, "surround", moves, line, replies, len(game.legal_move_codes()), source)


def _answer_string(solver: Solver, reply: int, answer: int) -> str:
    solver.push(reply)
    try:
        return solver.game.move_string(answer)
    finally:
        solver.pop()


def _defence(game: Game, node_limit: int, source: dict[str, Any]) -> Puzzle | None:
    """A defence puzzle: the opponent threatens a surround in one; exactly one move stops it."""
    defender = game.ply & 1
    if len(empty_queen_cells(game, defender)) > 2:
        return None
    solver = Solver(game, node_limit=node_limit)
    solver.push(PASS_CODE)  # what would the opponent do if we did nothing? (a question only)
    threatened = solver.wins_within(1)
    solver.pop()
    if not threatened:
        return None
    codes = game.legal_move_codes()
    saving = [code for code in codes if code != PASS_CODE and solver.defends_after(code, 1)]
    if len(saving) != 1:
        return None
    return _make(game, "defence", 1, saving, {}, len(codes), source)


def examine(game: Game, stage: Stage, source: dict[str, Any]) -> list[Puzzle]:
    """The puzzles ``stage`` finds at this position (none, one surround, or one defence)."""
    if game.is_over():
        return []
    attacker = game.ply & 1
    empty = len(empty_queen_cells(game, attacker ^ 1))
    for moves in stage.surround:
        if empty > moves:
            continue
        try:
            if moves > 1 and Solver(game, node_limit=stage.node_limit).wins_within(moves - 1):
                return []  # a shorter win: found at its own length
            puzzle = _surround(game, moves, stage.node_limit, source)
        except NodeLimitReached:
            return []
        if puzzle is not None:
            return [puzzle]
    if stage.defence and len(empty_queen_cells(game, attacker)) <= 2:
        try:
            if Solver(game, node_limit=stage.node_limit).wins_within(1):
                return []
            puzzle = _defence(game, stage.node_limit, source)
        except NodeLimitReached:
            return []
        if puzzle is not None:
            return [puzzle]
    return []


def mine_game(source: SourceGame, stage: Stage) -> list[Puzzle]:
    """Every puzzle ``stage`` finds in one game."""
    game = Game(source.game_type, options=source.options)
    found = []
    only = None if stage.before_end is None else len(source.moves) - stage.before_end
    if only is not None and not _won_by(source, only & 1):
        return []  # a drawn or resigned game, or one the other side won: nothing to find there
    for ply, text in enumerate(source.moves):
        if ply >= FIRST_PLY and (only is None or ply == only):
            found += examine(game, stage, _source(source, ply))
        game.push(text, lenient=True)
    return found


def _won_by(source: SourceGame, color: int) -> bool:
    """Whether the game ended with ``color`` surrounding the enemy queen."""
    game = Game(source.game_type, options=source.options)
    for text in source.moves:
        game.push(text, lenient=True)
    return game.state is _WIN_STATE[color]


class _Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, stream: TextIO, label: str, total: int | None) -> None:
        self.stream, self.label, self.total = stream, label, total
        self.start = time.monotonic()

    def show(self, done: int, found: int) -> None:
        elapsed = time.monotonic() - self.start
        of = f"/{self.total}" if self.total else ""
        self.stream.write(f"\r{self.label}: {done}{of} games, {found} puzzles, {elapsed:,.0f} s   ")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")


def mine(
    corpus: Path,
    work: Path,
    *,
    stages: tuple[Stage, ...] = STAGES[:2],
    games: int | None = None,
    self_play: int = 0,
    progress: TextIO | None = sys.stderr,
    deadline: float | None = None,
) -> int:
    """Run ``stages`` on each of the first ``games`` corpus games (all when None), then on
    ``self_play`` engine games per missing game type, resuming from ``work``'s checkpoint (the
    games done so far). Stops cleanly at ``deadline`` (``time.monotonic()`` seconds). Returns
    the puzzles found in this run."""
    work.mkdir(parents=True, exist_ok=True)
    state_path = work / "state.json"
    state: dict[str, int] = json.loads(state_path.read_text()) if state_path.exists() else {}
    found_total = 0
    # The checkpoint counts the games done per source and set of stages.
    names = "+".join(stage.name for stage in stages)
    sources: list[tuple[str, Callable[[], Iterator[SourceGame]], int | None]] = [
        (f"corpus:{names}", lambda: iter_corpus(corpus), games)
    ]
    if self_play:
        sources.append((f"self-play:{names}", lambda: self_play_games(self_play), None))
    with (work / "found.jsonl").open("a", encoding="utf-8") as out:
        for key, make, limit in sources:
            done = state.get(key, 0)
            bar = _Progress(progress, key, limit) if progress else None
            for index, source in enumerate(make()):
                if limit is not None and index >= limit:
                    break
                if index < done:
                    continue
                if deadline is not None and time.monotonic() > deadline:
                    if bar:
                        bar.close()
                    return found_total
                for stage in stages:
                    for puzzle in mine_game(source, stage):
                        out.write(json.dumps(puzzle.to_json(), sort_keys=True) + "\n")
                        found_total += 1
                out.flush()
                state[key] = index + 1
                state_path.write_text(json.dumps(state, sort_keys=True))
                if bar:
                    bar.show(index + 1, found_total)
            if bar:
                bar.close()
    return found_total


def build(work: Path, out: Path) -> dict[str, int]:
    """Write the shipped set from ``work``'s findings: one puzzle per symmetric position (the
    first found), sorted by id, gzipped JSON lines. Returns the count by kind and length."""
    chosen: dict[str, dict[str, Any]] = {}
    with (work / "found.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            data = json.loads(line)
            chosen.setdefault(data["id"], data)
    out.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    # No file name and mtime=0 in the gzip header: the same puzzles give the same bytes.
    with out.open("wb") as file, gzip.GzipFile("", "wb", fileobj=file, mtime=0) as raw:
        for key in sorted(chosen):
            data = chosen[key]
            raw.write((json.dumps(data, sort_keys=True) + "\n").encode("utf-8"))
            label = f"{data['kind']} in {data['moves']}"
            counts[label] = counts.get(label, 0) + 1
    return counts
