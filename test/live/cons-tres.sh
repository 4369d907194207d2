#!/bin/bash
# Live test, Slurm 24.11 and 26.05 (t-cons-tres-RELEASE.sh): topology/fattree under select/cons_tres keeps
# what cons_tres gives users, places multi-node jobs like Slurm's own
# topology/tree here, and survives `kill -9` of slurmctld.
#
# 16 nodes of 4 CPUs, 1000 MB and 2 GRES "nic" each (a count only: Slurm
# drops a GPU without a device file), on the 2-level, width-4 fat tree (4
# leaf switches of 4 nodes); the partition shares nodes (no
# OverSubscribe=EXCLUSIVE), sched/backfill.  One job at a time, each
# started before the next is submitted:
#   whole     --exclusive -N 4: the tree's placement, one leaf switch.
#   gres      -n 6 -c 2 --gres=nic:1: 12 CPUs and a nic on each node.
#   range     -N 1-16 -n 6 -c 2 --gres=nic:1: as many nodes as Slurm gives.
#   shared    1-CPU jobs: packed onto a partly used node (Slurm's best
#             fit), and a second one -w on that node runs beside it.
# The first three run first on Slurm's own topology/tree: each gets as
# many nodes at the same node-level cost, and the same CPUs and GRES, on
# both.  Then slurmctld is killed (-9) and
# restarted: every job is still known, the running ones on the same nodes
# with the same CPUs and GRES; a 2-node exclusive job submitted afterwards gets
# two nodes no job holds, on one leaf; all jobs complete.
LIVE_SLURM=${LIVE_SLURM:-24.11}
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
live_needs ftconf topology_fattree

# The sequences' jobs run until the test releases them (a file in the
# cluster directory, which every job sees at the same path): they outlive
# the state save, the crash and the restart however slow the machine is,
# and then complete with exit 0.

conf=$(mktemp -d "${TMPDIR:-/tmp}/t-cons-tres.XXXXXX")
"$FTCONF" generate --levels 2 --width 4 -o "$conf/topology.conf" || bail_out "ftconf generate failed"
echo "NodeName=n[1-16] Name=nic Count=2" >"$conf/gres.conf"
# Memory per CPU, not the whole node per job: jobs can share a node.
printf 'GresTypes=nic\nDefMemPerCPU=100\n' >"$conf/extra.conf"
# start_cluster TOPOLOGY_PLUGIN
start_cluster() {
	live_start --nodes 16 --cpus 4 --node-opts "RealMemory=1000 Gres=nic:2" --sched sched/backfill \
		--select select/cons_tres --topology "$1" \
		--plugindir "$TOPO_PLUGINDIR" --topology-conf "$conf/topology.conf" \
		--conf-file "$conf/gres.conf" --extra-conf "$conf/extra.conf"
}

