"""Matches between panal and any UHP engine, refereed move by move, for the AI strength figures.

    PYTHONPATH=src python3 benchmarks/ai_ladder.py \\
        --engine "../shared/engines/nokamute uhp --num-threads=1" --go "bestmove depth 4" \\
        --player-go "bestmove time 00:00:01" --game-type Base+MLP --games 100 --jobs 16 \\
        --out results/strongest-vs-nokamute-d4
    PYTHONPATH=src python3 benchmarks/ai_ladder.py combine results/run1 results/run2

It needs only Python 3.11+ and this checkout (``PYTHONPATH=src``): the standard library plus
panal's rules engine, which referees. Each game:

* starts from a random two-ply opening (tournament opening: no queen on the first turn); every
  opening is played twice, colours swapped, so neither side profits from a lucky opening;
* runs its own two engine processes (``--jobs`` games at a time, each engine thinking only on
  its own turn), restarted after a crash;
* is refereed by panal's rules in this process, independent of the engine processes that play:
  every move is checked before it is passed on, an illegal or unreadable move, a crash or a time
  overrun loses the game, and the state each engine reports after each move (the GameString of its
  ``play`` reply) is compared with the referee's. Every disagreement is reported. An optional third
  engine (``--referee CMD``) replays every move as well, and its refusals and states are compared
  too;
* ends when the referee says so (queen surrounded, both surrounded, draw by repetition under the
  referee's rule), or as a draw after ``--max-plies``, or as a draw when an engine declares the
  game over by its own rules while the referee does not (it could not be asked to move again:
  nokamute crashes on ``bestmove`` in a finished game), reported as a disagreement.

Engines that have panal's ``RepetitionDraw`` option get the referee's rule (``--repetition``), so
panal plays under the rules the match is refereed by.

The summary gives wins/draws/losses of the player (``--player``, by default ``panal uhp`` at
``Level=strongest``), its score and the Elo difference with its 95% interval; ``--out`` keeps
``games.txt`` (GameStrings), ``games.pgn``, ``games.jsonl`` (one finished game a line, written as
games finish), ``summary.json``, ``summary.txt`` and ``log.txt``. ``--deadline S`` starts no game
after S seconds and abandons (reports, does not count) games still running at ``--hard-deadline``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from panal.hive import Game, GameState, GameType
from panal.uhp.arena import elo_interval

DEFAULT_PLAYER = f"{sys.executable} -m panal.cli uhp"
# bestmove time: later than budget x1.5 + 5 s loses on time; later than +5% +50 ms is late.
TIMEOUT_FACTOR = 1.5
TIMEOUT_SLACK = 5.0
LATE_FACTOR = 1.05
LATE_SLACK = 0.05
COMMAND_TIMEOUT = 60.0  # any command other than bestmove
FINISHED = {GameState.DRAW.value, GameState.WHITE_WINS.value, GameState.BLACK_WINS.value}


class EngineFailure(Exception):
    """The engine died, stopped answering, or answered with an error."""


_RUNNING: set[Engine] = set()  # every started engine, killed if the match is interrupted


class Engine:
    """One UHP engine process, spoken to line by line with timeouts."""

    def __init__(self, command: str, name: str) -> None:
        self.command = command
        self.name = name
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.option_names: set[str] = set()

    def start(self) -> None:
        self.process = subprocess.Popen(
            shlex.split(self.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        _RUNNING.add(self)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()
        self._reply(COMMAND_TIMEOUT)  # the id banner, ended by ok
        self.option_names = {line.split(";")[0] for line in self.send("options")}

    @staticmethod
    def _read(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\r\n"))
        lines.put(None)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, command: str, timeout: float = COMMAND_TIMEOUT) -> list[str]:
        """The reply lines before ``ok``; EngineFailure on death, timeout or ``err``."""
        if not self.alive:
            raise EngineFailure("the engine is not running")
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except OSError as exc:
            raise EngineFailure(f"the engine closed its input ({exc})") from None
        reply = self._reply(timeout)
        if reply and reply[0].startswith("err"):
            raise EngineFailure(f"{command!r} answered {reply[0]!r}")
        return reply

    def _reply(self, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        out: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise EngineFailure(f"no answer within {timeout:.1f} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                code = self.process.wait() if self.process else None
                raise EngineFailure(f"the engine exited (code {code})")
            if line.strip() == "ok":
                return out
            out.append(line)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        _RUNNING.discard(self)

    def close(self) -> None:
        if self.alive:
            assert self.process is not None and self.process.stdin is not None
            try:
                self.process.stdin.write("exit\n")
                self.process.stdin.flush()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


@dataclass(frozen=True)
class Side:
    """An engine as it plays in a match: command, how it is asked to move, options, name."""

    command: str
    go: str
    options: tuple[tuple[str, str], ...]
    name: str

    def move_timeout(self, fallback: float) -> tuple[float | None, float]:
        """(time budget or None, seconds after which the move is lost on time)."""
        words = self.go.split()
        if len(words) == 3 and words[1] == "time":
            hours, minutes, seconds = words[2].split(":")
            budget = int(hours) * 3600 + int(minutes) * 60 + float(seconds)
            return budget, budget * TIMEOUT_FACTOR + TIMEOUT_SLACK
        return None, fallback


@dataclass
class Settings:
    player: Side
    opponent: Side
    game_type: str = "Base+MLP"
    games: int = 2
    first: int = 0  # the first game's number: a match continued in pieces plays the same games
    jobs: int = 2
    seed: int = 1
    opening_plies: int = 2
    max_plies: int = 300
    repetition: bool = True
    referee: str | None = None
    move_timeout: float = 600.0
    deadline: float | None = None
    hard_deadline: float | None = None
    out: Path | None = None

    @property
    def to_play(self) -> int:
        """The games this run plays: from game ``first`` to the seed's ``games``."""
        return self.games - self.first


