#!/usr/bin/env bash
# plugin-exports.sh [PLUGINDIR] - what our Slurm plugins carry into the
# daemons that load them (doc/architecture.md, "Two libraries"):
#   - each exports only the symbols Slurm's plugin loader looks up
#     (plugin_*, init, fini, and the ops of its type: select_p_*,
#     topology_p_*, sched_p_*; the topology plugins (24.11+) also the two
#     variables of Slurm's common_topo.c that slurmctld's must replace, and
#     on 26.05 the datum supports_exclusive_topo);
#   - none contains the simulator (tp_simulate, tp_swf_read,
#     tp_het_sim_run, the event engine) or links zlib.
# PLUGINDIR defaults to the build tree's plugins/.libs (TOPO_BUILDDIR or
# the current directory).  A directory without our plugins is a failure.
# Ends with "N passed, N failed".
set -uo pipefail
dir=${1:-${TOPO_BUILDDIR:-.}/plugins/.libs}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }

allowed='^(plugin_(name|type|id|version)|init|fini|select_p_[a-z_0-9]+|topology_p_[a-z_0-9]+|sched_p_[a-z_0-9]+|part_list|idle_node_bitmap|supports_exclusive_topo)$'
sim_syms='^(tp_simulate|tp_swf_read|tp_het_sim_run|tp_engine_[a-z_]+|tp_workload_[a-z_]+|tp_tasksim_[a-z_]+)$'

shopt -s nullglob
sos=()
for n in select_fattree select_torus topology_fattree topology_torus sched_topo; do
	[ -f "$dir/$n.so" ] && sos+=("$dir/$n.so")
done
if [ ${#sos[@]} -eq 0 ]; then
	bad "no plugin of ours in $dir"
	echo "$pass passed, $fail failed"
	exit 1
fi
for so in "${sos[@]}"; do
	n=$(basename "$so" .so)
	exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ && $2 != "A" {print $3}' | sort -u)
	extra=$(grep -Ev "$allowed" <<<"$exported" | grep . || true)
	if [ -z "$extra" ]; then
		ok "$n exports only plugin symbols ($(wc -l <<<"$exported") of them)"
	else
		bad "$n exports $(wc -l <<<"$extra") other symbol(s): $(head -5 <<<"$extra" | tr '\n' ' ')"
	fi
	grep -q '^plugin_type$' <<<"$exported" && grep -q '^plugin_version$' <<<"$exported" &&
		grep -q '^init$' <<<"$exported" && ok "$n exports plugin_type, plugin_version, init" ||
		bad "$n lacks plugin_type, plugin_version or init: Slurm could not load it"
	# Every symbol, local ones too (a static build keeps their names).
	inside=$(nm "$so" 2>/dev/null | awk '{print $NF}' | grep -E "$sim_syms" | sort -u || true)
	[ -z "$inside" ] && ok "$n contains no simulator code" ||
		bad "$n contains simulator code: $(tr '\n' ' ' <<<"$inside")"
	if ldd "$so" 2>/dev/null | grep -q 'libz\.so'; then
		bad "$n links zlib (only the simulator reads .gz traces)"
	else
		ok "$n does not link zlib"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
