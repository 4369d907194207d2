#!/usr/bin/env bash
# sim-metrics.sh - the summary's distributions and the fragmentation
# series end to end.  A hand-made trace whose blocked head, free nodes and
# largest free unit are known on a flat machine and on a fat tree of two
# leaves; on SDSC-SP2 the series' invariants (blocked_free is the free
# count exactly when a job waits, the largest unit never exceeds it), the
# size classes adding up to the runs, the percentiles in order, and
# --frag-csv changing no decision (the same jobs CSV and summary).  The
# progress lines off a terminal: their fields at TOPOSIM_PROGRESS_SECONDS=0,
# none with --quiet or on a short replay by default, a bad value named.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
run() { # OUTPREFIX ARGS...: csv, json, err
	local o=$1
	shift
	"$toposim" "$@" --jobs-csv "$tmp/$o.csv" --summary-json "$tmp/$o.json" 2> "$tmp/$o.err"
}
need_trace
command -v python3 > /dev/null || { echo "FAILED: python3 is needed to read the JSON"; exit 1; }

# 4 nodes: job 1 takes 3 nodes for 100 s at 0; job 2 (2 nodes, at 10)
# waits for it; job 3 (1 node, at 20) would fit but FCFS keeps it behind
# job 2.  At 10 and 20 the head (2 nodes) is blocked with 1 node free.
cat > "$tmp/t.swf" <<'SWF'
; MaxNodes: 4
1 0 -1 100 3 -1 -1 3 100 -1 1 -1 -1 -1 -1 -1 -1 -1
2 10 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1
3 20 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF
if run flat --workload "$tmp/t.swf" --policy fcfs --frag-csv "$tmp/flat.frag"; then ok
else bad "flat replay: $(cat "$tmp/flat.err")"; fi
printf '%s\n' time,free_nodes,queued,head_nodes,blocked_free,largest_free_unit \
	0,1,0,0,0,1 10,1,1,2,1,1 20,1,2,2,1,1 100,1,0,0,0,1 110,4,0,0,0,4 \
	> "$tmp/flat.want"
if diff "$tmp/flat.want" "$tmp/flat.frag" > "$tmp/d"; then ok; else bad "flat series: $(cat "$tmp/d")"; fi

# A tree of two leaves of two: one 1-node job on leaf s0 for 100 s, then
# a 4-node job at 5, blocked with 3 nodes free; the largest free unit is
# the whole leaf s1 (2 nodes), not the 3 free nodes.
printf 'SwitchName=s0 Nodes=n[1-2]\nSwitchName=s1 Nodes=n[3-4]\nSwitchName=top Switches=s[0-1]\n' \
	> "$tmp/tree.conf"
cat > "$tmp/t2.swf" <<'SWF'
; MaxNodes: 4
1 0 -1 100 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1
2 5 -1 10 4 -1 -1 4 10 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF
if run tree --workload "$tmp/t2.swf" --policy fcfs --topology "$tmp/tree.conf" \
	--alloc tree-greedy --frag-csv "$tmp/tree.frag"; then ok
else bad "tree replay: $(cat "$tmp/tree.err")"; fi
has "$tmp/tree.frag" '^5,3,1,4,3,2$' "tree: head of 4 blocked, 3 free, leaf of 2 whole"
has "$tmp/tree.frag" '^100,0,0,0,0,0$' "tree: the 4-node job runs at 100"

# The summary of the flat run: waits 0, 90, 80 (jobs 2 and 3 start at
# 100); response times 100, 100, 90.
python3 - "$tmp/flat.json" > "$tmp/py.out" 2>&1 <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
w = s["wait"]
assert (w["median"], w["p90"], w["p99"], w["max"]) == (80, 90, 90, 90), w
assert abs(w["mean"] - 170 / 3) < 1e-3 and s["mean_wait"] == w["mean"], w
r = s["response_time"]
assert (r["median"], r["max"]) == (100, 100), r
c = s["size_classes"]
assert [x["runs"] for x in c] == [1, 2, 0, 0, 0, 0, 0], c
assert c[0]["wait"]["max"] == 80 and c[1]["wait"]["median"] == 0, c
assert c[1]["wait"]["max"] == 90, c
assert c[1]["min_nodes"] == 2 and c[1]["max_nodes"] == 4, c
assert c[6]["max_nodes"] is None and "wait" not in c[6], c
PY
if [ $? -eq 0 ]; then ok; else bad "flat summary: $(cat "$tmp/py.out")"; fi

# SDSC-SP2 under EASY: the series' invariants, the classes adding up, the
# percentiles in order; the same decisions with and without --frag-csv.
if run easy --workload "$trace" --policy easy --jobs 0:6000 --frag-csv "$tmp/easy.frag" &&
	run plain --workload "$trace" --policy easy --jobs 0:6000; then ok
