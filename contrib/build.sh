#!/usr/bin/env bash
# build.sh DIR [configure args...] - configure and build the project out of
# tree in DIR (relative to the source root), regenerating the build system
# when needed.  Used by the README's commands and by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
shift
cd "$root"
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null
# Slurm's headers (downloaded and installed as root the first time):
# here, not in configure, which only looks for them.
series=22.05 headers=auto source=
for a in "$@"; do
	case $a in
	--with-slurm-version=*) series=${a#*=} ;;
	--with-slurm-source=*) source=${a#*=} ;;
	--without-slurm-headers | --with-slurm-headers=*) headers=given ;;
	esac
done
if [ "$headers" = auto ] && [ "$series" = 26.05 ]; then
	# Slurm 26.05 from its release source: configured for the headers and
	# built for the live tests' daemons, once, in the cache.
	echo "build.sh: preparing Slurm 26.05 from source (contrib/slurm-source.sh)" >&2
	sh "$root/contrib/slurm-source.sh" --build $source >/dev/null ||
		{ echo "build.sh: contrib/slurm-source.sh --build failed" >&2; exit 1; }
elif [ "$headers" = auto ]; then
	echo "build.sh: preparing Slurm $series's headers (contrib/slurm-headers.sh)" >&2
	sh "$root/contrib/slurm-headers.sh" --version "$series" >/dev/null ||
		{ echo "build.sh: contrib/slurm-headers.sh --version $series failed" >&2; exit 1; }
fi
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$root/configure" -nt config.status ]; then
	"$root/configure" -q "$@"
fi
make -j"$(nproc)" >/dev/null
