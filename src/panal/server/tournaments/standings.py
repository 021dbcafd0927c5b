"""Standings of a tournament, as pure functions over its results (no web, no database).

Scores: a win 1, a draw ½, a loss 0, a bye 1 (FIDE's pairing-allocated bye), a forfeit as a win
or a loss. An arena scores as lichess's: a win 2, a draw 1, a loss 0, and after two wins in a row
a player is on a streak where a win is 4 and a draw 2, until a game that is not a win.

Tie-breaks, each one only among players equal in everything before it (FIDE Handbook C.07):

* **Buchholz**: the sum of the scores of the opponents played (byes and forfeits not counted).
* **Sonneborn-Berger**: the scores of the opponents beaten, plus half those of the opponents
  drawn.
* **Head-to-head** (direct encounter): the points scored in the games between the players tied
  on score.
* **Wins as Black**: games won with Black (over the board, not by forfeit).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "TIE_BREAKS",
    "GameResult",
    "Standing",
    "arena_scores",
    "standings",
]

TIE_BREAKS = ("buchholz", "sonneborn_berger", "head_to_head", "wins_as_black")


@dataclass(frozen=True)
class GameResult:
    """One finished pairing: White's points (1, ½ or 0). ``black`` None: a bye to White.
    ``played`` False: a forfeit (nobody moved), which counts in the score only."""

    round: int
    white: int
    black: int | None
    white_points: float
    played: bool = True


@dataclass
class Standing:
    player: int
    score: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_as_black: int = 0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    head_to_head: float = 0.0
    rank: int = 0
    opponents: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "rank": self.rank,
            "score": self.score,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "wins_as_black": self.wins_as_black,
            "buchholz": self.buchholz,
            "sonneborn_berger": self.sonneborn_berger,
            "head_to_head": self.head_to_head,
        }


def _sides(result: GameResult) -> list[tuple[int, int | None, float, int]]:
    """(player, opponent, points, colour) for each side of a result."""
    sides = [(result.white, result.black, result.white_points, 0)]
    if result.black is not None:
        sides.append((result.black, result.white, 1.0 - result.white_points, 1))
    return sides


def arena_scores(results: Iterable[GameResult]) -> dict[int, float]:
    """Each player's arena score (lichess's rules: see above), results in the order played."""
    scores: dict[int, float] = {}
    wins_in_row: dict[int, int] = {}
    for result in sorted(results, key=lambda r: r.round):
        for player, _opponent, points, _colour in _sides(result):
            on_streak = wins_in_row.get(player, 0) >= 2
            scores[player] = scores.get(player, 0.0) + points * 2 * (2 if on_streak else 1)
            wins_in_row[player] = wins_in_row.get(player, 0) + 1 if points == 1 else 0
    return scores


def standings(
    players: Sequence[int],
    results: Iterable[GameResult],
    tie_breaks: Sequence[str] = TIE_BREAKS,
    scores: dict[int, float] | None = None,
) -> list[Standing]:
    """The standings, best first, ``rank`` shared by players equal in score and every
    tie-break. ``players`` (by seed) lists everyone, games or not; ``scores`` replaces the
    plain score (an arena's)."""
    unknown = set(tie_breaks) - set(TIE_BREAKS)
    if unknown:
        raise ValueError(f"unknown tie-breaks: {sorted(unknown)}")
    table = {p: Standing(p) for p in players}
    results = list(results)
    for result in results:
        for player, opponent, points, colour in _sides(result):
            if player not in table:
                raise ValueError(f"a result names player {player}, who is not listed")
            row = table[player]
            row.score += points
            if opponent is None or not result.played:
                continue
            row.games += 1
            row.opponents.append(opponent)
            if points == 1:
                row.wins += 1
                row.wins_as_black += colour
            elif points == 0:
                row.losses += 1
            else:
                row.draws += 1
    if scores is not None:
        for player, row in table.items():
            row.score = scores.get(player, 0.0)
    score = {p: row.score for p, row in table.items()}
    for result in results:
        if result.black is None or not result.played:
            continue
        for player, opponent, points, _colour in _sides(result):
            assert opponent is not None
            row = table[player]
            row.buchholz += score[opponent]
            row.sonneborn_berger += points * score[opponent]
    tied: dict[float, set[int]] = {}
    for p, row in table.items():
        tied.setdefault(row.score, set()).add(p)
    for result in results:
        if result.black is None:
            continue
        for player, opponent, points, _colour in _sides(result):
            if opponent in tied[table[player].score] and player != opponent:
                table[player].head_to_head += points

    def key(row: Standing) -> tuple[float, ...]:
        return (row.score, *(float(getattr(row, name)) for name in tie_breaks))

    seed = {p: i for i, p in enumerate(players)}
    ordered = sorted(
        table.values(), key=lambda row: (tuple(-v for v in key(row)), seed[row.player])
    )
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(row) else i + 1
    return ordered
