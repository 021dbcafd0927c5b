"""The AI as a job: ``hive.ai_move`` computes a move in a worker process.

The payload is the GameString, the rule options and the level (plain JSON, so the job can wait in
Redis for a worker on another machine); the worker rebuilds the :class:`panal.hive.Game` and asks
:func:`panal.ai.choose_move`. It answers with a MoveString, which the server plays through the
rules engine like any other move.
"""

from __future__ import annotations

from typing import Any

from panal.hive import Options

__all__ = ["ai_levels", "ai_move", "ai_payload"]


def ai_levels() -> tuple[str, ...]:
    """The AI's levels, or none while panal.ai is not installed."""
    try:
        from panal.ai import LEVELS
    except ImportError:
        return ()
    return tuple(LEVELS)


def ai_payload(
    game_id: str, version: int, game_string: str, options: Options, level: str, seed: int
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "version": version,
        "game_string": game_string,
        "options": options.to_values(),
        "level": level,
        "seed": seed,
    }


def payload_game(payload: dict[str, Any]) -> Any:
    """The position of an AI job's payload, as a :class:`panal.hive.Game`."""
    from panal.hive import Game

    options = Options.from_values(payload["options"])
    return Game.from_game_string(payload["game_string"], options=options)


def ai_move(payload: dict[str, Any]) -> dict[str, Any]:
    """Runs in a worker process: ``{"move": MoveString}`` chosen by the AI."""
    from panal.ai import think

    game = payload_game(payload)
    # On the clock, ``max_time`` caps the level's search by what the AI's clock allows.
    result = think(game, payload["level"], seed=payload["seed"], max_time=payload.get("max_time"))
    return {"move": game.move_string(result.move)}
