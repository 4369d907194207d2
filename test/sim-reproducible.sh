#!/usr/bin/env bash
# sim-reproducible.sh - toposim's fcfs and easy schedules of the real
# SDSC-SP2 and lublin_256 traces are identical run to run (per-job CSV and
# summary, less the wall-clock field), and sane: every job of the trace
# appears once, no job starts before its submit time.  On a torus, every
# torus method (base under both BaseShapes= readings, fs, mss, anchor)
# gives the same schedule run to run.
set -euo pipefail
toposim=${TOPOSIM:-./src/sim/toposim}
data=${TP_SHARED_DATA:-$(dirname "$0")/../data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { if "$@"; then pass=$((pass + 1)); else echo "FAILED: $*"; fail=$((fail + 1)); fi; }

for trace in SDSC-SP2-1998-4.2-cln lublin_256; do
	f=$data/traces/$trace.swf.gz
	for p in fcfs easy; do
		for run in 1 2; do
			"$toposim" --workload "$f" --policy "$p" --quiet \
				--jobs-csv "$tmp/$trace-$p-$run.csv" \
				--summary-json "$tmp/$trace-$p-$run.json"
			grep -v wall_seconds "$tmp/$trace-$p-$run.json" > "$tmp/$trace-$p-$run.sum"
		done
		check cmp -s "$tmp/$trace-$p-1.csv" "$tmp/$trace-$p-2.csv"
		check cmp -s "$tmp/$trace-$p-1.sum" "$tmp/$trace-$p-2.sum"
		jobs=$(sed -n 's/^  "jobs": \([0-9]*\),$/\1/p' "$tmp/$trace-$p-1.json")
		rows=$(($(wc -l < "$tmp/$trace-$p-1.csv") - 1))
		check test "$rows" -eq "$jobs"
		ids=$(tail -n +2 "$tmp/$trace-$p-1.csv" | cut -d, -f1 | sort -u | wc -l)
		check test "$ids" -eq "$jobs"
		early=$(awk -F, 'NR > 1 && $3 < $2' "$tmp/$trace-$p-1.csv" | wc -l)
		check test "$early" -eq 0
	done
	# Backfilling must not lose to FCFS on mean wait on these traces.
	wf=$(sed -n 's/^  "mean_wait": \(.*\),$/\1/p' "$tmp/$trace-fcfs-1.json")
	we=$(sed -n 's/^  "mean_wait": \(.*\),$/\1/p' "$tmp/$trace-easy-1.json")
	check awk -v e="$we" -v f="$wf" 'BEGIN { exit !(e < f) }'
done
# Every torus method on SDSC-SP2's first 5,000 jobs (128 nodes as 8x4x4,
# window-ff with W = 4, the Angara experiment's policy), twice each.
printf 'Dimensions=8x4x4\nNodes=n[1-128]\n' > "$tmp/torus.conf"
printf 'Dimensions=8x4x4\nNodes=n[1-128]\nBaseShapes=canonical\n' > "$tmp/canonical.conf"
f=$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
torus_run() { # NAME CONF ARGS...
	local name=$1 conf=$2 run
	shift 2
	for run in 1 2; do
		"$toposim" --workload "$f" --jobs 0:5000 --policy window-ff --window 4 \
			--torus "$conf" "$@" --quiet --jobs-csv "$tmp/$name-$run.csv" \
			--summary-json "$tmp/$name-$run.json"
		grep -v wall_seconds "$tmp/$name-$run.json" > "$tmp/$name-$run.sum"
	done
	check cmp -s "$tmp/$name-1.csv" "$tmp/$name-2.csv"
	check cmp -s "$tmp/$name-1.sum" "$tmp/$name-2.sum"
	rows=$(($(wc -l < "$tmp/$name-1.csv") - 1))
	check test "$rows" -eq 5000
}
torus_run base-all "$tmp/torus.conf" --alloc torus-base
torus_run base-canonical "$tmp/torus.conf" --alloc torus-base --base-shapes canonical
torus_run base-conf "$tmp/canonical.conf" --alloc torus-base
torus_run fs "$tmp/torus.conf" --alloc torus-fs
torus_run mss "$tmp/torus.conf" --alloc torus-mss
torus_run anchor "$tmp/torus.conf" --alloc torus-anchor
# the reading reaches the allocator: canonical base is another schedule,
# the same whether torus.conf or --base-shapes asks for it
differ() { ! cmp -s "$1" "$2"; }
check differ "$tmp/base-all-1.csv" "$tmp/base-canonical-1.csv"
check cmp -s "$tmp/base-canonical-1.csv" "$tmp/base-conf-1.csv"
check differ "$tmp/anchor-1.csv" "$tmp/base-all-1.csv"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
