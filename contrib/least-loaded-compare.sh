#!/usr/bin/env bash
# least-loaded-compare.sh BUILDDIR [--slurm 24.11|26.05] [--arrays N]
#     [--seed S] [--keep DIR] - the heterogeneous-cluster patent's
# least-loaded placement (sched/topo topo_policy=least-loaded) against
# what a site would use instead, live, on one stream of job arrays:
# Slurm's sched/backfill with select/cons_tres as it is (CR_Core_Memory)
# and with CR_LLN (least loaded nodes).
#
# Three clusters side by side (the backfill ones with topo-cluster's
# scaled SchedulerParameters: sched_interval=2,bf_interval=1,
# bf_resolution=1; sched/topo's cycle every second), each in its own
# network namespace
# (contrib/cluster/topo-cluster), of six nodes of unequal sizes: 8, 8, 4,
# 4, 2 and 2 CPUs with 1000 MB per CPU.  The stream (seeded): N job
# arrays, one every 0.0-0.5 s, each of 2-6 tasks asking 1-2 CPUs and
# 200-1500 MB and sleeping 1-4 s; every array is submitted to the three
# clusters at the same instant.  From each cluster's jobcomp records the
# script prints a Markdown table: makespan (first submission to last
# end), mean response (submission to end, per task), mean wait, and the
# spread of CPU utilisation across nodes (per node, CPU-seconds used
# over CPUs x makespan: max - min, and the standard deviation).  Then
# toposim replays the least-loaded cluster's records under least-loaded
# and under easy with cons_tres's packing, the simulator's view of the
# same comparison (CR_LLN has no model there).  Root; prints the table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PROG=least-loaded-compare.sh
die() { echo "$PROG: error: $*" >&2; exit 1; }
note() { echo "$PROG: $*" >&2; }
[ $# -ge 1 ] || die "usage: $PROG BUILDDIR [--slurm 24.11|26.05] [--arrays N] [--seed S] [--keep DIR]"
build=$(cd "$1" && pwd) || die "no build directory '$1'"
shift
series=24.11 arrays=100 seed=1 keep=""
while [ $# -gt 0 ]; do
	case $1 in
	--slurm) series=${2:?}; shift 2 ;;
	--arrays) arrays=${2:?}; shift 2 ;;
	--seed) seed=${2:?}; shift 2 ;;
	--keep) keep=${2:?}; shift 2 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
[[ "$arrays" =~ ^[1-9][0-9]*$ ]] || die "--arrays: a positive integer, got '$arrays'"
[[ "$seed" =~ ^[0-9]+$ ]] || die "--seed: a whole number, got '$seed'"
case $series in 24.11 | 26.05) ;; *) die "--slurm: 24.11 or 26.05, got '$series'" ;; esac
[ "$(id -u)" = 0 ] || die "needs root (network namespaces, Slurm daemons)"
cluster=$root/contrib/cluster/topo-cluster
toposim=$build/src/sim/toposim
plugindir=$build/plugins/.libs
[ -x "$toposim" ] || die "$toposim not built"
[ -e "$plugindir/sched_topo.so" ] || die "$plugindir/sched_topo.so not built"
dir=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/ll-compare.XXXXXX")}
mkdir -p "$dir"
kinds=(ours backfill lln)
stop_all() { for k in "${kinds[@]}"; do "$cluster" stop --dir "$dir/$k" >/dev/null 2>&1 || true; done; }
trap stop_all EXIT

# ---- the stream: "AT TASKS CPUS MB SECONDS" per array
python3 - "$arrays" "$seed" >"$dir/stream.txt" <<'EOF'
import random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(seed)
at = 0.0
for _ in range(n):
    print("%.1f %d %d %d %d" % (at, r.randint(2, 6), r.randint(1, 2),
                                r.randrange(200, 1501, 100), r.randint(1, 4)))
    at += r.randint(0, 5) / 10
EOF

# ---- three clusters of the same nodes
sizes=8:8000,8:8000,4:4000,4:4000,2:2000,2:2000
conf_of() { # KIND: its extra slurm.conf lines
	echo "MinJobAge=3600"
	case $1 in
	ours) echo "SelectTypeParameters=CR_Core_Memory" ;;
	backfill) echo "SelectTypeParameters=CR_Core_Memory" ;;
	lln) echo "SelectTypeParameters=CR_Core_Memory,CR_LLN" ;;
	esac
}
"$cluster" prepare --slurm "$series" >&2 || die "topo-cluster prepare failed"
for k in "${kinds[@]}"; do
	conf_of "$k" >"$dir/$k.conf"
	sched=(--sched sched/backfill)
	[ "$k" = ours ] && sched=(--sched sched/topo --sched-params "topo_policy=least-loaded,topo_period=1")
	"$cluster" start --dir "$dir/$k" --slurm "$series" --nodes 6 --node-sizes "$sizes" \
		--select select/cons_tres "${sched[@]}" --plugindir "$plugindir" \
		--extra-conf "$dir/$k.conf" >"$dir/$k.start.log" 2>&1 &
