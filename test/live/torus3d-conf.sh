# shellcheck shell=bash
# test/live/torus3d-conf.sh: Slurm 26.05's topology/torus3d set up on an
# X x Y x Z torus, and the torus.conf on which torus-anchor chooses the
# same nodes.  Source it from bash (a live test, or by hand):
#     . test/live/torus3d-conf.sh
#     torus3d_confs DIR 4 4 4 'n[1-64]' 1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2 4x4x4
#
# What torus3d needs (Slurm 26.05.3, doc/html/topology.shtml "3D Torus
# Topology", topology.yaml(5)):
#   - topology.yaml beside slurm.conf: torus3d can only be configured
#     there.  When topology.yaml exists, slurm.conf's TopologyPlugin= is
#     not read (scontrol show config still prints it); we set
#     TopologyPlugin=topology/torus3d anyway, which names the intent.
#   - slurm.conf: SelectType=select/cons_tres (torus3d is a topology
#     plugin under cons_tres), whole nodes per job (the partition's
#     OverSubscribe=EXCLUSIVE: torus3d places nodes, cons_tres then takes
#     their cores), and a build with serializer/yaml (libyaml) to read
#     topology.yaml.
#   - node naming: nodes: lists the torus's nodes in x-major order (x
#     fastest): node k (0-based) is at x = k mod X, y = (k / X) mod Y,
#     z = k / (X Y).
#   - sizes: a job of s nodes (-N s) is placed only as a box of a
#     placement of exactly s nodes.  A size no placement has is refused:
#     eval_nodes returns ESLURM_REQUESTED_TOPO_CONFIG_UNAVAILABLE, which
#     sbatch reports at submission as "Requested topology configuration is
#     not available" (t-torus3d-26.05.sh checks that).  With the placements
#     below a 4x4x4 torus accepts 1, 2, 4, 8, 16, 32 and 64 nodes.
#   - the choice (alloc_torus_anchor.c states it in full): the first
#     placement of that size, in list order, with an anchor whose nodes are
#     all free; among its free anchors the one that meets the fewest free
#     anchors of the next larger placement, the first on a tie, anchors in
#     the order x outermost, then y, then z.
#
# The torus.conf for the simulator and the project's plugins lists the
# same nodes with Dimensions=ZxYxX (its last dimension varies fastest,
# as torus3d's x does), so torus3d's axes x, y, z are its dimensions 2, 1,
# 0, and each placement {x: a, y: b, z: c} is written Placement=cxbxa.

# torus3d_confs DIR X Y Z HOSTLIST PLACEMENT...: write DIR/topology.yaml
# and DIR/torus.conf (Method=anchor) for one torus named t0.  PLACEMENT is
# AxBxC[@SX,SY,SZ][/QX,QY,QZ] in torus3d's axis order: the dimensions,
# optionally anchor_seed (@) and anchor_spacing (/); the list order is
# the order of the arguments.
torus3d_confs() {
	local dir=$1 x=$2 y=$3 z=$4 nodes=$5 p dims seed spacing a b c
	shift 5
	[ $# -gt 0 ] || { echo "torus3d_confs: no placement" >&2; return 1; }
	{
		echo "# topology/torus3d: one ${x}x${y}x${z} torus, nodes in x-major order"
		echo "- topology: torus"
		echo "  cluster_default: true"
		echo "  torus3d:"
		echo "    toruses:"
		echo "      - name: t0"
		echo "        dims: {x: $x, y: $y, z: $z}"
		echo "        nodes: $nodes"
		echo "        placements:"
	} >"$dir/topology.yaml"
	{
		echo "# torus-anchor's view of topology.yaml's torus t0: dimensions (z, y, x)"
		echo "Dimensions=${z}x${y}x${x}"
		echo "Nodes=$nodes"
		echo "Method=anchor"
	} >"$dir/torus.conf"
	for p in "$@"; do
		[[ "$p" =~ ^([0-9]+)x([0-9]+)x([0-9]+)(@([0-9]+),([0-9]+),([0-9]+))?(/([0-9]+),([0-9]+),([0-9]+))?$ ]] ||
			{ echo "torus3d_confs: bad placement '$p' (AxBxC[@SX,SY,SZ][/QX,QY,QZ])" >&2; return 1; }
		a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]} c=${BASH_REMATCH[3]}
		dims="{x: $a, y: $b, z: $c}" seed="" spacing=""
		echo "          - dims: $dims" >>"$dir/topology.yaml"
		printf 'Placement=%sx%sx%s' "$c" "$b" "$a" >>"$dir/torus.conf"
		if [ -n "${BASH_REMATCH[4]}" ]; then
			seed="{x: ${BASH_REMATCH[5]}, y: ${BASH_REMATCH[6]}, z: ${BASH_REMATCH[7]}}"
			echo "            anchor_seed: $seed" >>"$dir/topology.yaml"
			printf ' AnchorSeed=%s,%s,%s' "${BASH_REMATCH[7]}" "${BASH_REMATCH[6]}" \
				"${BASH_REMATCH[5]}" >>"$dir/torus.conf"
		fi
		if [ -n "${BASH_REMATCH[8]}" ]; then
			spacing="{x: ${BASH_REMATCH[9]}, y: ${BASH_REMATCH[10]}, z: ${BASH_REMATCH[11]}}"
			echo "            anchor_spacing: $spacing" >>"$dir/topology.yaml"
			printf ' AnchorSpacing=%s,%s,%s' "${BASH_REMATCH[11]}" "${BASH_REMATCH[10]}" \
				"${BASH_REMATCH[9]}" >>"$dir/torus.conf"
		fi
		echo >>"$dir/torus.conf"
	done
}

# topo-cluster's options for a torus3d cluster of N nodes whose
# topology.yaml is in DIR (torus3d_confs): Slurm 26.05, cons_tres, whole
# nodes, topology.yaml beside slurm.conf.
torus3d_cluster_args() { # DIR N
	echo "--slurm 26.05 --nodes $2 --select select/cons_tres --topology topology/torus3d" \
		"--part-opts OverSubscribe=EXCLUSIVE --conf-file $1/topology.yaml"
}
