"""The text-agent loop both games share: refusals with reasons, the retry limit, and the
transcript's seat and ply in each game."""

from __future__ import annotations

import pytest

from panal.env.text_agents import Turn, ask, with_refusals


def read_yes(answer: str) -> tuple[str | None, int | None, str]:
    if answer.strip() == "yes":
        return "yes", 7, ""
    return None, None, f"{answer!r} is not yes"


def test_every_answer_refused_gives_none_after_the_retries() -> None:
    prompts: list[str] = []

    def agent(text: str) -> str:
        prompts.append(text)
        return "no"

    transcript: list[Turn] = []
    chosen = ask(agent, "Q", read_yes, seat=2, ply=9, max_retries=2, transcript=transcript)
    assert chosen is None and len(transcript) == 3
    assert [(t.seat, t.ply, t.accepted, t.action) for t in transcript] == [(2, 9, False, None)] * 3
    assert prompts[2] == with_refusals("Q", ["'no' is not yes", "'no' is not yes"])
    assert prompts[2].count("Answer again.") == 2 and prompts[0] == "Q"


def test_an_answer_that_is_no_string_is_read_as_its_repr() -> None:
    transcript: list[Turn] = []
    answers = iter([None, "yes"])
    chosen = ask(
        lambda _: next(answers),  # type: ignore[arg-type,return-value]
        "Q",
        read_yes,
        seat=0,
        ply=0,
        max_retries=1,
        transcript=transcript,
    )
    assert chosen == 7
    assert transcript[0].answer == "None" and "'None' is not yes" in transcript[1].prompt
    assert transcript[1] == Turn(0, 0, transcript[1].prompt, "yes", "yes", True)


def test_both_games_transcripts_carry_seat_and_ply() -> None:
    pytest.importorskip("pettingzoo")
    from panal.enjambre import Options
    from panal.env.enjambre_actions import EnjambreTable
    from panal.env.enjambre_text import play_text_game
    from panal.env.hive_text_agents import play_text_agent

    def first_hive_move(text: str) -> str:
        return text.split("Legal moves")[1].split(": ")[1].split(", ")[0]

    hive = play_text_agent(first_hive_move, "random", game_type="Base", seat="black", seed=2)
    assert [t.ply for t in hive.transcript[:3]] == [1, 3, 5]
    assert {t.seat for t in hive.transcript} == {1}

    def first_enjambre_action(text: str) -> str:
        return text.split("your legal actions:\n")[1].splitlines()[0]

    table = EnjambreTable(2, seed=3, options=Options(rounds=1))
    transcript = play_text_game(table, {0: first_enjambre_action, 1: first_enjambre_action})
    assert [t.ply for t in transcript] == list(range(len(transcript)))
    assert {t.seat for t in transcript} == {0, 1} and all(t.accepted for t in transcript)
