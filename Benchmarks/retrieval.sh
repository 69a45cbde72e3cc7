#!/usr/bin/env bash
# Retrieval quality on the labelled set in Benchmarks/retrieval (documents written for it, queries worded
# differently from the text, each with the documents and the verbatim spans that answer it): nDCG@10 and
# Recall@10 over documents, evidence@5 and MRR over passages, for each chunking and with the library's index
# (porter over unicode61) beside an unstemmed twin; then the spans the offline answer holds. The set is checked
# first (Benchmarks/retrieval/check.py).
# With all-MiniLM-L6-v2 installed (scripts/install-model.sh), also keyword, semantic and hybrid ranking and a
# sweep of the hybrid's constants. MODEL_DIR overrides where the model is looked for.
#   Benchmarks/retrieval.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Benchmarks/retrieval/check.py >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product openresponses-retrieval-bench >&2
model="${MODEL_DIR:-${OPENRESPONSES_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/openresponses}/models/all-MiniLM-L6-v2}"
[ -f "$model/model.safetensors" ] || echo "retrieval: no model in $model (scripts/install-model.sh); keyword figures only" >&2
"$(swift build -c release --show-bin-path)/openresponses-retrieval-bench" \
  Benchmarks/retrieval/docs Benchmarks/retrieval/queries.jsonl "$work" \
  $([ -f "$model/model.safetensors" ] && echo "$model")
