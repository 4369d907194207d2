#!/usr/bin/env bash
# sim-sacct.sh - a site's sacct history replayed end to end: every field
# kind, an array, a heterogeneous job, a job cancelled before it started,
# one that ran on a node outside the partition; the machine cut to the
# partition's nodes (slurm.conf) out of a topology.conf that lists login
# and admin nodes too; Slurm's own schedule beside the simulated one in the
# summary; bad input named by file, line and value; --scale-sizes, --load
# and the machine-size warnings on an SWF trace.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
# has FILE PATTERN WHAT: FILE holds PATTERN (grep -E).

cat > "$tmp/topology.conf" <<'EOF2'
SwitchName=s0 Nodes=n[1-4]
SwitchName=s1 Nodes=n[5-8]
SwitchName=s2 Nodes=login1,admin1
SwitchName=top Switches=s[0-2]
EOF2
cat > "$tmp/slurm.conf" <<'EOF2'
ClusterName=t
NodeName=n[1-8] CPUs=4
NodeName=login1,admin1 CPUs=4
PartitionName=batch Nodes=n[1-8] Default=YES
PartitionName=debug Nodes=n[7-8]
PartitionName=all Nodes=ALL
EOF2
cat > "$tmp/jobs.sacct" <<'EOF2'
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|Partition|State|NodeList
100|100|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00|01:00:00|4|16|batch|COMPLETED|n[1-4]
100.batch|100.batch|2026-01-01T00:00:10|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00||1|4||COMPLETED|n1
100.0|100.0|2026-01-01T00:00:10|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00||4|16||COMPLETED|n[1-4]
101_1|102|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:32:00|00:30:00|1-00:00:00|2|8|batch|TIMEOUT|n[3,5]
101_2|103|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:12:00|00:10:00|UNLIMITED|1|4|batch|FAILED|n6
101_[3-5]|101|2026-01-01T00:01:00|Unknown|Unknown|00:00:00|30:00|1|4|batch|PENDING|None assigned
104+0|104|2026-01-01T00:03:00|2026-01-01T00:04:00|2026-01-01T00:09:00|00:05:00|10|1|4|batch|COMPLETED|n7
104+1|105|2026-01-01T00:03:00|2026-01-01T00:04:00|2026-01-01T00:09:00|00:05:00|10|2|8|batch|COMPLETED|n[1-2]
106|106|2026-01-01T00:05:00|None|2026-01-01T00:06:00|00:00:00|05:00|2|8|batch|CANCELLED by 1000|None assigned
107|107|2026-01-01T00:06:00|2026-01-01T00:07:00|2026-01-01T00:17:00|00:10:00|20:00|2|8|batch|COMPLETED|n8,login1
108|108|2026-01-01T00:06:00|2026-01-01T00:06:30|2026-01-01T00:07:30|00:01:00|20:00|1|4|debug|COMPLETED|n7
109|109|2026-01-01T00:08:00|2026-01-01T00:09:00|Unknown|00:05:00|20:00|1|4|batch|RUNNING|n4
EOF2

run() { # OUTPREFIX ARGS...: csv, json, err
	local o=$1
	shift
	"$toposim" "$@" --jobs-csv "$tmp/$o.csv" --summary-json "$tmp/$o.json" 2> "$tmp/$o.err"
}

# The partition on the site's tree: 8 nodes, the login and admin nodes
# out; the jobs of the other partition, the steps, the pending array
# tasks, the job cancelled before it started and the running one skipped
# and counted; the job that ran on login1 counted and named.
if run p --sacct "$tmp/jobs.sacct" --policy easy --topology "$tmp/topology.conf" \
	--partition batch --slurm-conf "$tmp/slurm.conf"; then ok; else bad "partition replay: $(cat "$tmp/p.err")"; fi
has "$tmp/p.err" "machine: fat tree of $tmp/topology.conf \(partition batch\): 8 nodes, 2 leaf switches" "machine line"
has "$tmp/p.json" '"nodes": 8,' "machine size in the summary"
has "$tmp/p.json" '"jobs": 6,' "jobs replayed"
has "$tmp/p.json" '"skipped": \{"steps": 2, "other_partition": 1, "not_started": 2, "unknown_time": 0, "unfinished": 1, "duplicate": 0\}' "sacct skips"
has "$tmp/p.json" '"ran_outside_machine": 1,' "job on login1 counted"
has "$tmp/p.json" '"placed": 5,' "jobs placed on the machine"
has "$tmp/p.json" '"partition": "batch",' "partition named"
has "$tmp/p.json" '"partition_nodes": 8,' "partition size"
has "$tmp/p.err" "warning: 1 job\(s\) ran on nodes not in the machine of partition batch \(first: $tmp/jobs.sacct:11: login1\)" "outside job named"
# Slurm's own schedule: waits 10, 60, 60, 60, 60, 60 s -> mean 51.667; the
# hop sum of its placements by the same allocator cost as the simulated.
has "$tmp/p.json" '"slurm": \{"jobs": 6, "utilisation": [0-9.]+, "mean_wait": 51.667, .*"mean_hop_sum_multi": [0-9.]+\}' "Slurm's schedule"
has "$tmp/p.err" "slurm \(sacct\): 6 jobs on 8 nodes.*mean placement cost of multi-node jobs" "Slurm's line"
# The summary with its sacct object is valid JSON.
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["sacct"]["slurm"]["jobs"] != 6)' "$tmp/p.json"; then
	ok
