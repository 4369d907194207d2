#!/bin/sh
# slurm-source.sh [--check] [--build] [SOURCE] - Slurm 26.05 from a release
# source: configured once into the cache, for the plugins' headers; with
# --build also compiled and installed there, for the live tests' daemons.
# Prints the configured source tree.
#
# The source, the first of these that is there (which one is said on
# stderr and kept in the tree's .topo-source):
#   1. SOURCE: a release tarball (SchedMD's slurm-26.05.3.tar.bz2, say;
#      checked against a SHA256SUMS beside it, and against
#      contrib/slurm-release.sha256 if its name is listed there) or a
#      directory holding a Slurm source tree (a site's own: it must be the
#      release its daemons run, since plugins are checked to the micro
#      release and the internal structures change between micro releases);
#   2. slurm-26.05.3.tar.* in ../shared/slurm beside the source tree;
#   3. a tarball downloaded before into the cache;
#   4. a download from SchedMD ($SLURM_DOWNLOAD_URL, default
#      https://download.schedmd.com/slurm) of each file of that release
#      listed in contrib/slurm-release.sha256.
# 2-4 are used only if contrib/slurm-release.sha256 lists the file's name
# with its SHA-256 and the file matches.  With none of them it stops and
# names what to provide.
#
# The tree is configured as the daemons are built: a private prefix in
# the cache ($SLURM_TOPO_CACHE/slurm-VERSION-install), multiple-slurmd
# mode, munge, and MariaDB's client library, so that slurmdbd has
# accounting_storage/mysql (the replay-fidelity test bed keeps its
# accounting in MariaDB).  A tree configured with other options (an older
# cache) is configured and built again, once (about 6 min on 2 cores).
# Nothing is installed over the system's Slurm.
#
# Steps print a line each while they run; a failure names the step and its
# log.  --check only prints a tree already configured (configure uses it,
# and never builds, downloads or installs anything).  Needs root the first
# time (apt-get for the build dependencies: libjson-c-dev, which 26.05's
# slurmctld needs; libyaml-dev for topology.yaml; libmunge-dev;
# libmariadb-dev for slurmdbd's accounting_storage/mysql).
set -eu

die() {
	echo "slurm-source.sh: $*" >&2
	exit 1
}
step() { echo "slurm-source.sh: $*" >&2; }

CHECK_ONLY= BUILD=
while [ $# -gt 0 ]; do
	case $1 in
	--check) CHECK_ONLY=1 ;;
	--build) BUILD=1 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
here=$(cd "$(dirname "$0")/.." && pwd)
# The release configure --with-slurm-version=26.05 builds for.
release=26.05.3
sums=$here/contrib/slurm-release.sha256
cache=${SLURM_TOPO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/slurm-topo}
mkdir -p "$cache"
src=${1:-} origin=

# recorded_sum NAME: the SHA-256 contrib/slurm-release.sha256 lists for a
# file of that name, or nothing.
recorded_sum() {
	awk -v f="$1" '$1 !~ /^#/ && NF == 2 && $2 == f { print $1; exit }' "$sums"
}
# The files of the release that list names, in its order.
recorded_names() {
	awk -v p="slurm-$release.tar." '$1 !~ /^#/ && NF == 2 && index($2, p) == 1 { print $2 }' "$sums"
}
sha256_of() { sha256sum "$1" | cut -d' ' -f1; }
# listed_match FILE: its name is listed and its SHA-256 is the listed one.
listed_match() {
	want=$(recorded_sum "$(basename "$1")")
	[ -n "$want" ] && [ "$(sha256_of "$1")" = "$want" ]
}

# The release the source is: META's Version line (a tree's) or the
# tarball's name.
if [ -z "$src" ]; then
	version=$release
elif [ -d "$src" ]; then
	version=$(sed -n 's/^[[:space:]]*Version:[[:space:]]*//p' "$src/META" 2>/dev/null | head -n 1)
