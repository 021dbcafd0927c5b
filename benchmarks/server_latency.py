"""Move round-trip latency of ``panal serve`` under many concurrent online games.

Every game has two simulated players, each on its own websocket, as two browsers would be. A
player waits for its turn, "thinks" for a random time (uniform between half and one and a half
times ``--think``), sends a random legal move and measures the time until the server's new state
comes back on its own socket: the server has parsed the move, checked it with the rules engine,
written it to SQLite, computed the opponent's legal moves and sent the change to both players. The
opponent's latency (send → state on the other socket) is measured too. No AI is involved. The
players ask for deltas after the first whole state, as the browser does (an older server sends
whole states: they are followed too); the bytes they receive per move are counted.

    python benchmarks/server_latency.py --games 1000 5000 --processes 1 2 --seconds 60

Each configuration gets a fresh server and a fresh database: SQLite (one process, the embedded
default) and, when PostgreSQL and Redis are given (``--postgres``/``--redis``, or the
``PANAL_TEST_POSTGRES_URL``/``PANAL_TEST_REDIS_URL`` that ``. .ci/services start`` exports), the
scale-out mode with ``--processes`` web processes (``panal serve --workers N``): the two players
of a game then often sit on different processes, and their moves cross through Redis. The
server runs in its own processes and the simulated players in this one. A summary table ends the
output, with the machine's load and the library versions.

The measured window opens after a warm-up (``--warmup``), once the players' own garbage is
collected and frozen (their collector is off inside the window) and once the burst of moves that
collection's pause held back has drained; only moves sent inside the window are measured, and the
/proc readings for the CPU figures run in a thread. Before these three rules the players' own
pause, up to a second at 2,500 games, and the burst after it made the whole p99 at 2,500 and
5,000 games: a few hundred moves at the window's start, all sent together.

Besides the latencies, each line gives, over the measured window: ``cpu_ms/move``, the server
processes' CPU time per move (PostgreSQL and Redis not included); ``players_ms/move``, this
process's (the simulated players') CPU time per move; ``pg_redis_ms/move``, PostgreSQL's (all its
processes) and Redis's, when they run on this machine and were given as URLs; and ``machine_busy``,
the share of all the machine's cores that was busy (from /proc/stat: everything, other users' work
included). When the players and the server share a machine, these say whether a target is within
its reach: the servers need moves/s × cpu_ms/move of CPU, the players and the services moves/s ×
their ms/move more. The players are kept cheap so as to disturb the measure little: a receive is
bounded by a time-out scope rather than by ``asyncio.wait_for``, which made a task of its own for
every message (about 7 µs of CPU per message on this machine).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]


SETTLE_SECONDS = 3.0


@dataclass
class Results:
    mover: list[float] = field(default_factory=list)
    opponent: list[float] = field(default_factory=list)
    errors: int = 0
    resyncs: int = 0  # deltas that did not follow the state held: a full state was asked for
    finished_games: int = 0
    bytes_received: int = 0  # by every simulated player while measuring
    server_cpu: float = 0.0  # CPU seconds the server's processes used while measuring
    client_cpu: float = 0.0  # CPU seconds the simulated players (this process) used meanwhile
    services_cpu: float = float("nan")  # CPU seconds of PostgreSQL and Redis meanwhile
    machine_busy: float = 0.0  # busy fraction of all the machine's cores meanwhile (/proc/stat)


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot, from /proc/stat (Linux): busy is all
    but idle and I/O wait."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    total = sum(fields[:8])  # guest time is already counted in user time
    return total - fields[3] - fields[4], total


@dataclass(frozen=True)
class CpuSnapshot:
    server: float  # CPU seconds of the server's processes
    services: float  # of PostgreSQL's and Redis's
    busy: int  # clock ticks of all cores: busy, and in all
    total: int


def cpu_snapshot(server_pid: int, services: list[int]) -> CpuSnapshot:
    busy, total = machine_ticks()
    return CpuSnapshot(
        cpu_seconds(server_pid), sum(cpu_seconds(pid) for pid in services), busy, total
    )


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of ``pid`` and every process below it, from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    family, frontier = {pid}, {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - family
        family |= frontier
    return sum(times.get(member, 0.0) for member in family)


def service_pids(postgres: str, redis: str) -> list[int]:
    """The PostgreSQL postmaster's and the Redis server's process ids, when they run on this
    machine and can be found (PostgreSQL's from its data directory's postmaster.pid); else
    none."""
    import redis as redis_client
    from sqlalchemy import create_engine, text

    from panal.server.database.store import database_url

    pids = []
    with contextlib.suppress(Exception):
        pids.append(int(redis_client.Redis.from_url(redis).info("server")["process_id"]))
    engine = create_engine(database_url(postgres)[0])
    with contextlib.suppress(Exception), engine.connect() as conn:
        folder = Path(conn.execute(text("SHOW data_directory")).scalar_one())
        pids.append(int((folder / "postmaster.pid").read_text().split()[0]))
    engine.dispose()
    return [pid for pid in pids if Path(f"/proc/{pid}").exists()]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def progress(message: str) -> None:
    """A phase's end on stderr, with the time since the run began: where a long run stands."""
    print(f"[{time.monotonic() - PROGRESS_START[0]:6.1f} s] {message}", file=sys.stderr, flush=True)


