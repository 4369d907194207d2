#!/bin/bash
# Live test (t-refusals-RELEASE.sh): a start sched/topo decides and
# slurmctld refuses is told "never runnable" from "not now" as Slurm's own
# scheduler tells them.
#
# 8 nodes of 2 CPUs, whole nodes (flat_args), Licenses=lic:1.  On 22.05
# (select/linear) R is not "never": Slurm runs it on 3 whole nodes (its
# CPU count is not checked against them), so there the test checks that
# sched/topo does the same; the "not now" part is the same on all.
#   never    R: sbatch -H -N8, then scontrol update NumNodes=3 (its 8 CPUs
#            stay: 3 nodes hold 6) and release.  First on stock Slurm
#            (sched/backfill): its Reason and Priority are Slurm's verdict.
#            Then under sched/topo, R ahead of B (-N6) and C (-N2): R gets
#            the same Reason and Priority, its refusal is logged once over
#            several cycles, B and C start (B needs R's nodes of the plan:
#            while R was decided and refused every cycle, B never started);
#            updated to NumNodes=4 (8 CPUs), R runs.
#   not now  L holds lic:1; M (-N4 -L lic:1) waits for it ahead of D (-N5):
#            M's refusal (licenses) is logged once, D starts while L still
#            runs, and M runs after L.
LIVE_SLURM=${LIVE_SLURM:-22.05}
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs sched_topo

conf=$(mktemp -d "${TMPDIR:-/tmp}/t-refusals.XXXXXX")
echo "Licenses=lic:1" >"$conf/backfill.conf"
{ echo "Licenses=lic:1"; st_extra_conf "topo_policy=easy"; } >"$conf/topo.conf"
# start_cluster SCHED CONF
start_cluster() {
	# shellcheck disable=SC2046 # topo-cluster options, split on purpose
	live_start --nodes 8 --cpus 2 $(flat_args) --sched "$1" \
		--plugindir "$TOPO_PLUGINDIR" --extra-conf "$2"
}
LOG() { echo "$LIVE_DIR/log/slurmctld.log"; }
STATS() { echo "$LIVE_DIR/state/sched_topo.stats"; }
# sleeper NODES SECONDS NAME [SBATCH_ARG...]: a job id, or the test ends.
sleeper() {
	local id
	id=$(submit "$1" "$2" 5 "$3" "${@:4}") || bail_out "sbatch -N $1 ($3) failed"
	echo "$id"
}
# never_job: R as described above; its id.
never_job() {
	local id
	id=$(sleeper 8 5 never -H)
	sx scontrol update JobId="$id" NumNodes=3 || bail_out "scontrol update JobId=$id NumNodes=3 failed"
	sx scontrol release "$id" || bail_out "scontrol release $id failed"
	echo "$id"
}
# verdict ID TIMEOUT_S: Slurm's verdict on R: held ("PENDING
# BadConstraints Priority=0") or run ("COMPLETED"), whichever comes first.
verdict() {
	local end=$(($(date +%s) + $2)) st r
	while :; do
		st=$(job_state "$1") r=$(job_field "$1" Reason)
		if [ "$r" = BadConstraints ]; then
			echo "$st $r Priority=$(job_field "$1" Priority)"
			return
		fi
		[[ "$st" =~ ^($LIVE_FINAL)$ ]] && { echo "$st"; return; }
		[ "$(date +%s)" -lt "$end" ] || break
		sleep 0.3
	done
	echo "$st $r (after $2 s)"
}
# wait_reason ID REGEX TIMEOUT_S
wait_reason() {
	local end=$(($(date +%s) + $3)) r
	while :; do
		r=$(job_field "$1" Reason)
		[[ "$r" =~ ^($2)$ ]] && return 0
		[ "$(date +%s)" -lt "$end" ] || break
		sleep 0.3
	done
	diag "job $1: Reason=$r after $3 s, wanted $2"
	return 1
}
cycles() { sed -n 's/^cycles=//p' "$(STATS)" 2>/dev/null || echo 0; }
# wait_cycles N: N more sched/topo cycles (its statistics file).
wait_cycles() {
	local want=$(($(cycles) + $1)) end=$(($(date +%s) + 3 * $1 + 10))
	while [ "$(cycles)" -lt "$want" ]; do
		[ "$(date +%s)" -lt "$end" ] || { diag "cycles=$(cycles), wanted $want"; return 1; }
		sleep 0.3
	done
}
refusals_of() { grep -c "decided JobId=$1 .*did not start it" "$(LOG)"; }

