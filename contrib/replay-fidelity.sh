#!/bin/bash
# replay-fidelity.sh [OPTIONS] WORKLOAD [CONFIG...] - how closely toposim
# replays a live Slurm's schedule.  For each CONFIG (default: all of
# contrib/fidelity/configs/), on the Slurm release of --slurm:
#   1. WORKLOAD (any SWF trace, .swf or .swf.gz, or `sacct -P` output)
#      becomes a stream of sbatch jobs for the test bed
#      (contrib/fidelity/stream.py: time compressed, sizes moved to the
#      bed, users mapped onto the bed's);
#   2. the test bed starts (topo-cluster --accounting: slurmdbd over
#      MariaDB, both in the cluster's namespace): 16 nodes of 4 cores and
#      4000 MB, select/cons_tres CR_Core_Memory, partitions `batch`
#      (n[1-16]) and `prio` (n[9-16], PriorityJobFactor 4), a tree of 4
#      leaf switches, accounts pa, pb, pc of shares 50, 30, 20 with six
#      users, QOS `high` (Priority 100, MaxJobsPerUser 2); the CONFIG
#      file adds the priority plugin, the placement and the scheduler;
#   3. the stream is submitted in real time (contrib/fidelity/submit.sh),
#      sprio sampled at --sprio-at; when every job has ended, `sacct -P`
#      and `sacctmgr dump` are exported from the live slurmdbd and the
#      cluster is stopped;
#   4. toposim replays the sacct file with the bed's slurm.conf and the
#      dump (the CONFIG's policy and allocator), and
#      contrib/fidelity/compare.py prints the fidelity: the share of jobs
#      started within one scheduling interval of Slurm's start, the
#      distribution of start-time errors, the mean-wait error and the
#      start order's rank correlation; with --sprio-at,
#      contrib/fidelity/sprio-compare.py compares sprio's factors with
#      the replay's at those instants.
#   5. what-if, checked: when mf-shared (Slurm's topology/tree) and
#      mf-fattree (the project's topology/fattree) both ran, the tree
#      run's sacct is replayed under --alloc fattree: the prediction of
#      the fattree run, printed beside what the live fattree run measured
#      (mean hop sum of the multi-node jobs' placements, mean wait).
# Ends with a table, a line per CONFIG.  Everything goes to
# OUT/RELEASE/CONFIG/ (OUT: --out, default ./fidelity-out).
#
# Options:
#   --slurm 24.11|26.05   release of the live daemons (default 26.05)
#   --build DIR           build tree of that release's plugins and toposim
#                         (default build/test-2411 or build/test-2605)
#   --out DIR             where the runs go
#   --first N --count N --span S   the slice of WORKLOAD and the seconds
#                         its submissions are compressed into (stream.py;
#                         defaults 0, 300, 180)
#   --sprio-at T,...      seconds after the first submission to sample
#                         sprio at (multifactor configurations)
#   --replay-only         the live runs are in OUT already: replay and
#                         compare only
#   --latency S,R         replay with Slurm's per-job latency (toposim
#                         --latency: a start no sooner than S s after
#                         its submission, nodes free R s after an end)
# Root (network namespaces, daemons).  Exit status 0 when every step ran,
# whatever the numbers; they are the result.
# The whole script is one brace group, read before it runs: a script
# edited while a run goes on (runs take many minutes) does not change it.
{
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PROG=replay-fidelity.sh
die() { echo "$PROG: error: $*" >&2; exit 1; }
note() { echo "$PROG: $*" >&2; }

SERIES=26.05 BUILD="" OUT=./fidelity-out FIRST=0 COUNT=300 SPAN=180 SPRIO_AT="" REPLAY_ONLY="" LATENCY=""
while [ $# -gt 0 ]; do
	case $1 in
	--slurm) SERIES=${2:?}; shift 2 ;;
	--build) BUILD=${2:?}; shift 2 ;;
	--out) OUT=${2:?}; shift 2 ;;
	--first) FIRST=${2:?}; shift 2 ;;
	--count) COUNT=${2:?}; shift 2 ;;
	--span) SPAN=${2:?}; shift 2 ;;
	--sprio-at) SPRIO_AT=${2:?}; shift 2 ;;
	--replay-only) REPLAY_ONLY=1; shift ;;
	--latency) LATENCY=${2:?}; shift 2 ;;
	-h | --help) sed -n '2,/^# The whole script is one brace group/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || die "usage: $PROG [OPTIONS] WORKLOAD [CONFIG...] (see --help)"
