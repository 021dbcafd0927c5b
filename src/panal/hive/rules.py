"""Why a move is illegal: the rule it breaks, for players and for viewers.

The move generator decides legality; this module only explains a refusal. Each
:class:`~panal.hive.errors.Rule` has a stable key (for translations in the web UI) and an English
message.
"""

from __future__ import annotations

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import movement
from panal.hive.codes import CARRY_FLAG, OFF_BOARD, PASS_CODE
from panal.hive.errors import Rule
from panal.hive.pieces import BUG_COUNTS, BUG_OF, NUMBER_OF, PIECE_BY_VALUE, Bug, piece_of
from panal.hive.view import GameView

__all__ = ["Rule", "broken_rule", "why_illegal"]

_BUG_NAMES = {bug: f"the {bug.name.lower()}" for bug in Bug}


def why_illegal(game: GameView, code: int) -> str:
    """The English explanation; see :func:`broken_rule` for the structured form."""
    rule, details = broken_rule(game, code)
    return rule.message(details)


def broken_rule(game: GameView, code: int) -> tuple[Rule, dict[str, str]]:
    """The rule move ``code`` breaks in ``game`` and the details its message needs.

    Only meaningful for a move the generator refused (for a legal move it answers ``ILLEGAL``).
    """
    if game.is_over():
        return Rule.GAME_OVER, {}
    if code == PASS_CODE:
        return Rule.PASS_WITH_MOVES, {}
    piece = code & 31
    name = PIECE_BY_VALUE[piece].name
    bug = Bug(BUG_OF[piece])
    details = {"piece": name, "bug": _BUG_NAMES[bug], "game_type": str(game.game_type)}
    if bug not in game.game_type.bugs:
        return Rule.NOT_IN_GAME, details
    color = piece >> 4
    turn = game.ply & 1
    dest = code >> 6
    stacks = game.stacks
    origin = game.piece_cells[piece]
    if origin == OFF_BOARD:
        if color != turn:
            return Rule.NOT_YOUR_TURN, {"turn": game.turn.title}
        placed = game.placed_counts[color << 4 | bug]
        if placed >= BUG_COUNTS[bug] or NUMBER_OF[piece] != placed + 1:
            expected = piece_of(color, bug, min(placed + 1, BUG_COUNTS[bug])).name
            return Rule.ORDER, {"expected": expected}
        if code & CARRY_FLAG:
            return Rule.NO_CARRY, {}
        if bug == Bug.QUEEN and game.turn_number == 1 and game.options.tournament_opening:
            return Rule.QUEEN_FIRST_TURN, {}
        if bug != Bug.QUEEN and game.must_place_queen():
            return Rule.QUEEN_BY_FOURTH, {}
        if dest in stacks:
            return Rule.PLACE_ON_EMPTY, {}
        if not stacks:
            return Rule.FIRST_AT_CENTRE, {}
        tops = [stacks[dest + s][-1] >> 4 for s in NEIGHBOR_OFFSETS if dest + s in stacks]
        if game.ply < 2:
            return (Rule.SECOND_TOUCHES_FIRST, {}) if not tops else (Rule.ILLEGAL, {})
        if color ^ 1 in tops:
            return Rule.PLACE_NOT_ENEMY, {}
        if color not in tops:
            return Rule.PLACE_TOUCH_OWN, {}
        return Rule.ILLEGAL, {}
    if not game.is_queen_placed(game.turn):
        return Rule.QUEEN_BEFORE_MOVING, {}
    stack = stacks[origin]
    if stack[-1] != piece:
        return Rule.COVERED, details
    if color != turn:
        return _why_no_throw(game, piece, origin, dest)
    if piece == game.last_moved:
        return Rule.FROZEN, details
    if dest == origin:
        return Rule.SAME_CELL, {}
    carrier = bug == Bug.DRAGONFLY or (bug == Bug.MOSQUITO and game.is_flying(piece))
    if code & CARRY_FLAG and (not carrier or len(stack) < 2):
        return Rule.NO_CARRY, {}
    if code & CARRY_FLAG and not game.may_carry(piece):
        return Rule.CARRY_NEXT_TURN, {}
    if len(stack) == 1 and origin in movement.pinned_cells(stacks):
        return Rule.SPLITS_HIVE, {}
    if code & CARRY_FLAG and len(stack) == 2 and origin in movement.pinned_cells(stacks):
        return Rule.SPLITS_HIVE, {}
    if bug == Bug.MOSQUITO and len(stack) > 1 and game.is_flying(piece):
        bug = Bug.DRAGONFLY  # mosquito_stays_dragonfly: up there it moves as a Dragonfly
    return _why_bug_cannot(game, bug, origin, dest, len(stack) - 1), details


