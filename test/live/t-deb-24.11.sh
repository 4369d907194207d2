#!/bin/bash
# Live test of the Debian 13 package: `make deb` in this (24.11) build
# tree, the package installed with dpkg into the Debian 13 root the 24.11
# clusters run from, and a cluster started WITHOUT --plugindir, so Slurm
# loads topology/fattree and sched/topo from its own PluginDir, where the
# package put them.  A few jobs on a 16-node fat tree (4 leaf switches of 4
# nodes) must run where toposim predicts, and on whole leaves where the
# tree demands it.  The package is purged again when the test ends, passed
# or not: the root is shared with the other 24.11 tests.
#
# The scenario (all submitted at once, sched/topo easy): A 4 nodes, B 2,
# C 8, D 1 -- 15 of the 16 nodes, so all start in the first cycle.  The
# fat-tree allocator gives A one leaf, B a free leaf, C the two remaining
# leaves whole, and D the free node of B's leaf; first-free would spread
# C over three leaves.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$(dirname "$0")/live-lib.sh"
# shellcheck disable=SC2034 # read by lib.sh
LIVE_SLURM=24.11
PKG=slurm-topo-plugins
PLUGINDIR=/usr/lib/x86_64-linux-gnu/slurm-wlm
PORT_BASE=37001  # away from the other live tests' clusters

live_require
live_needs toposim ftconf
command -v dpkg-deb >/dev/null || skip_all "dpkg-deb not installed"
# Where topo-cluster keeps the Debian 13 root (slurm-24.11.sh).
CACHE=${SLURM_TOPO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/slurm-topo}
ROOT=$CACHE/trixie-root
WORK=$(mktemp -d "${TMPDIR:-/tmp}/t-deb-24.11.XXXXXX")

# ------------------------------------------------------------ clean-up

in_root() { chroot "$ROOT" "$@"; }
# assert_listed LINE TEXT DESCRIPTION: TEXT has the line LINE.
assert_listed() {
	if grep -Fqx -- "$1" <<<"$2"; then pass "$3"; else fail "$3" "  no line '$1' in:"; diag_block <<<"$2"; fi
}
# shellcheck disable=SC2016 # ${Status} is dpkg-query's, not ours
pkg_installed() { in_root dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'ok installed'; }
deb_purge() {
	rm -f "$ROOT/tmp/$PKG"_*.deb
	if in_root dpkg-query -W "$PKG" >/dev/null 2>&1; then
		in_root dpkg --purge "$PKG" 2>&1 | diag_block
	fi
}
# Stop the cluster first (lib.sh), then take the package out of the root.
# shellcheck disable=SC2317 # run by the EXIT trap
t_on_exit() {
	local rc=$?
	(exit "$rc")
	_live_on_exit
	deb_purge
	rm -rf "$WORK"
}
trap t_on_exit EXIT

# The root is made by the first 24.11 cluster (slurm-24.11.sh); make it
# here when this test runs first.
ensure_root() {
	[ -f "$ROOT/.complete" ] && return 0
	# shellcheck disable=SC2317 # note and die are called by slurm-24.11.sh
	(
		note() { echo "topo-cluster: $*" >&2; }
		die() { note "error: $*"; exit 1; }
		# shellcheck source=contrib/cluster/slurm-24.11.sh
		. "$(dirname "$(readlink -f "$TOPO_CLUSTER")")/slurm-24.11.sh"
		ensure_packages
	) 2>&1 | diag_block
	[ -f "$ROOT/.complete" ]
}
ensure_root || bail_out "no Debian 13 root at $ROOT"

# One run at a time may own the package in the shared root.
exec 8>"$CACHE/.t-deb.lock"
flock -w 600 8 || bail_out "another t-deb run holds $CACHE/.t-deb.lock"
if pkg_installed; then
	diag "$PKG left installed in $ROOT by an earlier run: purging it"
	deb_purge
fi

# ---------------------------------------------------------- the package

deb=$(make -s --no-print-directory -C "$TOPO_BUILDDIR" deb 2>"$WORK/make-deb.log" | tail -n 1) || true
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
	diag_block <"$WORK/make-deb.log"
	bail_out "make deb in $TOPO_BUILDDIR made no package"
fi
pass "make deb: $(basename "$deb")"
assert_eq "$PKG 0.1.0+slurm24.11" "$(dpkg-deb -f "$deb" Package Version | sed 's/^[A-Za-z]*: //' | paste -sd' ')" \
	"package name and version name the Slurm series"
assert_match ".*slurm-wlm-basic-plugins \(>= 24\.11\.5\), slurm-wlm-basic-plugins \(<< 24\.11\.6~\).*" \
	"$(dpkg-deb -f "$deb" Depends)" "depends on exactly Slurm 24.11.5's plugins package (libslurmfull)"
contents=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' | grep -v '/$' | sort)
assert_eq "$(printf '%s\n' "$PLUGINDIR/sched_topo.so" "$PLUGINDIR/topology_fattree.so" \
	"$PLUGINDIR/topology_torus.so" | sort)" "$(grep '\.so$' <<<"$contents")" \
	"the package holds the three 24.11 plugins in Slurm's PluginDir"
assert_eq "/usr/share/man/man5/sched_topo.5.gz /usr/share/man/man5/topology_fattree.5.gz /usr/share/man/man5/topology_torus.5.gz /usr/share/man/man5/torus.conf.5.gz" \
	"$(grep '/man/' <<<"$contents" | paste -sd' ')" "and their manual pages (no 22.05 pages)"