PROGRESS_START = [time.monotonic()]


async def create_game(client: httpx.AsyncClient) -> tuple[str, str, str]:
    for attempt in range(5):  # a kept-alive connection may be closed as it is reused
        try:
            created = (await client.post("/api/games", json={"mode": "online"})).json()
            joined = (
                await client.post(
                    f"/api/games/{created['id']}/join", json={"invite": created["invite"]}
                )
            ).json()
            return created["id"], created["token"], joined["token"]
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


async def player(
    ws_url: str,
    game_id: str,
    token: str,
    color: int,
    think: float,
    deadline: list[float],
    measuring: asyncio.Event,
    window: list[float],
    sent_at: dict[tuple[str, int], float],
    results: Results,
    rng: random.Random,
) -> None:
    """One simulated browser: a full ``state`` on connect, then ``delta`` messages (a server that
    does not send deltas sends full states throughout: both are followed)."""
    async with connect(
        f"{ws_url}/ws/games/{game_id}?deltas=1", max_size=2**22, ping_interval=None
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))  # as the browser does
        pending: asyncio.Task[None] | None = None
        view: dict[str, Any] | None = None  # seq, ply, turn, result, legal, last mover
        while time.monotonic() < deadline[0]:
            try:
                # A time-out scope, not wait_for: that wrapped every receive in a task of its own.
                async with asyncio.timeout(max(0.1, min(30.0, deadline[0] - time.monotonic()))):
                    text = await ws.recv()
            except TimeoutError:
                break
            received = time.perf_counter()
            if measuring.is_set():
                results.bytes_received += len(text.encode())
            message = json.loads(text)
            kind = message["type"]
            if kind == "error":
                results.errors += 1
                continue
            if kind == "state":
                history = message["history"]
                view = {
                    "seq": message.get("seq"),
                    "ply": message["ply"],
                    "turn": message["turn"],
                    "result": message["result"],
                    "legal": message.get("legal"),
                    "mover": history[-1]["color"] if history else None,
                }
            elif kind == "delta" and view is not None:
                if message["seq"] != view["seq"] + 1:
                    results.resyncs += 1
                    view = None
                    await ws.send('{"type":"sync"}')
                    continue
                view.update(
                    {k: message[k] for k in ("seq", "ply", "turn", "result") if k in message}
                )
                view["legal"] = message.get("legal")
                added = message.get("moves", {}).get("add")
                if added:
                    view["mover"] = added[-1]["color"]
            else:
                continue
            ply = view["ply"]
            sent = sent_at.get((game_id, ply - 1))
            # Only moves sent inside the window: one sent before it may have waited out the
            # simulated players' own collection at its start (an 0.8 s pause at 2,500 games).
            if sent is not None and ply > 0 and measuring.is_set() and sent >= window[0]:
                mover = view["mover"] == color
                (results.mover if mover else results.opponent).append(received - sent)
            if view["result"]:
                if color == 0:
                    results.finished_games += 1
                break
            legal = view["legal"]
            if legal and view["turn"] == color and (pending is None or pending.done()):
                # As the browser does: a piece and a destination (or a pass).
                moves = [m for m in legal if m["piece"] is not None] or legal
                chosen = rng.choice(moves)
                if chosen["piece"] is None:
                    request: dict[str, Any] = {"type": "move", "move": "pass", "ply": ply}
                else:
                    request = {"type": "move", "piece": chosen["piece"], "to": chosen["to"]}
                    request.update({"carry": bool(chosen.get("carry")), "ply": ply})
                pending = asyncio.create_task(
                    send_after(ws, rng.uniform(0.5, 1.5) * think, game_id, ply, request, sent_at)
                )
        if pending is not None:
            pending.cancel()


