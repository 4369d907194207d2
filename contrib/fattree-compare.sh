#!/usr/bin/env bash
# fattree-compare.sh BUILDDIR [OUTDIR] - the fat-tree allocators against
# the models of Slurm's own topology/tree, on both real traces, whole,
# under EASY, in one invocation: mean wait and mean node-level spread of
# the multi-node runs (every pair of a job's nodes over the least any as
# many nodes have, 1 = most compact; toposim --runtime-model spread:0
# measures it without changing run times).
#
# Tables printed (markdown):
#   1. runtime model off: fattree (the default), fattree-msu (the patent's
#      units), tree-slurm (24.05-24.11's tree), tree-slurm-26.05, on four
#      trees of leaves of 4: SDSC-SP2 on 128 nodes (32 leaves under 8
#      switches under one root; and under 8, then 2, then a root, as
#      bench/bench_fattree_replay.c) and lublin_256 on 256 nodes (64
#      leaves under 16 switches under one root; and 4^4);
#   2. the same allocators with run times dilated by the spread
#      (--runtime-model spread:0.2 and :0.5), and fattree with the
#      completion-aware choice at the same share (--completion-share);
#   3. the completion-aware choice with the model off (what waiting for
#      compactness costs where it buys nothing);
#   4. the shared site topologies (TP_SHARED_DATA/topology) with both
#      traces as they are, model off.
# lublin_256 has no requested times: its limits are twice the run time
# (--estimate-error uniform:2-2) in every replay of it.  Every replay's
# summary stays in OUTDIR.  At most two replays at a time, at nice 10.
set -euo pipefail
b=$(cd "$1" && pwd)
out=${2:-$(mktemp -d)}
mkdir -p "$out"
data=${TP_SHARED_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}
sim=$b/src/sim/toposim
ftconf=$b/src/tools/ftconf
sdsc=$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
lub=$data/traces/lublin_256.swf.gz
for f in "$sim" "$ftconf" "$sdsc" "$lub"; do
	[ -e "$f" ] || { echo "fattree-compare.sh: $f not found" >&2; exit 1; }
done

# leaves LEAVES PER_MIDDLE: leaves of 4 nodes, PER_MIDDLE leaves a middle
# switch, the middle switches under one root.
two_level() {
	local leaves=$1 per=$2
	for l in $(seq 0 $((leaves - 1))); do
		echo "SwitchName=l$l Nodes=n[$((4 * l + 1))-$((4 * l + 4))]"
	done
	for m in $(seq 0 $((leaves / per - 1))); do
		echo "SwitchName=m$m Switches=l[$((per * m))-$((per * m + per - 1))]"
	done
	echo "SwitchName=root Switches=m[0-$((leaves / per - 1))]"
}
two_level 32 4 >"$out/sdsc-8x4.conf"
two_level 64 4 >"$out/lub-16x4.conf"
{
	two_level 32 4 | grep -v '^SwitchName=root'
	echo "SwitchName=u0 Switches=m[0-3]"
	echo "SwitchName=u1 Switches=m[4-7]"
	echo "SwitchName=root Switches=u[0-1]"
} >"$out/sdsc-8-2.conf"
"$ftconf" generate --levels 4 --width 4 -o "$out/lub-4x4x4x4.conf" >/dev/null

allocs="fattree fattree-msu tree-slurm tree-slurm-26.05"
list=$out/replays.txt
: >"$list"
# NAME ARGS...: one replay.
add() { echo "$*" >>"$list"; }
trace_args() { # TRACE: the trace's file and options
	if [ "$1" = sdsc ]; then echo "-w $sdsc"; else echo "-w $lub --estimate-error uniform:2-2"; fi
}
for tree in sdsc-8x4 sdsc-8-2 lub-16x4 lub-4x4x4x4; do
	tr=${tree%%-*}
	for m in 0 0.2 0.5; do
		for a in $allocs; do
			add "$tree-$a-m$m $(trace_args "$tr") -p easy --topology $out/$tree.conf --alloc $a --runtime-model spread:$m"
		done
		for s in 0.2 0.5; do
			[ "$m" = 0 ] || [ "$m" = "$s" ] || continue
			add "$tree-fattree+ca$s-m$m $(trace_args "$tr") -p easy --topology $out/$tree.conf --alloc fattree --completion-share $s --runtime-model spread:$m"
		done
	done
