#!/usr/bin/env bash
# Fuzzes the hand-written parsers every byte from the network goes through, with libFuzzer and the
# address sanitizer (swiftc -sanitize=fuzzer,address), seeded from ../shared/conformance when present
# and from Tests/Fixtures:
#   sse   the SSE decoder: whole, chunked and byte-by-byte feeding must agree; events decode alike on
#         the delta fast path and the general path (scripts/fuzz/SSEDecoderTarget.swift)
#   json  the JSON parser: parse, serialise, parse again gives the same value (scripts/fuzz/JSONParserTarget.swift)
#   markup the library's Markdown and HTML extraction and its chunker: segments in place, chunks exactly their
#         slice of the text (scripts/fuzz/MarkupTarget.swift)
#   terminal the terminal cleaner: no ESC, CSI, OSC, C1, bidi override or lone CR survives it, and clean text
#         is kept (scripts/fuzz/TerminalTextTarget.swift; Docs/security.md)
# Usage: scripts/fuzz.sh [sse|json|markup|terminal|all] [SECONDS per target, default 60]
# Prints, per target, the executions run and the findings; a crashing input is kept under
# .build-fuzz/crashes-TARGET/ (turn it into a regression test). Exits non-zero when a target found one.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
seconds=${2:-60}
case "$which" in sse|json|markup|terminal) targets=("$which") ;; all) targets=(sse json markup terminal) ;;
  *) echo "usage: scripts/fuzz.sh [sse|json|markup|terminal|all] [SECONDS]" >&2; exit 2 ;; esac
work=.build-fuzz
mkdir -p "$work"
conformance=../shared/conformance
# ResponsesAPI's wire-format sources: everything but the network client and its transport.
sources=()
for file in Sources/ResponsesAPI/*.swift; do
  case "$(basename "$file")" in ResponsesClient*|PageRequest.swift|LocalFile.swift|FileChunks.swift|RetryPolicy.swift|Configuration.swift) continue ;; esac
  grep -qE '^import (AsyncHTTPClient|NIO|Logging)' "$file" || sources+=("$file")
done

seed() {  # seed TARGET DIR: the seed corpus
  local target=$1 dir=$2
  rm -rf "$dir"; mkdir -p "$dir"
  local sse=(Tests/Fixtures/*.sse)
  [ -d "$conformance/sse" ] && sse+=("$conformance"/sse/*.sse)
  if [ "$target" = terminal ]; then
    for file in Docs/*.md; do head -c 2048 "$file" > "$dir/$(basename "$file")"; done
    printf '\033]52;c;cHduZWQ=\007\033[2J\302\23331m\rX\033[2K \342\200\256 ok\r\n' > "$dir/attack.txt"
    for file in "${sse[@]}"; do head -c 2048 "$file" > "$dir/$(basename "$file")"; done
  elif [ "$target" = markup ]; then
    for file in Docs/*.md README.md; do head -c 4096 "$file" > "$dir/$(basename "$file")"; done
    printf '<html><head><title>T</title><style>x</style></head><body><h1>A &amp; B</h1><p>x<br>y</p><h2>C</h2><table><tr><td>1</td></tr></table></body></html>' > "$dir/page.html"
  elif [ "$target" = sse ]; then
    for file in "${sse[@]}"; do
      # Long recordings are cut to their first 8 KB: libFuzzer mutates short inputs far faster.
      head -c 8192 "$file" > "$dir/$(basename "$file")"
    done
  else
    local n=0
    for file in "${sse[@]}"; do
      while IFS= read -r line; do
        n=$((n + 1)); printf '%s' "${line#data: }" > "$dir/event-$n.json"
      done < <(grep '^data: {' "$file" | awk 'length($0) < 20000' | head -40)
    done
    if [ -d "$conformance/json" ]; then
      for file in "$conformance"/json/*.json; do
        [ "$(stat -c %s "$file")" -lt 65536 ] && cp "$file" "$dir/"
      done
    fi
    cp Tests/Fixtures/*.json "$dir/"
  fi
}

status=0
for target in "${targets[@]}"; do
  case "$target" in
    sse) harness=scripts/fuzz/SSEDecoderTarget.swift; max_len=8192 ;;
    json) harness=scripts/fuzz/JSONParserTarget.swift; max_len=65536 ;;
    markup) harness=scripts/fuzz/MarkupTarget.swift; max_len=8192 ;;
    terminal) harness=scripts/fuzz/TerminalTextTarget.swift; max_len=4096 ;;
  esac
  target_sources=("${sources[@]}")
  if [ "$target" = terminal ]; then
    target_sources=(Sources/Untrusted/TerminalText.swift Sources/Untrusted/TerminalText+Cleaning.swift Sources/Untrusted/TerminalText+SingleLine.swift)
  elif [ "$target" = markup ]; then
    target_sources=(Sources/Library/ExtractedDocument.swift Sources/Library/LibraryError.swift Sources/Library/TextExtractor.swift
      Sources/Library/HTMLExtractor.swift Sources/Library/Chunker.swift Sources/Library/Chunker+Bridge.swift)
  fi
  binary="$work/fuzz-$target"
  if [ ! -x "$binary" ] || [ -n "$(find "${target_sources[@]}" "$harness" -newer "$binary" 2>/dev/null)" ]; then
    echo "fuzz: building $target" >&2
    swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -module-name Fuzz \
      "${target_sources[@]}" "$harness" -o "$binary" 2>&1 | grep -v 'Cannot export local symbol' >&2 || true
  fi
  seed "$target" "$work/seeds-$target"
  mkdir -p "$work/corpus-$target" "$work/crashes-$target"
  log="$work/fuzz-$target.log"
  set +e
  "$binary" "$work/corpus-$target" "$work/seeds-$target" -max_total_time="$seconds" -print_final_stats=1 \
    -rss_limit_mb=4096 -max_len="$max_len" -timeout=20 -artifact_prefix="$work/crashes-$target/" >"$log" 2>&1
  code=$?
  set -e
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  ran=$(( ${executions:-0} / (${rate:-1} > 0 ? ${rate:-1} : 1) ))
  findings=$(find "$work/crashes-$target" -type f | wc -l)
  echo "fuzz: $target: ${executions:-?} executions in about ${ran} s (of ${seconds} s asked; a finding stops the run), exit $code, $findings finding(s) in $work/crashes-$target/ (log: $log)"
  if [ "$code" -ne 0 ] || [ "$findings" -gt 0 ]; then status=1; fi
done
exit $status
