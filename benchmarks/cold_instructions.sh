#!/bin/bash
# Instructions per never-seen partial, counted by valgrind's callgrind: the same count on every run of the same
# code, whatever else the machine is doing (seconds on this shared 2-core machine vary by ±6–10 % between runs),
# so a change worth 2 % shows up.  The requests are cold_cpu.py's (loadgen's `unique` pattern, seed 1), sent
# through the whole ASGI app in process; the count is (run of 200 + 600 requests − run of 200 + 100) / 500, so
# imports and start-up cancel out.  Takes ≈ 2 minutes per checkout (callgrind runs Python ≈ 50× slower).
#
#   benchmarks/cold_instructions.sh                  # this checkout
#   benchmarks/cold_instructions.sh ../other-commit  # another checkout's app (a worktree), driven by this checkout's
#                                                    # cold_cpu.py and venv
#   LANG_=zh benchmarks/cold_instructions.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tree="$(cd "${1:-$here}" && pwd)"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install -y valgrind)" >&2; exit 2; }
count() {
  # PYTHONHASHSEED fixed: str hashes (set and dict layouts) are then the same on every run
  (cd "$tree" && PYTHONPATH="$tree" PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$here/.venv/bin/python" "$here/benchmarks/cold_cpu.py" --lang "${LANG_:-en}" --run-only "$1" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
}
small=$(count 100)
large=$(count 600)
python3 -c "print(f'{\"$tree\"}: {($large - $small) / 500 / 1e6:.3f} M instructions per never-seen partial (${LANG_:-en})')"
