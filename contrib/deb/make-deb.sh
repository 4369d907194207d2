#!/usr/bin/env bash
# make-deb.sh - build the Debian package of one build tree's Slurm plugins
# from a staged `make install` (what `make deb` does; contrib/deb/Makemodule.am).
#
# Usage: make-deb.sh --stage DIR --series 22.05|24.11 --version V
#                    --slurm-headers DIR --out DIR [--srcdir DIR]
#
# The stage is `make install DESTDIR=STAGE prefix=/usr
# plugindir=/usr/lib/MULTIARCH/slurm-wlm`: the plugins go to Slurm's own
# PluginDir, so slurm.conf needs no PluginDir line.  The package holds the
# plugin .so files (no .la) and the section-5 pages installed with them;
# the simulator and tools of the stage are left out (they do not depend on
# the Slurm release).
#
# A plugin is loaded only by daemons of exactly the Slurm release whose
# headers it was built with (plugin_version is compared to the micro
# level), so the package depends on that release of
# slurm-wlm-basic-plugins, the package of libslurmfull in Debian 12 and 13.
#
# Environment: DEB_MAINTAINER (else "$DEBFULLNAME <$DEBEMAIL>", else the
# author of the source tree's last git commit); SOURCE_DATE_EPOCH (else
# that commit's time) dates the changelog and the files.
set -euo pipefail

PROG=${0##*/}
PKG=slurm-topo-plugins
die() { echo "$PROG: error: $*" >&2; exit 1; }

STAGE="" SERIES="" VERSION="" HEADERS="" OUT="" SRCDIR=""
while [ $# -gt 0 ]; do
	case $1 in
	--stage) STAGE=${2:?}; shift 2 ;;
	--series) SERIES=${2:?}; shift 2 ;;
	--version) VERSION=${2:?}; shift 2 ;;
	--slurm-headers) HEADERS=${2:?}; shift 2 ;;
	--out) OUT=${2:?}; shift 2 ;;
	--srcdir) SRCDIR=${2:?}; shift 2 ;;
	*) die "unknown option '$1'" ;;
	esac
done
if [ ! -d "$STAGE" ] || [ -z "$SERIES" ] || [ -z "$VERSION" ] || [ ! -d "$HEADERS" ] || [ ! -d "$OUT" ]; then
	die "usage: $PROG --stage DIR --series S --version V --slurm-headers DIR --out DIR [--srcdir DIR]"
fi
STAGE=$(cd "$STAGE" && pwd) OUT=$(cd "$OUT" && pwd)
for tool in dpkg-deb dpkg-architecture dpkg-shlibdeps strip nm; do
	command -v "$tool" >/dev/null || die "$tool not found (apt-get install dpkg-dev binutils)"
done

ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
PLUGINDIR=usr/lib/$MULTIARCH/slurm-wlm
DEBVERSION=$VERSION+slurm$SERIES
DOCDIR=usr/share/doc/$PKG

# "MAJOR.MINOR.MICRO" of the Slurm headers the plugins were built with.
slurm_release() {
	local n
	n=$(sed -n 's/^#define SLURM_VERSION_NUMBER \(0x[0-9a-fA-F]*\)$/\1/p' "$HEADERS/slurm/slurm_version.h")
	[ -n "$n" ] || die "no SLURM_VERSION_NUMBER in $HEADERS/slurm/slurm_version.h"
	printf '%d.%02d.%d\n' $((n >> 16 & 255)) $((n >> 8 & 255)) $((n & 255))
}
RELEASE=$(slurm_release)
case $RELEASE in "$SERIES".*) ;; *) die "headers are Slurm $RELEASE, not $SERIES" ;; esac

