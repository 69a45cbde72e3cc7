#!/usr/bin/env bash
# The library's figures, release build: extraction throughput per type (text MB/s, PDF pages/s, DOCX MB/s),
# chunking MB/s, adding 1,000 text files of 5 KB, search latency in-process at 1k, 10k and 100k chunks, and the
# whole `library search` command (median and p95 of RUNS runs) at 100k chunks, and the peak memory of
# `library add` over 500 and over 2,000 files of 5 KB (it should not grow with the number of files).
# With all-MiniLM-L6-v2 installed (scripts/install-model.sh; MODEL_DIR overrides where): embedding throughput
# (chunks of 128 and 256 tokens a second, one thread and two), query embedding latency, hybrid search in-process
# and as a command at 100k chunks (random unit vectors stand in for the passages'; the query is embedded for
# real), and the peak memory of `library add` embedding 100 files.
#   Benchmarks/library.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product openresponses-library-bench >&2
swift build -c release --product openresponses >&2
swift build -c release --product openresponses-embedding-bench >&2
bin=$(swift build -c release --show-bin-path)
model="${MODEL_DIR:-${OPENRESPONSES_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/openresponses}/models/all-MiniLM-L6-v2}"
if [ -f "$model/model.safetensors" ]; then
  "$bin/openresponses-embedding-bench" "$model" 64
  "$bin/openresponses-library-bench" "$work" "$model"
else
  echo "library: no model in $model (scripts/install-model.sh); no embedding or hybrid figures" >&2
  "$bin/openresponses-library-bench" "$work"
fi
home="$work/library-bench/search-100000"
[ -f "$model/model.safetensors" ] && mkdir -p "$home/models" && ln -s "$model" "$home/models/all-MiniLM-L6-v2"

# The whole `library search` command at 100k chunks: keyword, and hybrid when the model is there.
command_times() {
  local label=$1; shift
  local times=() start end
  for i in $(seq 1 "$runs"); do
    start=$(date +%s%N)
    OPENRESPONSES_HOME="$home" "$bin/openresponses" library search "refund policy quarter" --k 10 "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  local sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  printf '%-44s %10.2f ms\n' "$label, 100000 chunks: median" "$(awk "BEGIN { print ${sorted[$(( runs / 2 ))]} / 1000 }")"
  printf '%-44s %10.2f ms\n' "$label, 100000 chunks: p95" "$(awk "BEGIN { print ${sorted[$(( runs * 95 / 100 ))]} / 1000 }")"
}
command_times "library search command (keyword)" --mode keyword
[ -f "$model/model.safetensors" ] && command_times "library search command (hybrid)" --mode hybrid

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
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$bin/openresponses" library add "$folder/files" --embedder none)
  printf '%-44s %10.2f MB\n' "library add, $count files of 5 KB: peak RSS" "$(awk "BEGIN { print $rss / 1024 }")"
  if [ "$count" = 500 ] && [ -f "$model/model.safetensors" ]; then
    mkdir -p "$folder/embed/files" "$folder/embed/home/models"
    cp "$folder"/files/note-{1,2,3,4,5,6,7,8,9}?.txt "$folder/embed/files/"
    ln -s "$model" "$folder/embed/home/models/all-MiniLM-L6-v2"
    start=$(date +%s%N)
    rss=$(OPENRESPONSES_HOME="$folder/embed/home" python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$bin/openresponses" library add "$folder/embed/files" --embedder minilm)
    end=$(date +%s%N)
    chunks=$(sqlite3 "$folder/embed/home/library.sqlite" "SELECT count(*) FROM embedding")
    printf '%-44s %10.2f MB (%d chunks embedded in %.1f s)\n' "library add --embedder minilm, 90 files: peak RSS" \
      "$(awk "BEGIN { print $rss / 1024 }")" "$chunks" "$(awk "BEGIN { print ($end - $start) / 1e9 }")"
  fi
done
