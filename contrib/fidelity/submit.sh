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
now() { date +%s.%N; }
# sleep_until EPOCH: whole-second marks land on time (sleep takes fractions).
sleep_until() {
	local d
	d=$(awk -v t="$1" -v n="$(now)" 'BEGIN { d = t - n; if (d > 0) printf "%.3f", d; else print 0 }')
	[ "$d" = 0 ] || sleep "$d"
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
t0=$(now)
decay=${4:-}/priority_last_decay_ran
if [ -n "${4:-}" ] && [ -s "$decay" ]; then
	last=$(od -An -tu1 -N8 "$decay" | awk '{ for (i = 1; i <= NF; i++) v = v * 256 + $i; print v }')
	t0=$(awk -v l="$last" -v n="$t0" -v p="${PRIO_PERIOD:-60}" \
		'BEGIN { k = int((n + 1 - l) / p) + 1; printf "%.3f", l + k * p + 0.5 }')
	echo "submit.sh: first submission at $t0 (priority recalculated at $last + k x ${PRIO_PERIOD:-60} s)" >&2
fi
while IFS=$'\t' read -r idx off user acct part qos nodes cores mem excl limit run; do
	[ "$idx" = idx ] && continue
	# sprio samples due before this submission
	while [ "$m" -lt "${#marks[@]}" ] &&
		awk -v a="${marks[$m]}" -v b="$off" 'BEGIN { exit !(a <= b) }'; do
		sleep_until "$(awk -v t="$t0" -v o="${marks[$m]}" 'BEGIN { printf "%.3f", t + o }')"
		sample
		m=$((m + 1))
	done
	sleep_until "$(awk -v t="$t0" -v o="$off" 'BEGIN { printf "%.3f", t + o }')"
	size=(-n "$cores" "--mem-per-cpu=$mem")
	[ "$excl" = 1 ] && size=(-N "$nodes" --exclusive --mem=0)
	jid=$(sbatch --parsable --uid="$user" --account="$acct" --partition="$part" \
		--qos="$qos" -J "fid-$idx" --time="$limit" "${size[@]}" \
		-o /dev/null -e /dev/null --chdir=/tmp --wrap "sleep $run") ||
		{ echo "submit.sh: sbatch of job $idx failed" >&2; exit 1; }
	echo "$idx $jid $(date +%s)" >>"$out/submitted"
done <"$stream"
while [ "$m" -lt "${#marks[@]}" ]; do
	sleep_until "$(awk -v t="$t0" -v o="${marks[$m]}" 'BEGIN { printf "%.3f", t + o }')"
	sample
	m=$((m + 1))
done
