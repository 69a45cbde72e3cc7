#!/usr/bin/env bash
# Markdown renderer benchmark (issue 18): builds in release mode and feeds the test corpus of answers
# (Tests/Fixtures/markdown, repeated to MB) through the streaming renderer in token-sized deltas and in
# 16 KB reads; prints the median MB/s of RUNS runs (target: at least 50 MB/s).
#   Benchmarks/markdown.sh [MB]      (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-20}
runs=${RUNS:-3}
swift build -c release --product openresponses-markdown-bench >&2
bin=$(swift build -c release --show-bin-path)/openresponses-markdown-bench

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }

out=()
for _ in $(seq "$runs"); do out+=("$("$bin" "$mb" Tests/Fixtures/markdown/*.md)"); done
echo "case     input_MB  pieces     median_s  MB/s    (median of $runs runs, width 100, colours on)"
for mode in deltas reads; do
  lines=$(printf '%s\n' "${out[@]}" | grep "case=$mode ")
  printf '%-7s  %-8s  %-9s  %-8s  %s\n' "$mode" "$(echo "$lines" | head -1 | field input_MB)" \
    "$(echo "$lines" | head -1 | field pieces)" "$(echo "$lines" | field seconds | median)" \
    "$(echo "$lines" | field throughput_MB_s | median)"
done
