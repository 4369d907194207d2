#!/usr/bin/env bash
# sim-torus-h2h.sh - contrib/torus-head-to-head.sh end to end in its --sim
# mode (the live grid's streams through toposim): the placement lists it
# prints, a real trace's size mix whose sizes with no box torus3d refuses
# and ours run, the records and the summary's tables, and bad options
# refused.  The live grid itself runs by hand (doc/results.md).
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/sim-lib.sh
. "$here/sim-lib.sh"
need_trace
h2h=$here/../contrib/torus-head-to-head.sh
toposim=$(realpath "$toposim")
rec=$tmp/records

if TP_SHARED_DATA=$data "$h2h" --sim "$toposim" --seeds 7 --loads heavy --mixes "pow2 sdsc" \
	--methods "compact torus3d-rotations torus3d-one" --jobs 40 --records "$rec" \
	>"$tmp/out" 2>"$tmp/err"; then ok; else bad "the --sim grid failed: $(cat "$tmp/err")"; fi

# the lists, as torus3d reads them (x, y, z), printed before the tables
has "$tmp/out" '^  pow2, one: 1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2 4x4x4$' "pow2's one-orientation list"
has "$tmp/out" '^  pow2, rotations: 1x1x1 2x1x1 1x1x2 1x2x1 2x2x1 1x2x2 2x1x2 2x2x2 4x2x2 2x2x4 2x4x2 4x4x2 2x4x4 4x2x4 4x4x4$' \
	"pow2's rotations: every distinct rotation, the given one first"
has "$tmp/out" '^  sdsc, one: 1x1x1 2x1x1 3x1x1 2x2x1 3x2x1 2x2x2 3x3x1 3x2x2 4x2x2 3x3x2 4x3x2 3x3x3 4x4x2 4x3x3 4x4x3 4x4x4$' \
	"sdsc's list: every size of SDSC-SP2 halved that has a box on 4x4x4"

# 40 jobs per plugin and mix; no-box sizes refused by torus3d alone
for p in compact torus3d-rotations torus3d-one; do
	for mix in pow2 sdsc; do
		n=$(awk -v p="$p" -v m="$mix" '$1 == p && $4 == m' "$rec" | wc -l)
		[ "$n" = 40 ] && ok || bad "$p $mix: $n records, not 40"
	done
done
nobox=" 5 7 10 11 13 14 15 17 19 20 21 22 23 25 26 28 29 30 31 33 34 35 37 38 39 40 41 42 43 44 45 46 47 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 "
refused=$(awk '$4 == "sdsc" && $1 == "torus3d-one" && $11 == "REFUSED" { print $6 }' "$rec" | sort -n | paste -sd' ')
want=$(awk '$4 == "sdsc" && $1 == "torus3d-one" { print $6 }' "$rec" | while read -r s; do
	[[ $nobox == *" $s "* ]] && echo "$s"; done | sort -n | paste -sd' ')
[ -n "$want" ] && ok || bad "the sdsc stream of seed 7 has no size without a box: it tests nothing"
[ "$refused" = "$want" ] && ok || bad "torus3d refused sizes '$refused', the sizes without a box are '$want'"
[ "$(awk '$1 == "compact" && $11 == "REFUSED"' "$rec" | wc -l)" = 0 ] && ok ||
	bad "compact refused a job (Shapeless=pack runs every size)"
[ "$(awk '$1 == "compact" && $4 == "pow2" && $6 > 1 && $14 != 1' "$rec" | wc -l)" = 0 ] && ok ||
	bad "a multi-node pow2 job of compact is not on a box"

# the tables: refused counted, the common wait where torus3d refused
has "$tmp/out" '^sdsc sizes, heavy load \(1 seeds, 40 jobs per plugin, [0-9]+ run by every plugin\)$' "sdsc's table head"
has "$tmp/out" '\| mean wait, jobs every plugin ran \(s\) \|' "sdsc's common-wait column"
has "$tmp/out" "^\\| Slurm torus3d, one list \\|.* \\| 0 \\| $(echo "$want" | wc -w) \\|\$" "torus3d's refused count"
has "$tmp/out" '^\| torus compact \|.* \| 0 \| 0 \|$' "compact refused none"
hasnt "$tmp/out" '^pow2 sizes.*run by every plugin' "pow2: every plugin ran every job"
python3 "$here/../contrib/torus-h2h-summary.py" "$rec" >"$tmp/again" 2>&1
sed -n '/^Means over seeds/,$p' "$tmp/out" | cmp -s - "$tmp/again" && ok ||
	bad "--summary of the records is not the grid's own tables"

# bad options: named, non-zero
for a in "--mixes squares" "--methods torus3d-cubes" "--torus3d-list spirals" "--jobs 0"; do
	# shellcheck disable=SC2086
	if "$h2h" --sim "$toposim" $a >/dev/null 2>"$tmp/err"; then
		bad "$a accepted"
	else
		has "$tmp/err" "^torus-head-to-head: ${a%% *}: " "$a named"
	fi
done
sim_done sim-torus-h2h
