"""Property tests: long random games never break an invariant."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from panal.hex import NEIGHBOR_OFFSETS, unpack
from panal.hive import Bug, Color, DragonflyCarry, DragonflySidestep, Game, GameState, Move, Options
from panal.hive.codes import CARRY_FLAG, OFF_BOARD, PASS_CODE
from panal.hive.game import CARRIER_KEYS, FLYING_KEYS
from panal.hive.pieces import bug_of, color_of

GAME_TYPES = ["Base", "Base+M", "Base+L", "Base+P", "Base+MLP", "Base+D", "Base+MLPD"]


def set_up_again(game: Game) -> Game:
    """The same position set up from its board, without history (hash computed from scratch)."""
    return Game.from_board(
        game.board(),
        game_type=game.game_type,
        turn=game.turn,
        turn_number=game.turn_number,
        last_moved=game.last_moved,
        options=game.options,
    )


def assert_invariants(game: Game) -> None:
    stacks = game.stacks
    # One hive: every occupied cell is reachable from any other.
    if stacks:
        start = next(iter(stacks))
        seen, todo = {start}, [start]
        while todo:
            cell = todo.pop()
            for step in NEIGHBOR_OFFSETS:
                if cell + step in stacks and cell + step not in seen:
                    seen.add(cell + step)
                    todo.append(cell + step)
        assert seen == set(stacks), "the hive is split"
    # Every piece is in hand or on exactly one cell, and the piece index agrees with the board.
    on_board = [p for stack in stacks.values() for p in stack]
    assert len(on_board) == len(set(on_board))
    assert all(stack for stack in stacks.values())
    for cell, stack in stacks.items():
        for piece in stack:
            assert game.piece_cells[piece] == cell
    for color in Color:
        pieces = game.game_type.pieces(color)
        assert len(game.in_hand(color)) + sum(p in on_board for p in pieces) == len(pieces)
    # The same board set up from scratch (every invariant checked) has the same hash and moves,
    # and its text form reads back to the same position. A set-up position has no history, so
    # what some options take from it (the Dragonfly that may carry now, the mosquitoes that flew
    # up) is worked out again here from the moves, independently of the game's own bookkeeping.
    again = set_up_again(game)
    flying = mosquitoes_flying(game)
    carrier = next_turn_carrier(game, flying)
    history_keys = 0
    for piece in flying:
        history_keys ^= FLYING_KEYS[piece]
    if carrier is not None:
        history_keys ^= CARRIER_KEYS[carrier]
    assert again.hash ^ history_keys == game.hash
    if game.state is not GameState.DRAW and not history_keys:  # the history matters there
        assert again.state is game.state
        assert sorted(again.legal_move_codes()) == sorted(game.legal_move_codes())
        assert Game.from_board_text(game.board_text()).board_text() == game.board_text()
    codes = game.legal_move_codes()
    assert len(codes) == len(set(codes)), "duplicate legal moves"
    strings = [game.move_string(code) for code in codes]
    assert len(strings) == len(set(strings)), "two legal moves share a MoveString"


def snapshot(game: Game) -> tuple:
    return (
        game.game_string(),
        game.hash,
        game.state,
        sorted(game.legal_move_codes()),
        game.board(),
        game.move_stack,
    )


def assert_undo_and_notation(game: Game, codes: list[int], rng: random.Random) -> None:
    """Undo restores position and hash exactly, and every MoveString parses back to the same
    move, for samples of the legal ``codes``."""
    before = snapshot(game)
    for code in rng.sample(codes, min(3, len(codes))):
        game.push_code(code)
        game.pop()
        assert snapshot(game) == before
    for code in rng.sample(codes, min(5, len(codes))):
        assert game.parse_move_code(game.move_string(code)) == code


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    game_type=st.sampled_from(GAME_TYPES),
    tournament_opening=st.booleans(),
)
def test_random_games_keep_invariants(seed: int, game_type: str, tournament_opening: bool) -> None:
    rng = random.Random(seed)
    game = Game(game_type, tournament_opening=tournament_opening)
    for _ in range(120):
        assert_invariants(game)
        codes = game.legal_move_codes()
        if not codes:
            assert game.is_over()
            break
        assert_undo_and_notation(game, codes, rng)
        game.push_code(rng.choice(codes))
    # The GameString round trip rebuilds the same game.
    again = Game.from_game_string(game.game_string(), tournament_opening=tournament_opening)
    assert again == game
    assert again.game_string() == game.game_string()
    assert again.hash == game.hash
    assert again.state == game.state


def mosquitoes_flying(game: Game) -> set[int]:
    """mosquito_stays_dragonfly, worked out again from the moves: a Mosquito whose last move was
    a Dragonfly's flight (not to a neighbour, or a carry) that left it on a stack."""
    expansions = game.game_type.expansions
    options = game.options
    if not (options.mosquito_stays_dragonfly and {Bug.MOSQUITO, Bug.DRAGONFLY} <= expansions):
        return set()
    replay = Game(game.game_type, options=options)
    flying: set[int] = set()
    for move in game.move_stack:
        origin = None if move.piece is None else replay.position_of(move.piece)
        replay.push(move)
        if move.piece is None or move.to is None or bug_of(move.piece) is not Bug.MOSQUITO:
            continue
        flew = origin is not None and (move.carry or origin.distance(move.to) > 1)
        if flew and len(replay.stack_at(move.to)) > 1:
            flying.add(int(move.piece))
        else:
            flying.discard(int(move.piece))
    return flying


