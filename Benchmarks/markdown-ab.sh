#!/usr/bin/env bash
# Two or more builds of the Markdown renderer's benchmark timed side by side: ROUNDS rounds, each running every
# BIN once on each corpus (20 MB, 16 KB pieces unless CASE=deltas), so a shared machine's changes of speed fall on
# all builds alike. Prints each build's median, slowest and fastest MB/s. Keep a copy of a build's
# openresponses-markdown-bench to compare it with the next.
#   Benchmarks/markdown-ab.sh ROUNDS BIN...
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: Benchmarks/markdown-ab.sh ROUNDS BIN..." >&2; exit 2; }
rounds=$1
shift
for corpus in fixtures docs; do
  if [ "$corpus" = fixtures ]; then files=(Tests/Fixtures/markdown/*.md); else files=(Docs/*.md README.md); fi
  declare -A figures=()
  for _ in $(seq "$rounds"); do
    for bin in "$@"; do
      figures[$bin]+="$(MARKDOWN_BENCH_CASE=${CASE:-reads} "$bin" 20 "${files[@]}" | sed -n 's/.*throughput_MB_s=\([0-9.]*\).*/\1/p') "
    done
  done
  for bin in "$@"; do
    echo "$corpus  ${CASE:-reads}  $(basename "$bin"): $(echo ${figures[$bin]} | tr ' ' '\n' | sort -n |
      awk '{a[NR]=$1} END {print "median", a[int((NR+1)/2)], "MB/s, slowest", a[1], "fastest", a[NR]}')"
  done
  unset figures
done
