#!/usr/bin/env bash
# Markdown renderer benchmark (issue 18): builds in release mode and feeds two corpora through the
# streaming renderer, each repeated to MB: the test corpus (Tests/Fixtures/markdown: every construct, dense
# with tables and code blocks in thirteen languages) and this project's own documentation (Docs/*.md and
# README.md: prose, lists, some tables and code, as answers mostly are). Each in token-sized deltas (the
# unfinished line settled every 8, as the console does once per network read) and in 16 KB pieces.
# Prints the median MB/s of RUNS runs (target: at least 50 MB/s), and under it each run's MB/s in the order
# run, the slowest first in brackets. The binary alone: MARKDOWN_BENCH_CASE=deltas|reads
# runs one case, MARKDOWN_BENCH_OUT=PATH keeps the output (PATH.deltas, PATH.reads) to compare builds byte for byte;
# Benchmarks/markdown-instructions.sh counts instructions instead of time.
#   Benchmarks/markdown.sh [MB]      (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-20}
runs=${RUNS:-3}
swift build -c release --product openresponses-markdown-bench >&2
bin=$(swift build -c release --show-bin-path)/openresponses-markdown-bench

. Benchmarks/lib.sh

echo "corpus    case     input_MB  pieces     median_s  MB/s    (median of $runs runs, width 100, colours on)"
for corpus in fixtures docs; do
  if [ "$corpus" = fixtures ]; then files=(Tests/Fixtures/markdown/*.md); else files=(Docs/*.md README.md); fi
  out=()
  for _ in $(seq "$runs"); do out+=("$("$bin" "$mb" "${files[@]}")"); done
  for mode in deltas reads; do
    lines=$(printf '%s\n' "${out[@]}" | grep "case=$mode ")
    printf '%-8s  %-7s  %-8s  %-9s  %-8s  %s\n' "$corpus" "$mode" "$(echo "$lines" | head -1 | field input_MB)" \
      "$(echo "$lines" | head -1 | field pieces)" "$(echo "$lines" | field seconds | median)" \
      "$(echo "$lines" | field throughput_MB_s | median)"
    figures=$(echo "$lines" | field throughput_MB_s)
    echo "          runs: [$(echo "$figures" | sort -n | head -1)] $(echo $figures)"
  done
done
