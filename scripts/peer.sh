#!/usr/bin/env bash
# Starts the peer server the tests check the client against: llama-stack with a fake echo model, offline on
# loopback (../shared/peer/oai-peer.sh, installed on first use from PyPI into ~/.cache/oai-peer), and the
# LiteLLM proxy in front of that model (http://127.0.0.1:4000/v1, key sk-test-1234, model echo), which
# llama-stack's inference goes through and the conformance tests check as a server that does not keep
# chained turns. Both must answer: the peer is not "up" with only one of them.
# Prints the base URL on success; exits non-zero (and says why) when the peer cannot be had.
#   scripts/peer.sh start | stop
set -uo pipefail
cd "$(dirname "$0")/.."
peer=../shared/peer/oai-peer.sh
url=http://127.0.0.1:8321/v1
litellm=http://127.0.0.1:4000/health/liveliness
root=${ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/oai-peer}

case "${1:-start}" in
  stop)
    [ -f "$peer" ] && bash "$peer" stop >/dev/null 2>&1
    exit 0 ;;
  start) ;;
  *) echo "usage: scripts/peer.sh start|stop" >&2; exit 2 ;;
esac

if curl -sf -m 2 -o /dev/null "$url/models" && curl -sf -m 2 -o /dev/null "$litellm"; then echo "$url"; exit 0; fi
if [ ! -f "$peer" ]; then echo "peer: $peer is absent" >&2; exit 1; fi
if [ ! -d "$root/lls-venv" ] || [ ! -d "$root/litellm-venv" ]; then
  echo "peer: installing (first use; several minutes)..." >&2
  if ! timeout 1500 bash "$peer" install >"${TMPDIR:-/tmp}/openresponses-peer-install.log" 2>&1; then
    echo "peer: install failed; see ${TMPDIR:-/tmp}/openresponses-peer-install.log" >&2
    exit 1
  fi
fi
if ! timeout 300 bash "$peer" start >"${TMPDIR:-/tmp}/openresponses-peer-start.log" 2>&1; then
  echo "peer: start failed; see ${TMPDIR:-/tmp}/openresponses-peer-start.log" >&2
  exit 1
fi
curl -sf -m 5 -o /dev/null "$url/models" || { echo "peer: started but $url/models does not answer" >&2; exit 1; }
curl -sf -m 5 -o /dev/null "$litellm" || { echo "peer: started but LiteLLM ($litellm) does not answer" >&2; exit 1; }
echo "$url"
