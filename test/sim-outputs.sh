#!/usr/bin/env bash
# sim-outputs.sh - the outputs other tools read, on a replay of SDSC-SP2:
#  (a) --batsim-csv read by batsim-read.py, a reader written from Batsim's
#      documented columns (names, order, types, identities, interval sets
#      within the 128-node machine), the same runs as toposim's jobs CSV;
#      the heterogeneous mode's --batsim-csv through the same reader;
#  (b) --swf-out read back by toposim's own SWF reader (strict: 18
#      numeric fields a line), field 3 taken as the estimate: every job's
#      submit + wait is its start in the Batsim CSV; a resubmitted job's
#      runs (rb-har) under one job number, status 2 before the last;
#  (c) --plot's PNGs and Gantt SVG, and toposim-overlay.py's SVG of two
#      runs, well-formed (python's xml.etree) and bounded;
# and the options change no other output (the jobs CSV and summary of a
# run with them equal those of a run without).
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
hetgen=${HETGEN:-./src/tools/hetgen}
here=$(dirname "$0")
reader=$here/batsim-read.py
overlay=$here/../contrib/plot/toposim-overlay.py

need_trace
command -v gnuplot > /dev/null || { echo "FAILED: no gnuplot (contrib/install-deps.sh)"; exit 1; }

# The whole trace under easy and fcfs, every output.
for pol in easy fcfs; do
	"$toposim" --workload "$trace" --policy $pol --jobs-csv "$tmp/$pol.csv" \
		--summary-json "$tmp/$pol.json" --batsim-csv "$tmp/$pol-batsim.csv" \
		--swf-out "$tmp/$pol.swf" --plot "$tmp/$pol" --quiet 2> "$tmp/$pol.err" ||
		bad "$pol: $(cat "$tmp/$pol.err")"
done
"$toposim" --workload "$trace" --policy easy --jobs-csv "$tmp/plain.csv" \
	--summary-json "$tmp/plain.json" --quiet || bad "plain run"
cmp -s "$tmp/plain.csv" "$tmp/easy.csv" && ok || bad "--batsim-csv/--swf-out/--plot changed the jobs CSV"
if diff <(grep -v wall_seconds "$tmp/plain.json") <(grep -v wall_seconds "$tmp/easy.json") > /dev/null; then
	ok
else
	bad "--batsim-csv/--swf-out/--plot changed the summary"
fi

# (a) Batsim's columns, checked against toposim's own CSV.
for pol in easy fcfs; do
	if out=$(python3 "$reader" "$tmp/$pol-batsim.csv" 128 "$tmp/$pol.csv"); then
		ok
	else
		bad "$pol: Batsim CSV: $out"
	fi
