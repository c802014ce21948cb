#!/usr/bin/env bash
# Every performance figure in docs/performance.md, in one go (≈ 4–6 min on the 2-core box):
#   bash benchmarks/run_all.sh
#
# 1. model evaluation time (benchmarks/bench_model.py, a colleague's script; called as is)
# 2. starts our server: uvicorn on a free 127.0.0.1 port, 1 worker, --no-access-log
#    (benchmarks.timed_app:app = app.main:app + a Server-Timing header; SERVER_TIMING=0 serves app.main:app)
# 3. (c) browser update latency, HTTP cache off: with app.js fetching ahead (as shipped), then the cold path
# 4. (d) first load: requests, bytes as transferred, render-blocking resources
# 5. the peers' harness (/work/shared/peers/measure_ui.py) on our page with benchmarks/peer_adapter.json
# 6. (b) server latency + throughput: 1 client walking the rollouts ladder, 32 clients walking it, 32 clients
#    sending only never-seen states (pattern "unique", the cold figure), GET /healthz floor at 32 clients;
#    load generator benchmarks/loadgen.py (raw asyncio streams); and the in-process render time
# 7. stops the server by PID; then the same harness on the Gradio peer (queue=False), back to back, if a
#    peers venv exists (PEERS_VENV, default /tmp/peers-venv; see docs/performance.md for its setup)
# 8. benchmarks/summarize.py → $OUT/summary.txt and $OUT/summary.json
#
# Environment knobs:  OUT=benchmarks/results  QUICK=1 (shorter runs)  PEERS=none|gradio|all
#   PEERS_VENV=/tmp/peers-venv  UVICORN_ARGS="--http httptools --loop uvloop"  SERVER_TIMING=0|1
#   LOADGEN=raw|httpx (bench_server.py's --client; httpx is the old, CPU-hungry generator)
# Everything is bounded: each wait has a timeout, each benchmark has a fixed size, servers are killed by PID.
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PY:-$ROOT/.venv/bin/python}
OUT=${OUT:-benchmarks/results}
PEERS=${PEERS:-gradio}
PEERS_DIR=${PEERS_DIR:-/work/shared/peers}
PEERS_VENV=${PEERS_VENV:-/tmp/peers-venv}
UVICORN_ARGS=${UVICORN_ARGS:-}
LOADGEN=${LOADGEN:-raw}
APP=benchmarks.timed_app:app
[ "${SERVER_TIMING:-1}" = 0 ] && APP=app.main:app
if [ "${QUICK:-0}" = 1 ]; then MOVES=50 LOADS=3 DURATION=4 ITER=30 MODEL_ARGS=--quick
else MOVES=60 LOADS=5 DURATION=8 ITER=50 MODEL_ARGS=""; fi
mkdir -p "$OUT"

PID=""
stop() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill "$PID"
    for _ in $(seq 1 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$PID" 2>/dev/null && kill -9 "$PID"
  fi
  PID=""
}
trap stop EXIT

free_port() {
  "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_http() {  # bounded: 60 s
  for _ in $(seq 1 120); do
    curl -fs -o /dev/null "$1" && return 0
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.5
  done
  echo "server at $1 did not come up" >&2
  return 1
}

step() { echo; echo "== $*"; }

step "model evaluation (benchmarks/bench_model.py)"
# shellcheck disable=SC2086
timeout 600 "$PY" benchmarks/bench_model.py $MODEL_ARGS --json "$OUT/model.json" | tee "$OUT/model.txt"

PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
step "our server: uvicorn $APP on $BASE, 1 worker $UVICORN_ARGS"
# shellcheck disable=SC2086
"$PY" -m uvicorn "$APP" --host 127.0.0.1 --port "$PORT" --workers 1 --no-access-log $UVICORN_ARGS \
  > "$OUT/server.log" 2>&1 &
