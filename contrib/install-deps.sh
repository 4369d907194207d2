#!/usr/bin/env bash
# Install the Debian 12 packages this project needs to build, test and run
# (idempotent; quick when everything is present).  Needs root for apt-get.
set -euo pipefail

# clang, libclang-rt-14-dev (libFuzzer, ASan/UBSan runtimes: a
# recommendation of clang's, which --no-install-recommends leaves out) and
# llvm-14 (llvm-symbolizer, for sanitizer reports with lines): the fuzz
# targets (doc/fuzzing.md).  mariadb-server, mariadb-client and slurmdbd:
# the live tests with accounting (topo-cluster --accounting), installed
# here once rather than by tests running side by side.
pkgs=(build-essential autoconf automake libtool pkg-config check zlib1g-dev
      gnuplot-nox slurm-wlm slurmctld slurmd libslurm-dev
      slurm-wlm-basic-plugins-dev munge libmunge-dev iproute2 procps
      util-linux dpkg-dev xz-utils python3
      clang libclang-rt-14-dev llvm-14
      mariadb-server mariadb-client slurmdbd)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]} (run as root)" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
