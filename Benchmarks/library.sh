#!/usr/bin/env bash
# The library's figures, release build: extraction throughput per type (text MB/s, PDF pages/s, DOCX MB/s),
# chunking MB/s, adding 1,000 text files of 5 KB, search latency in-process at 1k, 10k and 100k chunks, and the
# whole `library search` command (median and p95 of RUNS runs) at 100k chunks, and the peak memory of
# `library add` over 500 and over 2,000 files of 5 KB (it should not grow with the number of files).
#   Benchmarks/library.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product openresponses-library-bench >&2
swift build -c release --product openresponses >&2
bin=$(swift build -c release --show-bin-path)
"$bin/openresponses-library-bench" "$work"
home="$work/library-bench/search-100000"
times=()
for i in $(seq 1 "$runs"); do
  start=$(date +%s%N)
  OPENRESPONSES_HOME="$home" "$bin/openresponses" library search "refund policy quarter" --k 10 >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
median=${sorted[$(( runs / 2 ))]}
p95=${sorted[$(( runs * 95 / 100 ))]}
printf '%-44s %10.2f ms\n' "library search command, 100000 chunks: median" "$(awk "BEGIN { print $median / 1000 }")"
printf '%-44s %10.2f ms\n' "library search command, 100000 chunks: p95" "$(awk "BEGIN { print $p95 / 1000 }")"

# Peak memory of the whole command, for a small and a four times larger batch.
for count in 500 2000; do
  folder="$work/rss-$count"
  python3 - "$folder/files" "$count" <<'PY'
import os, random, sys
folder, count = sys.argv[1], int(sys.argv[2])
os.makedirs(folder, exist_ok=True)
words = "penguin krill colony winter storm refund policy invoice report revenue quarter shipping".split()
random.seed(count)
for index in range(count):
    with open(os.path.join(folder, f"note-{index}.txt"), "w") as out:
        text = ""
        while len(text) < 5120:
            text += " ".join(random.choice(words) for _ in range(12)).capitalize() + ". "
        out.write(text)
PY
  rss=$(OPENRESPONSES_HOME="$folder/home" python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$bin/openresponses" library add "$folder/files")
  printf '%-44s %10.2f MB\n' "library add, $count files of 5 KB: peak RSS" "$(awk "BEGIN { print $rss / 1024 }")"
done
