# shellcheck shell=bash disable=SC2034
# test/live/live-lib.sh: helpers of the sched/topo live tests
# (test/live/t-sched-*.sh), sourced after test/live/lib.sh and live_start.
#
# A scenario is a list of jobs "LABEL NODES SECONDS LIMIT_MIN", submitted
# while the partition is DOWN and released at once by setting it UP, so the
# plugin's first cycle sees the whole queue as the simulator does at t = 0.
# The plugin logs every start as
#   sched/topo: cycle C: POLICY: started JobId=N on NODES in partition P (in order|fill for JobId=H)
# which st_live_starts reads back; st_sim_starts runs toposim on the same
# jobs.  Both print "WHEN LABEL NODES FILL" lines (WHEN = cycle or start
# time), which st_groups turns into "A C* | B" (jobs started together,
# fill jobs starred).

# Everything before the scenario's own topo_* settings.
ST_BASE=${ST_BASE:-sched_interval=-1,topo_period=1,topo_stats_every=0}

st_log() { echo "$LIVE_DIR/log/slurmctld.log"; }

# The extra slurm.conf line for topo-cluster --extra-conf: it replaces the
# launcher's SchedulerParameters (whose sched_interval=2 would come first and
# keep slurmctld's FIFO scheduler starting jobs).
st_extra_conf() { echo "SchedulerParameters=$ST_BASE,$1"; }

# The plugin's last "sched/topo: allocator ..." line, once it logged one:
# the allocator is built at the first cycle (topo_period after start-up).
st_allocator() {
	local log
	log=$(st_log)
	for _ in $(seq 1 50); do grep -q "sched/topo: allocator" "$log" && break; sleep 0.2; done
	grep "sched/topo: allocator" "$log" | tail -n1
}

# st_wait_completed TIMEOUT_S [NAME]: every job of the scenario reaches a
# final state within TIMEOUT_S, and that state is COMPLETED.
st_wait_completed() {
	local p=${2:+$2: }
	wait_jobs_final "$1" "${ST_IDS[@]}" || fail "${p}every job finished"
	assert_eq "$(printf 'COMPLETED\n%.0s' "${ST_IDS[@]}")" \
		"$(for id in "${ST_IDS[@]}"; do job_state "$id"; done)" "${p}every job COMPLETED"
}

# The settings line the plugin logged last.
st_settings() { grep "sched/topo: topo_policy=" "$(st_log)" | tail -n1 | sed 's/.*sched\/topo: //'; }

# st_set_params STRING: new topo_* settings, `scontrol reconfigure`, wait
# until the plugin logs the settings it now uses.
st_set_params() {
	local log before
	log=$(st_log)
	before=$(wc -l <"$log")
	sed -i "s|^SchedulerParameters=$ST_BASE,.*|SchedulerParameters=$ST_BASE,$1|" \
		"$LIVE_DIR/slurm.conf"
	sx scontrol reconfigure
	for _ in $(seq 1 50); do
		tail -n +"$((before + 1))" "$log" | grep -q "sched/topo: topo_policy=" && return 0
		sleep 0.2
	done
	diag "no settings line in the log after scontrol reconfigure"
	return 1
}

