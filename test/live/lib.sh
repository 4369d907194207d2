# test/live/lib.sh: helpers for the live-cluster tests (test/live/t-*.sh).
# Source it from bash:  . "$(dirname "$0")/lib.sh"
#
# Output is TAP-like: "ok N - what" / "not ok N - what" with "# " diagnostics,
# then "1..N" and a last line "P passed, F failed".  Exit status: 0 all
# passed, 1 some failed, 77 skipped (automake's code), 99 hard error.
#
# Slurm 26.05's topology/torus3d on a torus, with the matching torus.conf
# for torus-anchor: test/live/torus3d-conf.sh (torus3d_confs,
# torus3d_cluster_args; source it beside this file).
#
# Environment:
#   TOPO_CLUSTER    launcher (default: contrib/cluster/topo-cluster of this tree)
#   TOPO_PLUGINDIR  directory of the project's built plugins (check-live sets it)
#   LIVE_KEEP=1     keep the cluster directory (logs) even when all passed
#   LIVE_TMPDIR     where cluster directories go (default ${TMPDIR:-/tmp})

LIVE_SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOPO_CLUSTER=${TOPO_CLUSTER:-$(cd "$LIVE_SRCDIR/../.." && pwd)/contrib/cluster/topo-cluster}
LIVE_NAME=$(basename "$0" .sh)
LIVE_DIR=""
_live_n=0 _live_pass=0 _live_fail=0 _live_done=0 _live_stopped=0

# ------------------------------------------------------------------ output

diag() { local l; for l in "$@"; do printf '# %s\n' "$l"; done; }

# Indent a block of text as diagnostics.
diag_block() { sed 's/^/#   /'; }

_result() { # 0|1 DESCRIPTION
	_live_n=$((_live_n + 1))
	if [ "$1" = 0 ]; then
		_live_pass=$((_live_pass + 1))
		echo "ok $_live_n - $2"
	else
		_live_fail=$((_live_fail + 1))
		echo "not ok $_live_n - $2"
	fi
}

pass() { _result 0 "$1"; }
fail() { _result 1 "$1"; shift; [ $# -gt 0 ] && diag "$@"; return 1; }

# Print "1..N" and the summary line; exit with the overall status.
done_testing() {
	_live_done=1
	echo "1..$_live_n"
	echo "$_live_pass passed, $_live_fail failed"
	live_stop
	[ "$_live_fail" = 0 ] && exit 0
	exit 1
}

skip_all() {
	_live_done=1
	echo "1..0 # SKIP $*"
	live_stop
	exit 77
}

# A failure after which the remaining checks make no sense.
bail_out() {
	echo "Bail out! $*"
	_live_done=1
	_live_fail=$((_live_fail + 1))
	echo "1..$_live_n"
	echo "$_live_pass passed, $_live_fail failed"
	live_stop
	exit 99
}

# -------------------------------------------------------------- assertions

# assert_eq EXPECTED ACTUAL DESCRIPTION: on failure shows a unified diff.
assert_eq() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3"
		diff -u --label expected --label actual <(printf '%s\n' "$1") <(printf '%s\n' "$2") | diag_block
		return 1
	fi
}

assert_ne() {
	if [ "$1" != "$2" ]; then pass "$3"; else fail "$3" "  both are: '$1'"; fi
}

# assert_match REGEX ACTUAL DESCRIPTION (extended regex, whole string).
assert_match() {
	if [[ "$2" =~ ^($1)$ ]]; then pass "$3"; else fail "$3" "  expected to match: $1" "  actual: '$2'"; fi
}

# assert_true DESCRIPTION CMD...: the command must succeed; prints its output on failure.
assert_true() {
	local d=$1 out rc
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" = 0 ]; then
		pass "$d"
	else
		fail "$d" "  command failed (exit $rc): $*"
		[ -n "$out" ] && printf '%s\n' "$out" | diag_block
		return 1
	fi
}

# assert_disjoint LIST_A LIST_B DESCRIPTION: two Slurm hostlists share no node.
assert_disjoint() {
	local common
	common=$(comm -12 <(expand_hostlist "$1" | sort) <(expand_hostlist "$2" | sort) | paste -sd,)
	if [ -z "$common" ]; then pass "$3"; else fail "$3" "  '$1' and '$2' share: $common"; fi
}

# assert_excludes LIST NODE DESCRIPTION: NODE is not in hostlist LIST.
assert_excludes() {
	if expand_hostlist "$1" | grep -qx -- "$2"; then
		fail "$3" "  '$2' is in '$1'"
	else
		pass "$3"
	fi
}

# ------------------------------------------------------------ the cluster

# live_needs WHAT...: skip the whole test (a failure under test-all.sh)
# unless make check-live gave it each WHAT: "toposim" or "ftconf" (sets
# TOPOSIM, FTCONF from TOPO_BUILDDIR), or a plugin NAME (NAME.so in
# TOPO_PLUGINDIR).
live_needs() {
	TOPO_BUILDDIR=${TOPO_BUILDDIR:-}
	TOPOSIM=$TOPO_BUILDDIR/src/sim/toposim
	FTCONF=$TOPO_BUILDDIR/src/tools/ftconf
	local w tool
	for w in "$@"; do
		case $w in
		toposim) tool=$TOPOSIM ;;
		ftconf) tool=$FTCONF ;;
		*)
			[ -e "${TOPO_PLUGINDIR:-}/$w.so" ] ||
				skip_all "no $w.so in TOPO_PLUGINDIR='${TOPO_PLUGINDIR:-}'"
			continue ;;
		esac
		[ -n "$TOPO_BUILDDIR" ] && [ -x "$tool" ] ||
			skip_all "no $w in TOPO_BUILDDIR='$TOPO_BUILDDIR'; run via make check-live"
	done
}