else
	bad "summary JSON does not load or lacks sacct.slurm.jobs = 6"
fi
# The array tasks and the heterogeneous components replay under their
# JobIDRaw; the pending tasks and the cancelled job do not.
ids=$(tail -n +2 "$tmp/p.csv" | cut -d, -f1 | sort -n | paste -sd,)
[ "$ids" = 100,102,103,104,105,107 ] && ok || bad "replayed ids: $ids"
# No simulated job lands on login1 or admin1.
if grep -qE 'login|admin' "$tmp/p.csv"; then bad "a job placed off the partition"; else ok; fi

# On a torus: Slurm's placements costed by the torus allocator's box cost.
printf 'Dimensions=2x4\nNodes=n[1-8]\n' > "$tmp/t8.conf"
if run tor --sacct "$tmp/jobs.sacct" --partition batch --policy easy --torus "$tmp/t8.conf" \
	--alloc torus-mss; then ok; else bad "torus replay: $(cat "$tmp/tor.err")"; fi
has "$tmp/tor.json" '"slurm": \{"jobs": 6, .*"mean_hop_sum_multi": [0-9.]+\}' "Slurm's schedule on a torus"
has "$tmp/tor.json" '"placed": 5,' "torus: jobs placed"

# Nodes=ALL is every NodeName; a partition of nodes outside the tree
# keeps them outside it; a partition with no such line is an error.
# (No job of the file ran in them: --allow-empty takes the empty result.)
if run all --sacct "$tmp/jobs.sacct" --policy easy --topology "$tmp/topology.conf" \
	--partition all --slurm-conf "$tmp/slurm.conf" --allow-empty; then ok; else bad "Nodes=ALL: $(cat "$tmp/all.err")"; fi
has "$tmp/all.json" '"nodes": 10,' "Nodes=ALL size"
has "$tmp/all.json" '"other_partition": 10,' "Nodes=ALL: jobs of other partitions"
printf 'NodeName=n[1-10] CPUs=4\nPartitionName=big Nodes=n[1-10]\n' > "$tmp/big.conf"
if run big --sacct "$tmp/jobs.sacct" --policy easy --topology "$tmp/topology.conf" \
	--partition big --slurm-conf "$tmp/big.conf" --allow-empty; then ok; else bad "partition beyond the tree: $(cat "$tmp/big.err")"; fi
has "$tmp/big.err" "warning: 2 nodes are not in $tmp/topology.conf \(partition big\): n\[9-10\]; outside the tree" "partition nodes outside the tree"
has "$tmp/big.err" "8 nodes, 2 leaf switches, 2 switch levels, 1 fabric, and 2 nodes outside it" "machine with outside nodes"
if run none --sacct "$tmp/jobs.sacct" --policy easy --topology "$tmp/topology.conf" \
	--partition nope --slurm-conf "$tmp/slurm.conf"; then bad "unknown partition accepted"; fi
has "$tmp/none.err" "$tmp/slurm.conf: no PartitionName=nope" "unknown partition"
printf 'PartitionName=x Nodes=n[1-\n' > "$tmp/bad.conf"
run badconf --sacct "$tmp/jobs.sacct" --policy easy --topology "$tmp/topology.conf" \
	--partition x --slurm-conf "$tmp/bad.conf"
has "$tmp/badconf.err" "$tmp/bad.conf:1: Nodes=n\[1-" "bad partition hostlist"

# A flat machine of the partition's size: names checked, nothing costed.
if run flat --sacct "$tmp/jobs.sacct" --policy fcfs --partition debug \
	--slurm-conf "$tmp/slurm.conf"; then ok; else bad "flat partition: $(cat "$tmp/flat.err")"; fi
has "$tmp/flat.json" '"nodes": 2,' "flat partition size"
has "$tmp/flat.json" '"jobs": 1,' "flat partition jobs"
has "$tmp/flat.json" '"ran_outside_machine": 0,' "flat partition: job 108 on n7"

