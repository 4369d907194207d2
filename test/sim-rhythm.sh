#!/usr/bin/env bash
# sim-rhythm.sh - Slurm's scheduler rhythm in a site replay (--sacct
# with --slurm-conf): on 4 nodes job 1 runs on 2 until 1000 s, job 2
# (4 nodes) waits for them, jobs 3 and 4 (1 node, 100 s) could run
# beside it at once.  EASY at every event (--rhythm every-event) starts
# them at their submission; with the rhythm the main scheduler stops at
# job 2 and they wait for the next backfill pass (a multiple of
# bf_interval); bf_max_job_test=2 tests jobs 2 and 3 only, so job 4
# waits one pass more, as it does with bf_max_job_user=1 when jobs 3 and
# 4 are one user's.  bf_resolution moves job 2's reservation to its
# slot's start.  SchedulerParameters out of Slurm's range are refused
# naming the file and value.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

conf() { # SCHEDULERPARAMETERS ("": no such line); SCHEDTYPE: SchedulerType
	cat <<EOF2
ClusterName=t
PriorityType=priority/basic
${SCHEDTYPE:+SchedulerType=$SCHEDTYPE}
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
has "$tmp/slow.err" "scheduler: sched/backfill: main pass at every event over default_queue_depth=100 jobs, over the whole queue every sched_interval=60 s" "the main pass said"
has "$tmp/slow.err" "scheduler: sched/backfill: --policy easy's backfill pass every bf_interval=600 s over bf_max_job_test=500 jobs" "the backfill pass said"
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

# sched_interval=-1: slurmctld's schedule() returns at once, so only the
# backfill pass (every 30 s) starts jobs: job 1 at 0, 3 and 4 at 30.
run nomain sched_interval=-1
expect nomain 1 0 "sched_interval=-1"
expect nomain 3 30 "sched_interval=-1"
has "$tmp/nomain.err" "scheduler: sched/backfill: slurmctld's main pass off \(sched_interval=-1\)" "main pass off said"
# sched/topo: the policy's pass every topo_period over the whole queue
# (jobs 3 and 4, submitted at 20, at the next multiple of 7: 21; job 2
# after job 1's end at 1000, at 1001); its default period (1 s) starts
# 3 and 4 at 20.
SCHEDTYPE=sched/topo run topo7 sched_interval=-1,topo_period=7
expect topo7 3 21 "sched/topo, topo_period=7"
expect topo7 4 21 "sched/topo, topo_period=7"
expect topo7 2 1001 "sched/topo, topo_period=7: job 1 ends at 1000, the next pass is at 1001"
has "$tmp/topo7.err" "scheduler: sched/topo: --policy easy's pass every topo_period=7 s over the whole queue" "sched/topo's pass said"
SCHEDTYPE=sched/topo run topo1 sched_interval=-1
expect topo1 3 20 "sched/topo, default topo_period"
SCHEDTYPE=sched/topo run topobad sched_interval=-1,topo_period=0 && bad "topo_period=0 accepted"
has "$tmp/topobad.err" "topobad.conf: .*topo_period" "topo_period=0 named"
# sched/builtin: no backfill; the main scheduler stops at job 2, so 3
# and 4 start after it (1100).
SCHEDTYPE=sched/builtin run builtin ""
expect builtin 3 1100 "sched/builtin"
has "$tmp/builtin.err" "scheduler: sched/builtin: no backfill pass" "no backfill said"
SCHEDTYPE=sched/builtin run never sched_interval=-1 && bad "sched/builtin with sched_interval=-1 accepted"
has "$tmp/never.err" "never.conf: SchedulerType=sched/builtin with SchedulerParameters sched_interval=-1: no scheduler would start a job" "a replay no job starts in refused"
SCHEDTYPE=sched/fancy run fancy "" && bad "SchedulerType=sched/fancy accepted"
has "$tmp/fancy.err" "fancy.conf: SchedulerType=sched/fancy: expected sched/backfill, sched/builtin or sched/topo" "unknown SchedulerType named"

# Bad values: an error naming the file and the value, no replay.
run bad1 bf_interval=0 && bad "bf_interval=0 accepted"
has "$tmp/bad1.err" "bad1.conf: SchedulerParameters bf_interval=0: not an integer in \[1, 10800\] or -1" "bf_interval=0 named"
run bad2 bf_window=x && bad "bf_window=x accepted"
has "$tmp/bad2.err" "bad2.conf: SchedulerParameters bf_window=x: not an integer" "bf_window=x named"
# bf_resolution: job 2's reservation from 1000 s begins at its slot's
# start; job 3 (limit 900 s), tested at 30, ends by 930: within 960
# (Slurm's default 60 s slots, or 1 s), not within 900 (300 s slots), so
# it waits for job 2's end (1100).
sed 's/^3|3|\(.*\)|00:01:40|00:01:40|1|1|/3|3|\1|00:01:40|00:15:00|1|1|/' "$tmp/jobs.sacct" > "$tmp/res.sacct"
grep -q '|00:15:00|' "$tmp/res.sacct" || bad "the bf_resolution case's job 3 has no 900 s limit"
cp "$tmp/jobs.sacct" "$tmp/jobs.orig"
cp "$tmp/res.sacct" "$tmp/jobs.sacct"
run res60 ""
expect res60 3 30 "bf_resolution=60 (default)"
run res1 bf_resolution=1
expect res1 3 30 "bf_resolution=1"
run res300 bf_resolution=300
expect res300 3 1100 "bf_resolution=300"
has "$tmp/res300.err" "reserving within bf_window=1440 min in slots of bf_resolution=300 s" "bf_resolution said"
run resbad bf_resolution=3601 && bad "bf_resolution=3601 accepted"
has "$tmp/resbad.err" "resbad.conf: SchedulerParameters bf_resolution=3601: not an integer in \[1, 3600\]" "bf_resolution=3601 named"
cp "$tmp/jobs.orig" "$tmp/jobs.sacct"
# Keys not modelled: named in a warning.
run un bf_resolution=300,bf_continue,bf_max_time=30
has "$tmp/un.err" "warning: .*un.conf: SchedulerParameters bf_continue,bf_max_time not modelled \(passes take no time" "unmodelled keys named"
# --rhythm without the site model, or a bad value: usage errors.
"$toposim" --workload "$trace" --policy easy --rhythm slurm --jobs-csv /dev/null \
	--summary-json /dev/null 2> "$tmp/u1.err" && bad "--rhythm without --slurm-conf accepted"
has "$tmp/u1.err" "--rhythm chooses the site's scheduler rhythm: it needs --sacct and --slurm-conf" "--rhythm alone"
run u2 "" --rhythm sometimes && bad "--rhythm sometimes accepted"
has "$tmp/u2.err" "--rhythm: 'sometimes' is neither slurm nor every-event" "bad --rhythm named"
sim_done sim-rhythm
