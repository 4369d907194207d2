#!/usr/bin/env bash
# sim-cli.sh - toposim's command line: required options, bad values named
# in the error, malformed input named by file and line, "-" and /dev/null
# as outputs, --plot producing both charts.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

cat > "$tmp/t.swf" <<'SWF'
; MaxNodes: 4
; MaxProcs: 4
1 0 -1 10 3 -1 -1 3 10 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 5 2 -1 -1 2 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 2 -1 3 1 -1 -1 1 3 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF

# expect_fail PATTERN ARGS... : exit status 2 or 1 and PATTERN on stderr.
expect_fail() {
	local pat=$1
	shift
	if "$toposim" "$@" > /dev/null 2> "$tmp/err"; then
		bad "toposim $* succeeded"
	elif grep -q -- "$pat" "$tmp/err"; then
		ok
	else
		bad "toposim $*: stderr lacks '$pat': $(cat "$tmp/err")"
	fi
}
expect_fail "--policy is required" --workload "$tmp/t.swf" --jobs-csv - --summary-json /dev/null
# Policy settings come from the core's settings table: same ranges and
# messages as sched/topo's topo_ keys.
expect_fail "--window: '0' is not a whole number from 1 to 1000000" --workload "$tmp/t.swf" \
	--policy window-ff --window 0 --jobs-csv - --summary-json /dev/null
expect_fail "--policy: unknown policy 'nope'; valid: fcfs, easy" --workload "$tmp/t.swf" --policy nope \
	--jobs-csv - --summary-json /dev/null
expect_fail "--rbhar-requeue: 'maybe' is not yes or no" --workload "$tmp/t.swf" --policy rb-har \
	--rbhar-requeue maybe --jobs-csv - --summary-json /dev/null
expect_fail "--rbhar-factor: '0.5' is not a number from 1 to 1e+06" --workload "$tmp/t.swf" \
	--policy rb-har --rbhar-factor 0.5 --jobs-csv - --summary-json /dev/null
expect_fail "unknown allocator 'nope'" --workload "$tmp/t.swf" --policy easy --alloc nope \
	--jobs-csv - --summary-json /dev/null
expect_fail "$tmp/missing.swf" --workload "$tmp/missing.swf" --policy easy --jobs-csv - --summary-json /dev/null
cp "$tmp/t.swf" "$tmp/bad.swf"
echo "4 3 -1 x 1 -1 -1 1 3 -1 1 -1 -1 -1 -1 -1 -1 -1" >> "$tmp/bad.swf"
expect_fail "bad.swf:6" --workload "$tmp/bad.swf" --policy easy --jobs-csv - --summary-json /dev/null
# --lenient skips and counts the malformed line instead.
if "$toposim" --workload "$tmp/bad.swf" --lenient --policy easy --quiet --jobs-csv /dev/null \
	--summary-json - | grep -q '"malformed": 1'; then ok; else bad "--lenient count"; fi

# The summary line says what was skipped and why; a .gz cut short says
# "truncated", not that its last line is malformed.
cp "$tmp/bad.swf" "$tmp/skips.swf"
echo "5 4 -1 0 1 -1 -1 1 3 -1 1 -1 -1 -1 -1 -1 -1 -1" >> "$tmp/skips.swf"
err=$("$toposim" --workload "$tmp/skips.swf" --lenient --policy easy --jobs-csv /dev/null \
	--summary-json /dev/null 2>&1 >/dev/null)
case $err in
*"; 2 record(s) skipped (1 run time <= 0, 1 malformed)") ok ;;
*) bad "summary line skips: $err" ;;
esac
for _ in $(seq 1 400); do sed -n 3p "$tmp/t.swf"; done | gzip -c > "$tmp/long.swf.gz"
head -c "$(($(stat -c %s "$tmp/long.swf.gz") / 2))" "$tmp/long.swf.gz" > "$tmp/cut.swf.gz"
expect_fail "cut.swf.gz:[0-9]*: truncated" --workload "$tmp/cut.swf.gz" --policy easy \
	--nodes 4 --jobs-csv - --summary-json /dev/null

# No requested time at all: a warning that the estimates are exact.
sed 's/^\([0-9]* [0-9]* -1 [0-9]* [0-9]* -1 -1 [0-9]*\) [0-9]*/\1 -1/' "$tmp/t.swf" > "$tmp/noest.swf"
err=$("$toposim" --workload "$tmp/noest.swf" --policy easy --jobs-csv /dev/null \
	--summary-json /dev/null 2>&1 >/dev/null)
case $err in
*"warning: $tmp/noest.swf: no job has a requested time in SWF field 9"*) ok ;;
*) bad "no warning without requested times: $err" ;;
esac
# ... unless --estimate-error makes the estimates (none keeps the trace's)
err=$("$toposim" --workload "$tmp/noest.swf" --policy easy --estimate-error uniform:2-2 \
	--jobs-csv /dev/null --summary-json /dev/null 2>&1 >/dev/null)
