#!/usr/bin/env bash
# Throughput on never-seen states, two checkouts A and B, over HTTP: both servers up (one uvicorn worker each,
# free 127.0.0.1 ports), loaded in turn with 32 clients of loadgen's `unique` pattern for ROUNDS short runs each,
# so slow and fast moments of a shared machine fall on both.  Prints responses per server-CPU-second per run.
#
#   bash benchmarks/ab_unique.sh /path/to/checkout-A /path/to/checkout-B
#   ROUNDS=6 DURATION=6 PATTERN=class bash benchmarks/ab_unique.sh A B
#
# A checkout is any directory with this project's app/ (e.g. `git worktree add /tmp/a <commit>`); both are served
# by this checkout's .venv with PYTHONPATH pointing at them.  Everything is bounded; servers are killed by PID.
set -u
[ $# -eq 2 ] || { echo "usage: $0 CHECKOUT_A CHECKOUT_B" >&2; exit 2; }
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=$ROOT/.venv/bin/python
ROUNDS=${ROUNDS:-4}
DURATION=${DURATION:-4}
PATTERN=${PATTERN:-unique}
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done' EXIT

free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

start() {  # checkout port -> PID
  (cd "$1" && PYTHONPATH="$1" exec "$ROOT/.venv/bin/uvicorn" app.main:app --host 127.0.0.1 --port "$2" \
     --no-access-log --log-level warning) > /dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 120); do
    curl -fs -o /dev/null "http://127.0.0.1:$2/healthz" && { echo "$pid"; return 0; }
    sleep 0.25
  done
  echo "server for $1 did not come up" >&2
  return 1
}

PORT_A=$(free_port); PID_A=$(start "$1" "$PORT_A") || exit 1; PIDS+=("$PID_A")
PORT_B=$(free_port); PID_B=$(start "$2" "$PORT_B") || exit 1; PIDS+=("$PID_B")
for round in $(seq 1 "$ROUNDS"); do
  for side in A B; do
    if [ $side = A ]; then port=$PORT_A pid=$PID_A; else port=$PORT_B pid=$PID_B; fi
    rate=$(timeout 120 "$PY" benchmarks/bench_server.py --url "http://127.0.0.1:$port" --concurrency 32 \
      --pattern "$PATTERN" --seed "$round" --duration "$DURATION" --warmup 1 --server-pid "$pid" --no-inprocess \
      2>&1 | grep -o "[0-9.]* resp/server-CPU-s")
    echo "round $round  $side  ${rate:-failed}"
  done
done