git_field() { # FORMAT: of the source tree's last commit, or nothing
	if [ -n "$SRCDIR" ]; then git -C "$SRCDIR" log -1 --format="$1" 2>/dev/null || true; fi
}
maintainer() {
	if [ -n "${DEB_MAINTAINER:-}" ]; then echo "$DEB_MAINTAINER"
	elif [ -n "${DEBEMAIL:-}" ]; then echo "${DEBFULLNAME:-slurm-topo} <$DEBEMAIL>"
	else
		local m
		m=$(git_field '%an <%ae>')
		[ -n "$m" ] || die "no maintainer: set DEB_MAINTAINER='Name <address>'"
		echo "$m"
	fi
}
: "${SOURCE_DATE_EPOCH:=$(git_field %ct)}"
: "${SOURCE_DATE_EPOCH:=$(date +%s)}"
export SOURCE_DATE_EPOCH

WORK=$(mktemp -d "$OUT/.deb-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/root
mkdir "$ROOT"

# The plugins, stripped as dh_strip would: their Slurm symbols
# (plugin_name, plugin_type, plugin_version, the ops) are dynamic and stay.
copy_plugins() {
	local so n=0
	install -d "$ROOT/$PLUGINDIR"
	for so in "$STAGE/$PLUGINDIR"/*.so; do
		[ -f "$so" ] || continue
		install -m 0644 "$so" "$ROOT/$PLUGINDIR/"
		strip --remove-section=.comment --remove-section=.note --strip-unneeded \
			"$ROOT/$PLUGINDIR/${so##*/}"
		nm -D --defined-only "$ROOT/$PLUGINDIR/${so##*/}" | grep ' plugin_type$' >/dev/null ||
			die "${so##*/}: no plugin_type symbol after strip"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "no plugins in $STAGE/$PLUGINDIR (configure found no Slurm headers?)"
}

# Section-5 pages, compressed; a page that only sources another (.so)
# becomes a symlink, as dh_installman makes it.
copy_man5() {
	local p name target
	install -d "$ROOT/usr/share/man/man5"
	for p in "$STAGE"/usr/share/man/man5/*.5; do
		[ -f "$p" ] || continue
		name=${p##*/}
		target=$(sed -n '1s/^\.so man5\/\([^ ]*\)$/\1/p' "$p")
		if [ -n "$target" ] && [ "$(wc -l <"$p")" = 1 ]; then
			ln -s "$target.gz" "$ROOT/usr/share/man/man5/$name.gz"
		else
			gzip -9n <"$p" >"$ROOT/usr/share/man/man5/$name.gz"
			chmod 0644 "$ROOT/usr/share/man/man5/$name.gz"
		fi
	done
}

# "select/fattree, select/torus, sched/topo": the packaged plugins' types.
plugin_types() {
	local so
	for so in "$ROOT/$PLUGINDIR"/*.so; do
		so=${so##*/}
		so=${so%.so}
		echo "${so/_//}"
	done | paste -sd, | sed 's/,/, /g'
}

# "FIRST-LAST" years of the source tree's history (the build year without git).
copyright_years() {
	local first last
	last=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)
	first=$(if [ -n "$SRCDIR" ]; then git -C "$SRCDIR" log --reverse --format=%ad --date=format:%Y 2>/dev/null | head -n 1; fi)
	if [ -z "$first" ] || [ "$first" = "$last" ]; then echo "$last"; else echo "$first-$last"; fi
}

