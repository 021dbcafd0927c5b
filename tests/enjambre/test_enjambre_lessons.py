"""The Enjambre Tácticas tutorial: every lesson's position says what its prompt says (rulebook
003's words), every asked action is legal and answers it, and every forbidden one is refused by
the engine for the rule the lesson names."""

from __future__ import annotations

import pytest

from panal.enjambre import CellKind, IllegalActionError, Phase
from panal.enjambre.lessons import (
    LANGUAGES,
    ActionTextError,
    load_table_lessons,
    parse_action,
    play,
    table_lesson_texts,
)

LESSONS = {lesson.id: lesson for lesson in load_table_lessons()}


def test_the_tutorial_follows_the_rulebook() -> None:
    assert list(LESSONS) == [
        "enjambre_setup",
        "enjambre_movement",
        "enjambre_combat",
        "enjambre_scout",
        "enjambre_scoring",
    ]


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_every_asked_action_is_legal_and_answers_the_lesson(lesson_id: str) -> None:
    lesson = LESSONS[lesson_id]
    for ask in lesson.asks:
        assert lesson.answer(ask) == (True, True, None), ask
        game = lesson.game()
        play(game, ask)  # the engine itself accepts it


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_every_forbidden_action_is_refused_for_the_stated_rule(lesson_id: str) -> None:
    lesson = LESSONS[lesson_id]
    assert lesson.forbids
    for forbidden in lesson.forbids:
        game = lesson.game()
        with pytest.raises(IllegalActionError) as refused:
            play(game, forbidden.action)
        assert refused.value.code == forbidden.rule, forbidden
        assert lesson.answer(forbidden.action) == (False, False, forbidden.rule)
        assert game.log.actions == lesson.game().log.actions  # a refusal changes nothing


def test_setup_tiles_start_in_the_own_zone_only() -> None:
    lesson = LESSONS["enjambre_setup"]
    game = lesson.game()
    assert game.state.phase is Phase.SETUP
    board = game.board
    zone = {board.labels[cell] for cell in game.state.zone(lesson.learner)}
    assert {ask.split()[2] for ask in lesson.asks} == zone  # every cell of the zone, no other
    kinds = {board.kind[board.cells_by_label[f.action.split()[2]]] for f in lesson.forbids}
    assert kinds == {CellKind.DARK, CellKind.COLMENA, CellKind.NEUTRAL}


def test_movement_one_step_in_the_zone_two_outside_through_the_colmena() -> None:
    lesson = LESSONS["enjambre_movement"]
    game = lesson.game()
    state, board = game.state, game.board
    tile = state.occupant[board.cells_by_label["H9"]]
    assert board.kind[board.cells_by_label["H9"]] is not CellKind.ZONE  # outside: two steps
    events_before = len(game.history)
    play(game, "H9-H8-E6")
    vias = [getattr(e, "via", None) for e in game.history[events_before:]]
    assert vias[:2] == ["step", "colmena"]
    assert state.tile_cell[tile] == board.cells_by_label["E6"]


def test_combat_the_higher_number_stays() -> None:
    lesson = LESSONS["enjambre_combat"]
    game = lesson.game()
    board = game.board
    mine = game.state.occupant[board.cells_by_label["H8"]]
    theirs = game.state.occupant[board.cells_by_label["F5"]]
    assert game.number(mine) == 10 and game.number(theirs) < 10
    assert game.state.owner(theirs) != lesson.learner
    play(game, "H8-F5")
    assert game.state.tile_cell[theirs] is None  # eliminated
    assert game.state.tile_cell[mine] == board.cells_by_label["F5"]


def test_the_scout_shows_the_enemy_tiles_beside_it() -> None:
    lesson = LESSONS["enjambre_scout"]
    game = lesson.game()
    board = game.board
    scout = game.state.occupant[board.cells_by_label["I8"]]
    enemy = game.state.occupant[board.cells_by_label["I7"]]
    assert game.number(scout) == 1
    assert board.cells_by_label["I7"] in board.neighbours[board.cells_by_label["I8"]]
    assert game.observe(lesson.learner).tiles()[enemy].number is None  # hidden before
    play(game, "scout I8")
    assert game.observe(lesson.learner).tiles()[enemy].number == game.number(enemy)


def test_scoring_the_colmena_tile_plus_one_a_survivor() -> None:
    lesson = LESSONS["enjambre_scoring"]
    game = lesson.game()
    board = game.board
    assert game.state.round == game.state.options.rounds == 10
    assert game.state.colmena_cell(lesson.learner) == board.cells_by_label["G8"]
    play(game, "H8-G8")
    play(game, "end")
    play(game, "end")
    assert game.over and game.result is not None
    survivors = len(game.state.tiles_on_board(lesson.learner))
    assert game.result.scores[lesson.learner] == 10 + survivors - 1


def test_a_bad_action_text_is_an_error() -> None:
    game = LESSONS["enjambre_combat"].game()
    for text in ("", "H8", "Z99-F5", "A1-B1", "place 11 H10", "scout"):
        with pytest.raises(ActionTextError):
            parse_action(game, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lesson_has_its_words(language: str) -> None:
    texts = table_lesson_texts(language)
    for lesson in LESSONS.values():
        assert texts[lesson.title_key] and len(texts[lesson.prompt_key]) > 40
