#!/usr/bin/env bash
# sim-empty.sh - nothing to replay is an error that says why, unless
# --allow-empty asks for the empty result, whose statistics are null in
# the JSON and "n/a" on the summary line (never 0): a misspelt
# --partition without --slurm-conf (the file's partitions listed), a
# header-only sacct file, an empty SWF with --nodes, every record
# skipped, an empty --het-jobs file.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"

cat >"$tmp/jobs.sacct" <<'EOF'
JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|Partition|State|NodeList
100|100|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00|01:00:00|4|16|batch|COMPLETED|n[1-4]
101|101|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:32:00|00:30:00|1-00:00:00|2|8|debug|COMPLETED|n[5-6]
102|102|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:12:00|00:10:00|UNLIMITED|1|4|batch|COMPLETED|n6
EOF
head -n 1 "$tmp/jobs.sacct" >"$tmp/header.sacct"
: >"$tmp/empty.swf"
printf '1 0 -1 0 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$tmp/skipped.swf"

# refused EXIT PATTERN ARGS...: toposim exits EXIT with PATTERN on stderr
# and writes no output.
refused() {
	local want=$1 pat=$2 rc
	shift 2
	rm -f "$tmp/o.csv" "$tmp/o.json"
	"$toposim" "$@" --jobs-csv "$tmp/o.csv" --summary-json "$tmp/o.json" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		bad "toposim $*: exit $rc, expected $want: $(cat "$tmp/err")"
	elif ! grep -qF -- "$pat" "$tmp/err"; then
		bad "toposim $*: stderr lacks '$pat': $(cat "$tmp/err")"
	elif [ -e "$tmp/o.csv" ] || [ -e "$tmp/o.json" ]; then
		bad "toposim $*: wrote an output"
	else
		ok
	fi
}

refused 1 "jobs.sacct: no job of partition 'bacth' to replay (the partitions there: batch,debug)" \
	--sacct "$tmp/jobs.sacct" --partition bacth --policy easy
refused 1 "no job of partition 'bacth' to replay (the partitions there: batch,debug; skipped: 3 of other partitions)" \
	--sacct "$tmp/jobs.sacct" --partition bacth --nodes 8 --policy easy
refused 1 "header.sacct: no job to replay: the file holds no job record" \
	--sacct "$tmp/header.sacct" --nodes 4 --policy easy
refused 1 "empty.swf: no job to replay: the file holds no job record" \
	--workload "$tmp/empty.swf" --nodes 16 --policy easy
refused 1 "skipped.swf: no job to replay: every record was skipped (1 with run time <= 0)" \
	--workload "$tmp/skipped.swf" --nodes 16 --policy easy
# the partition spelt right replays its two jobs
if "$toposim" --sacct "$tmp/jobs.sacct" --partition batch --policy easy --quiet \
	--jobs-csv /dev/null --summary-json - | grep -q '"jobs": 2,'; then ok; else bad "--partition batch"; fi

# ---- --allow-empty: the empty result, statistics null and n/a -----------
if "$toposim" --workload "$tmp/empty.swf" --nodes 16 --policy easy --allow-empty \
	--jobs-csv "$tmp/e.csv" --summary-json "$tmp/e.json" 2>"$tmp/err"; then ok; else
	bad "--allow-empty: $(cat "$tmp/err")"; fi
if python3 - "$tmp/e.json" <<'EOF'; then ok; else bad "--allow-empty JSON: $(cat "$tmp/e.json")"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert d["jobs"] == 0 and d["runs"] == 0 and d["nodes"] == 16, d
for k in ("utilisation", "mean_wait", "mean_bounded_slowdown", "mean_response_ratio",
          "mean_wait_over_estimate", "makespan", "fill_completion_rate"):
    assert d[k] is None, (k, d[k])
for k in ("wait", "bounded_slowdown", "response_time"):
    assert all(v is None for v in d[k].values()), (k, d[k])
EOF
has "$tmp/err" "0 jobs on 16 nodes, utilisation n/a, mean wait n/a \(median n/a, p95 n/a, p99 n/a\), mean bounded slowdown n/a" \
	"summary line of nothing"
hasnt "$tmp/err" "utilisation 0|mean wait 0 s|slowdown 0\.00" "no 0 for a statistic of nothing"
if [ "$(cat "$tmp/e.csv")" = "id,submit,start,end,nodes_req,nodes_alloc,estimate,runtime,status,extensions,nodelist,attempt,fill,hop_sum" ]; then
	ok; else bad "--allow-empty CSV: $(cat "$tmp/e.csv")"; fi
# sacct: Slurm's side of nothing is null too
if "$toposim" --sacct "$tmp/jobs.sacct" --partition bacth --nodes 8 --policy easy --allow-empty \
	--jobs-csv /dev/null --summary-json "$tmp/s.json" 2>"$tmp/err"; then ok; else
	bad "--allow-empty sacct: $(cat "$tmp/err")"; fi
if python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["sacct"]["slurm"]
assert s["jobs"] == 0 and s["mean_wait"] is None and s["utilisation"] is None, s' "$tmp/s.json"; then
	ok; else bad "--allow-empty sacct JSON: $(cat "$tmp/s.json")"; fi
has "$tmp/err" "slurm \(sacct\): 0 jobs on [0-9]+ nodes?, utilisation n/a, mean wait n/a, mean bounded slowdown n/a" \
	"Slurm's summary line of nothing"
# a statistic of nothing in a run with jobs: no fill job, no rate
printf '1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$tmp/one.swf"
if "$toposim" --workload "$tmp/one.swf" --nodes 2 --policy fcfs --quiet --jobs-csv /dev/null \
	--summary-json - | grep -q '"fill_completion_rate": null,'; then ok; else
	bad "fill_completion_rate without fill jobs is not null"; fi

# ---- heterogeneous mode -------------------------------------------------
hetgen=${TOPO_BUILDDIR:-.}/src/tools/hetgen
"$hetgen" --machine small --jobs 3 --seed 1 --out "$tmp/h" >/dev/null
: >"$tmp/none.jobs"
refused 1 "none.jobs: no job to replay: the file holds no JobId= line" --machine "$tmp/h.machine" \
	--het-jobs "$tmp/none.jobs" --truth "$tmp/h.truth" --policy pjs
if "$toposim" --machine "$tmp/h.machine" --het-jobs "$tmp/none.jobs" --truth "$tmp/h.truth" \
	--policy pjs --allow-empty --jobs-csv /dev/null --summary-json "$tmp/h.json" 2>"$tmp/err" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["jobs"] == 0 and d["total_job_time"] == 0, d
for k in ("mean_wait", "makespan", "fraction_parallel", "decision_cpu_per_pass_s"):
    assert d[k] is None, (k, d[k])' "$tmp/h.json"; then ok; else
	bad "--allow-empty --machine: $(cat "$tmp/err" "$tmp/h.json")"; fi
has "$tmp/err" "0/0 jobs ran .* mean wait n/a, makespan n/a, n/a parallel" "heterogeneous summary line of nothing"

sim_done sim-empty
