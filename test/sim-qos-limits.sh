#!/usr/bin/env bash
# sim-qos-limits.sh - QOS limits in a site replay (--qos with limit
# columns, slurm.conf AccountingStorageEnforce=limits): on 4 idle nodes
# of 4 CPUs, four 1-node jobs of 100 s submitted at 0.  QOS `one` has
# MaxJobsPU=1: user ua's two jobs in it run one after the other (0,
# 100), ub's beside them (0), ua's job in QOS normal too (0).  QOS `cpu`
# has MaxTRESPU=cpu=6: ua's two 4-CPU jobs in it cannot run together.
# QOS `grp` has GrpJobs=1 over every user.  Without enforcement in
# slurm.conf (Slurm's default) the limits are not applied, and said so;
# a bad limit is an error naming the file, line and value.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

conf() { # ENFORCE ("": no such line)
	cat <<EOF2
ClusterName=t
PriorityType=priority/basic
${1:+AccountingStorageEnforce=$1}
NodeName=n[1-4] CPUs=4 RealMemory=4000
PartitionName=p Nodes=n[1-4] Default=YES MaxTime=1-0
EOF2
}
sacct() { # QOS_OF_JOB_1_AND_2 QOS_OF_JOB_3 QOS_OF_JOB_4
	cat <<EOF2
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|AllocTRES|Partition|Account|User|QOS|State|NodeList
1|1|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:40|00:01:40|00:01:40|1|4|cpu=4,node=1|p|a|ua|$1|COMPLETED|n1
2|2|2026-01-01T00:00:00|2026-01-01T00:01:40|2026-01-01T00:03:20|00:01:40|00:01:40|1|4|cpu=4,node=1|p|a|ua|$1|COMPLETED|n2
3|3|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:40|00:01:40|00:01:40|1|4|cpu=4,node=1|p|a|ub|$2|COMPLETED|n3
4|4|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:40|00:01:40|00:01:40|1|4|cpu=4,node=1|p|a|ua|$3|COMPLETED|n4
EOF2
}
printf 'Name|Priority|MaxJobsPU|MaxTRESPU|GrpJobs|GrpTRES\nnormal|0||||\none|10|1|||\ncpu|10||cpu=6||\ngrp|10|||1|\n' > "$tmp/qos.txt"
run() { # OUTPREFIX ENFORCE Q12 Q3 Q4 [ARGS...]
	local o=$1
	conf "$2" > "$tmp/$o.conf"
	sacct "$3" "$4" "$5" > "$tmp/$o.sacct"
	shift 5
	"$toposim" --sacct "$tmp/$o.sacct" --slurm-conf "$tmp/$o.conf" --qos "$tmp/qos.txt" \
		--policy easy --check "$@" --jobs-csv "$tmp/$o.csv" --summary-json "$tmp/$o.json" \
		2> "$tmp/$o.err"
}
start() { awk -F, -v id="$2" '$1 == id { print $3 }' "$tmp/$1.csv"; }
expect() { # PREFIX ID START WHAT
	local s
	s=$(start "$1" "$2")
	[ "$s" = "$3" ] && ok || bad "$4: job $2 starts at '$s', not $3 ($(cat "$tmp/$1.err"))"
}

# MaxJobsPU=1: ua's second job in `one` waits for the first.
run one limits one one normal || bad "one: $(cat "$tmp/one.err")"
expect one 1 0 "MaxJobsPU=1"
expect one 2 100 "MaxJobsPU=1: the same user's second job"
expect one 3 0 "MaxJobsPU=1: another user"
expect one 4 0 "MaxJobsPU=1: the same user in another QOS"
has "$tmp/one.err" "QOS limits: one: MaxJobsPU=1 " "the limits said"
# The same at every event (no scheduler rhythm).
run oneev limits one one normal --rhythm every-event || bad "oneev: $(cat "$tmp/oneev.err")"
expect oneev 2 100 "MaxJobsPU=1 at every event"
# safe implies limits.
run safe associations,safe one one normal || bad "safe: $(cat "$tmp/safe.err")"
expect safe 2 100 "AccountingStorageEnforce=safe"
# MaxTRESPU=cpu=6: two 4-CPU jobs of ua cannot run together.
run cpu limits cpu normal normal || bad "cpu: $(cat "$tmp/cpu.err")"
expect cpu 2 100 "MaxTRESPU=cpu=6"
expect cpu 4 0 "MaxTRESPU=cpu=6: the user's job in another QOS"
# GrpJobs=1: one job of the QOS at a time, whoever's.
run grp limits grp grp grp || bad "grp: $(cat "$tmp/grp.err")"
waits=$(for i in 1 2 3 4; do start grp "$i"; done | sort -n | paste -sd' ')
[ "$waits" = "0 100 200 300" ] && ok || bad "GrpJobs=1: starts $waits, not 0 100 200 300"
# Not enforced: all at 0, and said.
run off "" one one normal || bad "off: $(cat "$tmp/off.err")"
expect off 2 0 "no AccountingStorageEnforce"
has "$tmp/off.err" "warning: .*qos.txt has limits, but .*off.conf's AccountingStorageEnforce \(not set\) has neither limits nor safe" "not enforced, said"
# Bad limits: an error naming file, line and value.
printf 'Name|Priority|MaxJobsPU\nnormal|0|\none|10|two\n' > "$tmp/bad.txt"
"$toposim" --sacct "$tmp/one.sacct" --slurm-conf "$tmp/one.conf" --qos "$tmp/bad.txt" \
	--policy easy --jobs-csv /dev/null --summary-json /dev/null 2> "$tmp/bad.err" &&
	bad "MaxJobsPU=two accepted"
has "$tmp/bad.err" "bad.txt:3: bad MaxJobsPU 'two'" "bad MaxJobsPU named"
printf 'Name|Priority|MaxTRESPU\nnormal|0|\none|10|cpu=-2\n' > "$tmp/bad2.txt"
"$toposim" --sacct "$tmp/one.sacct" --slurm-conf "$tmp/one.conf" --qos "$tmp/bad2.txt" \
	--policy easy --jobs-csv /dev/null --summary-json /dev/null 2> "$tmp/bad2.err" &&
	bad "MaxTRESPU=cpu=-2 accepted"
has "$tmp/bad2.err" "bad2.txt:3: bad MaxTRESPU 'cpu=-2'" "bad MaxTRESPU named"
sim_done sim-qos-limits
