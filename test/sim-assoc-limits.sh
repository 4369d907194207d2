#!/usr/bin/env bash
# sim-assoc-limits.sh - association limits in a site replay (--sacctmgr
# with limits, slurm.conf AccountingStorageEnforce=limits): on 4 idle
# nodes of 4 CPUs, four 1-node 4-CPU jobs of 100 s submitted at 0: ua's
# jobs 1 and 2 and ub's job 3 in account a, uc's job 4 in account b.
# MaxJobs on a user, or on its account and so inherited by its users,
# runs that user's jobs one after the other; GrpJobs and GrpTRES on an
# account hold its subtree; MaxSubmitJobs refuses ua's second job at
# submission, as slurmctld does; a QOS limit of the same kind takes the
# association's place; both forms of sacctmgr are read; a bad limit is
# an error naming file, line and value.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

cat > "$tmp/site.conf" <<'EOF2'
ClusterName=t
PriorityType=priority/basic
AccountingStorageEnforce=associations,limits
NodeName=n[1-4] CPUs=4 RealMemory=4000
PartitionName=p Nodes=n[1-4] Default=YES MaxTime=1-0
EOF2
cat > "$tmp/jobs.sacct" <<'EOF2'
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|AllocTRES|Partition|Account|User|QOS|State|NodeList
1|1|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:40|00:01:40|00:01:40|1|4|cpu=4,node=1|p|a|ua|normal|COMPLETED|n1
2|2|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:40|00:01:40|00:01:40|1|4|cpu=4,node=1|p|a|ua|normal|COMPLETED|n2
3|3|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:40|00:01:40|00:01:40|1|4|cpu=4,node=1|p|a|ub|normal|COMPLETED|n3
4|4|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:40|00:01:40|00:01:40|1|4|cpu=4,node=1|p|b|uc|normal|COMPLETED|n4
EOF2
printf 'Name|Priority|MaxJobsPU\nnormal|0|\n' > "$tmp/qos.txt"
printf 'Name|Priority|MaxJobsPU\nnormal|0|2\n' > "$tmp/qos2.txt"

table() { # A_LIMITS UA_LIMITS (MaxJobs|MaxSubmit|GrpJobs|GrpTRES each)
	printf 'Cluster|Account|User|Share|ParentName|MaxJobs|MaxSubmit|GrpJobs|GrpTRES\n'
	printf 't|root||1|||||\n'
	printf 't|a||1|root|%s\n' "$1"
	printf 't|b||1|root||||\n'
	printf 't|a|ua|1||%s\n' "$2"
	printf 't|a|ub|1|||||\n'
	printf 't|b|uc|1|||||\n'
}
run() { # OUTPREFIX SACCTMGR [ARGS...]
	local o=$1 m=$2
	shift 2
	"$toposim" --sacct "$tmp/jobs.sacct" --slurm-conf "$tmp/site.conf" --sacctmgr "$m" \
		--policy easy --check "$@" --jobs-csv "$tmp/$o.csv" --summary-json "$tmp/$o.json" \
		2> "$tmp/$o.err"
}
starts() { # PREFIX: the starts of jobs 1..4 ("-": no record)
	local i s
	for i in 1 2 3 4; do
		s=$(awk -F, -v id="$i" '$1 == id { print $3 }' "$tmp/$1.csv")
		printf '%s ' "${s:--}"
	done
}
expect() { # PREFIX STARTS WHAT
	local s
	s=$(starts "$1")
	[ "$s" = "$2 " ] && ok || bad "$3: starts '$s', not '$2' ($(cat "$tmp/$1.err"))"
}

# MaxJobs=1 on ua: its second job waits; ub and uc do not.
table '|||' '1|||' > "$tmp/m1.txt"
run maxjobs "$tmp/m1.txt" || bad "maxjobs: $(cat "$tmp/maxjobs.err")"
expect maxjobs "0 100 0 0" "MaxJobs=1 on ua"
has "$tmp/maxjobs.err" "association limits: 1 association" "the limits said"
# MaxJobs=1 on account a: inherited by ua and ub, each one at a time.
table '1|||' '|||' > "$tmp/m2.txt"
run inherit "$tmp/m2.txt" || bad "inherit: $(cat "$tmp/inherit.err")"
expect inherit "0 100 0 0" "MaxJobs=1 on account a, inherited"
# GrpJobs=1 on account a: one job of a's subtree at a time; b's not held.
table '||1|' '|||' > "$tmp/g1.txt"
run grpjobs "$tmp/g1.txt" || bad "grpjobs: $(cat "$tmp/grpjobs.err")"
expect grpjobs "0 100 200 0" "GrpJobs=1 on account a"
# GrpTRES=cpu=8 on a: two of a's 4-CPU jobs at a time.
table '|||cpu=8' '|||' > "$tmp/g2.txt"
run grptres "$tmp/g2.txt" || bad "grptres: $(cat "$tmp/grptres.err")"
expect grptres "0 0 100 0" "GrpTRES=cpu=8 on account a"
# MaxSubmitJobs=1 on ua: its second job refused at submission.
table '|||' '|1||' > "$tmp/s1.txt"
run submit "$tmp/s1.txt" || bad "submit: $(cat "$tmp/submit.err")"
expect submit "0 - 0 0" "MaxSubmitJobs=1 on ua"
grep -q '"refused_at_submit": 1,' "$tmp/submit.json" && ok ||
	bad "refused_at_submit is not 1: $(grep refused "$tmp/submit.json")"