done
sites=()
for f in "$data"/topology/*.topology.conf; do
	"$ftconf" hopsum --topology "$f" >/dev/null 2>&1 </dev/null || continue # a file the reader refuses
	s=$(basename "$f" .topology.conf)
	sites+=("$s")
	for tr in sdsc lub; do
		for a in $allocs; do
			add "site-$s-$tr-$a $(trace_args "$tr") -p easy --topology $f --alloc $a --runtime-model spread:0"
		done
	done
done
export sim out
# shellcheck disable=SC2016
xargs -P 2 -L 1 sh -c 'n=$0; nice -n 10 "$sim" "$@" --quiet \
	--jobs-csv /dev/null --summary-json "$out/$n.json" 2>"$out/$n.err" ||
	{ echo "fattree-compare.sh: replay $n failed: $(cat "$out/$n.err")" >&2; exit 255; }' <"$list"

python3 - "$out" "$allocs" "${sites[*]}" <<'EOF'
import json, sys
out, allocs, sites = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
def get(name):
    d = json.load(open(f"{out}/{name}.json"))
    return d["mean_wait"], d["runtime_model"]["mean_spread_multi"], d.get("skipped", {}).get("too_big", 0)
TREES = [("sdsc-8x4", "SDSC-SP2", "128: 32 leaves, 8 switches, a root"),
         ("sdsc-8-2", "SDSC-SP2", "128: 32 leaves, 8, 2 switches, a root"),
         ("lub-16x4", "lublin_256", "256: 64 leaves, 16 switches, a root"),
         ("lub-4x4x4x4", "lublin_256", "256: 4^4")]
def ratio(a, b): return f"{a / b:.3f}" if b else "-"
print("### Runtime model off: mean wait and mean node-level spread (EASY)\n")
print("| trace | tree | allocator | mean wait (s) | wait / tree-slurm-26.05 | wait / tree-slurm | mean spread | excess / ts-26.05's |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for tree, trace, desc in TREES:
    w26, s26, _ = get(f"{tree}-tree-slurm-26.05-m0")
    w24, s24, _ = get(f"{tree}-tree-slurm-m0")
    for a in allocs:
        w, s, _ = get(f"{tree}-{a}-m0")
        ex = (s - 1) / (s26 - 1) if s26 > 1 else float("nan")
        print(f"| {trace} | {desc} | {a} | {w:,.0f} | {ratio(w, w26)} | {ratio(w, w24)} | {s:.4f} | {ex:.3f} |")
print("\n### Run times dilated by the spread: mean wait (s)\n")
print("| trace | tree | share | fattree | fattree, completion-aware | fattree-msu | tree-slurm | tree-slurm-26.05 | fattree lowest? |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for tree, trace, desc in TREES:
    for m in ("0.2", "0.5"):
        w = {a: get(f"{tree}-{a}-m{m}")[0] for a in allocs}
        ca = get(f"{tree}-fattree+ca{m}-m{m}")[0]
        low = "yes" if all(w["fattree"] < w[a] for a in allocs if a != "fattree") else "no"
        print(f"| {trace} | {desc} | {m} | {w['fattree']:,.0f} | {ca:,.0f} | {w['fattree-msu']:,.0f} | {w['tree-slurm']:,.0f} | {w['tree-slurm-26.05']:,.0f} | {low} |")
print("\n### The completion-aware choice with the model off (waiting buys nothing there)\n")
print("| trace | tree | completion share | mean wait (s) | / fattree | mean spread |")
print("|---|---|---:|---:|---:|---:|")
for tree, trace, desc in TREES:
    w0, _, _ = get(f"{tree}-fattree-m0")
    for s in ("0.2", "0.5"):
        w, sp, _ = get(f"{tree}-fattree+ca{s}-m0")
        print(f"| {trace} | {desc} | {s} | {w:,.0f} | {ratio(w, w0)} | {sp:.4f} |")
print("\n### Site topologies, model off: mean wait (s) / mean spread\n")
print("| topology | trace (too big) | " + " | ".join(allocs) + " | fattree's spread / ts-26.05's |")
print("|---|---|" + "---:|" * (len(allocs) + 1))
for s in sites:
    for tr, name in (("sdsc", "SDSC-SP2"), ("lub", "lublin_256")):
        cells, big = [], 0
        for a in allocs:
            w, sp, big = get(f"site-{s}-{tr}-{a}")
            cells.append(f"{w:,.0f} / {sp:.4f}")
        f = get(f"site-{s}-{tr}-fattree")[1]
        t = get(f"site-{s}-{tr}-tree-slurm-26.05")[1]
        print(f"| {s} | {name} ({big:,}) | " + " | ".join(cells) + f" | {ratio(f, t)} |")
EOF
