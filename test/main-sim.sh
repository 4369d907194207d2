#!/usr/bin/env bash
# main-sim.sh - the simulator part of the main job (contrib/sim-main.sh,
# which contrib/run-main.sh runs first) as a reader sees it: no warning
# line (each policy gets only the settings it reads), a line saying what
# to read above each table, and a heterogeneous table that tells the
# policies apart: OLB, min-min and min-max three different totals, SJS
# the better of min-min and min-max, PJS below SJS with some jobs run in
# parallel.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
need_trace
src=${TOPO_SRCDIR:-$sim_here/..}
b=${TOPO_BUILDDIR:-.}
if "$src/contrib/sim-main.sh" "$b" "$data" >"$tmp/out" 2>&1; then ok; else
	bad "contrib/sim-main.sh failed: $(tail -n 5 "$tmp/out")"; fi
hasnt "$tmp/out" "[Ww]arning" "a warning in the main job's output"
if [ "$(grep -c '^   read: ' "$tmp/out")" = 2 ]; then ok; else
	bad "not one 'read:' line per table: $(grep -c '^   read: ' "$tmp/out")"; fi
# the table: policy total parallel%
tot() { awk -v p="$1" '$1 == p { print $2 }' "$tmp/out"; }
olb=$(tot olb) mm=$(tot min-min) mx=$(tot min-max) sjs=$(tot sjs) pjs=$(tot pjs)
par=$(awk '$1 == "pjs" { sub(/%/, "", $3); print $3 }' "$tmp/out")
if [ -n "$olb" ] && [ "$olb" != "$mm" ] && [ "$olb" != "$mx" ] && [ "$mm" != "$mx" ]; then ok; else
	bad "OLB, min-min, min-max not apart: $olb $mm $mx"; fi
if [ "$sjs" = "$(( mm < mx ? mm : mx ))" ]; then ok; else bad "SJS $sjs is not the better of $mm and $mx"; fi
if [ -n "$pjs" ] && [ "$pjs" -lt "$sjs" ] && awk -v p="$par" 'BEGIN { exit !(p > 0) }'; then ok; else
	bad "PJS $pjs ($par% parallel) not below SJS $sjs"; fi
sim_done main-sim