async def send_after(
    ws: object,
    delay: float,
    game_id: str,
    ply: int,
    request: dict[str, Any],
    sent_at: dict[tuple[str, int], float],
) -> None:
    await asyncio.sleep(delay)
    sent_at[(game_id, ply)] = time.perf_counter()
    await ws.send(json.dumps(request))  # type: ignore[attr-defined]


async def run(
    base_url: str,
    games: int,
    seconds: float,
    think: float,
    warmup: float,
    server_pid: int,
    services: list[int],
) -> Results:
    gc.collect()
    ws_url = base_url.replace("http", "ws", 1)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as client:
        semaphore = asyncio.Semaphore(50)

        async def limited() -> tuple[str, str, str]:
            async with semaphore:
                return await create_game(client)

        created = await asyncio.gather(*(limited() for _ in range(games)))
    progress(f"{games} games created")
    results = Results()
    sent_at: dict[tuple[str, int], float] = {}
    measuring = asyncio.Event()
    deadline = [float("inf")]  # set once every player is connected and warmed up
    window = [float("inf")]  # when the measured window began (perf_counter)
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
                        window,
                        sent_at,
                        results,
                        random.Random(rng.random()),
                    )
                )
            )
        await asyncio.sleep(0.002)  # connect gradually, as real players arrive
    progress(f"{len(tasks)} players started")
    await asyncio.sleep(warmup)
    # The simulated players are the measuring instrument: keep their own garbage collections
    # out of the measured latencies.
    gc.collect()
    gc.freeze()
    gc.disable()
    # That collection paused the players for up to a second at thousands of games: the moves
    # whose thinking ended meanwhile go out together as it ends, a burst no real crowd makes.
    # Let it drain before the window opens.
    await asyncio.sleep(SETTLE_SECONDS)
    # Reading /proc for the CPU figures takes a few hundred milliseconds on this VM: it runs in
    # a thread, and the window opens after it, so that no measured move waits for it (moves
    # sent before the window are not measured).
    before = await asyncio.to_thread(cpu_snapshot, server_pid, services)
    window[0] = time.perf_counter()
    deadline[0] = time.monotonic() + seconds
    measuring.set()
    progress("measuring")
    client_before = time.process_time()
    await asyncio.sleep(seconds)
    results.client_cpu = time.process_time() - client_before
    after = await asyncio.to_thread(cpu_snapshot, server_pid, services)
    results.server_cpu = after.server - before.server
    if services:
        results.services_cpu = after.services - before.services
    results.machine_busy = (after.busy - before.busy) / max(1, after.total - before.total)
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    gc.enable()
    gc.unfreeze()
    results.errors += sum(1 for outcome in outcomes if isinstance(outcome, BaseException))
    return results


# The server under cProfile, timed in CPU time (on a busy machine, wall time counts the waits for
# a core): argv[1] is the statistics file, the rest panal's arguments. Stopped by SIGINT.
PROFILED_SERVER = """
import cProfile, sys, time
from panal.cli import main
profile, sys.argv = sys.argv[1], ["panal", *sys.argv[2:]]
profiler = cProfile.Profile(time.process_time)
try:
    profiler.runcall(main)
except (SystemExit, KeyboardInterrupt):
    pass
finally:
    profiler.dump_stats(profile)
"""


def start_server(
    port: int, db: str, log: Path, redis: str | None, processes: int, profile: str | None = None
) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "panal.cli", "serve", "--port", str(port), "--db", db]
    if profile:  # one process under cProfile (its statistics written when it stops)
        command[1:3] = ["-c", PROFILED_SERVER, profile]
    command += ["--max-connections-per-address", "0", "--workers", str(processes)]
    if redis:
        command += ["--redis", redis, "--redis-prefix", f"bench-{port}", "--ai-workers", "0"]
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/api/config", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not start; see {log}")


def fresh_postgres(url: str) -> tuple[str, str]:
    """A new, empty database next to ``url``'s: (its URL, its name)."""
    from sqlalchemy import create_engine, text

    from panal.server.database.store import database_url

    admin_url = database_url(url)[0]
    name = f"panal_bench_{os.getpid()}_{int(time.time())}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return admin_url.rsplit("/", 1)[0] + "/" + name, name