case $err in
*"no job has a requested time"*) bad "warning with --estimate-error: $err" ;;
*) ok ;;
esac

# --jobs FIRST:COUNT replays a slice by position; out of range is an error.
out=$("$toposim" --workload "$tmp/t.swf" --policy easy --jobs 1:1 --quiet --jobs-csv - \
	--summary-json /dev/null | tail -n +2 | cut -d, -f1 | paste -sd,)
if [ "$out" = 2 ]; then ok; else bad "--jobs 1:1 replayed jobs '$out', not 2"; fi
expect_fail "--jobs 3:1: .* has 3 jobs after the skips" --workload "$tmp/t.swf" --policy easy \
	--jobs 3:1 --jobs-csv - --summary-json /dev/null
expect_fail "--jobs: expected FIRST:COUNT" --workload "$tmp/t.swf" --policy easy \
	--jobs 1: --jobs-csv - --summary-json /dev/null

# --windows: each window is the replay of its slice alone (--jobs), rows
# tagged with the window; drawn starts are the same for the same seed.
"$toposim" --workload "$tmp/t.swf" --policy easy --windows "2@0,1" --quiet \
	--jobs-csv "$tmp/w.csv" --summary-json "$tmp/w.json"
"$toposim" --workload "$tmp/t.swf" --policy easy --jobs 1:2 --quiet \
	--jobs-csv "$tmp/j.csv" --summary-json "$tmp/j.json"
if [ "$(awk -F, 'NR > 1 && $NF == 1' "$tmp/w.csv" | sed 's/,1$//')" = "$(tail -n +2 "$tmp/j.csv")" ]; then
	ok; else bad "--windows 2@0,1: window 1's rows differ from --jobs 1:2"; fi
j_wait=$(sed -n 's/^  "mean_wait": \([0-9.]*\),$/\1/p' "$tmp/j.json")
if grep -q "{\"first\": 1, \"jobs\": 2, .*\"mean_wait\": $j_wait," "$tmp/w.json"; then
	ok; else bad "--windows: window 1's mean wait is not --jobs 1:2's ($j_wait)"; fi
a=$("$toposim" --workload "$tmp/t.swf" --policy easy --windows 2:2:5 --quiet --jobs-csv - --summary-json /dev/null)
b=$("$toposim" --workload "$tmp/t.swf" --policy easy --windows 2:2:5 --quiet --jobs-csv - --summary-json /dev/null)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "--windows 2:2:5 not reproducible"; fi
expect_fail "--windows: '2:0:1': expected K:LEN:SEED" --workload "$tmp/t.swf" --policy easy \
	--windows 2:0:1 --jobs-csv - --summary-json /dev/null
expect_fail "the window at 2 runs past the trace's 3 jobs" --workload "$tmp/t.swf" --policy easy \
	--windows "2@0,2" --jobs-csv - --summary-json /dev/null
expect_fail "exclude each other" --workload "$tmp/t.swf" --policy easy \
	--windows "2@0" --jobs 0:1 --jobs-csv - --summary-json /dev/null

# Both outputs on stdout; the CSV has the hand-worked EASY schedule.
out=$("$toposim" --workload "$tmp/t.swf" --policy easy --quiet --jobs-csv - --summary-json /dev/null)
if echo "$out" | grep -q '^3,2,2,5,1,1,3,3,completed,0,"n4",1,1,$'; then ok; else bad "csv: $out"; fi
if echo "$out" | head -1 | grep -q '^id,submit,start,end,nodes_req,nodes_alloc,estimate,runtime,status,extensions,nodelist'; then
	ok; else bad "csv header"; fi

# --fattree-conf: the settings file select/fattree reads, its TopologyFile
# relative to the file's directory; a bad key is named with file and line.
mkdir -p "$tmp/etc"
cat > "$tmp/etc/topology.conf" <<'TOPO'
SwitchName=s0 Nodes=n[1-2]
SwitchName=s1 Nodes=n[3-4]
SwitchName=top Switches=s[0-1]
TOPO
printf 'Allocator=tree-greedy\nMsuSize=1\n' > "$tmp/etc/fattree.conf"
if "$toposim" --workload "$tmp/t.swf" --policy easy --fattree-conf "$tmp/etc/fattree.conf" \
	--quiet --jobs-csv /dev/null --summary-json - | grep -q '"alloc": "tree-greedy"'; then
	ok; else bad "--fattree-conf Allocator="; fi
