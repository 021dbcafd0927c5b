"""Enjambre bots as jobs: ``enjambre.bot_turn`` plays a bot's turn in a worker process.

The payload is the table's current game log (plain JSON, so the job can wait in Redis for a
worker on another machine), the bot seats the game waits for and their levels. The worker
replays the log through :class:`panal.enjambre.Game` and, like the library's runner, hands each
bot only its own observations: during the set-up every waiting bot places its tiles; in play the
bot to move takes its whole turn, one action after another (combats resolved by the real game),
until the turn passes. It answers with the actions, which the server stores through the same
compare-and-set as a player's and shows one at a time.

Every bot is seeded from the system's unpredictable randomness, so nothing a player sees (not
even the game's seed, which players never see) lets anyone rebuild a bot's secret set-up. The
log in the payload holds every player's set-up: it travels only between the server's own
processes (its Redis and its workers), never to a player.
"""

from __future__ import annotations

import random
from typing import Any

from panal.enjambre import Game, GameLog, Place
from panal.enjambre.actions import action_to_dict
from panal.enjambre.bots import BOTS, make_bot
from panal.enjambre.state import Phase

__all__ = ["BOT_LEVELS", "MAX_BOT_ACTIONS", "bot_payload", "bot_turn"]

#: The bots a seat may be given, weakest first (names of :data:`panal.enjambre.bots.BOTS`).
BOT_LEVELS: tuple[str, ...] = tuple(
    name for name in ("random", "heuristic", "search") if name in BOTS
)
MAX_BOT_ACTIONS = 400  # a bot's turn is far shorter; a runaway bot is stopped, not trusted


def bot_payload(
    table_id: str, version: int, game: int, log: GameLog, bots: dict[int, str]
) -> dict[str, Any]:
    return {
        "table": table_id,
        "version": version,
        "game": game,
        "log": log.to_dict(),
        "bots": {str(seat): level for seat, level in bots.items()},
    }


def bot_turn(payload: dict[str, Any]) -> dict[str, Any]:
    """Runs in a worker process: ``{"actions": [[seat, action], ...]}`` for the waiting bots."""
    log = GameLog.from_dict(payload["log"])
    game = Game.replay(log)
    levels = {int(seat): str(level) for seat, level in payload["bots"].items()}
    system = random.SystemRandom()
    played: list[list[Any]] = []
    if game.phase is Phase.SETUP:
        for seat, level in sorted(levels.items()):
            if game.state.placed[seat]:
                continue
            bot = make_bot(level, system.randrange(2**63))
            action = bot.act(game.observe(seat))
            game.apply(seat, action)
            played.append([seat, action_to_dict(action)])
        return {"actions": played}
    mover = game.to_move
    if mover is None or mover not in levels:
        return {"actions": played}
    seat = mover
    bot = make_bot(levels[seat], system.randrange(2**63))
    setup = next(a for p, a in log.actions if p == seat and isinstance(a, Place))
    bot.recall_setup(game.observe(seat), setup)
    while game.to_move == seat and not game.over:
        if len(played) >= MAX_BOT_ACTIONS:
            raise RuntimeError(f"the {levels[seat]} bot did not end its turn")
        action = bot.act(game.observe(seat))
        game.apply(seat, action)  # an illegal action raises: a bug in the bot, reported
        played.append([seat, action_to_dict(action)])
    return {"actions": played}
