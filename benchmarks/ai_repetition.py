"""Draws by repetition against another engine: play on from the loops of earlier matches.

    nice -n 10 env PYTHONPATH=src python3 benchmarks/ai_repetition.py \\
        benchmarks/results/2026-11-26-base-1s benchmarks/results/2026-11-26-base-nodes/seed1? \\
        benchmarks/results/2026-11-27-play/after-base-seed12-nodes15000 \\
        --engine "../shared/engines/nokamute uhp --num-threads=1" --go "bestmove depth 4" \\
        --nodes 5000 --contempt 15 --contempt 100

From every game of the given ``benchmarks/ai_ladder.py`` results (``games.jsonl``) that ended
in a draw by repetition, the game is taken back to the first occurrence of the repeated
position (its history kept, so the rule counts as it did) and played on: panal, in this
process, on the colour it had, a search of ``--nodes`` nodes a move with a fresh table,
against the engine (``--go``, sent the GameString before each move), refereed by panal's rules
with the repetition draw on, as ``ai_ladder.py`` referees, and adjudicated a draw at
``--max-plies`` plies of the whole game. Each ``--contempt`` plays every start in turn, so the
figures compare in one run. Node budgets make panal's moves the same on any machine, whatever
its load; nokamute's depth searches are deterministic too.

It answers: when panal accepts a repetition, would it have done better to play on?
``--scores`` answers first who wanted the loop: panal's search score (``--nodes``, contempt
15) at each of its moves in the loop as it was played, instead of playing on. ``--limit-draws``
looks at the games drawn at the move limit instead: panal's evaluation (its side) every 50
plies and how often each side passed; with ``--prove K``, also whether panal, at its last turn,
could force the surround of the enemy queen within K of its own moves, whatever the replies
(``panal.puzzles.solver``, exact; ``--prove-nodes`` bounds each proof), or with
``--first-pass`` right after the opponent first passed, when it had stopped moving:

    PYTHONPATH=src python3 benchmarks/ai_repetition.py --limit-draws --prove 4 [--first-pass] \\
        benchmarks/results/2026-11-28-futility/nokamute-d4
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ai_ladder import Engine, EngineFailure
from panal.ai import Searcher
from panal.ai.evaluation import evaluate
from panal.hive import Game, GameState
from panal.puzzles.solver import NodeLimitReached, Solver, empty_queen_cells


def repetition_starts(
    folders: list[Path],
) -> list[tuple[str, str, list[str], bool, list[str]]]:
    """(name, game type, moves before the loop, panal plays White, the loop's moves) of each
    repetition draw."""
    starts = []
    for folder, record in games_ending(folders, lambda reason: reason == "draw by repetition"):
        fields = record["game_string"].split(";")
        moves = fields[3:]
        game = Game(fields[0], tournament_opening=True, repetition_draw=False)
        seen: list[int] = []
        for move in moves:
            seen.append(game.hash)
            game.push(move)
        first = seen.index(game.hash)
        name = f"{folder.name}:{record['game']}@{first}"
        starts.append((name, fields[0], moves[:first], bool(record["player_white"]), moves[first:]))
    return starts


def games_ending(
    folders: list[Path], wanted: Callable[[str], bool]
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """(folder, record) of each saved game (``games.jsonl``) whose ending reason is wanted."""
    for folder in folders:
        path = folder / "games.jsonl"
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if wanted(record["reason"]):
                    yield folder, record


def limit_draws(
    folders: list[Path], prove: int = 0, prove_nodes: int = 2_000_000, first_pass: bool = False
) -> None:
    """Print, for each game drawn at the move limit, panal's evaluation every 50 plies (from
    its side) and each side's passes; with ``prove``, :func:`forced_surround` at its end, or
    (``first_pass``) right after the opponent's first pass, when it had stopped moving."""
    for folder, record in games_ending(folders, lambda r: r.startswith("adjudicated draw after")):
        fields = record["game_string"].split(";")
        game = Game(fields[0], tournament_opening=True, repetition_draw=False)
        scores, passes = [], Counter[str]()
        stopped: Game | None = None  # the position after the opponent's first pass
        for ply, move in enumerate(fields[3:]):
            panal = (game.ply % 2 == 0) == record["player_white"]
            if move == "pass":
                passes["panal" if panal else "opponent"] += 1
            if ply % 50 == 0:
                scores.append(evaluate(game) * (1 if panal else -1))
            game.push(move)
            if move == "pass" and not panal and stopped is None:
                stopped = game.copy()
        line = (
            f"  {folder.name}:{record['game']} {fields[0]} panal evaluation every 50 plies "
            f"{scores}, passes panal {passes['panal']} opponent {passes['opponent']}"
        )
        if prove and not first_pass:
            line += f"; {forced_surround(game, record['player_white'], prove, prove_nodes)}"
        elif prove:
            if stopped is None:
                line += "; the opponent never passed"
            else:
                proof = forced_surround(stopped, record["player_white"], prove, prove_nodes)
                line += f"; after its first pass (ply {stopped.ply}): {proof}"
        print(line)