@dataclass
class Disagreement:
    game: int
    ply: int
    who: str
    says: str
    referee: str


@dataclass
class Outcome:
    game: int
    opening: list[str]
    player_white: bool
    result: str  # a GameState value
    reason: str
    plies: int
    game_string: str
    seconds: dict[str, float] = field(default_factory=dict)  # thinking time by side
    moves: dict[str, int] = field(default_factory=dict)
    late: dict[str, int] = field(default_factory=dict)
    slowest: dict[str, float] = field(default_factory=dict)

    @property
    def player_score(self) -> float:
        if self.result == GameState.DRAW.value:
            return 0.5
        return 1.0 if (self.result == GameState.WHITE_WINS.value) == self.player_white else 0.0


def make_openings(game_type: str, count: int, seed: int, plies: int = 2) -> list[list[str]]:
    """``count`` random openings of ``plies`` plies (at least two), the first pieces spread evenly.

    Every pair (white's first bug, black's first bug) comes once before any comes twice; the
    direction of the second piece is random (all six are the same position turned). Plies after
    the second are random legal moves: more openings than the few two-ply ones, for engines that
    play the same game from the same position.
    """
    rng = random.Random(seed)
    later = random.Random(f"{seed} later plies")  # the two-ply openings stay those of the seed
    start = Game(game_type, tournament_opening=True)
    firsts = sorted(start.move_string(code) for code in start.legal_move_codes())
    pairs = [(w, b) for w in firsts for b in range(len(firsts))]
    openings: list[list[str]] = []
    while len(openings) < count:
        rng.shuffle(pairs)
        for white, black_index in pairs[: count - len(openings)]:
            game = Game(game_type, tournament_opening=True)
            game.push(white)
            replies = sorted(game.legal_move_codes())
            black_bug = firsts[black_index][1]
            choices = [c for c in replies if game.move_string(c)[1] == black_bug]
            code = rng.choice(choices)
            opening = [white, game.move_string(code)]
            game.push_code(code)
            while len(opening) < plies and not game.is_over():
                code = later.choice(sorted(game.legal_move_codes()))
                opening.append(game.move_string(code))
                game.push_code(code)
            openings.append(opening)
    return openings


