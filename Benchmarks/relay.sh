#!/usr/bin/env bash
# How far a relay that copies the bytes through user space can go on this machine (issue 20's 80 % target):
# curl against the loopback server directly and through Benchmarks/relay.c (a plain C relay: poll, read, write;
# nothing recorded), with 16 KB, 64 KB (what NIO reads at most by default) and 1 MB buffers, for a 50 MB answer
# in small deltas and in the API's shape. The direct and relayed runs alternate; medians of RUNS.
#   Benchmarks/relay.sh [RUNS]     (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
swift build -c release --product openresponses-loopback >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
cleanup() { kill "$server" "${relay:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cc -O2 -o "$work/relay" Benchmarks/relay.c
"$bin/openresponses-loopback" "$work/port" 50 & server=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
total() {
  curl -sN -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$1/v1/responses" -H 'Authorization: Bearer x' \
    -H 'Content-Type: application/json' -H 'Connection: close' -d "{\"model\":\"m\",\"input\":\"$2\",\"stream\":true}"
}
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
relay_port=$((port + 1))
for buffer in 16384 65536 1048576; do
  "$work/relay" "$relay_port" "$port" "$buffer" & relay=$!
  sleep 0.2
  for shape in large api; do
    : > "$work/direct"; : > "$work/relayed"
    for _ in $(seq "$runs"); do
      total "$port" "$shape" >> "$work/direct"
      total "$relay_port" "$shape" >> "$work/relayed"
    done
    d=$(median "$work/direct"); r=$(median "$work/relayed")
    awk -v b="$buffer" -v s="$shape" -v d="$d" -v r="$r" \
      'BEGIN { printf "%-5s %7d-byte buffer: direct %.3f s, relayed %.3f s: %.0f %% of direct\n", s, b, d, r, 100 * d / r }'
  done
  kill "$relay"; wait "$relay" 2>/dev/null || true; relay=
done
