#!/usr/bin/env bash
# `eval` of a suite of N cases × 2 presets against the loopback server (issue 47): the wall time of the run and the
# console's own CPU per call (user + system time of the process divided by the calls), live (4 calls at once) and
# through the loopback Batch API (--batch, the batch asked about every 50 ms). Each case has five assertions
# (contains, not_contains, regex, max_tokens, max_cost); half the cases fill a preset's {{variable}}.
#   Benchmarks/eval.sh [N] [RUNS]     (default 200 cases, 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200}
runs=${2:-3}
. Benchmarks/lib.sh
start_loopback "$(mktemp -d)"
printf 'version: 1\nmodel: gpt-4.1-mini\ninstructions: Be terse.\n' > "$work/home/presets/terse.yaml"
printf 'version: 1\nmodel: gpt-4.1-mini\ninput_template: "Answer {{who}}. {{input}}"\nvariables:\n  who: a customer\n' \
  > "$work/home/presets/polite.yaml"
python3 - "$work/suite.yaml" "$count" <<'PY'
import sys
count = int(sys.argv[2])
lines = ["version: 1", "name: bench", "presets: [terse, polite]", "cases:"]
for i in range(count):
    lines += [f"  - id: case-{i}", f"    input: \"Question {i}: what does the invoice say about the refund?\""]
    if i % 2:
        lines += [f"    vars: {{who: customer {i}}}"]
    lines += ["    expect:", "      - contains: \"e\"", "      - not_contains: \"sorry\"", "      - regex: \"^(Hello|echo: )\"",
              "      - max_tokens: 500", "      - max_cost: 0.01"]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
calls=$(( count * 2 ))
measure() {  # prints "wall user sys peak_kb"
  # Every case passes (exit 0): a failing one would measure the failure's path, not the suite's.
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$ours" eval "$work/suite.yaml" "$@" --json >/dev/null 2>"$work/err" \
    || { echo "eval.sh: the run failed:" >&2; tail -5 "$work/err" >&2; exit 1; }
  cat "$work/time"
}
report() {  # LABEL then "wall user sys peak" lines
  local label=$1; shift
  python3 - "$label" "$calls" "$@" <<'PY'
import statistics, sys
label, calls, rows = sys.argv[1], int(sys.argv[2]), [list(map(float, r.split())) for r in sys.argv[3:]]
wall = statistics.median(r[0] for r in rows)
cpu = statistics.median((r[1] + r[2]) * 1000 / calls for r in rows)
peak = max(r[3] for r in rows) / 1024
print(f"  {label}: wall median {wall:.2f} s of {' '.join(f'{r[0]:.2f}' for r in rows)}; "
      f"the console's CPU {cpu:.2f} ms a call; peak RSS {peak:.0f} MB")
PY
}
live=() ; batched=()
for _ in $(seq "$runs"); do
  live+=("$(measure)")
  batched+=("$(measure --batch --batch-interval 0.05)")
done
printf 'eval of %s cases x 2 presets (%s calls, 5 assertions each) against the loopback server:\n' "$count" "$calls"
report "live, 4 at once" "${live[@]}"
report "--batch" "${batched[@]}"
