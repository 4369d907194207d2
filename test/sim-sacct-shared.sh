#!/usr/bin/env bash
# sim-sacct-shared.sh - resources inside nodes in a site replay (toposim
# --sacct with --slurm-conf; site_res.h): a small history of several
# partitions (one node shared by CPUs, one shared by CPUs and memory, an
# OverSubscribe=EXCLUSIVE pair, a GPU node) and every job state.  Four
# 8-CPU jobs that ran together on one 32-CPU node replay together under
# every policy, not one after another as with --whole-nodes; memory and
# GPUs hold jobs back as CPUs do; an exclusive partition's job shares
# its node with nothing; both utilisations stay at most 1.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
cat > "$tmp/slurm.conf" <<'CONF'
ClusterName=shr
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
NodeName=DEFAULT CPUs=32 RealMemory=128000
NodeName=s[1-2]
NodeName=b[1-2]
NodeName=g1 CPUs=16 RealMemory=64000 Gres=gpu:4
PartitionName=DEFAULT MaxTime=1-00:00:00 State=UP
PartitionName=shared Nodes=s1 Default=YES
PartitionName=mixed Nodes=s2 MaxTime=12:00:00
PartitionName=batch Nodes=b[1-2] OverSubscribe=EXCLUSIVE
PartitionName=gpu Nodes=g1 PriorityTier=2
CONF
sed 's/CR_Core_Memory/CR_Core/' "$tmp/slurm.conf" > "$tmp/nomem.conf"
# 101-104: 8 CPUs each on s1 together; 201, 202: 8 CPUs and 60G each on
# s2, so 203 (16G) waits for memory; 301 both exclusive nodes, 302 asked
# 4 CPUs of one and got all 32; 401, 402: 2 GPUs each on g1, so 403
# waits for a GPU with 8 CPUs free.  Not replayed: a step, a pending
# job, a running one, one cancelled before it started, a boot failure.
cat > "$tmp/jobs.sacct" <<'SACCT'
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|ReqCPUS|ReqMem|ReqTRES|AllocTRES|Partition|State|NodeList
101|101|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|8|8G|cpu=8,mem=8G,node=1|cpu=8,mem=8G,node=1|shared|COMPLETED|s1
101.batch|101.batch|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00||1|8|8||||shared|COMPLETED|s1
102|102|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|8|8G|cpu=8,mem=8G,node=1|cpu=8,mem=8G,node=1|shared|FAILED|s1
103|103|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|01:00:00|1|8|8|8G|cpu=8,mem=8G,node=1|cpu=8,mem=8G,node=1|shared|TIMEOUT|s1
104|104|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|8|8G|cpu=8,mem=8G,node=1|cpu=8,mem=8G,node=1|shared|OUT_OF_MEMORY|s1
201|201|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:30:00|00:30:00|02:00:00|1|8|8|60G|cpu=8,mem=60G,node=1|cpu=8,mem=60G,node=1|mixed|CANCELLED by 1000|s2
202|202|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:20:00|00:20:00|02:00:00|1|8|8|60G|cpu=8,mem=60G,node=1|cpu=8,mem=60G,node=1|mixed|NODE_FAIL|s2
203|203|2026-01-01T00:10:00|2026-01-01T00:20:00|2026-01-01T00:50:00|00:30:00|02:00:00|1|4|4|16G|cpu=4,mem=16G,node=1|cpu=4,mem=16G,node=1|mixed|PREEMPTED|s2
204|204|2026-01-01T00:10:00|Unknown|Unknown|00:00:00|02:00:00|1|16|16|32G|cpu=16,mem=32G,node=1||mixed|PENDING|None assigned
205|205|2026-01-01T00:15:00|2026-01-01T00:40:00|Unknown|00:20:00|02:00:00|1|8|8|16G|cpu=8,mem=16G,node=1|cpu=8,mem=16G,node=1|mixed|RUNNING|s2
206|206|2026-01-01T00:15:00|None|2026-01-01T00:16:00|00:00:00|02:00:00|1|8|8|16G|cpu=8,mem=16G,node=1||mixed|CANCELLED by 1000|None assigned
301|301|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:45:00|00:45:00|01:00:00|2|64|64|200G|cpu=64,mem=200G,node=2|cpu=64,mem=200G,node=2|batch|COMPLETED|b[1-2]
302|302|2026-01-01T00:05:00|2026-01-01T00:45:00|2026-01-01T01:15:00|00:30:00|01:00:00|1|32|4|8G|cpu=4,mem=8G,node=1|cpu=32,mem=8G,node=1|batch|COMPLETED|b1
303|303|2026-01-01T00:05:00|2026-01-01T00:45:00|2026-01-01T00:45:00|00:00:00|01:00:00|1|32|4|8G|cpu=4,mem=8G,node=1|cpu=32,mem=8G,node=1|batch|BOOT_FAIL|b2
401|401|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:50:00|00:50:00|01:00:00|1|4|4|16G|cpu=4,mem=16G,node=1,gres/gpu=2|cpu=4,mem=16G,node=1,gres/gpu=2|gpu|COMPLETED|g1
402|402|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:50:00|00:50:00|01:00:00|1|4|4|16G|cpu=4,mem=16G,node=1,gres/gpu=2|cpu=4,mem=16G,node=1,gres/gpu=2|gpu|DEADLINE|g1
403|403|2026-01-01T00:01:00|2026-01-01T00:50:00|2026-01-01T01:00:00|00:10:00|01:00:00|1|4|4|8G|cpu=4,mem=8G,node=1,gres/gpu=1|cpu=4,mem=8G,node=1,gres/gpu=1|gpu|COMPLETED|g1
SACCT
run() { # OUTPREFIX ARGS...
	local o=$1
	shift
	"$toposim" --sacct "$tmp/jobs.sacct" --check "$@" --jobs-csv "$tmp/$o.csv" \
		--summary-json "$tmp/$o.json" 2> "$tmp/$o.err"
}
# value FILE KEY.KEY...: a member of a summary, by python
value() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[k]
print(d)' "$1" "$2"; }
# starts CSV ID...: the jobs' start times, space-separated
starts() { python3 -c 'import csv,sys; r={x["id"]: x for x in csv.DictReader(open(sys.argv[1]))}
print(" ".join(r[i]["start"] if i in r else "-" for i in sys.argv[2:]))' "$@"; }
# alone CSV ID: the nodes of job ID held no other job while it ran
alone() { python3 - "$@" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
j = next(x for x in r if x["id"] == sys.argv[2])
import re
def nodes(s):  # "0-1,4" (indices) or "b[1-2],g1" (names)
    out = set()
    for pre, rng, idx in re.findall(r"([a-z]*)(?:\[([^]]*)\])?([0-9-]*),?", s):
        for p in (rng or idx).split(","):
            a, _, b = p.partition("-")
            if a:
                out |= {pre + str(i) for i in range(int(a), int(b or a) + 1)}
    return out
n = nodes(j["nodelist"])
sys.exit(any(x is not j and nodes(x["nodelist"]) & n and
             int(x["start"]) < int(j["end"]) and int(j["start"]) < int(x["end"])
             for x in r))
PY
}
# at_most_one FILE KEY...: each value in (0, 1]
at_most_one() { local f=$1 k u; shift
	for k in "$@"; do
		u=$(value "$f" "$k")
		python3 -c "import sys; sys.exit(not (0 < $u <= 1))" && ok || bad "$f: $k $u not in (0, 1]"
	done; }

for p in fcfs easy conservative rb-har "batch-njob --njob 4" "window-ff --window 4"; do
	o=${p%% *}
	# shellcheck disable=SC2086
	if run "$o" --slurm-conf "$tmp/slurm.conf" --policy $p; then ok; else bad "$p: $(cat "$tmp/$o.err")"; fi
	has "$tmp/$o.err" "resources inside nodes: CPUs, memory and GPUs per node" "$p: the model said"
	s=$(starts "$tmp/$o.csv" 101 102 103 104)
	[ "$s" = "0 0 0 0" ] && ok || bad "$p: the four 8-CPU jobs start at $s, not together at 0"
	nl=$(python3 -c 'import csv,sys; print(" ".join(sorted({x["nodelist"] for x in csv.DictReader(open(sys.argv[1])) if x["id"] in ("101","102","103","104")})))' "$tmp/$o.csv")
	[ "$nl" = s1 ] && ok || bad "$p: the four 8-CPU jobs on nodes $nl, not all on s1"
	# 203 fits s2's CPUs at once, its memory only once 202 ends (at
	# 1200; later under FCFS, behind the GPU job at the queue's head)
	s=$(starts "$tmp/$o.csv" 203)
	[ "$s" -ge 1200 ] && ok || bad "$p: job 203 starts at $s, before 202's memory is given back at 1200"
	case $o in fcfs | batch-njob) ;; *)
		[ "$s" = 1200 ] && ok || bad "$p: job 203 starts at $s, not backfilled at 1200" ;;
	esac
	s=$(starts "$tmp/$o.csv" 403)
	[ "$s" = 3000 ] && ok || bad "$p: job 403 starts at $s, not 3000 when a GPU is free"
	alone "$tmp/$o.csv" 302 && ok || bad "$p: job 302 (OverSubscribe=EXCLUSIVE) shared its node"
	at_most_one "$tmp/$o.json" utilisation cpu_utilisation sacct.slurm.utilisation sacct.slurm.cpu_utilisation
