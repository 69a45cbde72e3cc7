#!/usr/bin/env bash
# The whole `library search` command (issue 50's target: at most 100 ms) on a library of real documents, the CISI
# collection's 1,460 abstracts (the library Benchmarks/ranking.sh builds and keeps in its cache; run it first),
# each of its 76 judged queries as one command, in the default (hybrid) mode and by keywords; then on 100,000
# generated chunks (Benchmarks/LibraryBenchmark's store: Zipf-distributed words, random unit vectors for the
# passages, the query embedded for real), 53 queries of its kinds; median and p95.
# Then where one hybrid command's time goes, from strace's timestamps of the files it opens: start to the
# library opened, to the model's weights opened (read, and the encoder set up, before the query is embedded), to
# the vectors' file opened (the query embedded, the keyword ranking done), to the answer written.
# The binary is built as the README installs it (scripts/build-release.sh).
#   Benchmarks/search.sh [RUNS]      (each query RUNS times, default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/openresponses-bench/ranking"
model="${MODEL_DIR:-${OPENRESPONSES_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/openresponses}/models/all-MiniLM-L6-v2}"
[ -f "$cache/work-cisi/library.sqlite" ] || { echo "search: no CISI library in $cache (Benchmarks/ranking.sh cisi)" >&2; exit 1; }
[ -f "$model/model.safetensors" ] || { echo "search: no model in $model (scripts/install-model.sh)" >&2; exit 1; }
ours=$(./scripts/build-release.sh)
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
cp "$cache/work-cisi/library.sqlite" "$home/library.sqlite"
mkdir -p "$home/models" && ln -s "$model" "$home/models/all-MiniLM-L6-v2"
python3 -c 'import json,sys
for line in open(sys.argv[1]): print(json.loads(line)["query"])' "$cache/cisi/queries.jsonl" > "$home/queries.txt"
# The first search writes the vectors' file beside the library; the figures are of the searches after it.
OPENRESPONSES_HOME="$home" "$ours" library search "warm up" > /dev/null

# Each query of the file $2 as one command against the library in $1, $runs times; median and p95 under label $3.
times() {
  local library=$1 queries=$2 label=$3; shift 3
  : > "$home/times"
  for round in $(seq 1 "$runs"); do
    while IFS= read -r query; do
      start=$(date +%s%N)
      OPENRESPONSES_HOME="$library" "$ours" library search "$query" --k 10 "$@" > /dev/null
      end=$(date +%s%N)
      echo $(( (end - start) / 1000 )) >> "$home/times"
    done < "$queries"
  done
  sort -n "$home/times" | awk -v label="$label" '{ t[NR] = $1 } END {
    printf "%-48s median %6.1f ms  p95 %6.1f ms  (%d commands)\n", label, t[int((NR + 1) / 2)] / 1000, t[int(NR * 0.95)] / 1000, NR }'
}
echo "library search over CISI (1,460 abstracts, $(sqlite3 "$home/library.sqlite" 'SELECT count(*) FROM chunk') passages), the 76 queries x $runs"
times "$home" "$home/queries.txt" "hybrid (the default)"
times "$home" "$home/queries.txt" "keyword (--mode keyword)" --mode keyword

# 100,000 chunks: the library benchmark's store, built with the same flags as the binary.
LIBRARY_BENCH_SEARCH_ONLY=1 "$(./scripts/build-release.sh openresponses-library-bench)" "$home/big" "$model" \
  | sed 's/^/  in-process: /'
big="$home/big/library-bench/search-100000"
mkdir -p "$big/models" && ln -s "$model" "$big/models/all-MiniLM-L6-v2"
python3 - > "$home/big-queries.txt" <<'PY'
import random
random.seed(7)
words = ("penguin krill colony winter storm refund policy invoice report revenue quarter shipping warehouse console "
         "preset stream event inspector answer passage library document search ranking offline model citation page "
         "heading chunk").split()
for _ in range(25): print(random.choice(words), random.choice(words))
for _ in range(25): print(f"what is the {random.choice(words)} of the {random.choice(words)} for a {random.choice(words)}?")
print('"refund policy"'); print("peng*"); print("what is the refund policy for a quarter?")
PY
OPENRESPONSES_HOME="$big" "$ours" library search "warm up" > /dev/null
times "$big" "$home/big-queries.txt" "100,000 chunks, hybrid" --mode hybrid
times "$big" "$home/big-queries.txt" "100,000 chunks, keyword" --mode keyword

# Where one hybrid command's time goes: the median of each phase over the first 21 queries.
if command -v strace > /dev/null; then
  : > "$home/phases"
  head -21 "$home/queries.txt" | while IFS= read -r query; do
    OPENRESPONSES_HOME="$home" strace --seccomp-bpf -f -ttt -e trace=execve,openat,write,exit_group -o "$home/trace" \
      "$ours" library search "$query" --k 10 > /dev/null
    python3 - "$home/trace" >> "$home/phases" <<'PY'
import re, sys
start = opened = model = vectors = written = end = None
for line in open(sys.argv[1]):
    m = re.match(r"\d+\s+(\d+\.\d+) (\w+)\((.*)", line)
    if not m: continue
    t, call, rest = float(m.group(1)), m.group(2), m.group(3)
    if start is None and call == "execve": start = t
    if call == "openat" and "library.sqlite\"" in rest and opened is None: opened = t
    if call == "openat" and "model.safetensors" in rest and model is None: model = t
    if call == "openat" and "library.sqlite-vectors" in rest and vectors is None: vectors = t
    if call == "write" and rest.startswith("1,") and written is None: written = t
    if call == "exit_group": end = t
print(" ".join(f"{(b - a) * 1000:.1f}" for a, b in [(start, opened), (opened, model), (model, vectors), (vectors, written), (written, end), (start, end)]))
PY
  done
  python3 - "$home/phases" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1]) if line.strip()]
names = ["start to the library opened", "to the model's weights opened", "to the vectors' file opened (query embedded)",
         "to the answer written", "to the exit", "whole command (under strace)"]
for i, name in enumerate(names):
    print(f"  {name:<46} {statistics.median(r[i] for r in rows):6.1f} ms")
PY
else
  echo "(strace is not installed: no phases)"
fi