WORKLOAD=$(readlink -f "$1")
shift
[ -r "$WORKLOAD" ] || die "cannot read the workload '$WORKLOAD'"
case $SERIES in
24.11) TREE_ALLOC=tree-slurm; : "${BUILD:=$root/build/test-2411}" ;;
26.05) TREE_ALLOC=tree-slurm-26.05; : "${BUILD:=$root/build/test-2605}" ;;
*) die "--slurm: 24.11 or 26.05, not '$SERIES'" ;;
esac
[[ "$SPRIO_AT" =~ ^([0-9]+(,[0-9]+)*)?$ ]] || die "--sprio-at: seconds, comma-separated: '$SPRIO_AT'"
BUILD=$(readlink -f "$BUILD")
TOPOSIM=$BUILD/src/sim/toposim
PLUGINDIR=$BUILD/plugins/.libs
[ -x "$TOPOSIM" ] || die "no toposim in $BUILD (contrib/build.sh $BUILD --with-slurm-version=$SERIES)"
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(basic-whole mf-shared mf-fattree mf-topo-easy)
for c in "${configs[@]}"; do
	[ -r "$root/contrib/fidelity/configs/$c.conf" ] ||
		die "no configuration '$c' (contrib/fidelity/configs/$c.conf)"
done
mkdir -p "$OUT"
OUT=$(readlink -f "$OUT")
# The bed's users (sbatch --uid) run their scripts from slurmd's spool
# under OUT: they must pass through every folder down to it (a mktemp -d
# folder is 0700: on 26.05 every job failed with execve's Permission
# denied).  OUT is ours to open; a folder above it that shuts them out is
# named.
chmod go+x "$OUT"
p=$OUT
while p=$(dirname "$p") && [ "$p" != / ]; do
	mode=$(stat -c %A "$p")
	case $mode in
	*[xt]) ;;
	*) die "the bed's users cannot pass through $p (mode $mode): give it o+x or choose another --out" ;;
	esac
done
CLUSTER=$root/contrib/cluster/topo-cluster
NODES=16 CORES=4 MEM=4000
USERS="pa1:pa,pa2:pa,pa3:pa,pb1:pb,pb2:pb,pc1:pc"

# ---------------------------------------------------------------- the bed

bed_topology() {
	local s
	for s in 1 2 3 4; do
		echo "SwitchName=s$s Nodes=n[$((4 * s - 3))-$((4 * s))]"
	done
	echo "SwitchName=s0 Switches=s[1-4]"
}

bed_conf() { # PRIORITY SCHED_LINE
	echo "SelectTypeParameters=CR_Core_Memory"
	echo "$2"
	echo "PartitionName=batch Nodes=n[1-$NODES] PriorityJobFactor=1 MaxTime=INFINITE State=UP"
	echo "PartitionName=prio Nodes=n[$((NODES / 2 + 1))-$NODES] PriorityJobFactor=4 MaxTime=INFINITE State=UP"
	if [ "$1" = multifactor ]; then
		echo "PriorityType=priority/multifactor"
		echo "PriorityWeightAge=1000"
		echo "PriorityMaxAge=1"
		echo "PriorityWeightFairshare=2000"
		echo "PriorityWeightJobSize=500"
		echo "PriorityWeightPartition=1000"
		echo "PriorityWeightQOS=1000"
		echo "PriorityCalcPeriod=1"
		echo "PriorityDecayHalfLife=0-0:05"
		echo "PriorityFavorSmall=NO"
	else
		echo "PriorityType=priority/basic"
	fi
}

