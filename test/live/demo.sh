#!/bin/bash
# Live test (t-demo-24.11.sh, t-demo-26.05.sh): the main job's live part,
# contrib/head-to-head.sh over contrib/fattree-demo.sh, on a short stream.
#
# Two 64-node fat-tree clusters of Slurm LIVE_SLURM run side by side, one
# with our topology/fattree, one with Slurm's own topology/tree (both
# select/cons_tres + sched/backfill, whole nodes), and get the same seeded
# stream of 8 jobs of 1..24 nodes, one every 0-1 s.  Checked from the
# per-job records (--records) and the printed tables:
#  - every job ran and completed on both clusters, on as many nodes as it
#    asked for, and no node ran two jobs at once (whole-node partition);
#  - both clusters got the same stream: the sizes and sleeps this seed
#    gives (the generator re-done here), submit times at most 1 s apart;
#  - each job's hop sum is ftconf's for its node list, and the table's run
#    row and the line naming where Slurm's tree won match the records.
LIVE_SLURM=${LIVE_SLURM:-24.11}
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
live_needs toposim ftconf topology_fattree

JOBS=8 SEED=7
srcdir=$(cd "$LIVE_SRCDIR/../.." && pwd)
work=$(mktemp -d "${LIVE_TMPDIR:-${TMPDIR:-/tmp}}/topo-$LIVE_NAME.XXXXXX")
trap 'rm -rf "$work"' EXIT
rec=$work/records
"$FTCONF" generate --levels 3 --width 4 -o "$work/tree.conf" || bail_out "ftconf generate failed"

out=$("$srcdir/contrib/head-to-head.sh" "$TOPO_BUILDDIR" --slurm "$LIVE_SLURM" --seeds "$SEED" \
	--loads heavy --mixes odd --jobs "$JOBS" --records "$rec" 2>"$work/err") && rc=0 || rc=$?
assert_eq 0 "$rc" "head-to-head.sh --slurm $LIVE_SLURM exits 0" ||
	{ tail -n 30 "$work/err" | diag_block; bail_out "no run to check"; }
printf '%s\n' "$out" | diag_block

# Records: 1 topology 2 seed 3 load 4 mix 5 job 6 nodes 7 sleep 8 submit
# 9 start 10 end 11 state 12 nodelist 13 hops.
for t in topology/fattree topology/tree; do
	assert_eq "$JOBS" "$(awk -v t="$t" '$1 == t' "$rec" | wc -l)" "$t: $JOBS jobs recorded"
	assert_eq "" "$(awk -v t="$t" '$1 == t && $11 != "COMPLETED" { print $5, $11 }' "$rec")" \
		"$t: every job COMPLETED"
done

# The seed's stream: three draws per job (size, sleep, gap), as fattree-demo.sh.
# (seeded inside the command substitution: a subshell reseeds RANDOM)
want=$(RANDOM=$SEED; for ((i = 1; i <= JOBS; i++)); do
	r=$RANDOM
	echo "$i $((1 + r % 24)) $((3 + RANDOM % 8))"
	: $RANDOM
done)
for t in topology/fattree topology/tree; do
	assert_eq "$want" "$(awk -v t="$t" '$1 == t { print $5, $6, $7 }' "$rec")" \
		"$t: the sizes and sleeps of seed $SEED"
done
assert_eq "" "$(join <(awk '$1 == "topology/fattree" { print $5, $8 }' "$rec") \
	<(awk '$1 == "topology/tree" { print $5, $8 }' "$rec") |
	awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > 1) print "job " $1 ": " $2 " vs " $3 }')" \
	"both clusters got each job within 1 s"

# Node lists of n<number> names, expanded one per line.
expand() {
	awk -v l="$1" 'BEGIN {
		if (l !~ /\[/) { print l; exit }
		sub(/^n\[/, "", l); sub(/\]$/, "", l)
		n = split(l, r, ",")
		for (i = 1; i <= n; i++)
			if (split(r[i], b, "-") == 2) { for (k = b[1] + 0; k <= b[2] + 0; k++) print "n" k }
			else print "n" r[i]
	}'
}
for t in topology/fattree topology/tree; do
	bad="" uses=""
	while read -r job n start end nl; do
		got=$(expand "$nl" | sort -u | wc -l)
		[ "$got" = "$n" ] || bad+=" job $job: $n nodes asked, $got in $nl;"
		uses+=$(expand "$nl" | awk -v s="$start" -v e="$end" -v j="$job" '{ print $1, s, e, j }')$'\n'
	done < <(awk -v t="$t" '$1 == t { print $5, $6, $9, $10, $12 }' "$rec")
	assert_eq "" "$bad" "$t: every job on as many nodes as it asked for"
	# Sorted by node and start: a node's next job starts when the last ended.
	assert_eq "" "$(printf '%s' "$uses" | sort -k1,1 -k2,2n |
		awk '$1 == node && $2 < end { print $1 ": job " j " until " end ", job " $4 " from " $2 }
			{ node = $1; end = $3; j = $4 }')" "$t: no node ran two jobs at once"
	assert_eq "$(awk -v t="$t" '$1 == t { print $12 }' "$rec" | "$FTCONF" hopsum --topology "$work/tree.conf")" \
		"$(awk -v t="$t" '$1 == t { print $13 }' "$rec")" "$t: each job's hop sum is ftconf's for its nodes"
done

# The tables agree with the records.
ho=$(awk '$1 == "topology/fattree" { s += $13 } END { print s }' "$rec")
ht=$(awk '$1 == "topology/tree" { s += $13 } END { print s }' "$rec")
assert_match "\\| heavy \\| odd \\| $SEED \\| $JOBS \\| $ho \\| $ht \\| .*" \
	"$(grep -m1 "^| heavy | odd | $SEED |" <<<"$out")" "the run's row: hop sums $ho (ours) and $ht (tree)"
if [ "$ht" -lt "$ho" ]; then won="heavy load, odd sizes, seed $SEED ($ht vs $ho)"; else won="no run"; fi
assert_eq "Slurm's tree had the lower hop sum in: $won" "$(grep "^Slurm's tree had the lower hop sum" <<<"$out")" \
	"where Slurm's tree won: $won"

done_testing
