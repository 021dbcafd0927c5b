"""CPU per move of the store's write on PostgreSQL: from a thread, as every store call runs, and on
the event loop, as the server writes a move.

One game in a fresh database gets ``--moves`` moves in a row (no other load, one connection at a
time), alternately ``--rounds`` times: ``thread`` (``Store.change`` in a thread of the loop's
executor, as any other store call runs) and ``loop`` (``Store.change_async``: on PostgreSQL one
statement sent from the event loop by a psycopg pool). The CPU time is this process's (user and
system), so PostgreSQL's own work is not in it; the wall time includes the round trips.

    python benchmarks/store_write.py --moves 2000 --rounds 2

Needs a PostgreSQL on this machine (``--postgres``, or ``PANAL_TEST_POSTGRES_URL`` from
``. .ci/services start``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import time

from sqlalchemy import create_engine, text

from panal.server.database.store import database_url
from panal.server.hive_games.game_store import GameRow, GameStore, GameWrite


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(
    store: GameStore, moves: int, rounds: int
) -> dict[str, list[tuple[float, float]]]:
    """(CPU µs, wall µs) per move for each way, each round."""
    store.create_game(GameRow(id="bench", game_type="Base", mode="hotseat"), [])
    version = 0
    loop = asyncio.get_running_loop()
    figures: dict[str, list[tuple[float, float]]] = {"thread": [], "loop": []}
    for _ in range(rounds):
        for way in figures:
            cpu, wall = cpu_seconds(), time.perf_counter()
            for _ in range(moves):
                values = {"plies": version + 1}
                move = (f"m{version}",)
                if way == "thread":
                    version = await loop.run_in_executor(
                        None,
                        lambda v=version, x=values, m=move: store.change(
                            "bench", v, GameWrite(x, add_moves=m)
                        ),
                    )
                else:
                    version = await store.change_async(
                        "bench", version, GameWrite(values, add_moves=move)
                    )
            figures[way].append(
                (1e6 * (cpu_seconds() - cpu) / moves, 1e6 * (time.perf_counter() - wall) / moves)
            )
    await store.close_async()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", default=os.environ.get("PANAL_TEST_POSTGRES_URL"))
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if not args.postgres:
        raise SystemExit("no PostgreSQL given (--postgres, or PANAL_TEST_POSTGRES_URL)")
    admin_url = database_url(args.postgres)[0]
    name = f"panal_store_write_{os.getpid()}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    store = GameStore(admin_url.rsplit("/", 1)[0] + "/" + name)
    try:
        figures = asyncio.run(measure(store, args.moves, args.rounds))
    finally:
        store.close()
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
    thread_cpu = statistics.median(cpu for cpu, _ in figures["thread"])
    print(f"{args.moves} moves x {args.rounds} rounds; load {os.getloadavg()[0]:.2f}")
    print("way     cpu_us/move  wall_us/move  cpu_ratio")
    for way, runs in figures.items():
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        print(f"{way:6}  {cpu:11.0f}  {wall:12.0f}  {cpu / thread_cpu:9.2f}")


if __name__ == "__main__":
    main()
