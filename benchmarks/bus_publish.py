"""CPU per message of the Redis bus, publishing at a steady rate, with and without gathering.

Two :class:`panal.server.runtime.bus.RedisBus` in this process play two ``panal serve`` processes: A
publishes ``--rate`` game changes a second (each the size of a move's change message) on
``--channels`` game channels, and both are subscribed to all of them (A hears its own messages,
as a server does, and B is the other process). The messages are paced one by one, as moves
arrive, so a batch holds only what arrives while the publisher waits: ``RedisPublisher.GATHER``
seconds. For each gathering window the script prints this process's CPU time per message (A's
publishing and both receptions) and the Redis server's, and the ratio against no gathering,
measured in the same run, alternating the windows ``--rounds`` times.

    python benchmarks/bus_publish.py --rate 500 --gather 0 0.001 0.002 0.005

Needs a Redis on this machine (``--redis``, or ``PANAL_TEST_REDIS_URL`` from
``. .ci/services start``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import time
from pathlib import Path
from typing import Any

from panal.server.runtime.bus import RedisBus, RedisPublisher

# A move's change message is about this size (benchmarks/server_latency.py: ~1.3 KB on Redis).
PAYLOAD: dict[str, Any] = {
    "op": "change",
    "v": 1,
    "values": {},
    "add": ["wQ"],
    "entries": ["x" * 300],
    "board": {"cells": "y" * 300},
    "legal": "z" * 600,
}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    url: str, redis_pid: int, rate: int, seconds: float, channels: int
) -> tuple[float, float]:
    """(this process's, Redis's) CPU seconds per message."""
    prefix = f"bench-bus-{secrets.token_hex(3)}"
    a, b = RedisBus(url, prefix), RedisBus(url, prefix)
    received = 0

    def on_message(channel: str, message: dict[str, Any]) -> None:
        nonlocal received
        received += 1

    await a.start(lambda channel, message: None, lambda: None)
    await b.start(on_message, lambda: None)
    try:
        for i in range(channels):
            await a.subscribe(f"game:{i}")
            await b.subscribe(f"game:{i}")
        count = int(rate * seconds)
        loop = asyncio.get_running_loop()
        cpu, redis_cpu, start = time.process_time(), cpu_seconds(redis_pid), loop.time()
        for i in range(count):
            delay = start + i / rate - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            await a.publish(f"game:{i % channels}", PAYLOAD)
        while received < count:
            await asyncio.sleep(0.01)
        return (
            (time.process_time() - cpu) / count,
            (cpu_seconds(redis_pid) - redis_cpu) / count,
        )
    finally:
        await a.close()
        await b.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default=os.environ.get("PANAL_TEST_REDIS_URL"))
    parser.add_argument("--rate", type=int, default=500, help="messages a second")
    parser.add_argument("--seconds", type=float, default=8.0, help="per measurement")
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--gather", type=float, nargs="+", default=[0.0, 0.002], help="windows (s); 0 first"
    )
    args = parser.parse_args()
    if not args.redis:
        raise SystemExit("no Redis given (--redis or PANAL_TEST_REDIS_URL)")
    import redis

    redis_pid = int(redis.Redis.from_url(args.redis).info("server")["process_id"])
    results: dict[float, list[tuple[float, float]]] = {window: [] for window in args.gather}
    for _ in range(args.rounds):
        for window in args.gather:
            RedisPublisher.GATHER = window
            results[window].append(
                asyncio.run(measure(args.redis, redis_pid, args.rate, args.seconds, args.channels))
            )
    print(
        f"{args.rate} messages/s on {args.channels} channels, {args.rounds} rounds of "
        f"{args.seconds:g} s; load {os.getloadavg()[0]:.2f}"
    )
    print("gather_ms  process_us/msg  redis_us/msg  process_ratio  redis_ratio")
    base = args.gather[0]
    base_process = statistics.median(p for p, _ in results[base])
    base_redis = statistics.median(r for _, r in results[base])
    for window, samples in results.items():
        process = statistics.median(p for p, _ in samples)
        redis_cpu = statistics.median(r for _, r in samples)
        print(
            f"{1000 * window:9.1f}  {1e6 * process:14.0f}  {1e6 * redis_cpu:12.0f}  "
            f"{process / base_process:13.2f}  {redis_cpu / base_redis:11.2f}"
        )


if __name__ == "__main__":
    main()
