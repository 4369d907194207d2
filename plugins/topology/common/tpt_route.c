/*
 * tpt_route.c - message fan-out along a fat tree (TopologyParam=RouteTree),
 * as Slurm's topology/tree splits a host list; see tpt_route.h.
 */
#include "tpt_route.h"

#include <math.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/plugins/topology/common/common_topo.h"
#include "src/slurmctld/locks.h"

/* Levels of a TreeWidth fan-out over `n` nodes (topology/tree's rule). */
static int width_depth(int n, int width)
{
	if (n <= 0)
		return 0;
	return (int)ceil(log2((double)n * (width - 1) + 1) / log2(width));
}

/* The lowest switch whose nodes hold all of `nodes`, or -1. */
static int lowest_common(const tpt_state *s, bitstr_t *nodes)
{
	const tp_fattree *tree = s->topo.tree;
	int w = tree->root;

	if (!bit_super_set(nodes, s->group_bits[w]))
		return -1;
	for (;;) {
		int next = -1;
		for (int c = 0; c < tree->sw[w].nchild && next < 0; c++) {
			int k = tree->sw[w].child[c];
			if (bit_super_set(nodes, s->group_bits[k]))
				next = k;
		}
		if (next < 0)
			return w;
		w = next;
	}
}

/* One list per child switch of `w` holding nodes of `nodes` (removed
 * from it). */
static void split_below(const tpt_state *s, int w, bitstr_t *nodes,
			hostlist_t ***sp_hl, int *count)
{
	const tp_fattree *tree = s->topo.tree;
	bitstr_t *fwd = bit_alloc(bit_size(nodes));

	for (int c = 0; c < tree->sw[w].nchild; c++) {
		int k = tree->sw[w].child[c];
		bit_copybits(fwd, s->group_bits[k]);
		bit_and(fwd, nodes);
		if (!bit_set_count(fwd))
			continue;
		(*sp_hl)[(*count)++] = bitmap2hostlist(fwd);
		bit_and_not(nodes, fwd);
	}
	FREE_NULL_BITMAP(fwd);
}

int tpt_route_split(const tpt_state *s, hostlist_t *hl, hostlist_t ***sp_hl,
		    int *count, uint16_t tree_width)
{
	const tp_fattree *tree = s && s->loaded ? s->topo.tree : NULL;
	slurmctld_lock_t node_read_lock = { .node = READ_LOCK };
	bitstr_t *nodes = NULL;
	int width = tree_width < 2 ? 2 : tree_width;
	int w, depth = 0, rest;
	bool ctld = running_in_slurmctld();

	if (!tree)
		return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
							    tree_width);
	if (ctld)
		lock_slurmctld(node_read_lock);
	if (hostlist2bitmap(hl, false, &nodes) != SLURM_SUCCESS ||
	    bit_size(nodes) != s->map.nslurm ||
	    (w = lowest_common(s, nodes)) < 0 || !tree->sw[w].nchild) {
		/* one leaf switch, or a name not in the node table: TreeWidth */
		if (ctld)
			unlock_slurmctld(node_read_lock);
		FREE_NULL_BITMAP(nodes);
		return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
							    tree_width);
	}

	/* Depth: the fan-out below each leaf switch, plus the switch levels
	 * above the leaves up to where the list splits (topology/tree). */
	for (int l = 0; l < tree->nleaf; l++) {
		int n = bit_overlap(s->group_bits[tree->leaves[l]], nodes);
		if (n)
			depth = MAX(depth, width_depth(n, width));
	}
	depth += tree->sw[w].level;

	*sp_hl = xcalloc(tree->sw[w].nchild + bit_set_count(nodes),
			 sizeof(hostlist_t *));
	*count = 0;
	split_below(s, w, nodes, sp_hl, count);
	rest = bit_set_count(nodes);
	if (rest) { /* not below any child switch: one list each */
		node_record_t *node_ptr;
		for (int i = 0; (node_ptr = next_node_bitmap(nodes, &i)); i++) {
			(*sp_hl)[*count] = hostlist_create(NULL);
			hostlist_push_host((*sp_hl)[*count], node_ptr->name);
			(*count)++;
		}
	}
	if (slurm_conf.debug_flags & DEBUG_FLAG_ROUTE)
		debug("ROUTE: %d sublist(s) below switch %s, depth %d",
		      *count, tree->sw[w].name, depth);
	if (ctld)
		unlock_slurmctld(node_read_lock);
	FREE_NULL_BITMAP(nodes);
	return depth;
}