# Skip the whole test unless a live cluster can run here.
live_require() {
	[ "$(id -u)" = 0 ] || skip_all "needs root (daemons in a private network namespace)"
	command -v ip >/dev/null 2>&1 || skip_all "ip (iproute2) not installed"
	ip netns list >/dev/null 2>&1 || skip_all "ip netns unavailable"
	[ -x "$TOPO_CLUSTER" ] || skip_all "launcher $TOPO_CLUSTER not found"
}

_live_on_exit() {
	local rc=$?
	if [ "$_live_done" = 0 ]; then
		echo "Bail out! $LIVE_NAME ended early (exit $rc)"
		_live_fail=$((_live_fail + 1))
		echo "1..$_live_n"
		echo "$_live_pass passed, $_live_fail failed"
		_live_done=1
	fi
	live_stop
}

# live_start [topo-cluster start options]: start a cluster in a fresh
# directory; the daemons are ALWAYS stopped when the test exits.
live_start() {
	trap _live_on_exit EXIT
	trap 'echo "# interrupted"; exit 130' INT
	trap 'echo "# terminated"; exit 143' TERM
	LIVE_DIR=$(mktemp -d "${LIVE_TMPDIR:-${TMPDIR:-/tmp}}/topo-$LIVE_NAME.XXXXXX")
	_live_stopped=0
	local out
	# LIVE_SLURM=24.11: the same test on Debian 13's Slurm (topo-cluster --slurm).
	if ! out=$("$TOPO_CLUSTER" start --dir "$LIVE_DIR" ${LIVE_SLURM:+--slurm "$LIVE_SLURM"} "$@" 2>&1); then
		printf '%s\n' "$out" | diag_block
		bail_out "cluster did not start: topo-cluster start $*"
	fi
	printf '%s\n' "$out" | diag_block
	_sx_prime || bail_out "topo-cluster exec-argv --dir $LIVE_DIR failed"
}

# Is the Slurm series under test (LIVE_SLURM) one whose placement is a
# topology plugin under select/cons_tres (24.11 and later)?
topology_series() { [ "${LIVE_SLURM:-22.05}" != 22.05 ]; }

# The plugin that places jobs on KIND (fattree, torus) for the Slurm
# series under test (LIVE_SLURM): 22.05 select/KIND; 24.11+ topology/KIND
# under select/cons_tres.  placement_args: topo-cluster's options for it
# (24.11: whole nodes, OverSubscribe=EXCLUSIVE, which the topology methods
# assume; topology_fattree(5)).
placement_plugin() {
	if topology_series; then echo "topology/$1"; else echo "select/$1"; fi
}
placement_args() {
	if topology_series; then
		echo "--select select/cons_tres --topology topology/$1 --part-opts OverSubscribe=EXCLUSIVE"
	else
		echo "--select select/$1"
	fi
}
# topo-cluster's options for a machine without topology, whole nodes per
# job: 22.05 select/linear; 24.11 select/cons_tres (topology/flat) with
# OverSubscribe=EXCLUSIVE.
flat_args() {
	if topology_series; then
		echo "--select select/cons_tres --part-opts OverSubscribe=EXCLUSIVE"
	else
		echo "--select select/linear"
	fi
}
# The slurm.conf key that names the placement plugin.
placement_key() {
	if topology_series; then echo TopologyPlugin; else echo SelectType; fi
}

