# Shared by the benchmark scripts that run a benchmark binary several times and read its `key=value` lines.
# median: the median of the numbers on stdin, one per line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# field KEY: the value of `KEY=value` (KEY whole, at the start of the line or after a space) in each line on stdin.
field() { sed -n "s/\(^\|.* \)$1=\([^ ]*\).*/\2/p"; }
# start_loopback WORK: builds openresponses and openresponses-loopback as the README installs them, starts the
# loopback server (its port in WORK/port, killed at exit, WORK removed), and points the console at it with an empty
# home (WORK/home, presets in WORK/home/presets). Sets `ours` to the binary.
start_loopback() {
  work=$1
  ours=$(./scripts/build-release.sh)
  ./scripts/build-release.sh openresponses-loopback > /dev/null
  "$(dirname "$ours")/openresponses-loopback" "$work/port" & server=$!
  trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
  export OPENRESPONSES_HOME="$work/home" OPENAI_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1" OPENAI_API_KEY=sk-bench
  mkdir -p "$work/home/presets"
}
