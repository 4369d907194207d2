#!/usr/bin/env bash
# sim-latency.sh - toposim --latency START,RELEASE (Slurm's own per-job
# latency): on one node, job 1 (submitted at 0, runs 100 s, limit 200 s)
# and job 2 (submitted at 10, runs 50 s).  Without latency they start at
# 0 and 100.  --latency 0,7 keeps job 1's nodes 7 s past its end: job 2
# starts at 107, job 1's record still ends at 100.  --latency 3,0 starts
# each job 3 s after it could: job 1 at 3, job 2 when job 1 ends (103).
# Its records keep the submit times.  A bad value is a usage error.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

cat > "$tmp/two.swf" <<'EOF2'
; MaxNodes: 1
; MaxProcs: 1
1 0 -1 100 1 -1 -1 1 200 -1 1 1 1 -1 1 -1 -1 -1
2 10 -1 50 1 -1 -1 1 200 -1 1 1 1 -1 1 -1 -1 -1
EOF2
run() { # OUTPREFIX ARGS...
	local o=$1
	shift
	"$toposim" --workload "$tmp/two.swf" --nodes 1 --policy easy --check "$@" \
		--jobs-csv "$tmp/$o.csv" --summary-json "$tmp/$o.json" 2> "$tmp/$o.err"
}
field() { awk -F, -v id="$2" -v f="$3" '$1 == id { print $f }' "$tmp/$1.csv"; }
expect() { # PREFIX ID FIELD VALUE WHAT
	local v
	v=$(field "$1" "$2" "$3")
	[ "$v" = "$4" ] && ok || bad "$5: job $2 field $3 is '$v', not $4 ($(cat "$tmp/$1.err"))"
}

run none || bad "no latency: $(cat "$tmp/none.err")"
expect none 2 3 100 "no latency"
run release --latency 0,7 || bad "--latency 0,7: $(cat "$tmp/release.err")"
expect release 1 4 100 "--latency 0,7: job 1's record ends at its own end"
expect release 2 3 107 "--latency 0,7: job 2 waits for the release"
expect release 2 2 10 "--latency 0,7: job 2's record keeps its submit"
run start --latency 3,0 || bad "--latency 3,0: $(cat "$tmp/start.err")"
expect start 1 3 3 "--latency 3,0: job 1 starts 3 s after its submission"
expect start 1 2 0 "--latency 3,0: job 1's record keeps its submit"
expect start 2 3 103 "--latency 3,0: job 2 at job 1's end"
cmp -s "$tmp/none.csv" <(run zero --latency 0,0 && cat "$tmp/zero.csv") && ok ||
	bad "--latency 0,0 differs from no latency"
for v in 1 -1,0 0,3601 a,b 1,2,3; do
	run bad --latency "$v" && bad "--latency $v accepted"
	has "$tmp/bad.err" "--latency: expected START,RELEASE" "--latency $v refused"
done
sim_done sim-latency
