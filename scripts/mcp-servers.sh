#!/usr/bin/env bash
# The real MCP programs the MCP tests talk to, none written here: the reference servers mcp-server-time and
# mcp-server-git, and the official Python MCP SDK (its client drives `openresponses mcp serve`). Installed once
# into a virtual environment under the cache; prints that environment's bin folder.
set -euo pipefail
venv=${OPENRESPONSES_MCP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/openresponses/mcp-servers}
if ! "$venv/bin/python" -c 'import mcp, mcp_server_time, mcp_server_git' 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q mcp==2.3.0 mcp-server-time==2026.10.19 mcp-server-git==2026.10.19 >&2
fi
echo "$venv/bin"