def _why_bug_cannot(game: GameView, bug: Bug, origin: int, dest: int, level: int) -> Rule:
    stacks = game.stacks
    adjacent = dest - origin in NEIGHBOR_OFFSETS
    if bug == Bug.MOSQUITO and level == 0:
        copied = {
            BUG_OF[stacks[origin + s][-1]] for s in NEIGHBOR_OFFSETS if origin + s in stacks
        } - {Bug.MOSQUITO}
        return Rule.MOSQUITO if copied else Rule.MOSQUITO_ALONE
    if bug in (Bug.QUEEN, Bug.PILLBUG, Bug.BEETLE, Bug.MOSQUITO):
        if not adjacent:
            return Rule.ONE_STEP
        if dest in stacks and bug not in (Bug.BEETLE, Bug.MOSQUITO):
            return Rule.NO_CLIMB
        gate = movement.GATES[NEIGHBOR_OFFSETS.index(dest - origin)]
        heights = [len(stacks.get(origin + g, ())) for g in gate[1:]]
        if level == 0 and dest not in stacks and heights == [0, 0]:
            return Rule.LOSES_CONTACT
        if bug != Bug.BEETLE and level == 0:
            return Rule.GATE if all(heights) else Rule.LOSES_CONTACT
        return Rule.GATE
    if bug == Bug.ANT:
        return Rule.NO_CLIMB if dest in stacks else Rule.ANT
    return {
        Bug.GRASSHOPPER: Rule.GRASSHOPPER,
        Bug.SPIDER: Rule.NO_CLIMB if dest in stacks else Rule.SPIDER,
        Bug.LADYBUG: Rule.LADYBUG,
        Bug.DRAGONFLY: Rule.DRAGONFLY,
    }.get(bug, Rule.ILLEGAL)


def _why_no_throw(
    game: GameView, piece: int, origin: int, dest: int
) -> tuple[Rule, dict[str, str]]:
    """An opponent's piece can only move by a pillbug's power (or a mosquito copying it)."""
    stacks = game.stacks
    turn = game.ply & 1
    throwers = [
        origin + s
        for s in NEIGHBOR_OFFSETS
        if origin + s in stacks
        and len(stacks[origin + s]) == 1
        and stacks[origin + s][-1] >> 4 == turn
        and _has_pillbug_power(game, origin + s)
    ]
    if not throwers:
        return Rule.OPPONENT_PIECE, {}
    if piece == game.last_moved:
        return Rule.THROW_LAST_MOVED, {}
    if len(stacks[origin]) > 1:
        return Rule.THROW_STACK, {}
    if origin in movement.pinned_cells(stacks):
        return Rule.SPLITS_HIVE, {}
    if not any(dest - t in NEIGHBOR_OFFSETS for t in throwers) or dest in stacks:
        return Rule.OPPONENT_PIECE, {}
    return Rule.THROW_GATE, {}


def _has_pillbug_power(game: GameView, cell: int) -> bool:
    stacks = game.stacks
    piece = stacks[cell][-1]
    if piece == game.last_moved:
        return False
    if BUG_OF[piece] == Bug.PILLBUG:
        return True
    return BUG_OF[piece] == Bug.MOSQUITO and any(
        BUG_OF[stacks[cell + s][-1]] == Bug.PILLBUG for s in NEIGHBOR_OFFSETS if cell + s in stacks
    )
