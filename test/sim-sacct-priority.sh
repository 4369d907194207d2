#!/usr/bin/env bash
# sim-sacct-priority.sh - a sacct replay queued in the site's priority
# order (slurm.conf's PriorityType and weights, sacctmgr's associations,
# Fair Tree), with usage seeded from the history before the replayed
# slice: on one node, a blocker runs while two jobs of two users wait; the
# user whose history used the machine waits longer under
# priority/multifactor, the earlier submission goes first under
# priority/basic; --sprio-out prints the factors; sacctmgr's dump and
# table forms give the same replay.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

conf() { # PRIORITYTYPE
	cat <<EOF2
ClusterName=t
PriorityType=$1
PriorityWeightFairshare=1000
PriorityWeightAge=0
PriorityDecayHalfLife=7-0
PriorityCalcPeriod=5
SchedulerParameters=bf_interval=60,bf_max_job_test=100
NodeName=n1 CPUs=4
PartitionName=p Nodes=n1 Default=YES MaxTime=1-0
EOF2
}
conf priority/multifactor > "$tmp/mf.conf"
conf priority/basic > "$tmp/basic.conf"
cat > "$tmp/assoc.txt" <<'EOF2'
Cluster|Account|User|Share|Par Name
t|a||1|root
t|a|ua|1|
t|b||1|root
t|b|ub|1|
t|c||1|root
t|c|uc|1|
EOF2
cat > "$tmp/dump.cfg" <<'EOF2'
Cluster - 't':Fairshare=1
Parent - 'root'
Account - 'a':Fairshare=1
Account - 'b':Fairshare=1
Account - 'c':Fairshare=1
Parent - 'a'
User - 'ua':Fairshare=1
Parent - 'b'
User - 'ub':Fairshare=1
Parent - 'c'
User - 'uc':Fairshare=1
EOF2
# sacct HISTORYUSER: job 1 (history) by HISTORYUSER; 10 by uc blocks the
# node from 7200 to 10800; 11 (ua) and 12 (ub) wait from 7300 and 7400.
sacct() {
	cat <<EOF2
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|Partition|Account|User|State|NodeList
1|1|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|4|p|${1#u}|$1|COMPLETED|n1
10|10|2026-01-01T02:00:00|2026-01-01T02:00:00|2026-01-01T03:00:00|01:00:00|01:00:00|1|4|p|c|uc|COMPLETED|n1
11|11|2026-01-01T02:01:40|2026-01-01T03:00:00|2026-01-01T03:01:40|00:01:40|00:10:00|1|4|p|a|ua|COMPLETED|n1
12|12|2026-01-01T02:03:20|2026-01-01T03:01:40|2026-01-01T03:03:20|00:01:40|00:10:00|1|4|p|b|ub|COMPLETED|n1
EOF2
}
sacct ua > "$tmp/ua.sacct"
sacct ub > "$tmp/ub.sacct"
run() { # OUTPREFIX ARGS...
	local o=$1
	shift
	"$toposim" "$@" --policy fcfs --jobs 1:3 --jobs-csv "$tmp/$o.csv" \
		--summary-json "$tmp/$o.json" 2> "$tmp/$o.err"
}
start() { # CSV ID: the job's simulated start
	awk -F, -v id="$2" '$1 == id { print $3 }' "$1"
}
# ua used the machine in the history: ub's job 12 goes first at 10800.
if run mf --sacct "$tmp/ua.sacct" --slurm-conf "$tmp/mf.conf" --sacctmgr "$tmp/assoc.txt" \
	--sprio-out "$tmp/sprio.csv" --sprio-at 3300; then ok; else bad "multifactor: $(cat "$tmp/mf.err")"; fi
has "$tmp/mf.err" "priority: priority/multifactor .* recalculated every 300 s, Fair Tree" "model named"
has "$tmp/mf.err" "scheduler: sched/backfill: --policy .* every bf_interval=60 s over bf_max_job_test=100 jobs" "scheduler rhythm from SchedulerParameters, said"
[ "$(start "$tmp/mf.csv" 12)" = 10800 ] && ok || bad "job 12 at $(start "$tmp/mf.csv" 12), not 10800"
[ "$(start "$tmp/mf.csv" 11)" = 10900 ] && ok || bad "job 11 at $(start "$tmp/mf.csv" 11), not 10900"
# the same with the usage in ub's history: 11 first
run mfb --sacct "$tmp/ub.sacct" --slurm-conf "$tmp/mf.conf" --sacctmgr "$tmp/assoc.txt"
[ "$(start "$tmp/mfb.csv" 11)" = 10800 ] && ok || bad "history ub: job 11 at $(start "$tmp/mfb.csv" 11)"
# the dump form: the same replay
run dump --sacct "$tmp/ua.sacct" --slurm-conf "$tmp/mf.conf" --sacctmgr "$tmp/dump.cfg"
cmp -s "$tmp/mf.csv" "$tmp/dump.csv" && ok || bad "sacctmgr dump and table replay differently"
# priority/basic: submission order
run basic --sacct "$tmp/ua.sacct" --slurm-conf "$tmp/basic.conf" --sacctmgr "$tmp/assoc.txt"
[ "$(start "$tmp/basic.csv" 11)" = 10800 ] && ok || bad "basic: job 11 at $(start "$tmp/basic.csv" 11)"
has "$tmp/basic.err" "priority: priority/basic" "basic named"
# The factors at 3300 s after the slice's first submission (the step at
# 7200 + 3300 = 10500): both wait; ub, without usage, ranks first of the
# three users (fairshare 3/3, priority 1000), ua below.
has "$tmp/sprio.csv" '^time,id,priority,tier,age,fairshare,jobsize,partition,qos,assoc,tres$' "sprio header"
has "$tmp/sprio.csv" '^10500,12,1000,1,0.000000,1.000000,' "job 12's factors at 10500"
has "$tmp/sprio.csv" '^10500,11,[0-9]{3},1,0.000000,0.[0-9]+,' "job 11's factors at 10500"
# Without --sacctmgr: fairshare 0 for all, said; arrival order remains.
run nofs --sacct "$tmp/ua.sacct" --slurm-conf "$tmp/mf.conf"
has "$tmp/nofs.err" "PriorityWeightFairshare is 1000 but no --sacctmgr" "no associations said"
[ "$(start "$tmp/nofs.csv" 11)" = 10800 ] && ok || bad "no fairshare: job 11 at $(start "$tmp/nofs.csv" 11)"
# A job whose association is missing: counted.
sed 's/|b|ub|/|b|ux|/' "$tmp/ua.sacct" > "$tmp/ux.sacct"
run ux --sacct "$tmp/ux.sacct" --slurm-conf "$tmp/mf.conf" --sacctmgr "$tmp/assoc.txt"
has "$tmp/ux.err" "1 job\(s\) of no association in --sacctmgr \(first: line 5\)" "missing association"
# QOS priorities (--qos): with a QOS weight job 12's QOS `high` puts it
# before job 11 although ub's history gives ua the better fairshare.
sed 's/^PriorityWeightAge=0$/PriorityWeightAge=0\nPriorityWeightQOS=5000/' "$tmp/mf.conf" > "$tmp/mfq.conf"
sed -e '1s/$/|QOS/' -e '2,4s/$/|normal/' -e '5s/$/|high/' "$tmp/ub.sacct" > "$tmp/ubq.sacct"
printf 'Name|Priority|MaxJobsPU\nnormal|0|\nhigh|100|2\n' > "$tmp/qos.txt"
run q --sacct "$tmp/ubq.sacct" --slurm-conf "$tmp/mfq.conf" --sacctmgr "$tmp/assoc.txt" \
	--qos "$tmp/qos.txt" --sprio-out "$tmp/sprioq.csv" --sprio-at 3300
[ "$(start "$tmp/q.csv" 12)" = 10800 ] && ok || bad "--qos: job 12 at $(start "$tmp/q.csv" 12), not 10800"
hasnt "$tmp/q.err" "no --qos" "--qos: no warning"
has "$tmp/sprioq.csv" '^10500,12,[0-9]+,1,0.000000,[0-9.]+,[0-9.]+,[0-9.]+,1.000000,' "job 12's QOS factor 1"
has "$tmp/sprioq.csv" '^10500,11,[0-9]+,1,0.000000,[0-9.]+,[0-9.]+,[0-9.]+,0.000000,' "job 11's QOS factor 0"
run noq --sacct "$tmp/ubq.sacct" --slurm-conf "$tmp/mfq.conf" --sacctmgr "$tmp/assoc.txt"
[ "$(start "$tmp/noq.csv" 11)" = 10800 ] && ok || bad "no --qos: job 11 at $(start "$tmp/noq.csv" 11)"
has "$tmp/noq.err" "PriorityWeightQOS is 5000 but no --qos: every QOS factor is 0" "no --qos said"
printf 'Name|Priority\nnormal|0\n' > "$tmp/qos1.txt"
run q1 --sacct "$tmp/ubq.sacct" --slurm-conf "$tmp/mfq.conf" --qos "$tmp/qos1.txt"
has "$tmp/q1.err" "1 job\(s\) of a QOS .*qos1.txt lacks \(first: line 5\): QOS factor 0" "a QOS the table lacks"
printf 'Name|Priority\nnormal|0\nhigh|x1\n' > "$tmp/qos2.txt"
run q2 --sacct "$tmp/ubq.sacct" --slurm-conf "$tmp/mfq.conf" --qos "$tmp/qos2.txt" && bad "a bad QOS priority accepted"
has "$tmp/q2.err" "qos2.txt:3: bad Priority 'x1'" "bad QOS priority named"
printf 'Name|Prio\nnormal|0\n' > "$tmp/qos3.txt"
run q3 --sacct "$tmp/ubq.sacct" --slurm-conf "$tmp/mfq.conf" --qos "$tmp/qos3.txt" && bad "a QOS header without Priority accepted"
has "$tmp/q3.err" "qos3.txt:1: the header lacks Name or Priority" "QOS header named"
printf 'Name|Priority\nhigh|1\nhigh|2\n' > "$tmp/qos4.txt"
run q4 --sacct "$tmp/ubq.sacct" --slurm-conf "$tmp/mfq.conf" --qos "$tmp/qos4.txt" && bad "a QOS twice accepted"
has "$tmp/q4.err" "qos4.txt:3: QOS 'high' a second time" "QOS twice named"
# --usage recorded: usage charged from the recorded runs; here no waiting
# job's order depends on which, so the replay is the same.
run rec --sacct "$tmp/ua.sacct" --slurm-conf "$tmp/mf.conf" --sacctmgr "$tmp/assoc.txt" --usage recorded
cmp -s "$tmp/mf.csv" "$tmp/rec.csv" && ok || bad "--usage recorded changed this replay"
run rec2 --sacct "$tmp/ua.sacct" --slurm-conf "$tmp/mf.conf" --usage sometimes && bad "--usage sometimes accepted"
has "$tmp/rec2.err" "--usage: 'sometimes' is neither replayed nor recorded" "bad --usage named"
# Bad use.
"$toposim" --sacct "$tmp/ua.sacct" --sacctmgr "$tmp/assoc.txt" --policy fcfs \
	--jobs-csv /dev/null --summary-json /dev/null 2> "$tmp/u1.err" && bad "--sacctmgr without --slurm-conf accepted"
has "$tmp/u1.err" "need --sacct and --slurm-conf" "--sacctmgr alone"
run u2 --sacct "$tmp/ua.sacct" --slurm-conf "$tmp/mf.conf" --sprio-out "$tmp/x.csv" --sprio-at 5,1 && bad "descending instants accepted"
has "$tmp/u2.err" "instants must ascend" "descending instants"

sim_done sim-sacct-priority
