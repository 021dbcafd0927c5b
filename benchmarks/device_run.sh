#!/usr/bin/env bash
# The whole 16-core device run in one call, ending within BUDGET seconds (default 560):
#
#   bash benchmarks/device_run.sh      # repository root, OUT set; needs .devkit/ and .engines/
#
# made by benchmarks/device_kit.sh (the call carries both). The device has Python 3.12 and no
# network, PostgreSQL or Redis. Steps, each timed and bounded, each reported and passed over if
# it fails:
#   1. python: the kit's wheels into SITE (/tmp/site), its compiled panal into SITE-compiled;
#   2. services: PostgreSQL 15 (initdb as a non-root user, data in WORK) and Redis from the kit on
#      loopback ports, with the kit's libraries on LD_LIBRARY_PATH for them only;
#   3. latency-5000, latency-10000: benchmarks/server_latency.py on PostgreSQL + Redis, 5,000
#      games on 2 web processes and 10,000 on 4, pure-Python panal as a default install serves
#      (from src/, and with the image's uvloop hidden: a default install has none);
#   4. ai-d4: benchmarks/device_matches.sh with the compiled panal: strongest at 1 s a move
#      against nokamute `bestmove depth 4`, Base+MLP, 104 games, one a core, no game started
#      after GAME_SLACK seconds before the end, the games still running then abandoned;
# then OUT/summary.txt (machine, versions, commit, each step's time and table, also printed) and
# OUT/results.tar.gz (every log, the games). Knobs for a rehearsal: SCALE (share of the games of
# both parts), BUDGET, AI_MIN, GAME_SLACK, LATENCY_SECONDS/LATENCY_WARMUP/LATENCY_THINK, PYTHON,
# PG_PORT/REDIS_PORT/SERVER_PORT, WORK, SITE, TUNE_SYSCTL, PANAL_COMMIT (the commit to report,
# before the copy's .git, which a device may hold from an older checkout).
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

set -a  # the settings reach the steps, which run in their own shells (bounded by timeout)
OUT="${OUT:-device-results}"
PYTHON="${PYTHON:-python3}"
SCALE="${SCALE:-1}"
BUDGET="${BUDGET:-560}"            # seconds from the start by which everything has ended
TAIL=15                            # the summary, the archive and stopping the services
AI_MIN="${AI_MIN:-300}"            # seconds the AI match keeps whatever the latency runs take
GAME_SLACK="${GAME_SLACK:-90}"     # no game starts later than this before the match's end
# 20 s measured: 20,000 moves at 5,000 games and 40,000 at 10,000 (a move per game every 5 s);
# 8 s of warm-up, more than the longest think (7.5 s): both runs in about 150 s with their
# games' creation, the players' connection and the servers' start and stop.
LATENCY_SECONDS="${LATENCY_SECONDS:-20}"
LATENCY_WARMUP="${LATENCY_WARMUP:-8}"
LATENCY_THINK="${LATENCY_THINK:-5}"
# The latency runs, each GAMES:PROCESSES:AT-MOST-SECONDS. Creating 5,000 games (10,000 requests)
# and connecting 10,000 players alone take over a minute: the first device call's 110 s and
# 140 s were too short for both (2026-11-27).
LATENCY_RUNS="${LATENCY_RUNS:-5000:2:110 10000:4:140}"
AI="${AI:-1}"                      # 0: no AI match
PG_PORT="${PG_PORT:-55433}"
REDIS_PORT="${REDIS_PORT:-56380}"
SERVER_PORT="${SERVER_PORT:-8765}"  # the web server's, and the next one for the second run
WORK="${WORK:-/tmp/panal-device}"
SITE="${SITE:-/tmp/site}"
KIT=.devkit
RESULTS="$WORK/results"
SERVICES="$WORK/services"
PG_USER=panaldev
TUNE_SYSCTL="${TUNE_SYSCTL:-1}"    # widen the local ports and the listen queue (0 on a shared host)
PURE_PATH="$WORK/hidden:$PWD/src:$SITE"
PANAL_INFO='import panal, panal.hive.game as g; print(panal.compiled(), g.__file__)'
set +a

