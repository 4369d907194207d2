#!/bin/bash
# fidelity.sh (body of f-fidelity-24.11.sh and f-fidelity-26.05.sh):
# toposim's replay measured against live Slurm (contrib/replay-fidelity.sh).
#
# 300 consecutive jobs of SDSC-SP2 (from job 48,000, submissions over
# 150 s) run on the test bed of each configuration of
# contrib/fidelity/configs/ (priority/basic on whole nodes; multifactor
# with Fair Tree, QOS and shared nodes under Slurm's topology/tree, under
# the project's topology/fattree, and under sched/topo easy): slurmdbd
# over MariaDB, both started by the test in the cluster's namespace.
# Checked per configuration:
#   - the accounting is real: slurmdbd talked to MariaDB, every job is in
#     the sacct file exported from slurmdbd, COMPLETED, and sacctmgr's
#     dump has the bed's accounts with their shares;
#   - the replay replayed every job;
#   - multifactor: sprio's factors of every pending job sampled at the
#     recalculation before +118 s equal the replay's (usage from Slurm's
#     own schedule), factor by factor, to sprio's rounding;
#   - the fidelity stays above floors set under what was measured
#     (doc/results.md, "Fidelity against live Slurm"): a regression
#     fails.  The issue's acceptance (90 % within one scheduling
#     interval, mean wait within 5 %, rank correlation 0.95) is printed
#     per configuration; not met while Slurm's per-job latency (launch
#     and completion, about a second, a third of a compressed job's
#     occupancy) is not modelled (doc/results.md, "Fidelity against live
#     Slurm"; said in the diagnostics).
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
live_needs toposim topology_fattree sched_topo
trace=${TP_SHARED_DATA:-$TOPO_SRCDIR/data}/traces/SDSC-SP2-1998-4.2-cln.swf.gz
[ -r "$trace" ] || bail_out "no trace $trace (TP_SHARED_DATA)"

out=$(mktemp -d "${LIVE_TMPDIR:-${TMPDIR:-/tmp}}/topo-$LIVE_NAME.XXXXXX")
trap '_live_on_exit; [ "${LIVE_KEEP:-}" = 1 ] || [ "$_live_fail" != 0 ] || rm -rf "$out"' EXIT
t0=$(date +%s)
if "$TOPO_SRCDIR/contrib/replay-fidelity.sh" --slurm "$LIVE_SLURM" --build "$TOPO_BUILDDIR" \
	--out "$out" --first 48000 --count 300 --span 150 --sprio-at 118 "$trace" \
	>"$out/table" 2>"$out/log"; then
	pass "replay-fidelity.sh ran every configuration ($(($(date +%s) - t0)) s)"
else
	tail -n 20 "$out/log" | diag_block
	bail_out "replay-fidelity.sh failed (output kept in $out)"
fi
diag "fidelity on Slurm $LIVE_SLURM:"
diag_block <"$out/table"

json() { # CONFIG KEY
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
		"$out/$LIVE_SLURM/$1/fidelity.json" "$2"
}
# at_least CONFIG KEY FLOOR: the value is at least FLOOR.
ge() { python3 -c 'import sys; sys.exit(not float(sys.argv[1]) >= float(sys.argv[2]))' "$1" "$2"; }

for c in basic-whole mf-shared mf-fattree mf-topo-easy; do
	d=$out/$LIVE_SLURM/$c
	# the accounting: MariaDB behind slurmdbd, the jobs and associations from it
	assert_true "$c: slurmdbd stored its records in MariaDB" \
		grep -q "MySQL server version is: .*MariaDB" "$d/cluster/log/slurmdbd.log"
	assert_eq 300 "$(awk -F'|' 'NR > 1 && $20 == "COMPLETED"' "$d/live.sacct" | wc -l)" \
		"$c: sacct from slurmdbd has all 300 jobs, COMPLETED"
	assert_eq "pa:50 pb:30 pc:20" \
		"$(sed -n "s/^Account - '\([a-z]*\)'.*:Fairshare=\([0-9]*\).*/\1:\2/p" "$d/assoc.cfg" | paste -sd' ')" \
		"$c: sacctmgr dump has the accounts and their shares"
	assert_eq 300 "$(json "$c" jobs)" "$c: every job replayed and compared"
	if [ "$c" != basic-whole ]; then
		if python3 "$TOPO_SRCDIR/contrib/fidelity/sprio-compare.py" "$d/sprio" "$d/sprio.replay" \
			--live-sacct "$d/live.sacct" --slurm-conf "$d/slurm.conf" >"$d/sprio.check"; then
			pass "$c: sprio's factors equal the replay's for every compared job ($(sed -n 's/^compared //p' "$d/sprio.check"))"
		else
			fail "$c: sprio's factors differ from the replay's" "$(head -n 20 "$d/sprio.check")"
		fi
		compared=$(sed -n 's/^compared //p' "$d/sprio.check")
		assert_true "$c: at least 10 pending jobs compared with sprio ($compared)" ge "${compared:-0}" 10
	fi
	# floors under the measured fidelity (a regression fails)
	within=$(json "$c" within) rank=$(json "$c" rank_corr) werr=$(json "$c" wait_err)
	assert_true "$c: start order rank correlation $rank >= 0.85" ge "$rank" 0.85
	assert_true "$c: share within one scheduling interval $within >= 0.15" ge "$within" 0.15
	assert_true "$c: mean-wait error $werr within +-0.6" ge 0.6 "$(python3 -c "print(abs($werr))")"
	verdict=met
	ge "$within" 0.90 && ge "$rank" 0.95 && ge 0.05 "$(python3 -c "print(abs($werr))")" ||
		verdict="not met (Slurm's per-job latency not modelled)"
	diag "$c: acceptance (90 % within, wait +-5 %, rank 0.95): $verdict;" \
		"Slurm's latency: $(json "$c" lat_submit_live) s after a submission, $(json "$c" lat_end_live) s after an end"
done
done_testing
