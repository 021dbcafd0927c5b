"""``panal uhp``: a Universal Hive Protocol engine on stdin/stdout.

Every reply ends with a line ``ok``. Errors are ``err <message>``; a refused move is
``invalidmove <reason>``. No input line can crash the engine: whatever a command raises is turned
into an ``err`` reply and the game is left as it was.

``bestmove time hh:mm:ss`` thinks for at most that long (a margin is kept for the pipe);
``bestmove depth N`` searches exactly N plies; a bare ``bestmove`` plays at the chosen ``Level``
with that level's own thinking time. ``perft N`` (as in Mzinga) counts leaf positions for the
move-generator comparisons of third-party tools.

Every search and perft is bounded, so no command can keep the engine busy for long: a depth
beyond ``MaxDepth`` or a time beyond ``MaxTime`` is refused with ``err`` (raise the ceilings
with ``options set``); a ``bestmove depth N`` still searching after ``MaxTime`` answers with the
best move of its deepest finished iteration, and a ``perft`` still counting is stopped with
``err``. Times are ``hh:mm:ss`` with minutes and seconds below 60 (seconds may have a fraction).

Engine options, as UHP option lines (the rule options come from
``panal.hive.OPTION_SPECS``; docs/rules.md explains each one)::

    TournamentOpening;bool;True;True
    RepetitionDraw;bool;True;True
    RepetitionForced;bool;False;False
    DragonflySidestep;enum;Forward;Forward;Forward;Backward;Either
    DragonflyGaps;bool;False;False
    DragonflyContact;bool;False;False
    DragonflyCarry;enum;Later;Later;Later;NextTurn
    MosquitoStaysDragonfly;bool;False;False
    Level;enum;strongest;strongest;beginner;easy;medium;hard;expert;strongest
    HashSizeMB;int;64;64;1;4096
    Seed;int;0;0;0;2147483647          (0: a new random seed for every move)
    MaxDepth;int;8;8;1;64              (plies, for bestmove depth and perft)
    MaxTime;int;60;60;1;86400          (seconds, for any bestmove and perft)
    Contempt;int;15;15;0;1000          (score units a draw costs the side that searches)

The engine is never the referee: the program that sends it the moves is. Its word stands where
panal's own rules would say otherwise (see :func:`panal.hive.records.replay_refereed`): a
GameString's moves are replayed past a draw by panal's repetition rule, its state field decides
draws by repetition, and a turn or state field that only mislabels the position is recomputed, as
nokamute recomputes it. A ``play``, ``bestmove`` or ``validmoves`` in a position that only
panal's repetition rule calls drawn plays on (the referee asked for more), unless the referee's
own GameString said ``Draw`` there. From then on the game goes on without that rule, until the
next ``newgame``. Still refused: a GameString that does not parse, an unknown game type, an
illegal move (the tournament opening included while ``TournamentOpening`` is on), a move after a
queen is surrounded, ``bestmove`` in a finished game.

The AI runs in this one process on one thread: Python threads would only share one core, and
the machine's other core belongs to the opponent.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from panal import __version__
from panal.hive import (
    OPTION_SPECS,
    Game,
    GameStringError,
    GameType,
    GameTypeError,
    IllegalMoveError,
    InvalidMoveError,
    Options,
    OptionsError,
    OptionSpec,
)
from panal.hive.records.gamestrings import overrule_repetition, replay_refereed
from panal.uhp.duration import parse_duration

CAPABILITIES = "Mosquito;Ladybug;Pillbug"
DEFAULT_LEVEL = "strongest"
DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
MAX_CONTEMPT = 1000  # score units: more than a piece is worth, far below a win
MAX_SEED = 2**31 - 1
MAX_DEPTH = 64
DEFAULT_MAX_DEPTH = 8
DEFAULT_MAX_TIME = 60
MAX_TIME = 24 * 3600
# bestmove time: the reply must arrive within the budget +5% +50 ms; keep clear of that edge.
TIME_SAFETY_FRACTION = 0.96
TIME_SAFETY_SECONDS = 0.03


# UHP engines default to the tournament opening, as every reference engine does.
UHP_DEFAULT_OPTIONS = Options(tournament_opening=True)


@dataclass(frozen=True)
class _IntOption:
    default: int
    minimum: int
    maximum: int


@dataclass(frozen=True)
class _EnumOption:
    default: str
    choices: tuple[str, ...]


class UhpError(Exception):
    """A command the engine refuses; the message becomes ``err <message>``."""


class PanalEngine:
    """panal as a UHP engine: the protocol state machine, independent of any stream (``handle``
    answers one line at a time; ``serve`` runs it over text streams). Its counterpart, talking to
    any engine from the outside, is :class:`panal.uhp.client.UhpClient`."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.options = UHP_DEFAULT_OPTIONS
        self.commands: dict[str, Callable[[str], list[str]]] = {
            "info": self.info,
            "newgame": self.newgame,
            "play": self.play,
            "pass": lambda _args: self.play("pass"),
            "validmoves": self.validmoves,
            "undo": self.undo,
            "options": self.options_command,
            "bestmove": self.bestmove,
            "perft": self.perft,
        }
        self.rule_options: dict[str, OptionSpec] = {spec.uhp: spec for spec in OPTION_SPECS}
        from panal.ai.levels import LEVELS
        from panal.ai.search import CONTEMPT

        self.ai_options: dict[str, _IntOption | _EnumOption] = {
            "Level": _EnumOption(DEFAULT_LEVEL, LEVELS),
            "HashSizeMB": _IntOption(DEFAULT_HASH_MB, 1, MAX_HASH_MB),
            "Seed": _IntOption(0, 0, MAX_SEED),
            "MaxDepth": _IntOption(DEFAULT_MAX_DEPTH, 1, MAX_DEPTH),
            "MaxTime": _IntOption(DEFAULT_MAX_TIME, 1, MAX_TIME),
            "Contempt": _IntOption(CONTEMPT, 0, MAX_CONTEMPT),
        }
        self.ai_values: dict[str, int | str] = {
            name: option.default for name, option in self.ai_options.items()
        }
        self._searcher: object | None = None  # created on the first bestmove (lazy import)
        # The referee's last GameString said Draw where panal's repetition rule draws too.
        self._referee_drew = False

    # --- protocol -------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Answer one input line: the reply lines, always ending with ``ok``."""
        command, _, args = line.strip().partition(" ")
        if not command:
            return ["ok"]
        handler = self.commands.get(command.lower())
        try:
            if handler is None:
                raise UhpError(f"unknown command {command!r}")
            reply = handler(args.strip())
        except (InvalidMoveError, IllegalMoveError) as exc:
            reply = [f"invalidmove {exc}"]
        except (UhpError, ValueError) as exc:
            reply = [f"err {exc}"]
        except Exception as exc:  # the engine must survive anything
            reply = [f"err internal error: {type(exc).__name__}: {exc}"]
        return [*reply, "ok"]

    def serve(self, stdin: TextIO, stdout: TextIO) -> None:
        write = stdout.write
        write("\n".join(self.handle("info")) + "\n")
        stdout.flush()
        for line in stdin:
            if line.strip().lower() == "exit":
                break
            write("\n".join(self.handle(line)) + "\n")
            stdout.flush()

    # --- commands -------------------------------------------------------------------------

    def info(self, _args: str) -> list[str]:
        return [f"id panal v{__version__}", CAPABILITIES]

    def newgame(self, args: str) -> list[str]:
        if not args:
            game = Game("Base", options=self.options)
        elif ";" in args:
            try:
                game = replay_refereed(args, options=self.options)
            except GameStringError as exc:
                raise UhpError(f"invalid GameString: {exc}") from None
        else:
            try:
                game = Game(GameType.parse(args), options=self.options)
            except GameTypeError as exc:
                raise UhpError(str(exc)) from None
        self.game = game
        self._referee_drew = game.is_over()
        self._forget_search()
        return [game.game_string()]

    def _forget_search(self) -> None:
        """A new game (or new rules): what the AI learnt about the old one no longer holds."""
        clear = getattr(self._searcher, "clear", None)
        if clear is not None:
            clear()

    def _current(self) -> Game:
        if self.game is None:
            raise UhpError("no game in progress; start one with newgame")
        return self.game

    def _playing_on(self) -> Game:
        """The game, going on past a draw by panal's repetition rule (the referee asks for more)
        unless the referee's own GameString said Draw there."""
        game = self._current()
        if not self._referee_drew:
            self.game = game = overrule_repetition(game)
        return game

    def play(self, args: str) -> list[str]:
        # The referee sends a move: the game goes on, whatever panal's repetition rule said.
        game = overrule_repetition(self._current())
        if not args:
            raise InvalidMoveError("play needs a MoveString")
        game.push(args)  # a refused move changes nothing
        self.game = game
        self._referee_drew = False
        return [game.game_string()]

    def validmoves(self, _args: str) -> list[str]:
        game = self._playing_on()
        return [";".join(game.move_string(code) for code in game.legal_move_codes())]

    def undo(self, args: str) -> list[str]:
        game = self._current()
        try:
            count = int(args) if args else 1
        except ValueError:
            raise UhpError(f"undo takes a number of moves, not {args!r}") from None
        if count < 1:
            raise UhpError("undo takes a positive number of moves")
        if count > game.ply:
            raise UhpError(f"cannot undo {count} moves: only {game.ply} played")
        for _ in range(count):
            game.pop()
        self._referee_drew = False
        return [game.game_string()]

    def options_command(self, args: str) -> list[str]:
        words = args.split()
        if not words:
            return [self._describe(name) for name in (*self.rule_options, *self.ai_options)]
        action = words[0].lower()
        if action == "get" and len(words) == 2:
            return [self._describe(self._option_name(words[1]))]
        if action == "set" and len(words) == 3:
            name = self._option_name(words[1])
            if name in self.ai_options:
                self._set_ai_option(name, words[2])
            else:
                spec = self.rule_options[name]
                try:
                    value = spec.parse(words[2])
                except OptionsError as exc:
                    raise UhpError(str(exc)) from None
                self._set_option(spec.name, value)
            return [self._describe(name)]
        raise UhpError("usage: options | options get <name> | options set <name> <value>")

    def perft(self, args: str) -> list[str]:
        """``perft N`` (an extension, as in Mzinga): ``depth count seconds`` for 1..N."""
        game = self._current()
        depth = self._bounded_depth(_parse_depth(args) if args else 1, "perft")
        deadline = time.perf_counter() + self._max_time
        lines = []
        for current in range(1, depth + 1):
            started = time.perf_counter()
            try:
                count = _perft_until(game.copy(), current, deadline)
            except _OutOfTime:
                raise UhpError(
                    f"perft {depth} stopped at depth {current}: it ran past MaxTime "
                    f"({self._max_time} s; options set MaxTime raises it)"
                ) from None
            lines.append(f"{current} {count} {time.perf_counter() - started:.3f}")
        return lines

    def bestmove(self, args: str) -> list[str]:
        """``bestmove``, ``bestmove time hh:mm:ss``, ``bestmove depth N`` or (panal's extension,
        the same choice on any machine) ``bestmove nodes N``."""
        from panal.ai import Searcher, think
        from panal.ai.levels import get_level

        game = self._playing_on()
        if game.is_over():
            raise UhpError("the game is over: there is no best move")
        words = args.split()
        level = str(self.ai_values["Level"])
        settings = get_level(level)
        time_limit: float | None = None
        depth: int | None = None
        nodes: int | None = None
        if len(words) == 2 and words[0].lower() == "time":
            budget = _parse_duration(words[1])
            if budget > self._max_time:
                raise UhpError(
                    f"bestmove time {words[1]} is beyond MaxTime ({self._max_time} s; "
                    "options set MaxTime raises it)"
                )
            time_limit = max(0.01, budget * TIME_SAFETY_FRACTION - TIME_SAFETY_SECONDS)
            # The clock is the limit; the level's own depth ceiling still applies.
            depth = settings.depth
        elif len(words) == 2 and words[0].lower() == "depth":
            depth = self._bounded_depth(_parse_depth(words[1]), "bestmove depth")
        elif len(words) == 2 and words[0].lower() == "nodes" and words[1].isdigit():
            # As selective as a timed search; MaxTime still bounds it.
            nodes = int(words[1])
            depth = settings.depth
        elif words:
            raise UhpError(
                "usage: bestmove | bestmove time hh:mm:ss | bestmove depth N | bestmove nodes N"
            )
        else:
            time_limit = min(settings.time_limit, self._max_time)
            depth = min(settings.depth or self._max_depth, self._max_depth)
            nodes = settings.nodes
        if not isinstance(self._searcher, Searcher):
            self._searcher = Searcher(int(self.ai_values["HashSizeMB"]))
        searcher = self._searcher
        searcher.hash_size_mb = int(self.ai_values["HashSizeMB"])
        searcher.contempt = int(self.ai_values["Contempt"])
        seed = int(self.ai_values["Seed"]) or None
        result = think(
            game,
            level,
            time_limit=time_limit,
            depth=depth,
            seed=seed,
            searcher=searcher,
            max_time=self._max_time,
            nodes=nodes,
        )
        if result.code not in game.legal_move_codes():  # never an illegal move
            raise UhpError("internal error: the AI chose an illegal move")
        return [game.move_string(result.code)]

    @property
    def _max_depth(self) -> int:
        return int(self.ai_values["MaxDepth"])

    @property
    def _max_time(self) -> int:
        return int(self.ai_values["MaxTime"])

    def _bounded_depth(self, depth: int, command: str) -> int:
        if depth > self._max_depth:
            raise UhpError(
                f"{command} {depth} is beyond MaxDepth ({self._max_depth}; options set MaxDepth "
                "raises it)"
            )
        return depth

    # --- options --------------------------------------------------------------------------

    def _option_name(self, text: str) -> str:
        names = (*self.rule_options, *self.ai_options)
        for name in names:
            if name.lower() == text.lower():
                return name
        raise UhpError(f"unknown option {text!r}; known: {', '.join(names)}")

    def _set_ai_option(self, name: str, text: str) -> None:
        option = self.ai_options[name]
        if isinstance(option, _EnumOption):
            for choice in option.choices:
                if choice.lower() == text.lower():
                    self.ai_values[name] = choice
                    return
            raise UhpError(f"{name} must be one of {', '.join(option.choices)}, not {text!r}")
        try:
            number = int(text)
        except ValueError:
            raise UhpError(f"{name} takes a whole number, not {text!r}") from None
        if not option.minimum <= number <= option.maximum:
            raise UhpError(f"{name} must be between {option.minimum} and {option.maximum}")
        self.ai_values[name] = number

    def _describe(self, name: str) -> str:
        option = self.ai_options.get(name)
        if isinstance(option, _EnumOption):
            choices = ";".join(option.choices)
            return f"{name};enum;{self.ai_values[name]};{option.default};{choices}"
        if isinstance(option, _IntOption):
            value = self.ai_values[name]
            return f"{name};int;{value};{option.default};{option.minimum};{option.maximum}"
        spec = self.rule_options[name]
        value = spec.uhp_value(spec.plain(getattr(self.options, spec.name)))
        default = spec.uhp_value(spec.plain(getattr(UHP_DEFAULT_OPTIONS, spec.name)))
        if spec.choices is None:
            return f"{name};bool;{value};{default}"
        choices = ";".join(spec.uhp_value(choice) for choice in spec.choices)
        return f"{name};enum;{value};{default};{choices}"

    def _set_option(self, field: str, value: bool | str) -> None:
        """Options apply to the game in progress too: it is replayed under the new rules (and
        still without the repetition rule where the referee overruled it)."""
        options = self.options.with_values(**{field: value})
        if self.game is not None:
            rules = options
            if self.options.repetition_draw and not self.game.options.repetition_draw:
                rules = options.with_values(repetition_draw=False)  # the referee overruled it
            replayed = Game(self.game.game_type, options=rules)
            try:
                for move in self.game.move_stack:
                    replayed.push(move)
            except ValueError as exc:
                raise UhpError(f"the game in progress breaks that rule: {exc}") from None
            self.game = replayed
        self.options = options
        self._forget_search()


def _parse_duration(text: str) -> float:
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise UhpError(str(exc)) from None


class _OutOfTime(Exception):
    """A bounded perft ran past its deadline."""


def _perft_until(game: Game, depth: int, deadline: float) -> int:
    """``game.perft(depth)``, stopped by :class:`_OutOfTime` once ``deadline`` passes (checked
    before each subtree of depth 3 or more, so a check costs nothing next to the counting)."""
    if depth <= 2:
        return game.perft(depth)
    if time.perf_counter() > deadline:
        raise _OutOfTime
    total = 0
    for code in list(game.legal_move_codes()):
        game.push_code(code)
        total += _perft_until(game, depth - 1, deadline)
        game.pop_code()
    return total


def _parse_depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise UhpError(f"expected a depth in plies, not {text!r}") from None
    if not 1 <= depth <= MAX_DEPTH:
        raise UhpError(f"the depth must be between 1 and {MAX_DEPTH}")
    return depth


def run(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    if stdin is None:
        sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
        stdin = sys.stdin
    PanalEngine().serve(stdin, stdout or sys.stdout)
    return 0