else bad "SDSC replays: $(cat "$tmp/easy.err" "$tmp/plain.err")"; fi
if cmp -s "$tmp/easy.csv" "$tmp/plain.csv"; then ok; else bad "--frag-csv changed the schedule"; fi
if diff <(grep -v wall_seconds "$tmp/easy.json") <(grep -v wall_seconds "$tmp/plain.json") > "$tmp/d"
then ok; else bad "--frag-csv changed the summary: $(cat "$tmp/d")"; fi
awk -F, 'NR == 1 { next }
	$1 < last { print "time goes back at line " NR; exit 1 }
	{ last = $1 }
	($3 > 0) != ($4 > 0) { print "head without queue at line " NR; exit 1 }
	$5 != ($3 > 0 ? $2 : 0) { print "blocked_free at line " NR; exit 1 }
	$6 != $2 { print "flat largest unit is not the free count at line " NR; exit 1 }
	$3 > 0 { blocked++ }
	END { if (blocked < 100) { print "only " blocked " blocked rows"; exit 1 } }' \
	"$tmp/easy.frag" > "$tmp/awk.out" && ok || bad "SDSC series: $(cat "$tmp/awk.out")"
python3 - "$tmp/easy.json" > "$tmp/py.out" 2>&1 <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert sum(c["runs"] for c in s["size_classes"]) == s["runs"] == 6000, s["runs"]
for part in [s] + [c for c in s["size_classes"] if c["runs"]]:
    for k in ("wait", "bounded_slowdown", "response_time"):
        q = part[k]
        assert q["median"] <= q["p90"] <= q["p95"] <= q["p99"] <= q["max"], (k, q)
assert s["wait"]["max"] > s["wait"]["median"], s["wait"]
PY
if [ $? -eq 0 ]; then ok; else bad "SDSC summary: $(cat "$tmp/py.out")"; fi
# the one-line summary names the median and tail of wait
has "$tmp/easy.err" 'mean wait [0-9]+ s \(median [0-9]+, p95 [0-9]+, p99 [0-9]+\)' "summary line"

# On a fat tree of 128 nodes (4 leaves of 32 under one switch): the
# largest free unit is at most the free count, and the whole machine
# when every node is free.
for i in 1 2 3 4; do echo "SwitchName=l$i Nodes=n[$((32 * i - 31))-$((32 * i))]"; done > "$tmp/ft.conf"
echo "SwitchName=top Switches=l[1-4]" >> "$tmp/ft.conf"
if run ft --workload "$trace" --policy easy --jobs 0:3000 --topology "$tmp/ft.conf" \
	--frag-csv "$tmp/ft.frag"; then ok; else bad "tree SDSC: $(cat "$tmp/ft.err")"; fi
awk -F, 'NR > 1 && ($6 > $2 || ($2 == 128) != ($6 == 128) || ($2 > 0 && $6 == 0)) { print "line " NR ": " $0; bad = 1 }
	END { exit bad }' "$tmp/ft.frag" > "$tmp/awk.out" && ok || bad "tree series: $(head -3 "$tmp/awk.out")"

# --frag-csv follows one replay
"$toposim" --workload "$tmp/t.swf" --policy fcfs --windows 2@0,1 --frag-csv "$tmp/x" \
	--jobs-csv /dev/null --summary-json /dev/null 2> "$tmp/w.err"
[ $? -eq 2 ] && ok || bad "--frag-csv with --windows accepted"
has "$tmp/w.err" "--frag-csv follows one replay" "--windows message"

# Progress off a terminal (stderr is a file here): lines with every field
# at interval 0, a last one marked done; none with --quiet; none by
# default on a replay far shorter than the default 10 s.
TOPOSIM_PROGRESS_SECONDS=0 run prog --workload "$trace" --policy easy --jobs 0:3000 || bad "progress run"
n=$(grep -cE '^toposim: progress: easy: simulated [0-9]+ s \(day [0-9]+\.[0-9]\), [0-9]+/3000 jobs \([0-9]+\.[0-9]%\), [0-9]+ jobs/s, ETA [0-9?:]+' "$tmp/prog.err")
[ "$n" -ge 10 ] && ok || bad "progress lines: $n in $(head -5 "$tmp/prog.err")"
has "$tmp/prog.err" '3000/3000 jobs \(100\.0%\).*ETA 0:00 \(done\)$' "last progress line"
if grep -q 'progress:' "$tmp/prog.err" && grep -q 'progress:' <(tail -n 1 "$tmp/prog.err"); then
	bad "the summary line does not come after the progress lines"; else ok; fi
TOPOSIM_PROGRESS_SECONDS=0 run progq --workload "$trace" --policy easy --jobs 0:3000 --quiet || bad "quiet run"
hasnt "$tmp/progq.err" 'progress' "--quiet"
run progd --workload "$tmp/t.swf" --policy fcfs || bad "default run"
hasnt "$tmp/progd.err" 'progress' "a short replay by default"
TOPOSIM_PROGRESS_SECONDS=soon run progbad --workload "$tmp/t.swf" --policy fcfs
[ $? -eq 1 ] && ok || bad "a bad TOPOSIM_PROGRESS_SECONDS accepted"
has "$tmp/progbad.err" "TOPOSIM_PROGRESS_SECONDS='soon': expected a number of seconds >= 0" "bad interval named"

sim_done sim-metrics
