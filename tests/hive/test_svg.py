"""The SVG picture of a position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from panal.hive import Game
from panal.hive.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"
# A beetle on a queen (a stack of two) and bA1 moved last.
TEXT = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-;wB1 wQ;bA1 bB1-"


def pieces(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-piece"): g for g in root.iter(f"{SVG}g")}  # type: ignore[misc]


def test_one_hexagon_per_occupied_cell_named_by_its_top_piece() -> None:
    game = Game.from_game_string(TEXT)
    drawn = pieces(board_svg(game))
    assert set(drawn) == {"wS1", "bS1", "wB1", "bQ", "bB1", "bA1"}  # wQ is under wB1
    beetle_texts = [t.text for t in drawn["wB1"].iter(f"{SVG}text")]
    assert beetle_texts == ["wB1", "×2"]
    outlines = {name: g.find(f"{SVG}polygon").get("stroke") for name, g in drawn.items()}  # type: ignore[union-attr]
    assert outlines["bA1"] != outlines["bS1"]  # the last piece moved stands out


def test_names_follow_language_and_look() -> None:
    game = Game.from_game_string(TEXT)
    titles = {
        name: g.find(f"{SVG}title").text  # type: ignore[union-attr]
        for name, g in pieces(board_svg(game, language="es", look="football")).items()
    }
    assert titles["bQ"] == "Escudo (Blanco)"
    assert titles["wB1"] == "Muro (Grana)"


def test_empty_game_and_notebook_hook() -> None:
    empty = Game()
    assert pieces(board_svg(empty)) == {}
    assert empty._repr_svg_().startswith("<svg")
