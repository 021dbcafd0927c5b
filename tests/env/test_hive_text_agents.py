"""Language-model agents: prompts, answers read leniently, retries with reasons, forfeits and
the records of their games."""

from __future__ import annotations

import itertools

import pytest

from panal.env.hive_text_agents import (
    TextOpponent,
    extract_move,
    play_text_agent,
    prompt,
    save_games,
)
from panal.hive import Game
from panal.hive.records import iter_records, read_pgn


def legal_moves_of(text: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith("Legal moves"))
    return line.split(": ", 1)[1].split(", ")


def test_the_prompt_shows_the_board_the_side_and_the_moves() -> None:
    game = Game.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    text = prompt(game)
    assert str(game) in text and "You play White" in text
    assert sorted(legal_moves_of(text)) == sorted(
        game.move_strings() and [game.move_string(c) for c in game.legal_move_codes()]
    )
    assert "Legal moves" not in prompt(game, legal_moves=False)


@pytest.mark.parametrize(
    ("answer", "move"),
    [
        ("wA1 -bQ", "wA1 -bQ"),
        ("I'd consider wQ, but my move is **wB1 bQ/**.", "wB1 bQ/"),
        ("```\nbG2  \\wS1\n```", "bG2 \\wS1"),
        ("wD+bA1 wQ-", "wD+bA1 wQ-"),
        ("nothing to do: pass", "pass"),
        ("xwA1 -bQ", None),
        ("", None),
    ],
)
def test_extract_move(answer: str, move: str | None) -> None:
    assert extract_move(answer) == move


def test_refused_answers_are_retried_with_the_reason() -> None:
    answers = iter(["I resign", "wQ wS1-", "bQ"])
    seen: list[str] = []

    def agent(text: str) -> str:
        seen.append(text)
        return next(answers) if len(seen) <= 3 else legal_moves_of(text)[0]

    record = play_text_agent(agent, "random", game_type="Base", seat="black", max_plies=2, seed=3)
    # Black's one turn: three refusals, then a legal move.
    assert [t.accepted for t in record.transcript] == [False, False, False, True]
    assert "no MoveString found" in seen[1]
    assert "'wQ wS1-'" in seen[2] and "refused" in seen[3]
    assert record.game.ply == 2 and record.illegal_answers == 3


def test_an_agent_that_never_answers_legally_forfeits() -> None:
    record = play_text_agent(lambda _: "wQ wQ", "random", game_type="Base", max_retries=2)
    assert (record.result, record.termination, len(record.transcript)) == (
        "BlackWins",
        "forfeit",
        3,
    )
    (back,) = read_pgn(record.pgn({"White": "model", "Black": "random"}))
    assert back.replay().ply == 0 and back.check_result(back.replay()) is None


def test_two_text_agents_play_a_whole_game_and_the_records_read_back(tmp_path) -> None:
    counter = itertools.count()

    def cycling(text: str) -> str:
        moves = legal_moves_of(text)
        return moves[next(counter) % len(moves)]

    opponent = TextOpponent(cycling)
    records = [
        play_text_agent(cycling, opponent, game_type="Base", seat=seat, max_plies=400)
        for seat in ("white", "black")
    ]
    assert all(r.game.ply > 0 for r in records) and opponent.transcript
    save_games(records, tmp_path, ("model-a", "model-b"))
    for name in ("games.txt", "games.pgn"):
        replayed = [r.replay() for r in iter_records(tmp_path / name)]
        assert [g.game_string() for g in replayed] == [r.game_string() for r in records]
    text = (tmp_path / "games.pgn").read_text()
    assert '[White "model-a"]' in text and '[White "model-b"]' in text


def test_against_panals_ai() -> None:
    record = play_text_agent(
        lambda text: legal_moves_of(text)[-1], "beginner", game_type="Base+MLP", max_plies=8
    )
    assert record.game.ply == 8 and record.result == "InProgress" and not record.illegal_answers
