#!/usr/bin/env bash
# shell-free.sh - no text a user gives reaches a shell.  toposim --plot
# runs gnuplot without one: a PREFIX made to break out of quotes creates
# no file (a harmless marker), a directory with an apostrophe works, a
# line break is refused before the replay; gnuplot missing from PATH is
# found before the replay, and gnuplot failing at the end keeps every
# output written whole (the summary, the CSV) and removes only the charts
# it did not make.  And no call of system() or popen() in src/, plugins/
# or contrib/ (C, scripts, gnuplot scripts): there is no call to audit.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
src=${TOPO_SRCDIR:-$sim_here/..}
cat >"$tmp/t.swf" <<'SWF'
; MaxNodes: 4
1 0 -1 10 3 -1 -1 3 10 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 5 2 -1 -1 2 5 -1 1 -1 -1 -1 -1 -1 -1 -1
SWF
command -v gnuplot >/dev/null || { echo "FAILED: no gnuplot (apt-get install gnuplot-nox)"; exit 1; }

# plot PREFIX [toposim args...]: a run with --plot PREFIX in $tmp/run
plot() {
	local p=$1
	shift
	(cd "$tmp/run" && "$toposim" --workload "$tmp/t.swf" --policy easy --quiet \
		--jobs-csv jobs.csv --summary-json sum.json --plot "$p" "$@")
}
mkdir -p "$tmp/run"

# ---- quotes in PREFIX: one argument, never a command ------------------
p="a';touch INJECTED;'"
if plot "$p" 2>"$tmp/err"; then ok; else bad "--plot \"$p\": $(cat "$tmp/err")"; fi
if [ ! -e "$tmp/run/INJECTED" ] && [ ! -e "$tmp/INJECTED" ]; then ok; else
	bad "--plot \"$p\" ran a command: INJECTED exists"; fi
for f in -util.png -wait.png -gantt.svg .gp; do
	if [ -s "$tmp/run/$p$f" ]; then ok; else bad "--plot \"$p\": no '$p$f'"; fi
done
p='b`touch INJECTED2`$(touch INJECTED3)'
if plot "$p" 2>"$tmp/err" && [ -s "$tmp/run/$p-util.png" ] &&
	[ ! -e "$tmp/run/INJECTED2" ] && [ ! -e "$tmp/run/INJECTED3" ]; then ok; else
	bad "--plot '$p': $(cat "$tmp/err"; ls "$tmp/run")"; fi
mkdir -p "$tmp/run/out/it's here"
if plot "out/it's here/p" 2>"$tmp/err" && [ -s "$tmp/run/out/it's here/p-wait.png" ]; then ok; else
	bad "--plot in a directory with an apostrophe: $(cat "$tmp/err")"; fi
# a PREFIX that begins with '-' is not an option to gnuplot
if plot -dash 2>"$tmp/err" >/dev/null; then bad "--plot -dash taken (it is an option)"; else ok; fi
if (cd "$tmp/run" && "$toposim" --workload "$tmp/t.swf" --policy easy --quiet \
	--jobs-csv jobs.csv --summary-json sum.json --plot=-dash) 2>"$tmp/err" &&
	[ -s "$tmp/run/-dash-util.png" ]; then ok; else bad "--plot=-dash: $(cat "$tmp/err")"; fi

# ---- known before the replay -----------------------------------------
if plot "$(printf 'x\ny')" 2>"$tmp/err"; then bad "a PREFIX with a line break taken"; else
	[ $? -eq 2 ] && grep -q 'control character' "$tmp/err" && ok ||
		bad "a PREFIX with a line break: $(cat "$tmp/err")"; fi
echo before >"$tmp/run/sum.json"
if PATH=/nonexistent plot q 2>"$tmp/err"; then bad "--plot without gnuplot on PATH ran"; else
	grep -q 'gnuplot, which is not on PATH' "$tmp/err" && ok ||
		bad "--plot without gnuplot: $(cat "$tmp/err")"; fi
# found before anything was opened: the earlier summary as it was
if [ "$(cat "$tmp/run/sum.json")" = before ]; then ok; else bad "the earlier summary was overwritten"; fi

# ---- gnuplot failing keeps what was written whole --------------------
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "gnuplot: broken on purpose" >&2\nexit 3\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
if PATH=$tmp/bin:$PATH plot f 2>"$tmp/err"; then bad "a failing gnuplot passed"; else
	grep -q 'gnuplot exited with status 3' "$tmp/err" && ok ||
		bad "failing gnuplot: $(cat "$tmp/err")"; fi
if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/run/sum.json" &&
	[ "$(wc -l <"$tmp/run/jobs.csv")" = 3 ] && [ -s "$tmp/run/f-gantt.svg" ]; then ok; else
	bad "gnuplot failing removed the outputs written whole: $(ls "$tmp/run")"; fi
if [ ! -e "$tmp/run/f-util.png" ] && [ ! -e "$tmp/run/f-wait.png" ]; then ok; else
	bad "gnuplot failing left empty charts"; fi

# ---- no shell call in the tree ---------------------------------------
calls=$(cd "$src" && grep -rn 'system(\|popen(' src plugins contrib 2>/dev/null)
if [ -z "$calls" ]; then ok; else bad "system()/popen() in the tree: $calls"; fi

sim_done shell-free