has "$tmp/submit.err" "1 job\(s\) refused at submission" "the refusal said"
grep -q '"refused_at_submit": 0,' "$tmp/maxjobs.json" && ok || bad "refused_at_submit not 0 without a submit limit"
# A QOS's MaxJobsPU=2 takes the place of ua's MaxJobs=1.
run qosfirst "$tmp/m1.txt" --qos "$tmp/qos2.txt" || bad "qosfirst: $(cat "$tmp/qosfirst.err")"
expect qosfirst "0 0 0 0" "QOS MaxJobsPU=2 before MaxJobs=1"
run qosnone "$tmp/m1.txt" --qos "$tmp/qos.txt" || bad "qosnone: $(cat "$tmp/qosnone.err")"
expect qosnone "0 100 0 0" "a QOS without MaxJobsPU leaves MaxJobs=1"
# The dump form: GrpJobs=1 on account a.
cat > "$tmp/dump.txt" <<'EOF2'
Cluster - 't':Fairshare=1:QOS='normal'
Parent - 'root'
User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
Account - 'a':Description='a':Organization='a':Fairshare=1:GrpJobs=1
Account - 'b':Description='b':Organization='b':Fairshare=1
Parent - 'a'
User - 'ua':DefaultAccount='a':Fairshare=1
User - 'ub':DefaultAccount='a':Fairshare=1
Parent - 'b'
User - 'uc':DefaultAccount='b':Fairshare=1
EOF2
run dump "$tmp/dump.txt" || bad "dump: $(cat "$tmp/dump.err")"
expect dump "0 100 200 0" "dump: GrpJobs=1 on account a"
# The cluster line's limits are root's: GrpTRES=cpu=8 over everyone.
sed 's/^Cluster - .t.:/&GrpTRES=cpu=8:/; s/:GrpJobs=1//' "$tmp/dump.txt" > "$tmp/root.txt"
run root "$tmp/root.txt" || bad "root: $(cat "$tmp/root.err")"
[ "$(starts root | tr ' ' '\n' | grep -c '^0$')" = 2 ] && ok || bad "root GrpTRES=cpu=8: starts $(starts root)"
# Not enforced: all at 0, and said.
sed 's/^AccountingStorageEnforce=.*/AccountingStorageEnforce=associations/' "$tmp/site.conf" > "$tmp/off.conf"
"$toposim" --sacct "$tmp/jobs.sacct" --slurm-conf "$tmp/off.conf" --sacctmgr "$tmp/m1.txt" \
	--policy easy --jobs-csv "$tmp/off.csv" --summary-json /dev/null 2> "$tmp/off.err" ||
	bad "off: $(cat "$tmp/off.err")"
expect off "0 0 0 0" "limits not enforced"
has "$tmp/off.err" "warning: .*m1.txt has limits, but .*off.conf's AccountingStorageEnforce \(associations\) has neither limits nor safe" "not enforced, said"
# Bad limits: an error naming file, line and value.
table '|||' 'x|||' > "$tmp/bad.txt"
run bad "$tmp/bad.txt" && bad "MaxJobs=x accepted"
has "$tmp/bad.err" "bad.txt:5: bad MaxJobs 'x'" "bad MaxJobs named"
sed 's/GrpJobs=1/GrpTRES=cpu=-1/' "$tmp/dump.txt" > "$tmp/bad2.txt"
run bad2 "$tmp/bad2.txt" && bad "GrpTRES=cpu=-1 accepted"
has "$tmp/bad2.err" "bad2.txt:4: bad GrpTRES 'cpu=-1'" "bad GrpTRES named"
sim_done sim-assoc-limits
