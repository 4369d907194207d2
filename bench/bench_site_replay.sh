#!/usr/bin/env bash
# bench_site_replay.sh BUILDDIR [JOBS] [NODES] [INTERARRIVAL] - a generated
# site's history (contrib/workload/site-gen.py --no-schedule: three
# partitions, one shared by CPUs, 1,000,000 jobs on 1,000 nodes by
# default) replayed by toposim under easy: without the site model
# (arrival order, every partition on one machine, whole nodes), with
# slurm.conf's priority/multifactor (each job on its partition's nodes,
# the shared partition's jobs sharing nodes by CPUs, memory and GPUs),
# the same with whole nodes (--whole-nodes), with a pass at every event
# instead of Slurm's scheduler rhythm (--rhythm every-event), and with
# multifactor and Fair Tree over sacctmgr's associations.  Prints wall
# seconds and peak RSS of each; asserts nothing (a benchmark, not a test).
set -euo pipefail
b=$(cd "$1" && pwd)
jobs=${2:-1000000} nodes=${3:-1000} ia=${4:-9}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 "$here/contrib/workload/site-gen.py" --out "$out" --jobs "$jobs" \
	--nodes "$nodes" --interarrival "$ia" --multifactor --no-schedule
echo "site: $jobs jobs, $nodes nodes, mean interarrival $ia s"
row() { # LABEL ARGS...
	local label=$1
	shift
	/usr/bin/time -f "%e %M" -o "$out/t" "$b/src/sim/toposim" --sacct "$out/jobs.sacct" \
		--policy easy --quiet --jobs-csv /dev/null --summary-json "$out/s.json" "$@" 2>/dev/null
	read -r s kb <"$out/t"
	printf '%-34s %8.1f s %8.0f MiB  utilisation %s\n' "$label" "$s" "$((kb / 1024))" \
		"$(sed -n 's/^  "utilisation": \(.*\),$/\1/p' "$out/s.json")"
}
row "no site model" --nodes "$nodes"
row "site, multifactor" --slurm-conf "$out/slurm.conf"
row "site, multifactor, whole nodes" --slurm-conf "$out/slurm.conf" --whole-nodes
row "site, multifactor, every event" --slurm-conf "$out/slurm.conf" --rhythm every-event
row "site, multifactor + fairshare" --slurm-conf "$out/slurm.conf" \
	--sacctmgr "$out/sacctmgr.txt"
