#!/bin/sh
# run.sh SRCDIR BUILDDIR [TARGET...] - run each libFuzzer target for
# $FUZZ_SECONDS (default 60), one after the other (the targets are
# single-process: no -jobs, no -fork), and print per target: executions,
# corpus size, coverage (libFuzzer's cov: edges and ft: features) and
# crashes.  make fuzz calls it (fuzz/Makemodule.am, doc/fuzzing.md).
#
# Seeds: SRCDIR/corpus/NAME, read only.  New inputs: BUILDDIR/work/NAME,
# kept from run to run, or $FUZZ_WORKDIR/NAME (contrib/test-all.sh starts
# from the seeds each time: a grown corpus takes longer to load).  A crash, leak, sanitizer report or timeout
# leaves its input in BUILDDIR/artifacts/NAME/ (emptied at each run) and
# fails the run; the log of each run is BUILDDIR/logs/NAME.log.
# Ends with "# PASS: N" and "# FAIL: N" lines (contrib/test-all.sh
# counts them); exits 1 if any target failed.
set -u
LC_ALL=C # the status lines may hold any byte
export LC_ALL
src=$1 build=$2
shift 2
secs=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-30}  # one input taking longer is a finding (the
# largest inputs take 2.5 s without load: a margin for a busy machine)
[ $# -gt 0 ] || set -- $(cd "$src/corpus" && ls)

# Sanitizer reports with function names and lines.
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && ! command -v llvm-symbolizer >/dev/null; then
	for s in /usr/lib/llvm-*/bin/llvm-symbolizer; do
		[ -x "$s" ] && ASAN_SYMBOLIZER_PATH=$s && export ASAN_SYMBOLIZER_PATH
	done
fi
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
export UBSAN_OPTIONS
# The targets' input files: in memory when /dev/shm is writable.
mkdir -p "$build/logs"
if [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
else
	TMPDIR=$build/tmp
	mkdir -p "$TMPDIR"
fi
export TMPDIR

pass=0 fail=0
printf '%-14s %10s %10s %7s %7s %8s\n' target execs corpus cov ft crashes
for t in "$@"; do
	prog=$build/fuzz_$t
	work=${FUZZ_WORKDIR:-$build/work}/$t art=$build/artifacts/$t log=$build/logs/$t.log
	if [ ! -x "$prog" ] || [ ! -d "$src/corpus/$t" ]; then
		echo "$t: FAIL: no program $prog or no seeds $src/corpus/$t"
		fail=$((fail + 1))
		continue
	fi
	rm -rf "$art"
	mkdir -p "$work" "$art"
	dict=
	[ -f "$src/dict/$t.dict" ] && dict=-dict=$src/dict/$t.dict
	# -report_slow_units: libFuzzer's own default (10 s) would make a
	# slow input a finding well below the timeout on a busy machine.
	"$prog" -max_total_time="$secs" -timeout="$timeout" \
		-report_slow_units="$timeout" -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$art/" $dict \
		"$work" "$src/corpus/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	# the last status line: "#N NEW cov: C ft: F corp: N/SIZE ..."
	stats=$(grep -aE '^#[0-9]+.* cov: ' "$log" | tail -n 1 |
		awk '{ for (i = 1; i < NF; i++) if ($i ~ /^(cov|ft|corp):$/) v[$i] = $(i + 1) }
		     END { print (v["cov:"] ? v["cov:"] : "?"), (v["ft:"] ? v["ft:"] : "?"),
				 (v["corp:"] ? v["corp:"] : "?") }')
	read -r cov ft corp <<EOF
$stats
EOF
	crashes=$(ls "$art" | wc -l)
	printf '%-14s %10s %10s %7s %7s %8s\n' "$t" "${execs:-?}" "$corp" \
		"$cov" "$ft" "$crashes"
	if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ] || [ -z "$execs" ]; then
		fail=$((fail + 1))
		echo "FAIL: $t (exit $rc; log $log):"
		grep -aE 'ERROR: |runtime error: |fuzz check failed|SUMMARY: ' "$log" |
			head -n 5 | sed 's/^/  | /'
		for a in "$art"/*; do
			[ -f "$a" ] && echo "  input: $a"
		done
	else
		pass=$((pass + 1))
	fi
done
echo "# PASS: $pass"
echo "# FAIL: $fail"
[ "$fail" -eq 0 ]