printf 'Allocator=tree-slurm\n' > "$tmp/etc/fattree-ts.conf"
if "$toposim" --workload "$tmp/t.swf" --policy easy --fattree-conf "$tmp/etc/fattree-ts.conf" \
	--quiet --jobs-csv /dev/null --summary-json - | grep -q '"alloc": "tree-slurm"'; then
	ok; else bad "--fattree-conf Allocator=tree-slurm"; fi
# With node names the nodelist column is a Slurm hostlist expression.
out=$("$toposim" --workload "$tmp/t.swf" --policy easy --topology "$tmp/etc/topology.conf" \
	--alloc first-free --quiet --jobs-csv - --summary-json /dev/null | cut -d'"' -f2 | sed 1d | paste -sd' ')
if [ "$out" = "n4 n[1-3] n[1-2]" ]; then ok; else bad "nodelist as hostlist: '$out'"; fi
printf 'Allocator=fattree\nMsuSiz=2\n' > "$tmp/etc/bad.conf"
expect_fail "bad.conf:2: unknown key 'MsuSiz'" --workload "$tmp/t.swf" --policy easy \
	--fattree-conf "$tmp/etc/bad.conf" --jobs-csv - --summary-json /dev/null

# The machine toposim built is on stderr: a file that lists fewer nodes
# than meant shows.
err=$("$toposim" --workload "$tmp/t.swf" --policy easy --topology "$tmp/etc/topology.conf" \
	--jobs-csv /dev/null --summary-json /dev/null 2>&1 >/dev/null)
case $err in
*"toposim: machine: fat tree of $tmp/etc/topology.conf: 4 nodes, 2 leaf switches, 2 switch levels, 1 fabric"*) ok ;;
*) bad "no machine line: $err" ;;
esac
# A node under two leaf switches is an error naming file, line and node
# (before: the second leaf kept nothing, a 4-node machine, exit 0).
printf 'SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Nodes=n[1-4]\nSwitchName=top Switches=s[0-1]\n' \
	> "$tmp/etc/two-leaves.conf"
expect_fail "two-leaves.conf:2: node 'n1' is already under leaf switch 's0' (line 1)" \
	--workload "$tmp/t.swf" --policy easy --topology "$tmp/etc/two-leaves.conf" \
	--jobs-csv - --summary-json /dev/null
# fattree.conf: a key given twice names both lines.
printf 'Allocator=fattree\nAllocator=first-free\n' > "$tmp/etc/twice.conf"
expect_fail "twice.conf:2: Allocator= given again (first at line 1)" --workload "$tmp/t.swf" \
	--policy easy --fattree-conf "$tmp/etc/twice.conf" --jobs-csv - --summary-json /dev/null

# --nodes beyond the topology's: n5 outside the tree (as a slurm.conf
# node that topology.conf lacks), named in a warning.  A 4-node job
# fills the tree: the 1-node job runs on n5 at once under Slurm 26.05's
# rule (one-node, the default), waits for the tree under 24.11's
# (never); the 2-node job never gets n5.
cat > "$tmp/out.swf" <<'SWF'
1 0 -1 100 4 -1 -1 4 100 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1
3 2 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF
for rule in one-node never; do
	out=$("$toposim" --workload "$tmp/out.swf" --policy easy --topology "$tmp/etc/topology.conf" \
		--nodes 5 --outside-rule $rule --check --jobs-csv - --summary-json /dev/null 2>"$tmp/err" |
		sed 1d | sort -n | cut -d, -f1,3,11 | paste -sd' ')
	want='1,0,"n[1-4]" 2,100,"n[1-2]" 3,2,"n5"'
	[ $rule = never ] && want='1,0,"n[1-4]" 2,100,"n[1-2]" 3,100,"n3"'
	if [ "$out" = "$want" ]; then ok; else bad "--nodes 5 --outside-rule $rule: '$out', want '$want'"; fi
	if grep -q "^toposim: warning: 1 node is not in $tmp/etc/topology.conf: n5; outside the tree" "$tmp/err" &&
		grep -q "^toposim: machine: .*4 nodes, 2 leaf switches, 2 switch levels, 1 fabric, and 1 node outside it" "$tmp/err"; then
		ok; else bad "--nodes 5: warning or machine line: $(cat "$tmp/err")"; fi
done
printf 'Dimensions=2x2\nNodes=n[1-4]\n' > "$tmp/etc/torus4.conf"
out=$("$toposim" --workload "$tmp/out.swf" --policy easy --torus "$tmp/etc/torus4.conf" \
	--nodes 5 --check --quiet --jobs-csv - --summary-json /dev/null 2>"$tmp/err" | sed 1d | sort -n |
	cut -d, -f1,3,11 | paste -sd' ')
if [ "$out" = '1,0,"n[1-4]" 2,100,"n[1-2]" 3,2,"n5"' ] &&
	grep -q "n5; outside the torus" "$tmp/err"; then ok; else bad "torus --nodes 5: '$out' $(cat "$tmp/err")"; fi
