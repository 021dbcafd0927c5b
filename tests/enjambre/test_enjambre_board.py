"""The board reconstructed from the rulebook's text, kept as data (issue 4, 'The board')."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from panal.enjambre import Board, CellKind, default_board
from panal.enjambre.board import LayoutError
from panal.enjambre.layout import DEFAULT_LAYOUT
from panal.enjambre.svg import board_svg
from panal.hex import DIRECTIONS, ORIGIN, Hex, hexagon

D = DIRECTIONS
ROOT = Path(__file__).resolve().parents[2]


def kinds(board: Board, kind: CellKind) -> set[Hex]:
    return {c for c in board.cells if board.kind[c] is kind}


def test_the_board_is_a_hexagon_of_radius_six() -> None:
    board = default_board()
    assert set(board.cells) == set(hexagon(6)) and len(board.cells) == 127


def test_the_colmena_is_the_centre_and_the_six_cells_around_it() -> None:
    board = default_board()
    assert kinds(board, CellKind.CENTRE) == {ORIGIN}
    assert kinds(board, CellKind.COLMENA) == set(D)
    assert board.colmena == tuple(D)  # colour i owns the cell D[i]
    assert len({board.colours[board.colmena_owner[c]] for c in board.colmena}) == 6


def test_the_dark_cells_are_six_spokes() -> None:
    expected = {d * k for d in D for k in range(2, 7)}
    assert kinds(default_board(), CellKind.DARK) == expected
    assert len(expected) == 30


def test_each_starting_zone_has_twelve_cells_between_two_spokes() -> None:
    board = default_board()
    for i in range(6):
        expected = {
            D[i] * a + D[(i + 1) % 6] * b
            for a in range(1, 7)
            for b in range(1, 7)
            if 4 <= a + b <= 6
        }
        assert set(board.zones[i]) == expected and len(expected) == 12
        assert all(board.kind[c] is CellKind.ZONE and board.sector[c] == i for c in expected)


def test_the_remaining_eighteen_cells_are_neutral() -> None:
    board = default_board()
    neutral = kinds(board, CellKind.NEUTRAL)
    assert len(neutral) == 18
    for i in range(6):
        for a, b in ((1, 1), (2, 1), (1, 2)):
            assert D[i] * a + D[(i + 1) % 6] * b in neutral


def test_the_cells_adjacent_to_the_colmena_are_ring_two() -> None:
    board = default_board()
    ring_two = {c for c in board.cells if c.length() == 2}
    assert board.colmena_adjacent == ring_two and len(ring_two) == 12


@pytest.mark.parametrize(
    ("players", "sectors"),
    [(2, (0, 3)), (3, (0, 2, 4)), (4, (0, 1, 3, 4)), (6, (0, 1, 2, 3, 4, 5))],
)
def test_fixed_seats(players: int, sectors: tuple[int, ...]) -> None:
    assert default_board().seats_for(players, random.Random(0)) == sectors


def test_seat_rules_in_words() -> None:
    board = default_board()
    rng = random.Random(0)
    two = board.seats_for(2, rng)
    assert (two[1] - two[0]) % 6 == 3  # face each other
    three = board.seats_for(3, rng)
    assert all((three[(k + 1) % 3] - three[k]) % 6 == 2 for k in range(3))  # one zone between
    four = board.seats_for(4, rng)
    facing = {frozenset((s, (s + 3) % 6)) for s in four if (s + 3) % 6 in four}
    assert len(facing) == 2  # two facing pairs


def test_five_players_draw_their_zones_with_the_games_generator() -> None:
    board = default_board()
    draws = {board.seats_for(5, random.Random(seed)) for seed in range(60)}
    assert len(draws) > 1  # the draw varies
    for seats in draws:
        assert len(set(seats)) == 5
        start = seats[0]
        assert list(seats) == sorted(seats, key=lambda s: (s - start) % 6)  # clockwise order
    assert board.seats_for(5, random.Random(9)) == board.seats_for(5, random.Random(9))


def test_clockwise_means_each_next_sector_is_turned_sixty_degrees_clockwise() -> None:
    """The data says play goes from sector i to i + 1; on screen (y down) that is clockwise."""
    board = default_board()
    assert board.clockwise == 1
    for i in range(6):
        nxt = board.next_clockwise(i)
        assert {c.rotate(1) for c in board.zones[i]} == set(board.zones[nxt])
        x0, y0 = board.colmena[i].to_pixel()
        x1, y1 = board.colmena[nxt].to_pixel()
        assert x0 * y1 - y0 * x1 > 0  # positive cross product: clockwise with y pointing down


def test_labels_are_row_letters_and_positions() -> None:
    board = default_board()
    assert board.label(ORIGIN) == "G7"
    assert board.parse_label(" g7 ") == ORIGIN
    assert board.label(Hex(0, -6)) == "A1"
    assert len(set(board.labels.values())) == 127
    with pytest.raises(ValueError, match="not a cell"):
        board.parse_label("Z9")


def broken(change: dict) -> dict:  # type: ignore[type-arg]
    layout = copy.deepcopy(DEFAULT_LAYOUT)
    for key, value in change.items():
        if key.startswith("sector."):
            layout["sector"][key.split(".")[1]] = value
        else:
            layout[key] = value
    return layout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sector.neutral": [[1, 1], [2, 1]]}, "have no kind"),
        ({"sector.dark": [[2, 0], [3, 0], [4, 0], [5, 0], [6, 0], [1, 1]]}, "described twice"),
        ({"sector.dark": [[2, 0], [3, 0], [4, 0], [5, 0], [7, 0]]}, "outside the board"),
        ({"colours": ["red"] * 6}, "six distinct colours"),
        ({"seats": {"2": [0, 3], "3": [0, 4, 2], "4": [0, 1, 3, 4], "5": "draw", "6": [0]}},
         "not listed clockwise"),
        ({"clockwise": 2}, "clockwise"),
        ({"radius": "six"}, "malformed"),
    ],
)  # fmt: skip
def test_a_wrong_layout_is_refused_with_the_reason(change: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(LayoutError, match=message):
        Board.from_layout(broken(change))


def test_the_layout_can_be_corrected_as_data() -> None:
    """If the lost pictures put each colour's colmena cell one cell further clockwise, only the
    data changes: ``[0, 1]`` of sector i is the cell D[i + 1]."""
    layout = copy.deepcopy(DEFAULT_LAYOUT)
    layout["sector"]["colmena"] = [[0, 1]]
    board = Board.from_layout(layout)
    assert board.colmena == tuple(D[(i + 1) % 6] for i in range(6))
    assert board.colmena_owner[D[1]] == 0


def test_the_docs_picture_is_generated_from_the_layout() -> None:
    svg = board_svg(default_board())
    assert (ROOT / "docs" / "enjambre-board.svg").read_text(encoding="utf-8") == svg
    assert svg.count("<polygon") == 127
    assert "enjambre-board.svg" in (ROOT / "docs" / "enjambre.md").read_text(encoding="utf-8")
