#!/usr/bin/env bash
# The team inspector on PostgreSQL (issue 46, Docs/team.md), on a throwaway cluster (scripts/postgres.sh) and the
# project's loopback server, with the release binary built with the TeamInspector trait:
#   1. time to first byte of a tiny streamed answer (curl): direct, through the proxy recording into SQLite, and
#      through the proxy recording into SQLite and pushing to PostgreSQL, then with PostgreSQL stopped (medians and
#      p95 of RUNS × 20);
#   2. the push's speed: a store of 2,000 recorded exchanges (about 300 events each: the loopback's "large" answer
#      at 0.06 MB, a long answer's count of deltas) sent with `inspect push`: exchanges and events written per
#      second, and the storage they take;
#   3. `inspect list --search WORD` over 100,000 exchanges in PostgreSQL (the whole command, median of RUNS);
#   4. the proxy's peak memory (VmHWM) while it holds 200 open streams (the loopback's "slow" answer: 200 words
#      a tenth of a second apart), pushing to PostgreSQL.
#   Benchmarks/team.sh [RUNS]     (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
ours=$(./scripts/build-release.sh --team)
./scripts/build-release.sh --team openresponses-loopback > /dev/null
work=$(mktemp -d)
server="" proxy_pid=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  [ -z "$proxy_pid" ] || kill "$proxy_pid" 2>/dev/null || true
  ./scripts/postgres.sh stop "$work/cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
"$(dirname "$ours")/openresponses-loopback" "$work/port" 0.06 & server=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
direct="http://127.0.0.1:$(cat "$work/port")/v1"
cluster=$(./scripts/postgres.sh start "$work/cluster")
# psql reads the password from PGPASSWORD, not from its command line.
export PGPASSWORD
PGPASSWORD=$(cat "$work/cluster/.password")
admin="postgres://openresponses@127.0.0.1:$(cat "$work/cluster/port")"
psql() { command psql "$admin/${1##*/}" "${@:2}"; }
database() { psql postgres -qc "CREATE DATABASE $1" >/dev/null; echo "${cluster%/postgres}/$1"; }
export OPENAI_API_KEY=sk-bench-0123456789 OPENAI_BASE_URL="$direct"

# start_proxy NAME [TEAM_URL]: a proxy with a fresh store in $work/NAME; sets proxy_pid and via.
start_proxy() {
  mkdir -p "$work/$1"
  OPENRESPONSES_HOME="$work/$1" OPENRESPONSES_INSPECTOR_URL="${2:-}" "$ours" proxy --listen 127.0.0.1:0 \
    > "$work/$1.out" 2> "$work/$1.err" &
  proxy_pid=$!
  for _ in $(seq 300); do grep -q "Proxy on" "$work/$1.out" 2>/dev/null && break; sleep 0.05; done
  via=$(sed -n 's|^Proxy on \(http://[^ ]*/v1\) .*|\1|p' "$work/$1.out")
}
stop_proxy() {
  peak=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$proxy_pid/status")
  kill -INT "$proxy_pid"
  while kill -0 "$proxy_pid" 2>/dev/null; do sleep 0.05; done
  proxy_pid=""
}
# stats FILE: "median p95" of the seconds in FILE, in ms.
stats() {
  sort -g "$1" | awk '{ a[NR] = $1 * 1000 } END { printf "%.2f %.2f", a[int((NR + 1) / 2)], a[int(NR * 0.95 + 0.999)] }'
}
ttfb() { # base output-file
  curl -sN -o /dev/null -w '%{time_starttransfer}\n' "$1/responses" -H "Authorization: Bearer $OPENAI_API_KEY" \
    -H 'Content-Type: application/json' -d '{"model":"bench-model","input":"tiny","stream":true}' >> "$2"
}

echo "== 1. time to first byte of a tiny streamed answer, ms (median p95 of $((runs * 20)))"
: > "$work/ttfb-direct"
for _ in $(seq $((runs * 20))); do ttfb "$direct" "$work/ttfb-direct"; done
start_proxy sqlite
: > "$work/ttfb-sqlite"
for _ in $(seq $((runs * 20))); do ttfb "$via" "$work/ttfb-sqlite"; done
stop_proxy
start_proxy pg "$(database ttfb)"
: > "$work/ttfb-pg"
for _ in $(seq $((runs * 20))); do ttfb "$via" "$work/ttfb-pg"; done
# The database stopped (as in an outage): the answers go on, the exchanges wait in the local store.
./scripts/postgres.sh pause "$work/cluster"
: > "$work/ttfb-down"
for _ in $(seq $((runs * 20))); do ttfb "$via" "$work/ttfb-down"; done
./scripts/postgres.sh resume "$work/cluster"
sleep 12  # the proxy's push after an outage waits up to 10 s between tries
stop_proxy
read -r d50 d95 <<< "$(stats "$work/ttfb-direct")"
read -r s50 s95 <<< "$(stats "$work/ttfb-sqlite")"
read -r p50 p95 <<< "$(stats "$work/ttfb-pg")"
printf 'direct            %7.2f %7.2f\n' "$d50" "$d95"
printf 'proxy + SQLite    %7.2f %7.2f   (+%.2f)\n' "$s50" "$s95" "$(echo "$s50 - $d50" | bc -l)"
printf 'proxy + Postgres  %7.2f %7.2f   (+%.2f)\n' "$p50" "$p95" "$(echo "$p50 - $d50" | bc -l)"
read -r o50 o95 <<< "$(stats "$work/ttfb-down")"
printf 'Postgres stopped  %7.2f %7.2f   (+%.2f)\n' "$o50" "$o95" "$(echo "$o50 - $d50" | bc -l)"
echo "(in the team store: $(psql "${cluster%/postgres}/ttfb" -Atc 'SELECT count(*) FROM exchange') of $((runs * 40)), the stopped half sent after)"

