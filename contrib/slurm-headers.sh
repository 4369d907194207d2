#!/bin/sh
# slurm-headers.sh [--check] [--version V] [DIR] - prepare Slurm 22.05.8's internal headers for the
# plugins and print the directory that holds them.
#
# Select and scheduler plugins include src/common/*.h and src/slurmctld/*.h,
# which no Debian binary package ships.  They come from Debian's source
# package, downloaded (about 10 MB, no build dependencies) through a private
# apt configuration (contrib/slurm-source-apt.sh: the system's apt sources
# and lists stay untouched); this script applies Debian's patches, keeps
# only the *.h files (4 MB) and Slurm's testsuite/python (1 MB) and writes
# the small config.h they expect.  A full ./configure is not
# needed: this config.h gives object code identical to a configured tree.
#
# DIR defaults to $SLURM_TOPO_CACHE/slurm-22.05.8, where SLURM_TOPO_CACHE
# defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/slurm-topo.  A finished DIR is
# marked with .complete, so a second run only checks and prints it.
# Needs root (apt-get) the first time only.  Exit status 0 on success; on
# failure a message on stderr names the step that failed.
#
# slurm-headers.sh --version 24.11 [DIR] prepares Slurm 24.11.5 (Debian 13's)
# instead, through the same kind of private apt configuration: the patched
# source tree is kept whole, since a
# topology plugin compiles some of Slurm's topology-common sources, and
# slurm/slurm_version.h comes from Debian 13's libslurm-dev.
set -eu

die() {
	echo "slurm-headers.sh: $*" >&2
	exit 1
}

# --check: only print an already prepared DIR, never download or install
# (configure uses it: configure never installs packages).
CHECK_ONLY=
if [ "${1:-}" = --check ]; then
	CHECK_ONLY=1
	shift
fi
SERIES=22.05
if [ "${1:-}" = --version ]; then
	SERIES=${2:?--version needs 22.05 or 24.11}
	shift 2
fi
case $SERIES in
22.05) VERSION=22.05.8 VERSION_NUMBER=0x160508 ;;
24.11) VERSION=24.11.5 VERSION_NUMBER=0x180b05 ;;
*) die "--version $SERIES: known versions are 22.05 and 24.11" ;;
esac
# libslurm-dev: public headers; basic-plugins: libslurmfull and select/linear;
# patch, xz-utils: Debian's patches and their tarball.
PACKAGES="libslurm-dev slurm-wlm-basic-plugins slurm-wlm-basic-plugins-dev patch xz-utils"
[ "$SERIES" = 24.11 ] && PACKAGES="patch xz-utils"

cache=${SLURM_TOPO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/slurm-topo}
dir=${1:-$cache/slurm-$VERSION}

# True when $1/slurm/slurm_version.h says exactly $VERSION.
version_ok() {
	grep -q "^#define SLURM_VERSION_NUMBER $VERSION_NUMBER\$" \
		"$1/slurm/slurm_version.h" 2>/dev/null
}

# The small config.h Slurm's headers expect, into $1.
write_config_h() {
	cat > "$1/config.h" <<'EOF'
/* config.h for Slurm's internal headers, written by slurm-topo's
 * contrib/slurm-headers.sh.  Only what the headers consult: with these the
 * plugins compile to the same code as in a configured Slurm tree. */
#ifndef SLURM_TOPO_SLURM_CONFIG_H
#define SLURM_TOPO_SLURM_CONFIG_H
#define NDEBUG 1
#define USE_ALIAS 1
#define WITH_CGROUP 1
#include "slurm/slurm_version.h"
#endif
EOF
}

