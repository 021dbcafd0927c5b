"""``panal.enjambre.views``: the plain data an interface shows, built from observations only."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import fields

from enjambre_helpers import cell, position, started, tile_of

from panal.enjambre import EndTurn, Game, Options, Place, Scout, Step
from panal.enjambre.board import default_board
from panal.enjambre.views import board_data, observation_data, option_fields

ORANGE, RED = 0, 1


def test_board_data_describes_every_cell_once() -> None:
    data = board_data(default_board())
    json.dumps(data)
    cells = [tuple(c["cell"]) for c in data["cells"]]
    assert len(cells) == len(set(cells)) == 127
    kinds = Counter(c["kind"] for c in data["cells"])
    assert kinds == {"centre": 1, "colmena": 6, "dark": 30, "neutral": 18, "zone": 72}
    assert len({c["label"] for c in data["cells"]}) == 127
    assert data["seats"]["2"] == [0, 3] and data["seats"]["5"] is None
    assert all(len(zone) == 12 for zone in data["zones"])


def test_option_fields_come_from_the_options_themselves() -> None:
    described = option_fields()
    json.dumps(described)
    assert [f["name"] for f in described] == [f.name for f in fields(Options)]
    defaults = Options()
    for entry in described:
        assert entry["default"] == getattr(defaults, entry["name"])
        assert entry["kind"] in ("bool", "int", "choice") and entry["description"]
        if entry["kind"] == "choice":
            assert entry["default"] in entry["choices"]
    rounds = next(f for f in described if f["name"] == "rounds")
    assert rounds["kind"] == "int" and rounds["minimum"] == 1


def numbers_of(view: dict[str, object]) -> dict[int, int]:
    return {t["id"]: t["number"] for t in view["tiles"] if t["number"] is not None}  # type: ignore[attr-defined,index]


def test_a_player_sees_their_own_numbers_and_nobody_elses() -> None:
    game = started(2)
    mine = observation_data(game.observe(ORANGE))
    json.dumps(mine)
    assert numbers_of(mine) == {t: game.number(t) for t in game.state.tiles_of(ORANGE)}
    spectator = observation_data(game.observe(None))
    assert numbers_of(spectator) == {} and spectator["viewer"] is None
    assert "legal" in mine and "legal" not in observation_data(game.observe(RED))
    everything = observation_data(game.observe_all(), legal=False)
    assert numbers_of(everything) == {t: game.number(t) for t in range(20)}


def test_setup_hides_other_players_positions_and_offers_the_own_zone() -> None:
    game = Game(3, seed=5, first_player=0)
    game.apply(1, Place(tuple(game.state.zone(1)[:10])))
    orange = observation_data(game.observe(ORANGE))
    assert orange["tiles"] == [] and orange["legal"] == {"place": True}
    assert len(orange["zone"]) == 12
    blue = observation_data(game.observe(1))
    assert len(blue["tiles"]) == 10 and "legal" not in blue  # blue is done arranging


def test_numbers_shown_this_turn_are_in_the_events_and_hidden_after_the_turn() -> None:
    from panal.enjambre.views import events_data

    game = position(2, {"H9": (ORANGE, 8), "G9": (RED, 3)})
    attacker = tile_of(game, ORANGE, 8)
    game.apply(ORANGE, Step(attacker, cell(game, "G9")))
    red = game.observe(RED)
    view = observation_data(red)
    assert numbers_of(view)[attacker] == 8  # face up until the end of the turn
    (combat,) = [e for e in events_data(red) if e["type"] == "combat"]
    assert (combat["attacker_number"], combat["defender_number"]) == (8, 3)
    assert view["eliminated"][0]["number"] == 3  # red's own tile
    # §14: the others see an eliminated tile face down (the combat event shows it this turn).
    assert observation_data(game.observe(ORANGE))["eliminated"][0]["number"] is None
    game.apply(ORANGE, EndTurn())
    red = game.observe(RED)
    assert attacker not in numbers_of(observation_data(red))
    (combat,) = [e for e in events_data(red) if e["type"] == "combat"]
    assert combat["attacker_number"] is None and combat["defender_number"] is None
    easy = position(
        2, {"H9": (ORANGE, 8), "G9": (RED, 3)}, options=Options(eliminated_visible=True)
    )
    easy.apply(ORANGE, Step(tile_of(easy, ORANGE, 8), cell(easy, "G9")))
    easy.apply(ORANGE, EndTurn())
    assert observation_data(easy.observe(RED))["eliminated"][0]["number"] == 3


def test_the_legal_part_lists_steps_whole_moves_scouts_and_the_end() -> None:
    game = position(2, {"H9": (ORANGE, 5)})
    tile = tile_of(game, ORANGE, 5)
    legal = observation_data(game.observe(ORANGE))["legal"]
    moves = legal["moves"][str(tile)]
    steps = {tuple(s["cell"]) for s in moves["steps"]}
    assert steps == {tuple(t.cell) for t in game.state.step_targets(tile)}
    ends = {tuple(p["cells"][-1]) for p in moves["paths"]}
    assert ends == {tuple(p.end) for p in game.state.paths(tile)}
    assert any(len(p["cells"]) == 2 for p in moves["paths"])  # two steps from a neutral cell
    assert legal["end"] is True and tile in legal["scout"]
    game.apply(ORANGE, Scout(tile))
    assert observation_data(game.observe(ORANGE))["legal"]["scout"] == []


def test_memory_play_hides_even_the_own_numbers_after_setup() -> None:
    game = started(2, options=Options(memory_play=True))
    assert numbers_of(observation_data(game.observe(ORANGE))) == {}
