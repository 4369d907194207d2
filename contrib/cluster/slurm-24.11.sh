# shellcheck shell=bash
# slurm-24.11.sh: what differs for a Slurm 24.11 cluster; sourced by
# topo-cluster --slurm 24.11, it replaces a few of its functions.
#
# The daemons and client commands are Debian 13's own (24.11.5), run from a
# Debian 13 root file system made by debootstrap and cached in
# $SLURM_TOPO_CACHE/trixie-root.  Every process of a cluster runs in the
# cluster's network namespace and in one private mount namespace, held by
# a `sleep` started first ("holder"): there /dev and /proc are mounted into
# the root, and the cluster directory (and each --plugindir) is bound at
# its own path inside it, so slurm.conf's paths are the same inside and
# outside.  Processes enter both namespaces (nsenter) and chroot into the
# root; nsenter, chroot, env and setsid all exec, so a recorded PID is the
# daemon itself.  Nothing is mounted on the host.  Authentication is
# auth/slurm with a key in DIR (no munged); the namespace gets 127.0.0.2
# as well, without which 24.11's slurmctld does not bind.

SLURM_CACHE=${SLURM_TOPO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/slurm-topo}
SLURM_ROOT=$SLURM_CACHE/trixie-root
# slurmdbd: accounting in MariaDB for the replay-fidelity test bed
# (topo-cluster --accounting).
ROOT_PACKAGES="slurmctld,slurmd,slurm-client,libslurm-dev,slurmdbd"
: "${SELECT:=select/cons_tres}" # Slurm's default since 23.11

# The root file system, made once (about 40 s, 300 MB); a lock keeps two
# starts from making it together.
ensure_packages() {
	local p missing=""
	for p in iproute2 debootstrap; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		note "installing:$missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null ||
			{ apt-get update -q >/dev/null &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null; } ||
			die "apt-get install$missing failed"
	fi
	mkdir -p "$SLURM_CACHE"
	(
		flock 9
		if [ -f "$SLURM_ROOT/.complete" ]; then
			add_root_packages
			exit 0
		fi
		local uri tmp=$SLURM_ROOT.tmp
		uri=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' \
			/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
		rm -rf "$tmp"
		note "making a Debian 13 root with Slurm 24.11 in $SLURM_ROOT (debootstrap, once)"
		debootstrap --variant=minbase --include="$ROOT_PACKAGES" trixie "$tmp" \
			"${uri:-http://deb.debian.org/debian}" >"$SLURM_CACHE/debootstrap.log" 2>&1 ||
			{ tail -n 5 "$SLURM_CACHE/debootstrap.log" >&2; die "debootstrap trixie failed (log: $SLURM_CACHE/debootstrap.log)"; }
		printf '127.0.0.1 localhost\n' >"$tmp/etc/hosts"
		touch "$tmp/.complete"
		rm -rf "$SLURM_ROOT"
		mv "$tmp" "$SLURM_ROOT"
	) 9>"$SLURM_CACHE/.trixie-root.lock" || exit 1
	grep -q '^#define SLURM_VERSION_NUMBER 0x180b' "$SLURM_ROOT/usr/include/slurm/slurm_version.h" ||
		die "$SLURM_ROOT is not a Slurm 24.11 root (remove it to make it again)"
}

