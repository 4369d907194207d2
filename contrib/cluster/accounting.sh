# shellcheck shell=bash
# accounting.sh: topo-cluster --accounting and --users; sourced by
# topo-cluster.
#
# --accounting: the cluster keeps its accounting as a site does, in
# slurmdbd over a real MariaDB.  Both run inside the cluster's network
# namespace, started by topo-cluster and stopped by their PIDs:
#   - MariaDB: Debian's mariadbd (mariadb-server, installed when missing;
#     no service of the system is started or used), a private data
#     directory DIR/mariadb/data made by mariadb-install-db, its socket
#     DIR/mariadb/mysqld.sock, listening on 127.0.0.1:3306 of the
#     namespace only, a user `slurm` with a password of its own
#     (DIR/slurmdbd.conf, mode 0600);
#   - slurmdbd of the cluster's own release (24.11: Debian 13's, from the
#     root file system; 26.05: the one built from source with MariaDB's
#     client library; 22.05: Debian 12's slurmdbd package), with
#     accounting_storage/mysql and the cluster's authentication;
#   - slurm.conf: AccountingStorageType=accounting_storage/slurmdbd, the
#     limits enforced (AccountingStorageEnforce=associations,limits,qos):
#     a job needs an association; the caller adds accounts, users and
#     QOS with sacctmgr once the cluster is up (the cluster `topo` is
#     registered before slurmctld starts).
# --users NAME[,NAME...]: Unix users for jobs of several users (sbatch
#   --uid): slurmctld needs their names, so every daemon and client of the
#   cluster sees a passwd and group of DIR (the system's, or the root
#   file system's, and these users, UIDs from 64001) bound over
#   /etc/passwd and /etc/group in a private mount namespace; the system's
#   own files are not changed.

ACCT_DB_PORT=3306
ACCT_DBD_PORT=6819
ACCT_UID0=64001

# Client and server of MariaDB: Debian 12's, on the host side of a 24.11
# root (they run in the namespace, not in the root).
acct_packages() {
	[ -n "$ACCOUNTING" ] || return 0
	local p missing=""
	for p in mariadb-server mariadb-client; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	[ "$SERIES" = 22.05 ] && ! dpkg-query -W -f='${Status}' slurmdbd 2>/dev/null |
		grep -q "install ok installed" && missing="$missing slurmdbd"
	[ -z "$missing" ] && return 0
	note "installing:$missing"
	# Debian's postinst would start the system's MariaDB: policy-rc.d (as
	# on these machines) keeps it from doing so; nothing here uses it.
	# shellcheck disable=SC2086
	# Clusters started side by side may install at once: wait for
	# dpkg's lock rather than fail.
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		--no-install-recommends $missing >/dev/null ||
		{ apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null &&
		  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			--no-install-recommends $missing >/dev/null; } ||
		die "apt-get install$missing failed"
}

# slurm.conf's accounting lines.
acct_conf() {
	if [ -z "$ACCOUNTING" ]; then
		echo "AccountingStorageType=accounting_storage/none"
		return
	fi
	echo "AccountingStorageType=accounting_storage/slurmdbd"
	echo "AccountingStorageHost=localhost"
	echo "AccountingStoragePort=$ACCT_DBD_PORT"
	echo "AccountingStorageEnforce=associations,limits,qos"
	# Connections to slurmdbd (slurmctld's and the clients') take their
	# munge socket from AccountingStoragePass, not from AuthInfo.
	auth_conf | sed -n 's/^AuthInfo=/AccountingStoragePass=/p'
}

acct_write_conf() {
	[ -n "$ACCOUNTING" ] || return 0
	local pw plugindir=$SLURM_LIBDIR
	pw=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
	echo "$pw" >"$DIR/mariadb/slurm.pass"
	chmod 0600 "$DIR/mariadb/slurm.pass"
	{
		echo "# written by $PROG: slurmdbd of the cluster in netns $NS"
		auth_conf | grep -E '^Auth(Type|Info)='
		echo "DbdHost=localhost"
		echo "DbdPort=$ACCT_DBD_PORT"
		echo "SlurmUser=root"
		echo "PluginDir=$plugindir"
		echo "PidFile=$DIR/run/slurmdbd.pid"
		echo "LogFile=$DIR/log/slurmdbd.log"
		echo "DebugLevel=$DEBUG"
		echo "StorageType=accounting_storage/mysql"
		echo "StorageHost=127.0.0.1"
		echo "StoragePort=$ACCT_DB_PORT"
		echo "StorageUser=slurm"
		echo "StoragePass=$pw"
		echo "StorageLoc=slurm_acct_db"
	} >"$DIR/slurmdbd.conf"
	chmod 0600 "$DIR/slurmdbd.conf"
}

# MariaDB's client in the namespace, as root over the socket.
acct_sql() {
	nsenter --net="/run/netns/$NS" -- mariadb --no-defaults \
		--socket="$DIR/mariadb/mysqld.sock" -u root "$@"
}
acct_db_up() {
	alive "$1" || return 2
	nsenter --net="/run/netns/$NS" -- mariadb-admin --no-defaults \
		--socket="$DIR/mariadb/mysqld.sock" -u root ping >/dev/null 2>&1
}

# A process of this machine (not of a 24.11 root) in the namespace.
launch_host() {
	local name=$1 log=$2
	shift 2
	nsenter --net="/run/netns/$NS" -- setsid "$@" </dev/null >>"$log" 2>&1 &
	echo "$name $!" >>"$DIR/pids"
	LAUNCHED_PID=$!
}