assert_eq "" "$(grep -E '\.la$|^/usr/bin/|/man1/' <<<"$contents" | paste -sd' ')" \
	"no libtool archives, programs or section-1 pages"

# ------------------------------------------------- installed in the root

cp "$deb" "$ROOT/tmp/"
assert_true "dpkg -i in the Debian 13 root" in_root dpkg -i "/tmp/$(basename "$deb")" ||
	bail_out "the package did not install"
rm -f "$ROOT/tmp/$(basename "$deb")"
listed=$(in_root dpkg -L "$PKG")
for f in "$PLUGINDIR/topology_fattree.so" "$PLUGINDIR/topology_torus.so" "$PLUGINDIR/sched_topo.so" \
	/usr/share/man/man5/topology_fattree.5.gz /usr/share/man/man5/sched_topo.5.gz; do
	assert_listed "$f" "$listed" "dpkg -L $PKG lists $f"
done
assert_true "dpkg --verify $PKG: the installed files are the package's" in_root dpkg --verify "$PKG"

# --------------------------------- a cluster on Slurm's own PluginDir

topo=$WORK/topology.conf
extra=$WORK/extra.conf
"$FTCONF" generate --levels 2 --width 4 -o "$topo" || bail_out "ftconf generate failed"
st_extra_conf "topo_policy=easy" >"$extra"
# No --plugindir: PluginDir is Slurm's own directory alone.
# shellcheck disable=SC2046
live_start --nodes 16 $(placement_args fattree) --sched sched/topo --port-base "$PORT_BASE" \
	--topology-conf "$topo" --extra-conf "$extra"
trap t_on_exit EXIT # live_start set lib.sh's own
conf=$(sx scontrol show config)
assert_eq "$PLUGINDIR" "$(sed -n 's/^PluginDir *= *//p' <<<"$conf")" "PluginDir is Slurm's default alone"
assert_eq topology/fattree "$(sed -n 's/^TopologyPlugin *= *//p' <<<"$conf")" "TopologyPlugin=topology/fattree"
assert_eq sched/topo "$(sed -n 's/^SchedulerType *= *//p' <<<"$conf")" "SchedulerType=sched/topo"
ctld=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids" | tail -n 1)
# The files slurmctld has mapped, as seen from here (below the root).
maps=$(awk '$6 ~ /\.so$/ { print $6 }' "/proc/$ctld/maps" | sort -u)
for so in topology_fattree sched_topo; do
	assert_listed "$ROOT$PLUGINDIR/$so.so" "$maps" "slurmctld mapped $so.so from $PLUGINDIR"
done
assert_eq "" "$(grep -F "$TOPO_BUILDDIR" <<<"$maps")" "slurmctld mapped nothing from the build tree"

assert_match ".*sched/topo: allocator fattree on the tree of .*topology.conf \(16 nodes\).*" \
	"$(st_allocator)" "sched/topo uses topology/fattree's allocator and tree"

st_submit deb "
A 4 5 1
B 2 5 1
C 8 5 1
D 1 5 1"
st_wait_completed 120
live=$(st_live_starts)
sim=$(st_sim_starts 16 easy --topology "$LIVE_DIR/topology.conf" --alloc fattree) ||
	bail_out "toposim failed"
st_compare deb "$sim" "$live" "A B C D"

# leaves JOBNODES: how many leaf switches the nodes touch and whether
# each is covered whole ("2 whole", "1 part").
leaf_of() { sed -n 's/^SwitchName=\(s0-[0-9]*\) Nodes=//p' "$LIVE_DIR/topology.conf" |
	while read -r l; do expand_hostlist "$l" | paste -sd,; done; }
leaves() {
	local want=",$1," leaf n whole=1 touched=0 node
	while read -r leaf; do
		n=0
		for node in ${leaf//,/ }; do [[ "$want" == *",$node,"* ]] && n=$((n + 1)); done
		[ "$n" = 0 ] && continue
		touched=$((touched + 1))
		[ "$n" = 4 ] || whole=0
	done <<<"$LEAVES"
	if [ "$whole" = 1 ]; then echo "$touched whole"; else echo "$touched part"; fi
}
LEAVES=$(leaf_of)
declare -A at
while read -r _ label nl _; do at[$label]=$nl; done <<<"$live"
assert_eq "A 1 whole|B 1 part|C 2 whole|D 1 part" \
	"$(for l in A B C D; do echo "$l $(leaves "${at[$l]:-}")"; done | paste -sd'|')" \
	"A on one whole leaf, B and D within one leaf, C on two whole leaves"
flat=$(st_sim_starts 16 easy --topology "$LIVE_DIR/topology.conf" --alloc first-free) ||
	bail_out "toposim (first-free) failed"
assert_ne "$(awk '{ print $2, $3 }' <<<"$flat" | sort)" "$(awk '{ print $2, $3 }' <<<"$live" | sort)" \
	"the placements are the tree's, not first-free's"

# ----------------------------------------------------------- and purged

live_stop
assert_true "dpkg --purge $PKG in the root" in_root dpkg --purge "$PKG"
left=$(for so in topology_fattree topology_torus sched_topo; do
	[ -e "$ROOT$PLUGINDIR/$so.so" ] && echo "$so.so"; done | paste -sd' ')
assert_eq "" "$left" "no plugin of the package left in the root's PluginDir"
done_testing
