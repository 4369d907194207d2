#!/usr/bin/env bash
# sim-sacct-site.sh - a generated site's history (contrib/workload/
# site-gen.py: three partitions, two on the same nodes, one shared by
# CPUs; arrays, heterogeneous jobs, steps, every job state; records that
# contradict themselves in known numbers) replayed: every contradiction
# warned with the generator's count and the value used; partitions never
# merged or left out in silence; jobs that shared nodes in Slurm's
# schedule counted; Slurm's utilisation at most 1 although four jobs ran
# on one node at once.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
gen=$sim_here/../contrib/workload/site-gen.py
counts=$(python3 "$gen" --out "$tmp/site" --jobs 300 --nodes 16 --seed 1 --contradictions 2>&1) ||
	{ echo "FAILED: site-gen.py: $counts"; exit 1; }
# "duplicate=D elapsed=E nnodes=N unlimited=U"
eval "$counts"
sacct=$tmp/site/jobs.sacct conf=$tmp/site/slurm.conf
run() { # OUTPREFIX ARGS...
	local o=$1
	shift
	"$toposim" "$@" --jobs-csv "$tmp/$o.csv" --summary-json "$tmp/$o.json" 2> "$tmp/$o.err"
}
# a member of the summary's sacct object, by python
member() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["sacct"]
for k in sys.argv[2].split("."): d=d[k]
print(d)' "$1" "$2"; }

# The whole file: every partition on one machine, said so.
if run all --sacct "$sacct" --policy easy; then ok; else bad "replay: $(cat "$tmp/all.err")"; fi
has "$tmp/all.err" "$sacct: $nnodes record\(s\) give NNodes unlike their NodeList's count \(first: line [0-9]+\): the NodeList's count used" "NNodes warning"
has "$tmp/all.err" "$sacct: $elapsed record\(s\) give an Elapsed longer than End - Start \(first: line [0-9]+\): End - Start used" "Elapsed warning"
has "$tmp/all.err" "$sacct: $duplicate record\(s\) repeat a job id seen before \(first: line [0-9]+\): the first record replayed" "duplicate warning"
has "$tmp/all.err" "$sacct: $unlimited record\(s\) have no usable Timelimit .*: their run time used as the estimate" "missing limits without slurm.conf"
has "$tmp/all.err" "the jobs of 3 partitions \(shared, batch, gpu\) replayed together on one machine of 16 nodes" "partitions merged, said so"
has "$tmp/all.err" "[0-9]+ job\(s\) shared a node with another job in Slurm's schedule" "shared nodes said"
[ "$(member "$tmp/all.json" warnings.duplicate_id)" = "$duplicate" ] && ok || bad "duplicate count in the summary"
[ "$(member "$tmp/all.json" skipped.duplicate)" = "$duplicate" ] && ok || bad "duplicate skip in the summary"
[ "$(member "$tmp/all.json" warnings.partitions)" = 3 ] && ok || bad "partitions in the summary"
# Slurm's utilisation over what it allocated: never above 1.
u=$(member "$tmp/all.json" slurm.utilisation)
python3 -c "import sys; sys.exit(not (0 < $u <= 1))" && ok || bad "Slurm's utilisation $u"

# Four 8-CPU jobs on one 32-CPU node at once: the recorded side counts
# the node once (utilisation 1/4 of a 4-node machine), and all four are
# counted as sharing.
cat > "$tmp/four.sacct" <<'EOF2'
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|Partition|State|NodeList
1|1|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|shared|COMPLETED|n1
2|2|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|shared|COMPLETED|n1
3|3|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|shared|COMPLETED|n1
4|4|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|shared|COMPLETED|n1
5|5|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|32|shared|COMPLETED|n2
EOF2
if run four --sacct "$tmp/four.sacct" --policy easy --nodes 4; then ok; else bad "four: $(cat "$tmp/four.err")"; fi
has "$tmp/four.json" '"slurm": \{"jobs": 5, "utilisation": 0.500000,' "a node counted once however many jobs it held"
[ "$(member "$tmp/four.json" warnings.shared_node_jobs)" = 4 ] && ok || bad "four jobs sharing"

# One partition: its limits from slurm.conf, the overlapping partition's
# jobs on its nodes counted.
if run sh --sacct "$sacct" --policy easy --partition shared --slurm-conf "$conf"; then ok; else bad "shared: $(cat "$tmp/sh.err")"; fi
has "$tmp/sh.err" "record\(s\) give Timelimit UNLIMITED or Partition_Limit \(first: line [0-9]+\): their partition's MaxTime \(--slurm-conf\) used" "limits from MaxTime"
hasnt "$tmp/sh.err" "have no usable Timelimit" "no limit left missing"
has "$tmp/sh.err" "[0-9]+ job\(s\) of other partitions ran on partition shared's nodes" "overlapping partition's jobs said"
hasnt "$tmp/sh.err" "replayed together" "one partition: no merge"
n=$(member "$tmp/sh.json" warnings.other_partition_on_nodes)
[ "$n" -gt 0 ] && ok || bad "overlap count $n"
# The limits are the partition's MaxTime (12 h): the estimates column.
est=$(python3 - "$tmp/sh.csv" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
print(max(int(x["estimate"]) for x in r))
PY
)
[ "$est" = 43200 ] && ok || bad "largest estimate $est, not the shared partition's MaxTime 43200"

# The site: every partition at once, each job on its own partition's
# nodes (b1-b14 batch, b8-b14 shared, g1-g2 gpu, by name in the jobs
# CSV's Slurm host lists), no merge warning.
if run site --sacct "$sacct" --policy easy --slurm-conf "$conf" --check; then ok; else bad "site: $(cat "$tmp/site.err")"; fi
hasnt "$tmp/site.err" "replayed together" "the site: no merge"
has "$tmp/site.json" '"nodes": 16,' "the site's machine: every node of slurm.conf"
off=$(python3 - "$sacct" "$tmp/site.csv" <<'PY'
import csv, re, sys
part = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    f = line.split("|")
    part[f[1]] = f[13]
def names(prefix, lo, hi):
    return {"%s%d" % (prefix, i) for i in range(lo, hi + 1)}
allowed = {"batch": names("b", 1, 14), "shared": names("b", 8, 14),
           "gpu": names("g", 1, 2)}
def nodes(s):
    # A Slurm host list: b8, b[8-10,12], g1 ... (no leading zeros here).
    out = set()
    for pre, rng, one in re.findall(r"([a-z]+)(?:\[([^\]]*)\]|(\d+))", s):
        if one:
            out.add(pre + one)
            continue
        for r in rng.split(","):
            a, _, b = r.partition("-")
            out |= names(pre, int(a), int(b or a))
    return out
rows = list(csv.DictReader(open(sys.argv[2])))
off = [x["id"] for x in rows if not nodes(x["nodelist"]) or
       not nodes(x["nodelist"]) <= allowed[part[x["id"]]]]
print(len(off))
PY
)
[ "$off" = 0 ] && ok || bad "$off job(s) placed off their partition's nodes"

sim_done sim-sacct-site