done
# On a tree (topology.conf), the topology allocators choose among the
# nodes that can host each job's ask: the four together again.
printf 'SwitchName=l1 Nodes=s[1-2]\nSwitchName=l2 Nodes=b[1-2],g1\nSwitchName=top Switches=l[1-2]\n' > "$tmp/topology.conf"
for a in tree-greedy tree-slurm fattree; do
	if run "$a" --slurm-conf "$tmp/slurm.conf" --topology "$tmp/topology.conf" --alloc $a --policy easy; then ok; else bad "$a: $(cat "$tmp/$a.err")"; fi
	s=$(starts "$tmp/$a.csv" 101 102 103 104 403)
	[ "$s" = "0 0 0 0 3000" ] && ok || bad "$a: jobs 101-104, 403 start at $s"
	alone "$tmp/$a.csv" 302 && ok || bad "$a: job 302 (OverSubscribe=EXCLUSIVE) shared its node"
done

# What was not replayed, each counted.
[ "$(value "$tmp/easy.json" sacct.skipped.steps)" = 1 ] && ok || bad "steps skipped"
[ "$(value "$tmp/easy.json" sacct.skipped.not_started)" = 2 ] && ok || bad "pending and cancelled skipped"
[ "$(value "$tmp/easy.json" sacct.skipped.unfinished)" = 1 ] && ok || bad "running skipped"
[ "$(value "$tmp/easy.json" skipped.runtime)" = 1 ] && ok || bad "boot failure skipped"
[ "$(value "$tmp/easy.json" jobs)" = 12 ] && ok || bad "12 jobs replayed"

