# shellcheck shell=sh
# slurm-source-trixie.sh: sourced by slurm-headers.sh --version 24.11.
# prepare_trixie: Debian 13's Slurm source (24.11.5, with Debian's patches)
# into $dir, through a private apt configuration under $cache/apt-trixie:
# its own sources list (trixie and trixie-security, the URIs of the
# system's Debian entries), lists and archive cache; the system's apt
# sources, lists and packages are left as they are.  The tree is kept
# whole (a topology plugin compiles Slurm's topology-common sources);
# slurm/slurm_version.h, which the tarball only has as a template, comes
# from trixie's libslurm-dev.

# The URI of the system's Debian archive (first deb822 or one-line entry).
trixie_uri() {
	uri=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$uri" ] || uri=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | head -n 1)
	echo "${uri:-http://deb.debian.org/debian}"
}

prepare_trixie() {
	[ "$(id -u)" = 0 ] || die "preparing Slurm $VERSION needs root the first time (apt-get)"
	apt=$cache/apt-trixie
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	uri=$(trixie_uri)
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	cat > "$apt/sources.list" <<EOT
deb [signed-by=$key] $uri trixie main
deb-src [signed-by=$key] $uri trixie main
deb-src [signed-by=$key] ${uri%/debian}/debian-security trixie-security main
EOT
	A="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
	   -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache
	   -o APT::Sandbox::User=root -q"
	# shellcheck disable=SC2086
	apt-get $A update >&2 || die "apt-get update (private trixie configuration in $apt) failed"

	work=$(mktemp -d "$cache/.work.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
	# The archive's indexes name each file with its hash; a file the main
	# pool does not serve (a security update's debian.tar.xz) is fetched
	# from the security pool, same name, same hash.  No .dsc is needed.
	# shellcheck disable=SC2086
	{ apt-get $A source --download-only --print-uris slurm-wlm &&
		apt-get $A download --print-uris libslurm-dev; } 2>/dev/null |
		sed -n "s/^'\([^']*\)' \([^ ]*\) [0-9]* \([^ ]*\)\$/\1 \2 \3/p" |
		grep -v '\.dsc ' >"$work/uris" || true
	[ -s "$work/uris" ] || die "apt-get --print-uris named no slurm-wlm source files in trixie"
	sec=${uri%/debian}/debian-security/pool/updates/main/s/slurm-wlm
	while read -r u f h; do
		/usr/lib/apt/apt-helper -o APT::Sandbox::User=root -q download-file "$u" "$work/$f" "$h" >/dev/null 2>&1 ||
			/usr/lib/apt/apt-helper -o APT::Sandbox::User=root -q download-file "$sec/$f" "$work/$f" "$h" >&2 ||
			die "cannot download $f (tried $u and $sec/$f)"
	done <"$work/uris"
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
