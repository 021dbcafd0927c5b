"""The text view and the legal-action texts for language-model agents."""

from __future__ import annotations

import doctest
import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from panal.enjambre import Options, Phase
from panal.enjambre.terminal import parse_command
from panal.env.enjambre_actions import EnjambreTable
from panal.env.enjambre_aec import EnjambreEnv
from panal.env.enjambre_text import (
    INSTRUCTIONS,
    extract_action,
    legal_action_texts,
    observation_text,
    play_text_game,
    prompt_text,
)


@pytest.mark.parametrize(("players", "moves"), [(2, "steps"), (3, "paths"), (6, "steps")])
def test_legal_texts_are_the_terminals_commands_one_to_one(players: int, moves: str) -> None:
    rng = random.Random(players)
    options = Options(rounds=2, scout_retry=True, colmena_combat=True)
    table = EnjambreTable(players, options=options, seed=players, moves=moves)
    parsed = 0
    while not table.over:
        texts = legal_action_texts(table)
        assert sorted(texts.values()) == table.legal_indices()  # one text per index
        if table.state.phase is Phase.PLAY and rng.random() < 0.3:
            observation = table.observe(table.to_move or 0)
            for text, index in texts.items():
                if "(below)" in text:
                    continue
                command = parse_command(text, observation)
                assert list(command.actions) == table.engine_actions(index), text
                parsed += 1
        table.apply(rng.choice(table.legal_indices()))
    assert parsed > 50


def test_set_up_picks_read_as_numbered_placements() -> None:
    table = EnjambreTable(2, seed=0, first_player=1)
    texts = legal_action_texts(table)
    zone = table.state.zone(1)
    label = table.state.board.label
    assert texts == {f"place 1 {label(cell)}": z for z, cell in enumerate(zone)}
    table.apply(texts[f"place 1 {label(zone[4])}"])
    assert f"place 2 {label(zone[4])}" not in legal_action_texts(table)
    assert f"1->{label(zone[4])}" in prompt_text(table, 1)


def test_the_text_view_shows_no_number_the_seat_has_not_seen() -> None:
    rng = random.Random(5)
    table = EnjambreTable(4, seed=5, options=Options(rounds=3))
    checked = 0
    while not table.over:
        if table.state.phase is Phase.PLAY and rng.random() < 0.1:
            seat = rng.randrange(4)
            observation = table.observe(seat)
            known = dict(observation.revealed) | dict(observation.numbers)
            text = observation_text(observation)
            for other in range(4):
                hidden = [t for t in table.state.tiles_of(other) if t not in known]
                if other == seat or len(hidden) < 2:
                    continue
                swapped = table.game.copy()
                a, b = hidden[:2]
                swapped.numbers[a], swapped.numbers[b] = swapped.numbers[b], swapped.numbers[a]
                assert observation_text(swapped.observe(seat)) == text
                checked += 1
        table.apply(rng.choice(table.legal_indices()))
    assert checked > 5


def test_a_text_game_plays_to_the_end_and_refuses_bad_answers() -> None:
    rng = random.Random(1)

    def listed(prompt: str) -> list[str]:
        return [line.strip() for line in prompt.split("your legal actions:\n")[1].splitlines()]

    table = EnjambreTable(3, seed=1, options=Options(rounds=1))
    transcript = play_text_game(
        table,
        {
            0: lambda prompt: "I choose " + rng.choice(listed(prompt)),
            1: lambda prompt: "  " + rng.choice(listed(prompt)).upper() + " ",
            2: lambda prompt: "dance",
        },
        max_retries=1,
    )
    assert table.over and sum(table.returns()) == pytest.approx(0.0)
    refused = [turn for turn in transcript if not turn.accepted]
    assert refused and {turn.seat for turn in refused} == {2}
    assert all(turn.action is not None for turn in transcript if turn.seat != 2)
    retry = next(t for t in transcript if t.seat == 2 and "Answer again" in t.prompt)
    assert retry.prompt.startswith(INSTRUCTIONS)


def test_the_last_legal_action_in_an_answer_is_read() -> None:
    legal = {"move H9 H8": 1, "move H9 H8 G8": 2, "scout H9": 3, "end": 4}
    assert extract_action("scout H9? no: move h9 h8 g8", legal) == "move H9 H8 G8"
    assert extract_action("move H9 H8, then end", legal) == "end"
    assert extract_action("I pass", legal) is None


def test_the_environment_offers_the_text_view_and_legal_texts() -> None:
    env = EnjambreEnv(2, rounds=1)
    env.reset(seed=2)
    acting = env.agent_selection
    waiting = next(a for a in env.possible_agents if a != acting)
    texts = env.legal_texts(acting)
    assert env.legal_texts(waiting) == {}
    mask = env.observe(acting)["action_mask"]
    assert sorted(texts.values()) == list(np.flatnonzero(mask))
    env.step(texts[next(iter(texts))])
    assert "placed so far: 1->" in env.text_observation(acting)
    colour = env.table.state.colour(env.seat(waiting))
    assert env.text_observation(waiting).startswith(f"You are {colour} (seat {env.seat(waiting)})")
    assert "placed so far: none" in env.text_observation(waiting)  # picks stay secret
    assert "legal actions" not in env.text_observation(waiting, with_legal=True)
    listed = env.text_observation(acting, with_legal=True).split("your legal actions:\n")[1]
    assert [line.strip() for line in listed.splitlines()] == list(env.legal_texts(acting))


def test_the_modules_examples_run() -> None:
    from panal.env import enjambre_text

    result = doctest.testmod(enjambre_text)
    assert result.attempted >= 1 and result.failed == 0
