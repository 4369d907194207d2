#!/usr/bin/env bash
# head-to-head.sh - our topology/fattree against Slurm's own topology/tree,
# live, over a grid of seeded job streams, in one invocation.
#
# For every seed x load x size mix, contrib/fattree-demo.sh runs the same
# stream on two fresh 64-node fat-tree clusters, one with our placement
# plugin and one with Slurm's topology/tree (select/cons_tres,
# sched/backfill, whole-node partition), side by side; this script
# collects every job of every run and prints markdown tables: per run the
# total hop sum (pairs of 4-node units), the mean node-level spread of the
# multi-node jobs (every pair of nodes, over the least any as many nodes
# have: the one scale for placements of any granularity), mean wait and
# makespan of both, per cell (load x mix, all seeds together) the totals,
# and where Slurm's tree had the lower hop sum or spread.
#
# Usage: head-to-head.sh [BUILDDIR] [--slurm 22.05|24.11|26.05]
#          [--seeds "1 2 3"] [--loads "moderate heavy"] [--mixes "unit odd"]
#          [--jobs N] [--serial] [--show-runs] [--records FILE]
#   BUILDDIR    a built tree (default build/main; its Slurm release is the
#               clusters'; --slurm checks it)
#   --seeds, --loads, --mixes  the grid (fattree-demo.sh's --seed, --load,
#               --mix; defaults as shown)
#   --jobs N    jobs per stream (default 30)
#   --serial    run the two clusters of a stream one after the other
#               instead of side by side
#   --show-runs print each run's per-job table (fattree-demo.sh's output)
#               before the summary tables
#   --records F keep every job's line (fattree-demo.sh --records) in F
# Needs root; see fattree-demo.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=build/main seeds="1 2 3" loads="moderate heavy" mixes="unit odd" jobs=30
serial="" records="" slurm=() brief=--brief
while [ $# -gt 0 ]; do
	case $1 in
	--seeds) seeds=${2:?--seeds needs a value}; shift 2 ;;
	--loads) loads=${2:?--loads needs a value}; shift 2 ;;
	--mixes) mixes=${2:?--mixes needs a value}; shift 2 ;;
	--jobs) jobs=${2:?--jobs needs a value}; shift 2 ;;
	--slurm) slurm=(--slurm "${2:?--slurm needs a value}"); shift 2 ;;
	--serial) serial=1; shift ;;
	--show-runs) brief=""; shift ;;
	--records) records=${2:?--records needs a file}; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "head-to-head: unknown option '$1'" >&2; exit 2 ;;
	*) build=$1; shift ;;
	esac
done
die() { echo "head-to-head: $*" >&2; exit 1; }
note() { echo "head-to-head: $*" >&2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/head-to-head.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ -n "$records" ] || records=$tmp/records
records=$(realpath -m -- "$records")
: >"$records"
demo=$root/contrib/fattree-demo.sh
t_all=$(date +%s)
for load in $loads; do
	for mix in $mixes; do
		for seed in $seeds; do
			t=$(date +%s)
			common=("$build" "${slurm[@]}" --jobs "$jobs" --seed "$seed" --load "$load"
				--mix "$mix" --records "$records" ${brief:+"$brief"})
			if [ -n "$serial" ]; then
				if ! { "$demo" "${common[@]}" --topology ours >"$tmp/run.out" 2>"$tmp/run.err" &&
					"$demo" "${common[@]}" --topology slurm-tree >>"$tmp/run.out" 2>>"$tmp/run.err"; }; then
					cat "$tmp/run.err" >&2
					die "fattree-demo.sh failed: seed $seed, $load load, $mix sizes"
				fi
			else
				"$demo" "${common[@]}" >"$tmp/run.out" 2>"$tmp/run.err" ||
					{ cat "$tmp/run.err" >&2; die "fattree-demo.sh failed: seed $seed, $load load, $mix sizes"; }
			fi
			note "$load load, $mix sizes, seed $seed: $(($(date +%s) - t)) s"
			[ -n "$brief" ] || { cat "$tmp/run.out"; echo; }
		done
	done
done
wall=$(($(date +%s) - t_all))
ours=$(awk '$1 != "topology/tree" { print $1; exit }' "$records")
[ -n "$ours" ] || die "no job of our plugin recorded"

