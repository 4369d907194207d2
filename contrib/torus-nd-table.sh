#!/usr/bin/env bash
# torus-nd-table.sh BUILDDIR [OUTDIR] - tori of four and five dimensions,
# which Slurm 26.05's topology/torus3d cannot describe (three axes, x y
# z): the default torus method (torus-compact) and torus-mss and
# torus-base against first-free, what Slurm places without a topology
# plugin (cons_tres's lowest-numbered free nodes), on
#   4D  4x4x4x4, 256 nodes: lublin_256, whole (its limits twice its run
#       times, --estimate-error uniform:2-2)
#   5D  4x4x4x4x2, 512 nodes: SDSC-SP2 with every size times 4
#       (--scale-sizes 4), whole
# Every size runs, whether or not it is a box (Shapeless=pack).  EASY,
# run-time model off, then spread:0.2 and spread:0.5 (doc/runtime-model.md;
# the share is an assumption).  Prints one markdown row per replay: mean
# wait, makespan, utilisation (each off / 0.2 / 0.5) and the mean spread
# of multi-node jobs at share 0.2.  At most two replays at a time, at
# nice 10.
set -euo pipefail
b=$(cd "$1" && pwd)
out=${2:-$(mktemp -d)}
mkdir -p "$out"
data=${TP_SHARED_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}
sim=$b/src/sim/toposim
[ -x "$sim" ] || { echo "torus-nd-table.sh: no toposim in $b" >&2; exit 2; }
sdsc=$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
lub=$data/traces/lublin_256.swf.gz
printf 'Dimensions=4x4x4x4\nNodes=n[1-256]\n' >"$out/4d.conf"
printf 'Dimensions=4x4x4x4x2\nNodes=n[1-512]\n' >"$out/5d.conf"
list=$out/replays.txt
: >"$list"
for m in none spread:0.2 spread:0.5; do
	for a in first-free torus-compact torus-mss torus-base; do
		echo "4d-$a-$m -w $lub --estimate-error uniform:2-2 --torus $out/4d.conf --alloc $a --runtime-model $m"
		echo "5d-$a-$m -w $sdsc --scale-sizes 4 --nodes 512 --torus $out/5d.conf --alloc $a --runtime-model $m"
	done
done >>"$list"
export sim out
# shellcheck disable=SC2016
xargs -P 2 -L 1 sh -c 'n=$0; nice -n 10 "$sim" "$@" -p easy --quiet \
	--jobs-csv /dev/null --summary-json "$out/$n.json" 2>"$out/$n.err" ||
	{ echo "torus-nd-table.sh: replay $n failed" >&2; exit 255; }' <"$list"

python3 - "$out" "$list" <<'EOF'
import json, sys
out, lst = sys.argv[1], sys.argv[2]
MACHINE = {"4d": "4x4x4x4 (256), lublin_256", "5d": "4x4x4x4x2 (512), SDSC-SP2 x4"}
rows, models = {}, []
for line in open(lst):
    name = line.split()[0]
    mach, rest = name.split("-", 1)
    alloc, model = rest.rsplit("-", 1)
    if model not in models:
        models.append(model)
    s = json.load(open(f"{out}/{name}.json"))
    rm = s.get("runtime_model") or {}
    rows.setdefault((mach, alloc), {})[model] = dict(
        wait=s["mean_wait"], makespan=s["makespan"], util=s["utilisation"],
        spread=rm.get("mean_spread_multi"))
print("Cells: " + " / ".join(m.replace("spread:", "share ") for m in models) + ".\n")
print("| torus, trace | allocator | mean wait (s) | makespan (s) | utilisation | mean spread (share 0.2) |")
print("|---|---|---:|---:|---:|---:|")
for (mach, alloc), by in rows.items():
    print(f"| {MACHINE[mach]} | {alloc} | "
          + " / ".join(f"{by[m]['wait']:,.0f}" for m in models) + " | "
          + " / ".join(f"{by[m]['makespan']:,}" for m in models) + " | "
          + " / ".join(f"{by[m]['util']:.4f}" for m in models) + " | "
          + f"{by['spread:0.2']['spread']:.3f} |")
EOF
