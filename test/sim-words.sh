#!/usr/bin/env bash
# sim-words.sh - what toposim writes says what it means: a flat machine's
# CSV names its nodes (n1..nN, or the partition's), never indices; a
# line break in the workload's file name leaves --swf-out readable; one
# of a thing is singular ("1 leaf switch", "1 node"); the replay's wall
# time is labelled; a sacct file without NodeList gives no placement cost
# of -1 and no count of jobs off the machine, in the text or the JSON.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

cat >"$tmp/t.swf" <<'SWF'
1 0 -1 10 3 -1 -1 3 10 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 5 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF

# ---- node names on a flat machine -----------------------------------------
"$toposim" --workload "$tmp/t.swf" --nodes 4 --policy easy --quiet --jobs-csv "$tmp/f.csv" \
	--summary-json /dev/null
if [ "$(tail -n +2 "$tmp/f.csv" | sort -n | cut -d'"' -f2 | paste -sd' ')" = "n[1-3] n4" ]; then ok; else
	bad "flat node names: $(cat "$tmp/f.csv")"; fi
printf 'NodeName=c[01-04] CPUs=4\nPartitionName=work Nodes=c[01-04]\n' >"$tmp/slurm.conf"
"$toposim" --workload "$tmp/t.swf" --partition work --slurm-conf "$tmp/slurm.conf" --policy easy \
	--quiet --jobs-csv "$tmp/p.csv" --summary-json /dev/null
if [ "$(tail -n +2 "$tmp/p.csv" | sort -n | cut -d'"' -f2 | paste -sd' ')" = "c[01-03] c04" ]; then ok; else
	bad "flat machine of a partition: $(cat "$tmp/p.csv")"; fi

# ---- a line break in the workload's name: the SWF schedule reads back -----
nl="$tmp/new
line.swf"
cp "$tmp/t.swf" "$nl"
"$toposim" --workload "$nl" --nodes 4 --policy easy --quiet --jobs-csv /dev/null \
	--summary-json /dev/null --swf-out "$tmp/out.swf"
if grep -q '^; Conversion: toposim --policy easy --alloc first-free of .*new\\nline.swf$' "$tmp/out.swf"; then
	ok; else bad "SWF header: $(head -n 4 "$tmp/out.swf")"; fi
if "$toposim" --workload "$tmp/out.swf" --policy easy --quiet --jobs-csv /dev/null \
	--summary-json - 2>"$tmp/err" | grep -q '"jobs": 2,'; then ok; else
	bad "--swf-out of a workload named with a line break does not read back: $(cat "$tmp/err")"; fi

# ---- one of a thing ------------------------------------------------------
printf '1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$tmp/one.swf"
printf 'SwitchName=s0 Nodes=n1\n' >"$tmp/one.conf"
"$toposim" --workload "$tmp/one.swf" --topology "$tmp/one.conf" --policy easy \
	--jobs-csv /dev/null --summary-json /dev/null 2>"$tmp/err"
has "$tmp/err" "machine: fat tree of $tmp/one.conf: 1 node, 1 leaf switch, 1 switch level, 1 fabric$" \
	"singular machine line"
has "$tmp/err" "easy/fattree: 1 job on 1 node, utilisation" "singular summary line"
hasnt "$tmp/err" "1 (nodes|jobs|leaf switches|switch levels)\b" "no plural for one"
# the wall time says what it is
has "$tmp/err" "mean bounded slowdown [0-9.]+, replayed in [0-9]+\.[0-9]{2} s;" "labelled wall time"
"$toposim" --workload "$tmp/one.swf" --nodes 1 --policy easy --jobs-csv /dev/null \
	--summary-json /dev/null 2>"$tmp/err"
has "$tmp/err" "machine: flat: 1 node$" "singular flat machine"

# ---- sacct without NodeList: nothing said about Slurm's nodes ---------------
cat >"$tmp/nonl.sacct" <<'EOF'
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|Partition|State
100|100|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00|01:00:00|4|16|batch|COMPLETED
101|101|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00|01:00:00|1|16|batch|COMPLETED
EOF
printf 'SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Nodes=n[5-8]\nSwitchName=top Switches=s[0-1]\n' \
	>"$tmp/topology.conf"
printf 'NodeName=n[1-8] CPUs=4\nPartitionName=batch Nodes=n[1-8]\n' >"$tmp/slurm8.conf"
for args in "--topology $tmp/topology.conf" \
	"--topology $tmp/topology.conf --partition batch --slurm-conf $tmp/slurm8.conf" \
	"--partition batch --slurm-conf $tmp/slurm8.conf"; do
	# shellcheck disable=SC2086 # options, split on purpose
	"$toposim" --sacct "$tmp/nonl.sacct" --policy easy $args --jobs-csv /dev/null \
		--summary-json "$tmp/n.json" 2>"$tmp/err"
	hasnt "$tmp/err" "-1\.000|0 job\(s\) ran on nodes not in the machine" "no NodeList ($args): nothing counted"
	has "$tmp/err" "Slurm's nodes not checked \(no NodeList column\)" "no NodeList ($args): said"
	if python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["sacct"]
assert s["ran_outside_machine"] is None and s["placed"] is None, s' "$tmp/n.json"; then ok; else
		bad "no NodeList ($args): JSON counts $(grep -E 'ran_outside|placed' "$tmp/n.json")"; fi
done
# where they are known, they are counted (a topology and NodeLists)
sed -e '1s/$/|NodeList/' -e '2s/$/|n[1-4]/' -e '3s/$/|m1/' "$tmp/nonl.sacct" >"$tmp/nl.sacct"
"$toposim" --sacct "$tmp/nl.sacct" --policy easy --topology "$tmp/topology.conf" \
	--jobs-csv /dev/null --summary-json "$tmp/k.json" 2>"$tmp/err"
has "$tmp/err" "1 job\(s\) ran on nodes not in the machine" "NodeList: counted in the text"
has "$tmp/k.json" '"ran_outside_machine": 0,|"ran_outside_machine": 1,' "NodeList: counted in the JSON"
if grep -q '"ran_outside_machine": 1,' "$tmp/k.json" && grep -q '"placed": 1,' "$tmp/k.json"; then ok; else
	bad "NodeList: text and JSON differ: $(grep -E 'ran_outside|placed' "$tmp/k.json") / $(cat "$tmp/err")"; fi

sim_done sim-words
