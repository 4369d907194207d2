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
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$root/configure" -nt config.status ]; then
	"$root/configure" -q "$@"
fi
make -j"$(nproc)" >/dev/null