expect_fail "--nodes 3, but $tmp/etc/topology.conf has 4 nodes" --workload "$tmp/t.swf" --policy easy \
	--topology "$tmp/etc/topology.conf" --nodes 3 --jobs-csv - --summary-json /dev/null
expect_fail "--outside-rule: unknown rule 'some'; valid: never, one-node" --workload "$tmp/t.swf" \
	--policy easy --topology "$tmp/etc/topology.conf" --outside-rule some --jobs-csv - --summary-json /dev/null
expect_fail "--outside-rule is for nodes outside a topology" --workload "$tmp/t.swf" \
	--policy easy --outside-rule never --jobs-csv - --summary-json /dev/null
printf 'SwitchName=s0 Nodes=a,b\n' > "$tmp/etc/names.conf"
expect_fail "--nodes 3: the topology's last node 'b' ends in no number" --workload "$tmp/t.swf" \
	--policy easy --topology "$tmp/etc/names.conf" --nodes 3 --jobs-csv - --summary-json /dev/null

# --switches wait (Switches=N@S, driver/switches.h), hand-worked on the
# 2-leaf tree above under fcfs: job 1 may use n2 and n3 only, one node on
# each leaf, so it cannot run on 1 switch; it sits out (job 2, behind it,
# starts at once on n1) until its 30 s wait ends at t=30, then runs
# unconstrained on n[2-3].  Without a wait it could never run: rejected.
cat > "$tmp/sw.swf" <<'SWF'
1 0 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1
2 5 -1 100 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF
echo 'JobId=1 Nodes=n[2-3] Switches=1@30' > "$tmp/sw.req"
out=$("$toposim" --workload "$tmp/sw.swf" --policy fcfs --topology "$tmp/etc/topology.conf" \
	--alloc first-free --job-requests "$tmp/sw.req" --check --quiet --jobs-csv - \
	--summary-json /dev/null | sed 1d | cut -d, -f1,3 | paste -sd' ')
if [ "$out" = "1,30 2,5" ]; then ok; else bad "Switches=1@30: starts '$out'"; fi
echo 'JobId=1 Nodes=n[2-3] Switches=1' > "$tmp/sw.req"
if "$toposim" --workload "$tmp/sw.swf" --policy fcfs --topology "$tmp/etc/topology.conf" \
	--alloc first-free --job-requests "$tmp/sw.req" --quiet --jobs-csv /dev/null \
	--summary-json - | grep -q '"rejected": 1'; then ok; else bad "Switches=1 for ever: not rejected"; fi
echo 'JobId=1 Switches=0@5' > "$tmp/sw.req"
expect_fail "sw.req:1: Switches='0@5': expected N@SECONDS, N a whole number >= 1" --workload "$tmp/sw.swf" \
	--policy fcfs --topology "$tmp/etc/topology.conf" --job-requests "$tmp/sw.req" --jobs-csv - --summary-json /dev/null
echo 'JobId=1 Switches=1@x' > "$tmp/sw.req"
expect_fail "sw.req:1: Switches='1@x'" --workload "$tmp/sw.swf" --policy fcfs \
	--topology "$tmp/etc/topology.conf" --job-requests "$tmp/sw.req" --jobs-csv - --summary-json /dev/null

# --base-shapes: a torus option with two values; torus.conf's BaseShapes=
# names its file and line when wrong.
printf 'Dimensions=2x2\nNodes=n[1-4]\nBaseShapes=sorted\n' > "$tmp/etc/torus.conf"
expect_fail "torus.conf:3: unknown BaseShapes=sorted (canonical or all)" --workload "$tmp/t.swf" \
	--policy easy --torus "$tmp/etc/torus.conf" --jobs-csv - --summary-json /dev/null
printf 'Dimensions=2x2\nNodes=n[1-4]\n' > "$tmp/etc/torus.conf"
expect_fail "--base-shapes: unknown reading 'some'; valid: canonical, all" --workload "$tmp/t.swf" \
	--policy easy --torus "$tmp/etc/torus.conf" --base-shapes some --jobs-csv - --summary-json /dev/null
expect_fail "--base-shapes is a torus option: it needs --torus" --workload "$tmp/t.swf" \
	--policy easy --base-shapes all --jobs-csv - --summary-json /dev/null
if "$toposim" --workload "$tmp/t.swf" --policy easy --torus "$tmp/etc/torus.conf" \
	--alloc torus-anchor --base-shapes canonical --quiet --jobs-csv /dev/null \
	--summary-json - | grep -q '"alloc": "torus-anchor"'; then
	ok; else bad "--alloc torus-anchor"; fi

