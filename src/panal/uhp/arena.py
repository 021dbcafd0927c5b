"""Engine matches: two UHP engines play each other, refereed by panal's own rules.

Games come in pairs from the same opening with colours swapped, so neither engine profits from a
lucky opening. Openings are a few random placements (seeded, so a match can be replayed). Every
move an engine proposes is checked against :class:`~panal.hive.game.Game`; an illegal or
unreadable move, a crash or a timeout loses the game and is logged. Games longer than
``max_plies`` are adjudicated draws.

Two games run at once by default, each with its own pair of engine processes; only the engine to
move thinks, so at most two processes compute at any time: one per core of a 2-core machine.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

from panal.hive import Game, GameState, GameType, Termination
from panal.hive.codes import PASS_CODE
from panal.hive.records import write_pgn
from panal.uhp.client import EngineError, EngineTimeoutError, UhpClient

__all__ = [
    "ArenaSettings",
    "GameOutcome",
    "MatchSummary",
    "elo_interval",
    "make_openings",
    "play_match",
    "run_match",
]

_ENDINGS = {
    Termination.SURROUNDED: "queen surrounded",
    Termination.BOTH_SURROUNDED: "draw: both queens surrounded",
    Termination.REPETITION: "draw by repetition",
}

# bestmove gets this much beyond its budget before the engine is declared out of time.
TIMEOUT_FACTOR = 1.5
TIMEOUT_SLACK = 5.0
# A move later than budget +5% +50 ms is counted (reported), not punished.
LATE_FACTOR = 1.05
LATE_SLACK = 0.05


@dataclass
class ArenaSettings:
    engines: tuple[str, str]
    games: int = 2
    time_per_move: float | None = 1.0  # seconds; None when searching by depth
    depth: int | None = None
    game_type: str = "Base"
    concurrency: int = 2
    max_plies: int = 300
    opening_plies: int = 4
    seed: int = 0
    options: tuple[dict[str, str], dict[str, str]] = field(default_factory=lambda: ({}, {}))
    names: tuple[str, str] | None = None
    out: Path | None = None


@dataclass
class GameOutcome:
    index: int
    white: int  # 0 or 1: which engine had white
    result: str  # a GameState value: WhiteWins, BlackWins, Draw
    reason: str
    game_string: str
    plies: int
    termination: str = ""  # a Termination value, "" for an adjudicated draw
    late_moves: list[int] = field(default_factory=lambda: [0, 0])  # per engine
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # thinking, per engine
    moves_made: list[int] = field(default_factory=lambda: [0, 0])
    slowest: list[float] = field(default_factory=lambda: [0.0, 0.0])  # longest move, per engine

    def score_of(self, engine: int) -> float:
        """1 for a win of ``engine``, 0.5 for a draw, 0 for a loss."""
        if self.result == GameState.DRAW.value:
            return 0.5
        white_won = self.result == GameState.WHITE_WINS.value
        return 1.0 if white_won == (self.white == engine) else 0.0


@dataclass
class MatchSummary:
    names: tuple[str, str]
    games: int
    wins: int  # of the first engine
    draws: int
    losses: int
    score: float  # of the first engine, 0..1
    elo: float
    elo_low: float
    elo_high: float
    late_moves: tuple[int, int]
    average_move_seconds: tuple[float, float]
    slowest_move_seconds: tuple[float, float]
    illegal: list[str]
    outcomes: list[GameOutcome]

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data.pop("outcomes")
        data["results"] = [
            {
                "game": o.index,
                "white": self.names[o.white],
                "black": self.names[1 - o.white],
                "result": o.result,
                "reason": o.reason,
                "plies": o.plies,
            }
            for o in self.outcomes
        ]
        for key in ("elo", "elo_low", "elo_high"):
            value = data[key]
            if isinstance(value, float) and math.isinf(value):
                data[key] = "inf" if value > 0 else "-inf"
        return data

    def text(self) -> str:
        first, second = self.names
        lines = [
            f"{first} vs {second}: {self.games} games",
            f"  +{self.wins} ={self.draws} -{self.losses}  score {self.score:.1%}"
            f"  Elo {_signed(self.elo)} (95% {_signed(self.elo_low)} .. {_signed(self.elo_high)})",
            f"  average move time: {first} {self.average_move_seconds[0]:.2f} s, "
            f"{second} {self.average_move_seconds[1]:.2f} s; slowest "
            f"{self.slowest_move_seconds[0]:.2f} / {self.slowest_move_seconds[1]:.2f} s; "
            f"late (over +5% +50 ms) {self.late_moves[0]} / {self.late_moves[1]}",
        ]
        lines.extend(f"  illegal: {entry}" for entry in self.illegal)
        return "\n".join(lines)


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value + 0.0:+.0f}"


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """Elo difference implied by a score, and its 95% interval.

    The interval comes from the per-game score's standard error (normal approximation, draws
    counted as half points). A perfect or zero score has no spread, so its bounds come from the
    Wilson interval instead: the observed side is infinite, the other finite.
    """
    games = wins + draws + losses
    if games == 0:
        return 0.0, -math.inf, math.inf
    z = 1.959964
    score = (wins + 0.5 * draws) / games
    if score in (0.0, 1.0):
        centre = (score + z * z / (2 * games)) / (1 + z * z / games)
        half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games))
        half /= 1 + z * z / games
        low, high = (centre - half, 1.0) if score == 1.0 else (0.0, centre + half)
    else:
        variance = (
            wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2
        ) / games
        margin = z * math.sqrt(variance / games)
        low, high = score - margin, score + margin
    return _elo(score), _elo(low), _elo(high)


def _elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def make_openings(game_type: str, count: int, plies: int, seed: int) -> list[list[str]]:
    """``count`` distinct random openings of ``plies`` placements (tournament opening)."""
    rng = random.Random(seed)
    openings: list[list[str]] = []
    seen: set[int] = set()
    attempts = 0
    while len(openings) < count and attempts < count * 50:
        attempts += 1
        game = Game(game_type, tournament_opening=True)
        moves = []
        for _ in range(plies):
            codes = [c for c in sorted(game.legal_move_codes()) if c != PASS_CODE]
            # Keep the queens for the engines to place: openings should not decide the game.
            codes = [c for c in codes if c & 15 != 0] or codes
            if not codes:
                break
            code = rng.choice(codes)
            moves.append(game.move_string(code))
            game.push_code(code)
        if game.hash in seen and attempts < count * 10:
            continue
        seen.add(game.hash)
        openings.append(moves)
    return openings


class _Seat:
    """One engine process of a worker, restarted when it dies."""

    def __init__(self, command: str, options: dict[str, str], name: str) -> None:
        self.command = command
        self.options = options
        self.name = name
        self.engine: UhpClient | None = None

    async def ready(self) -> UhpClient:
        if self.engine is None or self.engine.closed:
            self.engine = await UhpClient.popen(self.command, name=self.name)
            for option, value in self.options.items():
                await self.engine.set_option(option, value)
        return self.engine

    async def close(self) -> None:
        if self.engine is not None:
            try:
                await self.engine.quit()
            except EngineError:
                await self.engine.kill()
            self.engine = None


async def _play_game(
    index: int,
    opening: list[str],
    white: int,
    seats: tuple[_Seat, _Seat],
    settings: ArenaSettings,
    log: Callable[[str], None],
) -> GameOutcome:
    game = Game(settings.game_type, tournament_opening=True)
    for text in opening:
        game.push(text)
    outcome = GameOutcome(index, white, GameState.DRAW.value, "", "", 0)
    names = (seats[0].name, seats[1].name)

    def forfeit(loser: int, reason: str, termination: Termination = Termination.FORFEIT) -> None:
        loser_is_white = loser == white
        outcome.result = (
            GameState.BLACK_WINS.value if loser_is_white else GameState.WHITE_WINS.value
        )
        outcome.reason = reason
        outcome.termination = termination.value
        log(f"game {index}: {names[loser]} ({'white' if loser_is_white else 'black'}) {reason}")

    engines: list[UhpClient | None] = [None, None]
    for seat_index in (0, 1):
        try:
            engine = await seats[seat_index].ready()
            await engine.newgame(game.game_string())
            engines[seat_index] = engine
        except EngineError as exc:
            forfeit(seat_index, f"failed to start the game: {exc}")
            await seats[seat_index].close()
            outcome.game_string = game.game_string()
            outcome.plies = game.ply
            return outcome

    budget = settings.time_per_move
    while not game.is_over():
        if game.ply >= settings.max_plies:
            outcome.result = GameState.DRAW.value
            outcome.reason = f"adjudicated draw after {settings.max_plies} plies"
            break
        mover = white if game.ply % 2 == 0 else 1 - white
        mover_engine = engines[mover]
        assert mover_engine is not None
        started = time.perf_counter()
        try:
            if settings.depth is not None:
                text = await mover_engine.bestmove(depth=settings.depth, timeout=None)
            else:
                assert budget is not None
                text = await mover_engine.bestmove(
                    time=budget, timeout=budget * TIMEOUT_FACTOR + TIMEOUT_SLACK
                )
        except EngineError as exc:
            lost_on_time = isinstance(exc, EngineTimeoutError)
            forfeit(
                mover,
                f"lost on an engine failure at ply {game.ply + 1}: {exc}",
                Termination.TIME if lost_on_time else Termination.FORFEIT,
            )
            await seats[mover].close()
            break
        spent = time.perf_counter() - started
        outcome.seconds[mover] += spent
        outcome.moves_made[mover] += 1
        outcome.slowest[mover] = max(outcome.slowest[mover], spent)
        if budget is not None and spent > budget * LATE_FACTOR + LATE_SLACK:
            outcome.late_moves[mover] += 1
        try:
            code = game.parse_move_code(text)
        except ValueError as exc:
            forfeit(mover, f"played an illegal move at ply {game.ply + 1}: {text!r} ({exc})")
            break
        canonical = game.move_string(code)
        game.push_code(code)
        failed = False
        for seat_index in (0, 1):
            try:
                await engines[seat_index].play(canonical)  # type: ignore[union-attr]
            except EngineError as exc:
                forfeit(seat_index, f"refused the legal move {canonical!r}: {exc}")
                await seats[seat_index].close()
                failed = True
                break
        if failed:
            break
    else:
        ending = game.outcome()
        assert ending is not None
        outcome.result = ending.result.value
        outcome.termination = ending.termination.value
        outcome.reason = _ENDINGS[ending.termination]
    outcome.game_string = game.game_string()
    outcome.plies = game.ply
    return outcome


async def play_match(
    settings: ArenaSettings,
    progress: Callable[[int, int, MatchSummary], None] | None = None,
    log: Callable[[str], None] | None = None,
) -> MatchSummary:
    """Play the whole match and summarise it from the first engine's point of view."""
    names = settings.names or settings.engines
    log = log or (lambda message: None)
    openings = make_openings(
        settings.game_type, (settings.games + 1) // 2, settings.opening_plies, settings.seed
    )
    schedule = [(i, openings[(i // 2) % len(openings)], i % 2) for i in range(settings.games)]
    outcomes: list[GameOutcome] = []
    illegal: list[str] = []

    def record(message: str) -> None:
        illegal.append(message)
        log(message)

    queue: asyncio.Queue[tuple[int, list[str], int]] = asyncio.Queue()
    for item in schedule:
        queue.put_nowait(item)

    async def worker() -> None:
        seats = (
            _Seat(settings.engines[0], settings.options[0], names[0]),
            _Seat(settings.engines[1], settings.options[1], names[1]),
        )
        try:
            while not queue.empty():
                index, opening, white = queue.get_nowait()
                outcome = await _play_game(index, opening, white, seats, settings, record)
                outcomes.append(outcome)
                if progress is not None:
                    progress(len(outcomes), settings.games, _summarise(names, outcomes, illegal))
        finally:
            for seat in seats:
                await seat.close()

    workers = max(1, min(settings.concurrency, settings.games))
    await asyncio.gather(*(worker() for _ in range(workers)))
    outcomes.sort(key=lambda o: o.index)
    summary = _summarise(names, outcomes, illegal)
    if settings.out is not None:
        write_results(settings, summary)
    return summary


def _summarise(
    names: Sequence[str], outcomes: list[GameOutcome], illegal: list[str]
) -> MatchSummary:
    wins = sum(1 for o in outcomes if o.score_of(0) == 1.0)
    draws = sum(1 for o in outcomes if o.score_of(0) == 0.5)
    losses = len(outcomes) - wins - draws
    elo, low, high = elo_interval(wins, draws, losses)
    moves = [sum(o.moves_made[e] for o in outcomes) for e in (0, 1)]
    seconds = [sum(o.seconds[e] for o in outcomes) for e in (0, 1)]
    return MatchSummary(
        names=(names[0], names[1]),
        games=len(outcomes),
        wins=wins,
        draws=draws,
        losses=losses,
        score=(wins + 0.5 * draws) / len(outcomes) if outcomes else 0.0,
        elo=elo,
        elo_low=low,
        elo_high=high,
        late_moves=(
            sum(o.late_moves[0] for o in outcomes),
            sum(o.late_moves[1] for o in outcomes),
        ),
        average_move_seconds=(
            seconds[0] / moves[0] if moves[0] else 0.0,
            seconds[1] / moves[1] if moves[1] else 0.0,
        ),
        slowest_move_seconds=(
            max((o.slowest[0] for o in outcomes), default=0.0),
            max((o.slowest[1] for o in outcomes), default=0.0),
        ),
        illegal=list(illegal),
        outcomes=list(outcomes),
    )


def write_results(settings: ArenaSettings, summary: MatchSummary) -> None:
    """``games.txt`` (GameStrings), ``games.pgn``, ``log.txt`` and ``summary.json`` in ``out``."""
    assert settings.out is not None
    out = settings.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "games.txt").write_text(
        "".join(o.game_string + "\n" for o in summary.outcomes), encoding="utf-8"
    )
    chunks = []
    for o in summary.outcomes:
        game = Game.from_game_string(o.game_string, tournament_opening=True)
        headers = {
            "Event": "panal arena",
            "Round": str(o.index + 1),
            "White": summary.names[o.white],
            "Black": summary.names[1 - o.white],
            "Result": o.result,
        }
        if o.termination:
            headers["Termination"] = o.termination
        chunks.append(write_pgn(game, headers))
    (out / "games.pgn").write_text("\n".join(chunks), encoding="utf-8")
    (out / "log.txt").write_text("".join(m + "\n" for m in summary.illegal), encoding="utf-8")
    (out / "summary.json").write_text(
        json.dumps(summary.to_json(), indent=2) + "\n", encoding="utf-8"
    )


def progress_bar(stream: TextIO | None = None) -> Callable[[int, int, MatchSummary], None]:
    """A one-line progress bar with the running score, redrawn on ``stream`` (stderr)."""
    out = stream or sys.stderr
    started = time.perf_counter()

    def draw(done: int, total: int, summary: MatchSummary) -> None:
        width = 30
        filled = width * done // max(total, 1)
        elapsed = time.perf_counter() - started
        line = (
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"
            f"  +{summary.wins} ={summary.draws} -{summary.losses}  {elapsed:.0f} s"
        )
        out.write(line + ("\n" if done == total else ""))
        out.flush()

    return draw


def run_match(
    settings: ArenaSettings, *, show_progress: bool = True, log: Callable[[str], None] | None = None
) -> MatchSummary:
    """Blocking :func:`play_match`."""
    GameType.parse(settings.game_type)  # fail early on a bad game type
    progress = progress_bar() if show_progress else None
    return asyncio.run(play_match(settings, progress, log))
