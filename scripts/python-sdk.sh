#!/usr/bin/env bash
# Installs the official OpenAI Python SDK into a virtual environment of its own (never the system's) and
# prints its python's path. The proxy's tests drive it as a real client nobody here wrote; compare.sh and
# proxy.sh time it. OPENRESPONSES_PYTHON_SDK_VENV overrides where the environment lives.
set -euo pipefail
venv=${OPENRESPONSES_PYTHON_SDK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/openresponses/python-sdk}
if ! "$venv/bin/python" -c 'import openai' 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q openai >&2
fi
echo "$venv/bin/python"
