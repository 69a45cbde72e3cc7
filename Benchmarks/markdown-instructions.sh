#!/usr/bin/env bash
# The Markdown renderer's work counted in instructions (valgrind's callgrind), for comparing two builds on
# a shared machine where wall-clock figures move by half from hour to hour: for each corpus, the
# instructions (millions) of rendering MB megabytes in 16 KB pieces (CASE=deltas: token-sized deltas),
# less those of building the input alone. Each BIN is an openresponses-markdown-bench binary (keep a
# copy of one build to compare with the next); valgrind reads a copy stripped of debug information.
#   Benchmarks/markdown-instructions.sh BIN...        (MB=2, CASE=reads by default)
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "markdown-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ $# -ge 1 ] || { echo "usage: Benchmarks/markdown-instructions.sh BIN..." >&2; exit 2; }
mb=${MB:-2}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
echo "corpus    case    MB  $(for bin in "$@"; do printf '%-14s' "$(basename "$bin")"; done)  (millions of instructions)"
for corpus in fixtures docs; do
  if [ "$corpus" = fixtures ]; then files=(Tests/Fixtures/markdown/*.md); else files=(Docs/*.md README.md); fi
  line=$(printf '%-8s  %-6s  %-2s' "$corpus" "${CASE:-reads}" "$mb")
  for bin in "$@"; do
    copy="$scratch/$(basename "$bin").$RANDOM"
    strip -g -o "$copy" "$bin"
    total=$(MARKDOWN_BENCH_CASE=${CASE:-reads} count "$copy" "$mb" "${files[@]}")
    setup=$(MARKDOWN_BENCH_CASE=none count "$copy" "$mb" "${files[@]}")
    line="$line  $(printf '%-12s' "$(( (total - setup) / 1000000 ))")"
  done
  echo "$line"
done