# --------------------------------------------------- Slurm's own verdict
start_cluster sched/backfill "$conf/backfill.conf"
r=$(never_job)
slurm_verdict=$(verdict "$r" 60)
assert_match "PENDING BadConstraints Priority=0|COMPLETED" "$slurm_verdict" \
	"sched/backfill: JobId=$r is held or runs ($slurm_verdict)"
live_stop

# --------------------------------------------------------- sched/topo
start_cluster sched/topo "$conf/topo.conf"
sx scontrol update partitionname=debug state=down
r=$(never_job)
b=$(sleeper 6 4 behind6)
c=$(sleeper 2 4 behind2)
sx scontrol update partitionname=debug state=up
assert_eq "$slurm_verdict" "$(verdict "$r" 60)" \
	"JobId=$r gets Slurm's own verdict under sched/topo ($slurm_verdict)"
wait_job_state "$c" "RUNNING|COMPLETED" 30
wait_job_state "$b" "RUNNING|COMPLETED" 30
assert_match "RUNNING|COMPLETED" "$(job_state "$b")" "-N6 job $b behind it started"
assert_match "RUNNING|COMPLETED" "$(job_state "$c")" "-N2 job $c behind it started"
if [ "$slurm_verdict" = COMPLETED ]; then
	diag "Slurm runs JobId=$r here: no never-runnable job to hold"
	wait_jobs_final 60 "$r" "$b" "$c" || fail "jobs $r $b $c ended"
else
wait_cycles 5
assert_eq 1 "$(refusals_of "$r")" "the refusal of JobId=$r is logged once over 5 more cycles"
assert_match ".*cannot run on any node it may use: held.*" \
	"$(grep "decided JobId=$r " "$(LOG)")" "the log line says it is held"
assert_eq "PENDING BadConstraints" "$(job_state "$r") $(job_field "$r" Reason)" \
	"JobId=$r still pending with Reason=BadConstraints"
sx scontrol update JobId="$r" NumNodes=4 || fail "scontrol update JobId=$r NumNodes=4"
wait_job_state "$r" "RUNNING|COMPLETED" 60
assert_match "RUNNING|COMPLETED" "$(job_state "$r")" "changed to 4 nodes (8 CPUs), JobId=$r runs"
wait_jobs_final 60 "$r" "$b" "$c" || fail "jobs $r $b $c ended"
fi

# ------------------------------------------------------------ not now
l=$(sleeper 1 30 lic -L lic:1)
wait_job_state "$l" RUNNING 30 || bail_out "license holder $l did not start"
sx scontrol update partitionname=debug state=down
m=$(sleeper 4 3 waits4lic -L lic:1)
d=$(sleeper 5 3 behind5)
sx scontrol update partitionname=debug state=up
wait_job_state "$d" "RUNNING|COMPLETED" 20
assert_eq "RUNNING RUNNING" "$(job_state "$d") $(job_state "$l")" \
	"-N5 job $d behind the license-bound $m started while $l holds the license"
assert_eq "PENDING" "$(job_state "$m")" "JobId=$m pending ($(job_field "$m" Reason))"
wait_cycles 5
assert_eq 1 "$(refusals_of "$m")" "the refusal of JobId=$m is logged once over 5 more cycles"
assert_match ".*sits out.*" "$(grep "decided JobId=$m " "$(LOG)")" "the log line says it waits"
wait_job_state "$m" "RUNNING|COMPLETED" 90
assert_match "RUNNING|COMPLETED" "$(job_state "$m")" "JobId=$m runs once $l ended"
wait_jobs_final 60 "$l" "$m" "$d" || fail "jobs $l $m $d ended"
diag "sched/topo stats: $(tr '\n' ' ' <"$(STATS)" | grep -o 'start_failed=[0-9]* held_never=[0-9]*')"
rm -rf "$conf"
done_testing
