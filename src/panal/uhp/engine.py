"""``panal uhp``: a Universal Hive Protocol engine on stdin/stdout.

Every reply ends with a line ``ok``. Errors are ``err <message>``; a refused move is
``invalidmove <reason>``. No input line can crash the engine: whatever a command raises is turned
into an ``err`` reply and the game is left as it was.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TextIO

from panal import __version__
from panal.hive import Game, GameStringError, GameType, GameTypeError, Options
from panal.hive.game import IllegalMoveError, InvalidMoveError

CAPABILITIES = "Mosquito;Ladybug;Pillbug"


class UhpError(Exception):
    """A command the engine refuses; the message becomes ``err <message>``."""


class UhpEngine:
    """The protocol state machine, independent of any stream (``handle`` one line at a time)."""

    def __init__(self) -> None:
        self.game: Game | None = None
        # UHP engines default to the tournament opening, as every reference engine does.
        self.options = Options(tournament_opening=True, repetition_draw=True)
        self.commands: dict[str, Callable[[str], list[str]]] = {
            "info": self.info,
            "newgame": self.newgame,
            "play": self.play,
            "pass": lambda _args: self.play("pass"),
            "validmoves": self.validmoves,
            "undo": self.undo,
            "options": self.options_command,
        }
        self.option_names = {"TournamentOpening": "tournament_opening", "RepetitionDraw": "repetition_draw"}

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
            self.game = Game("Base", options=self.options)
        elif ";" in args:
            try:
                self.game = Game.from_game_string(args, options=self.options)
            except GameStringError as exc:
                raise UhpError(f"invalid GameString: {exc}") from None
        else:
            try:
                self.game = Game(GameType.parse(args), options=self.options)
            except GameTypeError as exc:
                raise UhpError(str(exc)) from None
        return [str(self.game)]

    def _current(self) -> Game:
        if self.game is None:
            raise UhpError("no game in progress; start one with newgame")
        return self.game

    def play(self, args: str) -> list[str]:
        game = self._current()
        if not args:
            raise InvalidMoveError("play needs a MoveString")
        game.push(args)
        return [str(game)]

    def validmoves(self, _args: str) -> list[str]:
        game = self._current()
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
        return [str(game)]

    def options_command(self, args: str) -> list[str]:
        words = args.split()
        if not words:
            return [self._describe(name) for name in self.option_names]
        action = words[0].lower()
        if action == "get" and len(words) == 2:
            return [self._describe(self._option_name(words[1]))]
        if action == "set" and len(words) == 3:
            name = self._option_name(words[1])
            value = _parse_bool(words[2])
            self._set_option(self.option_names[name], value)
            return [self._describe(name)]
        raise UhpError("usage: options | options get <name> | options set <name> <value>")

    # --- options --------------------------------------------------------------------------

    def _option_name(self, text: str) -> str:
        for name in self.option_names:
            if name.lower() == text.lower():
                return name
        raise UhpError(f"unknown option {text!r}; known: {', '.join(self.option_names)}")

    def _describe(self, name: str) -> str:
        value = getattr(self.options, self.option_names[name])
        default = getattr(Options(tournament_opening=True), self.option_names[name])
        return f"{name};bool;{value};{default}"

    def _set_option(self, field: str, value: bool) -> None:
        """Options apply to the game in progress too: it is replayed under the new rules."""
        options = replace(self.options, **{field: value})
        if self.game is not None:
            replayed = Game(self.game.game_type, options=options)
            try:
                for move in self.game.moves:
                    replayed.push(move)
            except ValueError as exc:
                raise UhpError(f"the game in progress breaks that rule: {exc}") from None
            self.game = replayed
        self.options = options


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise UhpError(f"expected True or False, not {text!r}")


def run(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    if stdin is None:
        sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
        stdin = sys.stdin
    UhpEngine().serve(stdin, stdout or sys.stdout)
    return 0
