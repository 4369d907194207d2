#!/usr/bin/env bash
# sim-fabrics.sh - a topology.conf of two fabrics (two 64-node trees, no
# spine): a replay of the whole SDSC-SP2 trace places no job across them
# under every fat-tree allocator and three policies (fabric-check.py reads
# the per-job node lists with its own reader), and the jobs larger than a
# fabric (65..128 nodes) are exactly the ones rejected as never placeable:
# the same replay with a spine above both trees places them, and the
# rejected count equals the number of its jobs of more than 64 nodes.
# toposim names the two fabrics at load and in its machine line;
# ftconf hopsum refuses a host list across them.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
ftconf=${FTCONF:-./src/tools/ftconf}
check_py=$(dirname "$0")/fabric-check.py

need_trace
for i in 1 2 3 4; do
	echo "SwitchName=a$i Nodes=n[$((16 * i - 15))-$((16 * i))]"
	echo "SwitchName=b$i Nodes=n[$((64 + 16 * i - 15))-$((64 + 16 * i))]"
done > "$tmp/two.conf"
printf 'SwitchName=A Switches=a[1-4]\nSwitchName=B Switches=b[1-4]\n' >> "$tmp/two.conf"
cp "$tmp/two.conf" "$tmp/one.conf"
echo 'SwitchName=spine Switches=A,B' >> "$tmp/one.conf"

for alloc in fattree tree-greedy tree-slurm tree-slurm-26.05; do
	for pol in easy conservative rb-har; do
		run=$alloc-$pol
		for c in two one; do
			"$toposim" --workload "$trace" --policy $pol --alloc $alloc \
				--topology "$tmp/$c.conf" --jobs-csv "$tmp/$run-$c.csv" \
				--summary-json "$tmp/$run-$c.json" 2> "$tmp/$run-$c.err" ||
				bad "$run on $c.conf: $(cat "$tmp/$run-$c.err")"
		done
		if python3 "$check_py" "$tmp/two.conf" "$tmp/$run-two.csv" > "$tmp/$run.chk"; then
			ok
		else
			bad "$run: jobs across fabrics: $(cat "$tmp/$run.chk")"
		fi
		rej=$(json rejected "$tmp/$run-two.json")
		big=$(awk -F, 'NR > 1 && $6 > 64' "$tmp/$run-one.csv" | wc -l)
		jobs2=$(json jobs "$tmp/$run-two.json") jobs1=$(json jobs "$tmp/$run-one.json")
		if [ "$rej" -gt 0 ] && [ "$rej" -eq "$big" ] &&
		   [ "$(json rejected "$tmp/$run-one.json")" -eq 0 ] &&
		   [ $((jobs2 + rej)) -eq "$jobs1" ]; then
			ok
		else
			bad "$run: rejected $rej, jobs over 64 nodes with a spine $big, jobs $jobs2 + $rej vs $jobs1"
		fi
		echo "$run: $(cat "$tmp/$run.chk"), rejected $rej"
	done
done

err=$tmp/fattree-easy-two.err
if grep -q "machine: fat tree of $tmp/two.conf: 128 nodes, 8 leaf switches, 2 switch levels, 2 fabrics" "$err" &&
   grep -q "warning: $tmp/two.conf: 2 fabrics with no switch above them: fabric 1 = A (n\[1-64\]), fabric 2 = B (n\[65-128\]); no job will span two; write a spine switch to join them" "$err"; then
	ok
else
	bad "toposim's fabric lines: $(cat "$err")"
fi
if grep -q "1 fabric$" "$tmp/fattree-easy-one.err" && ! grep -q "fabrics with no switch" "$tmp/fattree-easy-one.err"; then
	ok
else
	bad "one fabric: $(cat "$tmp/fattree-easy-one.err")"
fi

# ftconf hopsum: within a fabric as with a spine; across: refused, named.
h2=$("$ftconf" hopsum --topology "$tmp/two.conf" 'n[1-4,17-20]' 2>&1)
h1=$("$ftconf" hopsum --topology "$tmp/one.conf" 'n[1-4,17-20]' 2>&1)
if [ "$h2" = 3 ] && [ "$h1" = 3 ]; then ok; else bad "hopsum within a fabric: $h2 / $h1 (want 3)"; fi
if out=$("$ftconf" hopsum --topology "$tmp/two.conf" 'n[63-66]' 2>&1); then
	bad "ftconf hopsum across fabrics succeeded: $out"
elif [[ $out == *"host list 'n[63-66]' spans fabrics with no link between them: n63 is in fabric 1 (switch A), n65 in fabric 2 (switch B)"* ]]; then
	ok
else
	bad "ftconf hopsum across fabrics: $out"
fi
if out=$(echo 'n[1-2,70]' | "$ftconf" hopsum --topology "$tmp/two.conf" 2>&1); then
	bad "ftconf hopsum (stdin) across fabrics succeeded: $out"
elif [[ $out == *"(stdin):1: host list 'n[1-2,70]' spans fabrics"* ]]; then
	ok
else
	bad "ftconf hopsum (stdin) across fabrics: $out"
fi
sim_done sim-fabrics