done
n=$(($(wc -l < "$tmp/easy-batsim.csv") - 1))
[ "$n" -eq "$(json jobs "$tmp/easy.json")" ] && ok || bad "Batsim CSV: $n rows, summary: $(json jobs "$tmp/easy.json") jobs"
# The reader catches a node off the machine and a broken identity.
sed '2s/,[0-9 -]*,-1,attempt/,127-128,-1,attempt/' "$tmp/easy-batsim.csv" > "$tmp/off.csv"
python3 "$reader" "$tmp/off.csv" 128 > "$tmp/off.out" && bad "reader took node 128 of 128" || ok
awk -F, 'BEGIN { OFS = "," } NR == 2 { $11 = $11 + 1 } 1' "$tmp/easy-batsim.csv" > "$tmp/fin.csv"
python3 "$reader" "$tmp/fin.csv" 128 > "$tmp/fin.out" && bad "reader took finish != start + execution" || ok
# A fat tree: node indices of the topology, interval sets of several runs.
printf 'SwitchName=s%d Nodes=n[%d-%d]\n' 1 1 32 2 33 64 3 65 96 4 97 128 > "$tmp/ft.conf"
echo 'SwitchName=top Switches=s[1-4]' >> "$tmp/ft.conf"
if "$toposim" --workload "$trace" --policy easy --jobs 1:3000 --topology "$tmp/ft.conf" \
	--alloc tree-greedy --jobs-csv "$tmp/ft.csv" --summary-json /dev/null \
	--batsim-csv "$tmp/ft-batsim.csv" --quiet 2> "$tmp/ft.err"; then
	out=$(python3 "$reader" "$tmp/ft-batsim.csv" 128) && ok || bad "fat tree: Batsim CSV: $out"
	# Node names n1..n128 are indices 0..127: the first run's names match.
	names=$(sed -n '2s/.*,"\(.*\)",.*/\1/p' "$tmp/ft.csv")
	id=$(sed -n '2s/,.*//p' "$tmp/ft.csv")
	set=$(awk -F, -v id="$id" '$1 == id { print $15 }' "$tmp/ft-batsim.csv")
	want=$(python3 -c "
import re, sys
out = []
for part in re.findall(r'(\d+)(?:-(\d+))?', sys.argv[1]):
    a, b = int(part[0]), int(part[1] or part[0])
    out.append(str(a - 1) if a == b else f'{a - 1}-{b - 1}')
print(' '.join(out))" "${names#n[}")
	[ -n "$set" ] && [ "$set" = "$want" ] && ok || bad "fat tree: job $id on $names, interval set '$set' (want '$want')"
else
	bad "fat tree run: $(cat "$tmp/ft.err")"
fi
# The heterogeneous mode: the same schema, the same reader.
if "$hetgen" --machine small --jobs 60 --parallel 50 --seed 3 --out "$tmp/g" > /dev/null &&
	"$toposim" --machine "$tmp/g.machine" --het-jobs "$tmp/g.jobs" --truth "$tmp/g.truth" \
		--policy pjs --quiet --jobs-csv "$tmp/g.csv" --summary-json /dev/null \
		--batsim-csv "$tmp/g-batsim.csv"; then
	# hetgen's small machine: nodes m001-m040, indices 0-39.
	nodes=$(sed -n 's/.*Nodes=m0*\([0-9]*\) .*/\1/p' "$tmp/g.machine" | tail -1)
	out=$(python3 "$reader" "$tmp/g-batsim.csv" "$nodes") && ok || bad "het: Batsim CSV: $out"
	[ "$(wc -l < "$tmp/g-batsim.csv")" -eq "$(wc -l < "$tmp/g.csv")" ] && ok ||
		bad "het: Batsim CSV and jobs CSV differ in rows"
	# Same starts and node counts as the heterogeneous CSV.
	if python3 - "$tmp/g.csv" "$tmp/g-batsim.csv" <<'EOF'; then ok; else bad "het: Batsim CSV differs from the jobs CSV"; fi
import csv, sys
het = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
for b in csv.DictReader(open(sys.argv[2])):
    h = het[b["job_id"]]
    n = sum(int(x.split("-")[-1]) - int(x.split("-")[0]) + 1 for x in b["allocated_resources"].split())
    assert abs(float(h["start"]) - float(b["starting_time"])) < 1e-6, b["job_id"]
    assert abs(float(h["end"]) - float(b["finish_time"])) < 1e-6, b["job_id"]
    assert int(h["nodes"]) == n and b["profile"] == h["class"], b["job_id"]
    # m001-m004 are indices 0-3: the first node of each.
    first = int(b["allocated_resources"].split()[0].split("-")[0])
    assert h["nodelist"].lstrip("m[").startswith(f"{first + 1:03d}"), (h["nodelist"], b["allocated_resources"])
    assert b["success"] == ("0" if h["killed"] == "1" else "1"), b["job_id"]
EOF
else
	bad "het run"
fi

# (b) The SWF read back: header and 18 fields (strict reader), field 3 as
# the estimate: a job's estimate is its wait, or its run time when it
# waited 0 s (the reader's rule for a field <= 0).
for pol in easy fcfs; do
	s=$tmp/$pol.swf
	[ "$(grep -c '^;' "$s")" -ge 8 ] && grep -q '^; MaxNodes: 128$' "$s" && ok ||
		bad "$pol: SWF header"
	awk '!/^;/ && NF != 18 { exit 1 }' "$s" && ok || bad "$pol: SWF line without 18 fields"
	if "$toposim" --workload "$s" --estimate-field 3 --policy fcfs --jobs-csv "$tmp/re.csv" \
		--summary-json "$tmp/re.json" --quiet 2> "$tmp/re.err"; then
		ok
	else
		bad "$pol: toposim does not read its SWF: $(cat "$tmp/re.err")"
		continue
	fi
	[ "$(json nodes "$tmp/re.json")" -eq 128 ] && ok || bad "$pol: SWF re-read on $(json nodes "$tmp/re.json") nodes"
	if out=$(python3 - "$tmp/re.csv" "$tmp/$pol-batsim.csv" "$tmp/re.json" <<'EOF'
import csv, json, sys
re = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
bs = {r["job_id"]: r for r in csv.DictReader(open(sys.argv[2]))}
zero = 0
assert set(re) == set(bs), f"{len(set(re) ^ set(bs))} jobs in one file only"
for k, b in bs.items():
    r, wait = re[k], int(b["waiting_time"])
    assert int(r["submit"]) == int(b["submission_time"]), f"job {k}: submit"
    start = int(r["submit"]) + (int(r["estimate"]) if wait > 0 else 0)
    assert start == int(b["starting_time"]), f"job {k}: start {start}, Batsim CSV {b['starting_time']}"
    if wait == 0:
        zero += 1
        assert int(r["estimate"]) == int(r["runtime"]), f"job {k}: wait 0, estimate {r['estimate']}"
    assert int(r["runtime"]) == int(b["execution_time"]), f"job {k}: run time"
s = json.load(open(sys.argv[3]))
assert s["estimates_from_runtime"] == zero, f"{s['estimates_from_runtime']} estimates from run times, {zero} waits of 0 s"
print(f"{len(bs)} starts equal, {zero} of 0 s wait")
EOF
	); then
		ok
	else
		bad "$pol: SWF starts: $out"
	fi
done

# Resubmitted jobs (rb-har requeues fill jobs): one SWF line per run under
# one job number, status 2 for each run before the last; in the Batsim
# CSV the later runs are ID#1, ID#2, ...; read back, each line is a job.
if "$toposim" --workload "$trace" --policy rb-har --jobs-csv "$tmp/rb.csv" \
	--summary-json "$tmp/rb.json" --batsim-csv "$tmp/rb-batsim.csv" \
	--swf-out "$tmp/rb.swf" --quiet 2> "$tmp/rb.err"; then
	r=$(json resubmitted "$tmp/rb.json")
	partial=$(awk '!/^;/ && $11 == 2' "$tmp/rb.swf" | wc -l)
	later=$(grep -c '^[0-9]*#' "$tmp/rb-batsim.csv")
	[ "$r" -gt 0 ] && [ "$partial" -eq "$r" ] && [ "$later" -eq "$r" ] &&
		grep -q '^; Preemption: Yes$' "$tmp/rb.swf" && ok ||
		bad "rb-har: $r resubmitted, $partial SWF lines of status 2, $later later runs in the Batsim CSV"
	out=$(python3 "$reader" "$tmp/rb-batsim.csv" 128 "$tmp/rb.csv") && ok || bad "rb-har: Batsim CSV: $out"
	"$toposim" --workload "$tmp/rb.swf" --policy fcfs --jobs-csv /dev/null \
		--summary-json "$tmp/rb-re.json" --quiet && [ "$(json jobs "$tmp/rb-re.json")" -eq "$(json runs "$tmp/rb.json")" ] &&
		ok || bad "rb-har: SWF read back"
else
	bad "rb-har: $(cat "$tmp/rb.err")"
fi

# (c) Plots: PNGs, the Gantt SVG (bounded), the overlay of two runs.
for f in easy-util.png easy-wait.png; do
	[ "$(head -c 8 "$tmp/$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok || bad "$f: not a PNG"
done
if out=$(python3 - "$tmp/easy-gantt.svg" <<'EOF'
import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
rects = [r for r in root.iter(ns + "rect") if r.find(ns + "title") is not None]
assert 0 < len(rects) <= 20000, f"{len(rects)} job rectangles"
for r in rects:
    x, y, w, h = (float(r.get(a)) for a in ("x", "y", "width", "height"))
    assert 80 - 1e-6 <= x and x + w <= 1180 + 0.01 and w >= 0, (x, w)
    assert 50 - 1e-6 <= y and y + h <= 640 + 0.01 and h > 0, (y, h)
texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
assert "of 54034 runs" in texts and "node index" in texts and "days" in texts, texts[:300]
print(f"{len(rects)} rectangles")
EOF
); then ok; else bad "Gantt SVG: $out"; fi
if python3 "$overlay" --title SDSC-SP2 "$tmp/ov.svg" easy="$tmp/easy-batsim.csv" \
	fcfs="$tmp/fcfs-batsim.csv" && out=$(python3 - "$tmp/ov.svg" <<'EOF'
import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
lines = list(root.iter(ns + "polyline"))
assert len(lines) == 4, f"{len(lines)} curves, want 4 (2 runs x 2 panels)"
for l in lines:
    pts = [tuple(map(float, p.split(","))) for p in l.get("points").split()]
    assert len(pts) >= 100, len(pts)
    ys = [y for _, y in pts]
    assert max(ys) - min(ys) > 10, "a flat curve"
texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
assert "128 nodes" in texts and "easy (54034)" in texts, texts[:200]
print("ok")
EOF
); then ok; else bad "overlay SVG: ${out:-toposim-overlay.py failed}"; fi

# The new options where they do not apply.
"$toposim" --workload "$trace" --policy easy --windows 2:100:1 --batsim-csv "$tmp/x" \
	--jobs-csv /dev/null --summary-json /dev/null 2> "$tmp/w.err"
[ $? -eq 2 ] && grep -q 'batsim-csv writes one schedule: not with --windows' "$tmp/w.err" && ok ||
	bad "--batsim-csv with --windows: $(cat "$tmp/w.err")"
"$toposim" --machine "$tmp/g.machine" --het-jobs "$tmp/g.jobs" --truth "$tmp/g.truth" \
	--policy pjs --swf-out "$tmp/x" 2> "$tmp/m.err"
[ $? -eq 2 ] && grep -q -- '--swf-out' "$tmp/m.err" && ok || bad "--swf-out with --machine: $(cat "$tmp/m.err")"
sim_done sim-outputs