# Stop the cluster (idempotent).  Its directory is removed when every check
# passed, kept for the logs otherwise (or with LIVE_KEEP=1).
live_stop() {
	[ -n "$LIVE_DIR" ] && [ "$_live_stopped" = 0 ] || return 0
	_live_stopped=1
	"$TOPO_CLUSTER" stop --dir "$LIVE_DIR" 2>&1 | diag_block
	if [ "$_live_fail" = 0 ] && [ "${LIVE_KEEP:-0}" != 1 ]; then
		rm -rf "$LIVE_DIR"
	else
		diag "cluster files kept in $LIVE_DIR"
	fi
}

# Run a client command inside the cluster's namespace (SLURM_CONF set).
# A test calls sx hundreds of times, often polling: it runs CMD with the
# command line topo-cluster's exec would use (exec-argv, asked once per
# cluster by live_start), one process per call instead of a topo-cluster
# and its twenty helpers; a cluster live_start did not start goes through
# topo-cluster exec.
sx() {
	if [ "${_sx_dir:-}" = "$LIVE_DIR" ]; then
		"${_sx_argv[@]}" "$@"
	else
		"$TOPO_CLUSTER" exec --dir "$LIVE_DIR" -- "$@"
	fi
}
_sx_prime() {
	_sx_dir="" _sx_argv=()
	mapfile -d '' _sx_argv < <("$TOPO_CLUSTER" exec-argv --dir "$LIVE_DIR")
	[ "${#_sx_argv[@]}" -gt 0 ] && _sx_dir=$LIVE_DIR
}

# Kill (-9 with --kill9) and restart slurmctld.
restart_ctld() { "$TOPO_CLUSTER" restart-ctld --dir "$LIVE_DIR" "$@"; }

# slurmctld writes its state within 5 s of an RPC that changes a job
# (SAVE_MAX_WAIT in src/slurmctld/state_save.c, polled once a second), but
# a job that the backfill thread starts asks for no save at all: that
# start reaches job_state with the next change or the full save every 300 s
# (PERIODIC_CHECKPOINT), and a kill -9 before it makes Slurm requeue the
# job (sched/backfill never calls schedule_job_save(), in 24.11.5
# and 26.05.3; on 26.05 cons-tres.sh lost a start that way).  Only a write of
# StateSaveLocation/job_state later than the last job event (the newest
# submit, start or end time that has passed, whole seconds, so a write at
# least a second after it) holds every change made so far, and only then
# may a crash test demand it.  Waits for that write; when none has come
# LIVE_STATE_SAVE_POKE s (default 8) after the call, asks for one the way
# any job change does (a Comment update of the newest job), then waits
# on, at most LIVE_STATE_SAVE_WAIT s (default 120) in all.  Returns at
# once when the write has happened already.  Sleeps in the background:
# `wait` lets a SIGTERM/SIGINT trap run at once.
last_job_event() {
	sx scontrol -o show job 2>/dev/null | tr ' ' '\n' |
		sed -n 's/^\(SubmitTime\|StartTime\|EndTime\)=\([0-9T:-]*\)$/\2/p' |
		while read -r t; do date -d "$t" +%s; done |
		awk -v now="$(date +%s)" '$1 <= now && $1 > m { m = $1 } END { print m + 0 }'
}
state_saved_after() { # FILE SECONDS: FILE written at least a second after SECONDS
	local m
	m=$(stat -c %.9Y "$1" 2>/dev/null) &&
		awk -v m="$m" -v l="$2" 'BEGIN { exit !(m >= l + 1) }'
}
request_state_save() {
	local id
	id=$(sx squeue -h -o %i 2>/dev/null | sort -n | tail -n1)
	[ -n "$id" ] || return 0
	diag "no state save after the last job event: asking for one (Comment of job $id)"
	sx scontrol update JobId="$id" Comment=live-state-save >/dev/null 2>&1 ||
		diag "scontrol update JobId=$id Comment=... failed"
}
wait_state_saved() {
	local f=$LIVE_DIR/state/job_state last now start poked=""
	last=$(last_job_event)
	start=$(date +%s)
	while :; do
		state_saved_after "$f" "$last" && return 0
		now=$(date +%s)
		[ "$now" -lt $((start + ${LIVE_STATE_SAVE_WAIT:-120})) ] || break
		if [ -z "$poked" ] && [ "$now" -ge $((start + ${LIVE_STATE_SAVE_POKE:-8})) ]; then
			request_state_save
			poked=1
			last=$(last_job_event)
		fi
		sleep 0.2 &
		wait $!
	done
	diag "no write of $f after the last job event ($last) within ${LIVE_STATE_SAVE_WAIT:-120} s"
}

