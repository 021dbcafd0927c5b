"""Play random Base+MLP games through OpenSpiel's C++ Hive and panal side by side.

OpenSpiel numbers like pieces as they come (it may place bA2 before bA1, and offers each number
as a first move), panal places them in number order; so every OpenSpiel MoveString is read
through a renaming of its pieces to panal's, and each legal move set is compared as a set of
panal move codes (placing "an ant" is one move, whatever its number).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from panal.hex import NEIGHBOR_OFFSETS, unpack
from panal.hive import Game
from panal.hive.codes import PASS_CODE
from panal.hive.notation import parse_move
from panal.hive.pieces import BUG_OF, Piece

BOARD_SIZE = 8
"""OpenSpiel's default grid radius: a piece beyond it ends the game in a draw there."""


@dataclass
class Difference:
    """A position where the two engines disagree on the legal moves."""

    game_string: str  # panal's GameString of the position
    only_openspiel: list[str]  # legal for OpenSpiel only, as OpenSpiel writes them
    only_panal: list[str]
    known: bool  # OpenSpiel's error at Black's third turn (see known_openspiel_error)


@dataclass
class GameReport:
    plies: int = 0
    positions: int = 0
    differences: list[Difference] = field(default_factory=list)
    ending: str = ""  # "same", "grid_overflow", "length_limit", or what differed


def _translate(game: Game, names: dict[str, Piece], text: str) -> int:
    """OpenSpiel's MoveString ``text`` as a panal move code (legal or not)."""
    tokens = text.split()
    if tokens == ["pass"]:
        return PASS_CODE
    piece = names.get(tokens[0])
    if piece is None:  # a placement: panal places the next piece of that bug
        named = Piece.from_name(tokens[0])
        color, bug = named >> 4, BUG_OF[named]
        number = game.placed_counts[color << 4 | bug] + 1
        piece = Piece.from_name(f"{'wb'[color]}{named.bug.letter}{number}")
    if len(tokens) == 1:
        return parse_move(game, piece.name)
    reference = tokens[1]
    core = reference.strip("-/\\")
    renamed = reference.replace(core, names[core].name)
    return parse_move(game, f"{piece.name} {renamed}")


def known_openspiel_error(game: Game, extra: set[int]) -> bool:
    """OpenSpiel's one known error: at Black's third turn it takes neither first piece of the
    game for pinned when Black's queen touches only Black's first piece, so it lets Black's
    first piece move, and, when that piece is the Pillbug, throw White's first piece: both
    lift a piece whose removal splits the hive.

    Precisely: ply 5 (Black[3]); Black placed its queen at ply 3 touching only Black's first
    piece; every move OpenSpiel adds (and it removes none) moves Black's first piece, or, when
    that is the Pillbug, White's first piece; and lifting the moved piece splits the hive.
    """
    if game.ply != 5 or not extra or PASS_CODE in extra:
        return False
    codes = game.move_codes
    white_first, black_first, queen = codes[0] & 31, codes[1] & 31, codes[3] & 31
    movers = {black_first}
    if black_first == Piece.bP:
        movers.add(white_first)
    if queen != Piece.bQ or any(code & 31 not in movers for code in extra):
        return False
    cells = game.piece_cells
    touching = {cells[queen] + step for step in NEIGHBOR_OFFSETS} & set(game.stacks)
    if touching != {cells[black_first]}:
        return False
    return all(_splits(game, cells[code & 31]) for code in extra)


def _splits(game: Game, lifted: int) -> bool:
    """Whether lifting the lone piece on cell ``lifted`` leaves the hive in two."""
    rest = set(game.stacks) - {lifted}
    start = next(iter(rest))
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for step in NEIGHBOR_OFFSETS:
            if cell + step in rest and cell + step not in seen:
                seen.add(cell + step)
                todo.append(cell + step)
    return seen != rest


def play(pyspiel: Any, seed: int, board_size: int = BOARD_SIZE) -> GameReport:
    """One random game, choosing uniformly among OpenSpiel's legal actions."""
    rng = random.Random(seed)
    spiel_game = pyspiel.load_game("hive", {"board_size": board_size})
    state = spiel_game.new_initial_state()
    game = Game("Base+MLP", tournament_opening=True)
    names: dict[str, Piece] = {}
    report = GameReport()
    while True:
        if state.is_terminal() or game.is_over():
            report.ending = _ending(state, game, spiel_game, board_size)
            return report
        report.positions += 1
        actions = state.legal_actions()
        texts = [state.action_to_string(a) for a in actions]
        codes = [_translate(game, names, t) for t in texts]
        theirs, ours = set(codes), set(game.legal_move_codes())
        if theirs != ours:
            only_theirs = theirs - ours
            report.differences.append(
                Difference(
                    game.game_string(),
                    [t for t, c in zip(texts, codes, strict=True) if c in only_theirs],
                    [game.move_string(c) for c in sorted(ours - theirs)],
                    not ours - theirs and known_openspiel_error(game, only_theirs),
                )
            )
        # play a move both engines allow, uniformly among OpenSpiel's
        both = [i for i, c in enumerate(codes) if c in ours]
        index = both[rng.randrange(len(both))]
        text, code = texts[index], codes[index]
        if code != PASS_CODE and text.split()[0] not in names:
            names[text.split()[0]] = Piece(code & 31)
        state.apply_action(actions[index])
        game.push_code(code)
        report.plies += 1


def _ending(state: Any, game: Game, spiel_game: Any, board_size: int) -> str:
    if state.is_terminal() and game.is_over():
        returns = state.returns()
        ours = {"WhiteWins": [1.0, -1.0], "BlackWins": [-1.0, 1.0], "Draw": [0.0, 0.0]}
        same = ours[str(game.state)] == list(returns)
        return "same" if same else f"results differ: OpenSpiel {returns}, panal {game.state}"
    if state.is_terminal():
        if game.ply >= spiel_game.max_game_length():
            return "length_limit"
        if any(unpack(cell).length() > board_size for cell in game.stacks):
            return "grid_overflow"
        return f"OpenSpiel ended the game alone: {state.returns()}"
    return f"panal ended the game alone: {game.state}"
