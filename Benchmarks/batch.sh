#!/usr/bin/env bash
# `batch submit` of N prompt lines (issue 47): every line composed from a preset and checked, the estimate, the
# composed file uploaded to the loopback Batch API (openresponses-loopback) and the batch created. Lines are
# shaped like a real job's: an id, a paragraph of about 1.5 KB to classify, and a variable for the preset.
# Prints the time of validation alone (--dry-run), of the whole submit (validation, upload, create), and the
# peak memory of each (target: at most 100 MB, the input streamed and never held whole).
#   Benchmarks/batch.sh [N] [RUNS]     (default 10000 lines, 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
runs=${2:-3}
. Benchmarks/lib.sh
start_loopback "$(mktemp -d)"
printf 'version: 1\nmodel: gpt-4.1-mini\ninstructions: Classify the text for {{team}}; answer with one label.\nvariables:\n  team: support\nmax_output_tokens: 16\n' \
  > "$work/home/presets/classify.yaml"
python3 - "$work/input.jsonl" "$count" <<'PY'
import json, random, sys
random.seed(7)
words = "the invoice arrived late and the customer asked twice about a refund for the damaged parcel".split()
with open(sys.argv[1], "w") as f:
    for i in range(int(sys.argv[2])):
        text = " ".join(random.choice(words) for _ in range(260))
        f.write(json.dumps({"id": f"ticket-{i}", "input": text, "vars": {"team": random.choice(["billing", "support"])}}) + "\n")
PY
size=$(stat -c %s "$work/input.jsonl")
measure() {  # prints "seconds peak_kb" of one run of the arguments
  /usr/bin/time -f '%e %M' -o "$work/time" "$ours" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  cat "$work/time"
}
dry=() ; full=() ; dry_peak=0 ; full_peak=0
for _ in $(seq "$runs"); do
  read -r seconds peak < <(measure batch submit --preset classify "$work/input.jsonl" --dry-run)
  dry+=("$seconds"); [ "$peak" -gt "$dry_peak" ] && dry_peak=$peak
  read -r seconds peak < <(measure batch submit --preset classify "$work/input.jsonl" --yes)
  full+=("$seconds"); [ "$peak" -gt "$full_peak" ] && full_peak=$peak
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
printf 'batch submit of %s lines (%s MB of input):\n' "$count" "$(( size / 1048576 ))"
printf '  validation alone (--dry-run): median %s s of %s; peak RSS %s MB\n' "$(median "${dry[@]}")" "${dry[*]}" \
  "$(( dry_peak / 1024 ))"
printf '  validation, upload and create: median %s s of %s; peak RSS %s MB (target 100 MB)\n' \
  "$(median "${full[@]}")" "${full[*]}" "$(( full_peak / 1024 ))"
