"""panal.ai.analyse against positions no one here chose: forced surrounds cut from real games.

The positions are the BoardGameArena games of ../shared/corpus (human players), in file order:
one ply before the end of each game that ends with a surround, and three plies before it. Which
of them have a forced surround in one or two own moves is decided here, by a small exhaustive
search over the rules engine's legal moves (no evaluation, no pruning that could miss a
defence), not by the analyser and not by panal.puzzles.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache

import pytest

from panal.ai import Analysis, Searcher, analyse, review
from panal.ai.analysis import DEFAULT_NODES
from panal.hive import Color, Game, GameState, Move, Piece
from panal.hive.codes import PASS_CODE
from panal.hive.records import BOARD_GAME_ARENA_OPTIONS
from tests.ai.test_evaluation_progress import IMMOBILE_WHITE
from tests.shared_data import read_lines, shared

BGA = ("corpus", "alpha-hive-bga-uhp", "bga_base_mlp_renumbered.uhp.txt")
PER_DISTANCE = 16  # positions with a surround in one, and as many in two: 32 in all


# --- the independent checker -----------------------------------------------------------------


def _won(game: Game, color: Color) -> bool:
    return game.state is (GameState.WHITE_WINS if color is Color.WHITE else GameState.BLACK_WINS)


def surrounding_moves(game: Game) -> list[Move]:
    """Every move of the side to move that wins at once (all legal moves tried)."""
    mover = game.turn
    found = []
    for move in list(game.legal_moves):
        game.push(move)
        if _won(game, mover):
            found.append(move)
        game.pop()
    return found


def _wins_at_once(game: Game, mover: Color) -> bool:
    """Whether ``mover`` (to move) has a move that wins at once.

    Only moves that could fill the enemy queen's ring are tried, and that is exact: a move that
    neither moves the enemy queen (a Pillbug's throw) nor carries (a Dragonfly) leaves the queen
    where it is and newly fills one cell, its destination; so it completes the ring only when
    exactly one cell of the ring is empty and it goes there.
    """
    enemy = Piece.bQ if mover is Color.WHITE else Piece.wQ
    queen = game.position_of(enemy)
    if queen is None:
        return False
    empty = [cell for cell in queen.neighbors() if not game.stack_at(cell)]
    for move in list(game.legal_moves):
        if not move:
            continue
        if not ((len(empty) == 1 and move.to == empty[0]) or move.piece is enemy or move.carry):
            continue
        game.push(move)
        won = _won(game, mover)
        game.pop()
        if won:
            return True
    return False


def wins_in_two(game: Game, first: Move) -> bool:
    """Whether ``first`` surrounds the enemy queen on the mover's next move whatever the reply
    (every reply tried; a reply that loses at once counts as a win)."""
    mover = game.turn
    game.push(first)
    try:
        if game.is_over():
            return False
        for reply in list(game.legal_moves):
            game.push(reply)
            try:
                if game.is_over():
                    if not _won(game, mover):
                        return False
                elif not _wins_at_once(game, mover):
                    return False
            finally:
                game.pop()
        return True
    finally:
        game.pop()


def surround_distance(game: Game) -> int | None:
    """1 or 2: the fewest own moves that surround the enemy queen by force; None otherwise."""
    if surrounding_moves(game):
        return 1
    if any(wins_in_two(game, move) for move in list(game.legal_moves)):
        return 2
    return None


# --- the positions ---------------------------------------------------------------------------


def _decisive_games() -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(read_lines(shared(*BGA)), 1):
        fields = line.strip().rstrip(";").split(";")
        if fields[1] in ("WhiteWins", "BlackWins") and len(fields) > 12:
            yield number, fields[3:]


def _position(moves: list[str]) -> Game:
    game = Game("Base+MLP", options=BOARD_GAME_ARENA_OPTIONS)
    for text in moves:
        game.push(text, lenient=True)
    return game


@cache
def forced_surrounds() -> dict[int, list[tuple[str, Game]]]:
    """The first positions, in the corpus's order, with a forced surround in exactly one and in
    exactly two own moves, by distance: (a name for the failure message, the position)."""
    found: dict[int, list[tuple[str, Game]]] = {1: [], 2: []}
    for number, moves in _decisive_games():
        for before_end, distance in ((1, 1), (3, 2)):
            if len(found[distance]) >= PER_DISTANCE:
                continue
            game = _position(moves[:-before_end])
            if not game.is_over() and surround_distance(game) == distance:
                name = f"BGA game {number}, ply {game.ply}"
                found[distance].append((name, game))
        if all(len(positions) >= PER_DISTANCE for positions in found.values()):
            break
    return found


def _surround_case(distance: int, index: int) -> tuple[str, Game]:
    positions = forced_surrounds()[distance]
    assert len(positions) == PER_DISTANCE, "the corpus no longer yields enough positions"
    return positions[index]


# --- the analyser on them --------------------------------------------------------------------


def _check_top_line(name: str, game: Game, distance: int, analysis: Analysis) -> None:
    top = analysis.lines[0]
    assert top.surround_in == distance, f"{name}: {top}"
    assert top.surrounded_in is None
    assert top.win_chance >= 0.99
    assert analysis.white_win_chance == (1.0 if game.turn is Color.WHITE else 0.0)
    first = game.parse_move(top.moves[0])
    if distance == 1:
        assert first in surrounding_moves(game), name
    else:
        assert wins_in_two(game, first), name
        # The line plays on to the surround.
        line = game.copy()
        for text in top.moves[:3]:
            line.push(text)
        assert _won(line, game.turn), f"{name}: {top.moves}"


@pytest.mark.slow
@pytest.mark.parametrize("distance", [1, 2])
@pytest.mark.parametrize("index", range(PER_DISTANCE))
def test_the_top_line_finds_the_forced_surround(distance: int, index: int) -> None:
    """At the default budget and three lines, as a player would ask."""
    name, game = _surround_case(distance, index)
    before = game.game_string()
    analysis = analyse(game)
    assert game.game_string() == before  # not modified
    assert analysis.nodes <= DEFAULT_NODES + 1
    _check_top_line(name, game, distance, analysis)
    _check_lines_are_distinct_and_ordered(game, analysis)


@pytest.mark.parametrize("distance", [1, 2])
@pytest.mark.parametrize("index", [0, 5, 10, 15])
def test_a_single_line_finds_the_forced_surround(distance: int, index: int) -> None:
    """The quick version of the above (one line; the search stops once the surround is
    proven)."""
    name, game = _surround_case(distance, index)
    _check_top_line(name, game, distance, analyse(game, lines=1))


def test_the_checker_finds_what_it_should() -> None:
    """The exhaustive checker itself: the real last move of a game surrounds, and a position
    with a surround in two has none in one."""
    name, game = _surround_case(1, 0)
    assert surrounding_moves(game), name
    name, game = _surround_case(2, 0)
    assert not surrounding_moves(game), name
    assert sum(wins_in_two(game, move) for move in list(game.legal_moves)) >= 1


# --- lines, progress, determinism ------------------------------------------------------------


def _check_lines_are_distinct_and_ordered(game: Game, analysis: Analysis) -> None:
    firsts = [line.moves[0] for line in analysis.lines]
    assert len(set(firsts)) == len(firsts)
    assert all(game.is_legal(move) for move in firsts)
    scores = [line.score for line in analysis.lines]
    assert scores == sorted(scores, reverse=True)
    chances = [line.win_chance for line in analysis.lines]
    assert chances == sorted(chances, reverse=True)
    for line in analysis.lines:
        replay = game.copy()
        for text in line.moves:
            replay.push(text)  # every line is playable


MIDDLE_GAME = (
    "Base+MLP;InProgress;White[9];wP;bS1 \\wP;wM wP\\;bA1 -bS1;wQ -wM;bQ bS1/;wA1 wM/;bA1 /wQ;"
    "wM bQ/;bB1 -bA1;wA1 -bQ;bB1 bA1;wB1 wM-;bB1 wQ;wB1 wM\\;bA2 -bB1"
)


def test_multi_pv_lines_are_distinct_and_ordered() -> None:
    game = Game.from_game_string(MIDDLE_GAME)
    analysis = analyse(game, lines=5, nodes=4_000)
    assert len(analysis.lines) == 5
    _check_lines_are_distinct_and_ordered(game, analysis)
    assert all(line.depth == analysis.depth for line in analysis.lines)


def test_more_lines_than_moves() -> None:
    game = Game.from_game_string("Base;InProgress;Black[1];wS1")
    analysis = analyse(game, lines=10, nodes=500)
    # Every legal move once, and no more lines than moves.
    assert len(analysis.lines) == min(10, len(game.legal_move_codes()))
    _check_lines_are_distinct_and_ordered(game, analysis)


def test_the_same_budget_gives_the_same_analysis_whatever_the_seed() -> None:
    game = Game.from_game_string(MIDDLE_GAME)
    first = analyse(game, lines=3, nodes=3_000, seed=1).to_json()
    again = analyse(game, lines=3, nodes=3_000, seed=2).to_json()
    for found in (first, again):
        del found["seconds"]
    assert first == again
    json.dumps(first)  # plain values only


def test_progress_reports_each_completed_depth() -> None:
    game = Game.from_game_string(MIDDLE_GAME)
    seen: list[Analysis] = []
    final = analyse(game, lines=2, nodes=3_000, on_progress=seen.append)
    assert [a.depth for a in seen] == list(range(1, final.depth + 1))
    assert all(len(a.lines) == 2 for a in seen)
    assert seen[-1].lines == final.lines


def test_a_time_budget_also_ends_the_search() -> None:
    game = Game.from_game_string(MIDDLE_GAME)
    analysis = analyse(game, lines=2, seconds=0.2)
    assert analysis.depth >= 1 and len(analysis.lines) == 2


def test_being_surrounded_is_reported_for_the_loser() -> None:
    """The side to move whose queen the other side surrounds next move, whatever it does."""
    name, game = _surround_case(2, 0)
    # After the winning first move, the other side is to move and lost.
    winning = next(move for move in list(game.legal_moves) if wins_in_two(game, move))
    game = game.copy()
    game.push(winning)
    top = analyse(game, lines=1, nodes=5_000).lines[0]
    assert top.surround_in is None
    assert top.surrounded_in == 1, name
    assert top.win_chance == 0.0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"lines": 0}, "lines is at least 1"),
        ({"nodes": 0}, "nodes is at least 1"),
        ({"seconds": 0}, "seconds is more than 0"),
    ],
)
def test_bad_arguments_are_refused(arguments: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        analyse(Game("Base"), **arguments)  # type: ignore[arg-type]


def test_a_finished_game_has_nothing_to_analyse() -> None:
    _, game = _surround_case(1, 0)
    game = game.copy()
    game.push(surrounding_moves(game)[0])
    with pytest.raises(ValueError, match="the game is over"):
        analyse(game)


def test_multi_pv_scores_are_those_of_each_move_searched_alone() -> None:
    """An exact two-ply multi-PV search against one exact one-ply search after each root move:
    each line's score is its move's, and no move left out scores above the last line."""
    game = Game.from_game_string(MIDDLE_GAME)
    found = Searcher().search_lines(game, 4, depth=2)
    alone = {}
    for code in game.legal_move_codes():
        child = game.copy()
        child.push_code(code)
        assert not child.is_over()  # no move ends this game: every score is a search's
        alone[code] = -Searcher().search(child, depth=1).score
    assert [line.score for line in found] == [alone[line.code] for line in found]
    assert sorted(alone.values(), reverse=True)[:4] == [line.score for line in found]


def test_a_forced_pass_is_one_line_and_a_reviewed_forced_move_has_no_mark() -> None:
    game = Game("Base", tournament_opening=True, repetition_draw=False)
    for move in IMMOBILE_WHITE.split(";"):
        game.push(move)
    assert game.legal_move_codes() == [PASS_CODE]  # White can only pass
    analysis = analyse(game, lines=3, nodes=2_000)
    assert [line.moves[0] for line in analysis.lines] == ["pass"]
    game.push("pass")
    game.push(analyse(game, lines=1, nodes=500).lines[0].moves[0])
    result = review(game, nodes_per_ply=300)
    passes = [ply for ply in result.plies if ply.move == "pass"]
    assert passes and all(p.forced and p.judgement is None and p.loss == 0.0 for p in passes)
