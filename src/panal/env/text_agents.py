"""What language-model agents do the same way in every game: the agent, the transcript, and
asking again with the reason.

A *text agent* is any callable ``prompt -> answer`` (a wrapper around a model's API, a person at
a keyboard, a script). :func:`ask` puts one question to it: it reads each answer with the game's
reader and, as Kaggle's Game Arena harness does, asks again with the reasons of the refusals so
far, up to ``max_retries`` times. Every question and answer is a :class:`Turn` of the
transcript. Each game keeps only its prompt, its reader and its records:
:mod:`panal.env.hive_text_agents` (MoveStrings, forfeits, GameString and PGN) and
:mod:`panal.env.enjambre_text` (the terminal game's commands).

>>> from panal.env.text_agents import ask
>>> def read(answer: str) -> tuple[str | None, int | None, str]:
...     word = answer.strip().lower()
...     return (word, 1, "") if word == "yes" else (None, None, f"{answer!r} is not yes")
>>> answers = iter(["maybe", "Yes"])
>>> transcript: list[Turn] = []
>>> ask(lambda prompt: next(answers), "Say yes.", read, seat=0, ply=0, max_retries=1,
...     transcript=transcript)
1
>>> print(transcript[1].prompt)
Say yes.
Your previous answer was refused: 'maybe' is not yes. Answer again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["Reader", "TextAgent", "Turn", "ask", "with_refusals"]

TextAgent = Callable[[str], str]
"""A text agent: the prompt in, its answer out."""

Chosen = TypeVar("Chosen")

Reader = Callable[[str], tuple[str | None, Chosen | None, str]]
"""A game's reader of answers: an answer in; out the action text read from it (or ``None``),
what the game plays for it (``None`` when refused) and, when refused, why."""


@dataclass
class Turn:
    """One question to a text agent and its answer."""

    seat: int  # the seat asked (Hive: 0 White, 1 Black)
    ply: int  # how many actions the game had played when asked
    prompt: str
    answer: str
    action: str | None  # the action read from the answer, in the game's notation
    accepted: bool
    reason: str = ""  # why it was refused


def with_refusals(prompt: str, reasons: Iterable[str]) -> str:
    """The prompt followed by one line for each refused answer, with its reason."""
    lines = [prompt]
    for reason in reasons:
        lines.append(f"Your previous answer was refused: {reason}. Answer again.")
    return "\n".join(lines)


def ask(
    agent: TextAgent,
    prompt: str,
    read: Reader[Chosen],
    *,
    seat: int,
    ply: int,
    max_retries: int,
    transcript: list[Turn],
) -> Chosen | None:
    """What the game plays for ``agent``'s answer to ``prompt``, asking up to
    ``1 + max_retries`` times, each time with the reasons of the refusals so far
    (:func:`with_refusals`); ``None`` when every answer was refused (the game decides what
    follows). Each question and answer is appended to ``transcript``."""
    reasons: list[str] = []
    for _ in range(1 + max_retries):
        text = with_refusals(prompt, reasons)
        answer = agent(text)
        if not isinstance(answer, str):  # an agent wrapping a model may return anything
            answer = repr(answer)
        action, chosen, reason = read(answer)
        transcript.append(Turn(seat, ply, text, answer, action, chosen is not None, reason))
        if chosen is not None:
            return chosen
        reasons.append(reason)
    return None
