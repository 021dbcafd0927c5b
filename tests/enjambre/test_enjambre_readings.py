"""The readings of rulebook 003 that players may take either way (docs/enjambre.md, the table at
its top): a test per reading, on small positions worked out by hand."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from enjambre_helpers import assert_illegal, at, cell, end_turns, position, started, tile_of
from tests.shared_data import shared

from panal.enjambre import OPTION_SPECS, EndTurn, Options, OptionSpec, Scout, Step
from panal.enjambre.actions import Scouted
from panal.enjambre.bots.knowledge import geometry_for
from panal.enjambre.scoring import elimination_points, score_game

ORANGE, RED = 0, 1  # two players: orange and red face each other
BLUE = 1  # four players: orange, blue, red, purple

# --------------------------------------------------------------------- the scout's failed flip


def test_a_failed_flip_uses_up_the_turns_scout_by_default() -> None:
    """§8: 'una vez por turno'; the flip of a tile that is not the 1 was the turn's attempt."""
    game = started(2)
    game.apply(ORANGE, Scout(tile_of(game, ORANGE, 6)))
    assert game.state.scout_used
    assert_illegal(game, ORANGE, Scout(tile_of(game, ORANGE, 1)), "once per turn")


def test_scout_retry_lets_the_player_flip_again_after_a_failed_flip() -> None:
    """§8: 'si no lo fuera, la volverá a girar y continuaría el juego' read as: nothing was
    activated, the turn goes on as before."""
    game = started(2, options=Options(scout_retry=True))
    six, four, one = (tile_of(game, ORANGE, n) for n in (6, 4, 1))
    game.apply(ORANGE, Scout(six))
    assert not game.state.scout_used
    assert_illegal(game, ORANGE, Scout(six), "already flipped")  # it showed its number once
    game.apply(ORANGE, Scout(four))
    game.apply(ORANGE, Scout(one))
    event = game.history[-1]
    assert isinstance(event, Scouted) and event.success
    assert game.state.scout_used  # the 1 was activated: that was the turn's scout
    assert_illegal(game, ORANGE, Scout(tile_of(game, ORANGE, 2)), "once per turn")
    game.apply(ORANGE, EndTurn())
    game.apply(RED, EndTurn())
    game.apply(ORANGE, Scout(six))  # a new turn: every tile may be flipped again


def test_a_failed_flip_never_gives_the_extra_step() -> None:
    """§16's extra step follows an activation of the scout, which a failed flip is not, under
    either reading of §8."""
    for retry in (False, True):
        game = started(2, options=Options(scout_extra_step=True, scout_retry=retry))
        six = tile_of(game, ORANGE, 6)  # in its own zone: one step
        game.apply(ORANGE, Scout(six))
        assert game.state.steps_for(six)[1] == 1  # type: ignore[index]
    game = started(2, options=Options(scout_extra_step=True, scout_retry=True))
    game.apply(ORANGE, Scout(tile_of(game, ORANGE, 6)))
    one = tile_of(game, ORANGE, 1)
    game.apply(ORANGE, Scout(one))
    assert game.state.steps_for(one)[1] == 2  # type: ignore[index]


# --------------------------------------------------------------------- linked dark cells


def test_linked_dark_cells_all_and_spoke() -> None:
    """§16: 'Los hexágonos entre dos zonas … podrán usarse como si estos estuvieran juntos'.
    G9…G13 are one spoke (between orange's and yellow's zones), I7…M7 another."""
    pieces = {"G9": (ORANGE, 5)}
    every = position(2, pieces, options=Options(linked_dark_cells="all"))
    spoke = position(2, pieces, options=Options(linked_dark_cells="spoke"))
    plain = position(2, pieces)
    five = tile_of(plain, ORANGE, 5)

    def one_step(game: object, label: str) -> bool:
        return cell(plain, label) in game.state.candidate_cells(ORANGE, cell(plain, "G9"))  # type: ignore[attr-defined]

    assert [one_step(g, "G13") for g in (plain, spoke, every)] == [False, True, True]
    assert [one_step(g, "M7") for g in (plain, spoke, every)] == [False, False, True]
    spoke.apply(ORANGE, Step(five, cell(spoke, "G13")))
    assert at(spoke, "G13") == five and spoke.history[-1].via == "dark"  # type: ignore[attr-defined]
    assert_illegal(spoke, ORANGE, Step(five, cell(spoke, "M7")), "one step")


