#!/usr/bin/env bash
# How fast Ctrl-C stops a streaming answer in the console (issue 5: within 100 ms), in a real terminal:
# the console streams a slow answer from openresponses-loopback inside tmux; Ctrl-C is sent, and the time
# until "[cancelled" is on the screen is taken (the exchange is recorded before that line is printed).
#   Benchmarks/cancel.sh [RUNS]     (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
swift build -c release --product openresponses >&2
swift build -c release --product openresponses-loopback >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
socket="or-cancel-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$bin/openresponses-loopback" "$work/port" 1 & server=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
tmux -L "$socket" new-session -d -s c -x 200 -y 50 \
  "env OPENRESPONSES_HOME=$work/home OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=sk-bench $bin/openresponses --model m"
python3 - "$socket" "$runs" <<'PY'
import subprocess, sys, time
socket, runs = sys.argv[1], int(sys.argv[2])
def tmux(*args):
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True).stdout
def screen():
    return tmux("capture-pane", "-p", "-J", "-t", "c")
def wait(predicate, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = screen()
        if predicate(text):
            return text
        time.sleep(0.001)
    raise SystemExit("timed out; screen:\n" + screen())
wait(lambda s: "Type a message" in s)
times = []
for run in range(runs):
    before = screen().count("[cancelled")
    tmux("send-keys", "-t", "c", "-l", "slow please")
    tmux("send-keys", "-t", "c", "Enter")
    time.sleep(0.6)
    start = time.monotonic()
    tmux("send-keys", "-t", "c", "C-c")
    wait(lambda s: s.count("[cancelled") > before)
    times.append((time.monotonic() - start) * 1000)
    tmux("send-keys", "-t", "c", "C-l")
    time.sleep(0.2)
times.sort()
print(f"Ctrl-C to '[cancelled' on screen: median {times[len(times)//2]:.1f} ms, max {times[-1]:.1f} ms, min {times[0]:.1f} ms ({runs} runs; screen polled every ~1 ms, tmux round trips included)")
PY
