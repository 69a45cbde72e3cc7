#!/usr/bin/env bash
# Decode benchmark of the wire layer (issue 3): builds in release mode, runs each case RUNS times in its own
# process and prints the median figures.
#   Benchmarks/decode.sh [MB]      (default 50)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-50}
runs=${RUNS:-3}
swift build -c release --product openresponses-decode-bench >&2
bin=$(swift build -c release --show-bin-path)/openresponses-decode-bench

. Benchmarks/lib.sh

echo "case      wire_MB  events    median_s  cpu_s   MB/s     added_MB  (median of $runs runs, ${mb} MB; added_MB: peak memory the decoding adds to the input held in memory)"
for mode in sse events deltas answer; do
  out=()
  for _ in $(seq "$runs"); do out+=("$("$bin" "$mode" "$mb")"); done
  line=${out[0]}
  s=$(printf '%s\n' "${out[@]}" | field seconds | median)
  cpu=$(printf '%s\n' "${out[@]}" | field cpu_s | median)
  tp=$(printf '%s\n' "${out[@]}" | field throughput_MB_s | median)
  peak=$(printf '%s\n' "${out[@]}" | field decoding_added_MB | median)
  printf '%-8s  %-7s  %-8s  %-8s  %-6s  %-7s  %s\n' "$mode" "$(echo "$line" | field wire_MB)" \
    "$(echo "$line" | field events)" "$s" "$cpu" "$tp" "$peak"
done