else
	[ -f "$src" ] || die "no Slurm source at $src (a release tarball or a source directory)"
	version=$(basename "$src" | sed -n 's/^slurm-\([0-9][0-9.]*[0-9]\)\.tar\..*/\1/p')
fi
case $version in
26.05.*) ;;
*) die "$src: Slurm '$version'; this script prepares Slurm 26.05 releases" ;;
esac
tree=$cache/slurm-$version
prefix=$cache/slurm-$version-install
[ -n "$src" ] && [ -d "$src" ] && tree=$(cd "$src" && pwd)

# The options the tree is configured with; the stamps hold them, so a tree
# or a build made with other options is made again.
opts="--prefix=$prefix --sysconfdir=$prefix/etc --enable-multiple-slurmd --disable-debug --with-mysql_config=/usr/bin"
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$opts" ]; }
configured() { stamp_ok "$tree/.topo-configured" && [ -f "$tree/config.h" ]; }
built() { stamp_ok "$prefix/.topo-built" && [ -x "$prefix/sbin/slurmctld" ]; }

if configured && { [ -z "$BUILD" ] || built; }; then
	[ -n "$CHECK_ONLY" ] ||
		step "Slurm $version prepared in $tree (source: $(cat "$tree/.topo-source" 2>/dev/null || echo unrecorded))"
	echo "$tree"
	exit 0
fi
[ -z "$CHECK_ONLY" ] ||
	die "Slurm $version is not prepared in $tree: run contrib/slurm-source.sh${src:+ $src} (as root the first time; contrib/build.sh does)"

exec 9>"$cache/.slurm-$version.lock"
flock 9

# download URL FILE: FILE from URL (curl or wget), nothing left on failure.
download() {
	rm -f "$2.part"
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --connect-timeout 20 --retry 2 -o "$2.part" "$1" 2>"$2.err"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -T 20 -t 3 -O "$2.part" "$1" 2>"$2.err"
	else
		echo "neither curl nor wget is installed" >"$2.err"
		false
	fi || { tried="$tried; $1: $(tail -n 1 "$2.err" | cut -c1-160)"; rm -f "$2.part" "$2.err"; return 1; }
	rm -f "$2.err"
	mv "$2.part" "$2"
}

