#!/usr/bin/env bash
# The proxy's question before each request of a user with a budget (`InspectorStore.spent`): the sum of a
# user's `cost_usd` since a time, over a store of 20,000 exchanges of four users with 50 KB of bodies each
# (`cost_usd` after the bodies, as in the real table), with migration v16's first index (user, started_at) and
# with the covering one it shipped with (user, started_at, cost_usd). Milliseconds per query, warm cache.
#   Benchmarks/spend.sh [ROWS]     (default 20000; about 1 GB in a temporary folder)
set -euo pipefail
rows=${1:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$rows" <<'PY'
import os, sqlite3, sys, time
work, rows = sys.argv[1], int(sys.argv[2])
indexes = {
    "(user, started_at)": "CREATE INDEX exchange_user ON exchange(user, started_at) WHERE user IS NOT NULL",
    "(user, started_at, cost_usd)":
        "CREATE INDEX exchange_user ON exchange(user, started_at, cost_usd) WHERE user IS NOT NULL",
}
query = "SELECT COALESCE(SUM(cost_usd), 0) FROM exchange WHERE user = ? AND started_at >= ?"
for name, index in indexes.items():
    db = sqlite3.connect(os.path.join(work, "store.sqlite"))
    db.execute("DROP TABLE IF EXISTS exchange")
    db.execute("CREATE TABLE exchange (id INTEGER PRIMARY KEY, started_at TEXT, request_body TEXT, "
               "response_body BLOB, cost_usd REAL, user TEXT)")
    db.execute(index)
    body = "x" * 20000
    db.executemany(
        "INSERT INTO exchange (started_at, request_body, response_body, cost_usd, user) VALUES (?, ?, ?, ?, ?)",
        ((f"2026-11-{1 + i * 28 // rows:02d} 12:00:{i % 60:02d}.000", body, os.urandom(30000), 0.001,
          ("alice", "bob", "carol", "dave")[i % 4]) for i in range(rows)))
    db.commit()
    for since, what in (("2026-11-28", "the last day"), ("2026-11-01", "the whole month")):
        alice = db.execute("SELECT count(*) FROM exchange WHERE user = 'alice' AND started_at >= ?", (since,)).fetchone()[0]
        db.execute(query, ("alice", since)).fetchone()
        start = time.perf_counter()
        for _ in range(200):
            db.execute(query, ("alice", since)).fetchone()
        ms = (time.perf_counter() - start) / 200 * 1000
        print(f"index {name:30} {what:16} ({alice:5} of alice's exchanges): {ms:8.3f} ms")
    db.close()
PY
