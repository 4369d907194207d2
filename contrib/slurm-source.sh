#!/bin/sh
# slurm-source.sh [--check] [--build] [SOURCE] - Slurm 26.05 from a release
# source: configured once into the cache, for the plugins' headers; with
# --build also compiled and installed there, for the live tests' daemons.
# Prints the configured source tree.
#
# SOURCE is a release tarball (default: ../shared/slurm/slurm-26.05.3.tar.xz
# beside the source tree, checked against its SHA256SUMS) or a directory
# holding a Slurm source tree (a site's own: it must be the release its
# daemons run, since plugins are checked to the micro release and the
# internal structures change between micro releases).  The tree is
# configured as the daemons are built: a private prefix in the cache
# ($SLURM_TOPO_CACHE/slurm-VERSION-install), multiple-slurmd mode, munge,
# and MariaDB's client library, so that slurmdbd has accounting_storage/mysql
# (the replay-fidelity test bed keeps its accounting in MariaDB).  A tree
# configured with other options (an older cache) is configured and built
# again, once (about 6 min on 2 cores).
# Nothing is installed over the system's Slurm.
#
# Steps print a line each while they run; a failure names the step and its
# log.  --check only prints a tree already configured (configure uses it,
# and never builds or installs anything).  Needs root the first time
# (apt-get for the build dependencies: libjson-c-dev, which 26.05's
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
src=${1:-$here/../shared/slurm/slurm-26.05.3.tar.xz}
cache=${SLURM_TOPO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/slurm-topo}
mkdir -p "$cache"

# The release the source is: META's Version line (a tarball's or a tree's).
if [ -d "$src" ]; then
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
[ -d "$src" ] && tree=$(cd "$src" && pwd)

# The options the tree is configured with; the stamps hold them, so a tree
# or a build made with other options is made again.
opts="--prefix=$prefix --sysconfdir=$prefix/etc --enable-multiple-slurmd --disable-debug --with-mysql_config=/usr/bin"
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$opts" ]; }
configured() { stamp_ok "$tree/.topo-configured" && [ -f "$tree/config.h" ]; }
built() { stamp_ok "$prefix/.topo-built" && [ -x "$prefix/sbin/slurmctld" ]; }

if configured && { [ -z "$BUILD" ] || built; }; then
	echo "$tree"
	exit 0
fi
[ -z "$CHECK_ONLY" ] ||
	die "Slurm $version is not prepared in $tree: run contrib/slurm-source.sh${1:+ $1} (as root the first time; contrib/build.sh does)"

exec 9>"$cache/.slurm-$version.lock"
flock 9

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
	sums=$(dirname "$src")/SHA256SUMS
	if [ -f "$sums" ]; then
		step "checking $(basename "$src") against SHA256SUMS"
		(cd "$(dirname "$src")" && grep " $(basename "$src")\$" SHA256SUMS | sha256sum -c --quiet -) ||
			die "$src does not match $sums"
	fi
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
