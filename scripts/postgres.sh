#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the team inspector's tests and benchmarks (Docs/team.md): Debian's
# PostgreSQL (installed with apt-get when missing), initdb into a folder of its own, a free loopback port,
# password (SCRAM) authentication, run as a non-root user (`postgres` when this runs as root).
#   scripts/postgres.sh start DIR    → creates and starts a cluster in DIR (a new or empty folder); prints its URL,
#                                      postgres://openresponses:PASSWORD@127.0.0.1:PORT/postgres
#   scripts/postgres.sh stop DIR     → stops it (the folder stays; `rm -rf DIR` after)
#   scripts/postgres.sh pause DIR    → stops the server only, keeping the cluster (an outage)
#   scripts/postgres.sh resume DIR   → starts it again on the same port
set -euo pipefail
# runuser and the cluster tools live in sbin folders a minimal PATH leaves out.
export PATH="$PATH:/usr/sbin:/sbin"
command=${1:?usage: scripts/postgres.sh start|stop|pause|resume DIR}
dir=${2:?usage: scripts/postgres.sh $command DIR}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] && [ "$command" = start ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo -n"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null 2>&1 \
    || { echo "postgres: PostgreSQL is not installed and apt-get could not install it" >&2; exit 1; }
  bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
[ -n "$bindir" ] || { echo "postgres: PostgreSQL is not installed" >&2; exit 1; }

# The server refuses to run as root: as root, the cluster belongs to Debian's `postgres` user.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ -z "$(ls -A "$dir")" ] || { echo "postgres: $dir is not empty" >&2; exit 1; }
    if [ "$(id -u)" = 0 ]; then
      chown postgres: "$dir"
      # The server's user must reach the folder: a mktemp -d parent is 0700. Search permission only (no listing)
      # is added to the folders above it that lack it, and left: a test cluster's parent is a temporary folder.
      parent=$(dirname "$dir")
      while [ "$parent" != / ]; do
        [ -n "$(find "$parent" -maxdepth 0 -perm -o+x)" ] || chmod o+x "$parent"
        parent=$(dirname "$parent")
      done
    fi
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    (umask 077; printf '%s\n' "$password" > "$dir/.password")
    [ "$(id -u)" != 0 ] || chown postgres: "$dir/.password"
    as_owner "$bindir/initdb" -D "$dir/data" -U openresponses --auth=scram-sha-256 --pwfile="$dir/.password" \
      -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    echo "$port" > "$dir/port"
    # Loopback only; the socket in the cluster's folder, not /var/run/postgresql (not ours to write).
    cat >> "$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
fsync = on
EOF
    # pg_ctl's output to a file: the server it leaves running must not hold the caller's pipes open.
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >"$dir/pg_ctl.log" 2>&1 \
      || { cat "$dir/pg_ctl.log" "$dir/server.log" >&2; exit 1; }
    echo "postgres://openresponses:$password@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -d "$dir/data" ] || exit 0
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  pause)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >"$dir/pg_ctl.log" 2>&1 \
      || { cat "$dir/pg_ctl.log" >&2; exit 1; }
    ;;
  resume)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >"$dir/pg_ctl.log" 2>&1 \
      || { cat "$dir/pg_ctl.log" >&2; tail -20 "$dir/server.log" >&2; exit 1; }
    ;;
  *)
    echo "usage: scripts/postgres.sh start|stop|pause|resume DIR" >&2
    exit 2
    ;;
esac
