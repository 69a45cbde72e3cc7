#!/bin/sh
# Handler for the local_time function tool: reads {"timezone": "..."} on stdin, prints the local time
# there. It only reads the clock.
input=$(cat)
zone=$(printf '%s' "$input" | sed -n 's/.*"timezone"[[:space:]]*:[[:space:]]*"\([A-Za-z0-9_+\/-]*\)".*/\1/p')
[ -n "$zone" ] || zone=UTC
if [ ! -e "/usr/share/zoneinfo/$zone" ] && [ "$zone" != UTC ]; then
  printf '{"error":"unknown time zone %s"}\n' "$zone"
  exit 0
fi
printf '{"timezone":"%s","local_time":"%s"}\n' "$zone" "$(TZ="$zone" date '+%Y-%m-%dT%H:%M:%S%z')"
