"""benchmarks/ai_ladder.py's parts that need no engine: openings, Elo, arguments."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from panal.hive import Game
from tests.ai.ladder import load_ladder


@pytest.mark.parametrize(("game_type", "firsts"), [("Base", 4), ("Base+MLP", 7)])
def test_openings_are_two_legal_placements_spread_over_the_pairs(
    game_type: str, firsts: int
) -> None:
    openings = load_ladder().make_openings(game_type, firsts * firsts, 5)
    pairs = set()
    for moves in openings:
        game = Game(game_type, tournament_opening=True)
        for move in moves:
            game.push(move)  # legal, or it raises
        assert len(moves) == 2 and "Q" not in moves[0][:2] + moves[1][:2]
        pairs.add((moves[0][1], moves[1][1]))
    assert len(pairs) == firsts * firsts  # every pair of first bugs once


def test_longer_openings_add_random_legal_moves() -> None:
    ladder = load_ladder()
    openings = ladder.make_openings("Base", 16, 7, 6)
    assert openings == ladder.make_openings("Base", 16, 7, 6)  # the seed decides
    assert [o[:2] for o in openings] == ladder.make_openings("Base", 16, 7)  # the same pairs
    for moves in openings:
        game = Game("Base", tournament_opening=True)
        for move in moves:
            game.push(move)  # legal, or it raises
        assert len(moves) == 6 and not game.is_over()
    assert len({tuple(o) for o in openings}) == 16


def test_elo_interval_is_the_arenas() -> None:
    from panal.uhp.arena import elo_interval

    # One definition (tested with the arena); the ladder's figures use it.
    assert load_ladder().elo_interval is elo_interval
    elo, low, high = elo_interval(24, 0, 6)
    assert round(elo) == 241 and low < elo < high
    assert elo_interval(10, 0, 0)[2] == math.inf and elo_interval(10, 0, 0)[1] > 0


def test_arguments() -> None:
    ladder = load_ladder()
    settings = ladder.parse_args(["--engine", "x uhp --num-threads=1", "--go", "bestmove depth 4"])
    assert settings.player.options == (("Level", "strongest"),)
    assert settings.player.go == "bestmove time 00:00:01"
    assert settings.player.move_timeout(600) == (1.0, 6.5)
    assert settings.opponent.move_timeout(600) == (None, 600)
    assert settings.opponent.name == "x"
    with pytest.raises(SystemExit):
        ladder.parse_args(["--engine", "x", "--go", "bestmove time 1"])


def test_a_game_cut_short_by_an_interrupt_is_abandoned_not_lost() -> None:
    ladder = load_ladder()
    settings = ladder.parse_args(["--engine", "x", "--games", "2", "--jobs", "1"])
    match = ladder.Match(settings)

    def interrupted_game(
        index: int, opening: list[str], player_white: bool, engines: object
    ) -> object:
        # What an interrupt leaves: the stop is set, the engines killed, the player "failed".
        match.stop.set()
        return ladder.Outcome(index, opening, player_white, "BlackWins", "engine exited", 9, "")

    match.play_game = interrupted_game
    match.run()
    assert match.outcomes == [] and match.abandoned == [0]
    assert match.summary()["games"] == 0


def test_combine_counts_the_games_drawn_at_the_move_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The share of games drawn at the move limit is what issue 24's conversion work measures."""
    ladder = load_ladder()
    rows = [
        ("WhiteWins", True, "queen surrounded", 41),
        ("Draw", False, "adjudicated draw after 300 plies", 300),
        ("Draw", True, "draw by repetition", 60),
        ("WhiteWins", False, "queen surrounded", 39),
    ]
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        lines = [
            json.dumps(
                {
                    "game": index,
                    "opening": [],
                    "player_white": white,
                    "result": result,
                    "reason": reason,
                    "plies": plies,
                    "game_string": "",
                }
            )
            for index, (result, white, reason, plies) in enumerate(rows)
        ]
        (tmp_path / folder / "games.jsonl").write_text("\n".join(lines) + "\n")
    assert ladder.combine([str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    printed = capsys.readouterr().out
    assert "8 games, +2 =4 -2  score 50.0%" in printed
    assert "110 plies a game, 2 (25%) drawn at the move limit" in printed


def test_a_match_continued_from_a_game_number_plays_the_same_games() -> None:
    ladder = load_ladder()
    args = ["--engine", "x", "--games", "6", "--jobs", "1", "--seed", "11"]
    played: dict[str, list[tuple[int, tuple[str, ...], bool]]] = {}
    for name, extra in (("whole", []), ("rest", ["--first", "4"])):
        match = ladder.Match(ladder.parse_args([*args, *extra]))
        games = played.setdefault(name, [])

        def record(
            index: int,
            opening: list[str],
            player_white: bool,
            engines: object,
            games: list[tuple[int, tuple[str, ...], bool]] = games,
        ) -> object:
            games.append((index, tuple(opening), player_white))
            sides = ("player", "opponent")
            played = [{side: value for side in sides} for value in (1.0, 4, 0, 1.0)]
            return ladder.Outcome(index, opening, player_white, "Draw", "test", 9, "", *played)

        match.play_game = record
        match.run()
        assert match.summary()["not_started"] == 0
    assert played["rest"] == played["whole"][4:]
    for wrong in ("-1", "6"):
        with pytest.raises(SystemExit):
            ladder.parse_args([*args, "--first", wrong])
