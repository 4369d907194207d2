#!/bin/sh
# shard.sh K N HEAD DURATIONS - the live tests of shard K of N.
#
# Reads test names (t-*, one per line) on stdin and prints those shard K
# runs, in the order read.  The shards are balanced by time, not by count:
# DURATIONS lists "NAME SECONDS" as measured in a full test-all (a test it
# does not list counts 60 s), and every test, longest first, goes to the
# shard with the least time so far (longest-processing-time first).
# Shard 1 starts with HEAD seconds already on it: test-all runs Slurm's
# testsuite gate in shard 1's lane after its tests.  Deterministic: ties go
# by name and to the lower shard, so every lane of one run agrees.
set -eu
k=$1 n=$2 head=$3 durations=$4
names=$(cat)
[ -n "$names" ] || exit 0
printf '%s\n' "$names" | awk -v k="$k" -v n="$n" -v head="$head" -v dfile="$durations" '
	BEGIN { while ((getline line < dfile) > 0) {
			split(line, f, " ")
			if (f[1] !~ /^#/ && f[2] ~ /^[0-9]+$/) secs[f[1]] = f[2] } }
	{ order[NR] = $1; w[$1] = ($1 in secs) ? secs[$1] : 60 }
	END {
		m = NR
		for (i = 1; i <= m; i++) byw[i] = order[i]
		for (i = 2; i <= m; i++) {      # insertion sort: longest first, then by name
			x = byw[i]
			for (j = i - 1; j >= 1 && (w[byw[j]] < w[x] ||
			     (w[byw[j]] == w[x] && byw[j] > x)); j--)
				byw[j + 1] = byw[j]
			byw[j + 1] = x
		}
		for (s = 1; s <= n; s++) load[s] = (s == 1) ? head : 0
		for (i = 1; i <= m; i++) {
			best = 1
			for (s = 2; s <= n; s++) if (load[s] < load[best]) best = s
			load[best] += w[byw[i]]
			shard[byw[i]] = best
		}
		for (i = 1; i <= m; i++) if (shard[order[i]] == k) print order[i]
	}'
