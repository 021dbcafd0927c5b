"""Playing games, matches and tournaments between bots.

The runner is the only code that holds both the game and the bots: each bot is handed its own
observation and its action goes back to the game, which rejects anything illegal.

A match is N games for N players, each player starting one of them (the first player moves one
seat clockwise each game); the match goes to the most wins, then the most second places, and so
on. A tournament plays matches with the bots rotating seats between matches, so every bot sits
in every seat equally often over complete cycles.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, make_bot
from .engine import Game, GameLog
from .options import Options
from .scoring import GameResult, match_places

__all__ = [
    "BotError",
    "EntryStats",
    "GameRecord",
    "TournamentResult",
    "entry_labels",
    "play_game",
    "play_match",
    "run_tournament",
]


class BotError(RuntimeError):
    """A bot chose an illegal action: a bug in the bot, reported with the game's reason."""


def play_game(
    bots: Sequence[Bot],
    *,
    seed: int,
    first_player: int | None = None,
    options: Options | None = None,
) -> Game:
    """Play one game to the end; each bot only ever sees its own observations."""
    game = Game(len(bots), options=options, seed=seed, first_player=first_player)
    while not game.over:
        player = game.to_move
        assert player is not None
        action = bots[player].act(game.observe(player))
        problem = game.why_illegal(player, action)
        if problem is not None:
            raise BotError(f"{bots[player]!r} as player {player} chose {action!r}: {problem}")
        game.apply(player, action)
    return game


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who sat where, and how it went."""

    match: int
    game: int
    seats: tuple[int, ...]  # entry index sitting in each seat
    result: GameResult
    log: GameLog


def _play_one(
    names: tuple[str, ...], seats: tuple[int, ...], seed: int, first: int, options: Options
) -> tuple[GameResult, GameLog]:
    rng = random.Random(seed)
    game_seed = rng.randrange(2**63)
    bots = [make_bot(names[entry], rng.randrange(2**63)) for entry in seats]
    game = play_game(bots, seed=game_seed, first_player=first, options=options)
    assert game.result is not None
    return game.result, game.log


def play_match(
    names: Sequence[str], *, seed: int, options: Options | None = None
) -> tuple[list[GameResult], tuple[int, ...]]:
    """N games for N bots in fixed seats, each starting once; returns results and match places."""
    options = options or Options()
    players = len(names)
    rng = random.Random(seed)
    results = []
    for first in range(players):
        result, _ = _play_one(
            tuple(names), tuple(range(players)), rng.randrange(2**63), first, options
        )
        results.append(result)
    return results, match_places([r.places for r in results])


def entry_labels(names: Sequence[str]) -> list[str]:
    """Unique labels for the bots of a line-up: ``heuristic``, ``heuristic#2``..."""
    labels = []
    for index, name in enumerate(names):
        count = names[:index].count(name)
        labels.append(name if count == 0 and names.count(name) == 1 else f"{name}#{count + 1}")
    return labels


@dataclass
class EntryStats:
    label: str
    bot: str
    games: int = 0
    wins: int = 0
    score_total: int = 0
    place_total: int = 0
    matches: int = 0
    match_wins: int = 0
    eliminations_total: int = 0

    @property
    def average_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    @property
    def average_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "average_score": round(self.average_score, 3),
            "average_place": round(self.average_place, 3),
            "matches": self.matches,
            "match_wins": self.match_wins,
            "average_eliminations": round(self.eliminations_total / self.games, 3)
            if self.games
            else 0.0,
        }


@dataclass
class TournamentResult:
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int
    options: Options
    entries: list[EntryStats]
    records: list[GameRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "options": self.options.to_dict(),
            "entries": [e.to_dict() for e in self.entries],
        }

    def table(self) -> str:
        header = (
            f"{'bot':<14}{'games':>6}{'wins':>6}{'win %':>8}{'avg score':>11}"
            f"{'avg place':>11}{'matches won':>13}"
        )
        lines = [header, "-" * len(header)]
        for e in sorted(self.entries, key=lambda e: (e.average_place, e.label)):
            lines.append(
                f"{e.label:<14}{e.games:>6}{e.wins:>6}{100 * e.win_rate:>7.1f}%"
                f"{e.average_score:>11.2f}{e.average_place:>11.2f}"
                f"{f'{e.match_wins}/{e.matches}':>13}"
            )
        lines.append(
            "wins count shared first places; a match is one game per player, each starting once"
        )
        return "\n".join(lines)


def run_tournament(
    names: Sequence[str],
    *,
    games: int,
    seed: int,
    options: Options | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games between the bots ``names`` (one per seat) and gather statistics.

    Game ``k`` belongs to match ``k // N``; in match ``m`` entry ``e`` sits in seat
    ``(e + m) % N`` and game ``k`` is started by seat ``k % N``. Every game has its own seed
    drawn from ``seed``, so results do not depend on ``jobs``.
    """
    options = options or Options()
    players = len(names)
    if not 2 <= players <= 6:
        raise ValueError(f"a game needs 2 to 6 bots, got {players}")
    if games < 1:
        raise ValueError("play at least one game")
    for name in names:
        make_bot(name, 0)  # fails early on an unknown name
    rng = random.Random(seed)
    plan = []
    for k in range(games):
        match = k // players
        seats = tuple((s - match) % players for s in range(players))  # entry in each seat
        plan.append((match, k, seats, rng.randrange(2**63), k % players))
    labels = entry_labels(list(names))
    entries = [EntryStats(label, name) for label, name in zip(labels, names, strict=True)]
    records: list[GameRecord] = []
    name_tuple = tuple(names)

    def record(item: tuple[int, int, tuple[int, ...], int, int], outcome: Any) -> None:
        match, k, seats, _, _ = item
        result, log = outcome
        records.append(GameRecord(match, k, seats, result, log))
        for seat, entry in enumerate(seats):
            stats = entries[entry]
            stats.games += 1
            stats.wins += result.places[seat] == 1
            stats.score_total += result.scores[seat]
            stats.place_total += result.places[seat]
            stats.eliminations_total += result.eliminations[seat]
        if progress:
            progress(len(records), games)

    if jobs <= 1:
        for item in plan:
            record(item, _play_one(name_tuple, item[2], item[3], item[4], options))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(_play_one, name_tuple, item[2], item[3], item[4], options)
                for item in plan
            ]
            for item, future in zip(plan, futures, strict=True):
                record(item, future.result())
    records.sort(key=lambda r: r.game)
    _score_matches(records, entries, players)
    return TournamentResult(players, name_tuple, games, seed, options, entries, records)


def _score_matches(records: list[GameRecord], entries: list[EntryStats], players: int) -> None:
    """Rank every complete match by wins, then second places, and so on."""
    by_match: dict[int, list[GameRecord]] = {}
    for rec in records:
        by_match.setdefault(rec.match, []).append(rec)
    for games in by_match.values():
        if len(games) != players:
            continue  # an incomplete last match is not ranked
        # Per entry: its place in each game (seats are fixed within a match).
        seats = games[0].seats
        places = [[rec.result.places[seat] for seat in range(players)] for rec in games]
        ranked = match_places(places)
        for seat, entry in enumerate(seats):
            entries[entry].matches += 1
            entries[entry].match_wins += ranked[seat] == 1
