#!/usr/bin/env bash
# How well `library ask --verify` tells supported sentences from unsupported ones (CitationVerifier), on pairs
# built from the labelled set in Benchmarks/retrieval and the hand-written paraphrases of
# Benchmarks/verify/paraphrases.jsonl (how, and the limits: Benchmarks/verify/README.md). The weight of meaning
# and the threshold are chosen on the queries of even position; precision and recall of the "unsupported" flag
# are reported on the odd ones. Without all-MiniLM-L6-v2 (scripts/install-model.sh), the words alone.
# MODEL_DIR overrides where the model is looked for; CONFIG=debug runs a debug build (the figures are the same).
#   Benchmarks/verify.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Benchmarks/retrieval/check.py >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
config="${CONFIG:-release}"
swift build -c "$config" --product openresponses-verify-bench >&2
model="${MODEL_DIR:-${OPENRESPONSES_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/openresponses}/models/all-MiniLM-L6-v2}"
[ -f "$model/model.safetensors" ] || echo "verify: no model in $model (scripts/install-model.sh); the words alone" >&2
"$(swift build -c "$config" --show-bin-path)/openresponses-verify-bench" \
  Benchmarks/retrieval/docs Benchmarks/retrieval/queries.jsonl Benchmarks/verify/paraphrases.jsonl "$work" \
  $([ -f "$model/model.safetensors" ] && echo "$model")
