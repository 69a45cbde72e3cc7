#!/usr/bin/env bash
# Issue 45's start-up figures. (1) A tiny `ask` with no MCP server declared, on this revision and on BASE (the
# revision before MCP came, dde8eb5, by default): hyperfine's mean ± σ over RUNS runs of each, against the
# project's loopback server, with the inspector on. (2) The first turn with `mcp-server-time` declared: the
# server's start (spawn, initialise, list its tools) as `mcp tools` reports it, and a whole `ask --yes` whose
# model calls the tool (two requests, the server started and stopped), hyperfine's mean over RUNS runs.
# Release builds as installed (scripts/build-release.sh); BASE is built in a worktree of its own under /tmp.
#   Benchmarks/mcp.sh [RUNS] [BASE]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
base_rev=${2:-dde8eb5}
if ! command -v hyperfine >/dev/null && command -v apt-get >/dev/null; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo -n"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq hyperfine >/dev/null 2>&1 || true
fi
command -v hyperfine >/dev/null || { echo "mcp.sh: hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
ours=$(./scripts/build-release.sh)
swift build --product openresponses-loopback >&2
loopback=$(swift build --show-bin-path)/openresponses-loopback
mcp_bin=$(./scripts/mcp-servers.sh)
work=$(mktemp -d)
base_tree=/tmp/openresponses-mcp-base-$base_rev
cleanup() { kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
if [ ! -x "$base_tree/.build/static/x86_64-unknown-linux-gnu/release/openresponses" ]; then
  [ -d "$base_tree" ] || git worktree add --detach "$base_tree" "$base_rev" >&2
fi
base=$(cd "$base_tree" && ./scripts/build-release.sh)

"$loopback" "$work/port" 1 & server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")/v1"
common=(env -i PATH=/usr/bin:/bin OPENAI_BASE_URL="$url" OPENAI_API_KEY=sk-bench)

echo "# A tiny ask, no MCP server declared ($runs runs each)"
mkdir -p "$work/plain"
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/plain.json" \
  -n "before ($base_rev)" "${common[*]} OPENRESPONSES_HOME=$work/plain HOME=$work/plain $base ask hello" \
  -n "this revision" "${common[*]} OPENRESPONSES_HOME=$work/plain HOME=$work/plain $ours ask hello" >&2
python3 - "$work/plain.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['command']:>24}: {r['mean']*1000:7.2f} ms ± {r['stddev']*1000:5.2f} (median {r['median']*1000:7.2f})")
PY

echo "# The first turn with mcp-server-time declared"
mkdir -p "$work/mcp"
printf 'version: 1\nmcp_servers:\n  time: {command: [%s, --local-timezone, UTC]}\nmcp: [time]\n' \
  "$mcp_bin/mcp-server-time" > "$work/mcp/config.yaml"
for _ in 1 2 3; do
  "${common[@]}" OPENRESPONSES_HOME="$work/mcp" HOME="$work/mcp" "$ours" mcp tools time 2>&1 >/dev/null | tail -1
done
hyperfine -N --warmup 1 --runs "$((runs < 10 ? runs : 10))" --export-json "$work/mcp.json" \
  -n "ask --yes, the time tool called" \
  "${common[*]} OPENRESPONSES_HOME=$work/mcp HOME=$work/mcp $ours ask --yes mcp-time" >&2
python3 - "$work/mcp.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['command']:>24}: {r['mean']*1000:7.1f} ms ± {r['stddev']*1000:5.1f} (median {r['median']*1000:7.1f})")
PY
