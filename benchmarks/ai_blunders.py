"""Find the moves that lost panal its lost games: each of panal's moves judged by a deeper search.

For each game that panal lost in a match's ``games.jsonl`` (written by ``benchmarks/ai_ladder.py``),
the game is replayed and each of panal's moves searched again with panal's own
:class:`~panal.ai.search.Searcher` at a node budget well above what it had in the game
(:func:`panal.ai.analysis.search_position`, which scores the best move and the move played in one
search, at one depth). A move whose win chance the judge puts at least ``--threshold`` below the
best one's is a *mistake*. Each mistake is then searched twice more at a fixed depth: once
selectively, as a timed search prunes (null move, reverse futility, late-move reductions and
pruning), and once at full width, so that a mistake only the pruned search makes shows. Around it,
the queens' free neighbours and the judge's proven results are recorded.

Writes ``plies.jsonl`` (one row per judged move) and ``summary.txt`` (each game's mistakes, the
first one that turned the game, and counts) into ``--out``::

    python benchmarks/ai_blunders.py \\
        benchmarks/results/2026-11-27-device/d4-base-mlp/games.jsonl \\
        --nodes 100000 --out benchmarks/results/2026-11-27-losses

The judge is panal's own search: it cannot see what panal's evaluation does not see, only deeper.

With ``--decisive NODES...``, the decisive positions of an earlier run in ``--judged`` (each game's
move after which nokamute first saw a win, else the judge's first proven-lost move) are searched
afresh by the panal on ``PYTHONPATH`` at each node budget, and nokamute (``--engine``) scores the
move it chooses: ``decisive.jsonl`` in ``--out``. Run once with one version of panal and once
with another to compare them on the same positions.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from panal.ai.analysis import search_position
from panal.ai.evaluation import FEATURES, MATE_BOUND, feature_counts, weights_for
from panal.ai.search import Searcher
from panal.hive import Color, Game

ENGINE_WIN = 100_000
"""The value written for nokamute's ``∞`` (a win it has proven)."""


@dataclass
class JudgedMove:
    """One of panal's moves in a lost game, as the deep search sees it."""

    game: int
    ply: int
    move: str
    best: str
    best_line: list[str]
    depth: int
    score_best: int
    score_played: int
    chance_best: float
    chance_played: float
    loss: float
    proven_loss_after: int | None  # panal's queen surrounded in this many moves, proven
    own_queen_neighbours: int  # after the move
    enemy_queen_neighbours: int
    legal_moves: int
    selective_choice: str | None = None  # the mistakes only: a fixed-depth selective search
    full_width_choice: str | None = None  # and the same depth at full width


def queen_neighbours(game: Game, color: int) -> int:
    """Occupied cells around ``color``'s queen (0 white, 1 black); -1 when it is in hand."""
    side = Color(color)
    return game.surrounding(side) if game.is_queen_placed(side) else -1


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file."""
    return [json.loads(line) for line in path.read_text().splitlines()]


def position_before(record: dict[str, Any], ply: int) -> Game:
    """The game of ``record`` before its move at ``ply`` (1 = the first)."""
    fields = record["game_string"].split(";")
    game = Game(fields[0])
    for move in fields[3 : 2 + ply]:
        game.push(move)
    return game


def outcome(record: dict[str, Any]) -> str:
    """``win``, ``draw`` or ``loss``, for panal."""
    winner_white = {"WhiteWins": True, "BlackWins": False}.get(record["result"])
    if winner_white is None:
        return "draw"
    return "win" if winner_white == record["player_white"] else "loss"


def lost_games(path: Path) -> list[dict[str, Any]]:
    """The records of the games panal (the ``player``) lost."""
    records = read_jsonl(path)
    lost = [record for record in records if outcome(record) == "loss"]
    return sorted(lost, key=lambda record: int(record["game"]))


def judge_game(
    record: dict[str, Any],
    nodes: int,
    threshold: float,
    check_depth: int,
    check_nodes: int,
    last_plies: int,
) -> list[JudgedMove]:
    """Judge each of panal's moves in the last ``last_plies`` plies of one lost game."""
    fields = record["game_string"].split(";")
    moves = fields[3:]
    game = Game(fields[0])
    color = 0 if record["player_white"] else 1
    searcher = Searcher(hash_size_mb=256)
    judged: list[JudgedMove] = []
    for ply, move in enumerate(moves, 1):
        opening = ply <= len(record["opening"])  # set by the match, not chosen by panal
        early = ply <= len(moves) - last_plies  # before the judged end of the game
        if opening or early or game.ply & 1 != color or len(game.legal_move_codes()) == 1:
            game.push(move)
            continue
        code = game.push(move).code
        game.pop_code()
        analysis = search_position(game, searcher, nodes=nodes, played=code)
        best, played = analysis.best, analysis.played
        assert played is not None
        same = played.moves[0] == best.moves[0]
        loss = 0.0 if same else max(0.0, best.win_chance - played.win_chance)
        row = JudgedMove(
            game=int(record["game"]),
            ply=ply,
            move=move,
            best=best.moves[0],
            best_line=best.moves[:6],
            depth=analysis.depth,
            score_best=best.score,
            score_played=played.score,
            chance_best=round(best.win_chance, 3),
            chance_played=round(played.win_chance, 3),
            loss=round(loss, 3),
            proven_loss_after=played.surrounded_in if played.score < -MATE_BOUND else None,
            own_queen_neighbours=0,
            enemy_queen_neighbours=0,
            legal_moves=len(game.legal_move_codes()),
        )
        if loss >= threshold:
            for exact, name in ((False, "selective_choice"), (True, "full_width_choice")):
                result = Searcher().search(
                    game, depth=check_depth, exact_depth=exact, node_limit=check_nodes
                )
                setattr(row, name, game.move_string(result.code))
        game.push(move)
        row.own_queen_neighbours = queen_neighbours(game, color)
        row.enemy_queen_neighbours = queen_neighbours(game, color ^ 1)
        judged.append(row)
    return judged


