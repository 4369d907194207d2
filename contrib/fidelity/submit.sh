#!/bin/bash
# submit.sh STREAM OUTDIR [SPRIO_AT [STATEDIR]] - run inside a test bed's namespace
# (topo-cluster exec): submit every job of STREAM (contrib/fidelity/
# stream.py) with sbatch as its user, at its offset after the first
# submission, and, at each offset of SPRIO_AT (seconds, comma-separated,
# ascending), take sprio's factors of every pending job.
#
# Writes OUTDIR/submitted (idx, job id, epoch of submission) and
# OUTDIR/sprio (a line per pending job and partition: the epoch of the
# sample, then sprio's columns: job id, partition, priority, the age,
# fairshare, job size, partition and QOS factors normalised, then
# weighted).  A failed sbatch stops the run with its message.
#
# With STATEDIR (slurmctld's StateSaveLocation) holding
# priority_last_decay_ran, the first submission comes half a second after
# one of priority/multifactor's recalculations (that file's time, 8 bytes
# big-endian, plus a multiple of PRIO_PERIOD, default 60 s): the replay
# recalculates every PriorityCalcPeriod from its first submission, so
# both then recalculate at the same instants.
set -euo pipefail
stream=$1 out=$2 at=${3:-}
# Times in milliseconds, bash arithmetic only: a submission costs one
# sbatch and nothing else (no awk), so it keeps pace on a busy machine.
now_ms() { local t; t=$(date +%s%N); echo $((t / 1000000)); }
ms_of() { # SECONDS with at most 3 decimals -> milliseconds
	local i=${1%%.*} f=000
	[ "$i" = "$1" ] || f=${1#*.}000
	echo $((10#$i * 1000 + 10#${f:0:3}))
}
sleep_until() { # EPOCH-MS
	local d=$(($1 - $(now_ms)))
	[ "$d" -gt 0 ] && sleep "$((d / 1000)).$(printf %03d $((d % 1000)))"
	return 0
}
sample() {
	local t
	t=$(date +%s)
	sprio -h -o '%i|%r|%Y|%a|%f|%j|%p|%q|%A|%F|%J|%P|%Q' 2>>"$out/sprio.err" |
		sed "s/^ */$t|/; s/ *| */|/g" >>"$out/sprio" || true
}
: >"$out/submitted"
: >"$out/sprio"
IFS=, read -ra marks <<<"$at"
m=0
t0=$(now_ms)
decay=${4:-}/priority_last_decay_ran
if [ -n "${4:-}" ] && [ -s "$decay" ]; then
	last=$(od -An -tu1 -N8 "$decay" | awk '{ for (i = 1; i <= NF; i++) v = v * 256 + $i; print v }')
	p=${PRIO_PERIOD:-60}
	k=$(((t0 / 1000 + 1 - last) / p + 1))
	t0=$(((last + k * p) * 1000 + 500))
	echo "submit.sh: first submission at $t0 ms (priority recalculated at $last + $k x $p s)" >&2
fi
while IFS=$'\t' read -r idx off user acct part qos nodes cores mem excl limit run; do
	[ "$idx" = idx ] && continue
	# sprio samples due before this submission
	while [ "$m" -lt "${#marks[@]}" ] && [ $((marks[m] * 1000)) -le "$(ms_of "$off")" ]; do
		sleep_until $((t0 + marks[m] * 1000))
		sample
		m=$((m + 1))
	done
	sleep_until $((t0 + $(ms_of "$off")))
	size=(-n "$cores" "--mem-per-cpu=$mem")
	[ "$excl" = 1 ] && size=(-N "$nodes" --exclusive --mem=0)
	jid=$(sbatch --parsable --uid="$user" --account="$acct" --partition="$part" \
		--qos="$qos" -J "fid-$idx" --time="$limit" "${size[@]}" \
		-o /dev/null -e /dev/null --chdir=/tmp --wrap "sleep $run") ||
		{ echo "submit.sh: sbatch of job $idx failed" >&2; exit 1; }
	echo "$idx $jid $(date +%s)" >>"$out/submitted"
done <"$stream"
while [ "$m" -lt "${#marks[@]}" ]; do
	sleep_until $((t0 + marks[m] * 1000))
	sample
	m=$((m + 1))
done