# Per run (topology, load, mix, seed): jobs, hop sum, waits, makespan.
# Record fields: 1 topology 2 seed 3 load 4 mix 5 job 6 nodes 7 sleep
# 8 submit 9 start 10 end 11 state 12 nodelist 13 hops 14 spread.
awk -v ours="$ours" -v wall="$wall" -v serial="$serial" '
	function key(l, m) { return l SUBSEP m }
	{
		r = $3 SUBSEP $4 SUBSEP $2; t = ($1 == ours) ? "o" : "t"
		if (!(r in seen)) { seen[r] = 1; runs[++nr] = r }
		if (!(key($3, $4) in cseen)) { cseen[key($3, $4)] = 1; cells[++nc] = key($3, $4) }
		n[r, t]++; h[r, t] += $13; w[r, t] += $9 - $8
		if ($6 > 1) { sp[r, t] += $14; ns[r, t]++ }
		if (!((r, t) in s0) || $8 < s0[r, t]) s0[r, t] = $8
		if ($10 > e1[r, t]) e1[r, t] = $10
		if ($11 != "COMPLETED") bad[r, t]++
	}
	function f2(x) { return sprintf("%.2f", x) }
	function f3(x) { return sprintf("%.3f", x) }
	function mean(a, b) { return b ? a / b : 1 }
	function ratio(a, b) { return b ? sprintf("%.3f", a / b) : "-" }
	END {
		print "| load | sizes | seed | jobs | hop sum ours | hop sum tree | ratio | mean spread ours | mean spread tree | ratio | mean wait ours (s) | mean wait tree (s) | ratio | makespan ours (s) | makespan tree (s) |"
		print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		for (i = 1; i <= nr; i++) {
			r = runs[i]; split(r, p, SUBSEP)
			mo = e1[r, "o"] - s0[r, "o"]; mt = e1[r, "t"] - s0[r, "t"]
			so = mean(sp[r, "o"], ns[r, "o"]); st = mean(sp[r, "t"], ns[r, "t"])
			printf "| %s | %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %d | %d |\n", p[1], p[2], p[3],
				n[r, "o"], h[r, "o"], h[r, "t"], ratio(h[r, "o"], h[r, "t"]),
				f3(so), f3(st), ratio(so, st),
				f2(w[r, "o"] / n[r, "o"]), f2(w[r, "t"] / n[r, "t"]), ratio(w[r, "o"], w[r, "t"]), mo, mt
			c = key(p[1], p[2])
			cn[c, "o"] += n[r, "o"]; cn[c, "t"] += n[r, "t"]
			ch[c, "o"] += h[r, "o"]; ch[c, "t"] += h[r, "t"]
			cs[c, "o"] += sp[r, "o"]; cs[c, "t"] += sp[r, "t"]
			cns[c, "o"] += ns[r, "o"]; cns[c, "t"] += ns[r, "t"]
			cw[c, "o"] += w[r, "o"]; cw[c, "t"] += w[r, "t"]
			cm[c, "o"] += mo; cm[c, "t"] += mt; cr[c]++
			if (h[r, "t"] < h[r, "o"]) won = won sprintf("%s%s load, %s sizes, seed %s (%d vs %d)",
				won == "" ? "" : "; ", p[1], p[2], p[3], h[r, "t"], h[r, "o"])
			if (st < so) swon = swon sprintf("%s%s load, %s sizes, seed %s (%.3f vs %.3f)",
				swon == "" ? "" : "; ", p[1], p[2], p[3], st, so)
			if (bad[r, "o"] || bad[r, "t"]) nbad += bad[r, "o"] + bad[r, "t"]
		}
		print ""
		print "| load | sizes | runs | jobs | hop sum ours | hop sum tree | ratio | mean spread ours | mean spread tree | ratio | mean wait ours (s) | mean wait tree (s) | ratio | mean makespan ours (s) | mean makespan tree (s) |"
		print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		for (i = 1; i <= nc; i++) {
			c = cells[i]; split(c, p, SUBSEP)
			so = mean(cs[c, "o"], cns[c, "o"]); st = mean(cs[c, "t"], cns[c, "t"])
			printf "| %s | %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p[1], p[2], cr[c],
				cn[c, "o"], ch[c, "o"], ch[c, "t"], ratio(ch[c, "o"], ch[c, "t"]),
				f3(so), f3(st), ratio(so, st),
				f2(cw[c, "o"] / cn[c, "o"]), f2(cw[c, "t"] / cn[c, "t"]), ratio(cw[c, "o"], cw[c, "t"]),
				sprintf("%.1f", cm[c, "o"] / cr[c]), sprintf("%.1f", cm[c, "t"] / cr[c])
			to += ch[c, "o"]; tt += ch[c, "t"]; jo += cn[c, "o"]; jt += cn[c, "t"]
			wo += cw[c, "o"]; wt += cw[c, "t"]
			aso += cs[c, "o"]; ast += cs[c, "t"]; ano += cns[c, "o"]; ant += cns[c, "t"]
		}
		so = mean(aso, ano); st = mean(ast, ant)
		printf "| all | | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | | |\n", nr, jo, to, tt, ratio(to, tt),
			f3(so), f3(st), ratio(so, st), f2(wo / jo), f2(wt / jt), ratio(wo, wt)
		print ""
		print "ours = " ours ", tree = Slurm'"'"'s topology/tree; hop sum: pairwise hops between the 4-node units a job touches;"
		print "spread: node level, the routers between every pair of a job'"'"'s nodes over the least any as many nodes have"
		print "(1 = most compact), mean over jobs of two or more nodes"
		print "Slurm'"'"'s tree had the lower hop sum in: " (won == "" ? "no run" : won)
		print "Slurm'"'"'s tree had the lower mean spread in: " (swon == "" ? "no run" : swon)
		if (nbad) print nbad " jobs did not complete"
		printf "%d runs of %d jobs on each cluster, %s, in %d s\n", nr, jo / nr, serial ? "the two clusters one after the other" : "the two clusters side by side", wall
	}' "$records"