def engine_values(
    record: dict[str, Any], engine: Path, depth: int, last_plies: int
) -> list[dict[str, Any]]:
    """A second opinion from another engine (nokamute, over UHP with ``--verbose``): its score,
    from panal's side, of the position after each of panal's moves in the last ``last_plies``
    plies, and the reply it would play. Its score units are its own."""
    fields = record["game_string"].split(";")
    moves = fields[3:]
    color = 0 if record["player_white"] else 1
    plies = [
        ply
        for ply in range(max(len(record["opening"]) + 1, len(moves) - last_plies + 1), len(moves))
        if (ply - 1) & 1 == color  # the position after ply ``ply`` follows one of panal's moves
    ]
    finals = engine_opinions(engine, depth, fields[0], [moves[:ply] for ply in plies])
    return [
        {"game": int(record["game"]), "ply": ply, "value": -value, "reply": reply}
        for ply, (value, reply) in zip(plies, finals, strict=True)
    ]


def engine_opinions(
    engine: Path, depth: int, game_type: str, positions: list[list[str]]
) -> list[tuple[int, str]]:
    """nokamute's value (for the side to move, :data:`ENGINE_WIN` for a win it has proven) and
    best move at ``bestmove depth {depth}`` in each position (the moves from the start)."""
    commands = []
    for moves in positions:
        game_string = f"{game_type};InProgress;White[1];" + ";".join(moves)
        commands += [f"newgame {game_string}", f"bestmove depth {depth}"]
    done = subprocess.run(
        [str(engine), "uhp", "--num-threads=1", "--verbose"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    # Each search prints a line per finished depth, then its speed: the last depth is its answer
    # (fewer than asked when it proves a result early).
    finals: list[tuple[int, str]] = []
    last: tuple[int, str] | None = None
    for line in done.stderr.splitlines():
        found = re.search(r"; value +(-?(?:\d+|∞)); bestmove=(.*)", line)
        if found:
            value = found.group(1).replace("∞", str(ENGINE_WIN))  # a forced win
            last = (int(value), found.group(2))
        elif line.endswith("nodes/sec") and last is not None:
            finals.append(last)
            last = None
    if len(finals) != len(positions):
        raise RuntimeError(f"{len(finals)} answers to {len(positions)} positions:\n{done.stderr}")
    return finals


def evaluation_terms(records: list[dict[str, Any]], first: int, last: int) -> str:
    """By panal's result: the mean static score, from panal's side, of the positions just after
    its moves in plies ``first``..``last``, and the evaluation's terms that make most of it."""
    sums: dict[str, list[int]] = {}
    counts: dict[str, int] = {}
    for record in records:
        fields = record["game_string"].split(";")
        game = Game(fields[0])
        color = 0 if record["player_white"] else 1
        weights = weights_for(game.game_type)
        kind = outcome(record)
        total = sums.setdefault(kind, [0] * len(weights))
        for ply, move in enumerate(fields[3 : 3 + last], 1):
            game.push(move)
            if ply < first or (ply - 1) & 1 != color or game.is_over():
                continue
            white, black = feature_counts(game)
            mine, theirs = (black, white) if color else (white, black)
            for index, weight in enumerate(weights):
                total[index] += weight * (mine[index] - theirs[index])
            counts[kind] = counts.get(kind, 0) + 1
    out = [f"static evaluation after panal's moves, plies {first}-{last}, panal's side:"]
    for kind, total in sums.items():
        n = counts.get(kind, 0)
        if not n:
            continue
        top = sorted(range(len(total)), key=lambda index: -abs(total[index]))[:10]
        terms = ", ".join(f"{FEATURES[index]} {total[index] / n:+.0f}" for index in top)
        out.append(f"  {kind}: {n} positions, mean {sum(total) / n:+.0f}: {terms}")
    return "\n".join(out) + "\n"


LOST_VALUE = -300
"""Below this nokamute value (panal's side) panal's position counts as lost in its eyes."""


def decisive_ply(opinions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first of panal's moves after which nokamute's value falls to lost (below
    :data:`LOST_VALUE`) from above it, with the value before."""
    before = 0
    for row in sorted(opinions, key=lambda row: int(row["ply"])):
        if row["value"] <= LOST_VALUE < before:
            return {**row, "before": before}
        before = row["value"]
    return None


def recheck(record: dict[str, Any], ply: int, budgets: list[int]) -> list[dict[str, Any]]:
    """Search the position before panal's move at ``ply`` afresh (an empty table) at each node
    budget: does the move played prove lost, and which move is best?"""
    game = position_before(record, ply)
    code = game.push(record["game_string"].split(";")[2 + ply]).code
    game.pop_code()
    found = []
    for nodes in budgets:
        analysis = search_position(game, Searcher(hash_size_mb=256), nodes=nodes, played=code)
        assert analysis.played is not None
        found.append(
            {
                "nodes": nodes,
                "depth": analysis.depth,
                "best": analysis.best.moves[0],
                "score_best": analysis.best.score,
                "score_played": analysis.played.score,
            }
        )
    return found


def decisive_positions(
    records: list[dict[str, Any]], rows: list[JudgedMove], opinions: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], int]]:
    """Each lost game's decisive move (record, ply): the first after which nokamute saw a win,
    else (no second opinion) the first the judge proved lost."""
    found = []
    for record in records:
        number = int(record["game"])
        decisive = decisive_ply([row for row in opinions if row["game"] == number])
        if decisive is not None:
            found.append((record, int(decisive["ply"])))
            continue
        proven = [row.ply for row in rows if row.game == number and row.proven_loss_after]
        if proven:
            found.append((record, min(proven)))
    return found


def decisive_choices(
    positions: list[tuple[dict[str, Any], int]],
    budgets: list[int],
    engine: Path,
    depth: int,
    earlier: int,
) -> list[dict[str, Any]]:
    """The move panal (as on ``PYTHONPATH``) chooses afresh at each node budget in each decisive
    position and at panal's ``earlier`` moves before it, its score, and nokamute's value of the
    position after it (panal's side)."""
    found = []
    for record, decisive in positions:
        for ply in range(decisive, decisive - 2 * earlier - 1, -2):
            if ply > len(record["opening"]):
                found += choices_at(record, ply, decisive, budgets, engine, depth)
    return found


def choices_at(
    record: dict[str, Any], ply: int, decisive: int, budgets: list[int], engine: Path, depth: int
) -> list[dict[str, Any]]:
    """:func:`decisive_choices` in the position before the move at ``ply``."""
    found = []
    fields = record["game_string"].split(";")
    game = position_before(record, ply)
    for nodes in budgets:
        result = Searcher(hash_size_mb=256).search(game, node_limit=nodes)
        chosen = game.move_string(result.code)
        game.push(chosen)
        value = engine_after(game, engine, depth)
        game.pop()
        found.append(
            {
                "game": int(record["game"]),
                "ply": ply,
                "decisive": decisive,
                "played": fields[2 + ply],
                "nodes": nodes,
                "chosen": chosen,
                "score": result.score,
                "depth": result.depth,
                "engine_value": value,
            }
        )
        print(json.dumps(found[-1]), flush=True)
    return found


def decisive_summary(rows: list[dict[str, Any]], savable: set[tuple[int, int]]) -> str:
    """By node budget: how the moves chosen in the decisive positions (and before them) fare in
    nokamute's eyes, and whether panal's own score saw the trouble; again for the positions
    ``savable`` (game, ply) only, where nokamute proves no loss for panal before the move."""
    out = []
    for nodes in sorted({row["nodes"] for row in rows}):
        at = [row for row in rows if row["nodes"] == nodes]
        decisive = [row for row in at if row["ply"] == row["decisive"]]
        for name, group in (
            ("decisive moves", decisive),
            ("decisive moves where one holds", [row for row in decisive if _key(row) in savable]),
            ("moves before them", [row for row in at if row["ply"] != row["decisive"]]),
        ):
            if not group:
                continue
            values = [max(-1000, min(1000, row["engine_value"])) for row in group]
            proven = sum(row["engine_value"] <= -ENGINE_WIN for row in group)
            lost = sum(row["engine_value"] <= LOST_VALUE for row in group)
            same = sum(row["chosen"] == row["played"] for row in group)
            blind = sum(row["engine_value"] <= LOST_VALUE and row["score"] >= 0 for row in group)
            out.append(
                f"{nodes} nodes, {name} ({len(group)}): the game's move chosen again {same}; "
                f"after the move chosen nokamute proves a win {proven}, values it lost "
                f"(<= {LOST_VALUE}) {lost}, mean value {sum(values) / len(values):+.0f} "
                f"(clipped to +-1000); panal's score >= 0 where nokamute values it lost {blind}"
            )
    return "\n".join(out) + "\n"


def _key(row: dict[str, Any]) -> tuple[int, int]:
    return int(row["game"]), int(row["ply"])


def savable_positions(
    records: list[dict[str, Any]], rows: list[dict[str, Any]], engine: Path, depth: int
) -> set[tuple[int, int]]:
    """The (game, ply) of ``rows`` where nokamute, searching the position before panal's move,
    proves no loss for panal."""
    by_number = {int(record["game"]): record for record in records}
    keys = sorted({_key(row) for row in rows})
    found = set()
    for number, ply in keys:
        fields = by_number[number]["game_string"].split(";")
        [(value, _reply)] = engine_opinions(engine, depth, fields[0], [fields[3 : 2 + ply]])
        if value > -ENGINE_WIN:
            found.add((number, ply))
    return found


def write_decisive_summary(
    records: list[dict[str, Any]], chosen: list[dict[str, Any]], engine: Path, depth: int, out: Path
) -> None:
    """``decisive.txt`` in ``out``: :func:`decisive_summary` of ``chosen``, with nokamute deciding
    which positions could still be held."""
    savable = savable_positions(records, chosen, engine, depth)
    (out / "decisive.txt").write_text(decisive_summary(chosen, savable))


def engine_after(game: Game, engine: Path, depth: int) -> int:
    """nokamute's value of ``game`` for the side that made its last move (a game that move ended
    is a proven result)."""
    if game.is_over():
        winner = {"WhiteWins": 0, "BlackWins": 1}.get(str(game.state))
        return 0 if winner is None else ENGINE_WIN if winner == (game.ply - 1) & 1 else -ENGINE_WIN
    [(value, _reply)] = engine_opinions(engine, depth, str(game.game_type), [game.move_strings()])
    return -value


def summarize(
    records: list[dict[str, Any]],
    rows: list[JudgedMove],
    opinions: list[dict[str, Any]],
    threshold: float,
    budgets: list[int],
) -> str:
    """Each lost game: panal's mistakes by the judge, the move after which nokamute saw the
    game won (the decisive one), and that position searched afresh."""
    out = []
    for record in records:
        number = int(record["game"])
        mine = [row for row in rows if row.game == number]
        mistakes = [row for row in mine if row.loss >= threshold]
        colour = "white" if record["player_white"] else "black"
        out.append(
            f"game {number}: panal {colour}, lost at ply {record['plies']}, "
            f"{len(mine)} moves judged, {len(mistakes)} mistakes"
        )
        for row in mistakes:
            proven = f", surrounded in {row.proven_loss_after}" if row.proven_loss_after else ""
            out.append(
                f"  mistake ply {row.ply}: {row.move} (best {row.best}, depth {row.depth}) "
                f"{row.chance_best:.2f} -> {row.chance_played:.2f}{proven}; "
                f"queens {row.own_queen_neighbours}/{row.enemy_queen_neighbours}; depth "
                f"{row.depth} choices: selective {row.selective_choice}, "
                f"full width {row.full_width_choice}"
            )
        decisive = decisive_ply([row for row in opinions if row["game"] == number])
        if decisive is None:
            out.append("  nokamute: no single decisive move in the judged plies")
            continue
        ply = int(decisive["ply"])
        earlier = [row for row in mine if row.ply < ply]
        values = [row["value"] for row in opinions if row["game"] == number and row["ply"] < ply]
        if earlier and values:
            chance = sum(row.chance_played for row in earlier) / len(earlier)
            out.append(
                f"  before ply {ply}: judge's mean win chance {chance:.2f}, nokamute's mean "
                f"value {sum(values) / len(values):+.0f} (panal's side)"
            )
        judged = next((row for row in mine if row.ply == ply), None)
        seen = (
            f"judge {judged.chance_best:.2f} -> {judged.chance_played:.2f} at depth "
            f"{judged.depth}, queens {judged.own_queen_neighbours}/"
            f"{judged.enemy_queen_neighbours}"
            if judged
            else "not judged"
        )
        out.append(
            f"  decisive ply {ply}: {record['game_string'].split(';')[2 + ply]}; nokamute "
            f"{decisive['before']} -> {decisive['value']} (reply {decisive['reply']}); {seen}"
        )
        for again in recheck(record, ply, budgets):
            out.append(
                f"    afresh {again['nodes']} nodes: depth {again['depth']}, best "
                f"{again['best']} {again['score_best']}, played {again['score_played']}"
            )
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=Path, help="a match's games.jsonl")
    parser.add_argument("--nodes", type=int, default=100_000, help="the judge's nodes a move")
    parser.add_argument("--threshold", type=float, default=0.10, help="win-chance loss (0..1)")
    parser.add_argument("--check-depth", type=int, default=4)
    parser.add_argument("--check-nodes", type=int, default=150_000)
    parser.add_argument("--last-plies", type=int, default=1_000, help="judge only the game's end")
    parser.add_argument("--engine", type=Path, help="only a second opinion from this engine")
    parser.add_argument("--engine-depth", type=int, default=5)
    parser.add_argument(
        "--summarize", action="store_true", help="only the summary, from the files in --out"
    )
    parser.add_argument("--recheck", type=int, nargs="*", default=[80_000, 300_000])
    parser.add_argument("--only", type=int, nargs="*", help="these game numbers only")
    parser.add_argument(
        "--decisive",
        type=int,
        nargs="*",
        help="node budgets: search the decisive positions of --judged afresh (needs --engine)",
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--earlier", type=int, default=0, help="with --decisive: panal's moves before it too"
    )
    parser.add_argument(
        "--judged", type=Path, help="with --decisive: the earlier run's folder (default --out)"
    )
    args = parser.parse_args()
    records = [
        record
        for record in lost_games(args.games)
        if not args.only or int(record["game"]) in args.only
    ]
    every_game = read_jsonl(args.games)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.decisive:
        if args.engine is None:
            parser.error("--decisive needs --engine (nokamute) to score the moves chosen")
        judged = args.judged or args.out
        rows = [JudgedMove(**row) for row in read_jsonl(judged / "plies.jsonl")]
        engine = judged / "engine.jsonl"
        opinions = read_jsonl(engine) if engine.exists() else []
        positions = decisive_positions(records, rows, opinions)
        chosen = decisive_choices(
            positions, args.decisive, args.engine, args.engine_depth, args.earlier
        )
        with (args.out / "decisive.jsonl").open("a") as out:
            for row in chosen:
                out.write(json.dumps(row) + "\n")
        write_decisive_summary(records, chosen, args.engine, args.engine_depth, args.out)
        return
    if args.summarize and (args.out / "decisive.jsonl").exists():
        if args.engine is None:
            parser.error("the summary of --decisive needs --engine (nokamute)")
        chosen = read_jsonl(args.out / "decisive.jsonl")
        write_decisive_summary(records, chosen, args.engine, args.engine_depth, args.out)
        return
    if args.engine is not None:
        with (args.out / "engine.jsonl").open("a") as opinions:
            for record in records:
                for row in engine_values(record, args.engine, args.engine_depth, args.last_plies):
                    opinions.write(json.dumps(row) + "\n")
                opinions.flush()
                print(f"game {record['game']}: engine done", flush=True)
        return
    if args.summarize:
        rows = [JudgedMove(**row) for row in read_jsonl(args.out / "plies.jsonl")]
        engine = args.out / "engine.jsonl"
        opinions = read_jsonl(engine) if engine.exists() else []
        summary = summarize(records, rows, opinions, args.threshold, args.recheck)
        summary += evaluation_terms(every_game, 16, 40)
        (args.out / "summary.txt").write_text(summary)
        return
    with (args.out / "plies.jsonl").open("a") as plies:
        for record in records:
            start = time.perf_counter()
            judged = judge_game(
                record,
                args.nodes,
                args.threshold,
                args.check_depth,
                args.check_nodes,
                args.last_plies,
            )
            for judged_move in judged:
                plies.write(json.dumps(asdict(judged_move)) + "\n")
            plies.flush()
            seconds = time.perf_counter() - start
            print(f"game {record['game']}: {len(judged)} moves in {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
