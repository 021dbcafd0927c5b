"""A puzzle as data: what the miner writes and the library reads (one JSON object a line).

Fields (docs/puzzles.md gives the whole format):

* ``id``: the first 12 hex digits of the SHA-1 of the position's symmetry key
  (:func:`panal.puzzles.symmetry.canonical_key`), so one position has one id;
* ``kind``: ``surround`` (the side to move forces the enemy queen's surround in ``moves`` of its
  moves, and no fewer) or ``defence`` (the only move after which the opponent has no forced
  surround within ``moves`` of its moves);
* ``moves``: that number; ``game_type``; ``options``: the rule options that differ from panal's
  defaults; ``position``: a UHP GameString of the game up to the puzzle;
* ``solution``: the main line in MoveStrings, the solver's and the opponent's moves alternately,
  the solver first (a defence is one move);
* ``replies``: for a surround in two or three, the opponent's every answer to the first move,
  each with a move that keeps the forced win (deeper answers come from the solver);
* ``choices``: how many legal moves the solver's side had; ``themes``; ``source``
  (``file``, ``game``, ``ply``: the corpus file under ``../shared/corpus``, the game's 1-based
  index in it and the number of moves played before the puzzle; or ``self-play`` with the seed);
* ``rating``: Glicko-2 ``rating``, ``deviation`` and ``volatility`` (see :mod:`.rating`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from panal.hive import Game, Options

__all__ = ["KINDS", "Puzzle", "Rating", "puzzle_id"]

KINDS = ("surround", "defence")


def puzzle_id(key: str) -> str:
    """The id of a position from its symmetry key."""
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Rating:
    """Glicko-2 values, on the familiar 1500 scale (a server converts to its own)."""

    rating: float
    deviation: float
    volatility: float

    def to_json(self) -> dict[str, float]:
        return {"rating": self.rating, "deviation": self.deviation, "volatility": self.volatility}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle; :meth:`game` sets up its position."""

    id: str
    kind: str
    moves: int
    game_type: str
    position: str
    solution: tuple[str, ...]
    themes: tuple[str, ...]
    source: dict[str, Any]
    rating: Rating
    choices: int
    options: dict[str, Any] = field(default_factory=dict)
    replies: dict[str, str] = field(default_factory=dict)

    def game(self) -> Game:
        """A new :class:`Game` at the puzzle's position (the moves before it included)."""
        return Game.from_game_string(self.position, options=Options.from_values(self.options))

    @property
    def side(self) -> str:
        """``white`` or ``black``: the side the player plays."""
        return "white" if self.position.split(";")[2].startswith("White") else "black"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "moves": self.moves,
            "game_type": self.game_type,
            "options": self.options,
            "position": self.position,
            "solution": list(self.solution),
            "replies": self.replies,
            "choices": self.choices,
            "themes": list(self.themes),
            "source": self.source,
            "rating": self.rating.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        try:
            rating = data["rating"]
            kind = data["kind"]
            if kind not in KINDS:
                raise ValueError(f"unknown puzzle kind {kind!r}")
            return cls(
                id=str(data["id"]),
                kind=kind,
                moves=int(data["moves"]),
                game_type=str(data["game_type"]),
                position=str(data["position"]),
                solution=tuple(data["solution"]),
                themes=tuple(data["themes"]),
                source=dict(data["source"]),
                rating=Rating(
                    float(rating["rating"]),
                    float(rating["deviation"]),
                    float(rating["volatility"]),
                ),
                choices=int(data["choices"]),
                options=dict(data.get("options", {})),
                replies=dict(data.get("replies", {})),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed puzzle {data.get('id', '?')!r}: {exc!r}") from exc
