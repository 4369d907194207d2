#!/usr/bin/env bash
# topotasks-cli.sh - topotasks on the example nodes/jobs pair
# (contrib/workload/tasks-example): both placements finish every job, the
# summary and the CSV say what topotasks(1) says, runs are reproducible,
# and bad input is named by file, line and value.
set -uo pipefail
topotasks=${TOPOTASKS:-./src/sim/topotasks}
ex=${srcdir:-.}/contrib/workload/tasks-example
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }

# expect_fail STATUS PATTERN ARGS...: that exit status and PATTERN on stderr.
expect_fail() {
	local want=$1 pat=$2
	shift 2
	"$topotasks" "$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	if [ "$rc" != "$want" ]; then
		bad "topotasks $*: exit $rc, not $want"
	elif grep -q -- "$pat" "$tmp/err"; then
		ok
	else
		bad "topotasks $*: stderr lacks '$pat': $(cat "$tmp/err")"
	fi
}

# has FILE LINE: FILE holds the exact line.
has() {
	if grep -qxF -- "$2" "$1"; then ok; else bad "$1 lacks '$2': $(cat "$1")"; fi
}

for mode in ll ff; do
	flag=; [ $mode = ff ] && flag=--fifo-first-fit
	if "$topotasks" --nodes "$ex/nodes.conf" --jobs "$ex/jobs.conf" \
		--jobs-csv "$tmp/$mode.csv" $flag > "$tmp/$mode.out" 2> "$tmp/err"; then
		ok
	else
		bad "topotasks $flag on the example: $(cat "$tmp/err")"
	fi
	has "$tmp/$mode.out" "jobs              8 (8 finished)"
	has "$tmp/$mode.out" "nodes             6"
	# n3 fails at 100 with four of job 5's tasks; job 3's four spare
	# copies are cancelled when the first copy of each task finishes.
	has "$tmp/$mode.out" "tasks lost        4"
	has "$tmp/$mode.out" "copies cancelled  4"
	has "$tmp/$mode.csv" "job_id,submit,first_start,end,job_time,tasks,replicas,reruns"
	if [ "$(tail -n +2 "$tmp/$mode.csv" | wc -l)" = 8 ]; then ok; else bad "$mode.csv rows"; fi
	if grep -q '^5,90.000000,.*,24,1,4$' "$tmp/$mode.csv"; then ok; else bad "$mode.csv: job 5 re-runs"; fi
	# every task's result is counted once, on some node
	sum=$(awk '/^results per node/ { for (i = 4; i <= NF; i++) { split($i, a, "="); s += a[2] } }
		END { print s }' "$tmp/$mode.out")
	if [ "$sum" = 122 ]; then ok; else bad "$mode: $sum results, not 122 tasks"; fi
done
has "$tmp/ll.out" "placement         least-loaded"
has "$tmp/ff.out" "placement         fifo-first-fit"
# the run worked out with the rule (pinned: a change of rule shows here)
has "$tmp/ll.out" "makespan          320.000 s"
has "$tmp/ll.out" "mean job time     69.688 s"
has "$tmp/ll.out" "results per node  n1=24 n2=20 n3=19 n4=24 n5=20 n6=15"
has "$tmp/ff.out" "results per node  n1=29 n2=21 n3=20 n4=20 n5=18 n6=14"

# Reproducible, byte for byte; the CSV may go to stdout.
"$topotasks" --nodes "$ex/nodes.conf" --jobs "$ex/jobs.conf" --jobs-csv - > "$tmp/a"
"$topotasks" --nodes "$ex/nodes.conf" --jobs "$ex/jobs.conf" --jobs-csv - > "$tmp/b"
if cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ]; then ok; else bad "not reproducible"; fi
has "$tmp/a" "job_id,submit,first_start,end,job_time,tasks,replicas,reruns"

# Command line and input errors.
expect_fail 2 "--nodes FILE and --jobs FILE are required" --nodes "$ex/nodes.conf"
expect_fail 2 "unknown option '--bogus'; valid: --nodes, --jobs, --jobs-csv" --nodes "$ex/nodes.conf" --jobs "$ex/jobs.conf" --bogus
expect_fail 2 "--jobs given twice" --nodes "$ex/nodes.conf" --jobs "$ex/jobs.conf" --jobs "$ex/jobs.conf"
expect_fail 2 "--nodes needs a value, but '--jobs' follows it" --nodes --jobs "$ex/jobs.conf"
expect_fail 2 "unexpected argument 'extra'" --nodes "$ex/nodes.conf" --jobs "$ex/jobs.conf" extra
expect_fail 1 "$tmp/missing: cannot open" --nodes "$tmp/missing" --jobs "$ex/jobs.conf"
printf 'NodeName=a CPUs=2 Memory=100\nNodeName=b CPUs=2 Memory=100 Speed=fast\n' > "$tmp/bad.nodes"
expect_fail 1 "$tmp/bad.nodes:2: Speed: 'fast' is not a number > 0" \
	--nodes "$tmp/bad.nodes" --jobs "$ex/jobs.conf"
printf '# jobs\nJobId=1 Submit=0 Tasks=2 Memory=10 Work=5\nJobId=2 Submit=0 Tasks=0 Memory=10 Work=5\n' \
	> "$tmp/bad.jobs"
expect_fail 1 "$tmp/bad.jobs:3: Tasks: '0' is not a whole number" \
	--nodes "$ex/nodes.conf" --jobs "$tmp/bad.jobs"
printf 'JobId=1 Submit=0 Tasks=2 Memory=99999 Work=5\n' > "$tmp/big.jobs"
expect_fail 1 "job 1: no node has 1 CPUs and 99999 MiB" --nodes "$ex/nodes.conf" --jobs "$tmp/big.jobs"
expect_fail 1 "cannot write" --nodes "$ex/nodes.conf" --jobs "$ex/jobs.conf" \
	--jobs-csv "$tmp/no/such/dir.csv"
if "$topotasks" --help | grep -q "usage: topotasks"; then ok; else bad "--help"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
