"""The engine ladder: bots that joined it play each other continuously, in pairs of games from
one random opening with colours swapped (:func:`panal.uhp.arena.make_openings`, the offline
arena's openings), under one fixed clock, rated, refereed by the server as every game is (the
bots play them through the ordinary game websocket).

Every process sweeps every ``sweep_seconds``: it frees the bots whose pair of games is over and
pairs the free bots seen lately (each with the one it met least), in a transaction that takes
both bots or neither (:meth:`LadderStore.create_pair`), so processes sweeping at once never pair
a bot twice. The ranking is :func:`panal.uhp.ladder.bradley_terry` of the ladder's finished
games, recomputed from the database when asked.
"""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from panal.hive import Game, Options
from panal.hive.records import write_pgn
from panal.server.bots.bot_store import BotStore
from panal.server.hive_games.clock import ClockState, TimeControl
from panal.server.hive_games.game_store import GameRow, GameStore, online_game
from panal.server.ladder.ladder_store import LadderStore, PairTaken
from panal.server.players.player_store import PlayerStore
from panal.server.room.tokens import new_id
from panal.server.runtime.runtime import Runtime
from panal.uhp.arena import make_openings
from panal.uhp.ladder import LadderGame, bradley_terry

__all__ = ["Ladder", "LadderSettings", "parse_ladder_clock"]

METHOD = (
    "Bradley-Terry (maximum likelihood, one virtual draw against a 1500 anchor), Elo scale; "
    "95% interval from the Fisher information"
)
SCORES = {"WhiteWins": 1.0, "BlackWins": 0.0, "Draw": 0.5}
RECENT_GAMES = 50
PGN_GAMES = 1000


def parse_ladder_clock(text: str) -> TimeControl:
    """``60+1`` → a real-time clock of 60 s each and 1 s a move (ValueError saying why not)."""
    base, _, increment = text.partition("+")
    try:
        return TimeControl.realtime(int(base), int(increment or 0))
    except ValueError as exc:
        raise ValueError(f"{text!r} is not BASE+INC in seconds ({exc})") from None


@dataclass(frozen=True)
class LadderSettings:
    control: TimeControl = field(default_factory=lambda: TimeControl.realtime(60, 1))
    game_type: str = "Base"
    opening_plies: int = 4
    sweep_seconds: float = 2.0
    present_seconds: float = 30.0  # a bot not seen for this long is not paired


class Ladder:
    def __init__(
        self, runtime: Runtime, games: GameStore, players: PlayerStore, settings: LadderSettings
    ) -> None:
        self.runtime = runtime
        self.games = games
        self.players = players
        self.settings = settings
        self.store = LadderStore(players.engine)
        self.bots = BotStore(players.engine)

    def start(self) -> None:
        every = self.runtime.every
        self.runtime.spawn(every(self.settings.sweep_seconds, self.sweep, "ladder sweep"))

    async def sweep(self) -> None:
        await self.runtime.db(self.pair_free_bots, self.runtime.now())

    # --- pairing ---------------------------------------------------------------------------

    def pair_free_bots(self, now: float) -> int:
        """Free the bots whose games are over, pair the free ones; how many pairs were made."""
        self.store.release_finished()
        seen_since = time.time() - self.settings.present_seconds
        free = [
            e.user_id
            for e in self.store.entries()
            if e.active and e.pair is None and e.seen_at >= seen_since
        ]
        if len(free) < 2:
            return 0
        random.shuffle(free)
        meetings = self.store.meetings()
        made = 0
        while len(free) >= 2:
            first = free.pop()
            second = min(free, key=lambda u: meetings.get((min(first, u), max(first, u)), 0))
            free.remove(second)
            opening = make_openings(
                self.settings.game_type, 1, self.settings.opening_plies, secrets.randbits(32)
            )[0]
            games = [
                (self._game(first, second, opening, now), opening),
                (self._game(second, first, opening, now), opening),
            ]
            try:
                self.store.create_pair(new_id(), (first, second), games)
            except PairTaken:
                continue
            made += 1
        return made

    def _game(self, white: int, black: int, opening: list[str], now: float) -> GameRow:
        control = self.settings.control
        row = online_game(
            self.settings.game_type,
            Options(tournament_opening=True),
            "classic",
            tokens=(None, None),  # bots play by their accounts
            users=(white, black),
            rated=True,
            control=control,
            now=now,
        )
        row.plies = len(opening)
        row.set_clock(control, ClockState.new(control).started(now, len(opening) % 2))
        return row

    # --- what the page shows ---------------------------------------------------------------

    def standings(self) -> dict[str, Any]:
        finished = self.store.finished_games()
        entries = self.store.entries()
        users = sorted(
            {e.user_id for e in entries}
            | {g["white_user"] for g in finished}
            | {g["black_user"] for g in finished}
        )
        names = self.players.names(users)
        bots = self.bots.bots(users)
        played = [
            LadderGame(names[g["white_user"]], names[g["black_user"]], SCORES[g["result"]])
            for g in finished
            if g["result"] in SCORES
        ]
        table = bradley_terry(played, [names[e.user_id] for e in entries])
        by_name = {names[u]: u for u in users}
        active = {e.user_id for e in entries if e.active}
        rows = []
        for standing in table:
            user = by_name[standing.name]
            bot = bots.get(user)
            rows.append(
                {
                    **standing.to_json(),
                    "engine": bot.engine if bot else None,
                    "active": user in active,
                }
            )
        recent = [
            {
                "id": g["id"],
                "white": names[g["white_user"]],
                "black": names[g["black_user"]],
                "result": g["result"],
                "end_reason": g["end_reason"],
                "plies": g["plies"],
            }
            for g in reversed(finished[-RECENT_GAMES:])
        ]
        return {
            "method": METHOD,
            "clock": self.settings.control.shown(),
            "game_type": self.settings.game_type,
            "games": len(played),
            "standings": rows,
            "recent": recent,
        }

    def records(self) -> str:
        """The ladder's finished games as one PGN file (the latest :data:`PGN_GAMES`)."""
        finished = self.store.finished_games()[-PGN_GAMES:]
        names = self.players.names(
            {g["white_user"] for g in finished} | {g["black_user"] for g in finished}
        )
        chunks = []
        for number, summary in enumerate(finished, 1):
            loaded = self.games.load_game(summary["id"])
            if loaded is None:
                continue
            row, moves = loaded
            game = Game(row.game_type, options=row.rules)
            for move in moves:
                game.push(move)
            headers = {
                "Event": "panal engine ladder",
                "Site": f"/game/{row.id}",
                "Round": str(number),
                "White": names[summary["white_user"]],
                "Black": names[summary["black_user"]],
                "Result": summary["result"],
                "TimeControl": str(self.settings.control),
            }
            if summary["end_reason"]:
                headers["Termination"] = summary["end_reason"]
            chunks.append(write_pgn(game, headers))
        return "\n".join(chunks)
