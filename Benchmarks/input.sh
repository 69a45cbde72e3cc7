#!/usr/bin/env bash
# Issue 49's guarded input: peak memory (max RSS) and wall time of `ask` with what users pipe into it, on the
# release build as installed (scripts/build-release.sh), against the project's loopback server with the
# inspector on. Shapes: a tiny prompt (the baseline), 3 MB of random bytes (refused as binary), MB megabytes of
# text refused over the limit, and the same sent with --allow-large-input (the target: at most twice the input
# plus the baseline).
#   Benchmarks/input.sh [MB]        (default 40)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-40}
binary=$(./scripts/build-release.sh)
swift build --product openresponses-loopback >&2
loopback=$(swift build --show-bin-path)/openresponses-loopback
work=$(mktemp -d)
cleanup() { kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$loopback" "$work/port" 1 & server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")/v1"
head -c 3000000 /dev/urandom > "$work/random.bin"
head -c $((mb * 1000000)) /dev/zero | tr '\0' 'a' > "$work/text.txt"
printf 'hello\n' > "$work/tiny.txt"

# run LABEL FILE ARGS...: the peak RSS (KB) and the wall time of one ask with FILE on stdin, in a fresh home.
run() {
  local label=$1 file=$2; shift 2
  local home="$work/home-$label"
  mkdir -p "$home"
  env -i PATH=/usr/bin:/bin OPENAI_BASE_URL="$url" OPENAI_API_KEY=sk-bench OPENRESPONSES_HOME="$home" HOME="$home" \
    /usr/bin/time -f "%M %e" -o "$work/time" "$binary" ask "$@" "what is this" < "$file" >/dev/null 2>"$work/err" || true
  read -r kb seconds < <(tail -1 "$work/time")
  printf '%-28s %8.1f MB peak  %6.2f s  %s\n' "$label" "$(echo "$kb / 1024" | bc -l)" "$seconds" \
    "$(grep -o 'error: [^:]*: [^,(]*' "$work/err" | head -1)"
  echo "$kb"> "$work/$label.kb"
}
run tiny "$work/tiny.txt"
run random-3MB "$work/random.bin"
run "text-${mb}MB-refused" "$work/text.txt"
run "text-${mb}MB-allowed" "$work/text.txt" --allow-large-input
base=$(cat "$work/tiny.kb")
allowed=$(cat "$work/text-${mb}MB-allowed.kb")
refused=$(cat "$work/text-${mb}MB-refused.kb")
input_kb=$((mb * 1000000 / 1024))
echo "above the tiny ask: refused $(( (refused - base) / 1024 )) MB, allowed $(( (allowed - base) / 1024 )) MB," \
  "for an input of $((input_kb / 1024)) MB: $(echo "scale=2; ($allowed - $base) / $input_kb" | bc)x the input (target: at most 2x)"