def next_turn_carrier(game: Game, flying: set[int]) -> int | None:
    """dragonfly_carry=next_turn, worked out again: the piece the side to move moved on its
    previous turn, if it is a Dragonfly (or a flying Mosquito) on top of a stack."""
    if game.options.dragonfly_carry is not DragonflyCarry.NEXT_TURN:
        return None
    if Bug.DRAGONFLY not in game.game_type.expansions:
        return None
    moves = game.move_stack
    if len(moves) < 2 or moves[-2].piece is None:
        return None
    piece = moves[-2].piece
    where = game.position_of(piece)
    stack = game.stack_at(where) if where is not None else []
    if color_of(piece) != game.turn or len(stack) < 2 or stack[-1] != piece:
        return None
    return int(piece) if bug_of(piece) is Bug.DRAGONFLY or int(piece) in flying else None


DRAGONFLY_COMBINATIONS = [
    Options(
        dragonfly_sidestep=sidestep,
        dragonfly_gaps=gaps,
        dragonfly_contact=contact,
        dragonfly_carry=carry,
        mosquito_stays_dragonfly=mosquito,
    )
    for sidestep, gaps, contact, carry, mosquito in itertools.product(
        DragonflySidestep, (False, True), (False, True), DragonflyCarry, (False, True)
    )
]
_FLYERS = (Bug.DRAGONFLY, Bug.MOSQUITO)
_POWERS = (Bug.DRAGONFLY, Bug.MOSQUITO, Bug.PILLBUG, Bug.BEETLE, Bug.LADYBUG)


def _label(options: Options) -> str:
    return (
        f"{options.dragonfly_sidestep}-gaps{int(options.dragonfly_gaps)}"
        f"-contact{int(options.dragonfly_contact)}-{options.dragonfly_carry}"
        f"-mosquito{int(options.mosquito_stays_dragonfly)}"
    )


@pytest.mark.parametrize(
    "options",
    # Every combination in the full run; one in six in the quick one (-m "not slow").
    [
        pytest.param(options, marks=() if index % 6 == 0 else pytest.mark.slow)
        for index, options in enumerate(DRAGONFLY_COMBINATIONS)
    ],
    ids=_label,
)
def test_every_dragonfly_combination_keeps_invariants(options: Options) -> None:
    """A random Dragonfly game (with the Mosquito) under each of the 48 combinations:
    one hive, exact undo, hash = the hash of the position set up from scratch (plus the
    options' history keys), MoveStrings round trip, no duplicate moves, and the GameString
    replays to the same game."""
    rng = random.Random(_label(options))
    # About half the combinations play with the Ladybug and the Pillbug too.
    game = Game(rng.choice(("Base+MD", "Base+MLPD")), options=options)
    for _ in range(60):
        assert_invariants(game)
        codes = game.legal_move_codes()
        if not codes:
            break
        assert_undo_and_notation(game, codes, rng)
        # Prefer Dragonfly and Mosquito moves, so that stacks, carries and flights happen.
        flyers = [c for c in codes if c != PASS_CODE and bug_of(c & 31) in _FLYERS]
        game.push_code(rng.choice(flyers if flyers and rng.random() < 0.6 else codes))
    again = Game.from_game_string(game.game_string(), options=options)
    assert again == game
    assert again.hash == game.hash
    assert again.state == game.state
    # perft(2) by push and pop equals perft(2) over games replayed from scratch.
    replayed = 0
    for code in game.legal_move_codes():
        child = game.copy()
        child.push_code(code)
        replayed += len(Game.from_game_string(child.game_string(), options=options).legal_moves)
    assert game.perft(2) == replayed