echo "== 2. inspect push: 2,000 recorded exchanges of about 300 events each"
mkdir -p "$work/push"
start_proxy push
seq 2000 | xargs -P 16 -I{} curl -sN -o /dev/null "$via/responses" -H "Authorization: Bearer $OPENAI_API_KEY" \
  -H 'Content-Type: application/json' -d '{"model":"bench-model","input":"large","stream":true}'
stop_proxy
events=$(OPENRESPONSES_HOME="$work/push" "$ours" inspect list --local --limit 2000 --json \
  | grep -o '"event_count": [0-9]*' | awk '{ s += $2 } END { print s }')
target=$(database push)
start=$(date +%s.%N)
OPENRESPONSES_HOME="$work/push" OPENRESPONSES_INSPECTOR_URL="$target" "$ours" inspect push > /dev/null
seconds=$(echo "$(date +%s.%N) - $start" | bc -l)
printf 'pushed 2000 exchanges, %d events in %.2f s: %.0f exchanges/s, %.0f events/s\n' "$events" "$seconds" \
  "$(echo "2000 / $seconds" | bc -l)" "$(echo "$events / $seconds" | bc -l)"
printf 'storage: %s for 2000 exchanges (%s a table and its indexes: exchange, event)\n' \
  "$(psql "$target" -Atc "SELECT pg_size_pretty(pg_database_size(current_database()))")" \
  "$(psql "$target" -Atc "SELECT pg_size_pretty(pg_total_relation_size('exchange')) || ', ' || pg_size_pretty(pg_total_relation_size('event'))")"

echo "== 3. inspect list --search over 100,000 exchanges in PostgreSQL (ms, median of $runs)"
search=$(database search)
# The schema, as the first command that opens the database makes it.
OPENRESPONSES_HOME="$work/search-home" OPENRESPONSES_INSPECTOR_URL="$search" "$ours" inspect list > /dev/null
# 100,000 exchanges whose texts are 60 words each of a 20,000-word vocabulary (md5-made), as answers vary.
psql "$search" -q <<'SQL'
INSERT INTO exchange (origin, origin_id, started_at, method, url, state, status, streamed, model, event_count,
                      source, attempt, request_headers, request_body, response_headers, search)
SELECT 'bench', n, now() - (n || ' seconds')::interval, 'POST', 'http://127.0.0.1/v1/responses', 'completed', 200,
       true, 'gpt-4.1-mini', 0, 'proxy', 0, '[]', convert_to('{"input":"q' || n || '"}', 'UTF8'), '[]',
       openresponses_search_vector((SELECT string_agg('w' || substr(md5(n::text || '-' || k), 1, 4), ' ')
                                    FROM generate_series(1, 60) k))
FROM generate_series(1, 100000) n;
ANALYZE exchange;
SQL
word=$(psql "$search" -Atc "SELECT word FROM ts_stat('SELECT search FROM exchange WHERE id < 2000') ORDER BY ndoc LIMIT 1")
# time_search WORD: the whole `inspect list --search WORD` command RUNS times; sets q50 and q95 (ms).
time_search() {
  : > "$work/search"
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    OPENRESPONSES_HOME="$work/search-home" OPENRESPONSES_INSPECTOR_URL="$search" "$ours" inspect list --search "$1" \
      > /dev/null
    echo "$(date +%s.%N) - $start" | bc -l >> "$work/search"
  done
  read -r q50 q95 <<< "$(stats "$work/search")"
}
time_search "$word"
printf 'a rare word (%s): median %.1f ms, p95 %.1f ms (the whole command: start, connect, query, print)\n' "$word" "$q50" "$q95"
common=$(psql "$search" -Atc "SELECT word FROM ts_stat('SELECT search FROM exchange WHERE id < 2000') ORDER BY ndoc DESC LIMIT 1")
time_search "$common"
printf 'a common word (%s, in %s exchanges): median %.1f ms, p95 %.1f ms\n' "$common" \
  "$(psql "$search" -Atc "SELECT count(*) FROM exchange WHERE search @@ plainto_tsquery('simple', '$common')")" "$q50" "$q95"

echo "== 4. the proxy holding 200 open streams (the 'slow' answer, 20 s each), pushing to PostgreSQL"
start_proxy hold "$(database hold)"
clients=()
for _ in $(seq 200); do
  curl -sN -o /dev/null "$via/responses" -H "Authorization: Bearer $OPENAI_API_KEY" -H 'Content-Type: application/json' \
    -d '{"model":"bench-model","input":"slow","stream":true}' &
  clients+=($!)
done
sleep 10
open=$(ss -tn state established "( sport = :$(echo "$via" | sed 's|.*:\([0-9]*\)/v1|\1|') )" | tail -n +2 | wc -l)
upstream=$(ss -tn state established "( dport = :$(cat "$work/port") )" | tail -n +2 | wc -l)
wait_peak=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$proxy_pid/status")
wait "${clients[@]}"
sleep 2  # the last pushes
stop_proxy
printf 'open streams at 10 s: %d from clients, %d to the upstream; peak RSS while holding them: %s MB; at the end: %s MB (target ≤ 128 MB)\n' \
  "$open" "$upstream" "$wait_peak" "$peak"
echo "(in the team store: $(psql "${cluster%/postgres}/hold" -Atc 'SELECT count(*) FROM exchange') of 200)"
