#!/bin/bash
# Instructions executed by the search (valgrind cachegrind without cache simulation): repeatable,
# unlike CPU time on a shared machine. The search's share = a run with --nodes 4000 minus the same
# run with --nodes 1 (imports and replaying the positions). MAIN_C / BRANCH_C: virtualenvs with
# each compiled build (PANAL_MYPYC=1 pip install ".[test]"); MAIN_SRC / BRANCH_SRC: each source
# folder (pure). Run from benchmarks/.
python=$(python3 -c "import sys; print(sys.executable)")  # not a launcher script: valgrind runs it
ir() {  # nodes positions python [PYTHONPATH]
  PYTHONPATH=$4 timeout 400 nice -n 5 valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file=/dev/null "$3" ai_search.py --nodes "$1" --repeat 1 --positions "$2" 2>&1 |
    grep -E "I *refs|results" | sed 's/.*refs: *//; s/.*results //' | tr '\n' ' '
}
for side in main branch; do
  [ $side = main ] && venv=$MAIN_C || venv=$BRANCH_C
  echo "compiled $side positions 20 nodes 4000: $(ir 4000 20 "$venv/bin/python")  nodes 1: $(ir 1 20 "$venv/bin/python")"
done
for side in main branch; do
  [ $side = main ] && src=$MAIN_SRC || src=$BRANCH_SRC
  echo "pure $side positions 10 nodes 4000: $(ir 4000 10 "$python" "$src")  nodes 1: $(ir 1 10 "$python" "$src")"
done