# patched_tree ORIG DEBIAN_TAR TREE: upstream's tarball into TREE with all
# of Debian's patches applied (uses $work for the patches).
patched_tree() {
	mkdir -p "$3"
	tar -xf "$1" -C "$3" --strip-components=1 || die "$1: extraction failed"
	tar -xf "$2" -C "$work" debian/patches || die "$2: no debian/patches"
	grep -v '^[[:space:]]*\(#\|$\)' "$work/debian/patches/series" |
	while read -r p _; do
		patch -p1 -f -s -N -d "$3" -i "$work/debian/patches/$p" >&2 ||
			die "Debian patch $p does not apply to $1"
	done
}

# A header every prepared tree of this version has.
MARK=src/common/select.h
[ "$SERIES" = 24.11 ] && MARK=src/interfaces/topology.h
prepared() {
	[ -f "$dir/.complete" ] && version_ok "$dir" &&
		[ -f "$dir/$MARK" ] && [ -f "$dir/config.h" ] &&
		[ -f "$dir/testsuite/python/lib/atf.py" ]
}
if prepared; then
	echo "$dir"
	exit 0
fi
[ -z "$CHECK_ONLY" ] ||
	die "Slurm $VERSION's headers are not prepared in $dir: run contrib/slurm-headers.sh --version $SERIES (as root the first time; contrib/build.sh does)"

# One preparation at a time (configure and a test script may race).
mkdir -p "$cache" "$(dirname "$dir")"
exec 9>"$cache/.lock"
flock 9
if prepared; then
	echo "$dir"
	exit 0
fi

as_root() {
	[ "$(id -u)" = 0 ] || die "$* needs root (run once as root, or pass a prepared DIR)"
	"$@"
}

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "slurm-headers.sh: installing$missing" >&2
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 ||
		die "apt-get update failed"
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >&2 ||
		die "apt-get install$missing failed"
fi

# shellcheck source=contrib/slurm-source-apt.sh
. "$(dirname "$0")/slurm-source-apt.sh"
if [ "$SERIES" = 24.11 ]; then
	prepare_trixie
	exit 0
fi

version_ok /usr/include ||
	die "/usr/include/slurm/slurm_version.h is not Slurm $VERSION (need SLURM_VERSION_NUMBER $VERSION_NUMBER)"

work=$(mktemp -d "$cache/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# The exact Debian version installed, so headers match the binaries;
# bookworm is the Debian release that ships it.
debver=$(dpkg-query -W -f='${Version}' libslurm-dev)
private_apt bookworm
download_source "$work" "slurm-wlm=$debver"

orig=$(ls "$work"/slurm-wlm_"$VERSION".orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || die "no slurm-wlm_$VERSION.orig.tar.* in the download"
# Debian's patches change some headers (a CVE fix in src/common/fd.h, the
# pid file path in read_config.h): apply them all to the whole tree, so the
# headers match the installed binaries, then keep only the headers.
src_tree="$work/src"
deb=$(ls "$work"/slurm-wlm_*.debian.tar.* 2>/dev/null | head -n 1)
[ -n "$deb" ] || die "no slurm-wlm_*.debian.tar.* in the download"
patched_tree "$orig" "$deb" "$src_tree"
tmpdir="$work/tree"
mkdir -p "$tmpdir"
(cd "$src_tree" && find . -name '*.h' -print0 |
	xargs -0 cp --parents -t "$tmpdir") || die "copying headers failed"
# Slurm's own pytest suite (1 MB), for make check-slurm-suite.
mkdir -p "$tmpdir/testsuite"
cp -r "$src_tree/testsuite/python" "$tmpdir/testsuite/" ||
	die "$orig: no testsuite/python"

cp /usr/include/slurm/slurm_version.h "$tmpdir/slurm/slurm_version.h"
version_ok "$tmpdir" || die "$orig: slurm/slurm_version.h is not $VERSION"
[ -f "$tmpdir/src/common/select.h" ] || die "$orig: no src/common/select.h"

write_config_h "$tmpdir"
touch "$tmpdir/.complete"

# Publish: readers check .complete, which comes last with the rename.
rm -rf "$dir"
mv "$tmpdir" "$dir"
echo "$dir"