# A root made before slurmdbd was one of ROOT_PACKAGES gets it, of its
# slurmctld's very version (Debian's packages of one build go together),
# installed by the root's own apt; no service is started (policy-rc.d).
add_root_packages() {
	[ -x "$SLURM_ROOT/usr/sbin/slurmdbd" ] && return 0
	local v a=(chroot "$SLURM_ROOT" env DEBIAN_FRONTEND=noninteractive apt-get -y -q
		--no-install-recommends)
	v=$(chroot "$SLURM_ROOT" dpkg-query -W -f='${Version}' slurmctld) ||
		die "$SLURM_ROOT: no slurmctld package"
	note "adding slurmdbd $v to $SLURM_ROOT (once)"
	cp /etc/resolv.conf "$SLURM_ROOT/etc/resolv.conf" 2>/dev/null || true
	printf '#!/bin/sh\nexit 101\n' >"$SLURM_ROOT/usr/sbin/policy-rc.d"
	chmod 0755 "$SLURM_ROOT/usr/sbin/policy-rc.d"
	{ "${a[@]}" install "slurmdbd=$v" >>"$SLURM_CACHE/debootstrap.log" 2>&1 ||
	  { "${a[@]}" update >>"$SLURM_CACHE/debootstrap.log" 2>&1 &&
	    "${a[@]}" install "slurmdbd=$v" >>"$SLURM_CACHE/debootstrap.log" 2>&1; }; } ||
		{ rm -f "$SLURM_ROOT/usr/sbin/policy-rc.d"
		  tail -n 5 "$SLURM_CACHE/debootstrap.log" >&2
		  die "cannot install slurmdbd=$v into $SLURM_ROOT (log: $SLURM_CACHE/debootstrap.log; remove the root to make it again)"; }
	rm -f "$SLURM_ROOT/usr/sbin/policy-rc.d"
}

# Binaries: their paths inside the root (the DIR/bin links resolve there).
real_binary() {
	local b
	for b in "/usr/sbin/$1-wlm" "/usr/sbin/$1"; do
		[ -x "$SLURM_ROOT$b" ] && { echo "$b"; return 0; }
	done
	die "no $1 in $SLURM_ROOT/usr/sbin"
}

write_auth_key() {
	rm -f "$DIR/slurm.key"
	head -c 32 /dev/urandom >"$DIR/slurm.key" || die "cannot write $DIR/slurm.key"
	chmod 0600 "$DIR/slurm.key"
	# No cgroup file system in the root: slurmd would refuse to start.
	echo "CgroupPlugin=disabled" >"$DIR/cgroup.conf"
}
auth_conf() {
	echo "AuthType=auth/slurm"
	echo "CredType=cred/slurm"
}
task_conf() { :; } # no task/none in 24.11; unset means none

ns_extra_addrs() {
	ip -n "$NS" addr add 127.0.0.2/8 dev lo || die "cannot add 127.0.0.2 to lo in $NS"
}

holder_pid() { pid_of sleep:holder; }

# Inside the root, the directories DIR and the plugin directories are
# mounted on (they stay: see post_stop).
root_mountpoint() {
	# mkdir -p: several clusters may create the same path at once.
	mkdir -p "$SLURM_ROOT$1" || die "cannot create $SLURM_ROOT$1"
}

# Instead of munged: the holder of the mount namespace.  The root is
# shared by every 24.11 cluster on the host, and so would be the Unix
# sockets auth/slurm's clients get credentials from
# (/run/slurmctld/sack.socket, /run/slurm/sack.socket): a client would get
# them from another cluster's daemon, signed with another key.  So each
# cluster's namespace has its own small tmpfs on both directories.
start_auth() {
	local binds="$DIR" d mounts r
	[ -n "$PLUGINDIR" ] && binds="$binds:$PLUGINDIR"
	# The root's /etc/hosts knows only localhost.  slurmctld answers srun
	# at its host name: unresolvable, that costs 10 s of retries per job
	# step.  So the cluster's root sees this machine's name too.
	printf '127.0.0.1 localhost %s\n' "$(hostname)" >"$DIR/hosts"
	mounts="mount --rbind /dev '$SLURM_ROOT/dev' && mount -t proc proc '$SLURM_ROOT/proc'"
	mounts="$mounts && mount --bind '$DIR/hosts' '$SLURM_ROOT/etc/hosts'$(users_mounts "$SLURM_ROOT")"
	for r in slurmctld slurm; do
		mkdir -p "$SLURM_ROOT/run/$r"
		mounts="$mounts && mount -t tmpfs -o size=1m,mode=0755 cluster-run '$SLURM_ROOT/run/$r'"
	done
	IFS=: read -ra _binds <<<"$binds"
	for d in "${_binds[@]}"; do
		root_mountpoint "$d"
		mounts="$mounts && mount --bind '$d' '$SLURM_ROOT$d'"
	done
	nsenter --net="/run/netns/$NS" -- unshare --mount --propagation private \
		sh -c "$mounts && exec sleep infinity" </dev/null >>"$DIR/log/holder.out" 2>&1 &
	echo "sleep:holder $!" >>"$DIR/pids"
	wait_for 10 "the mount namespace" holder_ready "$!" ||
		{ log_tail "$DIR/log/holder.out"; die "could not set up the mount namespace for $SLURM_ROOT"; }
}
holder_ready() {
	alive "$1" || return 2
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = /usr/bin/sleep ] &&
		[ -f "/proc/$1/root$SLURM_ROOT$DIR/slurm.conf" ]
}

