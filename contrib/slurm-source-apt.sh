# shellcheck shell=sh disable=SC2154 # cache, dir, VERSION: set by slurm-headers.sh
# slurm-source-apt.sh: sourced by slurm-headers.sh.  Debian's Slurm source
# packages through a private apt configuration under $cache/apt-SUITE: its
# own sources list (SUITE and SUITE-security, the URIs of the system's
# Debian entries), lists and archive cache.  The system's apt sources,
# lists and packages are left as they are.
#
# prepare_trixie: Debian 13's Slurm source (24.11.5, with Debian's patches)
# into $dir, kept whole (a topology plugin compiles Slurm's topology-common
# sources); slurm/slurm_version.h, which the tarball only has as a
# template, comes from trixie's libslurm-dev.

# The URI of the system's Debian archive (first deb822 or one-line entry).
archive_uri() {
	uri=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$uri" ] || uri=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | head -n 1)
	echo "${uri:-http://deb.debian.org/debian}"
}

# private_apt SUITE [deb]: write $cache/apt-SUITE (deb-src entries; binary
# ones too with "deb"), update its lists, set $A to apt-get's options for
# it and $uri to the archive.
private_apt() {
	[ "$(id -u)" = 0 ] || die "downloading Slurm's source from $1 needs root the first time (apt-get)"
	apt=$cache/apt-$1
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	uri=$(archive_uri)
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		[ "${2:-}" = deb ] && echo "deb [signed-by=$key] $uri $1 main"
		echo "deb-src [signed-by=$key] $uri $1 main"
		echo "deb-src [signed-by=$key] ${uri%/debian}/debian-security $1-security main"
	} > "$apt/sources.list"
	A="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
	   -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache
	   -o APT::Sandbox::User=root -q"
	# shellcheck disable=SC2086
	apt-get $A update >&2 || die "apt-get update (private $1 configuration in $apt) failed"
}

# download_source DEST SOURCE[=VERSION] [BINARY]: the source package's
# files (and BINARY's .deb) into DEST, with the configuration of
# private_apt.  The archive's indexes name each file with its hash; a file
# the main pool does not serve (a security update's debian.tar.xz) is
# fetched from the security pool, same name, same hash.  No .dsc is needed.
download_source() {
	# shellcheck disable=SC2086
	{ apt-get $A source --download-only --print-uris "$2" &&
		{ [ -z "${3:-}" ] || apt-get $A download --print-uris "$3"; }; } 2>/dev/null |
		sed -n "s/^'\([^']*\)' \([^ ]*\) [0-9]* \([^ ]*\)\$/\1 \2 \3/p" |
		grep -v '\.dsc ' >"$1/uris" || true
	[ -s "$1/uris" ] || die "apt-get --print-uris named no source files for $2"
	sec=${uri%/debian}/debian-security/pool/updates/main/s/slurm-wlm
	while read -r u f h; do
		/usr/lib/apt/apt-helper -o APT::Sandbox::User=root -q download-file "$u" "$1/$f" "$h" >/dev/null 2>&1 ||
			/usr/lib/apt/apt-helper -o APT::Sandbox::User=root -q download-file "$sec/$f" "$1/$f" "$h" >&2 ||
			die "cannot download $f (tried $u and $sec/$f)"
	done <"$1/uris"
}

prepare_trixie() {
	private_apt trixie deb
	work=$(mktemp -d "$cache/.work.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
	download_source "$work" slurm-wlm libslurm-dev
	orig=$(ls "$work"/slurm-wlm_"$VERSION".orig.tar.* 2>/dev/null | head -n 1)
	[ -n "$orig" ] || die "no slurm-wlm_$VERSION.orig.tar.* from trixie (a newer upstream version?)"
	deb=$(ls "$work"/slurm-wlm_"$VERSION"-*.debian.tar.* 2>/dev/null | head -n 1)
	[ -n "$deb" ] || die "no slurm-wlm_$VERSION-*.debian.tar.* from trixie"
	dev=$(ls "$work"/libslurm-dev_"$VERSION"-*.deb 2>/dev/null | head -n 1)
	[ -n "$dev" ] || die "no libslurm-dev_$VERSION-*.deb from trixie"

	tree=$work/tree
	patched_tree "$orig" "$deb" "$tree"
	dpkg-deb -x "$dev" "$work/dev" || die "$dev: extraction failed"
	cp "$work/dev/usr/include/slurm/slurm_version.h" "$tree/slurm/slurm_version.h"
	version_ok "$tree" || die "$dev: slurm_version.h is not $VERSION"
	[ -f "$tree/src/interfaces/topology.h" ] || die "$orig: no src/interfaces/topology.h"
	write_config_h "$tree"
	touch "$tree/.complete"
	rm -rf "$dir"
	mv "$tree" "$dir"
	echo "$dir"
}