def test_the_dark_cells_a_spoke_joins_and_the_bots_distances() -> None:
    """Under 'all' the 30 dark cells are one step apart (G13 reaches the 29 others); under
    'spoke' each spoke's five are (G13 reaches G9…G12), and M7 on another spoke is three steps
    away: G13 to G9 along the spoke, across the colmena to I7, along that spoke to M7."""
    for reading, reachable in (("all", 29), ("spoke", 4)):
        game = started(2, options=Options(linked_dark_cells=reading))
        near = game.state.candidate_cells(ORANGE, cell(game, "G13"))
        dark = [c for c in near if c in game.board.dark]
        assert len(dark) == reachable
        distances = geometry_for(game.state).distance[cell(game, "G13")]
        assert distances[cell(game, "G9")] == 1
        assert distances[cell(game, "M7")] == (1 if reading == "all" else 3)


def test_old_logs_with_a_yes_no_linked_dark_cells_still_read() -> None:
    assert Options.from_dict({"linked_dark_cells": True}).linked_dark_cells == "all"
    assert Options.from_dict({"linked_dark_cells": False}).linked_dark_cells == "off"
    with pytest.raises(ValueError, match="off, all, spoke"):
        Options(linked_dark_cells="some")


# --------------------------------------------------------------------- elimination points


def test_elimination_ranking_dense_or_competition() -> None:
    """§16: '3 puntos de victoria al que más elimine y 1 al segundo'. With two tied first, is
    the next player second (dense) or third (competition)?"""
    competition = Options(elimination_ranking="competition")
    assert elimination_points([2, 2, 1, 0]) == (3, 3, 1, 0)
    assert elimination_points([2, 2, 1, 0], competition) == (3, 3, 0, 0)
    assert elimination_points([4, 2, 2, 0], competition) == (3, 1, 1, 0)  # no tie at the top
    assert elimination_points([3, 3, 2, 1, 0]) == (4, 4, 2, 1, 0)
    assert elimination_points([3, 3, 2, 1, 0], competition) == (4, 4, 1, 0, 0)


def test_elimination_points_with_two_players() -> None:
    """Not covered by the rule (3-4 and 5-6 players): three readings."""
    assert elimination_points([3, 1]) == (3, 0)
    three_one = Options(two_player_elimination_points="three_one")
    assert elimination_points([3, 1], three_one) == (3, 1)
    assert elimination_points([0, 1], three_one) == (0, 3)
    none = Options(elimination_points=True, two_player_elimination_points="none")
    assert elimination_points([3, 1], none) == (0, 0)
    # With no points to give, the basic tiebreak (more eliminations) decides.
    result = score_game([10, 10], [8, 8], [2, 1], options=none)
    assert result.elimination_points == (0, 0) and result.places == (1, 2)
    top = score_game([10, 10], [8, 8], [2, 1], options=Options(elimination_points=True))
    assert top.scores == (20, 17) and top.places == (1, 2)


# --------------------------------------------------------------------- equal numbers


@pytest.mark.parametrize(
    ("credit", "orange_gets", "red_gets"),
    [("each", 1, 1), ("attacker", 1, 0), ("none", 0, 0)],
)
def test_who_keeps_the_tiles_when_equal_numbers_fight(
    credit: str, orange_gets: int, red_gets: int
) -> None:
    """§7: 'ambas se eliminarán … Las fichas eliminadas se las quedará quien las elimine.'"""
    game = position(2, {"H9": (ORANGE, 6), "H8": (RED, 6)}, options=Options(tie_credit=credit))
    six, red_six = tile_of(game, ORANGE, 6), tile_of(game, RED, 6)
    game.apply(ORANGE, Step(six, cell(game, "H8")))
    assert at(game, "H8") is None
    assert game.state.eliminations == [orange_gets, red_gets]
    keepers = {tile: by for tile, by, _ in game.state.eliminated}
    assert keepers[red_six] == (ORANGE if orange_gets else None)
    assert keepers[six] == (RED if red_gets else None)
    kept = {t.id: t.by for t in game.observe(RED).eliminated_tiles()}
    assert kept == keepers


def test_a_win_is_always_credited() -> None:
    for credit in ("each", "attacker", "none"):
        game = position(2, {"H9": (ORANGE, 8), "H8": (RED, 3)}, options=Options(tie_credit=credit))
        game.apply(ORANGE, Step(tile_of(game, ORANGE, 8), cell(game, "H8")))
        assert game.state.eliminations == [1, 0]