# --runtime-model (doc/runtime-model.md): bad values and combinations
# named; on 2 leaves of 2 nodes with first-free, job 2 (2 nodes) gets n2
# and n3 in two leaves: 3 routers against 1 in one leaf, spread 3, so with
# share 0.5 its 100 s last 100 x (1 + 0.5 x 2) = 200 s; job 3 (limit
# 150 s) starts at 100 on n1 and n4, also spread 3, and is ended at its
# limit (250).  none is byte-identical to no option.
printf 'SwitchName=l0 Nodes=n[1-2]\nSwitchName=l1 Nodes=n[3-4]\nSwitchName=top Switches=l[0-1]\n' \
	> "$tmp/rt.conf"
cat > "$tmp/rt.swf" <<'SWF'
; MaxNodes: 4
; MaxProcs: 4
1 0 -1 100 1 -1 -1 1 1000 -1 1 -1 -1 -1 -1 -1 -1 -1
2 0 -1 100 2 -1 -1 2 1000 -1 1 -1 -1 -1 -1 -1 -1 -1
3 0 -1 100 2 -1 -1 2 150 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF
rt=(--workload "$tmp/rt.swf" --policy fcfs --topology "$tmp/rt.conf" --alloc first-free --quiet)
expect_fail "--runtime-model: 'spread:2': SHARE must be a number in \[0, 1\]" "${rt[@]}" \
	--runtime-model spread:2 --jobs-csv - --summary-json /dev/null
expect_fail "--runtime-model: 'hops': expected none or spread\[:SHARE\]" "${rt[@]}" \
	--runtime-model hops --jobs-csv - --summary-json /dev/null
expect_fail "--runtime-model spread measures placements: it needs --topology" \
	--workload "$tmp/rt.swf" --policy fcfs --runtime-model spread --jobs-csv - --summary-json /dev/null
expect_fail "--runtime-model is not available with --windows" "${rt[@]}" --windows 1:2:1 \
	--runtime-model spread --jobs-csv - --summary-json /dev/null
"$toposim" "${rt[@]}" --runtime-model spread:0.5 --jobs-csv "$tmp/rt.csv" \
	--summary-json "$tmp/rt.json"
if grep -q '"killed_by_dilation": 1}' "$tmp/rt.json" &&
   grep -q '"comm_share": 0.5' "$tmp/rt.json"; then ok; else bad "--runtime-model summary: $(cat "$tmp/rt.json")"; fi
if grep -q '^id,.*,hop_sum,spread,dilated_run$' "$tmp/rt.csv" &&
   grep -q '^2,0,0,200,2,2,1000,100,completed,0,"n\[2-3\]",1,0,[0-9]*,3.0000,200$' "$tmp/rt.csv" &&
   grep -q '^3,0,100,250,2,2,150,100,killed,0,"n\[1,4\]",1,0,[0-9]*,3.0000,200$' "$tmp/rt.csv"; then
	ok; else bad "--runtime-model CSV: $(cat "$tmp/rt.csv")"; fi
"$toposim" "${rt[@]}" --jobs-csv "$tmp/off.csv" --summary-json "$tmp/off.json"
"$toposim" "${rt[@]}" --runtime-model none --jobs-csv "$tmp/none.csv" --summary-json "$tmp/none.json"
if cmp -s "$tmp/off.csv" "$tmp/none.csv" &&
   cmp -s <(grep -v wall_seconds "$tmp/off.json") <(grep -v wall_seconds "$tmp/none.json") &&
   ! grep -q runtime_model "$tmp/off.json" && grep -q '^2,0,0,100,' "$tmp/off.csv"; then
	ok; else bad "--runtime-model none differs from no option"; fi

# ---- output files: opened before the replay, one file each ---------------
# An unwritable output fails before the replay, naming the option and the
# file: the jobs CSV (written first, after the replay, before) is not
# there, and a failed run leaves none of its files.
err=$("$toposim" --workload "$tmp/t.swf" --policy easy --jobs-csv "$tmp/pre.csv" \
	--summary-json "$tmp/no/such/dir/s.json" 2>&1 >/dev/null); rc=$?
case $rc:$err in
1:*"--summary-json: $tmp/no/such/dir/s.json: cannot write: No such file or directory"*) ok ;;
*) bad "unwritable --summary-json: status $rc: $err" ;;
esac
if [ ! -e "$tmp/pre.csv" ]; then ok; else bad "unwritable --summary-json: the CSV was written: $(cat "$tmp/pre.csv")"; fi
err=$("$toposim" --workload "$tmp/t.swf" --policy easy --jobs-csv "$tmp/pre.csv" \
	--summary-json "$tmp/pre.json" --plot "$tmp/no/p" 2>&1 >/dev/null)
