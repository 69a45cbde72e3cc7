#!/usr/bin/env bash
# The library's figures, release build: extraction throughput per type (text MB/s, PDF pages/s, DOCX MB/s),
# chunking MB/s, adding 1,000 text files of 5 KB, search latency in-process at 1k, 10k and 100k chunks, and the
# whole `library search` command (median and p95 of RUNS runs) at 100k chunks.
#   Benchmarks/library.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product openresponses-library-bench >&2
swift build -c release --product openresponses >&2
bin=$(swift build -c release --show-bin-path)
"$bin/openresponses-library-bench" "$work"
home="$work/library-bench/search-100000"
times=()
for i in $(seq 1 "$runs"); do
  start=$(date +%s%N)
  OPENRESPONSES_HOME="$home" "$bin/openresponses" library search "refund policy quarter" --k 10 >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
median=${sorted[$(( runs / 2 ))]}
p95=${sorted[$(( runs * 95 / 100 ))]}
printf '%-44s %10.2f ms\n' "library search command, 100000 chunks: median" "$(echo "$median / 1000" | bc -l)"
printf '%-44s %10.2f ms\n' "library search command, 100000 chunks: p95" "$(echo "$p95 / 1000" | bc -l)"
