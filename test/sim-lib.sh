# sim-lib.sh - sourced by the test/sim-*.sh scripts: the toposim under
# test, the traces of data/, a scratch directory removed at exit, and the
# count of checks passed and failed.
set -uo pipefail
toposim=${TOPOSIM:-./src/sim/toposim}
sim_here=$(dirname "${BASH_SOURCE[0]}")
data=${TP_SHARED_DATA:-$sim_here/../data}
trace=$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
# has FILE REGEX WHAT / hasnt FILE REGEX WHAT: a check on a file's lines.
has() { if grep -qE -- "$2" "$1"; then ok; else bad "$3: '$2' not in $(cat "$1")"; fi; }
hasnt() { if grep -qE -- "$2" "$1"; then bad "$3: '$2' in $(cat "$1")"; else ok; fi; }
# json KEY FILE: a whole-number top-level value of a summary JSON.
json() { sed -n "s/^  \"$1\": \([0-9]*\),\$/\1/p" "$2"; }
# need_trace: SDSC-SP2 must be there (a test that cannot run fails).
need_trace() { [ -r "$trace" ] || { echo "FAILED: no trace $trace (TP_SHARED_DATA)"; exit 1; }; }
# sim_done [NAME]: the counts; the exit status says whether all passed.
sim_done() { echo "${1:+$1: }$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
