#!/usr/bin/env bash
# slurm-source-none.sh - contrib/slurm-source.sh where no Slurm 26.05
# source can be had: none given, nothing in ../shared/slurm beside the
# tree (or a file there that is not the listed release), no download that
# matches contrib/slurm-release.sha256.  It must stop with status 1 and
# name what to provide, and use no file whose SHA-256 is not the listed
# one.  The script runs from a copy of contrib/ in a scratch tree, so the
# real ../shared and cache are never looked at.
set -uo pipefail
srcdir=${TOPO_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
mkdir -p "$tmp/repo/contrib" "$tmp/empty" "$tmp/mirror"
cp "$srcdir/contrib/slurm-source.sh" "$srcdir/contrib/slurm-release.sha256" "$tmp/repo/contrib/"

# run WHAT: the script as the lanes call it, in the scratch tree; its
# status and stderr checked for the stop.
run() {
	SLURM_TOPO_CACHE=$tmp/cache SLURM_DOWNLOAD_URL=${url:-file://$tmp/empty} \
		sh "$tmp/repo/contrib/slurm-source.sh" --build >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ "$rc" -eq 1 ] || bad "$1: exit $rc, expected 1: $(cat "$tmp/err")"
	grep -q 'no Slurm 26.05.3 source' "$tmp/err" || bad "$1: no stop: $(cat "$tmp/err")"
	grep -q 'slurm-26.05.3.tar.bz2 (https://download.schedmd.com/slurm/)' "$tmp/err" ||
		bad "$1: SchedMD's tarball not named: $(cat "$tmp/err")"
	grep -q -- '--with-slurm-source=TARBALL|DIR' "$tmp/err" ||
		bad "$1: how to give it not named: $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || bad "$1: printed a tree: $(cat "$tmp/out")"
	[ -z "$(ls "$tmp/cache" | grep -v '^\.')" ] || bad "$1: left files in the cache: $(ls "$tmp/cache")"
	ok
}

run "nothing anywhere"
grep -q "file://$tmp/empty/slurm-26.05.3.tar.xz" "$tmp/err" || bad "the failed download not named: $(cat "$tmp/err")"

# A file beside the tree under the release's name, not the release.
mkdir -p "$tmp/shared/slurm"
echo "not Slurm" >"$tmp/shared/slurm/slurm-26.05.3.tar.xz"
run "a wrong file in ../shared/slurm"
grep -q "shared/slurm/slurm-26.05.3.tar.xz: not listed in contrib/slurm-release.sha256 or not its SHA-256" "$tmp/err" ||
	bad "the wrong file beside the tree not reported: $(cat "$tmp/err")"
rm -rf "$tmp/shared"

# A download under the listed name that is not the listed file.
echo "not Slurm either" >"$tmp/mirror/slurm-26.05.3.tar.xz"
url=file://$tmp/mirror run "a wrong download"
grep -q "is not the listed one" "$tmp/err" || bad "the wrong download not reported: $(cat "$tmp/err")"

# --check never resolves, downloads or prepares anything.
SLURM_TOPO_CACHE=$tmp/cache sh "$tmp/repo/contrib/slurm-source.sh" --check >"$tmp/out" 2>"$tmp/err"
rc=$?
{ [ "$rc" -eq 1 ] && grep -q 'is not prepared' "$tmp/err"; } || bad "--check: exit $rc: $(cat "$tmp/err")"
ok
echo "slurm-source-none: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