# ------------------------------------------------------------- held jobs
# Jobs that run until the test releases them (a file in the cluster
# directory, which every job sees at the same path): they outlive a state
# save, a crash and a restart however slow the machine is, and then
# complete with exit 0.

# release [TAG]: the jobs held until TAG (default: none given) end.
release() { touch "$LIVE_DIR/out/release${1:-}"; }
# unrelease [TAG]: jobs held until TAG submitted from now on wait again.
unrelease() { rm -f "$LIVE_DIR/out/release${1:-}"; }

# held VAR NAME SBATCH_ARG...: sbatch a job that runs until release (with
# --tag T as the first SBATCH_ARG: until release T); its id into VAR (no
# subshell: bail_out must end the test).
held() {
	local var=$1 name=$2 tag="" out
	shift 2
	if [ "${1:-}" = --tag ]; then
		tag=$2
		shift 2
	fi
	out=$(sx sbatch --parsable -t 10 -J "$name" -o "$LIVE_DIR/out/%j.out" "$@" \
		--wrap "until [ -e '$LIVE_DIR/out/release$tag' ]; do sleep 0.5; done" 2>&1) ||
		bail_out "sbatch $*: $out"
	printf -v "$var" '%s' "${out%%;*}"
}

# wait_tried ID: the scheduler has looked at the pending job (a reason
# other than None); 0 then, 1 after 30 s.
wait_tried() {
	local end=$(($(date +%s) + 30)) r
	while [ "$(date +%s)" -lt "$end" ]; do
		r=$(job_field "$1" Reason)
		[ -n "$r" ] && [ "$r" != None ] && return 0
		sleep 0.5
	done
	diag "job $1: no reason after 30 s"
	return 1
}

# ------------------------------------------------------------------- jobs

