#!/usr/bin/env bash
# `inspect cache` over a day of a team's traffic (issue 48): 10,000 exchanges in 200 conversations of 50 turns,
# half chained, half stateless (bodies up to about 50 KB), some with a timestamp in their instructions
# (openresponses-inspector-bench fill-cache). Times the whole command, process start included, and its peak memory.
#   Benchmarks/cache.sh [N] [RUNS]     (default 10000 exchanges, 5 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
runs=${2:-5}
# The binary as the README installs it (scripts/build-release.sh); the filler with the same flags.
ours=$(./scripts/build-release.sh)
filler=$(./scripts/build-release.sh openresponses-inspector-bench)
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
"$filler" fill-cache "$home/inspector.sqlite" "$count"
OPENRESPONSES_HOME="$home" "$ours" inspect cache --since 2020-01-01 | tail -1
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  OPENRESPONSES_HOME="$home" "$ours" inspect cache --since 2020-01-01 --json >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
peak=$( { OPENRESPONSES_HOME="$home" /usr/bin/time -f '%M' "$ours" inspect cache --since 2020-01-01 \
  --json >/dev/null; } 2>&1 | tail -1)
printf 'inspect cache over %s exchanges: median %s ms of %s (process start included); peak RSS %s MB\n' \
  "$count" "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" "${times[*]}" \
  "$(( peak / 1024 ))"