def _by(codes: set[int], bugs: tuple[Bug, ...]) -> set[int]:
    return {c for c in codes if c != PASS_CODE and bug_of(c & 31) in bugs}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_readings_relate_as_the_documents_say(seed: int) -> None:
    """In every position of random games played in parallel under several readings:
    ``either`` is exactly ``forward`` ∪ ``backward``; the gaps and contact options only remove
    Dragonfly moves; ``next_turn`` only removes carries; no reading touches the other bugs."""
    rng = random.Random(seed)
    plain = Options(repetition_draw=False)
    variants = {
        "forward": plain,
        "backward": plain.with_values(dragonfly_sidestep="backward"),
        "either": plain.with_values(dragonfly_sidestep="either"),
        "gaps": plain.with_values(dragonfly_gaps=True),
        "contact": plain.with_values(dragonfly_contact=True),
        "both": plain.with_values(dragonfly_gaps=True, dragonfly_contact=True),
        "next_turn": plain.with_values(dragonfly_carry="next_turn"),
    }
    games = {name: Game("Base+MLPD", options=options) for name, options in variants.items()}
    for _ in range(150):
        moves = {name: set(game.legal_move_codes()) for name, game in games.items()}
        assert moves["either"] == moves["forward"] | moves["backward"]
        for name in ("gaps", "contact", "both", "next_turn"):
            assert moves[name] <= moves["forward"]
        assert moves["both"] <= moves["gaps"] & moves["contact"]
        carries = {c for c in moves["forward"] if c != PASS_CODE and Move.from_code(c).carry}
        assert moves["forward"] - moves["next_turn"] <= carries
        others = {name: codes - _by(codes, _FLYERS) for name, codes in moves.items()}
        assert all(codes == others["forward"] for codes in others.values())
        common = set.intersection(*moves.values())
        if not common:
            break
        choice = rng.choice(sorted(common))
        for game in games.values():
            game.push_code(choice)


def test_a_free_dragonfly_always_has_a_backward_sidestep() -> None:
    """docs/rules.md: at 120° the step passes along the last piece jumped, so a Dragonfly that
    may move at all has a move (the 60° reading has no such guarantee)."""
    from panal.hex import pack
    from panal.hive import Piece
    from panal.hive.movement import pinned_cells

    rng = random.Random(13)
    checked = 0
    for _ in range(20):
        game = Game("Base+MLPD", dragonfly_sidestep="backward", repetition_draw=False)
        for _ in range(150):
            codes = game.legal_move_codes()
            if not codes:
                break
            dragonfly = Piece.wD if game.turn == Color.WHITE else Piece.bD
            where = game.position_of(dragonfly)
            if where is not None and game.is_queen_placed(game.turn):
                stack = game.stack_at(where)
                free = stack[-1] == dragonfly and game.last_moved != dragonfly
                if free and (len(stack) > 1 or pack(where) not in pinned_cells(game.stacks)):
                    checked += 1
                    assert any(m.piece == dragonfly for m in game.legal_moves), game.game_string()
            game.push_code(rng.choice(codes))
    assert checked > 100