# Accounts pa, pb, pc (shares 50, 30, 20), the users, QOS high.
bed_accounts() { # CLUSTER-DIR
	local x=("$CLUSTER" exec --dir "$1" --) u a
	"${x[@]}" sacctmgr -i add account pa fairshare=50 >/dev/null
	"${x[@]}" sacctmgr -i add account pb fairshare=30 >/dev/null
	"${x[@]}" sacctmgr -i add account pc fairshare=20 >/dev/null
	"${x[@]}" sacctmgr -i add qos high priority=100 MaxJobsPerUser=2 >/dev/null
	IFS=, read -ra _u <<<"$USERS"
	for u in "${_u[@]}"; do
		a=${u#*:}
		"${x[@]}" sacctmgr -i add user "${u%%:*}" account="$a" qos=normal,high >/dev/null
	done
	# slurmctld learns them from slurmdbd: wait for the last one.
	local t
	for t in $(seq 1 100); do
		"${x[@]}" scontrol show assoc_mgr users="${u%%:*}" flags=assoc 2>/dev/null |
			grep -q "UserName=${u%%:*}" && return 0
		sleep 0.2
	done
	die "slurmctld did not learn the bed's associations"
}

# ----------------------------------------------------------------- a run

live_run() { # CONFIG DIR
	local c=$1 d=$2 cl=$2/cluster x n left t
	"$CLUSTER" stop --dir "$cl" >/dev/null 2>&1 || true
	bed_conf "$PRIORITY" "$SCHED_LINE" >"$d/bed.conf"
	bed_topology >"$d/topology.conf"
	note "$SERIES $c: starting the test bed"
	"$CLUSTER" start --dir "$cl" --slurm "$SERIES" --nodes $NODES --cpus $CORES \
		--node-opts "RealMemory=$MEM" --accounting \
		--users "$(echo "$USERS" | sed 's/:[a-z]*//g')" \
		--topology-conf "$d/topology.conf" --extra-conf "$d/bed.conf" \
		"${CLUSTER_ARGS[@]}" >"$d/cluster.out" 2>&1 ||
		{ tail -n 20 "$d/cluster.out" >&2; die "$c: the test bed did not start"; }
	trap '"$CLUSTER" stop --dir "'"$cl"'" >/dev/null 2>&1 || true' EXIT
	x=("$CLUSTER" exec --dir "$cl" --)
	bed_accounts "$cl"
	cp "$root/contrib/fidelity/submit.sh" "$d/stream.tsv" "$cl/"
	mkdir -p "$cl/run-out"
	note "$SERIES $c: submitting $(($(wc -l <"$d/stream.tsv") - 1)) jobs"
	t=$(date +%s)
	state=""
	[ "$PRIORITY" = multifactor ] && state=$cl/state
	"${x[@]}" bash "$cl/submit.sh" "$cl/stream.tsv" "$cl/run-out" "$SPRIO_AT" $state ||
		die "$c: submission failed"
	# Every job ends (the stream's runs are seconds long).
	for n in $(seq 1 1800); do
		left=$("${x[@]}" squeue -h -o %i 2>/dev/null | wc -l)
		[ "$left" = 0 ] && break
		sleep 1
	done
	[ "$left" = 0 ] || die "$c: $left jobs still queued after 30 min"
	note "$SERIES $c: every job ended $(($(date +%s) - t)) s after the first submission"
	# ... and slurmdbd has every record with its end.
	n=$(wc -l <"$cl/run-out/submitted")
	for t2 in $(seq 1 120); do
		left=$("${x[@]}" sacct -a -n -X -P -S now-1days -o End 2>/dev/null | grep -c -v '^[0-9]' || true)
		[ "$left" = 0 ] && [ "$("${x[@]}" sacct -a -n -X -P -S now-1days -o JobID | wc -l)" -ge "$n" ] && break
		sleep 1
	done
	note "$SERIES $c: live run took $(($(date +%s) - t)) s"
	"${x[@]}" env TZ=UTC sacct -a -P -X -S now-1days -E now \
		--format=JobID,JobIDRaw,JobName,Submit,Start,End,Elapsed,Timelimit,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Partition,QOS,Account,User,Priority,State,NodeList \
		>"$d/live.sacct"
	"${x[@]}" sacctmgr -i dump topo file="$cl/run-out/assoc.cfg" >/dev/null
	"${x[@]}" sacctmgr -P show qos format=Name,Priority,MaxJobsPU >"$d/qos.txt"
	cp "$cl/run-out/assoc.cfg" "$d/assoc.cfg"
	cp "$cl/run-out/submitted" "$cl/run-out/sprio" "$d/"
	cp "$cl/slurm.conf" "$d/slurm.conf"
	"$CLUSTER" stop --dir "$cl" >/dev/null 2>&1
	trap - EXIT
}

replay() { # CONFIG DIR
	local c=$1 d=$2 site
	site=(--sacct "$d/live.sacct" --slurm-conf "$d/slurm.conf" --sacctmgr "$d/assoc.cfg"
		--qos "$d/qos.txt" --topology "$d/topology.conf" "${REPLAY_ARGS[@]}"
		${LATENCY:+--latency "$LATENCY"})
	"$TOPOSIM" "${site[@]}" --jobs-csv "$d/replay.csv" --summary-json "$d/replay.json" \
		>"$d/replay.out" 2>"$d/replay.err" ||
		{ tail -n 5 "$d/replay.err" >&2; die "$c: toposim failed"; }
	# The priorities at sprio's instants, usage charged from Slurm's own
	# schedule (--usage recorded): the formula compared, not the
	# schedule the replay made.
	if [ -n "$SPRIO_AT" ] && [ "$PRIORITY" = multifactor ] && [ -s "$d/sprio" ]; then
		"$TOPOSIM" "${site[@]}" --usage recorded --sprio-out "$d/sprio.replay" \
			--sprio-at "$(replay_instants "$d")" --jobs-csv /dev/null \
			--summary-json /dev/null >/dev/null 2>"$d/sprio-replay.err" ||
			{ tail -n 5 "$d/sprio-replay.err" >&2; die "$c: toposim --sprio-out failed"; }
	fi
	python3 "$root/contrib/fidelity/compare.py" "$d/live.sacct" "$d/replay.csv" \
		--interval "$INTERVAL" --label "$SERIES $c" --errors "$d/errors.txt" \
		--json "$d/fidelity.json" >"$d/fidelity.txt"
	if [ -s "$d/sprio.replay" ]; then
		python3 "$root/contrib/fidelity/sprio-compare.py" "$d/sprio" "$d/sprio.replay" \
			--live-sacct "$d/live.sacct" --slurm-conf "$d/slurm.conf" >"$d/sprio.txt" || true
	fi
}

# The sprio instants on the replay's clock: sprio shows the factors of
# the last recalculation before each sample, and the first submission came
# just after a recalculation (submit.sh), so the replay's instant is the
# sample's time after the first submission rounded down to a whole
# PriorityCalcPeriod (the bed's: 60 s).
replay_instants() { # DIR
	local first
	first=$(awk 'NR == 1 || $3 < m { m = $3 } END { print m }' "$1/submitted")
	cut -d'|' -f1 "$1/sprio" | sort -un |
		awk -v f="$first" '{ printf "%s%d", (NR > 1 ? "," : ""), int(($1 - f) / 60) * 60 }'
}

results=()
for c in "${configs[@]}"; do
	d=$OUT/$SERIES/$c
	mkdir -p "$d"
	# shellcheck source=/dev/null
	. "$root/contrib/fidelity/configs/$c.conf"
	if [ -z "$REPLAY_ONLY" ]; then
		python3 "$root/contrib/fidelity/stream.py" "$WORKLOAD" --first "$FIRST" \
			--count "$COUNT" --span "$SPAN" --mode "$MODE" --nodes $NODES --cores $CORES \
			--users "$USERS" >"$d/stream.tsv" 2>"$d/stream.err" ||
			{ cat "$d/stream.err" >&2; die "$c: stream.py failed"; }
		t0=$(date +%s)
		live_run "$c" "$d"
		echo "$(($(date +%s) - t0))" >"$d/live.seconds"
	fi
	[ -s "$d/live.sacct" ] || die "$c: no $d/live.sacct (run without --replay-only first)"
	replay "$c" "$d"
	results+=("$c")
done

printf '\n| Slurm | configuration | jobs | within interval (s) | |error| p50 / p90 / max (s) | mean wait live / replay (s) | wait error | rank corr. | live run (s) |\n'
printf '|---|---|---:|---:|---|---|---:|---:|---:|\n'
for c in "${results[@]}"; do
	d=$OUT/$SERIES/$c
	python3 - "$d/fidelity.json" "$SERIES" "$c" "$(cat "$d/live.seconds" 2>/dev/null || echo -)" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
print("| %s | %s | %d | %.1f %% (%g) | %g / %g / %g | %.1f / %.1f | %+.1f %% | %.3f | %s |" % (
    sys.argv[2], sys.argv[3], f["jobs"], 100 * f["within"], f["interval"],
    f["err_p50"], f["err_p90"], f["err_max"], f["wait_live"], f["wait_replay"],
    100 * f["wait_err"], f["rank_corr"], sys.argv[4]))
EOF
done

# ---------------------------------------------------------------- what-if

# JSON value: FILE KEY[.KEY...]
jget() {
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(v)' "$1" "$2"
}

tree=$OUT/$SERIES/mf-shared ft=$OUT/$SERIES/mf-fattree
if [ -s "$tree/live.sacct" ] && [ -s "$ft/live.sacct" ] && [ -s "$ft/replay.json" ]; then
	"$TOPOSIM" --sacct "$tree/live.sacct" --slurm-conf "$tree/slurm.conf" \
		--sacctmgr "$tree/assoc.cfg" --qos "$tree/qos.txt" --topology "$tree/topology.conf" \
		--policy easy --alloc fattree --jobs-csv "$OUT/$SERIES/whatif.csv" \
		--summary-json "$OUT/$SERIES/whatif.json" >/dev/null 2>"$OUT/$SERIES/whatif.err" ||
		die "what-if replay failed ($OUT/$SERIES/whatif.err)"
	w=$OUT/$SERIES/whatif.json
	printf '\n| Slurm %s, same stream | mean hop sum, multi-node jobs | mean wait (s) |\n|---|---:|---:|\n' "$SERIES"
	printf '| live, Slurm topology/tree (measured) | %s | %s |\n' \
		"$(jget "$tree/replay.json" sacct.slurm.mean_hop_sum_multi)" "$(jget "$tree/replay.json" sacct.slurm.mean_wait)"
	printf '| replay of it under --alloc fattree (predicted) | %s | %s |\n' \
		"$(jget "$w" mean_hop_sum_multi)" "$(jget "$w" mean_wait)"
	printf '| live, topology/fattree (measured) | %s | %s |\n' \
		"$(jget "$ft/replay.json" sacct.slurm.mean_hop_sum_multi)" "$(jget "$ft/replay.json" sacct.slurm.mean_wait)"
fi
exit
}