def _state_of(reply: list[str]) -> str | None:
    """The state field of a GameString reply, or None when the reply is not one."""
    if not reply or reply[0].startswith(("err", "invalidmove")):
        return None
    fields = reply[0].split(";")
    return fields[1] if len(fields) > 1 else None


class Match:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self.outcomes: list[Outcome] = []
        self.disagreements: list[Disagreement] = []
        self.log_lines: list[str] = []
        self.abandoned: list[int] = []
        self.stop = threading.Event()

    # --- bookkeeping ----------------------------------------------------------------------

    def log(self, message: str) -> None:
        with self.lock:
            self.log_lines.append(message)
        print(message, file=sys.stderr, flush=True)

    def disagree(self, game: int, ply: int, who: str, says: str, referee: str) -> None:
        with self.lock:
            self.disagreements.append(Disagreement(game, ply, who, says, referee))
        self.log(f"game {game} ply {ply}: {who} says {says}; referee: {referee}")

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def past_hard_deadline(self) -> bool:
        hard = self.settings.hard_deadline
        return hard is not None and self.elapsed() > hard

    # --- engines --------------------------------------------------------------------------

    def _ready(self, engine: Engine, side: Side | None) -> Engine:
        if not engine.alive:
            engine.start()
            for name, value in side.options if side else ():
                engine.send(f"options set {name} {value}")
            if "RepetitionDraw" in engine.option_names:
                engine.send(f"options set RepetitionDraw {self.settings.repetition}")
        return engine

    # --- one game -------------------------------------------------------------------------

    def play_game(
        self, index: int, opening: list[str], player_white: bool, engines: dict[str, Engine]
    ) -> Outcome | None:
        settings = self.settings
        sides = {"player": settings.player, "opponent": settings.opponent}
        referee = Game(
            settings.game_type, tournament_opening=True, repetition_draw=settings.repetition
        )
        for move in opening:
            referee.push(move)
        outcome = Outcome(index, opening, player_white, GameState.DRAW.value, "", 0, "")
        for role in sides:
            outcome.seconds[role] = 0.0
            outcome.moves[role] = outcome.late[role] = 0
            outcome.slowest[role] = 0.0
        names = {role: side.name for role, side in sides.items()}

        def lose(role: str, reason: str) -> None:
            role_white = player_white == (role == "player")
            outcome.result = (
                GameState.BLACK_WINS.value if role_white else GameState.WHITE_WINS.value
            )
            outcome.reason = f"{names[role]} {reason}"
            self.log(f"game {index}: {outcome.reason}")

        def finish() -> Outcome:
            outcome.game_string = referee.game_string()
            outcome.plies = referee.ply
            return outcome

        watchers = [role for role in ("referee",) if role in engines]
        for role in (*sides, *watchers):
            try:
                engine = self._ready(engines[role], sides.get(role))
                reply = engine.send(f"newgame {referee.game_string()}")
            except EngineFailure as exc:
                engines[role].kill()
                if role == "referee":
                    self.log(f"game {index}: the referee engine failed to start: {exc}")
                    watchers.remove(role)
                    continue
                lose(role, f"failed to start the game: {exc}")
                return finish()
            self._compare(index, referee, role, reply, engines[role].name)

        while not referee.is_over():
            if self.past_hard_deadline():
                return None
            if referee.ply >= settings.max_plies:
                outcome.reason = f"adjudicated draw after {settings.max_plies} plies"
                return finish()
            role = "player" if (referee.ply % 2 == 0) == player_white else "opponent"
            side = sides[role]
            engine = engines[role]
            budget, timeout = side.move_timeout(settings.move_timeout)
            started = time.perf_counter()
            try:
                reply = engine.send(side.go, timeout=timeout)
            except EngineFailure as exc:
                engine.kill()
                if "game is over" in str(exc):
                    self.disagree(index, referee.ply + 1, names[role], str(exc), "in progress")
                lose(role, f"failed to move at ply {referee.ply + 1}: {exc}")
                return finish()
            spent = time.perf_counter() - started
            outcome.seconds[role] += spent
            outcome.moves[role] += 1
            outcome.slowest[role] = max(outcome.slowest[role], spent)
            if budget is not None and spent > budget * LATE_FACTOR + LATE_SLACK:
                outcome.late[role] += 1
            text = reply[0].strip() if reply else ""
            try:
                code = referee.parse_move_code(text)
            except ValueError as exc:
                lose(role, f"played an illegal move at ply {referee.ply + 1}: {text!r} ({exc})")
                return finish()
            canonical = referee.move_string(code)
            referee.push_code(code)
            claims: list[tuple[str, str]] = []
            for other in (*sides, *watchers):
                try:
                    reply = engines[other].send(f"play {canonical}")
                except EngineFailure as exc:
                    engines[other].kill()
                    if other == "referee":
                        self.disagree(index, referee.ply, "referee engine", str(exc), "legal")
                        watchers.remove(other)
                        continue
                    lose(other, f"refused the legal move {canonical!r}: {exc}")
                    return finish()
                if reply and reply[0].startswith("invalidmove"):
                    if other == "referee":
                        self.disagree(index, referee.ply, "referee engine", reply[0], "legal")
                        engines[other].kill()
                        watchers.remove(other)
                        continue
                    lose(other, f"refused the legal move {canonical!r}: {reply[0]}")
                    return finish()
                state = self._compare(index, referee, other, reply, engines[other].name)
                if other != "referee" and state in FINISHED and not referee.is_over():
                    claims.append((other, state))
            if claims:
                # The referee plays on but an engine considers the game over: it cannot be asked
                # for a move any more. The game is adjudicated a draw.
                who = ", ".join(f"{names[r]} ({state})" for r, state in claims)
                outcome.reason = f"adjudicated draw at ply {referee.ply}: {who} ended the game"
                return finish()

        outcome.result = referee.state.value
        if referee.state is GameState.DRAW:
            surrounded = "both queens surrounded" if self._both_surrounded(referee) else None
            outcome.reason = surrounded or "draw by repetition"
        else:
            outcome.reason = "queen surrounded"
        return finish()

    @staticmethod
    def _both_surrounded(game: Game) -> bool:
        from panal.hive import Color

        return game.surrounding(Color.WHITE) == 6 and game.surrounding(Color.BLACK) == 6

    def _compare(self, index: int, referee: Game, role: str, reply: list[str], name: str) -> str:
        state = _state_of(reply)
        expected = referee.state.value
        if state is not None and state != expected:
            self.disagree(index, referee.ply, name, state, expected)
        return state or ""

    # --- the match ------------------------------------------------------------------------

    def run(self) -> None:
        settings = self.settings
        openings = make_openings(
            settings.game_type, (settings.games + 1) // 2, settings.seed, settings.opening_plies
        )
        todo: queue.Queue[tuple[int, list[str], bool]] = queue.Queue()
        for index in range(settings.first, settings.games):
            todo.put((index, openings[index // 2], index % 2 == 0))

        def worker() -> None:
            engines = {
                "player": Engine(settings.player.command, settings.player.name),
                "opponent": Engine(settings.opponent.command, settings.opponent.name),
            }
            if settings.referee:
                engines["referee"] = Engine(settings.referee, "referee engine")
            try:
                while not self.stop.is_set():
                    if settings.deadline is not None and self.elapsed() > settings.deadline:
                        break
                    try:
                        index, opening, player_white = todo.get_nowait()
                    except queue.Empty:
                        break
                    outcome = self.play_game(index, opening, player_white, engines)
                    if outcome is None or self.stop.is_set():
                        # Abandoned at the hard deadline, or interrupted: the interrupt kills
                        # the engines under a running game, which must not count as a loss.
                        with self.lock:
                            self.abandoned.append(index)
                        break
                    self._record(outcome)
            finally:
                for engine in engines.values():
                    engine.close()

        threads = [
            threading.Thread(target=worker, daemon=True)
            for _ in range(max(1, min(settings.jobs, settings.games)))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.outcomes.sort(key=lambda o: o.game)

    def _record(self, outcome: Outcome) -> None:
        with self.lock:
            self.outcomes.append(outcome)
            done = len(self.outcomes)
            wins = sum(o.player_score == 1.0 for o in self.outcomes)
            draws = sum(o.player_score == 0.5 for o in self.outcomes)
            if self.settings.out is not None:
                self.settings.out.mkdir(parents=True, exist_ok=True)
                with (self.settings.out / "games.jsonl").open("a", encoding="utf-8") as stream:
                    stream.write(json.dumps(asdict(outcome)) + "\n")
        colour = "white" if outcome.player_white else "black"
        print(
            f"[{done}/{self.settings.to_play}] game {outcome.game} ({self.settings.player.name} "
            f"{colour}): {outcome.result} in {outcome.plies} plies, {outcome.reason}"
            f"  | +{wins} ={draws} -{done - wins - draws}  {self.elapsed():.0f} s",
            file=sys.stderr,
            flush=True,
        )

    # --- results --------------------------------------------------------------------------

    def summary(self) -> dict[str, object]:
        outcomes = self.outcomes
        wins = sum(o.player_score == 1.0 for o in outcomes)
        draws = sum(o.player_score == 0.5 for o in outcomes)
        losses = len(outcomes) - wins - draws
        elo, low, high = elo_interval(wins, draws, losses)

        def per_move(role: str) -> float:
            moves = sum(o.moves[role] for o in outcomes)
            return sum(o.seconds[role] for o in outcomes) / moves if moves else 0.0

        settings = self.settings
        return {
            "player": settings.player.name,
            "opponent": settings.opponent.name,
            "player_go": settings.player.go,
            "opponent_go": settings.opponent.go,
            "game_type": settings.game_type,
            "repetition_draw": settings.repetition,
            "games": len(outcomes),
            "abandoned": len(self.abandoned),
            "not_started": settings.to_play - len(outcomes) - len(self.abandoned),
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "score": (wins + 0.5 * draws) / len(outcomes) if outcomes else 0.0,
            "elo": _finite(elo),
            "elo_low": _finite(low),
            "elo_high": _finite(high),
            "player_wins_as_white": sum(o.player_score == 1.0 and o.player_white for o in outcomes),
            "average_plies": sum(o.plies for o in outcomes) / len(outcomes) if outcomes else 0,
            "seconds_per_move": {"player": per_move("player"), "opponent": per_move("opponent")},
            "slowest_move": {
                role: max((o.slowest[role] for o in outcomes), default=0.0)
                for role in ("player", "opponent")
            },
            "late_moves": {
                role: sum(o.late[role] for o in outcomes) for role in ("player", "opponent")
            },
            "disagreements": [asdict(d) for d in self.disagreements],
            "reasons": _count(o.reason.split(" at ply")[0] for o in outcomes),
            "wall_seconds": round(self.elapsed(), 1),
            "machine": f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}",
            "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        }

    def text(self) -> str:
        s = self.summary()
        lines = [
            f"{s['player']} ({s['player_go']}) vs {s['opponent']} ({s['opponent_go']}), "
            f"{s['game_type']}: {s['games']} games"
            + (f" ({s['abandoned']} abandoned at the deadline)" if s["abandoned"] else "")
            + (f" ({s['not_started']} not started by the deadline)" if s["not_started"] else ""),
            f"  +{s['wins']} ={s['draws']} -{s['losses']}  score {s['score']:.1%}  "
            f"Elo {_signed(s['elo'])} (95% {_signed(s['elo_low'])} .. {_signed(s['elo_high'])})",
            f"  seconds a move: player {s['seconds_per_move']['player']:.2f}, "  # type: ignore[index]
            f"opponent {s['seconds_per_move']['opponent']:.2f}; late moves "  # type: ignore[index]
            f"{s['late_moves']['player']} / {s['late_moves']['opponent']}; "  # type: ignore[index]
            f"{s['average_plies']:.0f} plies a game; {s['wall_seconds']} s",
            f"  endings: {s['reasons']}",
            f"  disagreements with the referee: {len(s['disagreements'])}",  # type: ignore[arg-type]
        ]
        for d in self.disagreements:
            lines.append(
                f"    game {d.game} ply {d.ply}: {d.who} says {d.says}, referee {d.referee}"
            )
        return "\n".join(lines)

    def write(self) -> None:
        out = self.settings.out
        if out is None:
            return
        out.mkdir(parents=True, exist_ok=True)
        (out / "games.txt").write_text(
            "".join(o.game_string + "\n" for o in self.outcomes), encoding="utf-8"
        )
        (out / "log.txt").write_text("".join(m + "\n" for m in self.log_lines), encoding="utf-8")
        (out / "summary.json").write_text(
            json.dumps(self.summary(), indent=2) + "\n", encoding="utf-8"
        )
        (out / "summary.txt").write_text(self.text() + "\n", encoding="utf-8")
        try:
            (out / "games.pgn").write_text(self._pgn(), encoding="utf-8")
        except Exception as exc:  # the PGN is a convenience; the GameStrings are kept anyway
            print(f"games.pgn not written: {exc}", file=sys.stderr)

    def _pgn(self) -> str:
        from panal.hive.records import write_pgn

        chunks = []
        for o in self.outcomes:
            game = Game.from_game_string(
                o.game_string, tournament_opening=True, repetition_draw=self.settings.repetition
            )
            player, opponent = self.settings.player.name, self.settings.opponent.name
            headers = {
                "Event": "panal ladder",
                "Round": str(o.game + 1),
                "White": player if o.player_white else opponent,
                "Black": opponent if o.player_white else player,
                "Result": o.result,
                "Termination": o.reason,
            }
            chunks.append(write_pgn(game, headers))
        return "\n".join(chunks)


def _finite(value: float) -> float | str:
    return ("inf" if value > 0 else "-inf") if math.isinf(value) else round(value, 1)


def _signed(value: object) -> str:
    if isinstance(value, str):
        return "+inf" if value == "inf" else value
    return f"{float(value) + 0.0:+.0f}"  # type: ignore[arg-type]


def _count(items: object) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:  # type: ignore[attr-defined]
        counts[item] = counts.get(item, 0) + 1
    return counts


def _options(values: list[str]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for value in values:
        if not value:
            continue  # --player-option "" clears the default
        name, sep, setting = value.partition("=")
        if not sep or not name:
            raise SystemExit(f"an option is NAME=VALUE, not {value!r}")
        pairs.append((name, setting))
    return tuple(pairs)


def _name_of(command: str) -> str:
    """A short name for an engine command: 'nokamute', 'panal.uhp.players random'."""
    words = shlex.split(command)
    if len(words) > 2 and words[1] == "-m":
        words = words[2:]
    words = [words[0].rsplit("/", 1)[-1]] + [w for w in words[1:] if not w.startswith("-")]
    return " ".join(w for w in words if w != "uhp")


def _go(text: str) -> str:
    words = text.split()
    if len(words) == 1 and words[0] == "bestmove":
        return text
    if len(words) == 3 and words[0] == "bestmove" and words[1] in ("depth", "time", "nodes"):
        if words[1] == "time" and words[2].count(":") != 2:
            raise SystemExit(f"a time is hh:mm:ss, as in 'bestmove time 00:00:01', not {text!r}")
        return " ".join(words)
    raise SystemExit(
        "--go is 'bestmove depth N', 'bestmove time hh:mm:ss' or (panal) 'bestmove nodes N', "
        f"not {text!r}"
    )


def parse_args(argv: list[str] | None = None) -> Settings:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--engine", required=True, metavar="CMD", help="the opponent's command")
    parser.add_argument("--go", default="bestmove depth 4", help="how the opponent is asked")
    parser.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--engine-name", help="the opponent's name in the results")
    parser.add_argument("--player", default=DEFAULT_PLAYER, metavar="CMD", help="panal uhp")
    parser.add_argument("--player-go", default="bestmove time 00:00:01")
    parser.add_argument(
        "--player-option",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="default: Level=strongest",
    )
    parser.add_argument("--player-name", default="panal")
    parser.add_argument("--game-type", default="Base+MLP", help="Base or Base+MLP (or any)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="start at this game number (0-based) of the seed's games: continue a match stopped "
        "at a deadline, in another --out folder, and add them up with `combine`",
    )
    parser.add_argument("--jobs", type=int, default=2, help="games at a time")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings")
    parser.add_argument(
        "--opening-plies",
        type=int,
        default=2,
        help="plies of each random opening (2: the first two pieces; more: random moves after)",
    )
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument(
        "--repetition",
        choices=("on", "off"),
        default="on",
        help="the referee's draw by threefold repetition (panal's rule); engines with a "
        "RepetitionDraw option get the same",
    )
    parser.add_argument("--referee", metavar="CMD", help="a third engine that replays every move")
    parser.add_argument("--move-timeout", type=float, default=600.0, help="for depth searches")
    parser.add_argument("--deadline", type=float, help="start no game after this many seconds")
    parser.add_argument("--hard-deadline", type=float, help="abandon running games after this")
    parser.add_argument("--out", type=Path, help="folder for games and summaries")
    args = parser.parse_args(argv)
    GameType.parse(args.game_type)
    if args.games < 1 or args.jobs < 1:
        raise SystemExit("--games and --jobs must be positive")
    if not 0 <= args.first < args.games:
        raise SystemExit("--first is a game number from 0 to --games - 1")
    if args.opening_plies < 2:
        raise SystemExit("--opening-plies is at least 2")
    player_options = args.player_option if args.player_option is not None else ["Level=strongest"]
    engine_name = args.engine_name or _name_of(args.engine)
    return Settings(
        player=Side(args.player, _go(args.player_go), _options(player_options), args.player_name),
        opponent=Side(args.engine, _go(args.go), _options(args.engine_option), engine_name),
        game_type=args.game_type,
        games=args.games,
        first=args.first,
        jobs=args.jobs,
        seed=args.seed,
        opening_plies=args.opening_plies,
        max_plies=args.max_plies,
        repetition=args.repetition == "on",
        referee=args.referee,
        move_timeout=args.move_timeout,
        deadline=args.deadline,
        hard_deadline=args.hard_deadline,
        out=args.out,
    )


def combine(folders: list[str]) -> int:
    """``ai_ladder.py combine DIR...``: one score over the finished games of several runs."""
    wins = draws = losses = plies = at_limit = 0
    for folder in folders:
        for line in (Path(folder) / "games.jsonl").read_text(encoding="utf-8").splitlines():
            data = json.loads(line)
            outcome = Outcome(**data)
            score = outcome.player_score
            wins += score == 1.0
            draws += score == 0.5
            losses += score == 0.0
            plies += outcome.plies
            at_limit += outcome.reason.startswith("adjudicated draw after")
    games = wins + draws + losses
    elo, low, high = elo_interval(wins, draws, losses)
    score = (wins + 0.5 * draws) / games if games else 0.0
    share = at_limit / games if games else 0.0
    print(
        f"{' + '.join(folders)}: {games} games, +{wins} ={draws} -{losses}  score {score:.1%}  "
        f"Elo {_signed(_finite(elo))} (95% {_signed(_finite(low))} .. {_signed(_finite(high))})  "
        f"{plies / games if games else 0:.0f} plies a game, {at_limit} ({share:.0%}) drawn at "
        "the move limit"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["combine"]:
        return combine(args[1:])
    settings = parse_args(args)
    if settings.out is not None:
        settings.out.mkdir(parents=True, exist_ok=True)
        (settings.out / "games.jsonl").write_text("", encoding="utf-8")
    match = Match(settings)

    def interrupted(signum: int, _frame: object) -> None:
        # Keep what was played: stop, kill the engines (their games are abandoned), write.
        match.stop.set()
        for engine in list(_RUNNING):
            engine.kill()
        match.log(f"interrupted by signal {signum}: results so far")
        match.write()
        print(match.text())
        os._exit(130)

    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)
    match.run()
    match.write()
    print(match.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
