#!/bin/sh
# live-shard.sh - test/live/shard.sh splits check-live's tests into shards
# that together run every test exactly once, balanced by measured time:
# no shard exceeds another by more than its longest test, HEAD included.
set -eu
srcdir=${TOPO_SRCDIR:-${srcdir:-.}}
shard=$srcdir/test/live/shard.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
not_ok() { echo "not ok - $*"; fail=1; }

cat >"$tmp/d" <<'D'
# comment
a 400
b 300
c 200
d 100
e 100
f 50
D
printf '%s\n' a b c d e f g >"$tmp/names"   # g is not listed: 60 s
for head in 0 350; do
	: >"$tmp/all"
	for k in 1 2 3; do
		sh "$shard" $k 3 $head "$tmp/d" <"$tmp/names" >"$tmp/s$k"
		cat "$tmp/s$k" >>"$tmp/all"
		load=$(awk -v h=$head -v k=$k 'NR == FNR { if ($2 ~ /^[0-9]+$/) w[$1] = $2; next }
			{ s += ($1 in w) ? w[$1] : 60 } END { print s + (k == 1 ? h : 0) }' "$tmp/d" "$tmp/s$k")
		echo "$load" >>"$tmp/loads.$head"
	done
	[ "$(sort "$tmp/all")" = "$(sort "$tmp/names")" ] ||
		not_ok "head $head: every test in exactly one shard (got $(sort "$tmp/all" | paste -sd' '))"
	spread=$(sort -n "$tmp/loads.$head" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print hi - lo }')
	[ "$spread" -le 400 ] || not_ok "head $head: shards within the longest test (400 s) of each other, spread $spread"
	# the order read is kept within a shard
	for k in 1 2 3; do
		[ "$(grep -Fxf "$tmp/s$k" "$tmp/names")" = "$(cat "$tmp/s$k")" ] ||
			not_ok "head $head: shard $k keeps the order read"
	done
done
# With HEAD as long as everything else, shard 1 of 2 runs nothing.
[ -z "$(sh "$shard" 1 2 5000 "$tmp/d" <"$tmp/names")" ] ||
	not_ok "a HEAD longer than every test leaves shard 1 empty"
# The same input gives the same shards (every lane of a run must agree).
[ "$(sh "$shard" 2 3 0 "$tmp/d" <"$tmp/names")" = "$(sh "$shard" 2 3 0 "$tmp/d" <"$tmp/names")" ] ||
	not_ok "deterministic"
[ $fail = 0 ] && echo "ok - test/live/shard.sh: 7 tests in 3 shards, balanced, deterministic"
exit $fail
