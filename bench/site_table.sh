#!/usr/bin/env bash
# site_table.sh BUILDDIR [JOBS] [SEED] - doc/results.md's generated
# shared-node site, one run: contrib/workload/site-gen.py --jobs JOBS
# (2000) --nodes 64 --seed SEED (7) --multifactor (56 batch nodes, the
# shared partition on half of them, 8 GPU nodes; jobs packed by CPUs in
# the recorded schedule), the last three quarters of the jobs replayed
# with the first quarter as the history, --sacctmgr its associations,
# under priority/basic and priority/multifactor (the same slurm.conf
# with PriorityType changed), fcfs and easy, in Slurm's scheduler rhythm
# (the default), at every event (--rhythm every-event) and with whole
# nodes (--whole-nodes).  Prints a Markdown table: the recorded schedule,
# then a row per replay (utilisation, mean wait, mean bounded slowdown
# from the summary JSON).  Asserts nothing: numbers for doc/results.md.
set -euo pipefail
b=$(cd "$1" && pwd)
jobs=${2:-2000} seed=${3:-7}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 "$here/contrib/workload/site-gen.py" --out "$out" --jobs "$jobs" --nodes 64 \
	--seed "$seed" --multifactor
sed 's|^PriorityType=.*|PriorityType=priority/basic|' "$out/slurm.conf" >"$out/basic.conf"
first=$((jobs / 4)) count=$((jobs - jobs / 4))
# json FILE KEY [recorded]: a number from the summary (the recorded
# schedule's: sacct.slurm).
json() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
if len(sys.argv) > 3: d = d["sacct"]["slurm"]
print(d[sys.argv[2]])' "$@"
}
fmt() { python3 -c 'import sys; print(f"{float(sys.argv[1]):.3f} | {float(sys.argv[2]):,.0f} | {float(sys.argv[3]):.2f}")' "$@"; }
echo "| slurm.conf | policy | scheduler | utilisation | mean wait (s) | mean bounded slowdown |"
echo "|---|---|---|---:|---:|---:|"
recorded=""
for prio in basic multifactor; do
	conf=$out/slurm.conf
	[ "$prio" = basic ] && conf=$out/basic.conf
	for pol in fcfs easy; do
		for how in rhythm every-event whole-nodes; do
			args=()
			case $how in
			every-event) args=(--rhythm every-event) ;;
			whole-nodes) args=(--whole-nodes) ;;
			esac
			"$b/src/sim/toposim" --sacct "$out/jobs.sacct" --slurm-conf "$conf" \
				--sacctmgr "$out/sacctmgr.txt" --jobs "$first:$count" --policy "$pol" \
				--quiet "${args[@]}" --jobs-csv /dev/null --summary-json "$out/s.json" 2>/dev/null
			if [ -z "$recorded" ]; then
				recorded=1
				echo "| recorded | – | – | $(fmt "$(json "$out/s.json" utilisation recorded)" \
					"$(json "$out/s.json" mean_wait recorded)" \
					"$(json "$out/s.json" mean_bounded_slowdown recorded)") |"
			fi
			label="Slurm's rhythm"
			[ "$how" = every-event ] && label="every event"
			[ "$how" = whole-nodes ] && label="Slurm's rhythm, whole nodes"
			echo "| priority/$prio | $pol | $label | $(fmt "$(json "$out/s.json" utilisation)" \
				"$(json "$out/s.json" mean_wait)" "$(json "$out/s.json" mean_bounded_slowdown)") |"
		done
	done
done
