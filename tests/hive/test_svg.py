"""The SVG picture of a position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from panal.hive import Game
from panal.hive.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"
# A beetle on a queen (a stack of two) and bA1 moved last.
TEXT = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-;wB1 wQ;bA1 bB1-"


def pieces(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-piece"): g for g in root.iter(f"{SVG}g") if g.get("class") == "piece"}  # type: ignore[misc]


def test_one_piece_per_occupied_cell_named_by_its_top_piece() -> None:
    game = Game.from_game_string(TEXT)
    drawn = pieces(board_svg(game))
    assert set(drawn) == {"wS1", "bS1", "wB1", "bQ", "bB1", "bA1"}  # wQ is under wB1
    beetle_texts = {t.get("class"): t.text for t in drawn["wB1"].iter(f"{SVG}text")}
    assert beetle_texts == {"number": "1", "height": "×2"}
    assert [t.text for t in drawn["bQ"].iter(f"{SVG}text")] == []  # one queen: no number
    outlines = {name: g.find(f"{SVG}polygon").get("stroke") for name, g in drawn.items()}  # type: ignore[union-attr]
    assert outlines["bA1"] == "#e07b00" and outlines["bS1"] != "#e07b00"  # the last piece moved


def test_labels_follow_language_and_look() -> None:
    game = Game.from_game_string(TEXT)
    svg = board_svg(game, language="es", look="football")
    titles = {
        name: g.find(f"{SVG}title").text  # type: ignore[union-attr]
        for name, g in pieces(svg).items()
    }
    assert titles["bQ"] == "Escudo (Grana)"
    assert titles["wB1"] == "Muro 1 (Blanco)"
    assert all(g.get("aria-label") == titles[name] for name, g in pieces(svg).items())
    root = ET.fromstring(svg)
    assert root.get("aria-label") == "Tablero de Hive"
    assert ET.fromstring(board_svg(game, language="pt-BR")).get("aria-label") == "Tabuleiro de Hive"


def test_each_look_draws_its_own_pieces() -> None:
    game = Game.from_game_string(TEXT)
    classic = pieces(board_svg(game))
    football = pieces(board_svg(game, look="football"))
    # Tiles: ivory/black against Blanco/Grana (White plays the white tiles in both looks, issue
    # 25); figures: a beetle against a brick wall.
    tile = {name: g.find(f"{SVG}polygon").get("fill") for name, g in football.items()}  # type: ignore[union-attr]
    assert tile["wB1"] == "#fbfbf8" and tile["bQ"] == "#7b1e34"
    assert len(list(football["wB1"].iter(f"{SVG}rect"))) >= 10  # the wall's bricks
    assert not list(classic["wB1"].iter(f"{SVG}rect"))
    for name in classic:
        assert ET.tostring(classic[name]) != ET.tostring(football[name])


def test_bad_language_or_look() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        board_svg(Game(), language="fr")
    with pytest.raises(ValueError, match="unknown look"):
        board_svg(Game(), look="neon")


def test_empty_game_and_notebook_hook() -> None:
    empty = Game()
    assert pieces(board_svg(empty)) == {}
    assert empty._repr_svg_().startswith("<svg")