# submit NODES SECONDS [LIMIT_MIN] [NAME] [SBATCH_ARG...]: sbatch a
# `sleep SECONDS` on NODES nodes; prints the job id.
submit() {
	local n=$1 s=$2 t=${3:-} name=${4:-live} out
	shift $(($# < 4 ? $# : 4))
	[ -n "$t" ] || t=$(((s + 59) / 60 + 1))
	out=$(sx sbatch --parsable -N "$n" -t "$t" -J "$name" -o "$LIVE_DIR/out/%j.out" \
		"$@" --wrap "sleep $s" 2>&1) || { diag "sbatch failed: $out"; return 1; }
	out=${out%%;*}
	[[ "$out" =~ ^[0-9]+$ ]] || { diag "sbatch printed no job id: $out"; return 1; }
	echo "$out"
}

# job_field ID FIELD: one field of `scontrol -o show job ID` (empty if unknown).
job_field() {
	sx scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n1
}
job_state() { job_field "$1" JobState; }
job_known() { sx scontrol -o show job "$1" >/dev/null 2>&1; }

# NodeList of a job as Slurm prints it ("" while pending).
job_nodelist() {
	local l
	l=$(job_field "$1" NodeList)
	[ "$l" = "(null)" ] && l=""
	echo "$l"
}

# One node name per line.
expand_hostlist() {
	[ -n "$1" ] && [ "$1" != "(null)" ] || return 0
	sx scontrol show hostnames "$1"
}
job_nodes() { expand_hostlist "$(job_nodelist "$1")"; }

# Epoch seconds of a job's StartTime / EndTime.
job_time() { date -d "$(job_field "$1" "$2")" +%s; }

# Where a finished job ran, from jobcomp/filetxt.
jobcomp_nodelist() {
	sed -n "s/^JobId=$1 .* NodeList=\([^ ]*\) .*/\1/p" "$LIVE_DIR/jobcomp.txt" | tail -n1
}

node_state() { sx sinfo -h -N -n "$1" -o '%t' | head -n1; }

# events_swf COMMENT NODES: an event sequence as SWF, event k at 10k s.
# Reads the caller's arrays: order (jobs in submission order), sub_step,
# end_step (absent: the job runs far past the last event) and size.
events_swf() {
	local i=0 job rt
	echo "; $1, one event every 10 s"
	echo "; MaxNodes: $2"
	echo "; MaxProcs: $2"
	for job in "${order[@]}"; do
		i=$((i + 1))
		rt=100000
		[ -n "${end_step[$job]:-}" ] && rt=$(((end_step[$job] - sub_step[$job]) * 10))
		echo "$i $((sub_step[$job] * 10)) -1 $rt ${size[$job]} -1 -1 ${size[$job]} 200000 -1 1 1 1 -1 1 -1 -1 -1"
	done
}

# wait_nodes_idle HOSTLIST TIMEOUT_S: every node of HOSTLIST idle.
wait_nodes_idle() {
	local end=$(($(date +%s) + $2)) st
	while :; do
		st=$(sx sinfo -h -N -n "$1" -o '%t' | sort -u | paste -sd' ')
		[ "$st" = idle ] && return 0
		[ "$(date +%s)" -lt "$end" ] || break
		sleep 0.2
	done
	diag "nodes $1 are '$st' after $2 s, wanted idle"
	return 1
}

# wait_job_state ID REGEX [TIMEOUT_S]: wait until JobState matches REGEX
# (whole word, e.g. "RUNNING" or "COMPLETED|FAILED").  On timeout prints the
# state seen and returns 1.
wait_job_state() {
	local id=$1 re=$2 t=${3:-60} end st=""
	end=$(($(date +%s) + t))
	while :; do
		st=$(job_state "$id")
		[[ "$st" =~ ^($re)$ ]] && return 0
		[ "$(date +%s)" -lt "$end" ] || break
		sleep 0.5
	done
	diag "job $id is '${st:-unknown}' after ${t}s, wanted $re"
	return 1
}

LIVE_FINAL='COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|PREEMPTED|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE'

# wait_jobs_final TIMEOUT_S ID...: every job reaches a final state.
wait_jobs_final() {
	local t=$1 id end left
	shift
	end=$(($(date +%s) + t))
	while :; do
		left=""
		for id in "$@"; do
			[[ "$(job_state "$id")" =~ ^($LIVE_FINAL)$ ]] || left="$left $id"
		done
		[ -z "$left" ] && return 0
		[ "$(date +%s)" -lt "$end" ] || break
		sleep 1
	done
	diag "jobs not finished after ${t}s:$left"
	return 1
}

# Print "ID NODELIST" for every running job (one squeue snapshot).
running_jobs() { sx squeue -h -t RUNNING -o '%i %N'; }

# assert_no_node_shared DESCRIPTION ID...: no two of the jobs whose run
# intervals [StartTime, EndTime) overlap were given a common node.
assert_no_node_shared() {
	local d=$1 i j a b bad="" n
	shift
	local -a ids=("$@") st en hosts
	n=${#ids[@]}
	for ((i = 0; i < n; i++)); do
		st[i]=$(job_time "${ids[i]}" StartTime 2>/dev/null || echo 0)
		en[i]=$(job_time "${ids[i]}" EndTime 2>/dev/null || echo 0)
		hosts[i]=$(job_nodes "${ids[i]}" | sort | paste -sd' ')
	done
	for ((i = 0; i < n; i++)); do
		for ((j = i + 1; j < n; j++)); do
			if [ "${st[i]}" -ge "${en[j]}" ] || [ "${st[j]}" -ge "${en[i]}" ]; then
				continue
			fi
			for a in ${hosts[i]}; do
				for b in ${hosts[j]}; do
					[ "$a" = "$b" ] && bad="$bad${bad:+; }jobs ${ids[i]} and ${ids[j]} both on $a"
				done
			done
		done
	done
	if [ -z "$bad" ]; then pass "$d"; else fail "$d" "  $bad"; fi
}

# assert_snapshot_disjoint DESCRIPTION: in one squeue snapshot, no node
# appears under two running jobs.
assert_snapshot_disjoint() {
	local snap dup
	snap=$(running_jobs)
	dup=$(while read -r id l; do
		[ -n "$id" ] || continue
		expand_hostlist "$l" | sed "s/\$/ $id/"
	done <<<"$snap" | sort | awk '{ c[$1]++; j[$1] = j[$1] " " $2 } END { for (n in c) if (c[n] > 1) print n ":" j[n] }')
	if [ -z "$dup" ]; then
		pass "$1"
	else
		fail "$1" "  nodes under two running jobs:"
		printf '%s\n' "$dup" "squeue:" "$snap" | diag_block
		return 1
	fi
}
