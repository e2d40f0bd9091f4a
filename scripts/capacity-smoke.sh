#!/bin/sh
# The CI capacity smoke (for .ci/run): the built executable's hot routes beside a
# bare handler serving the same bytes, CPU per request as a ratio measured in this
# run, against the ratio recorded in bench/capacity-smoke.json. Fails (exit 1) only
# when the ratio is more than 1.5× the record. About a minute, most of it the
# local instance's boot and first daily scan.
#   scripts/capacity-smoke.sh            check
#   scripts/capacity-smoke.sh --record   write this machine's ratio as the record
set -eu
cd "$(dirname "$0")/.."
[ -x dist/breakline ] || npm run --silent build
exec dist/breakline capacity --smoke --baseline bench/capacity-smoke.json --time-limit 90 "$@"
