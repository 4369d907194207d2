#!/usr/bin/env bash
# hetero-margins.sh - the live test of sched/topo's PJS
# (test/live/t-sched-hetero.sh) expects choices worked out by hand from
# the run times its cluster learns.  Slurm learns whole seconds, and a
# loaded machine adds to a sleep: the choices must not hang on a margin
# of a second.  Here its job sequence is replayed in toposim (the same
# core, tp_het_pass) with the learned times being the live test's sleeps
# (read from its job script) plus every error of 0 to 3 s on each of the
# four, 256 replays: each must make the hand-worked choices -- four
# choosers on one node of a, two of them after the first two, the lone
# one on two nodes of a, the one arriving while a is busy on b.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
src=${TOPO_SRCDIR:-$sim_here/..}
live=$src/test/live/t-sched-hetero.sh
expdb=${TOPO_EXPDB:-${TOPO_BUILDDIR:-.}/src/sim/topo-expdb}

# sleep PART:NODES: the job script's sleep there
sleep_of() { sed -n "s/^WORK=.* $1) sleep \([0-9]*\);;.*/\1/p" "$live"; }
a1=$(sleep_of a:1) a2=$(sleep_of a:2) b1=$(sleep_of b:1) b2=$(sleep_of b:2)
long=$(sed -n 's/^long=.*-J long .*--wrap "sleep \([0-9]*\)".*/\1/p' "$live")
if [ -z "$a1" ] || [ -z "$a2" ] || [ -z "$b1" ] || [ -z "$b2" ] || [ -z "$long" ]; then
	echo "FAILED: cannot read the sleeps of $live ('$a1' '$a2' '$b1' '$b2' '$long')"
	exit 1
fi
echo "sleeps: a:1 $a1 s, a:2 $a2 s, b:1 $b1 s, b:2 $b2 s, long $long s"

# The live test's sequence (its SIMJOBS): learning at 0, four choosers
# at 200, one alone at 400, the long job on a at 600, a chooser at 601.
printf 'PartitionName=a Nodes=n[1-2]\nPartitionName=b Nodes=n[3-4]\n' >"$tmp/machine.conf"
{
	echo "JobId=1 Submit=0 Class=work Partitions=a Nodes=1 TimeLimit=60"
	echo "JobId=2 Submit=0 Class=work Partitions=a Nodes=2 TimeLimit=60"
	echo "JobId=3 Submit=0 Class=work Partitions=b Nodes=1 TimeLimit=60"
	echo "JobId=4 Submit=0 Class=work Partitions=b Nodes=2 TimeLimit=60"
	for j in 5 6 7 8; do echo "JobId=$j Submit=200 Class=work Partitions=a,b Nodes=1-2 TimeLimit=60"; done
	echo "JobId=9 Submit=400 Class=work Partitions=a,b Nodes=1-2 TimeLimit=60"
	echo "JobId=10 Submit=600 Class=long Partitions=a Nodes=2 TimeLimit=120"
	echo "JobId=11 Submit=601 Class=work Partitions=a,b Nodes=1-2 TimeLimit=60"
} >"$tmp/jobs.conf"
want="5 a 1|6 a 1|7 a 1|8 a 1|9 a 2|10 a 2|11 b 1"

for d1 in 0 1 2 3; do for d2 in 0 1 2 3; do for d3 in 0 1 2 3; do for d4 in 0 1 2 3; do
	rm -f "$tmp/truth.expdb"
	"$expdb" add "$tmp/truth.expdb" work a 1 $((a1 + d1)) >/dev/null &&
	"$expdb" add "$tmp/truth.expdb" work a 2 $((a2 + d2)) >/dev/null &&
	"$expdb" add "$tmp/truth.expdb" work b 1 $((b1 + d3)) >/dev/null &&
	"$expdb" add "$tmp/truth.expdb" work b 2 $((b2 + d4)) >/dev/null &&
	"$expdb" add "$tmp/truth.expdb" long a 2 "$long" >/dev/null || { bad "topo-expdb add"; continue; }
	if ! "$toposim" --machine "$tmp/machine.conf" --het-jobs "$tmp/jobs.conf" \
		--truth "$tmp/truth.expdb" --policy pjs --jobs-csv "$tmp/out.csv" \
		--summary-json /dev/null --quiet 2>"$tmp/err"; then
		bad "toposim: $(cat "$tmp/err")"
		continue
	fi
	# id,class,prio,partition,nodes,submit,start,end,...
	got=$(awk -F, 'NR > 1 && $1 >= 5 { print $1, $4, $5 }' "$tmp/out.csv" | sort -n | paste -sd'|')
	late=$(awk -F, 'NR > 1 && ($1 == 5 || $1 == 6) { e = $8 > e ? $8 : e }
		NR > 1 && ($1 == 7 || $1 == 8) { s = (s == "" || $7 < s) ? $7 : s }
		END { print (s >= e) ? "yes" : "no" }' "$tmp/out.csv")
	if [ "$got" = "$want" ] && [ "$late" = yes ]; then ok; else
		bad "learned a:1 $((a1 + d1)), a:2 $((a2 + d2)), b:1 $((b1 + d3)), b:2 $((b2 + d4)) s: '$got' (choosers 7, 8 after 5, 6: $late), not '$want'"
	fi
done; done; done; done

sim_done hetero-margins
