#!/usr/bin/env bash
# sim-het-cli.sh - toposim's heterogeneous mode (--machine): usage errors
# for a policy of the wrong kind, bad files named by file, line and value,
# the per-job CSV sched/topo's live test compares, oracle against
# learning, and hetgen's files run as written.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
hetgen=${HETGEN:-./src/tools/hetgen}

expect_fail() {
	local pat=$1
	shift
	if "$toposim" "$@" > /dev/null 2> "$tmp/err"; then
		bad "toposim $* succeeded"
	elif grep -q -- "$pat" "$tmp/err"; then
		ok
	else
		bad "toposim $*: stderr lacks '$pat': $(cat "$tmp/err")"
	fi
}

cat > "$tmp/m" <<'EOF2'
PartitionName=p Nodes=p1
PartitionName=q Nodes=q1 Class=qc
PartitionName=w Nodes=w[1-2]
EOF2
cat > "$tmp/j" <<'EOF2'
JobId=1 Submit=0 Class=a Partitions=p,q Nodes=1 TimeLimit=500
JobId=2 Submit=0 Class=b Partitions=w Nodes=1-2 TimeLimit=500
JobId=3 Submit=5 Class=b Partitions=w Nodes=1 TimeLimit=60 Priority=1
EOF2
printf 'topo-expdb 1\nlearned_until 0\na\tp\t1\t1\t100\t0\na\tqc\t1\t1\t10\t0\nb\tw\t1\t1\t100\t0\nb\tw\t2\t1\t30\t0\n' > "$tmp/t"
het=(--machine "$tmp/m" --het-jobs "$tmp/j" --truth "$tmp/t")

expect_fail "--policy easy is not a heterogeneous policy" "${het[@]}" --policy easy
expect_fail "--policy pjs is a heterogeneous policy: it needs --machine" \
	--workload "$tmp/j" --policy pjs --jobs-csv - --summary-json -
expect_fail "--machine needs --truth" --machine "$tmp/m" --het-jobs "$tmp/j" --policy sjs
expect_fail "--expdb and --oracle exclude each other" "${het[@]}" --policy sjs --oracle \
	--expdb "$tmp/t"
expect_fail "--truth, --expdb and --oracle need --machine" --workload "$tmp/j" --policy easy \
	--truth "$tmp/t" --jobs-csv - --summary-json -
printf 'PartitionName=p Nodes=p1\nPartitionName=q Nodes=q[1-\n' > "$tmp/badm"
expect_fail "badm:2: Nodes:" --machine "$tmp/badm" --het-jobs "$tmp/j" --truth "$tmp/t" --policy sjs
printf 'JobId=1 Submit=0 Class=a Partitions=p,zz Nodes=1 TimeLimit=5\n' > "$tmp/badj"
expect_fail "badj:1: Partitions: no such partition 'zz'" --machine "$tmp/m" --het-jobs "$tmp/badj" \
	--truth "$tmp/t" --policy sjs
printf 'topo-expdb 1\nlearned_until 0\na\tp\tone\t1\t100\t0\n' > "$tmp/badt"
expect_fail "badt:3:" --machine "$tmp/m" --het-jobs "$tmp/j" --truth "$tmp/badt" --policy sjs

expect_fail "nope.expdb: No such file" "${het[@]}" --policy sjs --expdb "$tmp/nope.expdb"

# The oracle: a on q (10 s), b on both nodes of w (30 s), then job 3 (its
# truth 100 s on one node, limit 60) killed at 30 + 60.
"$toposim" "${het[@]}" --policy pjs --oracle --quiet --jobs-csv "$tmp/o.csv" \
	--summary-json "$tmp/o.json" || bad "pjs --oracle failed"
head -1 "$tmp/o.csv" | grep -q '^id,class,prio,partition,nodes,submit,start,end,wait,parallel,killed,nodelist$' \
	&& ok || bad "CSV header: $(head -1 "$tmp/o.csv")"
got=$(sed 1d "$tmp/o.csv" | cut -d, -f1,4,5,7,8,11,12 | paste -sd' ')
want='1,q,1,0.000000,10.000000,0,"q1" 2,w,2,0.000000,30.000000,0,"w[1-2]" 3,w,1,30.000000,90.000000,1,"w1"'
[ "$got" = "$want" ] && ok || bad "pjs --oracle jobs: '$got' (want '$want')"
grep -q '"total_job_time": 125.000000' "$tmp/o.json" && ok || bad "summary: $(cat "$tmp/o.json")"
grep -q '"killed": 1' "$tmp/o.json" && ok || bad "killed count"

# Learning from nothing: the same jobs all end; --expdb seeds the database.
for p in olb min-min min-max sjs pjs; do
	"$toposim" "${het[@]}" --policy $p --quiet --jobs-csv "$tmp/l.csv" --summary-json - \
		| grep -q '"ran": 3' && ok || bad "$p learning online: not every job ran"
done
"$toposim" "${het[@]}" --policy sjs --expdb "$tmp/t" --quiet --jobs-csv - --summary-json /dev/null \
	| sed -n 2p | grep -q '^1,a,0,q,' && ok || bad "--expdb: job 1 not on q"

# hetgen's three files, run as written, twice: identical.
if "$hetgen" --machine small --jobs 60 --parallel 50 --prio 25/25/50 --seed 3 --out "$tmp/g"; then
	for k in 1 2; do
		"$toposim" --machine "$tmp/g.machine" --het-jobs "$tmp/g.jobs" --truth "$tmp/g.truth" \
			--policy pjs --quiet --jobs-csv "$tmp/g$k.csv" --summary-json "$tmp/g$k.json"
	done
	[ "$(sed 1d "$tmp/g1.csv" | wc -l)" -eq 60 ] && ok || bad "hetgen run: not 60 jobs"
	cmp -s "$tmp/g1.csv" "$tmp/g2.csv" && ok || bad "two runs differ"
else
	bad "hetgen failed"
fi
sim_done