case $err in
*"--plot: $tmp/no/p-gantt.svg: cannot write"*) ok ;;
*) bad "unwritable --plot: $err" ;;
esac
if [ ! -e "$tmp/pre.csv" ] && [ ! -e "$tmp/pre.json" ]; then ok; else bad "unwritable --plot: outputs left"; fi
# A bad input fails before any output is opened: an earlier run's stays.
echo earlier > "$tmp/keep.csv"
expect_fail "$tmp/missing.swf" --workload "$tmp/missing.swf" --policy easy \
	--jobs-csv "$tmp/keep.csv" --summary-json /dev/null
if [ "$(cat "$tmp/keep.csv")" = earlier ]; then ok; else bad "a bad input truncated an earlier output"; fi
# One file for two outputs is refused, however it is named; /dev/null is
# fine for several.
ln -s "$tmp/t.swf" "$tmp/link-to-trace"
: > "$tmp/exists.csv"
ln -s "$tmp/exists.csv" "$tmp/exists-link"
expect_fail "--summary-json: '-' is the file --jobs-csv already writes ('-')" \
	--workload "$tmp/t.swf" --policy easy --jobs-csv - --summary-json -
expect_fail "--summary-json: '$tmp/etc/../same.out' is the file --jobs-csv already writes ('$tmp/same.out')" \
	--workload "$tmp/t.swf" --policy easy --jobs-csv "$tmp/same.out" --summary-json "$tmp/etc/../same.out"
expect_fail "--summary-json: '$tmp/exists-link' is the file --jobs-csv already writes" \
	--workload "$tmp/t.swf" --policy easy --jobs-csv "$tmp/exists.csv" --summary-json "$tmp/exists-link"
expect_fail "--plot: '$tmp/q-util.dat' is the file --jobs-csv already writes" \
	--workload "$tmp/t.swf" --policy easy --jobs-csv "$tmp/q-util.dat" --summary-json /dev/null --plot "$tmp/q"
expect_fail "--summary-json: '-' is the file --jobs-csv already writes" --machine /nonexistent \
	--het-jobs /nonexistent --truth /nonexistent --policy olb --jobs-csv - --summary-json -
# The outputs in the field's formats and the Gantt chart are in the table too.
expect_fail "--swf-out: '$tmp/same.out' is the file --batsim-csv already writes" \
	--workload "$tmp/t.swf" --policy easy --jobs-csv /dev/null --summary-json /dev/null \
	--batsim-csv "$tmp/same.out" --swf-out "$tmp/same.out"
expect_fail "--plot: '$tmp/g-gantt.svg' is the file --swf-out already writes" \
	--workload "$tmp/t.swf" --policy easy --jobs-csv /dev/null --summary-json /dev/null \
	--swf-out "$tmp/g-gantt.svg" --plot "$tmp/g"
expect_fail "--batsim-csv: $tmp/no/b.csv: cannot write" --workload "$tmp/t.swf" --policy easy \
	--jobs-csv "$tmp/pre.csv" --summary-json /dev/null --batsim-csv "$tmp/no/b.csv"
if [ ! -e "$tmp/pre.csv" ]; then ok; else bad "unwritable --batsim-csv: the CSV was written"; fi
if [ ! -e "$tmp/same.out" ]; then ok; else bad "a refused output was created"; fi
if "$toposim" --workload "$tmp/t.swf" --policy easy --quiet --jobs-csv /dev/null \
	--summary-json /dev/null; then ok; else bad "/dev/null for two outputs refused"; fi
"$toposim" --workload "$tmp/t.swf" --policy easy --quiet --jobs-csv "$tmp/two.csv" \
	--summary-json "$tmp/two.json"
if [ "$(head -c 3 "$tmp/two.csv")" = "id," ] && [ "$(head -c 1 "$tmp/two.json")" = "{" ]; then
	ok; else bad "two distinct outputs"; fi

# ---- names in the JSON summary are escaped -----------------------------
q="$tmp/quote\"back\\slash	tab.swf"
cp "$tmp/t.swf" "$q"
for extra in "" "--windows 2@0,1"; do
	# shellcheck disable=SC2086
	"$toposim" --workload "$q" --policy easy --quiet $extra --jobs-csv /dev/null \
		--summary-json "$tmp/q.json"
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["workload"] == sys.argv[2], d["workload"]' "$tmp/q.json" "$q"; then
		ok; else bad "JSON with a quoted workload name ($extra): $(cat "$tmp/q.json")"; fi
done