# Bad values: an error naming file, line and value; --lenient skips and
# counts the line instead.
expect_bad() { # SED-EXPR PATTERN
	sed "$1" "$tmp/jobs.sacct" > "$tmp/bad.sacct"
	if run bad --sacct "$tmp/bad.sacct" --policy easy --nodes 8; then
		bad "accepted: $1"
	else
		has "$tmp/bad.err" "toposim: $tmp/bad.sacct:$2" "error of $1"
	fi
	if run len --sacct "$tmp/bad.sacct" --policy easy --nodes 8 --lenient; then
		has "$tmp/len.json" '"malformed": 1' "--lenient count of $1"
	else
		bad "--lenient: $1: $(cat "$tmp/len.err")"
	fi
}
expect_bad 's/^107|107|2026-01-01T00:06:00/107|107|2026-01-01 00:06:00/' "11: bad Submit '2026-01-01 00:06:00'"
expect_bad 's/|00:30:00|/|30 min|/' "5: bad Elapsed '30 min'"
expect_bad 's/|1-00:00:00|/|forever|/' "5: bad Timelimit 'forever'"
expect_bad 's/|n\[3,5\]$/|n[3-]/' "5: bad NodeList 'n\[3-\]'"
expect_bad 's/^108|108|/108|x108|/' "12: bad JobIDRaw 'x108'"
expect_bad 's/|4|16|batch|COMPLETED/|4.5|16|batch|COMPLETED/' "2: bad NNodes '4.5'"
expect_bad 's/|10|1|4|batch|COMPLETED|n7$/|10|1|4|batch|done|n7/' "8: bad State 'done'"
sed 's/|NodeList$//' "$tmp/jobs.sacct" > "$tmp/bad.sacct"
if run bad --sacct "$tmp/bad.sacct" --policy easy --nodes 8; then bad "short header accepted"; fi
has "$tmp/bad.err" "$tmp/bad.sacct:2: 12 '\|'-separated fields where the header has 11: '100'" "field count"

# Options that go together, and those that do not.
run x --sacct "$tmp/jobs.sacct" --workload "$tmp/jobs.sacct" --policy easy
has "$tmp/x.err" "--workload and --sacct exclude each other" "two workloads"
run x --workload "$tmp/t.swf" --slurm-conf "$tmp/slurm.conf" --policy easy
has "$tmp/x.err" "--slurm-conf gives a partition's nodes: it needs --partition NAME" "slurm-conf alone"
# with --sacct alone it is the site (SITE MODEL): priority/basic here
run x --sacct "$tmp/jobs.sacct" --slurm-conf "$tmp/slurm.conf" --policy easy
has "$tmp/x.err" "priority: priority/basic \($tmp/slurm.conf\)" "the site's priority named"
run x --sacct "$tmp/jobs.sacct" --policy easy --scale-sizes 0
has "$tmp/x.err" "--scale-sizes: expected a number above 0" "scale 0"

# An SWF trace recorded on 4 nodes: on 8 the offered load is halved and a
# warning says so; --scale-sizes 2 keeps each job's share (no warning);
# on 2 nodes the 3-node job is dropped with a warning and counted.
cat > "$tmp/t.swf" <<'SWF'
; MaxNodes: 4
; MaxProcs: 4
1 0 -1 10 3 -1 -1 3 10 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 5 2 -1 -1 2 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 2 -1 3 1 -1 -1 1 3 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF
run s8 --workload "$tmp/t.swf" --policy easy --nodes 8
has "$tmp/s8.err" "warning: $tmp/t.swf: recorded on 4 nodes, replayed on 8: the offered load is 0.50 times the recorded one; --scale-sizes 2 " "size warning"
run s2 --workload "$tmp/t.swf" --policy easy --nodes 8 --scale-sizes 2
if grep -q warning "$tmp/s2.err"; then bad "warning after --scale-sizes: $(cat "$tmp/s2.err")"; else ok; fi
nodes=$(tail -n +2 "$tmp/s2.csv" | sort -t, -k1n | cut -d, -f5 | paste -sd,)
[ "$nodes" = 6,4,2 ] && ok || bad "--scale-sizes 2 sizes: $nodes"
has "$tmp/s2.json" '"scale_sizes": 2,' "scale in the summary"
run small --workload "$tmp/t.swf" --policy easy --nodes 2
has "$tmp/small.err" "warning: $tmp/t.swf: 1 job\(s\) larger than the machine's 2 nodes dropped \(the largest asks 3\)" "dropped warning"
has "$tmp/small.json" '"too_big": 1' "dropped count in the summary"
run load --workload "$tmp/t.swf" --policy fcfs --load 2
subs=$(tail -n +2 "$tmp/load.csv" | sort -t, -k1n | cut -d, -f2 | paste -sd,)
[ "$subs" = 0,0,1 ] && ok || bad "--load 2 submits: $subs"
has "$tmp/load.json" '"load": 2,' "load in the summary"

sim_done sim-sacct
