#!/bin/sh
# The CI capacity smoke (for .ci/run): the built executable's hot routes beside a
# bare handler serving the same bytes, CPU per request as a ratio measured in this
# run, against the ratio recorded in bench/capacity-smoke.json. Fails (exit 1) only
# when the ratio is more than 1.5× the record. Under a minute: the executable is
# built only when a source is newer than it (5 s), and most of the rest is the
# local instance's boot and first daily scan (docs/capacity.md § The CI smoke).
#   scripts/capacity-smoke.sh            check
#   scripts/capacity-smoke.sh --record   write this machine's ratio as the record
set -eu
cd "$(dirname "$0")/.."
if [ ! -x dist/breakline ] || [ -n "$(find src workers drizzle scripts/build.ts package.json bun.lock -newer dist/breakline -print -quit 2>/dev/null)" ]; then
  npm run --silent build
fi
exec dist/breakline capacity --smoke --baseline bench/capacity-smoke.json --time-limit 90 "$@"