# leaf N: the leaf switch (0..3) of node nN.
leaf_of() { echo $(((${1#n} - 1) / 4)); }
leaves_of() { for n in $(job_nodes "$1"); do leaf_of "$n"; done | sort -u | paste -sd,; }
cpus_of() { job_field "$1" NumCPUs; }

# job_record ID: what the user got: nodes, CPUs, GRES.
job_record() {
	echo "$(job_nodelist "$1") cpus=$(cpus_of "$1") $(sx scontrol -d show job "$1" | grep -o 'JOB_GRES=[^ ]*')"
}
# one VAR NAME SBATCH_ARG...: submit a job that runs until release(),
# wait until it runs, its id into VAR (no subshell: bail_out must end the
# test).
one() {
	held "$@"
	local id=${!1}
	wait_job_state "$id" RUNNING 30 || bail_out "job $id ($2: ${*:3}) did not start"
}
# sequence: the jobs, one at a time; sets whole gres range s1 s2 s3.
# shellcheck disable=SC2154 # s1 is set by one
sequence() {
	one whole whole -N 4 --exclusive
	one gres gres -n 6 -c 2 --gres=nic:1
	one range range -N 1-16 -n 6 -c 2 --gres=nic:1
	one s1 shared1 -n 1
	one s2 shared2 -n 1 -w "$(job_nodelist "$s1")"
	one s3 shared3 -n 1
	ids=("$whole" "$gres" "$range" "$s1" "$s2" "$s3")
}
# The jobs that go through the topology: whole nodes and multi-node.
records() { for id in "$whole" "$gres" "$range"; do echo "$(job_field "$id" JobName): $(job_record "$id")"; done; }
# What a placement is worth, not which of equal ones: each job's node
# count, CPUs, GRES and node-level hop sum (ftconf hopsum --msu-size 1).
# Ties between placements of equal cost break differently in the two
# plugins (topology_fattree(5)).
worth() { for id in "$whole" "$gres" "$range"; do
	echo "$(job_field "$id" JobName): $(job_nodes "$id" | wc -l) nodes," \
		"hops $("$FTCONF" hopsum --topology "$conf/topology.conf" --msu-size 1 "$(job_nodelist "$id")")," \
		"$(job_record "$id" | cut -d' ' -f2-)"
done; }

# ------------------------------------------------------------ Slurm's own
start_cluster topology/tree
sequence
tree=$(records)
tree_worth=$(worth)
printf '%s\n' "$tree" | sed 's/^/topology\/tree    /' | diag_block
live_stop

# ------------------------------------------------------------ ours
start_cluster topology/fattree
sequence
ours=$(records)
printf '%s\n' "$ours" | sed 's/^/topology\/fattree /' | diag_block
assert_eq "$tree_worth" "$(worth)" \
	"every job got as many nodes at the same node-level cost, and the same CPUs and GRES, as under topology/tree"
assert_eq 4 "$(job_nodes "$whole" | wc -l)" "whole-node job $whole got 4 nodes ($(job_nodelist "$whole"))"
assert_match "[0-3]" "$(leaves_of "$whole")" "whole-node job $whole is on one leaf switch (leaves $(leaves_of "$whole"))"
for id in "$gres" "$range"; do
	k=$(job_nodes "$id" | wc -l)
	assert_eq "$(job_nodelist "$id") cpus=12 JOB_GRES=nic:$k" "$(job_record "$id")" \
		"-n 6 -c 2 --gres=nic:1 job $id has 12 CPUs and a nic on each of its $k nodes"
done
assert_disjoint "$(job_nodelist "$whole")" "$(job_nodelist "$gres"),$(job_nodelist "$range")" \
	"the shared-node jobs got no node of the exclusive job $whole"
assert_eq "RUNNING RUNNING $(job_nodelist "$s1")" "$(job_state "$s1") $(job_state "$s2") $(job_nodelist "$s2")" \
	"1-CPU jobs $s1 and $s2 run at once on one node ($(job_nodelist "$s1"))"
# Slurm's best fit (topology_fattree(5)): onto a node partly used already,
# while whole nodes stay free (topology/tree takes a whole node of the
# fullest leaf instead).
partly=$(expand_hostlist "$(job_nodelist "$gres"),$(job_nodelist "$range")" | sort -u | paste -sd,)
assert_match "$(job_nodelist "$s1")" "$(expand_hostlist "$partly" | grep -x -- "$(job_nodelist "$s1")")" \
	"1-CPU job $s1 was packed onto a partly used node ($(job_nodelist "$s1") of $partly)"
for id in "$s1" "$s3"; do
	diag "topology/tree    $(job_field "$id" JobName): see above; topology/fattree: $(job_record "$id")"
done
declare -A before
for id in "${ids[@]}"; do before[$id]=$(job_record "$id"); done

# ------------------------------------------------------------ kill -9
wait_state_saved
loads_old=$(grep -c 'topology/fattree: topology ' "$LIVE_DIR/log/slurmctld.log")
restart_ctld --kill9 | diag_block
loads_new=$(grep -c 'topology/fattree: topology ' "$LIVE_DIR/log/slurmctld.log")
assert_eq 1 "$((loads_new > loads_old))" \
	"the restarted slurmctld loaded topology/fattree again (log lines $loads_old -> $loads_new)"
for id in "${ids[@]}"; do
	assert_eq "RUNNING ${before[$id]}" "$(job_state "$id") $(job_record "$id")" \
		"job $id still running on the same nodes, CPUs and GRES after the restart"
done

# ------------------------------------------------------------ after
held=$(for id in "${ids[@]}"; do job_nodes "$id"; done | sort -u | paste -sd,)
after=$(submit 2 5 1 after --exclusive) || bail_out "sbatch failed"
wait_job_state "$after" "RUNNING|COMPLETED" 30 || fail "job $after started after the restart"
assert_disjoint "$held" "$(job_nodelist "$after")" \
	"whole-node job $after submitted after the restart got no held node ($(job_nodelist "$after"))"
assert_match "[0-3]" "$(leaves_of "$after")" "job $after is on one leaf switch (leaves $(leaves_of "$after"))"

all=("${ids[@]}" "$after")
release
wait_jobs_final 180 "${all[@]}"
assert_eq "$(for id in "${all[@]}"; do echo "$id COMPLETED 0:0"; done)" \
	"$(for id in "${all[@]}"; do echo "$id $(job_state "$id") $(job_field "$id" ExitCode)"; done)" \
	"all ${#all[@]} jobs completed with exit 0"
rm -rf "$conf"

done_testing
