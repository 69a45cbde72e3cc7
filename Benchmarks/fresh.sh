#!/usr/bin/env bash
# A new user's first ten minutes, measured (issue 51): clones this repository into a temporary folder and runs the
# README's first command there with an empty HOME and no key, in a real terminal (tmux), up to the first offline
# answer; then runs scripts/install.sh again from another empty HOME. Prints the time of each phase:
#   setup      scripts/setup.sh --no-build (Debian packages, the embedding model)
#   install    scripts/install.sh (the release build and the install)
#   add        openresponses library add Docs README.md (extraction, chunks, embeddings)
#   console    the console's first prompt
#   answer     the first offline answer to a question about the console
#   reinstall  scripts/install.sh again, with another HOME (what a second user, or a changed HOME, pays)
# Usage: Benchmarks/fresh.sh [REVISION]   (default HEAD; the clone is removed at the end, KEEP=1 keeps it)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
revision=${1:-HEAD}
work=$(mktemp -d /tmp/openresponses-fresh.XXXXXX)
session="fresh-$$"
cleanup() {
  tmux -L "$session" kill-server 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT

git clone -q --no-local "$repo" "$work/clone"
git -C "$work/clone" checkout -q "$revision"
mkdir -p "$work/home" "$work/home2"
swift_bin=$(dirname "$(command -v swift)")
path="$swift_bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# The README's first line, phase by phase, each end stamped into a file; the console opens last.
cat > "$work/run.sh" <<EOF
set -e
cd "$work/clone"
stamp() { echo "\$1 \$(date +%s.%N)" >> "$work/phases"; }
stamp start
./scripts/setup.sh --no-build
stamp setup
./scripts/install.sh
stamp install
~/.local/bin/openresponses library add Docs README.md
stamp add
exec ~/.local/bin/openresponses
EOF

tmux -L "$session" new-session -d -x 200 -y 50 \
  "env -i HOME=$work/home PATH=$path TERM=xterm-256color LANG=C.UTF-8 bash $work/run.sh; sleep 600"
screen() { tmux -L "$session" capture-pane -p -J -S -400; }
wait_for() { # TEXT SECONDS
  local deadline=$(( $(date +%s) + $2 ))
  until screen | grep -qF -- "$1"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "fresh: no '$1' after $2 s; the screen:" >&2; screen | tail -30 >&2; exit 1
    fi
    sleep 1
  done
}
wait_for "Type a message" 3600
echo "console $(date +%s.%N)" >> "$work/phases"
tmux -L "$session" send-keys "how do I replay an exchange with a different temperature?" Enter
wait_for "No model was used" 300
echo "answer $(date +%s.%N)" >> "$work/phases"

start=$(date +%s.%N)
(cd "$work/clone" && env -i HOME="$work/home2" PATH="$path" LANG=C.UTF-8 ./scripts/install.sh > "$work/reinstall.log" 2>&1)
echo "reinstall  $(python3 -c "import time; print(f'{time.time() - $start:8.1f}')") s"

python3 - "$work/phases" <<'EOF'
import sys
rows = [line.split() for line in open(sys.argv[1])]
times = {name: float(value) for name, value in rows}
previous = times["start"]
for name in ["setup", "install", "add", "console", "answer"]:
    print(f"{name:<10} {times[name] - previous:8.1f} s")
    previous = times[name]
print(f"{'first answer':<10} {times['answer'] - times['start']:8.1f} s from the command")
EOF
