#!/usr/bin/env bash
# test-all.sh - every test of the project, from a fresh Debian 12 machine:
#   1. installs the packages it needs (contrib/install-deps.sh, as root);
#   2. unit tests (Check) of the core, the simulator and the plugins;
#   3. the same unit tests under AddressSanitizer + UndefinedBehaviorSanitizer;
#   4. live-cluster tests: real munged/slurmctld/slurmd in a private network
#      namespace with our plugins (root only; skipped with a message otherwise).
# Ends with one line "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail=0

step() { printf '\n=== %s\n' "$*"; }

step "dependencies"
./contrib/install-deps.sh || exit 1

step "unit tests"
./contrib/build.sh build/test || exit 1
make -C build/test check 2>&1 | tee -a "$log" | grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP):' || true
[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1

step "unit tests under ASan/UBSan"
./contrib/build.sh build/sanitize --enable-sanitizers --without-slurm-headers || exit 1
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	make -C build/sanitize check 2>&1 | tee -a "$log" | grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP):' || true
[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1

step "live-cluster tests"
if make -C build/test -n check-live >/dev/null 2>&1; then
	make -C build/test check-live 2>&1 | tee -a "$log" | grep -E '^(ok|not ok|PASS|FAIL|ERROR|SKIP)' || true
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
else
	echo "no check-live target (plugins not configured)"
fi

# Automake's summaries ("# PASS: N") and the live tests' "N passed, N failed".
passed=$(awk '/^# PASS:/ {s += $3} / passed, [0-9]+ failed$/ {s += $1} END {print s + 0}' "$log")
failed=$(awk '/^# (FAIL|ERROR|XPASS):/ {s += $3} / passed, [0-9]+ failed$/ {s += $3} END {print s + 0}' "$log")
[ "$failed" -eq 0 ] || fail=1
echo
echo "$passed passed, $failed failed"
exit "$fail"