# ---- --help and the man page agree, from the settings table ------------
man=${srcdir:-.}/doc/toposim.1
if [ -f "$man" ]; then
	"$toposim" --help > "$tmp/help"
	grep -o -- '--[a-z][a-z0-9-]*' "$tmp/help" | sort -u > "$tmp/help.opts"
	awk '/^\.TP/ { getline; print }' "$man" | grep -o '\\-\\-[a-z][a-z0-9\\-]*' |
		sed 's/\\-/-/g' | sort -u > "$tmp/man.opts"
	if diff "$tmp/help.opts" "$tmp/man.opts" > "$tmp/opts.diff"; then ok; else
		bad "options of --help (<) and toposim.1 (>) differ: $(cat "$tmp/opts.diff")"; fi
	# The --policy paragraph of the man page names every policy --help
	# lists, and neither gives it a default.
	para=$(awk '/^\.BI \\-\\-policy /{p=1; next} p && /^\.(TP|SS)/{exit} p' "$man" | sed 's/\\-/-/g')
	pols=$(sed -n 's/^  --policy  *scheduling policy: \(.*\) (required)$/\1/p' "$tmp/help" | tr -d ,)
	[ -n "$pols" ] || bad "--help: no policy list: $(grep -- --policy "$tmp/help")"
	for p in $pols; do
		case $para in *"$p"*) ok ;; *) bad "toposim.1 --policy lacks '$p'" ;; esac
	done
	case $para in *"Required: no default"*) ok ;; *) bad "toposim.1 --policy: default" ;; esac
	# Each setting's default in --help is stated in its man page entry.
	if python3 - "$tmp/help" "$man" > "$tmp/defaults" <<'PY'; then ok; else bad "defaults: $(cat "$tmp/defaults")"; fi
import re, sys
help_text, man = open(sys.argv[1]).read(), open(sys.argv[2]).read()
man = man.replace("\\-", "-")
man = re.sub(r"\\f[A-Z]", "", man)
bad = 0
for opt, default in re.findall(r"^  --([a-z-]+) .*\(default ([^)]*)\)$", help_text, re.M):
    m = re.search(r"^\.B[IR]? --" + re.escape(opt) + r"( .*)?\n((?:(?!\.TP|\.SS|\.PP).*\n)*)", man, re.M)
    text = " ".join(m.group(2).split()) if m else ""
    if not re.search(r"default " + re.escape(default) + r"\b|\b" + re.escape(default) + r" \(default", text):
        print("--%s: default %s not in toposim.1: %r" % (opt, default, text[:200]))
        bad = 1
sys.exit(bad)
PY
else
	bad "no man page at $man"
fi

# ---- --version: configure's PACKAGE_VERSION -----------------------------
want=$(sed -n 's/^PACKAGE_VERSION = //p' Makefile 2>/dev/null)
out=$("$toposim" --version); rc=$?
if [ $rc = 0 ] && [ -n "$want" ] && [ "$out" = "toposim (slurm-topo) $want" ]; then ok; else
	bad "--version: status $rc, '$out', configure says '$want'"; fi

# ---- a setting the policy does not read: one warning, the run goes on ---
# warns "ARGS" WANT: WANT on one stderr line (empty: no warning at all).
warns() {
	local want=$2 err
	# shellcheck disable=SC2086
	err=$("$toposim" --workload "$tmp/t.swf" --quiet $1 --jobs-csv "$tmp/w.csv" \
		--summary-json /dev/null 2>&1 >/dev/null) || { bad "$1: failed: $err"; return; }
	[ "$(wc -l < "$tmp/w.csv")" = 4 ] || bad "$1: no schedule"
	if [ -z "$want" ]; then
		[ -z "$err" ] && ok || bad "$1: unexpected warning: $err"
	elif [ "$(grep -c . <<< "$err")" = 1 ] && [ "$err" = "toposim: warning: $want" ]; then
		ok
	else
		bad "$1: stderr '$err', want one line 'toposim: warning: $want'"
	fi
}
warns "--policy easy --window 4" "--window has no effect with --policy easy (it is read by window-ff)"
warns "--policy rb-har --njob 2" "--njob has no effect with --policy rb-har (it is read by batch-njob)"
warns "--policy fcfs --rbhar-requeue no" "--rbhar-requeue has no effect with --policy fcfs (it is read by rb-har)"
warns "--policy easy --het-max-jobs 3" "--het-max-jobs has no effect with --policy easy (it is read by olb min-min min-max sjs pjs)"
warns "--policy window-ff --window 2 --window-rule index" ""
warns "--policy batch-njob --njob 2" ""
warns "--policy rb-har --rbhar-factor 3" ""
warns "--policy easy --torus $tmp/etc/torus.conf --alloc torus-anchor --base-shapes all" \
	"--base-shapes has no effect with allocator torus-anchor (it is read by torus-base)"
warns "--policy easy --torus $tmp/etc/torus.conf --alloc torus-base --base-shapes all" ""
warns "--policy easy --fattree-conf $tmp/etc/fattree.conf" \
	"--fattree-conf $tmp/etc/fattree.conf: its MsuSize=, BusyFallback= and PreferFull= have no effect with allocator tree-greedy (they are read by fattree-msu)"
warns "--policy easy --fattree-conf $tmp/etc/fattree-ts.conf" ""

