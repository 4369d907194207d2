#!/usr/bin/env bash
# runtime-model-table.sh BUILDDIR [OUTDIR] [SHARES] - the net effect of
# compact placement once placement changes run times
# (toposim --runtime-model spread:SHARE, doc/runtime-model.md): both real
# traces, whole, on the fat trees and tori of doc/results.md, the
# fat-tree allocators fattree, tree-greedy, tree-slurm, tree-slurm-26.05
# and the torus allocators torus-mss, torus-base, torus-compact, under
# easy and fcfs,
# with the model off and at each share of SHARES (default "0.2 0.5").
# Prints one markdown row per replay: mean wait, mean run (end - start),
# makespan, utilisation, runs killed by the dilation, mean spread of
# multi-node runs.  lublin_256 has no requested times: its limits are set
# to twice the run time (--estimate-error uniform:2-2) in every replay of
# it, or every dilated run would end at its limit.  At most two replays
# at a time, at nice 10.
set -euo pipefail
b=$(cd "$1" && pwd)
out=${2:-$(mktemp -d)}
shares=${3:-0.2 0.5}
mkdir -p "$out"
data=${TP_SHARED_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}
sim=$b/src/sim/toposim
sdsc=$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
lub=$data/traces/lublin_256.swf.gz
for d in src/tools contrib/fattree; do
	[ -x "$b/$d/ftconf" ] && ftconf=$b/$d/ftconf
done
# Fat trees of the traces' sizes, leaves of 4 and switches of 4 children
# (bench/bench_fattree_replay.c): 256 = 4^4; 128 = 32 leaves, 8 and 2
# switches, a root over the 2.
"$ftconf" generate --levels 4 --width 4 -o "$out/ft256.conf"
{
	for l in $(seq 0 31); do
		echo "SwitchName=l$l Nodes=n[$((4 * l + 1))-$((4 * l + 4))]"
	done
	for m in $(seq 0 7); do
		echo "SwitchName=m$m Switches=l[$((4 * m))-$((4 * m + 3))]"
	done
	echo "SwitchName=u0 Switches=m[0-3]"
	echo "SwitchName=u1 Switches=m[4-7]"
	echo "SwitchName=root Switches=u[0-1]"
} > "$out/ft128.conf"
printf 'Dimensions=8x4x4\nNodes=n[1-128]\n' > "$out/torus128.conf"
printf 'Dimensions=8x8x4\nNodes=n[1-256]\n' > "$out/torus256.conf"

# One line per replay: NAME, then toposim's arguments.
list=$out/replays.txt
: > "$list"
for m in none $(for s in $shares; do echo "spread:$s"; done); do
	for p in easy fcfs; do
		for t in sdsc lub; do
			tr=$sdsc n=128 extra=
			[ $t = lub ] && tr=$lub n=256 extra="--estimate-error uniform:2-2"
			for a in fattree tree-greedy tree-slurm tree-slurm-26.05; do
				echo "ft-$t-$a-$p-$m -w $tr -p $p --topology $out/ft$n.conf --alloc $a --runtime-model $m${extra:+ $extra}"
			done
			for a in torus-mss torus-base torus-compact; do
				echo "torus-$t-$a-$p-$m -w $tr -p $p --torus $out/torus$n.conf --alloc $a --runtime-model $m${extra:+ $extra}"
			done
		done
	done
done >> "$list"
export sim out
# shellcheck disable=SC2016
xargs -P 2 -L 1 sh -c 'n=$0; nice -n 10 "$sim" "$@" --quiet \
	--jobs-csv "$out/$n.csv" --summary-json "$out/$n.json" 2>"$out/$n.err" ||
	{ echo "runtime-model-table.sh: replay $n failed" >&2; exit 255; }' < "$list"

python3 - "$out" "$list" <<'EOF'
# The compact table on standard output: one row per (trace, machine,
# policy, allocator), each cell "off / share 1 / share 2 ..."; every
# replay's own row in OUTDIR/full.md.
import csv, json, sys
out, lst = sys.argv[1], sys.argv[2]
MACHINE = {("ft", "sdsc"): "fat tree 128", ("ft", "lub"): "fat tree 256",
           ("torus", "sdsc"): "torus 8x4x4", ("torus", "lub"): "torus 8x8x4"}
TRACE = {"sdsc": "SDSC-SP2", "lub": "lublin_256"}
rows, models = {}, []
for line in open(lst):
    name = line.split()[0]
    kind, trace, rest = name.split("-", 2)
    pol = "easy" if "-easy-" in rest else "fcfs"
    alloc, model = rest.split(f"-{pol}-")
    if model not in models:
        models.append(model)
    s = json.load(open(f"{out}/{name}.json"))
    runs = [int(r["end"]) - int(r["start"])
            for r in csv.DictReader(open(f"{out}/{name}.csv"))]
    rm = s.get("runtime_model") or {}
    key = (TRACE[trace], MACHINE[(kind, trace)], pol, alloc)
    rows.setdefault(key, {})[model] = dict(
        wait=s["mean_wait"], run=sum(runs) / len(runs), makespan=s["makespan"],
        util=s["utilisation"], killed=rm.get("killed_by_dilation", "-"),
        spread=rm.get("mean_spread_multi", "-"))
with open(f"{out}/full.md", "w") as f:
    f.write("| trace | machine | policy | alloc | model | mean wait (s) | mean run (s) "
            "| makespan (s) | utilisation | killed by dilation | mean spread |\n"
            "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|\n")
    for key, by in rows.items():
        for m in models:
            v = by[m]
            f.write(f"| {' | '.join(key)} | {m} | {v['wait']:,.0f} | {v['run']:,.0f} "
                    f"| {v['makespan']:,} | {v['util']:.4f} "
                    f"| {v['killed']} | {v['spread']} |\n")
def cell(by, what, fmt):
    return " / ".join(fmt(by[m][what]) for m in models)
dil = [m for m in models if m != "none"]
print(f"Cells: {' / '.join(m.replace('spread:', 'share ') for m in models)}"
      f" (killed, spread: {' / '.join(m.replace('spread:', 'share ') for m in dil)}).\n")
print("| trace | machine | policy | alloc | mean wait (s) | mean run (s) "
      "| makespan (s) | utilisation | killed by dilation | mean spread |")
print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
for key, by in rows.items():
    print(f"| {' | '.join(key)} | {cell(by, 'wait', lambda x: f'{x:,.0f}')} "
          f"| {cell(by, 'run', lambda x: f'{x:,.0f}')} "
          f"| {cell(by, 'makespan', lambda x: f'{x:,}')} "
          f"| {cell(by, 'util', lambda x: f'{x:.4f}')} "
          f"| {' / '.join(str(by[m]['killed']) for m in dil)} "
          f"| {' / '.join(str(by[m]['spread']) for m in dil)} |")
EOF
