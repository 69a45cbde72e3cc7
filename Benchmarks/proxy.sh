#!/usr/bin/env bash
# The recording proxy (issue 20) side by side with direct access, against the project's loopback server
# (openresponses-loopback), recording into a fresh inspector: added time to first byte for a tiny streamed
# answer (curl and the official Python SDK), the throughput of a large streamed answer in both shapes
# (small deltas; the API's, whose four final events repeat the whole text) through the proxy against
# direct, when its recording was whole (a stream faster than the recorder reaches the client first and
# waits for it in the proxy's spool), the proxy's peak memory per shape, and 4 clients × 25 concurrent
# requests all recorded.
# Medians of RUNS runs. Release build (the same static build as compare.sh).
#   Benchmarks/proxy.sh [RUNS] [MB]     (default 7 runs, 50 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
mb=${2:-50}
ours=$(./scripts/build-release.sh)
swift build -c release --product openresponses-loopback >&2
bin=$(swift build -c release --show-bin-path)
python=$(./scripts/python-sdk.sh)
work=$(mktemp -d)
proxy_pid=""
cleanup() { kill "$server" 2>/dev/null || true; [ -z "$proxy_pid" ] || kill "$proxy_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$bin/openresponses-loopback" "$work/port" "$mb" & server=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
direct="http://127.0.0.1:$(cat "$work/port")/v1"
export OPENAI_API_KEY=sk-bench-0123456789

# Starts a proxy with a fresh store in $work/$1; sets proxy_pid and via (its base URL).
start_proxy() {
  mkdir -p "$work/$1"
  OPENRESPONSES_HOME="$work/$1" OPENAI_BASE_URL="$direct" "$ours" proxy --listen 127.0.0.1:0 > "$work/$1.out" 2>&1 &
  proxy_pid=$!
  for _ in $(seq 300); do grep -q "Proxy on" "$work/$1.out" 2>/dev/null && break; sleep 0.05; done
  via=$(sed -n 's|^Proxy on \(http://[^ ]*/v1\) .*|\1|p' "$work/$1.out")
}
# Stops it (Ctrl-C: it finishes recording first) and waits until it has exited; sets peak to its peak RSS in
# MB (VmHWM, read just before). Not run in $( ): a subshell could not wait for it.
stop_proxy() {
  peak=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$proxy_pid/status")
  kill -INT "$proxy_pid"
  while kill -0 "$proxy_pid" 2>/dev/null; do sleep 0.05; done
  proxy_pid=""
}
# The proxy's exchanges in store $1, counted by state ("5 completed").
states() {
  OPENRESPONSES_HOME="$1" "$ours" inspect list --source proxy --limit 1000 --json | grep -o '"state": "[a-z_]*"' | cut -d'"' -f4 \
    | sort | uniq -c | awk '{ printf "%s%d %s", (NR > 1 ? ", " : ""), $1, $2 }'
}
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
request() { # base input
  curl -sN "$1/responses" -H "Authorization: Bearer $OPENAI_API_KEY" -H 'Content-Type: application/json' \
    -d "{\"model\":\"bench-model\",\"input\":\"$2\",\"stream\":true}"
}

start_proxy tiny
echo "== tiny streamed answer: time to first byte (curl, median of $((runs * 5)) ms) and whole call (Python SDK, median of $runs ms)"
: > "$work/ttfb-direct"; : > "$work/ttfb-proxy"
for _ in $(seq $((runs * 5))); do
  for target in direct proxy; do
    base=$direct; [ $target = proxy ] && base=$via
    curl -sN -o /dev/null -w '%{time_starttransfer}\n' "$base/responses" -H "Authorization: Bearer $OPENAI_API_KEY" \
      -H 'Content-Type: application/json' -d '{"model":"bench-model","input":"tiny","stream":true}' >> "$work/ttfb-$target"
  done
done
cat > "$work/sdk.py" <<'PY'
import sys, time
from openai import OpenAI
client = OpenAI()
times = []
for _ in range(int(sys.argv[1]) + 1):
    start = time.perf_counter()
    for event in client.responses.create(model="bench-model", input="tiny", stream=True):
        pass
    times.append(time.perf_counter() - start)
times = sorted(times[1:])  # the first call opens the connection
print(f"{times[len(times) // 2] * 1000:.2f}")
PY
sdk_direct=$(OPENAI_BASE_URL="$direct" "$python" "$work/sdk.py" "$runs")
sdk_proxy=$(OPENAI_BASE_URL="$via" "$python" "$work/sdk.py" "$runs")
awk -v d="$(median "$work/ttfb-direct")" -v p="$(median "$work/ttfb-proxy")" -v sd="$sdk_direct" -v sp="$sdk_proxy" 'BEGIN {
  printf "curl ttfb: direct %.2f ms, through the proxy %.2f ms: %.2f ms added\n", d * 1000, p * 1000, (p - d) * 1000
  printf "python sdk call: direct %.2f ms, through the proxy %.2f ms: %.2f ms added\n", sd, sp, sp - sd }'