in_root() { # CMD...: in the cluster's namespaces and root
	nsenter --net="/run/netns/$NS" --mount="/proc/$(holder_pid)/ns/mnt" -- \
		chroot "$SLURM_ROOT" /usr/bin/env SLURM_CONF="$DIR/slurm.conf" "$@"
}
ns_run() { in_root "$@"; }
ns_exec() {
	local h
	[ -n "$PID_NS" ] || { exec_argv; exec "${EXEC_ARGV[@]}" "$@"; }
	h=$(holder_pid)
	[ -n "$h" ] && alive "$h" || die "the cluster's mount namespace (holder) is gone"
	# --pid-ns: the new /proc is mounted in the root, where CMD looks.
	exec nsenter --net="/run/netns/$NS" --mount="/proc/$h/ns/mnt" -- \
		unshare --pid --fork --mount-proc="$SLURM_ROOT/proc" -- \
		chroot "$SLURM_ROOT" /usr/bin/env SLURM_CONF="$DIR/slurm.conf" "${PID1[@]}" "$@"
}
exec_argv() {
	local h
	h=$(holder_pid)
	[ -n "$h" ] && alive "$h" || die "the cluster's mount namespace (holder) is gone"
	EXEC_ARGV=(nsenter --net="/run/netns/$NS" --mount="/proc/$h/ns/mnt" --
		chroot "$SLURM_ROOT" /usr/bin/env SLURM_CONF="$DIR/slurm.conf")
}
# Every slurmd binds auth/slurm's /run/slurm/sack.socket (the socket
# client commands get credentials from); many slurmd on one host race for
# it and lose ("Address already in use").  So each slurmd gets a private
# /run/slurm (its own mount namespace, a small tmpfs); clients fall back
# to slurmctld's /run/slurmctld/sack.socket.  unshare and sh exec: the PID
# recorded is the daemon's.
launch() {
	local name=$1 log=$2 private=()
	shift 2
	case $name in
	slurmd:*)
		private=(unshare --mount --propagation private -- sh -c \
			'mount -t tmpfs -o size=1m slurm-run "$0/run/slurm" && exec "$@"' "$SLURM_ROOT") ;;
	esac
	nsenter --net="/run/netns/$NS" --mount="/proc/$(holder_pid)/ns/mnt" -- "${private[@]}" \
		chroot "$SLURM_ROOT" /usr/bin/env SLURM_CONF="$DIR/slurm.conf" setsid "$@" \
		</dev/null >>"$log" 2>&1 &
	echo "$name $!" >>"$DIR/pids"
	LAUNCHED_PID=$!
}

post_stop() {
	# The empty mount points stay in the root: removing one would detach
	# the mounts of every other cluster's namespace on it (rmdir of a
	# mount point in another mount namespace succeeds and unmounts there).
	rm -f "$DIR/root-dirs"
}
