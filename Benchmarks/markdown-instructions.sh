#!/usr/bin/env bash
# The Markdown renderer's work counted in instructions (valgrind's callgrind), for comparing two builds on
# a shared machine where wall-clock figures move by half from hour to hour: for each corpus, the
# instructions (millions) of rendering MB megabytes in 16 KB pieces (CASE=deltas: token-sized deltas),
# counted inside the benchmark's timed loop only (its render function). Before 2026-11-29 the script
# counted the whole run less a run that only built the corpus, which left in the cutting of the input
# into pieces and the freeing of them (about 40 M of a megabyte's token-sized deltas, untimed); a build
# whose binary has no such function is still counted that way. Each BIN is an
# openresponses-markdown-bench binary (keep a copy of one build to compare with the next); valgrind
# reads a copy stripped of debug information.
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
timed() { count --toggle-collect='*openresponses_markdown_bench6render*' "$@"; }
echo "corpus    case    MB  $(for bin in "$@"; do printf '%-14s' "$(basename "$bin")"; done)  (millions of instructions; * the old way)"
for corpus in fixtures docs; do
  if [ "$corpus" = fixtures ]; then files=(Tests/Fixtures/markdown/*.md); else files=(Docs/*.md README.md); fi
  line=$(printf '%-8s  %-6s  %-2s' "$corpus" "${CASE:-reads}" "$mb")
  for bin in "$@"; do
    copy="$scratch/$(basename "$bin").$RANDOM"
    strip -g -o "$copy" "$bin"
    inside=$(MARKDOWN_BENCH_CASE=${CASE:-reads} timed "$copy" "$mb" "${files[@]}")
    if [ "${inside:-0}" -gt 0 ]; then
      line="$line  $(printf '%-12s' "$(( inside / 1000000 ))")"
    else
      total=$(MARKDOWN_BENCH_CASE=${CASE:-reads} count "$copy" "$mb" "${files[@]}")
      setup=$(MARKDOWN_BENCH_CASE=none count "$copy" "$mb" "${files[@]}")
      line="$line  $(printf '%-12s' "$(( (total - setup) / 1000000 ))*")"
    fi
  done
  echo "$line"
done