# Sets src and origin from 2-4 above; 1 when none is there.
find_source() {
	tried=
	for f in "$here/../shared/slurm/slurm-$release.tar."*; do
		[ -f "$f" ] || continue
		f=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
		if listed_match "$f"; then
			src=$f origin="$f beside the source tree, SHA-256 as listed"
			return 0
		fi
		step "$f: not listed in contrib/slurm-release.sha256 or not its SHA-256 ($(sha256_of "$f")); not used"
	done
	for n in $(recorded_names); do
		f=$cache/$n
		if [ -f "$f" ] && listed_match "$f"; then
			src=$f origin="$f, downloaded before, SHA-256 as listed"
			return 0
		fi
	done
	url=${SLURM_DOWNLOAD_URL:-https://download.schedmd.com/slurm}
	[ -n "$(recorded_sum "slurm-$release.tar.bz2")" ] ||
		step "SchedMD's slurm-$release.tar.bz2 has no SHA-256 in contrib/slurm-release.sha256: not downloaded"
	for n in $(recorded_names); do
		step "downloading $url/$n"
		download "$url/$n" "$cache/$n" || continue
		if listed_match "$cache/$n"; then
			src=$cache/$n origin="$url/$n, downloaded, SHA-256 as listed"
			return 0
		fi
		tried="$tried; $url/$n: SHA-256 $(sha256_of "$cache/$n") is not the listed one"
		rm -f "$cache/$n"
	done
	return 1
}

if [ -z "$src" ] && ! configured; then
	find_source || die "no Slurm $release source. None was given; there is no slurm-$release.tar.* in $here/../shared/slurm and none downloaded in $cache; no download matched contrib/slurm-release.sha256${tried:+ (tried${tried#;})}.
  Provide SchedMD's slurm-$release.tar.bz2 (https://download.schedmd.com/slurm/) or a Slurm $release source tree:
    contrib/slurm-source.sh [--build] TARBALL|DIR
    contrib/build.sh BUILDDIR --with-slurm-version=26.05 --with-slurm-source=TARBALL|DIR
    SLURM_SOURCE=TARBALL|DIR for contrib/cluster/topo-cluster --slurm 26.05
  or put slurm-$release.tar.xz (SHA-256 $(recorded_sum "slurm-$release.tar.xz")) in $here/../shared/slurm."
elif [ -n "$src" ]; then
	origin="$src, given"
fi
[ -z "$origin" ] || step "Slurm $version source: $origin"

ensure_build_deps() {
	missing=
	for p in build-essential libjson-c-dev libyaml-dev libmunge-dev munge xz-utils libmariadb-dev; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "missing build packages:$missing (run once as root)"
	step "installing$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1; } ||
		die "apt-get install$missing failed"
}

unpack() {
	beside=$(dirname "$src")/SHA256SUMS
	if [ -f "$beside" ]; then
		step "checking $(basename "$src") against SHA256SUMS"
		(cd "$(dirname "$src")" && grep " $(basename "$src")\$" SHA256SUMS | sha256sum -c --quiet -) ||
			die "$src does not match $beside"
	fi
	want=$(recorded_sum "$(basename "$src")")
	[ -z "$want" ] || [ "$(sha256_of "$src")" = "$want" ] ||
		die "$src: SHA-256 $(sha256_of "$src"), but contrib/slurm-release.sha256 lists $want for $(basename "$src"): not that release's file"
	step "unpacking $(basename "$src") into $tree"
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$src" -C "$tree.tmp" --strip-components=1 || die "unpacking $src failed"
	rm -rf "$tree"
	mv "$tree.tmp" "$tree"
}

# run_step NAME LOG CMD...: CMD in the tree, its output in LOG, a line a
# minute while it runs; a failure names NAME and LOG.
run_step() {
	name=$1 log=$2
	shift 2
	step "$name (log: $log)"
	( cd "$tree" && "$@" ) >"$log" 2>&1 &
	pid=$!
	t=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		t=$((t + 5))
		[ $((t % 60)) -eq 0 ] && step "$name: ${t} s so far, last: $(tail -n 1 "$log" | cut -c1-100)"
	done
	wait "$pid" || { tail -n 15 "$log" >&2; die "$name failed (log: $log)"; }
	step "$name: done in ${t} s"
}

ensure_build_deps
if ! configured; then
	[ -d "$src" ] || unpack
	# shellcheck disable=SC2086 # opts: options without spaces
	run_step "configure Slurm $version" "$cache/slurm-$version-configure.log" \
		./configure $opts
	grep -q '^#define MULTIPLE_SLURMD 1' "$tree/config.h" ||
		die "configure left multiple-slurmd off ($cache/slurm-$version-configure.log)"
	grep -q '^#define HAVE_MYSQL 1' "$tree/config.h" ||
		die "configure found no MariaDB client library ($cache/slurm-$version-configure.log)"
	[ -z "$origin" ] || echo "$origin" >"$tree/.topo-source"
	echo "$opts" >"$tree/.topo-configured"
	rm -f "$prefix/.topo-built"
fi
if [ -n "$BUILD" ] && ! built; then
	run_step "make -j$(nproc) (about 5 min on 2 cores)" "$cache/slurm-$version-make.log" \
		make -j"$(nproc)"
	run_step "make install into $prefix" "$cache/slurm-$version-install.log" make install
	[ -x "$prefix/sbin/slurmctld" ] || die "no $prefix/sbin/slurmctld after make install"
	[ -f "$prefix/lib/slurm/accounting_storage_mysql.so" ] ||
		die "no accounting_storage_mysql.so in $prefix/lib/slurm after make install"
	echo "$opts" >"$prefix/.topo-built"
fi
echo "$tree"
