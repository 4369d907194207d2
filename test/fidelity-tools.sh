#!/usr/bin/env bash
# fidelity-tools.sh - the tools of contrib/replay-fidelity.sh on small
# hand-made inputs whose answers are worked out here: stream.py (an SWF
# and a sacct workload onto the test bed), compare.py (start-time errors,
# mean-wait error, rank correlations) and sprio-compare.py (agreement to
# sprio's rounding, the recalculation a sample belongs to).
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
fid=$sim_here/../contrib/fidelity
py() { python3 "$@"; }

# ---- stream.py: an SWF of 5 jobs on a 32-processor machine, 100 s apart
cat >"$tmp/w.swf" <<'EOF'
; MaxProcs: 32
1 1000 0 600 8 -1 -1 8 1200 -1 1 7 1 -1 1 -1 -1 -1
2 1100 0 3000 32 -1 -1 32 3600 -1 1 7 1 -1 2 -1 -1 -1
3 1200 0 50 1 -1 -1 1 -1 -1 1 9 1 -1 1 -1 -1 -1
4 1300 0 0 4 -1 -1 4 60 -1 1 9 1 -1 1 -1 -1 -1
5 1400 0 200 2 -1 -1 2 300 -1 1 9 1 -1 3 -1 -1 -1
EOF
# 4 usable jobs (job 4 ran 0 s): span 400 s into 40 s, F = 10.
py "$fid/stream.py" "$tmp/w.swf" --count 4 --span 40 --mode whole >"$tmp/s.tsv" 2>"$tmp/s.err"
has "$tmp/s.err" 'time / 10\.0' "stream.py: the compression factor"
# job 1: 8 of 32 procs = 16 of 64 cores = 4 nodes, run 60 s,
# limit (1200/10 + 5) s = 2 min; user 7 has 2 jobs: the busiest, pa1;
# queue 1 (odd) and 4 <= 8 nodes: prio.
has "$tmp/s.tsv" $'^0\t0\\.0\tpa1\tpa\tprio\tnormal\t4\t16\t0\t1\t3\t60$' "stream.py: job 1 whole"
# job 2: the whole machine, run 300 s, batch (queue 2 even).
has "$tmp/s.tsv" $'^1\t10\\.0\tpa1\tpa\tbatch\tnormal\t16\t64\t0\t1\t7\t300$' "stream.py: job 2 whole"
# job 3: 1 proc = 2 cores = 1 node; 50 s / 10 = 5 s; no requested time:
# the run time stands in, (5 + 5) s = 1 min; user 9 (2 jobs, a higher
# id than 7's) is second: pa2.
has "$tmp/s.tsv" $'^2\t20\\.0\tpa2\tpa\tprio\tnormal\t1\t4\t0\t1\t1\t5$' "stream.py: job 3 whole"
py "$fid/stream.py" "$tmp/w.swf" --count 4 --span 40 --mode shared >"$tmp/s2.tsv" 2>/dev/null
# shared: job 3 (2 cores) shares nodes, 900 MB a CPU (index 2 is not 3 mod 7);
# job 1 (16 cores, more than 2 nodes' worth) keeps whole nodes.
has "$tmp/s2.tsv" $'^2\t20\\.0\tpa2\tpa\tprio\tnormal\t0\t2\t900\t0\t1\t5$' "stream.py: job 3 shared"
has "$tmp/s2.tsv" $'^0\t0\\.0\tpa1\tpa\tprio\tnormal\t4\t16\t0\t1\t3\t60$' "stream.py: job 1 stays whole"
if py "$fid/stream.py" "$tmp/w.swf" --count 9 >/dev/null 2>"$tmp/e"; then
	bad "stream.py: 9 jobs of 4 accepted"
else has "$tmp/e" '4 usable jobs, --first 0 --count 9 needs 9' "stream.py: too few jobs named"; fi
# the same jobs as sacct output
cat >"$tmp/w.sacct" <<'EOF'
JobID|Submit|Start|End|Timelimit|NNodes|NCPUS|Partition|User
1|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:10:10|00:20:00|1|8|a|u7
1.batch|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:10:10||1|8|a|u7
2|2026-01-01T00:01:40|2026-01-01T00:02:00|2026-01-01T00:52:00|01:00:00|4|32|b|u7
3|2026-01-01T00:03:20|2026-01-01T00:03:20|2026-01-01T00:04:10|UNLIMITED|1|1|a|u9
EOF
py "$fid/stream.py" "$tmp/w.sacct" --count 3 --span 20 >"$tmp/s3.tsv" 2>"$tmp/s3.err"
has "$tmp/s3.err" 'time / 10\.0' "stream.py sacct: the compression factor"
has "$tmp/s3.tsv" $'^0\t0\\.0\tpa1\tpa\tbatch\tnormal\t4\t16\t0\t1\t3\t60$' "stream.py sacct: job 1"
has "$tmp/s3.tsv" $'^2\t20\\.0\tpa2\tpa\tbatch\tnormal\t1\t4\t0\t1\t1\t5$' "stream.py sacct: job 3, no limit"
[ "$(grep -c . "$tmp/s3.tsv")" = 4 ] && ok || bad "stream.py sacct: steps are not jobs"