# --------------------------------------------------------------------- the displaced tile


def displacement(reading: str) -> set[str]:
    """Round 9 of 10 with colmena combat, four players. Orange's 3 steps from G9 into orange's
    colmena cell G8; then orange's 9 on H8 beats blue's 4 on blue's cell H7 and is placed on G8,
    pushing the 3 out. The empty cells nearest to G8 are G9 (the 3 left it), H8 (the 9 left it)
    and F8; the empty cell nearest to where the 3 came from is G9 itself."""
    options = Options(colmena_combat=True, displaced_to=reading)
    game = position(4, {"H8": (ORANGE, 9), "H7": (BLUE, 4), "G9": (ORANGE, 3)}, options=options)
    end_turns(game, 4 * 8)
    three, nine = tile_of(game, ORANGE, 3), tile_of(game, ORANGE, 9)
    game.apply(ORANGE, Step(three, cell(game, "G8")))
    assert game.state.entered_from[three] == cell(game, "G9")
    game.apply(ORANGE, Step(nine, cell(game, "H7")))
    assert at(game, "G8") == nine and game.state.displacing == three
    assert game.state.entered_from == {nine: cell(game, "H7")}  # it came from the fight
    return {game.board.label(c) for c in game.state.displace_options}


def test_the_displaced_tile_goes_near_its_colmena_cell_by_default() -> None:
    """§16: 'se posicionaría en la celda vacía más próxima de donde viene'."""
    assert displacement("near_colmena_cell") == {"G9", "H8", "F8"}


def test_the_displaced_tile_goes_back_where_it_came_from_under_near_entry() -> None:
    assert displacement("near_entry") == {"G9"}


def test_a_tile_that_leaves_its_colmena_cell_forgets_where_it_came_from() -> None:
    game = position(2, {"G9": (ORANGE, 3)})
    three = tile_of(game, ORANGE, 3)
    game.apply(ORANGE, Step(three, cell(game, "G8")))
    game.apply(ORANGE, EndTurn())
    game.apply(RED, EndTurn())
    game.apply(ORANGE, Step(three, cell(game, "H8")))
    assert three not in game.state.entered_from


# --------------------------------------------------------------------- the option table


def test_every_option_is_described_for_forms() -> None:
    """Issue 9 builds forms from this table: names, kinds, defaults, choices, descriptions."""
    names = [spec.name for spec in OPTION_SPECS]
    assert names == list(Options().to_dict())
    for spec in OPTION_SPECS:
        assert spec.default == Options().to_dict()[spec.name]
        assert spec.description and spec.section.startswith("§")
        assert spec.kind in ("bool", "int", "choice")
        if spec.kind == "choice":
            assert spec.choices and spec.default in spec.choices
        spec.check(spec.default)
    assert Options().changed() == {}
    assert Options(tie_credit="none", rounds=6).changed() == {"rounds": 6, "tie_credit": "none"}


def _letters(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", plain.lower())


@pytest.mark.parametrize("spec", OPTION_SPECS, ids=lambda spec: spec.name)
def test_each_option_quotes_the_rulebook(spec: OptionSpec) -> None:
    """The sentence an option reads is in rulebook 003, word for word (accents aside)."""
    text = _letters(next(shared("seeds").glob("003_*.txt")).read_text(encoding="utf-8"))
    assert _letters(spec.reads) in text


DOCS = Path(__file__).resolve().parents[2] / "docs" / "enjambre.md"


def test_the_document_table_lists_every_option_as_the_code_has_it() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table = {}
    for row in rows:
        name, values, flag, reads = [part.strip() for part in row.strip("|").split("|")][:4]
        table[name.strip("`")] = (values, flag, reads)
    assert list(table) == [spec.name for spec in OPTION_SPECS]
    for spec in OPTION_SPECS:
        values, flag, reads = table[spec.name]
        default = str(spec.default).lower() if spec.kind == "bool" else str(spec.default)
        assert f"**{default}**" in values, spec.name
        if spec.choices:
            assert [re.sub(r"\*", "", v).strip() for v in values.split(",")] == [
                *sorted(spec.choices, key=lambda c: c != spec.default)
            ]
        assert flag.startswith("`--" + spec.name.replace("_", "-")), spec.name
        assert spec.section in reads and (not spec.reads or spec.reads in reads), spec.name