# ---- the cost column: named for what it holds, with its decimals --------
out=$("$toposim" --workload "$tmp/t.swf" --policy easy --torus "$tmp/etc/torus4.conf" --quiet \
	--jobs-csv - --summary-json /dev/null | cut -d, -f1,14 | paste -sd' ')
# 2x2 torus: the 3-node job's pairs are 1, 1 and 2 apart, the 2-node
# job's 1 apart.
if [ "$out" = "id,mean_distance 3,0.0000 1,1.3333 2,1.0000" ]; then ok; else bad "torus cost column: '$out'"; fi
# (the last column: a node list may hold commas)
out=$("$toposim" --workload "$tmp/t.swf" --policy easy --topology "$tmp/etc/topology.conf" --quiet \
	--jobs-csv - --summary-json /dev/null | awk -F, '{ print $1 "," $NF }' | paste -sd' ')
if [ "$out" = "id,hop_sum 3,0 1,3 2,0" ]; then ok; else bad "fat-tree cost column: '$out'"; fi
# The Batsim CSV's metadata names the cost the same way.
"$toposim" --workload "$tmp/t.swf" --policy easy --torus "$tmp/etc/torus4.conf" --quiet \
	--jobs-csv /dev/null --summary-json /dev/null --batsim-csv "$tmp/tb.csv"
"$toposim" --workload "$tmp/t.swf" --policy easy --topology "$tmp/etc/topology.conf" --quiet \
	--jobs-csv /dev/null --summary-json /dev/null --batsim-csv "$tmp/fb.csv"
if grep -q '^1,.*;mean_distance=1.3333' "$tmp/tb.csv" && grep -q '^1,.*;hop_sum=3' "$tmp/fb.csv" &&
	! grep -q 'hop_sum' "$tmp/tb.csv"; then ok; else
	bad "Batsim metadata cost: $(cat "$tmp/tb.csv" "$tmp/fb.csv")"; fi

# ---- --job-requests for a job not replayed: said so, not "no job" -------
cp "$tmp/t.swf" "$tmp/big.swf"
echo "4 3 -1 3 9 -1 -1 9 3 -1 1 -1 -1 -1 -1 -1 -1 -1" >> "$tmp/big.swf"
echo "5 3 -1 0 1 -1 -1 1 3 -1 1 -1 -1 -1 -1 -1 -1 -1" >> "$tmp/big.swf"
printf 'JobId=3 Exclude=n4\nJobId=4 Exclude=n1\nJobId=5 Exclude=n1\n' > "$tmp/big.req"
err=$("$toposim" --workload "$tmp/big.swf" --policy easy --topology "$tmp/etc/topology.conf" \
	--alloc fattree-msu --job-requests "$tmp/big.req" --quiet --jobs-csv "$tmp/big.csv" \
	--summary-json /dev/null 2>&1)
case $err in
*"warning: $tmp/big.req: 1 request(s) for jobs skipped as larger than the machine's 4 nodes not used (first: job 4, line 2)"*) ok ;;
*) bad "request for a too-big job: $err" ;;
esac
case $err in
*"warning: $tmp/big.req: 1 request(s) for jobs skipped with a run time <= 0 not used (first: job 5, line 3)"*) ok ;;
*) bad "request for a job without a run time: $err" ;;
esac
# Job 3 ran on n4 at once without its request (fattree-msu leaves n4
# free); with it, it waits for job 1.
if grep -q '^3,2,10,' "$tmp/big.csv" && ! grep -q '^3,.*"n4"' "$tmp/big.csv"; then ok; else
	bad "request of job 3 not applied: $(cat "$tmp/big.csv")"; fi
printf 'JobId=99 Exclude=n1\n' > "$tmp/big.req"
expect_fail "big.req:1: no job 99 in the workload" --workload "$tmp/big.swf" --policy easy \
	--topology "$tmp/etc/topology.conf" --job-requests "$tmp/big.req" --jobs-csv - --summary-json /dev/null
# A request for a job outside --jobs is not an error: the job is simply
# not replayed.
printf 'JobId=1 Exclude=n1\n' > "$tmp/big.req"
if "$toposim" --workload "$tmp/t.swf" --policy easy --topology "$tmp/etc/topology.conf" --jobs 1:2 \
	--job-requests "$tmp/big.req" --quiet --jobs-csv /dev/null --summary-json /dev/null; then
	ok; else bad "--job-requests for a job outside --jobs"; fi

if command -v gnuplot > /dev/null; then
	"$toposim" --workload "$tmp/t.swf" --policy fcfs --quiet --jobs-csv /dev/null \
		--summary-json /dev/null --plot "$tmp/p"
	if [ -s "$tmp/p-util.png" ] && [ -s "$tmp/p-wait.png" ]; then ok; else bad "--plot"; fi
fi
sim_done
