#!/usr/bin/env bash
# Runs the whole test suite: installs missing system packages, starts the peer server when it can be had
# (tests against it skip otherwise), builds, then runs every test. Docs/testing.md says what each kind of
# test proves and what skips.
# Tests that need ../shared (recordings, OpenAPI spec, the peer) are reported as skipped when it is absent.
# The peer suites find the peer through OPENRESPONSES_PEER_URL (set here) or at its usual address,
# http://127.0.0.1:8321/v1, so a plain `swift test` runs them too when the peer is up.
# OPENRESPONSES_SKIP_PEER=1 leaves the peer out (it is neither started here nor looked for by the tests).
# Arguments go to `swift test` (for example --filter SUITE).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --no-build
# setup installs all-MiniLM-L6-v2: the suites that need it fail rather than skip when it is missing.
export OPENRESPONSES_REQUIRE_MINILM="${OPENRESPONSES_REQUIRE_MINILM:-1}"
# The report test opens the inspector's HTML report in headless Chromium; it skips where Chromium cannot be had.
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo -n"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null 2>&1 \
    || echo "test: chromium could not be installed; the report's browser test will be skipped" >&2
fi
# The proxy's tests drive the official OpenAI Python SDK (a venv of its own): required where it installs.
if sdk=$(./scripts/python-sdk.sh); then
  export OPENRESPONSES_PYTHON_SDK="$sdk" OPENRESPONSES_REQUIRE_PYTHON_SDK=1
else
  echo "test: the OpenAI Python SDK could not be installed; the proxy's SDK tests will be skipped" >&2
fi
# The MCP tests talk to real MCP servers and the official Python MCP client (a venv of their own): required where
# they install.
if mcp_bin=$(./scripts/mcp-servers.sh); then
  export OPENRESPONSES_MCP_SERVERS_TIME="$mcp_bin/mcp-server-time" OPENRESPONSES_REQUIRE_MCP=1
else
  echo "test: the MCP servers could not be installed; the MCP tests will be skipped" >&2
fi
# The spec-validation tests use python3 with jsonschema; they skip without it.
python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install -q jsonschema >/dev/null 2>&1 || true

# The team inspector's suites run against a throwaway PostgreSQL cluster (scripts/postgres.sh), required: CI never
# skips them. The build has the TeamInspector trait (the PostgreSQL engine) that a default install leaves out.
postgres_dir=$(mktemp -d)
started_peer="" log=""
cleanup() {
  [ -z "$log" ] || rm -f "$log"
  [ -z "$started_peer" ] || ./scripts/peer.sh stop
  ./scripts/postgres.sh stop "$postgres_dir/cluster"
  rm -rf "$postgres_dir"
}
trap cleanup EXIT
postgres_url=$(./scripts/postgres.sh start "$postgres_dir/cluster")
export OPENRESPONSES_TEST_POSTGRES_URL="$postgres_url"
export OPENRESPONSES_REQUIRE_POSTGRES=1 OPENRESPONSES_POSTGRES_SCRIPT="$PWD/scripts/postgres.sh"
traits=(--traits TeamInspector)

if [ -z "${OPENRESPONSES_PEER_URL:-}" ] && [ "${OPENRESPONSES_SKIP_PEER:-0}" != 1 ]; then
  already=$(curl -sf -m 2 -o /dev/null http://127.0.0.1:8321/v1/models && echo yes || true)
  if url=$(./scripts/peer.sh start); then
    export OPENRESPONSES_PEER_URL="$url"
    [ -n "$already" ] || started_peer=yes
  else
    echo "test: the peer server is not available; its tests will be skipped" >&2
  fi
fi

# The formatter's rules (.swift-format) hold everywhere: a line it would change fails the run.
swift format lint --strict --recursive --parallel Sources Tests Benchmarks Plugins scripts Package.swift
swift build "${traits[@]}" --build-tests
# ArgumentParser's manual generator, for the test of scripts/install.sh.
swift build "${traits[@]}" --product generate-manual
# The whole suite runs in parallel on the machine's cores, in two parts: everything but the team inspector's
# suites, then those (four proxies, 200 SDK streams and a PostgreSQL cluster stopped and started again load the
# machine enough to push the terminal tests' waits past their limits when both run at once). A few tests of
# timing-sensitive paths (a server that drops its connection mid-stream, a terminal driven under tmux) have failed
# only under that full load; a test that failed is run once more, alone, and the run passes only if it then passes.
# Both results are printed, and which tests needed it ("test: failed under load"), so a flaky test stays visible.
# A test process that crashed fails the run whatever else it printed: the tests after the crash never ran.
# A crash's backtrace names the crashed thread's frames, without the registers and the list of loaded images that
# would push those frames out of a log's tail.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,threads=crashed,registers=none,images=none}"
log=$(mktemp)
run_part() { # what, swift test arguments...
  local what=$1 status failed
  shift
  set +e
  swift test "${traits[@]}" --skip-build "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  if ! grep -qE 'Test run with [0-9]+ tests? ' "$log"; then
    echo "test: $what: the test process ended without its summary (a crash: its backtrace is above); failing" >&2
    exit "$(( status == 0 ? 1 : status ))"
  fi
  [ "$status" -ne 0 ] || return 0
  failed=$(grep -oE '✘ Test [A-Za-z0-9_]+\(' "$log" | sed -E 's/✘ Test ([A-Za-z0-9_]+)\(/\1/' | sort -u)
  if [ -z "$failed" ] || [ "$(echo "$failed" | wc -l)" -gt 8 ]; then exit "$status"; fi
  echo "test: $what: failed under load: $(echo $failed | tr ' ' ',') — running them again, alone" >&2
  swift test "${traits[@]}" --skip-build --filter "$(echo $failed | tr ' ' '|')"
}
if [ "$#" -gt 0 ]; then
  run_part "the tests asked for" "$@"
else
  run_part "all but the team store's suites" --skip 'TeamStoreTests\.'
  run_part "the team store's suites" --filter 'TeamStoreTests\.'
fi
