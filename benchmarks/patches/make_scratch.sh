#!/usr/bin/env bash
# Scratch copies of the app for A/B measurements (app/ in the repo is never touched):
#   $DEST/base            = `git archive $REF` + this checkout's benchmarks/ folder
#   $DEST/<patch name>    = base + one patch from benchmarks/patches/
#   $DEST/all             = base + patches 01–06 (07 is a size/CPU trade-off, 08 a dependency: measured apart)
#
#   bash benchmarks/patches/make_scratch.sh               # REF=HEAD DEST=/tmp/lab-scratch
#   .venv/bin/python benchmarks/ab.py --mode inprocess base=/tmp/lab-scratch/base all=/tmp/lab-scratch/all
#   (cd /tmp/lab-scratch/all && <main checkout>/.venv/bin/python benchmarks/output_digest.py ...)
#
# The patches were written against commit e18029f; a patch that no longer applies is reported and skipped.
set -eu
cd "$(dirname "$0")/../.."
REF=${REF:-HEAD}
DEST=${DEST:-/tmp/lab-scratch}
case "$DEST" in /tmp/*) ;; *) echo "DEST must be under /tmp" >&2; exit 2 ;; esac
rm -rf "$DEST/base"
mkdir -p "$DEST/base"
git archive "$REF" | tar -x -C "$DEST/base"
rm -rf "$DEST/base/benchmarks"
cp -r benchmarks "$DEST/base/benchmarks"
rm -rf "$DEST/base/benchmarks/results"
echo "base: $(git rev-parse --short "$REF") → $DEST/base"

apply() {  # dir patch...
  local dir=$1; shift
  for p in "$@"; do
    if ! (cd "$dir" && git apply "$OLDPWD/$p"); then
      echo "  $(basename "$p") does not apply to $REF: skipped" >&2
      return 1
    fi
  done
}

for p in benchmarks/patches/*.patch; do
  name=$(basename "$p" .patch)
  rm -rf "${DEST:?}/$name"
  cp -r "$DEST/base" "$DEST/$name"
  apply "$DEST/$name" "$p" && echo "$name → $DEST/$name"
done
rm -rf "$DEST/all"
cp -r "$DEST/base" "$DEST/all"
apply "$DEST/all" benchmarks/patches/0[1-6]-*.patch && echo "all (01–06) → $DEST/all"