acct_start_db() {
	local data=$DIR/mariadb/data tmp=$DIR/mariadb/tmp pid
	# A temporary directory of its own: two test beds side by side (two
	# PID namespaces, the same pids) collide on /tmp's #sql-temptable files.
	mkdir -p "$data" "$tmp"
	mariadb-install-db --no-defaults --datadir="$data" --tmpdir="$tmp" --user=root \
		--auth-root-authentication-method=normal --skip-test-db \
		--skip-name-resolve >"$DIR/log/mariadb-install.log" 2>&1 ||
		{ log_tail "$DIR/log/mariadb-install.log"; die "mariadb-install-db failed"; }
	# Small and quick: a test database of a few thousand rows, nothing
	# to keep after a crash of the machine.
	launch_host mariadbd "$DIR/log/mariadb.out" /usr/sbin/mariadbd --no-defaults \
		--datadir="$data" --tmpdir="$tmp" --socket="$DIR/mariadb/mysqld.sock" \
		--pid-file="$DIR/run/mariadbd.pid" --log-error="$DIR/log/mariadb.log" \
		--bind-address=127.0.0.1 --port="$ACCT_DB_PORT" --user=root \
		--skip-name-resolve --skip-log-bin --innodb-buffer-pool-size=64M \
		--innodb-log-file-size=16M --innodb-flush-log-at-trx-commit=0 \
		--innodb-lock-wait-timeout=900 --max-connections=50
	pid=$LAUNCHED_PID
	if ! wait_for 60 "MariaDB to answer on $DIR/mariadb/mysqld.sock" acct_db_up "$pid"; then
		log_tail "$DIR/log/mariadb.log"
		die "MariaDB did not start (pid $pid)"
	fi
	acct_sql -e "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$(cat "$DIR/mariadb/slurm.pass")';
		GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" ||
		die "cannot create MariaDB's user slurm"
}

dbd_up() {
	alive "$1" || { note "slurmdbd (pid $1) exited"; return 2; }
	ns_run sacctmgr -n -P show cluster format=cluster >/dev/null 2>&1
}

# MariaDB, slurmdbd, the cluster registered: before slurmctld starts.
acct_start() {
	[ -n "$ACCOUNTING" ] || return 0
	local pid
	acct_start_db
	ln -sf "$(real_binary slurmdbd)" "$DIR/bin/slurmdbd"
	launch slurmdbd "$DIR/log/slurmdbd.out" "$DIR/bin/slurmdbd" -D
	pid=$LAUNCHED_PID
	if ! wait_for "$TIMEOUT" "slurmdbd to answer sacctmgr" dbd_up "$pid"; then
		log_tail "$DIR/log/slurmdbd.log" 30
		log_tail "$DIR/log/slurmdbd.out"
		die "slurmdbd did not come up (pid $pid)"
	fi
	ns_run sacctmgr -i add cluster topo >"$DIR/log/sacctmgr-cluster.out" 2>&1 ||
		{ log_tail "$DIR/log/sacctmgr-cluster.out"; die "sacctmgr add cluster topo failed"; }
}

# ---- --users ------------------------------------------------------------

# DIR/etc/passwd and group: the base files (the system's, or the root
# file system's) and the users.
users_write() {
	[ -n "$USERS" ] || return 0
	local u uid=$ACCT_UID0
	mkdir -p "$DIR/etc"
	cp "$SLURM_ROOT/etc/passwd" "$DIR/etc/passwd"
	cp "$SLURM_ROOT/etc/group" "$DIR/etc/group"
	IFS=, read -ra _users <<<"$USERS"
	for u in "${_users[@]}"; do
		[[ "$u" =~ ^[a-z][a-z0-9_-]{0,30}$ ]] || die "--users: not a user name: '$u'"
		grep -q "^$u:" "$DIR/etc/passwd" && die "--users: '$u' exists already"
		echo "$u:x:$uid:$uid:$u:/tmp:/bin/sh" >>"$DIR/etc/passwd"
		echo "$u:x:$uid:" >>"$DIR/etc/group"
		uid=$((uid + 1))
	done
}

# The mount commands that put them in place (in a private mount
# namespace; ROOT is "" or the 24.11 root).
users_mounts() { # ROOT
	[ -n "$USERS" ] || return 0
	printf " && mount --bind '%s' '%s'" "$DIR/etc/passwd" "$1/etc/passwd" \
		"$DIR/etc/group" "$1/etc/group"
}

# Without a 24.11 root: a holder of the private mount namespace every
# daemon and client of the cluster enters (users_mnt).
users_start() {
	[ -n "$USERS" ] || return 0
	[ -z "$SLURM_ROOT" ] || return 0 # the 24.11 holder does it
	nsenter --net="/run/netns/$NS" -- unshare --mount --propagation private \
		sh -c "true$(users_mounts "") && exec sleep infinity" \
		</dev/null >>"$DIR/log/holder.out" 2>&1 &
	echo "sleep:users $!" >>"$DIR/pids"
	wait_for 10 "the users' mount namespace" users_ready "$!" ||
		{ log_tail "$DIR/log/holder.out"; die "could not set up the users' mount namespace"; }
}
users_ready() {
	alive "$1" || return 2
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = /usr/bin/sleep ] &&
		grep -q "^${USERS%%,*}:" "/proc/$1/root/etc/passwd" 2>/dev/null
}

# nsenter's option for that namespace, or nothing.
users_mnt() {
	local h
	h=$(pid_of sleep:users)
	[ -n "$h" ] && echo "--mount=/proc/$h/ns/mnt"
	return 0
}
