#!/usr/bin/env bash
# Every figure of docs/performance.md, in one go (≈ 8 min on the 2-core box; QUICK=1 ≈ 5 min):
#
#   bash benchmarks/run_all.sh                 # writes benchmarks/results/ (stale result files removed first)
#   QUICK=1 bash benchmarks/run_all.sh         # shorter runs, to check the script
#
#  1. the model: median / p95 of evaluate() on the defaults, the presets and random states (information)
#                                                                                           bench_model.py
#  2. partial sizes: every one-notch move from the defaults and random states, en + zh (information; the tests
#     assert the size guard)                                                               partial_sizes.py
#  3. one `rlhf-lab --port P1` (one uvicorn worker, the project's CLI) on a free port, then
#     a. the browser: key → meters with fetch-ahead, a cold move and a bare fetch() + DOM write, interleaved
#                                                                                           bench_browser.py
#     b. first load: bytes, requests, render-blocking                                      bench_first_load.py
#     c. the peers' harness (shared/peers/measure_ui.py, adapter benchmarks/peer_adapter.json) on our page
#  4. with our server stopped, the Gradio peer (queue=False; PEERS=all adds Gradio's defaults) from the peers' own
#     venv (PEERS_VENV; set up as in docs/performance.md), measured by the same harness
#  5. a class of learners on the two-core host: two `rlhf-lab` processes on two ports (one per core, as
#     deploy/nginx.conf runs them), the learners split evenly between them; locust, headless
#                                                                      locustfile.py → class_load.py
#  6. deploy/test_nginx.sh if nginx is installed: deploy/nginx.conf for real in front of two processes, its
#     checks and the same class through nginx (information)                      nginx.txt, nginx_load.json
#  7. benchmarks/summarize.py → summary.txt / summary.json: every budget of benchmarks/budgets.py, met or not
#
# Knobs: OUT=benchmarks/results  QUICK=1  PEERS=gradio|all|none  PEERS_DIR=../shared/peers (from the repo root)
#        PEERS_VENV=benchmarks/.peers-venv  NGINX=1|0  CLASS_TIME=60s
# Needs the `bench` extra (locust): pip install -e '.[bench]'.
# Everything is bounded: each wait has a timeout, each benchmark a fixed size; servers are stopped by PID.
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PY:-$ROOT/.venv/bin/python}
OUT=${OUT:-benchmarks/results}
PEERS=${PEERS:-gradio}
PEERS_DIR=${PEERS_DIR:-$ROOT/../shared/peers}
PEERS_VENV=${PEERS_VENV:-$ROOT/benchmarks/.peers-venv}
case $PEERS_VENV in /*) ;; *) PEERS_VENV=$ROOT/$PEERS_VENV ;; esac  # the peers run from their own folder
if [ "${QUICK:-0}" = 1 ]; then MOVES=30 ROUNDS=2 LOADS=3 ITER=20 MODEL_ARGS=--quick RANDOM_STATES=10 CLASS=20s
else MOVES=60 ROUNDS=3 LOADS=5 ITER=40 MODEL_ARGS="" RANDOM_STATES=40 CLASS=60s; fi
CLASS=${CLASS_TIME:-$CLASS}
LEARNERS=$("$PY" -c 'import runpy; print(int(runpy.run_path("benchmarks/budgets.py")["BUDGETS"]["class_learners"]))')
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT"/*.txt "$OUT"/*.png "$OUT"/*.log "$OUT"/*.csv   # one run per folder: nothing stale

PIDS=()
stop_all() {  # stop every server this script started, by PID: TERM, at most 5 s, then KILL
  local pid
  for pid in "${PIDS[@]}"; do
    kill -0 "$pid" 2>/dev/null || continue
    kill "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  done
  PIDS=()
}
trap stop_all EXIT

free_port() {
  "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_http() {  # wait_http URL PID: bounded, 60 s
  for _ in $(seq 1 120); do
    curl -fs -o /dev/null "$1" && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.5
  done
  echo "server at $1 did not come up" >&2
  return 1
}

start_lab() {  # start_lab PORT: `rlhf-lab --port PORT` (app/cli.py: one uvicorn worker), PID appended to PIDS
  "$PY" -m app.cli --host 127.0.0.1 --port "$1" > "$OUT/server-$1.log" 2>&1 &
  PIDS+=("$!")
  wait_http "http://127.0.0.1:$1/healthz" "$!" && curl -fs -o /dev/null "http://127.0.0.1:$1/en/"
}

step() { echo; echo "== $*"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

echo "run started $(date -u +%Y-%m-%dT%H:%MZ)$( [ "${QUICK:-0}" = 1 ] && echo " (QUICK=1: shorter runs, to check the script)"); load average $(loadavg); $(nproc) CPUs" | tee "$OUT/run.txt"

step "1. model evaluation"
# shellcheck disable=SC2086
timeout 600 "$PY" benchmarks/bench_model.py $MODEL_ARGS --json "$OUT/model.json" | tee "$OUT/model.txt"

step "2. partial sizes"
timeout 600 "$PY" benchmarks/partial_sizes.py --random "$RANDOM_STATES" --json "$OUT/partial_sizes.json" \
  | tee "$OUT/partial_sizes.txt"

P1=$(free_port)
B1="http://127.0.0.1:$P1"
step "3. one worker: rlhf-lab --port $P1"
if start_lab "$P1"; then
  step "3a. browser: key → meters, three modes interleaved"
  timeout 900 "$PY" benchmarks/bench_browser.py --url "$B1/en/" --moves "$MOVES" --rounds "$ROUNDS" \
    --json "$OUT/browser.json" --screenshot "$OUT/browser.png" | tee "$OUT/browser.txt"
  step "3b. first load"
  timeout 600 "$PY" benchmarks/bench_first_load.py --url "$B1/en/" --loads "$LOADS" --json "$OUT/first_load.json" \
    | tee "$OUT/first_load.txt"
  if [ -f "$PEERS_DIR/measure_ui.py" ]; then
    step "3c. peers' harness on our page (benchmarks/peer_adapter.json)"
    timeout 600 "$PY" "$PEERS_DIR/measure_ui.py" --url "$B1/en/" --adapter-file benchmarks/peer_adapter.json \
      --loads "$LOADS" --iterations "$ITER" --out "$OUT/harness_ours.json" | tee "$OUT/harness_ours.txt"
  else
    echo "no $PEERS_DIR/measure_ui.py (PEERS_DIR): no harness figures"
  fi
fi
stop_all

measure_peer() {  # measure_peer NAME PORT ENV=… COMMAND…: the peer from its own venv, measured with the same harness
  local name=$1 port=$2; shift 2
  local scratch
  scratch=$(mktemp -d)  # the peers' folder is read-only; Gradio writes .gradio/ where it runs
  env -C "$scratch" GRADIO_ANALYTICS_ENABLED=False GRADIO_TEMP_DIR="$scratch/gradio" PYTHONPATH="$PEERS_DIR" "$@" \
    > "$OUT/peer-$name.log" 2>&1 &
  PIDS+=("$!")
  if wait_http "http://127.0.0.1:$port/" "$!"; then
    timeout 600 "$PY" "$PEERS_DIR/measure_ui.py" --url "http://127.0.0.1:$port/" --adapter gradio \
      --loads "$LOADS" --iterations "$ITER" --out "$OUT/harness_$name.json" | tee "$OUT/harness_$name.txt"
  fi
  stop_all
  rm -rf "$scratch"
}

if [ "$PEERS" != none ] && [ -x "$PEERS_VENV/bin/python" ] && [ -f "$PEERS_DIR/gradio_lab.py" ]; then
  P3=$(free_port)
  step "4. peer: Gradio, queue=False, on 127.0.0.1:$P3"
  measure_peer gradio_noqueue "$P3" GRADIO_LAB_PORT="$P3" GRADIO_LAB_QUEUE=0 "$PEERS_VENV/bin/python" \
    "$PEERS_DIR/gradio_lab.py"
  if [ "$PEERS" = all ]; then
    P4=$(free_port)
    step "4. peer: Gradio, defaults (queue on), on 127.0.0.1:$P4"
    measure_peer gradio "$P4" GRADIO_LAB_PORT="$P4" "$PEERS_VENV/bin/python" "$PEERS_DIR/gradio_lab.py"
  fi
elif [ "$PEERS" != none ]; then
  echo "no peers venv at $PEERS_VENV (docs/performance.md says how to make one): no Gradio figures"
fi

locust_class() {  # locust_class LABEL HOST [HOST2]: the class on the host(s), then class_load.py → class_load.json
  local label=$1 hosts load
  hosts=$(IFS=,; echo "${*:2}")
  load=$(loadavg)
  timeout 300 "$PY" -m locust -f benchmarks/locustfile.py --headless -u "$LEARNERS" -r 16 -t "$CLASS" \
    --host "$2" --lab-hosts "$hosts" --csv "$OUT/class_load" --only-summary --loglevel WARNING 2>&1 \
    | tee "$OUT/class_load.txt"
  "$PY" benchmarks/class_load.py "$OUT/class_load" --users "$LEARNERS" --run-time "$CLASS" --label "$label" \
    --loadavg-at-start "$load" --json "$OUT/class_load.json" | tee -a "$OUT/class_load.txt"
}

if "$PY" -c 'import locust' 2>/dev/null; then
  P1=$(free_port)
  P2=$(free_port)
  while [ "$P2" = "$P1" ]; do P2=$(free_port); done
  step "5. a class of $LEARNERS learners, $CLASS, on the two-core host: rlhf-lab on ports $P1 and $P2"
  if start_lab "$P1" && start_lab "$P2"; then
    locust_class "two rlhf-lab processes (one per core), learners split evenly over their two ports" \
      "http://127.0.0.1:$P1" "http://127.0.0.1:$P2"
  fi
  stop_all
else
  echo "no locust in $PY's environment (pip install -e '.[bench]'): no class figures"
fi

if [ "${NGINX:-1}" = 1 ] && { command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; }; then
  step "6. deploy/test_nginx.sh: two processes behind deploy/nginx.conf: its checks, then the class through nginx"
  DURATION=${CLASS%s} CLIENTS="$LEARNERS" LOAD_JSON="$OUT/nginx_load.json" timeout 600 bash deploy/test_nginx.sh 2>&1 \
    | sed -e "s|/tmp/[A-Za-z0-9._-]*|<tmp>|g" | tee "$OUT/nginx.txt"
fi

echo "run ended $(date -u +%Y-%m-%dT%H:%MZ); load average $(loadavg)" | tee -a "$OUT/run.txt"
step "7. summary"
"$PY" benchmarks/summarize.py "$OUT" | tee "$OUT/summary.txt"
