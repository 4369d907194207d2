#!/usr/bin/env bash
# torus-compact-table.sh BUILDDIR [OUTDIR] [SLACKS] - torus-compact (the
# default torus method) against torus-base and torus-mss on the real
# traces' tori of doc/results.md: SDSC-SP2 on 8x4x4, lublin_256 on 8x8x4
# (its limits twice its run times, --estimate-error uniform:2-2, as
# everywhere in doc/results.md), EASY, whole traces.  torus-compact runs
# once per CompactSlack= of SLACKS (default "0 10 20 30"; 20 is the
# default).  Every replay runs with --runtime-model spread:0, which
# measures each placement's spread without changing a run time, and
# --frag-csv.  Prints one markdown row per replay:
#   spread         runtime_model.mean_spread_multi: a multi-node job's
#                  mean pair distance over the least any placement of its
#                  size has, averaged over multi-node jobs
#   fragmentation  the free space's fragmentation over time: after every
#                  scheduling pass, 1 - (largest free box) / (free nodes)
#                  (--frag-csv), weighted by the time until the next pass,
#                  passes with no free node left out
#   mean wait, makespan, utilisation
# and, per trace, each torus-compact row's spread against torus-base's
# and fragmentation against torus-mss's.  At most two replays at a time,
# at nice 10.
set -euo pipefail
b=$(cd "$1" && pwd)
out=${2:-$(mktemp -d)}
slacks=${3:-0 10 20 30}
mkdir -p "$out"
data=${TP_SHARED_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}
sim=$b/src/sim/toposim
sdsc=$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
lub=$data/traces/lublin_256.swf.gz
[ -x "$sim" ] || { echo "torus-compact-table.sh: no toposim in $b" >&2; exit 2; }
for s in $slacks; do
	[[ "$s" =~ ^[0-9]+$ ]] || { echo "torus-compact-table.sh: bad slack '$s'" >&2; exit 2; }
done

list=$out/replays.txt
: >"$list"
for t in sdsc lub; do
	tr=$sdsc dims=8x4x4 n=128 extra=
	[ $t = lub ] && tr=$lub dims=8x8x4 n=256 extra="--estimate-error uniform:2-2"
	printf 'Dimensions=%s\nNodes=n[1-%d]\n' "$dims" "$n" >"$out/$t.conf"
	for a in base mss; do
		echo "$t-$a $t.conf -w $tr --alloc torus-$a${extra:+ $extra}"
	done
	for s in $slacks; do
		printf 'Dimensions=%s\nNodes=n[1-%d]\nCompactSlack=%s\n' "$dims" "$n" "$s" >"$out/$t-slack$s.conf"
		echo "$t-compact$s $t-slack$s.conf -w $tr --alloc torus-compact${extra:+ $extra}"
	done
done >>"$list"
export sim out
# shellcheck disable=SC2016
xargs -P 2 -L 1 sh -c 'n=$0 conf=$1; shift; nice -n 10 "$sim" "$@" -p easy --torus "$out/$conf" \
	--runtime-model spread:0 --quiet --jobs-csv /dev/null --summary-json "$out/$n.json" \
	--frag-csv "$out/$n.frag" 2>"$out/$n.err" ||
	{ echo "torus-compact-table.sh: replay $n failed" >&2; exit 255; }' <"$list"

python3 - "$out" "$list" <<'EOF'
import csv, json, sys
out, lst = sys.argv[1], sys.argv[2]
TRACE = {"sdsc": ("SDSC-SP2", "8x4x4"), "lub": ("lublin_256", "8x8x4")}


def fragmentation(path):
    rows = list(csv.DictReader(open(path)))
    num = den = 0.0
    for i, r in enumerate(rows):
        dt = int(rows[i + 1]["time"]) - int(r["time"]) if i + 1 < len(rows) else 0
        f = int(r["free_nodes"])
        if f > 0 and dt > 0:
            num += dt * (1 - int(r["largest_free_unit"]) / f)
            den += dt
    return num / den if den else 0.0


rows = {}
for line in open(lst):
    name = line.split()[0]
    t, a = name.split("-", 1)
    s = json.load(open(f"{out}/{name}.json"))
    rows[(t, a)] = dict(spread=s["runtime_model"]["mean_spread_multi"],
                        frag=fragmentation(f"{out}/{name}.frag"),
                        wait=s["mean_wait"], makespan=s["makespan"],
                        util=s["utilisation"])
print("| trace, torus | allocator | spread | fragmentation | spread vs torus-base "
      "| fragmentation vs torus-mss | mean wait (s) | makespan (s) | utilisation |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for (t, a), v in rows.items():
    base, mss = rows[(t, "base")], rows[(t, "mss")]
    label = f"torus-{a}" if not a.startswith("compact") else \
        f"torus-compact, CompactSlack={a[len('compact'):]}"
    print(f"| {TRACE[t][0]}, {TRACE[t][1]} | {label} | {v['spread']:.4f} | {v['frag']:.4f} "
          f"| {100 * (v['spread'] / base['spread'] - 1):+.2f} % "
          f"| {100 * (v['frag'] / mss['frag'] - 1):+.2f} % "
          f"| {v['wait']:,.0f} | {v['makespan']:,} | {v['util']:.4f} |")
EOF