mkdir -p "$OUT" "$RESULTS"
OUT="$(cd "$OUT" && pwd)"
: > "$RESULTS/steps.txt"

elapsed() { echo $(( $(date +%s) - started )); }
log() { echo "[$(elapsed) s] $*" | tee -a "$RESULTS/run.log"; }
scaled() { "$PYTHON" -c "print(max($2, round($1 * $SCALE)))"; }

step() {  # step NAME SECONDS COMMAND...: run COMMAND bounded by SECONDS, log and time it
    local name="$1" limit="$2" begin rc
    shift 2
    begin=$(date +%s)
    if [ "$limit" -lt 5 ]; then
        log "$name: skipped, no time left"
        echo "$name skipped 0" >> "$RESULTS/steps.txt"
        return 1
    fi
    log "$name: start (at most $limit s)"
    # timeout signals the whole process group: the servers and engines a step started go too.
    timeout -k 10 "$limit" bash -c '"$@"' "$name" "$@" > "$RESULTS/$name.log" 2>&1
    rc=$?
    log "$name: rc $rc in $(( $(date +%s) - begin )) s$([ "$rc" = 124 ] && echo ' (timed out)')"
    echo "$name $rc $(( $(date +%s) - begin ))" >> "$RESULTS/steps.txt"
    if [ "$rc" != 0 ]; then tail -n 15 "$RESULTS/$name.log" | sed "s/^/  $name| /"; fi
    return "$rc"
}