def test_a_dragonfly_never_lands_next_to_where_it_started() -> None:
    """docs/rules.md: the landing is at least two cells away (so never the starting cell), under
    every sidestep reading. (No pillbug here: its throw moves a Dragonfly one cell.)"""
    rng = random.Random(3)
    flights = 0
    for _ in range(10):
        game = Game("Base+MLD", dragonfly_sidestep="either", repetition_draw=False)
        for _ in range(120):
            codes = game.legal_move_codes()
            if not codes:
                break
            for code in _by(set(codes), (Bug.DRAGONFLY,)):
                origin = game.piece_cells[code & 31]
                if origin != OFF_BOARD:
                    flights += 1
                    assert unpack(origin).distance(unpack(code >> 6)) >= 2
            game.push_code(rng.choice(codes))
    assert flights > 500


@pytest.mark.parametrize("seed", range(4))
def test_pinned_cells_kept_across_moves_are_the_articulation_points(seed: int) -> None:
    """The game derives a position's pinned cells from the last one's after a placement or a
    move that keeps the hive's shape; after every legal move and its undo they are the hive's
    articulation points, computed from scratch."""
    from panal.hive.movement import articulation_points

    rng = random.Random(seed)
    game = Game(GAME_TYPES[seed % len(GAME_TYPES)])
    for _ in range(80):
        codes = game.legal_move_codes()  # makes the pinned cells known before each move
        if not codes:
            break
        before = game.pinned_cells()
        assert before == articulation_points(game.stacks)
        for code in codes:
            game.push_code(code)
            assert game.pinned_cells() == articulation_points(game.stacks), game.move_strings()
            game.pop_code()
            assert game.pinned_cells() is before
        game.push_code(rng.choice(codes))


def _connected(cells: set[int]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen, frontier = {start}, [start]
    while frontier:
        cell = frontier.pop()
        for step in NEIGHBOR_OFFSETS:
            near = cell + step
            if near in cells and near not in seen:
                seen.add(near)
                frontier.append(near)
    return len(seen) == len(cells)


@pytest.mark.parametrize("seed", range(3))
def test_articulation_points_are_the_cells_whose_removal_splits_the_hive(seed: int) -> None:
    """Tarjan's cut cells against the definition: remove each cell, test the rest's contact."""
    from panal.hive.movement import articulation_points

    rng = random.Random(seed)
    game = Game("Base+MLP")
    for _ in range(70):
        codes = game.legal_move_codes()
        if not codes:
            break
        cells = set(game.stacks)
        expected = {cell for cell in cells if len(cells) >= 3 and not _connected(cells - {cell})}
        assert articulation_points(game.stacks) == expected
        game.push_code(rng.choice(codes))


def _answers_one_by_one(game: Game, codes: set[int]) -> set[int]:
    """The codes ``is_legal_code`` accepts, each asked of a fresh copy of ``game`` (whose legal
    moves are not generated yet, so that the per-move path answers, not the list)."""
    return {code for code in codes if game.copy().is_legal_code(code)}


@pytest.mark.parametrize("game_type", [*GAME_TYPES, "Base+MD"])
def test_is_legal_code_answers_as_the_generated_moves(game_type: str) -> None:
    """``is_legal_code`` decides one move without generating the others; on positions of random
    games (with the Dragonfly's options drawn too) it accepts exactly the generated moves among
    every piece going to every cell on or beside the hive, carried or not."""
    rng = random.Random(game_type)
    options = rng.choice(DRAGONFLY_COMBINATIONS) if "D" in game_type else None
    game = Game(game_type, options=options)
    checked = 0
    for ply in range(90):
        codes = game.legal_move_codes()
        if not codes:
            break
        if ply % 6 == 5:
            near = {cell + step for cell in game.stacks for step in (0, *NEIGHBOR_OFFSETS)}
            candidates = {
                cell << 6 | flag | piece
                for cell in near
                for piece in range(32)
                for flag in (0, CARRY_FLAG)
            }
            legal = set(codes) - {PASS_CODE}
            assert legal <= candidates
            assert _answers_one_by_one(game, candidates) == legal
            assert game.copy().is_legal_code(PASS_CODE) is (codes == [PASS_CODE])
            checked += 1
        # Prefer the pieces with powers, so that throws, climbs and carries happen.
        movers = [c for c in codes if c != PASS_CODE and bug_of(c & 31) in _POWERS]
        game.push_code(rng.choice(movers if movers and rng.random() < 0.5 else codes))
    assert checked >= 5
