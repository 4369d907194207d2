#!/usr/bin/env bash
# sim-reproducible.sh - toposim's fcfs and easy schedules of the real
# SDSC-SP2 and lublin_256 traces are identical run to run (per-job CSV and
# summary, less the wall-clock field), and sane: every job of the trace
# appears once, no job starts before its submit time.
set -euo pipefail
toposim=${TOPOSIM:-./src/sim/toposim}
data=${TP_SHARED_DATA:-$(dirname "$0")/../../shared/data}
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
