#!/usr/bin/env bash
# Builds openresponses as the README installs it and the benchmarks measure it, and prints the binary's path:
# release; the Swift runtime linked statically (about 11 ms less start-up than dynamic linking); concrete
# generic types' metadata reached through accessors instead of looked up by mangled name, so that a start
# does not make the runtime check each one's conformances by scanning the binary's 11,000 conformance records
# (28 % fewer instructions and about 2–3 ms less per tiny `ask`: Docs/performance.md). In its own scratch
# directory ($OPENRESPONSES_STATIC_SCRATCH, default .build/static), beside the debug build the tests use.
# With a product's name, that product instead (a benchmark's helper built with the same flags reuses the modules
# already built for the binary, instead of a second release tree).
# With --team, the TeamInspector trait too (the inspector's PostgreSQL engine, Docs/team.md), in a scratch directory of
# its own (.build/static-team), so that neither build undoes the other.
#   scripts/build-release.sh [--team] [PRODUCT]     → prints e.g. /path/to/checkout/.build/static/x86_64-unknown-linux-gnu/release/openresponses
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${OPENRESPONSES_STATIC_SCRATCH:-.build/static}
traits=()
if [ "${1:-}" = --team ]; then
  shift
  scratch=${OPENRESPONSES_STATIC_SCRATCH:-.build/static-team}
  traits=(--traits TeamInspector)
fi
flags=(-c release --static-swift-stdlib --scratch-path "$scratch" "${traits[@]}"
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
product=${1:-openresponses}
# The output goes through a pipe, never to a terminal: SwiftPM passes -color-diagnostics to the compiler only when
# its output is a terminal, and a changed flag rebuilds every module (swiftlang/swift-package-manager#8253), so a
# build from a terminal and then one from a script (or the other way round) compiled the whole tree twice.
swift build "${flags[@]}" --product "$product" 2>&1 | cat >&2
bin=$(swift build "${flags[@]}" --show-bin-path)
echo "$bin/$product"