stop_proxy
echo "tiny phase proxy peak RSS: $peak MB"

for shape in large api; do
  case $shape in
    large) echo "== ${mb} MB answer, small deltas (wall s, median of $runs)" ;;
    api) echo "== ${mb} MB answer as the API sends it: 32 KB deltas, four final events repeating it (wall s, median of $runs)" ;;
  esac
  start_proxy "$shape"
  : > "$work/$shape-direct"; : > "$work/$shape-proxy"; : > "$work/$shape-recorded"
  request "$direct" "$shape" | wc -c > "$work/bytes"   # warm: the server builds the answer once
  for run in $(seq "$runs"); do
    for target in direct proxy; do
      base=$direct; [ $target = proxy ] && base=$via
      start=$(date +%s%N); request "$base" "$shape" > /dev/null; end=$(date +%s%N)
      echo "$(( (end - start) / 1000 ))" >> "$work/$shape-$target"
      [ $target = proxy ] || continue
      # A stream faster than its recording reaches the client first (the rest waits in the proxy's spool):
      # wait until this exchange is recorded (before the next run, which it would otherwise slow down),
      # and note when that was, from the request's start.
      until [ "$(OPENRESPONSES_HOME="$work/$shape" "$ours" inspect list --source proxy --limit 1 --json \
                 | grep -c '"state": "in_progress"')" = 0 ] \
            && [ "$(OPENRESPONSES_HOME="$work/$shape" "$ours" inspect list --source proxy --limit 1000 --json | grep -c '"id"')" -ge "$run" ]; do
        sleep 0.02
      done
      echo "$(( ($(date +%s%N) - start) / 1000 ))" >> "$work/$shape-recorded"
    done
  done
  bytes=$(cat "$work/bytes")
  stop_proxy
  rows=$(states "$work/$shape")
  awk -v d="$(median "$work/$shape-direct")" -v p="$(median "$work/$shape-proxy")" -v b="$bytes" -v m="$peak" -v r="$rows" \
      -v w="$(median "$work/$shape-recorded")" 'BEGIN {
    printf "direct %.3f s (%.0f MB/s) · through the proxy, recording %.3f s (%.0f MB/s): %.0f%% of direct · recorded whole %.2f s after the request began · proxy peak RSS %s MB · recorded: %s\n",
      d / 1e6, b / d, p / 1e6, b / p, 100 * d / p, w / 1e6, m, r }'
done

echo "== 4 clients × 25 concurrent requests (tiny streamed answers)"
start_proxy concurrent
start=$(date +%s%N)
for client in 1 2 3 4; do
  (seq 25 | xargs -P 25 -I{} curl -sN -o /dev/null -A "bench-client-$client" "$via/responses" \
     -H "Authorization: Bearer $OPENAI_API_KEY" -H 'Content-Type: application/json' \
     -d '{"model":"bench-model","input":"tiny","stream":true}') &
done
wait $(jobs -p | grep -v "^$server$" | grep -v "^$proxy_pid$") 2>/dev/null || true
end=$(date +%s%N)
stop_proxy
rows=$(states "$work/concurrent")
clients=$(OPENRESPONSES_HOME="$work/concurrent" "$ours" inspect list --source proxy --limit 1000 --json | grep -o '"client": "bench-client-[0-9]' | sort -u | wc -l)
awk -v t="$(( (end - start) / 1000 ))" -v r="$rows" -v c="$clients" -v m="$peak" 'BEGIN {
  printf "100 requests in %.2f s: recorded %s, from %d clients · proxy peak RSS %s MB\n", t / 1e6, r, c, m }'
