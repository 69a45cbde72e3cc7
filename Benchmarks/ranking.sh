#!/usr/bin/env bash
# The library's rankings on three labelled sets (issue 50): the project's own (Benchmarks/retrieval), the public
# CISI collection (read in place from ../shared/data/cisi) and real documents in three languages (the Debian FAQ
# in English, German and French and the Debian Reference in German and French, PDFs from Debian's packages,
# judged by page: Benchmarks/ranking/multilingual.jsonl). For each: nDCG@10, Recall@10 and MRR@10 of the keyword,
# semantic and default rankings, the anchors computed the same way (BM25 without stemming, MiniLM alone, their
# reciprocal-rank fusion) and the fusions the default was chosen among. Needs all-MiniLM-L6-v2
# (scripts/install-model.sh; MODEL_DIR overrides where it is looked for), pdftotext and apt-get download.
# Each set's library is built once into the cache (about 1,500 to 3,000 passages embedded, a few minutes) and reused.
#   Benchmarks/ranking.sh [SET...]       (default: project cisi multilingual)
set -euo pipefail
cd "$(dirname "$0")/.."
model="${MODEL_DIR:-${OPENRESPONSES_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/openresponses}/models/all-MiniLM-L6-v2}"
[ -f "$model/model.safetensors" ] || { echo "ranking: no model in $model (scripts/install-model.sh)" >&2; exit 1; }
cache="${XDG_CACHE_HOME:-$HOME/.cache}/openresponses-bench/ranking"
mkdir -p "$cache"
# Built with the installed binary's flags (scripts/build-release.sh), reusing its modules.
bin=$(./scripts/build-release.sh openresponses-ranking-bench)
for set in "${@:-project cisi multilingual}"; do
  for name in $set; do
    rm -rf "$cache/$name"
    status=0
    python3 Benchmarks/ranking/prepare.py "$name" "$cache/$name" || status=$?
    if [ "$status" = 3 ]; then echo "== $name: skipped (its source is absent)"; continue; fi
    [ "$status" = 0 ] || exit "$status"
    echo "== $name"
    "$bin" "$cache/$name" "$cache/work-$name" "$model"
  done
done
