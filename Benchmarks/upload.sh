#!/usr/bin/env bash
# Upload throughput and peak memory (issue 6): `openresponses files upload` of a large file to a loopback
# sink that reads and discards (Benchmarks/upload-sink.py). 1 GB goes through the Uploads API in 64 MB
# parts; every part is streamed from disk. Release build.
#   Benchmarks/upload.sh [MB] [RUNS]     (default 1024 MB, 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-1024}
runs=${2:-3}
swift build -c release --product openresponses >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'kill $sink 2>/dev/null || true; rm -rf "$work"' EXIT
head -c $((mb * 1024 * 1024)) /dev/urandom > "$work/big.bin"
python3 Benchmarks/upload-sink.py "$work/port" & sink=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
echo "== files upload of ${mb} MB to a loopback sink (${runs} runs)"
for run in $(seq "$runs"); do
  start=$(date +%s%N)
  OPENRESPONSES_HOME="$work/home" OPENAI_BASE_URL="http://127.0.0.1:$port/v1" OPENAI_API_KEY=sk-bench \
    /usr/bin/time -f "%M" -o "$work/rss" "$bin/openresponses" files upload "$work/big.bin" >/dev/null
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  rss_kb=$(tail -1 "$work/rss")
  awk -v mb="$mb" -v ms="$ms" -v rss="$rss_kb" -v run="$run" \
    'BEGIN { printf "run %d: %.0f MB/s (%.2f s), peak RSS %.1f MB\n", run, mb / (ms / 1000), ms / 1000, rss / 1024 }'
done