def drop_postgres(url: str, name: str) -> None:
    from sqlalchemy import create_engine, text

    from panal.server.database.store import database_url

    admin = create_engine(database_url(url)[0], isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    admin.dispose()


def versions(postgres: str | None, redis: str | None) -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"Python {sys.version.split()[0]}"]
    packages = (
        "fastapi",
        "uvicorn",
        "websockets",
        "sqlalchemy",
        "psycopg",
        "psycopg-pool",
        "redis",
    )
    for package in packages:
        with contextlib.suppress(PackageNotFoundError):
            parts.append(f"{package} {version(package)}")
    if postgres:
        from sqlalchemy import create_engine, text

        from panal.server.database.store import database_url

        engine = create_engine(database_url(postgres)[0])
        with engine.connect() as conn:
            parts.append("PostgreSQL " + conn.execute(text("SHOW server_version")).scalar_one())
        engine.dispose()
    if redis:
        import redis as redis_client

        info = redis_client.Redis.from_url(redis).info("server")
        parts.append(f"Redis server {info['redis_version']}")
    return ", ".join(parts)


def load_average() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument(
        "--processes", type=int, nargs="+", default=[1, 2], help="web processes (scale-out)"
    )
    parser.add_argument(
        "--backends",
        nargs="+",
        choices=["sqlite", "scale"],
        default=["sqlite", "scale"],
        help="sqlite: one process on an SQLite file; scale: PostgreSQL + Redis",
    )
    parser.add_argument("--postgres", default=os.environ.get("PANAL_TEST_POSTGRES_URL"))
    parser.add_argument("--redis", default=os.environ.get("PANAL_TEST_REDIS_URL"))
    parser.add_argument("--seconds", type=float, default=60, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=10, help="unmeasured time first")
    parser.add_argument("--think", type=float, default=5.0, help="mean thinking time per move (s)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="run the (one-process) server under cProfile and write its statistics to FILE",
    )
    args = parser.parse_args()

    # Two sockets per game on each side: raise the open-file limit (the servers inherit it).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))

    scale = "scale" in args.backends
    if scale and not (args.postgres and args.redis):
        print("no PostgreSQL/Redis given (--postgres, --redis): SQLite only", flush=True)
        scale = False
    configurations = [("sqlite", 1)] if "sqlite" in args.backends else []
    if scale:
        configurations += [("scale", n) for n in args.processes]
    print(f"cpus: {os.cpu_count()}  think: {args.think} s mean  measured: {args.seconds} s")
    print(versions(args.postgres if scale else None, args.redis if scale else None), flush=True)
    header = (
        "backend  processes  games  moves/s  p50_ms  p99_ms  max_ms  opp_p99_ms  "
        "cpu_ms/move  players_ms/move  pg_redis_ms/move  machine_busy  bytes/move  errors  load"
    )
    print(header)
    rows = []
    for backend, processes in configurations:
        for games in args.games:
            with tempfile.TemporaryDirectory() as folder:
                dropped: tuple[str, str] | None = None
                if backend == "sqlite":
                    db, redis = str(Path(folder) / "bench.sqlite3"), None
                else:
                    db, name = fresh_postgres(args.postgres)
                    dropped = (args.postgres, name)
                    redis = args.redis
                PROGRESS_START[0] = time.monotonic()
                server = start_server(
                    args.port, db, Path(folder) / "serve.log", redis, processes, args.profile
                )
                progress(f"{backend} server up, {processes} processes")
                try:
                    results = asyncio.run(
                        run(
                            f"http://127.0.0.1:{args.port}",
                            games,
                            args.seconds,
                            args.think,
                            args.warmup,
                            server.pid,
                            [] if redis is None else service_pids(args.postgres, redis),
                        )
                    )
                    load = load_average()
                finally:
                    # A server under cProfile stops on SIGINT (it writes its statistics then).
                    server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
                    server.wait(60)
                    if dropped:
                        drop_postgres(*dropped)
            measured = sorted(results.mover)
            line = (
                f"{backend:7s}  {processes:9d}  {games:5d}  "
                f"{len(measured) / args.seconds:7.1f}  "
                f"{1000 * percentile(measured, 50):6.1f}  {1000 * percentile(measured, 99):6.1f}  "
                f"{1000 * (measured[-1] if measured else float('nan')):6.1f}  "
                f"{1000 * percentile(results.opponent, 99):10.1f}  "
                f"{1000 * results.server_cpu / max(1, len(measured)):11.2f}  "
                f"{1000 * results.client_cpu / max(1, len(measured)):15.2f}  "
                f"{1000 * results.services_cpu / max(1, len(measured)):16.2f}  "
                f"{100 * results.machine_busy:11.0f}%  "
                f"{results.bytes_received / max(1, len(measured)):10.0f}  "
                f"{results.errors + results.resyncs:6d}  {load}"
            )
            rows.append(line)
            print(line, flush=True)
    print("\nsummary (move round trip on the mover's socket; opp: on the opponent's socket)")
    print(header)
    for line in rows:
        print(line)


if __name__ == "__main__":
    main()