# ---- compare.py: 5 jobs; Slurm's starts and the replay's, 2 s apart at most
cat >"$tmp/live.sacct" <<'EOF'
JobID|JobIDRaw|Submit|Start|End
11|11|2026-01-01T00:00:00|2026-01-01T00:00:01|2026-01-01T00:00:09
12|12|2026-01-01T00:00:02|2026-01-01T00:00:05|2026-01-01T00:00:09
12.batch|12.batch|2026-01-01T00:00:02|2026-01-01T00:00:05|2026-01-01T00:00:09
13|13|2026-01-01T00:00:03|2026-01-01T00:00:10|2026-01-01T00:00:19
14|14|2026-01-01T00:00:04|2026-01-01T00:00:12|2026-01-01T00:00:19
15|15|2026-01-01T00:00:05|2026-01-01T00:00:20|2026-01-01T00:00:29
16|16|2026-01-01T00:00:06|Unknown|Unknown
EOF
cat >"$tmp/replay.csv" <<'EOF'
id,submit,start,end,nodes_req,nodes_alloc,estimate,runtime,status,extensions,nodelist,attempt,fill,hop_sum
11,0,0,8,1,1,60,8,completed,0,"n1",1,0,0
12,2,5,9,2,2,60,4,completed,0,"n[1,3]",1,0,0
13,3,8,17,1,1,60,9,completed,0,"n1",1,0,0
14,4,14,21,1,1,60,7,completed,0,"n2",1,0,0
15,5,18,27,1,1,60,9,completed,0,"n1",1,0,0
EOF
# errors -1, 0, -2, +2, -2: within 1 s: 2 of 5; within 2 s: all.
py "$fid/compare.py" "$tmp/live.sacct" "$tmp/replay.csv" --interval 1 --errors "$tmp/err" \
	--json "$tmp/f.json" >"$tmp/c.txt"
has "$tmp/c.txt" '^jobs 5$' "compare: jobs in both"
has "$tmp/c.txt" '^live_not_started 1$' "compare: a job that never started"
has "$tmp/c.txt" '^within 0\.4000$' "compare: 2 of 5 within 1 s"
has "$tmp/c.txt" '^within_0 0\.2000$' "compare: 1 exact"
has "$tmp/c.txt" '^err_p50 2\.0000$' "compare: median |error|"
has "$tmp/c.txt" '^err_max 2\.0000$' "compare: largest |error|"
has "$tmp/c.txt" '^err_mean -0\.6000$' "compare: mean signed error"
# waits: live 1,3,7,8,15 = 6.8; replay 0,3,5,10,13 = 6.2; -8.82 %
has "$tmp/c.txt" '^wait_live 6\.8000$' "compare: mean wait live"
has "$tmp/c.txt" '^wait_err -0\.0882$' "compare: mean-wait error"
# start orders: live 1,5,10,12,20; replay 0,5,8,14,18: the same order.
has "$tmp/c.txt" '^rank_corr 1\.0000$' "compare: same start order"
has "$tmp/err" '^14 2$' "compare: per-job error written"
py "$fid/compare.py" "$tmp/live.sacct" "$tmp/replay.csv" --interval 2 >"$tmp/c2.txt"
has "$tmp/c2.txt" '^within 1\.0000$' "compare: all within 2 s"
# swap two starts in the replay: 13 and 14 (8 and 14 become 14 and 8)
sed -e 's/^13,3,8,17/13,3,14,23/' -e 's/^14,4,14,21/14,4,8,15/' "$tmp/replay.csv" >"$tmp/r2.csv"
py "$fid/compare.py" "$tmp/live.sacct" "$tmp/r2.csv" >"$tmp/c3.txt"
# ranks 1..5 vs 1,2,4,3,5: Spearman 1 - 6*2/(5*24) = 0.9; tau (9-1)/10 = 0.8
has "$tmp/c3.txt" '^rank_corr 0\.9000$' "compare: Spearman with one swap"
has "$tmp/c3.txt" '^kendall_tau 0\.8000$' "compare: Kendall with one swap"
# Slurm's latency: 21 submitted onto free n[1-2] starts 1 s later; 22
# waits for n2 (21 ends at 10) and starts at 12; 23 on n3, free, at once.
cat >"$tmp/lat.sacct" <<'EOF2'
JobIDRaw|JobID|Submit|Start|End|NodeList
21|21|2026-01-01T00:00:00|2026-01-01T00:00:01|2026-01-01T00:00:10|n[1-2]
22|22|2026-01-01T00:00:02|2026-01-01T00:00:12|2026-01-01T00:00:20|n2
23|23|2026-01-01T00:00:03|2026-01-01T00:00:03|2026-01-01T00:00:20|n3
EOF2
printf 'id,submit,start,end,nodelist\n21,0,0,9,"n[1-2]"\n22,2,9,17,"n2"\n23,3,3,20,"n3"\n' >"$tmp/lat.csv"
py "$fid/compare.py" "$tmp/lat.sacct" "$tmp/lat.csv" >"$tmp/lat.txt"
has "$tmp/lat.txt" '^lat_submit_live 0\.5000$' "compare: latency at submission (1 and 0 s)"
has "$tmp/lat.txt" '^lat_end_live 2\.0000$' "compare: latency after an end"
has "$tmp/lat.txt" '^lat_end_replay 0\.0000$' "compare: the replay's latency after an end"
printf 'id,submit\n1,0\n' >"$tmp/bad.csv"
if py "$fid/compare.py" "$tmp/live.sacct" "$tmp/bad.csv" >/dev/null 2>"$tmp/e"; then
	bad "compare: a CSV without start accepted"
