#!/usr/bin/env bash
# The inspector's cost (issue 7): consuming a large stream with the inspector on and off, and
# `inspect list --search` over a store of 100,000 generated exchanges, and `inspect report` over 10,000 (generated
# exchanges have no events: a recorded one's waterfall costs more). Release build.
#   Benchmarks/inspector.sh [MB] [RUNS]     (default 50 MB, 5 runs each)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-50}
runs=${2:-5}
swift build -c release --product openresponses-inspector-bench >&2
swift build -c release --product openresponses >&2
bin=$(swift build -c release --show-bin-path)

echo "== stream with the inspector off and on (${mb} MB, median of ${runs})"
"$bin/openresponses-inspector-bench" stream "$mb" "$runs"

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
echo "== inspect list --search over 100,000 exchanges"
"$bin/openresponses-inspector-bench" fill "$home/inspector.sqlite" 100000
"$bin/openresponses-inspector-bench" search "$home/inspector.sqlite" sourdough facts
times=()
for _ in 1 2 3 4 5 6 7; do
  start=$(date +%s%N)
  OPENRESPONSES_HOME="$home" "$bin/openresponses" inspect list --search "sourdough facts" --limit 50 >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
printf 'whole command (process start included): median %s ms of %s\n' \
  "$(printf '%s\n' "${times[@]}" | sort -n | sed -n 4p)" "${times[*]}"

echo "== inspect report over 10,000 exchanges (median of 3, process start included)"
report_home=$(mktemp -d)
"$bin/openresponses-inspector-bench" fill "$report_home/inspector.sqlite" 10000 >/dev/null
times=()
for _ in 1 2 3; do
  start=$(date +%s%N)
  OPENRESPONSES_HOME="$report_home" "$bin/openresponses" inspect report -o "$report_home/report.html" >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
printf 'report: median %s ms of %s, %s bytes\n' "$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)" "${times[*]}" \
  "$(stat -c %s "$report_home/report.html")"
rm -rf "$report_home"