# Whole nodes: the same four one after another (what the test guards
# against), the GPU jobs too.
if run whole --slurm-conf "$tmp/slurm.conf" --policy easy --whole-nodes; then ok; else bad "whole: $(cat "$tmp/whole.err")"; fi
s=$(starts "$tmp/whole.csv" 101 102 103 104)
[ "$s" = "0 3600 7200 10800" ] && ok || bad "--whole-nodes: the four start at $s"
hasnt "$tmp/whole.err" "resources inside nodes" "--whole-nodes: no model"
at_most_one "$tmp/whole.json" utilisation sacct.slurm.utilisation

# Memory not consumable (CR_Core): 203 goes beside 201 and 202 at once.
if run nomem --slurm-conf "$tmp/nomem.conf" --policy easy; then ok; else bad "nomem: $(cat "$tmp/nomem.err")"; fi
has "$tmp/nomem.err" "resources inside nodes: CPUs and GPUs per node" "CR_Core: memory not counted, said"
s=$(starts "$tmp/nomem.csv" 203)
[ "$s" = 600 ] && ok || bad "CR_Core: job 203 starts at $s, not 600"
# OverSubscribe=FORCE:2 on s1: the four hold 4 CPUs each, not 8, so the
# replay's CPU-seconds drop by 4 x 4 x 3600 of 144 CPUs x 4500 s.
sed 's/^PartitionName=shared Nodes=s1 Default=YES/& OverSubscribe=FORCE:2/' "$tmp/slurm.conf" > "$tmp/force.conf"
if run force --slurm-conf "$tmp/force.conf" --policy easy; then ok; else bad "force: $(cat "$tmp/force.err")"; fi
has "$tmp/force.err" "OverSubscribe=FORCE:K: 1/K of their CPUs" "FORCE:K said"
d=$(python3 -c "print(round($(value "$tmp/easy.json" cpu_utilisation) - $(value "$tmp/force.json" cpu_utilisation), 6))")
[ "$d" = "$(python3 -c 'print(round(16 * 3600 / (144 * 4500), 6))')" ] && ok || bad "FORCE:2: CPU utilisation down by $d"

# --whole-nodes without a site: a usage error, not ignored.
if run bad --policy easy --whole-nodes; then bad "--whole-nodes without --slurm-conf accepted"; else ok; fi
has "$tmp/bad.err" "--whole-nodes .*needs --sacct and --slurm-conf" "--whole-nodes needs a site"

sim_done sim-sacct-shared
