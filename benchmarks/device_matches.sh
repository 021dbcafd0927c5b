#!/usr/bin/env bash
# The decisive AI matches, in parallel on a 16-core machine, in at most ~9 minutes of wall time.
#
#   NOKAMUTE=.engines/nokamute OUT=/tmp/out bash benchmarks/device_matches.sh
#
# From the repository root of a plain checkout: Python 3.11+ and nothing else (panal runs from
# source with PYTHONPATH=src). NOKAMUTE is the nokamute binary (default: .engines/nokamute, then
# ../shared/engines/nokamute); OUT the folder for the results (default ./device-results).
# Three matches run at once, each game with its own engine processes, one core per game:
#
#   1. panal strongest, bestmove time 1 s, vs nokamute bestmove depth 4, Base+MLP, 104 games
#   2. the same in Base, 52 games (a few more than the 100 and 50 the goals ask for, in case a
#      game is abandoned at the deadline)
#   3. panal strongest 1 s vs nokamute 1 s (one thread), Base+MLP, as many games as fit: on the
#      cores each of matches 1 and 2 leaves when it is done (and JOBS3 from the start, default
#      none); `ai_ladder.py combine` adds the runs up.
#
# Matches 1 and 2 start no game after DEADLINE seconds from the start (default 430), the 1 s vs
# 1 s runs none after HARD_DEADLINE - 120 (their games are longer); games still running at
# HARD_DEADLINE (default 520) are abandoned and reported, not counted. JOBS1/JOBS2 (12/4, 16 in
# all) are the games at a time of matches 1 and 2 (JOBS2=0 leaves match 2 out); EQUAL_TIME=0
# leaves out the 1 s vs 1 s runs; SCALE=0.02 plays 2% of the games (a quick rehearsal).
# PYTHONPATH (default src) is where panal comes from: a compiled build's folder plays with the
# compiled engine (benchmarks/device_run.sh does so). Each run writes summary.txt, summary.json,
# games.txt (GameStrings), games.pgn, games.jsonl and log.txt under OUT/<run>/; OUT/summary.txt
# gathers the summaries.
set -uo pipefail
cd "$(dirname "$0")/.."

NOKAMUTE="${NOKAMUTE:-${1:-}}"
if [ -z "$NOKAMUTE" ]; then
    for candidate in .engines/nokamute ../shared/engines/nokamute; do
        if [ -x "$candidate" ]; then NOKAMUTE="$candidate"; break; fi
    done
fi
if [ -z "$NOKAMUTE" ] || [ ! -x "$NOKAMUTE" ]; then
    echo "device_matches.sh: set NOKAMUTE to the nokamute binary" >&2
    exit 2
fi
NOKAMUTE="$(cd "$(dirname "$NOKAMUTE")" && pwd)/$(basename "$NOKAMUTE")"
OUT="${OUT:-device-results}"
mkdir -p "$OUT"
PYTHON="${PYTHON:-python3}"
SCALE="${SCALE:-1}"
DEADLINE="${DEADLINE:-430}"
HARD_DEADLINE="${HARD_DEADLINE:-520}"
JOBS1="${JOBS1:-12}"
JOBS2="${JOBS2:-4}"
JOBS3="${JOBS3:-0}"
EQUAL_TIME="${EQUAL_TIME:-1}"
export PYTHONPATH="${PYTHONPATH:-src}"

games() {  # games N scaled, at least 2 and even
    "$PYTHON" -c "import sys; n = max(2, round($1 * $SCALE)); print(n + n % 2)"
}

{
    echo "machine: $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
    echo "python: $("$PYTHON" --version 2>&1); nokamute: $("$NOKAMUTE" --help 2>&1 | head -1)"
    echo "panal: ${PANAL_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}, compiled: $("$PYTHON" -c 'import panal; print(panal.compiled())' 2>&1) (PYTHONPATH=$PYTHONPATH); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"

started=$(date +%s)
left() {  # seconds left until $1 seconds after the start
    echo $(( $1 - ($(date +%s) - started) ))
}

ladder() {  # ladder NAME JOBS GAMES GAME_TYPE OPPONENT_GO SEED LAST_START
    local name="$1" jobs="$2" count="$3" game_type="$4" go="$5" seed="$6" last="$7"
    "$PYTHON" benchmarks/ai_ladder.py \
        --engine "$NOKAMUTE uhp --num-threads=1" --engine-name nokamute --go "$go" \
        --player-go "bestmove time 00:00:01" --player-option Level=strongest \
        --game-type "$game_type" --games "$count" --jobs "$jobs" --seed "$seed" \
        --deadline "$(left "$last")" --hard-deadline "$(left "$HARD_DEADLINE")" \
        --out "$OUT/$name" > "$OUT/$name.stdout" 2> "$OUT/$name.progress"
}

equal_time() {  # equal_time NAME JOBS SEED: 1 s vs 1 s on the cores a finished match leaves
    local last=$(( HARD_DEADLINE - 120 ))
    if [ "$EQUAL_TIME" != 0 ] && [ "$2" -gt 0 ] && [ "$(left "$last")" -gt 30 ]; then
        ladder "$1" "$2" "$(games 200)" Base+MLP "bestmove time 00:00:01" "$3" "$last"
    fi
}

( ladder d4-base-mlp "$JOBS1" "$(games 104)" Base+MLP "bestmove depth 4" 11 "$DEADLINE"
  equal_time 1s-base-mlp-a "$JOBS1" 21 ) &
first=$!
( if [ "$JOBS2" -gt 0 ]; then
      ladder d4-base "$JOBS2" "$(games 52)" Base "bestmove depth 4" 12 "$DEADLINE"
  fi
  equal_time 1s-base-mlp-b "$JOBS2" 22 ) &
second=$!
equal_time 1s-base-mlp-c "$JOBS3" 23 &
third=$!
wait "$first" "$second" "$third"

{
    cat "$OUT/machine.txt"
    for name in d4-base-mlp d4-base 1s-base-mlp-a 1s-base-mlp-b 1s-base-mlp-c; do
        if [ -f "$OUT/$name.stdout" ]; then
            echo "== $name"
            cat "$OUT/$name.stdout"
        fi
    done
    runs=()
    for name in 1s-base-mlp-a 1s-base-mlp-b 1s-base-mlp-c; do
        if [ -s "$OUT/$name/games.jsonl" ]; then runs+=("$OUT/$name"); fi
    done
    if [ "${#runs[@]}" -gt 0 ]; then
        echo "== 1 s vs 1 s, all runs"
        "$PYTHON" benchmarks/ai_ladder.py combine "${runs[@]}"
    fi
    echo "wall time: $(( $(date +%s) - started )) s"
} | tee "$OUT/summary.txt"
