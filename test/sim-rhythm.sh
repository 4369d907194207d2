#!/usr/bin/env bash
# sim-rhythm.sh - Slurm's scheduler rhythm in a site replay (--sacct
# with --slurm-conf): on 4 nodes job 1 runs on 2 until 1000 s, job 2
# (4 nodes) waits for them, jobs 3 and 4 (1 node, 100 s) could run
# beside it at once.  EASY at every event (--rhythm every-event) starts
# them at their submission; with the rhythm the main scheduler stops at
# job 2 and they wait for the next backfill pass (a multiple of
# bf_interval); bf_max_job_test=2 tests jobs 2 and 3 only, so job 4
# waits one pass more, as it does with bf_max_job_user=1 when jobs 3 and
# 4 are one user's.  SchedulerParameters out of Slurm's range are
# refused naming the file and value.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

conf() { # SCHEDULERPARAMETERS ("": no such line)
	cat <<EOF2
ClusterName=t
PriorityType=priority/basic
${1:+SchedulerParameters=$1}
NodeName=n[1-4] CPUs=1
PartitionName=p Nodes=n[1-4] Default=YES MaxTime=1-0
EOF2
}
cat > "$tmp/jobs.sacct" <<'EOF2'
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|Partition|Account|User|State|NodeList
1|1|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:16:40|00:16:40|00:16:40|2|2|p|a|ua|COMPLETED|n[1-2]
2|2|2026-01-01T00:00:10|2026-01-01T00:16:40|2026-01-01T00:18:20|00:01:40|00:01:40|4|4|p|a|ua|COMPLETED|n[1-4]
3|3|2026-01-01T00:00:20|2026-01-01T00:00:30|2026-01-01T00:02:10|00:01:40|00:01:40|1|1|p|a|ub|COMPLETED|n3
4|4|2026-01-01T00:00:20|2026-01-01T00:01:00|2026-01-01T00:02:40|00:01:40|00:01:40|1|1|p|a|uc|COMPLETED|n4
EOF2
run() { # OUTPREFIX SCHEDULERPARAMETERS ARGS...
	local o=$1
	conf "$2" > "$tmp/$o.conf"
	shift 2
	"$toposim" --sacct "$tmp/jobs.sacct" --slurm-conf "$tmp/$o.conf" --policy easy --check \
		"$@" --jobs-csv "$tmp/$o.csv" --summary-json "$tmp/$o.json" 2> "$tmp/$o.err"
}
start() { # PREFIX ID: the job's simulated start
	awk -F, -v id="$2" '$1 == id { print $3 }' "$tmp/$1.csv"
}
expect() { # PREFIX ID START WHAT
	local s
	s=$(start "$1" "$2")
	[ "$s" = "$3" ] && ok || bad "$4: job $2 starts at '$s', not $3 ($(cat "$tmp/$1.err"))"
}

# Every event, whole queue: EASY backfills 3 and 4 at once (20 s).
if run every bf_interval=600 --rhythm every-event; then ok; else bad "every-event: $(cat "$tmp/every.err")"; fi
expect every 3 20 "EASY at every event"
expect every 4 20 "EASY at every event"
expect every 2 1000 "EASY at every event"
hasnt "$tmp/every.err" "scheduler:" "--rhythm every-event: no rhythm said"

# bf_interval=600: the main scheduler stops at job 2; backfill at 600.
if run slow bf_interval=600; then ok; else bad "bf_interval=600: $(cat "$tmp/slow.err")"; fi
expect slow 3 600 "bf_interval=600"
expect slow 4 600 "bf_interval=600"
expect slow 2 1000 "bf_interval=600"
has "$tmp/slow.err" "scheduler: main pass at every event over default_queue_depth=100 jobs, over the whole queue every sched_interval=60 s; --policy easy's backfill pass every bf_interval=600 s over bf_max_job_test=500 jobs" "the rhythm said"
# --rhythm slurm is the default with the site model
run slow2 bf_interval=600 --rhythm slurm
cmp -s "$tmp/slow.csv" "$tmp/slow2.csv" && ok || bad "--rhythm slurm differs from the default"

# No SchedulerParameters: Slurm's default bf_interval (30 s).
run dflt ""
expect dflt 3 30 "default bf_interval"
expect dflt 4 30 "default bf_interval"

# bf_max_job_test=2: the pass at 30 tests jobs 2 and 3; job 4 at 60.
run deep2 bf_max_job_test=2
expect deep2 3 30 "bf_max_job_test=2"
expect deep2 4 60 "bf_max_job_test=2"
run deep3 bf_max_job_test=3
expect deep3 4 30 "bf_max_job_test=3"
# bf_max_job_user=1: jobs 3 and 4 of two users are both tested (30);
# of one user (ub) job 4 is not, and waits for the next pass (60).
run user1 bf_max_job_user=1
expect user1 4 30 "bf_max_job_user=1, jobs 3 and 4 of two users"
sed -i 's/|a|uc|/|a|ub|/' "$tmp/jobs.sacct"
run user1b bf_max_job_user=1
expect user1b 3 30 "bf_max_job_user=1, jobs 3 and 4 of one user"
expect user1b 4 60 "bf_max_job_user=1, jobs 3 and 4 of one user"

# Bad values: an error naming the file and the value, no replay.
run bad1 bf_interval=0 && bad "bf_interval=0 accepted"
has "$tmp/bad1.err" "bad1.conf: SchedulerParameters bf_interval=0: not an integer in \[1, 10800\] or -1" "bf_interval=0 named"
run bad2 bf_window=x && bad "bf_window=x accepted"
has "$tmp/bad2.err" "bad2.conf: SchedulerParameters bf_window=x: not an integer" "bf_window=x named"
# Keys not modelled: named in a warning.
run un bf_resolution=300,bf_continue
has "$tmp/un.err" "warning: .*un.conf: SchedulerParameters bf_resolution,bf_continue not modelled" "unmodelled keys named"
# --rhythm without the site model, or a bad value: usage errors.
"$toposim" --workload "$trace" --policy easy --rhythm slurm --jobs-csv /dev/null \
	--summary-json /dev/null 2> "$tmp/u1.err" && bad "--rhythm without --slurm-conf accepted"
has "$tmp/u1.err" "--rhythm chooses the site's scheduler rhythm: it needs --sacct and --slurm-conf" "--rhythm alone"
run u2 "" --rhythm sometimes && bad "--rhythm sometimes accepted"
has "$tmp/u2.err" "--rhythm: 'sometimes' is neither slurm nor every-event" "bad --rhythm named"
sim_done sim-rhythm