write_copyright() {
	cat >"$ROOT/$DOCDIR/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: slurm-topo

Files: *
Copyright: $(copyright_years) the slurm-topo authors
License: GPL-2+
EOF
	# 24.11's topology plugins compile Slurm's topology-common code in.
	if [ "$SERIES" != 22.05 ]; then
		cat >>"$ROOT/$DOCDIR/copyright" <<EOF

Files: src/plugins/topology/common/*
Copyright: SchedMD LLC.
License: GPL-2+ with OpenSSL exception
 Compiled into the topology plugins from Slurm $RELEASE.  As a special
 exception, the copyright holders give permission to link the code of
 portions of this program with the OpenSSL library under certain
 conditions as described in each individual source file, and distribute
 linked combinations including the two.
 .
 The rest of this licence is GPL-2+ below.
EOF
	fi
	cat >>"$ROOT/$DOCDIR/copyright" <<'EOF'

License: GPL-2+
 This program is free software; you can redistribute it and/or modify it
 under the terms of the GNU General Public License as published by the Free
 Software Foundation; either version 2 of the License, or (at your option)
 any later version.
 .
 This program is distributed in the hope that it will be useful, but
 WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY
 or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 for more details.
 .
 On Debian systems, the complete text of the GNU General Public License
 version 2 can be found in "/usr/share/common-licenses/GPL-2".
EOF
	chmod 0644 "$ROOT/$DOCDIR/copyright"
}

# Immediate binding (-z now) would break the plugins: they call
# slurmctld-only functions that exist only when slurmctld loads them, and
# slurmd and the client commands load them too.
write_lintian_overrides() {
	install -d "$ROOT/usr/share/lintian/overrides"
	printf '%s: hardening-no-bindnow [%s/*]\n' "$PKG" "$PLUGINDIR" \
		>"$ROOT/usr/share/lintian/overrides/$PKG"
	chmod 0644 "$ROOT/usr/share/lintian/overrides/$PKG"
}

write_changelog() {
	{
		echo "$PKG ($DEBVERSION) unstable; urgency=medium"
		echo
		echo "  * slurm-topo $VERSION built for Slurm $RELEASE."
		echo
		echo " -- $MAINT  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
	} | gzip -9n >"$ROOT/$DOCDIR/changelog.gz"
	chmod 0644 "$ROOT/$DOCDIR/changelog.gz"
}

# libc and friends, as dpkg-shlibdeps finds them (it wants a debian/control
# beside it; a minimal one in a scratch directory does).  Its warnings
# about Slurm's symbols are expected: the daemons provide them at load
# time (libslurmfull, slurmctld), hence the slurm-wlm-basic-plugins
# dependency.
shlib_depends() {
	local d=$WORK/shlibs
	mkdir -p "$d/debian"
	printf 'Source: slurm-topo\n\nPackage: %s\nArchitecture: any\n' "$PKG" >"$d/debian/control"
	(cd "$d" && dpkg-shlibdeps -O "$ROOT/$PLUGINDIR"/*.so 2>"$d/warnings") |
		sed -n 's/^shlibs:Depends=//p'
	grep -v -e 'found in none of the libraries' -e 'other similar warnings' "$d/warnings" >&2 || true
}

write_control() {
	local next shlibs
	# The next micro release: "<< 22.05.9~" admits every Debian revision of 22.05.8.
	next=${RELEASE%.*}.$((${RELEASE##*.} + 1))
	shlibs=$(shlib_depends)
	[ -n "$shlibs" ] || die "dpkg-shlibdeps found no dependencies"
	install -d "$ROOT/DEBIAN"
	cat >"$ROOT/DEBIAN/control" <<EOF
Package: $PKG
Version: $DEBVERSION
Architecture: $ARCH
Maintainer: $MAINT
Installed-Size: $(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)
Depends: $shlibs, slurm-wlm-basic-plugins (>= $RELEASE), slurm-wlm-basic-plugins (<< $next~)
Enhances: slurmctld, slurmd
Section: admin
Priority: optional
Description: topology-aware placement and scheduling plugins for Slurm $SERIES
 Slurm $SERIES plugins that place jobs with the network in mind (fat trees
 and tori) and schedule them with the same code as the slurm-topo
 simulator: $(plugin_types).
 .
 They are installed in Slurm's own PluginDir and work with the Slurm
 $RELEASE daemons only (Slurm loads a plugin built for exactly its own
 release).  The manual pages give the slurm.conf lines.
EOF
	(cd "$ROOT" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$ROOT/DEBIAN/md5sums"
	chmod 0644 "$ROOT/DEBIAN/control" "$ROOT/DEBIAN/md5sums"
}

MAINT=$(maintainer)
copy_plugins
copy_man5
install -d "$ROOT/$DOCDIR"
write_copyright
write_changelog
write_lintian_overrides
write_control
# Files from mktemp/install may carry a restrictive umask's modes.
find "$ROOT" -type d -exec chmod 0755 {} +
DEB=$OUT/${PKG}_${DEBVERSION}_$ARCH.deb
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$DEB" >/dev/null
echo "$DEB"