done
failed=""
for _ in "${kinds[@]}"; do wait -n || failed=1; done
[ -z "$failed" ] || { tail -n 20 "$dir"/*.start.log >&2; die "a cluster did not start"; }
sx() { local k=$1; shift; "$cluster" exec --dir "$dir/$k" -- "$@"; }

# ---- every array to every cluster at its instant
note "submitting $arrays arrays (seed $seed) to the three clusters"
t0=$(date +%s.%N)
i=0
while read -r at tasks cpus mb secs; do
	pause=$(awk -v t0="$t0" -v at="$at" -v now="$(date +%s.%N)" \
		'BEGIN { d = t0 + at - now; printf "%.2f", (d > 0 ? d : 0) }')
	sleep "$pause"
	for k in "${kinds[@]}"; do
		sx "$k" sbatch --parsable --array="1-$tasks" -N 1 -n "$cpus" --mem="$mb" -t 1 \
			-J "ll$i" -o /dev/null --wrap "sleep $secs" >"$dir/$k.id.$i" 2>&1 &
	done
	wait
	for k in "${kinds[@]}"; do
		[[ "$(cat "$dir/$k.id.$i")" =~ ^[0-9]+ ]] ||
			die "sbatch of array $i on $k failed: $(cat "$dir/$k.id.$i")"
	done
	i=$((i + 1))
done <"$dir/stream.txt"
note "waiting for every task to end"
for k in "${kinds[@]}"; do
	for _ in $(seq 1 1800); do
		[ -z "$(sx "$k" squeue -h -o %i)" ] && break
		sleep 1
	done
	[ -z "$(sx "$k" squeue -h -o %i)" ] || die "$k: tasks still queued after 30 min"
done

# ---- metrics from jobcomp
metrics() { # KIND: "makespan response wait spread sd completed"
	python3 - "$dir/$1/jobcomp.txt" "$sizes" <<'EOF'
import re, sys, datetime, statistics
sizes = [int(s.split(":")[0]) for s in sys.argv[2].split(",")]
t = lambda s: datetime.datetime.fromisoformat(s).timestamp()
rows = []
for line in open(sys.argv[1]):
    f = dict(re.findall(r"(\w+)=(\S*)", line))
    rows.append((t(f["SubmitTime"]), t(f["StartTime"]), t(f["EndTime"]),
                 int(f["ProcCnt"]), f["NodeList"], f["JobState"]))
first = min(r[0] for r in rows); last = max(r[2] for r in rows)
span = last - first
busy = [0.0] * len(sizes)
for s, b, e, cpus, node, _ in rows:
    busy[int(node[1:]) - 1] += cpus * (e - b)
util = [busy[i] / (sizes[i] * span) for i in range(len(sizes))]
print("%.0f %.2f %.2f %.3f %.3f %d %d" % (span, statistics.mean(r[2] - r[0] for r in rows),
      statistics.mean(r[1] - r[0] for r in rows), max(util) - min(util),
      statistics.pstdev(util), sum(r[5] == "COMPLETED" for r in rows), len(rows)))
EOF
}
echo
echo "Live, Slurm $series, six nodes of 8, 8, 4, 4, 2 and 2 CPUs, $arrays arrays (seed $seed):"
echo
echo "| scheduler | tasks completed | makespan (s) | mean response (s) | mean wait (s) | CPU utilisation spread (max - min) | its std. dev. |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for k in "${kinds[@]}"; do
	read -r span resp wait spread sd ok n <<<"$(metrics "$k")"
	case $k in
	ours) name="sched/topo least-loaded" ;;
	backfill) name="sched/backfill, cons_tres" ;;
	lln) name="sched/backfill, cons_tres CR_LLN" ;;
	esac
	echo "| $name | $ok / $n | $span | $resp | $wait | $spread | $sd |"
done

# ---- the simulator on the least-loaded cluster's records
python3 - "$dir/ours/jobcomp.txt" >"$dir/ours.sacct" <<'EOF'
import re, sys
print("JobID|JobIDRaw|Submit|Start|End|Timelimit|NNodes|NCPUS|ReqCPUS|ReqMem|Partition|State|NodeList")
for line in open(sys.argv[1]):
    f = dict(re.findall(r"(\w+)=(\S*)", line))
    mem = re.search(r"mem=(\d+)M", f.get("Tres", ""))
    print("%s|%s|%s|%s|%s|00:01:00|1|%s|%s|%sM|%s|COMPLETED|%s" % (
        f["JobId"], f["JobId"], f["SubmitTime"], f["StartTime"], f["EndTime"],
        f["ProcCnt"], f["ProcCnt"], mem.group(1) if mem else 0, f["Partition"], f["NodeList"]))
EOF
echo
echo "toposim on the least-loaded cluster's records (its slurm.conf; the same jobs, run times as recorded):"
echo
echo "| policy | mean wait (s) | makespan (s) |"
echo "|---|---:|---:|"
for p in least-loaded easy; do
	"$toposim" --sacct "$dir/ours.sacct" --slurm-conf "$dir/ours/slurm.conf" --policy "$p" \
		--alloc cons-tres --quiet --jobs-csv /dev/null --summary-json "$dir/sim-$p.json" 2>/dev/null ||
		die "toposim --policy $p failed"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("| %s | %.2f | %.0f |" % (sys.argv[2], d["mean_wait"], d["makespan"]))' "$dir/sim-$p.json" "$p"
done
[ -n "$keep" ] || rm -rf "$dir"