# --- 1. Python packages ---------------------------------------------------------------------
install_python() {
    rm -rf "$SITE" "$SITE-compiled" "$WORK/hidden"
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --target "$SITE" \
        "$KIT"/wheels/*.whl || return
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --target "$SITE-compiled" \
        "$KIT"/panal/*.whl || return
    # The image has uvloop, which uvicorn would take; a default install of panal has none.
    mkdir -p "$WORK/hidden"
    echo 'raise ImportError("hidden by device_run.sh: a default install has no uvloop")' \
        > "$WORK/hidden/uvloop.py"
    echo "pure: $(PYTHONPATH="$PURE_PATH" "$PYTHON" -c "$PANAL_INFO")"
    echo "compiled: $(PYTHONPATH="$SITE-compiled" "$PYTHON" -c "$PANAL_INFO")"
    PYTHONPATH="$PURE_PATH" "$PYTHON" -c "import fastapi, uvicorn, sqlalchemy, psycopg, redis
import panal, panal.server.app
assert not panal.compiled(), 'the latency runs need the pure-Python panal'" || return
    PYTHONPATH="$SITE-compiled" "$PYTHON" -c "import panal
assert panal.compiled(), 'the AI match needs the compiled panal'"
}

# --- 2. PostgreSQL and Redis ----------------------------------------------------------------
as_pg_user() {  # the kit's libraries for the services alone, in an otherwise minimal environment
    local environment=(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$SERVICES/lib" TZ=UTC LANG=C
        HOME="$WORK/pg")
    if command -v runuser > /dev/null; then
        runuser -u "$PG_USER" -- "${environment[@]}" "$@"
    else
        "$PYTHON" -c 'import os, pwd, sys
user = pwd.getpwnam(sys.argv[1])
os.setgroups([]); os.setgid(user.pw_gid); os.setuid(user.pw_uid)
os.execvp(sys.argv[2], sys.argv[2:])' "$PG_USER" "${environment[@]}" "$@"
    fi
}

start_services() {
    rm -rf "$SERVICES" "$WORK/pg"
    mkdir -p "$SERVICES" "$WORK/pg"
    # Python's lzma: the image need not have xz.
    "$PYTHON" -c 'import sys, tarfile
tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="fully_trusted")' \
        "$KIT/services.tar.xz" "$SERVICES" || return
    local pg="$SERVICES/root/usr/lib/postgresql/15/bin"
    # initdb refuses root: a user of its own (useradd where the image has it).
    if ! id "$PG_USER" > /dev/null 2>&1; then
        useradd --system --no-create-home --home-dir "$WORK/pg" --shell /bin/sh "$PG_USER" ||
            { echo "$PG_USER:x:64001:64001::$WORK/pg:/bin/sh" >> /etc/passwd
              echo "$PG_USER:x:64001:" >> /etc/group; }
    fi
    id "$PG_USER" || return
    # Debian's PostgreSQL reads its time zones from /usr/share/zoneinfo.
    if [ ! -e /usr/share/zoneinfo/UTC ]; then
        mkdir -p /usr/share/zoneinfo
        cp -rn "$SERVICES/root/usr/share/zoneinfo/." /usr/share/zoneinfo/
    fi
    chmod 755 "$WORK"
    chown "$PG_USER" "$WORK/pg"
    echo "PostgreSQL: $(as_pg_user "$pg/postgres" --version)"
    echo "Redis: $(env -i LD_LIBRARY_PATH="$SERVICES/lib" "$SERVICES/root/usr/bin/redis-server" --version)"
    as_pg_user "$pg/initdb" -D "$WORK/pg/data" -U panal --auth=trust -E UTF8 --locale=C \
        > "$RESULTS/initdb.log" 2>&1 || { tail "$RESULTS/initdb.log"; return 1; }
    # As in .ci/services: no fsync, room for every web process's pool.
    as_pg_user "$pg/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $WORK/pg -c fsync=off -c max_connections=300" \
        start || { tail "$WORK/pg/server.log"; return 1; }
    env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$SERVICES/lib" "$SERVICES/root/usr/bin/redis-server" \
        --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no --daemonize yes \
        --dir "$WORK" --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log" || return
    local answer=""
    for _ in $(seq 50); do
        answer=$(env -i LD_LIBRARY_PATH="$SERVICES/lib" "$SERVICES/root/usr/bin/redis-cli" \
            -p "$REDIS_PORT" ping 2>/dev/null) && [ "$answer" = PONG ] && break
        sleep 0.1
    done
    echo "Redis ping: $answer"
    as_pg_user "$SERVICES/root/usr/lib/postgresql/15/bin/psql" -h 127.0.0.1 -p "$PG_PORT" \
        -U panal -d postgres -Atc 'SELECT version()' && [ "$answer" = PONG ]
}

stop_services() {
    if [ -f "$WORK/redis.pid" ]; then kill "$(cat "$WORK/redis.pid")" 2>/dev/null; fi
    if [ -d "$WORK/pg/data" ]; then
        as_pg_user "$SERVICES/root/usr/lib/postgresql/15/bin/pg_ctl" -D "$WORK/pg/data" \
            -m immediate stop > /dev/null 2>&1
    fi
    rm -f "$WORK/redis.pid"
}
trap stop_services EXIT

# --- 3. server latency ----------------------------------------------------------------------
latency() {  # latency GAMES PROCESSES PORT
    PYTHONPATH="$PURE_PATH" PYTHONUNBUFFERED=1 "$PYTHON" benchmarks/server_latency.py \
        --backends scale --games "$1" --processes "$2" --port "$3" \
        --postgres "postgresql://panal@127.0.0.1:$PG_PORT/postgres" \
        --redis "redis://127.0.0.1:$REDIS_PORT/0" \
        --seconds "$LATENCY_SECONDS" --warmup "$LATENCY_WARMUP" --think "$LATENCY_THINK"
}

latency_limit() {  # at most $1 s, and never into the AI match's AI_MIN + the tail
    local left=$(( BUDGET - TAIL - AI_MIN - $(elapsed) ))
    echo $(( left < $1 ? left : $1 ))
}

# --- 4. the AI match ------------------------------------------------------------------------
ai_match() {  # ai_match SECONDS: device_matches.sh's first match alone, ending within SECONDS
    PYTHONPATH="$SITE-compiled" PYTHON="$PYTHON" NOKAMUTE=.engines/nokamute OUT="$RESULTS/ai" \
        SCALE="$SCALE" JOBS1="$(nproc)" JOBS2=0 EQUAL_TIME=0 \
        DEADLINE=$(( $1 - GAME_SLACK )) HARD_DEADLINE="$1" PYTHONUNBUFFERED=1 \
        bash benchmarks/device_matches.sh
}

export -f elapsed log scaled install_python as_pg_user start_services stop_services latency \
    ai_match

# --- the run --------------------------------------------------------------------------------
ulimit -n 1048576 2>/dev/null || ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
# 20,000 websockets and their server ends on loopback: room for their ports and their queue.
if [ "$TUNE_SYSCTL" = 1 ]; then  # through /proc: the image need not have sysctl
    echo "10000 65000" 2>/dev/null > /proc/sys/net/ipv4/ip_local_port_range
    echo 8192 2>/dev/null > /proc/sys/net/core/somaxconn
fi
log "open files: $(ulimit -n); local ports: $(cat /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)"

# The caller's word first: the device's copy of .git can be an older checkout's (2026-11-27 it
# printed the session's first commit, not the tree that was sent).
PANAL_COMMIT="${PANAL_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null ||
    echo "unknown (kit: $(head -n 1 "$KIT/MANIFEST.txt" 2>/dev/null))")}"
export PANAL_COMMIT  # device_matches.sh reports it too
chmod +x .engines/nokamute 2>/dev/null  # in case the copy lost the mode
step python 120 install_python
step services 90 start_services && services=ok || services=failed
if [ "$services" = ok ]; then
    port="$SERVER_PORT"
    for run in $LATENCY_RUNS; do  # GAMES:PROCESSES:SECONDS
        IFS=: read -r games processes limit <<< "$run"
        step "latency-$games" "$(latency_limit "$limit")" latency "$(scaled "$games" 10)" \
            "$processes" "$port"
        port=$(( port + 1 ))
    done
fi
stop_services
ai_seconds=$(( BUDGET - TAIL - $(elapsed) ))
if [ "$AI" = 1 ]; then step ai-d4 $(( ai_seconds + 10 )) ai_match "$ai_seconds"; fi

# --- summary and archive --------------------------------------------------------------------
{
    echo "panal device run, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $PANAL_COMMIT, SCALE $SCALE"
    echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')," \
        "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), kernel $(uname -r)," \
        "$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), glibc $(getconf GNU_LIBC_VERSION | cut -d' ' -f2)"
    echo "python: $("$PYTHON" --version 2>&1) ($(command -v "$PYTHON"))"
    sed -n 's/^pure: /panal pure (latency): /p; s/^compiled: /panal compiled (AI): /p' "$RESULTS/python.log"
    grep -E '^(PostgreSQL|Redis): ' "$RESULTS/services.log" 2>/dev/null
    echo "latency runs: --seconds $LATENCY_SECONDS --warmup $LATENCY_WARMUP --think $LATENCY_THINK"
    echo
    echo "steps (name, exit status, seconds):"
    sed 's/^/  /' "$RESULTS/steps.txt"
    for run in $LATENCY_RUNS; do
        games="${run%%:*}"
        if [ -f "$RESULTS/latency-$games.log" ]; then
            echo
            echo "== latency-$games"
            sed -n '2p; /^summary/,$p' "$RESULTS/latency-$games.log"
        fi
    done
    echo
    echo "== ai-d4"
    if [ -f "$RESULTS/ai/summary.txt" ]; then cat "$RESULTS/ai/summary.txt"; else
        tail -n 20 "$RESULTS/ai-d4.log" 2>/dev/null; fi
    echo
    echo "wall time: $(elapsed) s"
} > "$OUT/summary.txt"
cp "$WORK/pg/server.log" "$RESULTS/postgresql.log" 2>/dev/null
cp "$WORK/redis.log" "$RESULTS/redis.log" 2>/dev/null
cp "$OUT/summary.txt" "$RESULTS/"
tar -C "$WORK" -czf "$OUT/results.tar.gz" results
cat "$OUT/summary.txt"
