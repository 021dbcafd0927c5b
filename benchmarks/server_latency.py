"""Move round-trip latency of one ``panal serve`` process under many concurrent online games.

Every game has two simulated players, each on its own websocket, as two browsers would be. A
player waits for its turn, "thinks" for a random time (uniform between half and one and a half
times ``--think``), sends a random legal move and measures the time until the server's new state
comes back on its own socket: the server has parsed the move, checked it with the rules engine,
written it to SQLite, computed the opponent's legal moves and sent the state to both players. The
opponent's latency (send → state on the other socket) is measured too. No AI is involved.

    python benchmarks/server_latency.py --games 100 1000 --seconds 60 --think 5

The server runs in its own process (started here, with a fresh SQLite file in a temporary folder)
and the simulated players in this one, so on a 2-core machine each gets about one core.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]


@dataclass
class Results:
    mover: list[float] = field(default_factory=list)
    opponent: list[float] = field(default_factory=list)
    errors: int = 0
    finished_games: int = 0


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


async def create_game(client: httpx.AsyncClient) -> tuple[str, str, str]:
    created = (await client.post("/api/games", json={"mode": "online"})).json()
    joined = (
        await client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]})
    ).json()
    return created["id"], created["token"], joined["token"]


async def player(
    ws_url: str,
    game_id: str,
    token: str,
    color: int,
    think: float,
    deadline: float,
    measuring: asyncio.Event,
    sent_at: dict[tuple[str, int], float],
    results: Results,
    rng: random.Random,
) -> None:
    async with connect(
        f"{ws_url}/ws/games/{game_id}?token={token}", max_size=2**22, ping_interval=None
    ) as ws:
        pending: asyncio.Task[None] | None = None
        while time.monotonic() < deadline:
            try:
                text = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.1, deadline - time.monotonic())
                )
            except TimeoutError:
                break
            received = time.perf_counter()
            message = json.loads(text)
            if message["type"] == "error":
                results.errors += 1
                continue
            if message["type"] != "state":
                continue
            ply = message["ply"]
            sent = sent_at.get((game_id, ply - 1))
            if sent is not None and ply > 0 and measuring.is_set():
                mover = message["history"][-1]["color"] == color
                (results.mover if mover else results.opponent).append(received - sent)
            if message["result"]:
                if color == 0:
                    results.finished_games += 1
                break
            legal = message.get("legal")
            if legal and message["turn"] == color and (pending is None or pending.done()):
                moves = [m for m in legal if m["move"] != "pass"] or legal
                move = rng.choice(moves)["move"]
                pending = asyncio.create_task(
                    send_after(ws, rng.uniform(0.5, 1.5) * think, game_id, ply, move, sent_at)
                )
        if pending is not None:
            pending.cancel()


async def send_after(
    ws: object, delay: float, game_id: str, ply: int, move: str, sent_at: dict
) -> None:
    await asyncio.sleep(delay)
    sent_at[(game_id, ply)] = time.perf_counter()
    await ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))  # type: ignore[attr-defined]


async def run(base_url: str, games: int, seconds: float, think: float, warmup: float) -> Results:
    ws_url = base_url.replace("http", "ws", 1)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as client:
        semaphore = asyncio.Semaphore(50)

        async def limited() -> tuple[str, str, str]:
            async with semaphore:
                return await create_game(client)

        created = await asyncio.gather(*(limited() for _ in range(games)))
    results = Results()
    sent_at: dict[tuple[str, int], float] = {}
    measuring = asyncio.Event()
    deadline = time.monotonic() + warmup + seconds
    rng = random.Random(1)
    tasks = []
    for game_id, white, black in created:
        for color, token in ((0, white), (1, black)):
            tasks.append(
                asyncio.create_task(
                    player(
                        ws_url,
                        game_id,
                        token,
                        color,
                        think,
                        deadline,
                        measuring,
                        sent_at,
                        results,
                        random.Random(rng.random()),
                    )
                )
            )
        await asyncio.sleep(0.002)  # connect gradually, as real players arrive
    await asyncio.sleep(warmup)
    # The simulated players are the measuring instrument: keep their own garbage collections
    # out of the measured latencies.
    gc.collect()
    gc.freeze()
    gc.disable()
    measuring.set()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    gc.enable()
    gc.unfreeze()
    results.errors += sum(1 for outcome in outcomes if isinstance(outcome, BaseException))
    return results


def start_server(port: int, db: Path, log: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "panal.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(f"{url}/api/config", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not start; see {log}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--seconds", type=float, default=60, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=10, help="unmeasured time first")
    parser.add_argument("--think", type=float, default=5.0, help="mean thinking time per move (s)")
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()

    # Two sockets per game on each side: raise the open-file limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))

    print(f"cpus: {os.cpu_count()}  think: {args.think} s mean  measured: {args.seconds} s")
    print("games  moves/s  mover_p50_ms  mover_p99_ms  opponent_p50_ms  opponent_p99_ms  errors")
    for games in args.games:
        with tempfile.TemporaryDirectory() as folder:
            server = None
            url = args.url
            if url is None:
                server = start_server(
                    args.port, Path(folder) / "bench.sqlite3", Path(folder) / "serve.log"
                )
                url = f"http://127.0.0.1:{args.port}"
            try:
                results = asyncio.run(run(url, games, args.seconds, args.think, args.warmup))
            finally:
                if server is not None:
                    server.terminate()
                    server.wait(10)
        rate = len(results.mover) / args.seconds
        ms = [
            1000 * percentile(values, p)
            for values in (results.mover, results.opponent)
            for p in (50, 99)
        ]
        print(
            f"{games:5d}  {rate:7.1f}  {ms[0]:12.1f}  {ms[1]:12.1f}  {ms[2]:15.1f}  "
            f"{ms[3]:15.1f}  {results.errors:6d}",
            flush=True,
        )
        if results.mover:
            print(
                f"       ({len(results.mover)} moves measured, mean "
                f"{1000 * statistics.fmean(results.mover):.1f} ms, max "
                f"{1000 * max(results.mover):.1f} ms, {results.finished_games} games finished)"
            )


if __name__ == "__main__":
    main()
