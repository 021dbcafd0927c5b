"""``panal analyse``: review a recorded game into an annotated PGN, or show a position's best
lines."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: ``panal`` starts without loading the AI
    from panal.hive import Game
    from panal.hive.records import GameRecord


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    analyse = subparsers.add_parser(
        "analyse",
        help="review a game (annotated PGN and a summary) or show a position's best lines",
        description=(
            "RECORD is a file (PGN, boardspace SGF, UHP GameString lines, or a position in "
            "panal's board text) or a GameString. A game is reviewed move by move: the "
            "annotated PGN is written to --output and a summary printed. A position (board "
            "text, or any record with --position) gets its best lines."
        ),
    )
    analyse.add_argument("record", metavar="RECORD", help="a record file or a GameString")
    analyse.add_argument("--game", type=int, default=1, help="which game of the file (from 1)")
    analyse.add_argument(
        "--nodes",
        type=int,
        help="nodes per position (a review: 5,000 a ply; a position: 20,000)",
    )
    analyse.add_argument("--seconds", type=float, help="seconds per position instead (or too)")
    analyse.add_argument(
        "--position", action="store_true", help="analyse the record's last position only"
    )
    analyse.add_argument("--lines", type=int, default=3, help="lines shown for a position")
    analyse.add_argument(
        "-o",
        "--output",
        help="the annotated PGN (default: RECORD's name + .annotated.pgn here; '-': stdout, "
        "and the summary goes to stderr)",
    )
    analyse.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    analyse.set_defaults(handler=analyse_command)


def analyse_command(args: argparse.Namespace) -> int:
    from panal.hive import Game

    try:
        if args.nodes is not None and args.nodes < 1:
            raise ValueError("--nodes is at least 1")
        if args.seconds is not None and not args.seconds > 0:
            raise ValueError("--seconds is more than 0")
        loaded = _load(args.record, args.game)
        if isinstance(loaded, Game) or args.position:
            return _show_lines(loaded if isinstance(loaded, Game) else loaded.replay(), args)
        return _review(loaded, args)
    except (OSError, ValueError) as exc:
        print(f"panal analyse: {exc}", file=sys.stderr)
        return 2


def _load(record: str, number: int) -> GameRecord | Game:
    """A GameRecord, or a Game for a position given as board text."""
    from panal.hive import Game
    from panal.hive.records import GameRecord, iter_records

    path = Path(record)
    if not path.is_file():
        if ";" not in record:
            raise ValueError(f"no such file: {record}")
        game = Game.from_game_string(record, lenient=True)
        return GameRecord(game_type=game.game_type, moves=game.move_strings(), options=game.options)
    if number < 1:
        raise ValueError("--game counts from 1")
    if path.stat().st_size < 65_536:
        # A position in board text? (Its first line reads like a GameString's head.)
        try:
            return Game.from_board_text(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            pass
    for index, found in enumerate(iter_records(path), 1):
        if index == number:
            return found
    raise ValueError(f"{path} has fewer than {number} games")


def _show_lines(game: Game, args: argparse.Namespace) -> int:
    from panal.ai import Analysis, analyse

    shown = sys.stderr if not args.no_progress else None

    def progress(analysis: Analysis) -> None:
        if shown is not None:
            shown.write(f"\rdepth {analysis.depth}, {analysis.nodes:,} nodes   ")
            shown.flush()

    analysis = analyse(
        game, lines=args.lines, nodes=args.nodes, seconds=args.seconds, on_progress=progress
    )
    if shown is not None:
        shown.write("\n")
    print(f"{game.game_type}, {game.turn.name.lower()} to move; White's win chance ", end="")
    print(f"{100 * analysis.white_win_chance:.0f}% (depth {analysis.depth})")
    for number, line in enumerate(analysis.lines, 1):
        forced = ""
        if line.surround_in is not None:
            forced = f", surrounds in {line.surround_in}"
        elif line.surrounded_in is not None:
            forced = f", surrounded in {line.surrounded_in}"
        print(f"{number}. {100 * line.win_chance:.0f}%{forced}: {'; '.join(line.moves)}")
    return 0


def _review(record: GameRecord, args: argparse.Namespace) -> int:
    from panal.ai.game_review import DEFAULT_NODES_PER_PLY, annotated_pgn, review, summary
    from panal.hive import Color
    from panal.progress import ProgressBar

    game = record.replay()
    if not game.ply:
        raise ValueError("the game has no move to review")
    nodes = args.nodes if args.nodes is not None or args.seconds else DEFAULT_NODES_PER_PLY
    bar = None if args.no_progress else ProgressBar(sys.stderr, unit="plies")
    result = review(game, nodes_per_ply=nodes, seconds_per_ply=args.seconds, on_progress=bar)
    headers = {
        name: record.headers[name]
        for name in ("Event", "Site", "Date", "Round", "White", "Black")
        if record.headers.get(name) and "\n" not in record.headers[name]
    }
    if record.result is not None:
        headers["Result"] = str(record.result)
    text = annotated_pgn(game, result, headers)
    # A GameString given on the command line has the source "<string>": its PGN is game.….
    stem = "game" if record.source.startswith("<") else Path(record.source).stem
    output = args.output or f"{stem}.annotated.pgn"
    out = sys.stderr if output == "-" else sys.stdout
    if output == "-":
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")
    names = {Color.WHITE: headers.get("White", ""), Color.BLACK: headers.get("Black", "")}
    print(f"{record.game_type}, {game.ply} plies, {nodes or 'timed'} nodes a ply", file=out)
    print(summary(result, names), file=out)
    if output != "-":
        print(f"Annotated PGN: {output}", file=out)
    return 0
