#!/usr/bin/env bash
# replay-digest.sh BUILDDIR [OUTDIR] - replay a fixed matrix through the
# simulator and print one "sha256  name" line per output file: both real
# traces under every cluster policy (flat), fat-tree and torus replays
# under every allocator, and the heterogeneous policies on a generated
# site.  Two builds that print the same lines made byte-identical
# decisions; a refactoring is checked by diffing the two listings.
# Timings in the JSON summaries are left out.
set -euo pipefail
b=$(cd "$1" && pwd)
out=${2:-$(mktemp -d)}
mkdir -p "$out"
data=${TP_SHARED_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}
# The summaries name the trace by its path, which differs from checkout to
# checkout (each has its own data/): hashed as DATA/..., so that two
# checkouts side by side (worktrees) hash the same replays the same.
data=$(cd "$data" && pwd -P)
sim=$b/src/sim/toposim
tool() { for d in src/tools contrib/fattree contrib/workload; do
	[ -x "$b/$d/$1" ] && { echo "$b/$d/$1"; return; }; done; echo "no $1 in $b" >&2; exit 1; }
sdsc=$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
lub=$data/traces/lublin_256.swf.gz
run() { # NAME ARGS...
	local n=$1; shift
	"$sim" "$@" --quiet --jobs-csv "$out/$n.csv" --summary-json "$out/$n.json"
}
pols=("fcfs" "easy" "conservative" "window-ff --window 4" "batch-njob --njob 4" "rb-har")
for t in sdsc lub; do
	tr=$sdsc; [ $t = lub ] && tr=$lub
	for p in "${pols[@]}"; do
		run "flat-$t-${p%% *}" --workload "$tr" --policy $p
	done
done
# Fat trees of the traces' sizes (4^3 x 2 = 128, 4^4 = 256), first 5,000 jobs.
"$(tool ftconf)" generate --levels 4 --width 4 -o "$out/ft256.conf"
for a in fattree fattree-msu tree-greedy first-free; do
	for p in easy rb-har; do
		run "ft-lub-$a-$p" --workload "$lub" --policy $p --topology "$out/ft256.conf" --alloc $a --jobs 1:3000
	done
done
printf 'Dimensions=8x8x4\nNodes=n[1-256]\n' > "$out/torus256.conf"
for a in torus-base torus-fs torus-mss torus-anchor torus-compact; do
	run "torus-lub-$a" --workload "$lub" --policy easy --torus "$out/torus256.conf" --alloc $a --jobs 1:1500
done
"$(tool hetgen)" --machine small --jobs 60 --parallel 50 --seed 3 --out "$out/het" >/dev/null
for p in olb min-min min-max sjs pjs; do
	"$sim" --machine "$out/het.machine" --het-jobs "$out/het.jobs" --truth "$out/het.truth" \
		--policy $p --quiet --jobs-csv "$out/het-$p.csv" --summary-json "$out/het-$p.json"
done
# Timings (wall and CPU seconds) differ run to run: left out of the hash.
cd "$out"
for f in *.csv *.json; do
	printf '%s  %s\n' "$(grep -Ev '"(wall_seconds|[a-z_]*cpu[a-z_]*)":' "$f" |
		awk -v d="\"$data/" '{ while ((i = index($0, d))) $0 = substr($0, 1, i) "DATA/" substr($0, i + length(d)); print }' |
		sha256sum | cut -d' ' -f1)" "$f"
done | sort -k2
