"""Language-model agents: Hive as text in, a MoveString out, with retries and game records.

A *text agent* (:data:`panal.env.text_agents.TextAgent`) is any callable ``prompt -> answer``.
:func:`play_text_agent` seats one against any opponent (:mod:`panal.env.hive_opponents`:
random, panal's AI levels, a UHP engine, or another text agent through :class:`TextOpponent`),
shows it each position as :func:`prompt` writes it (the board as ``print(game)`` draws it, the
side to move, optionally the legal moves in UHP notation), reads the last MoveString in its
answer, and asks again with the reason when the answer is not a legal move
(:func:`panal.env.text_agents.ask`), up to ``max_retries`` times before the agent forfeits.
Every game comes back as a :class:`TextGame`: the game, the transcript of prompts and answers
(:class:`panal.env.text_agents.Turn`), and its GameString and PGN (:mod:`panal.hive.records`
reads both back).

>>> from panal.env.hive_text_agents import play_text_agent
>>> def first_legal_move(prompt: str) -> str:  # a stand-in for a model
...     return "I play " + prompt.split("Legal moves")[1].split(": ")[1].split(", ")[0]
>>> record = play_text_agent(first_legal_move, "random", game_type="Base", max_plies=6, seed=1)
>>> record.game.ply, record.result, len(record.transcript)
(6, 'InProgress', 3)
>>> record.transcript[0].answer, record.transcript[0].accepted
('I play wA1', True)
>>> record.pgn({"White": "model", "Black": "random"}).splitlines()[5]
'[White "model"]'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from panal.env.hive_observation import text_view
from panal.env.hive_opponents import Opponent, make_opponent, move_code
from panal.env.text_agents import TextAgent, Turn, ask, with_refusals
from panal.hive.errors import IllegalMoveError, InvalidMoveError
from panal.hive.game import Game
from panal.hive.options import Options
from panal.hive.pieces import Color
from panal.hive.records import write_pgn

__all__ = [
    "INSTRUCTIONS",
    "AgentForfeit",
    "TextAgent",
    "TextGame",
    "TextOpponent",
    "Turn",
    "extract_move",
    "play_text_agent",
    "prompt",
    "save_games",
]

INSTRUCTIONS = (
    "You are playing Hive. Answer with your move as a UHP MoveString: the piece, a space, and"
    " where it goes next to a piece already on the board (wA1 bQ- east of bQ, wA1 bQ\\ south-east,"
    " wA1 /bQ south-west, wA1 -bQ west, wA1 \\bQ north-west, wA1 bQ/ north-east, wB1 bQ on top"
    " of it; the first piece of the game alone, e.g. wS1), or pass when no move is legal. The"
    " last MoveString in your answer is read as your move."
)

_MOVE = re.compile(
    r"(?<![A-Za-z0-9/\\-])(?:pass|[wb][QSBGAMLPD][1-3]?(?:\+[wb][QSBGAMLPD][1-3]?)?"
    r"(?:[ \t]+[-/\\]?[wb][QSBGAMLPD][1-3]?[-/\\]?)?)(?![A-Za-z0-9])"
)


def prompt(game: Game, *, legal_moves: bool = True, rejected: Iterable[str] = ()) -> str:
    """What the agent to move reads: the instructions, :func:`text_view` of the position, and
    the reasons its earlier answers in this position were refused."""
    return with_refusals(f"{INSTRUCTIONS}\n\n{text_view(game, legal_moves=legal_moves)}", rejected)


def extract_move(answer: str) -> str | None:
    """The last MoveString in an answer (``None`` when there is none).

    >>> extract_move("Thinking... the ant can reach it. Final answer: `wA1 -bQ`")
    'wA1 -bQ'
    >>> extract_move("pass"), extract_move("no idea")
    ('pass', None)
    """
    found = _MOVE.findall(answer)
    return " ".join(found[-1].split()) if found else None


class AgentForfeit(Exception):
    """A text agent gave no legal move within its retries."""

    def __init__(self, color: Color, turns: list[Turn]) -> None:
        super().__init__(f"{color.title} gave no legal move in {len(turns)} answers")
        self.color = color
        self.turns = turns


def _ask_move(
    agent: TextAgent, game: Game, max_retries: int, legal_moves: bool, transcript: list[Turn]
) -> int:
    """The agent's move code in ``game``: asks up to ``1 + max_retries`` times, each time with
    the reasons of the refusals so far; :class:`AgentForfeit` after the last."""

    def read(answer: str) -> tuple[str | None, int | None, str]:
        move = extract_move(answer)
        if move is None:
            return None, None, "no MoveString found in the answer"
        try:
            return move, game.parse_move_code(move), ""
        except (InvalidMoveError, IllegalMoveError) as error:
            return move, None, f"{move!r}: {error}"

    start = len(transcript)
    question = prompt(game, legal_moves=legal_moves)
    code = ask(
        agent,
        question,
        read,
        seat=int(game.turn),
        ply=game.ply,
        max_retries=max_retries,
        transcript=transcript,
    )
    if code is None:
        raise AgentForfeit(game.turn, transcript[start:])
    return code


class TextOpponent:
    """A text agent used as an opponent (so two text agents can play each other)."""

    def __init__(self, agent: TextAgent, *, max_retries: int = 3, legal_moves: bool = True):
        self.agent = agent
        self.max_retries = max_retries
        self.legal_moves = legal_moves
        self.transcript: list[Turn] = []

    def __call__(self, game: Game) -> int:
        return _ask_move(self.agent, game, self.max_retries, self.legal_moves, self.transcript)


@dataclass
class TextGame:
    """A finished (or cut) game of a text agent: the game, who sat where, how it ended."""

    game: Game
    seat: Color  # the text agent's colour
    result: str  # WhiteWins, BlackWins, Draw, or InProgress when cut at the ply limit
    termination: str  # surrounded, repetition, forfeit…, or "" (cut)
    transcript: list[Turn] = field(default_factory=list)

    @property
    def illegal_answers(self) -> int:
        return sum(not turn.accepted for turn in self.transcript)

    def game_string(self) -> str:
        """The UHP GameString of the moves played (a forfeit leaves the board unfinished)."""
        return self.game.game_string()

    def pgn(self, headers: dict[str, str] | None = None) -> str:
        """The game as PGN, with its ``Result`` and, when it has one, ``Termination``."""
        tags = dict(headers or {})
        tags["Result"] = self.result
        if self.termination:
            tags["Termination"] = self.termination
        return write_pgn(self.game, tags)


def play_text_agent(
    agent: TextAgent,
    opponent: str | Opponent = "random",
    *,
    game_type: str = "Base+MLP",
    seat: str = "white",
    max_retries: int = 3,
    max_plies: int = 400,
    legal_moves: bool = True,
    seed: int | None = None,
    options: Options | None = None,
    **rules: object,
) -> TextGame:
    """Play one game of ``agent`` (seat ``"white"`` or ``"black"``) against ``opponent``.

    ``opponent`` is what :func:`~panal.env.hive_opponents.make_opponent` takes (``seed`` seeds
    it). A game stops at its end, at ``max_plies`` (result ``InProgress``), or when the agent
    (or a :class:`TextOpponent`) forfeits after ``max_retries`` refused answers; an opponent's
    illegal move raises ``IllegalMoveError``.
    """
    if seat not in ("white", "black"):
        raise ValueError(f"seat is 'white' or 'black', not {seat!r}")
    if not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries is an int >= 0, not {max_retries!r}")
    color = Color.WHITE if seat == "white" else Color.BLACK
    other = make_opponent(opponent, seed=seed)
    game = Game(game_type, options=options, **rules)
    transcript: list[Turn] = []
    while not game.is_over() and game.ply < max_plies:
        try:
            if game.turn == color:
                code = _ask_move(agent, game, max_retries, legal_moves, transcript)
            else:
                code = move_code(game, other(game.copy()))
        except AgentForfeit as forfeit:
            winner = forfeit.color.other
            return TextGame(game, color, f"{winner.title}Wins", "forfeit", transcript)
        game.push_code(code)
    outcome = game.outcome()
    termination = outcome.termination.value if outcome is not None else ""
    return TextGame(game, color, str(game.state), termination, transcript)


def save_games(games: Iterable[TextGame], directory: str | Path, names: tuple[str, str]) -> None:
    """Write ``games.txt`` (GameStrings, one a line) and ``games.pgn`` into ``directory``;
    ``names`` are the text agent's and its opponent's, written as PGN's White and Black."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    strings: list[str] = []
    pgns: list[str] = []
    for record in games:
        players = names if record.seat == Color.WHITE else names[::-1]
        strings.append(record.game_string())
        pgns.append(record.pgn({"White": players[0], "Black": players[1]}))
    (folder / "games.txt").write_text("".join(s + "\n" for s in strings), encoding="utf-8")
    (folder / "games.pgn").write_text("\n".join(pgns), encoding="utf-8")