PID=$!
if wait_http "$BASE/healthz"; then
  curl -fs -o /dev/null "$BASE/en/"  # first request: template compilation etc. is not measured
  step "(c) browser update latency, HTTP cache off"
  timeout 600 "$PY" benchmarks/bench_browser.py --url "$BASE/en/" --moves "$MOVES" --json "$OUT/browser.json" \
    --screenshot "$OUT/browser.png" | tee "$OUT/browser.txt"
  step "(c') browser update latency, the cold path: no fetch-ahead, every move an htmx round trip"
  timeout 600 "$PY" benchmarks/bench_browser.py --url "$BASE/en/" --moves "$MOVES" --tweak no-ahead \
    --json "$OUT/browser_no_ahead.json" | tee "$OUT/browser_no_ahead.txt"
  step "(d) first load"
  timeout 600 "$PY" benchmarks/bench_first_load.py --url "$BASE/en/" --loads "$LOADS" --json "$OUT/first_load.json" \
    | tee "$OUT/first_load.txt"
  if [ -f "$PEERS_DIR/measure_ui.py" ]; then
    step "peers' harness on our page (benchmarks/peer_adapter.json)"
    timeout 600 "$PY" "$PEERS_DIR/measure_ui.py" --url "$BASE/en/" --adapter-file benchmarks/peer_adapter.json \
      --loads "$LOADS" --iterations "$ITER" --out "$OUT/harness_ours.json" | tee "$OUT/harness_ours.txt"
  fi
  step "(b) server: in-process render time, then HTTP latency/throughput: 1 client walk, 32 clients walk, class, unique"
  timeout 600 "$PY" benchmarks/bench_server.py --url "$BASE" --concurrency 1:walk,32 --pattern walk,class,unique \
    --client "$LOADGEN" --duration "$DURATION" --floor --server-pid "$PID" --json "$OUT/server.json" \
    | tee "$OUT/server.txt"
fi
stop

measure_peer() {  # name port env-assignments... command... : served from $PEERS_VENV, measured with our Playwright
  local name=$1 port=$2; shift 2
  mkdir -p /tmp/peers-run
  # env -C: run in a scratch dir (the peers' folder is read-only; Gradio writes .gradio/ there); env execs the
  # server, so $! is the server's own PID
  env -C /tmp/peers-run GRADIO_ANALYTICS_ENABLED=False GRADIO_TEMP_DIR=/tmp/peers-run/gradio \
    PYTHONPATH="$PEERS_DIR" "$@" > "$OUT/${name}_server.log" 2>&1 &
  PID=$!
  if wait_http "http://127.0.0.1:$port/"; then
    timeout 600 "$PY" "$PEERS_DIR/measure_ui.py" --url "http://127.0.0.1:$port/" --adapter gradio \
      --loads "$LOADS" --iterations "$ITER" --out "$OUT/harness_$name.json" | tee "$OUT/harness_$name.txt"
  fi
  stop
}

if [ "$PEERS" != none ] && [ -x "$PEERS_VENV/bin/python" ] && [ -f "$PEERS_DIR/gradio_lab.py" ]; then
  P2=$(free_port)
  step "peer: Gradio, queue=False, on 127.0.0.1:$P2"
  measure_peer gradio_noqueue "$P2" GRADIO_LAB_PORT="$P2" GRADIO_LAB_QUEUE=0 "$PEERS_VENV/bin/python" \
    "$PEERS_DIR/gradio_lab.py"
  if [ "$PEERS" = all ]; then
    P3=$(free_port)
    step "peer: Gradio, defaults (queue on), on 127.0.0.1:$P3"
    measure_peer gradio "$P3" GRADIO_LAB_PORT="$P3" "$PEERS_VENV/bin/python" "$PEERS_DIR/gradio_lab.py"
  fi
elif [ "$PEERS" != none ]; then
  echo "no peers venv at $PEERS_VENV (see docs/performance.md); peer figures: the peers' recorded results"
fi

step "summary"
"$PY" benchmarks/summarize.py "$OUT" | tee "$OUT/summary.txt"
