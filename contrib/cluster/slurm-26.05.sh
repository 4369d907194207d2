# shellcheck shell=bash
# slurm-26.05.sh: what differs for a Slurm 26.05 cluster; sourced by
# topo-cluster --slurm 26.05, it replaces a few of its functions.
#
# The daemons and client commands are Slurm 26.05.3 built from its release
# source (SLURM_SOURCE, else where contrib/slurm-source.sh finds it) by
# contrib/slurm-source.sh --build, once, into a private prefix in the cache
# ($SLURM_TOPO_CACHE/slurm-26.05.3-install): plugins and daemons from the
# same source, since the internal structures change between micro
# releases.  Nothing is installed over the system's Slurm.  They run on
# this machine as the 22.05 ones do, in the cluster's network namespace,
# with munged (the build has auth/munge, not auth/slurm); what 26.05 needs
# besides: 127.0.0.2 on lo (slurmctld fails after 10 s without it), no
# cgroup plugin (cgroup.conf), no task/none, select/cons_tres.

SLURM_CACHE=${SLURM_TOPO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/slurm-topo}
SLURM_2605_SOURCE=${SLURM_SOURCE:-}
SLURM_PREFIX=$SLURM_CACHE/slurm-26.05.3-install
SLURM_LIBDIR=$SLURM_PREFIX/lib/slurm
: "${SELECT:=select/cons_tres}" # Slurm's default since 23.11

# munged and iproute2 from Debian; Slurm itself built once from source
# (about 5 min on 2 cores, progress on stderr).
ensure_packages() {
	local p missing=""
	for p in munge iproute2; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		note "installing:$missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null ||
			die "apt-get install$missing failed"
	fi
	sh "$(dirname "$(readlink -f "$0")")/../slurm-source.sh" --build ${SLURM_2605_SOURCE:+"$SLURM_2605_SOURCE"} >/dev/null ||
		die "Slurm 26.05 could not be built (contrib/slurm-source.sh --build; its logs are in $SLURM_CACHE)"
	[ -x "$SLURM_PREFIX/sbin/slurmctld" ] || die "no $SLURM_PREFIX/sbin/slurmctld"
}

real_binary() {
	[ -x "$SLURM_PREFIX/sbin/$1" ] && { echo "$SLURM_PREFIX/sbin/$1"; return 0; }
	die "no $1 in $SLURM_PREFIX/sbin"
}

_write_auth_key_munge=$(declare -f write_auth_key | sed 1d)
write_auth_key() {
	eval "$_write_auth_key_munge"
	# No cgroup file system in the namespace: slurmd would refuse to start.
	echo "CgroupPlugin=disabled" >"$DIR/cgroup.conf"
}
task_conf() { :; } # no task/none since 24.11; unset means none

ns_extra_addrs() {
	ip -n "$NS" addr add 127.0.0.2/8 dev lo || die "cannot add 127.0.0.2 to lo in $NS"
}

# Client commands from the same build, first on PATH.
ns_run() {
	nsenter --net="/run/netns/$NS" $(users_mnt) -- env SLURM_CONF="$DIR/slurm.conf" \
		PATH="$SLURM_PREFIX/bin:$PATH" "$@"
}
ns_exec() {
	[ -n "$PID_NS" ] || { exec_argv; exec "${EXEC_ARGV[@]}" "$@"; }
	exec nsenter --net="/run/netns/$NS" $(users_mnt) -- unshare --pid --fork --mount-proc -- \
		env SLURM_CONF="$DIR/slurm.conf" PATH="$SLURM_PREFIX/bin:$PATH" "${PID1[@]}" "$@"
}
exec_argv() {
	EXEC_ARGV=(nsenter --net="/run/netns/$NS" $(users_mnt) -- env SLURM_CONF="$DIR/slurm.conf"
		PATH="$SLURM_PREFIX/bin:$PATH")
}
