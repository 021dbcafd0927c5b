"""Play Enjambre Tácticas in a terminal against bots.

The human types commands; every command is parsed and checked in full before anything is
applied, so a typo or an illegal move prints a specific message and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from panal.hex import Hex

from .actions import Action, Displace, EndTurn, IllegalActionError, Place, Scout, Step
from .bots import Bot, make_bot
from .engine import Game
from .observation import Observation
from .options import Options
from .render import colour_enabled, describe_event, render_board, render_status
from .state import Phase

__all__ = ["CommandError", "Parsed", "parse_command", "play_terminal"]

HELP = """\
commands (cells are labels such as G5; the board shows the labels of empty cells):
  place C1 C2 ... C10   setup: cells for the tiles 1, 2, ..., 10 (all in your zone)
  auto                  setup: place your tiles at random
  move A B [C]          move the tile on A to B (then on to C); a step is to an adjacent
                        cell, or across the colmena between two cells next to it
  scout A               flip your tile on A: if it is the 1, it shows the enemy tiles around it
  displace A            put your tile pushed out of the colmena on A (advanced colmena combat)
  end                   end your turn
  moves A               list where the tile on A can step now
  board | status | log  redraw the board, show the status, show the whole history
  help | quit"""


class CommandError(ValueError):
    """The command is malformed or not allowed now."""


@dataclass(frozen=True)
class Parsed:
    """A parsed command: actions to apply in order, or an informational request."""

    actions: tuple[Action, ...] = ()
    info: str | None = None  # "board", "status", "log", "help", "quit" or "moves"
    cell: Hex | None = None


def _cells(observation: Observation, words: Sequence[str]) -> list[Hex]:
    return [observation.board.parse_label(word) for word in words]


def parse_command(text: str, observation: Observation, rng: random.Random | None = None) -> Parsed:
    """Turn a line into actions for ``observation``'s player, checking them without applying.

    Raises :class:`CommandError` with a specific message for anything malformed or illegal.
    """
    words = text.split()
    if not words:
        raise CommandError("type a command (help lists them)")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb in ("help", "?", "h"):
            return Parsed(info="help")
        if verb in ("quit", "exit", "q"):
            return Parsed(info="quit")
        if verb in ("board", "b", "status", "log"):
            return Parsed(info={"b": "board"}.get(verb, verb))
        if verb == "moves":
            if len(args) != 1:
                raise CommandError("usage: moves A (the cell of one of your tiles)")
            return Parsed(info="moves", cell=_cells(observation, args)[0])
        actions = _parse_actions(verb, args, observation, rng or random.Random())
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    _check(actions, observation)
    return Parsed(actions=tuple(actions))


def _own_tile_at(observation: Observation, cell: Hex) -> int:
    state = observation.state
    board = observation.board
    tile = None
    if state.active is not None and state.tile_cell[state.active] == cell:
        tile = state.active
    if tile is None:
        tile = state.occupant.get(cell)
    if tile is None:
        raise CommandError(f"there is no tile on {board.label(cell)}")
    if state.owner(tile) != observation.me:
        raise CommandError(f"the tile on {board.label(cell)} is not yours")
    return tile


def _parse_actions(
    verb: str, args: list[str], observation: Observation, rng: random.Random
) -> list[Action]:
    count = observation.board.tiles_per_player
    if verb == "place":
        if len(args) != count:
            raise CommandError(f"place needs {count} cells, one for each tile 1 to {count}")
        return [Place(tuple(_cells(observation, args)))]
    if verb == "auto":
        if args:
            raise CommandError("auto takes no arguments")
        zone = list(observation.state.zone(observation.me))
        return [Place(tuple(rng.sample(zone, count)))]
    if verb in ("move", "m"):
        if len(args) < 2:
            raise CommandError("usage: move A B [C] (from A, one step to B, then to C)")
        cells = _cells(observation, args)
        tile = _own_tile_at(observation, cells[0])
        return [Step(tile, cell) for cell in cells[1:]]
    if verb in ("scout", "s"):
        if len(args) != 1:
            raise CommandError("usage: scout A (the cell of your tile to flip)")
        return [Scout(_own_tile_at(observation, _cells(observation, args)[0]))]
    if verb in ("displace", "d"):
        if len(args) != 1:
            raise CommandError("usage: displace A (an empty cell nearest your colmena cell)")
        return [Displace(_cells(observation, args)[0])]
    if verb in ("end", "e", "pass"):
        if args:
            raise CommandError("end takes no arguments")
        return [EndTurn()]
    raise CommandError(f"unknown command {verb!r} (help lists the commands)")


def _check(actions: list[Action], observation: Observation) -> None:
    """Check a whole command on a private copy; a combat must be its last step."""
    state = observation.state
    board = observation.board
    if not observation.my_turn and state.phase is not Phase.OVER:
        raise CommandError(f"it is {state.colour(state.turn_player)}'s turn")
    if len(actions) == 1:
        problem = observation.why_illegal(actions[0])
        if problem:
            raise CommandError(problem)
        return
    # A multi-step move: walk it on a copy where nothing is hidden that matters (no combat
    # happens before the last step, so the numbers play no part).
    trial = Game.from_public(state, [1] * len(state.tile_cell))
    for index, action in enumerate(actions):
        problem = trial.why_illegal(observation.me, action)
        if problem:
            raise CommandError(f"step {index + 1}: {problem}")
        assert isinstance(action, Step)
        holder = trial.state.occupant.get(action.target)
        enemy = holder is not None and trial.state.owner(holder) != observation.me
        if enemy and index < len(actions) - 1:
            raise CommandError(
                f"step {index + 1} enters the enemy tile on {board.label(action.target)}: a "
                "combat ends the command; see the result, then continue the move"
            )
        trial.apply(observation.me, action)


def describe_moves(observation: Observation, cell: Hex) -> str:
    tile = _own_tile_at(observation, cell)
    board = observation.board
    targets = observation.step_targets(tile)
    if not targets:
        return f"the tile on {board.label(cell)} cannot move now"
    parts = []
    for target in targets:
        note = {"enemy": " (combat)", "own": " (passing over)"}.get(target.occupant, "")
        via = {"colmena": " via colmena", "dark": " via dark cells"}.get(target.via, "")
        parts.append(f"{board.label(target.cell)}{note}{via}")
    return f"the tile on {board.label(cell)} can step to: " + ", ".join(parts)


def play_terminal(
    players: int,
    bot_names: Sequence[str],
    *,
    seat: int = 0,
    seed: int | None = None,
    options: Options | None = None,
    read: Callable[[str], str] = input,
    out: TextIO,
    colour: bool | None = None,
) -> int:
    """Run one game with a human at ``seat``; returns a process exit code (0, also on quit)."""
    if len(bot_names) != players - 1:
        raise ValueError(f"{players} players need {players - 1} bots, got {len(bot_names)}")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be between 0 and {players - 1}")
    use_colour = colour_enabled(out) if colour is None else colour
    game = Game(players, options=options, seed=seed)
    # The bots' secret set-ups follow from their generators: from the seed only when the user
    # asked for a reproducible game, else from the system's unpredictable randomness (the game's
    # own seed is never shown, and nothing the player sees lets them rebuild a bot's set-up).
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    bots: dict[int, Bot] = {}
    names = iter(bot_names)
    for other in range(players):
        if other != seat:
            bots[other] = make_bot(next(names), rng.randrange(2**63))

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    state = game.state
    seed_text = f", seed {seed}" if seed is not None else ""
    say(f"Enjambre Tácticas: {players} players{seed_text}. You are "
        f"{state.colour(seat)}; {state.colour(state.first_player)} starts. Type help.")  # fmt: skip
    printed = 0
    drawn_for: tuple[Phase, int, int] | None = None  # the turn whose board was last drawn
    while not game.over:
        mover = game.to_move
        assert mover is not None
        if mover != seat:
            game.apply(mover, bots[mover].act(game.observe(mover)))
            continue
        observation = game.observe(seat)
        printed = _print_events(observation, printed, say)
        turn = (observation.phase, observation.round, len(observation.history))
        if drawn_for is None or drawn_for[:2] != turn[:2] or _new_turn(observation, drawn_for):
            say(render_board(observation, colour=use_colour))
            if observation.phase is Phase.SETUP:
                zone = " ".join(observation.board.label(c) for c in state.zone(seat))
                say(f"Setup: your zone is {zone}. Use place (ten cells for 1..10) or auto.")
            else:
                say(render_status(observation, colour=use_colour))
            drawn_for = turn
        try:
            line = read(f"[{state.colour(seat)}] > ")
        except EOFError:
            say("bye")
            return 0
        try:
            parsed = parse_command(line, observation, rng)
        except CommandError as exc:
            say(f"! {exc}")
            continue
        if parsed.info == "quit":
            say("bye")
            return 0
        if parsed.info is not None:
            _show_info(parsed, observation, say, use_colour)
            continue
        for action in parsed.actions:
            try:
                game.apply(seat, action)
            except IllegalActionError as exc:  # the command was checked; this is a safeguard
                say(f"! {exc}")
                break
        if isinstance(parsed.actions[-1], Place) and options and options.memory_play:
            say("Remember your tiles: they will be hidden from you from now on.")
        if isinstance(parsed.actions[0], (Step, Scout)) and not game.over:
            after = game.observe(seat)
            printed = _print_events(after, printed, say)
            say(render_board(after, colour=use_colour))
    final = game.observe(seat)
    _print_events(final, printed, say)
    say(render_board(final, colour=use_colour))
    say(render_status(final, colour=use_colour))
    return 0


def _new_turn(observation: Observation, drawn_for: tuple[Phase, int, int]) -> bool:
    """Whether a turn of the viewer has started since the board was last drawn."""
    from .actions import TurnEnded

    return any(isinstance(e, TurnEnded) for e in observation.history[drawn_for[2] :])


def _print_events(observation: Observation, printed: int, say: Callable[[str], None]) -> int:
    for event in observation.history[printed:]:
        line = describe_event(event, observation.state)
        if line:
            say(f"  {line}")
    return len(observation.history)


def _show_info(
    parsed: Parsed, observation: Observation, say: Callable[[str], None], colour: bool
) -> None:
    if parsed.info == "help":
        say(HELP)
    elif parsed.info == "board":
        say(render_board(observation, colour=colour))
    elif parsed.info == "status":
        say(render_status(observation, colour=colour))
    elif parsed.info == "log":
        for event in observation.history:
            line = describe_event(event, observation.state)
            if line:
                say(f"  r{event.round} {line}")
    elif parsed.info == "moves":
        assert parsed.cell is not None
        try:
            say(describe_moves(observation, parsed.cell))
        except CommandError as exc:
            say(f"! {exc}")
