# Shared by the benchmark scripts that run a benchmark binary several times and read its `key=value` lines.
# median: the median of the numbers on stdin, one per line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# field KEY: the value of `KEY=value` (KEY whole, at the start of the line or after a space) in each line on stdin.
field() { sed -n "s/\(^\|.* \)$1=\([^ ]*\).*/\2/p"; }