def forced_surround(game: Game, panal_white: bool, most: int, node_limit: int) -> str:
    """Whether panal, at its last turn in ``game``, forced the surround of the enemy queen within
    ``most`` of its own moves: the fewest that do, "none within" (proven), or how far the proof
    got before ``node_limit`` positions (each depth a fresh :class:`Solver`). When the opponent
    is to move, takes the last move back on ``game`` itself."""
    if (game.ply % 2 == 0) != panal_white:
        game.pop_code()  # back to panal's last turn
    empty = len(empty_queen_cells(game, 1 if panal_white else 0))
    for moves in range(1, most + 1):
        solver = Solver(game, node_limit=node_limit)
        try:
            if solver.wins_within(moves):
                return f"{empty} empty cells around the enemy queen, surround forced in {moves}"
        except NodeLimitReached:
            return (
                f"{empty} empty cells around the enemy queen, none forced within {moves - 1}, "
                f"{moves} undecided after {node_limit:,} positions"
            )
    return f"{empty} empty cells around the enemy queen, none forced within {most} (proven)"


def loop_scores(
    game_type: str, moves: list[str], panal_white: bool, loop: list[str], nodes: int
) -> list[int]:
    """panal's search scores at its moves of the loop as played (0: a forced move or pass)."""
    referee = Game(game_type, tournament_opening=True, repetition_draw=True)
    for move in moves:
        referee.push(move)
    searcher = Searcher()
    scores = []
    for move in loop:
        if (referee.ply % 2 == 0) == panal_white:
            scores.append(searcher.search(referee, node_limit=nodes).score)
        referee.push(move)
    return scores


def play_on(
    game_type: str,
    moves: list[str],
    panal_white: bool,
    engine: Engine,
    go: str,
    nodes: int,
    contempt: int,
    max_plies: int,
) -> tuple[float, str, int]:
    """panal's score (1, 0.5, 0), how the game ended, and its length in plies."""
    referee = Game(game_type, tournament_opening=True, repetition_draw=True)
    for move in moves:
        referee.push(move)
    searcher = Searcher(contempt=contempt)
    while not referee.is_over():
        if referee.ply >= max_plies:
            return 0.5, f"adjudicated draw after {max_plies} plies", referee.ply
        if (referee.ply % 2 == 0) == panal_white:
            code = searcher.search(referee, node_limit=nodes).code
        else:
            engine.send(f"newgame {referee.game_string()}")
            reply = engine.send(go, timeout=600)
            code = referee.parse_move_code(reply[0].strip())
        referee.push_code(code)
    state = referee.state
    if state is GameState.DRAW:
        return 0.5, "draw by repetition", referee.ply
    won = (state is GameState.WHITE_WINS) == panal_white
    return (1.0 if won else 0.0), "queen surrounded", referee.ply


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", nargs="+", type=Path, help="ai_ladder.py result folders")
    parser.add_argument("--engine", metavar="CMD", help="the opponent (to play on)")
    parser.add_argument("--go", default="bestmove depth 4")
    parser.add_argument("--nodes", type=int, default=5000, help="panal's nodes a move")
    parser.add_argument(
        "--contempt", type=int, action="append", help="score units (repeatable; default 15)"
    )
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--out", type=Path, help="a JSON-lines file of every game")
    parser.add_argument("--scores", action="store_true", help="panal's scores in the loops")
    parser.add_argument("--limit-draws", action="store_true", help="the move-limit draws")
    parser.add_argument(
        "--prove", type=int, default=0, metavar="K", help="with --limit-draws: a surround in K?"
    )
    parser.add_argument("--prove-nodes", type=int, default=2_000_000, metavar="N")
    parser.add_argument(
        "--first-pass", action="store_true", help="with --prove: after the opponent's first pass"
    )
    args = parser.parse_args(argv)
    if args.limit_draws:
        limit_draws(args.folders, args.prove, args.prove_nodes, args.first_pass)
        return 0
    if args.engine is None and not args.scores:
        parser.error("--engine is needed to play on from the loops")
    contempts = args.contempt or [15]
    starts = repetition_starts(args.folders)
    print(f"{len(starts)} starts", flush=True)
    if args.scores:
        for name, game_type, moves, panal_white, loop in starts:
            scores = loop_scores(game_type, moves, panal_white, loop, args.nodes)
            colour = "White" if panal_white else "Black"
            print(f"  {name} panal {colour}: scores at its moves in the loop {scores}")
        return 0
    engine = Engine(args.engine, "opponent")
    engine.start()
    records = []
    try:
        for contempt in contempts:
            scores: Counter[float] = Counter()
            endings: Counter[str] = Counter()
            began = time.process_time()
            for name, game_type, moves, panal_white, _loop in starts:
                try:
                    score, ending, plies = play_on(
                        game_type,
                        moves,
                        panal_white,
                        engine,
                        args.go,
                        args.nodes,
                        contempt,
                        args.max_plies,
                    )
                except EngineFailure as exc:
                    print(f"  {name}: the engine failed ({exc}); restarted", flush=True)
                    engine.kill()
                    engine.start()
                    continue
                scores[score] += 1
                endings[ending] += 1
                records.append(
                    {"start": name, "contempt": contempt, "score": score, "ending": ending}
                    | {"plies": plies}
                )
                print(f"  contempt {contempt} {name}: {score} {ending} ({plies} plies)", flush=True)
            games = sum(scores.values())
            points = sum(score * count for score, count in scores.items())
            print(
                f"contempt {contempt}: {games} games, +{scores[1.0]} ={scores[0.5]} "
                f"-{scores[0.0]}, {points:g} points; endings {dict(endings)}; "
                f"panal CPU {time.process_time() - began:.0f} s",
                flush=True,
            )
    finally:
        engine.close()
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