# "0-2,5" (toposim node indices) -> "n1,n2,n3,n6"; a hostlist (toposim with
# a topology file: "n[1-3,6]") is expanded the same way, names sorted as
# st_live_starts sorts Slurm's.
st_idx_to_names() {
	local part lo hi i out=()
	if ! [[ "$1" =~ ^[0-9,-]*$ ]]; then
		expand_hostlist "$1" | sort -V | paste -sd,
		return
	fi
	IFS=, read -ra parts <<<"$1"
	for part in "${parts[@]}"; do
		lo=${part%-*} hi=${part#*-}
		for ((i = lo; i <= hi; i++)); do out+=("n$((i + 1))"); done
	done
	(IFS=,; echo "${out[*]}")
}

# st_submit NAME JOBS: submit the scenario (see above).  Sets ST_NAME,
# ST_LABELS
# (in order), ST_JID[label], ST_LAB_OF[jobid], ST_SIZE/SECS/LIM[label],
# ST_IDS (job ids in order) and ST_MARKER (log line count at release).
st_submit() {
	local name=$1 label n s t id
	ST_NAME=$name ST_LABELS=() ST_IDS=()
	unset ST_JID ST_LAB_OF ST_SIZE ST_SECS ST_LIM
	declare -gA ST_JID ST_LAB_OF ST_SIZE ST_SECS ST_LIM
	sx scontrol update partitionname=debug state=down
	while read -r label n s t; do
		[ -n "$label" ] || continue
		id=$(submit "$n" "$s" "$t" "$name-$label") || bail_out "sbatch failed"
		ST_LABELS+=("$label")
		ST_IDS+=("$id")
		ST_JID[$label]=$id ST_LAB_OF[$id]=$label
		ST_SIZE[$label]=$n ST_SECS[$label]=$s ST_LIM[$label]=$t
	done <<<"$2"
	ST_MARKER=$(wc -l <"$(st_log)")
	sx scontrol update partitionname=debug state=up
}

# The plugin's starts since ST_MARKER: "GROUP LABEL NODES FILL" in log
# order, GROUP counting the cycles that started something (cycle numbers
# start again at 1 when slurmctld restarts).
st_live_starts() {
	local c id nl how f last="" g=0
	tail -n +"$((ST_MARKER + 1))" "$(st_log)" |
		sed -n 's/.*sched\/topo: cycle \([0-9]*\): [^:]*: started JobId=\([0-9]*\) on \([^ ]*\) in partition [^ ]* (\(.*\))$/\1 \2 \3 \4/p' |
		while read -r c id nl how; do
			f=0
			[[ "$how" == fill* ]] && f=1
			[ "$c" = "$last" ] || g=$((g + 1))
			last=$c
			echo "$g ${ST_LAB_OF[$id]:-?$id} $(expand_hostlist "$nl" | sort -V | paste -sd,) $f"
		done
}

# st_sim_starts NODES POLICY [TOPOSIM_ARG...]: toposim on the scenario:
# "START LABEL NODES FILL STATUS EXTENSIONS", by start time then label.
# The SWF is kept as LIVE_DIR/sim-NAME.swf (st_swf).
st_swf() { echo "$LIVE_DIR/sim-$ST_NAME.swf"; }
st_sim_starts() {
	local nodes=$1 policy=$2 swf label i=0 out
	swf=$(st_swf)
	shift 2
	{
		echo "; sched/topo live scenario: every job submitted at t=0"
		echo "; MaxNodes: $nodes"
		echo "; MaxProcs: $nodes"
		for label in "${ST_LABELS[@]}"; do
			i=$((i + 1))
			echo "$i 0 -1 ${ST_SECS[$label]} ${ST_SIZE[$label]} -1 -1 ${ST_SIZE[$label]} $((ST_LIM[$label] * 60)) -1 1 1 1 -1 1 -1 -1 -1"
		done
	} >"$swf"
	out=$("$TOPOSIM" --workload "$swf" --nodes "$nodes" --policy "$policy" "$@" \
		--jobs-csv - --summary-json /dev/null --quiet) || return 1
	# id,submit,start,end,nodes_req,nodes_alloc,estimate,runtime,status,extensions,"nodes",attempt,fill,hop
	sed -n '2,$ s/^\([0-9]*\),[0-9]*,\([0-9]*\),[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,\([a-z]*\),\([0-9]*\),"\([^"]*\)",[0-9]*,\([01]\),.*$/\2 \1 \5 \6 \3 \4/p' <<<"$out" |
		while read -r st k nl f status ext; do
			echo "$st ${ST_LABELS[k - 1]} $(st_idx_to_names "$nl") $f $status $ext"
		done | sort -k1,1n -k2,2
}

# stdin "WHEN LABEL NODES FILL ..." -> "A C* | B" (as given, no sorting).
st_groups() {
	awk '{ if (NR > 1 && $1 != w) printf " | "; else if (NR > 1) printf " ";
	       printf "%s%s", $2, ($4 ? "*" : ""); w = $1 } END { print "" }'
}

# st_compare NAME SIM LIVE EXPECTED_ORDER: the checks every scenario makes.
st_compare() {
	local name=$1 sim=$2 live=$3 expect=$4
	diag "plugin (group label nodes fill):"
	printf '%s\n' "$live" | diag_block
	diag "toposim (start label nodes fill status extensions):"
	printf '%s\n' "$sim" | diag_block
	assert_eq "$expect" "$(st_groups <<<"$live")" \
		"$name: start order, cycle by cycle, as worked out by hand"
	assert_eq "$(st_groups <<<"$sim")" "$(sort -k1,1n -k2,2 <<<"$live" | st_groups)" \
		"$name: the jobs toposim starts together start together, in the same order"
	assert_eq "$(awk '{ print $2, $3 }' <<<"$sim" | sort)" "$(awk '{ print $2, $3 }' <<<"$live" | sort)" \
		"$name: every job on the nodes toposim predicts"
}