else has "$tmp/e" 'no start column' "compare: a missing column named"; fi

# ---- sprio-compare.py: weights age 1000, fairshare 2000; period 60 s
cat >"$tmp/slurm.conf" <<'EOF'
PriorityWeightAge=1000
PriorityWeightFairshare=2000 # a comment
EOF
# first submission at 0 (job 11); sample at +118: the recalculation at +60.
cat >"$tmp/sprio" <<'EOF'
1767225718|13|batch|1667|0.9500000|0.3583333|0|0|0|950|717|0|0|0
1767225718|14|batch|1483|0.9333333|0.2750000|0|0|0|933|550|0|0|0
1767225718|15|batch|1000|0.0000000|0.5000000|0|0|0|0|1000|0|0|0
EOF
cp "$tmp/live.sacct" "$tmp/live2.sacct"
printf '15|15|2026-01-01T00:01:05|2026-01-01T00:02:20|2026-01-01T00:02:29\n' >>"$tmp/live2.sacct"
cat >"$tmp/sprio.replay" <<'EOF'
time,id,priority,tier,age,fairshare,jobsize,partition,qos,assoc,tres
60,13,1667,1,0.950000,0.358333,0,0,0,0,0.00
60,14,1483,1,0.933333,0.275000,0,0,0,0,0.00
EOF
# job 15 appears twice in live2 (the later line wins: submitted at +65,
# after the recalculation): not compared.
py "$fid/sprio-compare.py" "$tmp/sprio" "$tmp/sprio.replay" --live-sacct "$tmp/live2.sacct" \
	--slurm-conf "$tmp/slurm.conf" >"$tmp/p.txt"
st=$?
[ "$st" = 0 ] && ok || bad "sprio-compare: agreeing factors exit $st"
has "$tmp/p.txt" '^compared 2$' "sprio-compare: jobs submitted before the recalculation"
has "$tmp/p.txt" '^agree 2$' "sprio-compare: both agree"
sed -i 's/^60,14,1483,1,0.933333,0.275000/60,14,1484,1,0.933333,0.276000/' "$tmp/sprio.replay"
py "$fid/sprio-compare.py" "$tmp/sprio" "$tmp/sprio.replay" --live-sacct "$tmp/live2.sacct" \
	--slurm-conf "$tmp/slurm.conf" >"$tmp/p2.txt"
st=$?
[ "$st" = 1 ] && ok || bad "sprio-compare: a disagreement exits $st, not 1"
has "$tmp/p2.txt" 'job 14: fairshare sprio 550 replay 552, priority sprio 1483 replay 1484' \
	"sprio-compare: the disagreement named"
has "$tmp/p2.txt" '^max_diff_fairshare 2$' "sprio-compare: largest difference"
sim_done fidelity-tools
