/*
 * topology_fattree.c - Slurm 24.11 and 26.05 fat-tree placement under
 * select/cons_tres (TopologyPlugin=topology/fattree).
 *
 * The core library's fat-tree allocator (MSUs, minimal pairwise hop sum;
 * the same one select/fattree uses on 22.05) chooses a job's nodes among
 * those cons_tres offers; Slurm picks cores and GRES inside them.  The
 * tree is Slurm's topology.conf (fattree.conf beside slurm.conf may set
 * the allocator options and name another file).  What every topology
 * plugin of the suite shares is plugins/topology/common/ (tpt_plugin_2411.c on 24.11, tpt_plugin_2605.c on
 * 26.05); this file is the fat tree's own: switch records, addresses, a
 * node's place and rank, and placement logs.
 * Settings, rules and logs: topology_fattree(5).
 */
#include "config.h"

#include <stdio.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"
#include "src/common/hostlist.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "machine/describe.h"
#include "tpt_ops.h"

/* plugin_id: packed with `scontrol show topology` data, so every program
 * loading the plugin must agree; unique among topology plugins (Slurm's
 * own use 100-103).  Project ids: 190 topology/fattree, 191
 * topology/torus. */
const char plugin_name[] = "Fat-tree topology placement (MSU, minimal hop sum)";
const char plugin_type[] = "topology/fattree";
const uint32_t plugin_id = 190;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* One record per switch of topology.conf, as topology/tree prints them:
 * every switch with the nodes below it (one pass up from each node). */
static void records(const tp_topo *t, tpt_info *info)
{
	const tp_fattree *tree = t->tree;
	hostlist_t **below = xcalloc(tree->nswitch, sizeof(*below));

	for (int i = 0; i < tree->nnodes; i++)
		for (int s = tree->node_leaf[i]; s >= 0; s = tree->sw[s].parent) {
			if (!below[s])
				below[s] = hostlist_create(NULL);
			hostlist_push_host(below[s], tree->node_name[i]);
		}
	for (int s = 0; s < tree->nswitch; s++) {
		const tp_fattree_switch *sw = &tree->sw[s];
		char *nodes = below[s] ? hostlist_ranged_string_xmalloc(below[s])
				       : NULL;
		char *line = NULL;
		if (!sw->is_virtual) {
			xstrfmtcat(line, "SwitchName=%s Level=%d LinkSpeed=%d",
				   sw->name, sw->level, sw->link_speed);
			if (nodes)
				xstrfmtcat(line, " Nodes=%s", nodes);
			for (int c = 0; c < sw->nchild; c++)
				xstrfmtcat(line, "%s%s", c ? "," : " Switches=",
					   tree->sw[sw->child[c]].name);
			tpt_info_add(info, sw->name, nodes, line);
		}
		xfree(line);
		xfree(nodes);
		if (below[s])
			hostlist_destroy(below[s]);
	}
	xfree(below);
}

/* "s2.s1.s0.n3" / "switch.switch.switch.node": the switches on the path
 * from the top level down, as topology/tree writes them. */
static int node_addr(const tp_topo *t, int i, char **addr, char **pattern)
{
	const tp_fattree *tree = t->tree;
	int top = 0;
	for (int s = 0; s < tree->nswitch; s++)
		if (!tree->sw[s].is_virtual && tree->sw[s].level > top)
			top = tree->sw[s].level;
	*addr = xstrdup("");
	*pattern = xstrdup("");
	for (int level = top; level >= 0; level--) {
		for (int s = tree->node_leaf[i]; s >= 0; s = tree->sw[s].parent)
			if (!tree->sw[s].is_virtual && tree->sw[s].level == level)
				xstrcat(*addr, tree->sw[s].name);
		xstrcat(*addr, ".");
		xstrcat(*pattern, "switch.");
	}
	xstrcat(*addr, tree->node_name[i]);
	xstrcat(*pattern, "node");
	return 0;
}

/* ":s2:s1:s0": the switches above the node from the top down, as
 * topology/tree writes a node's Topology= (a virtual root left out). */
static void place(const tp_topo *t, int i, char **str)
{
	const tp_fattree *tree = t->tree;
	int path[64], n = 0;
	for (int s = tree->node_leaf[i]; s >= 0 && n < 64; s = tree->sw[s].parent)
		if (!tree->sw[s].is_virtual)
			path[n++] = s;
	while (n > 0)
		xstrfmtcat(*str, ":%s", tree->sw[path[--n]].name);
}

/* As topology/tree ranks: one unit per leaf switch (from 1), no order
 * inside it. */
static void rank(const tp_topo *t, int i, uint32_t *unit, uint32_t *order)
{
	const tp_fattree *tree = t->tree;
	*unit = 0;
	*order = 0;
	for (int l = 0; l < tree->nleaf; l++)
		if (tree->leaves[l] == tree->node_leaf[i]) {
			*unit = (uint32_t)l + 1;
			return;
		}
}

/* As select/fattree logs it. */
static void loaded_line(const tp_topo *t, char *buf, size_t len)
{
	snprintf(buf, len, "topology %s: %d nodes, %d MSUs of %d nodes, allocator %s%s%s",
		 t->topology, t->ninside, tp_fattree_nmsu(t->tree),
		 tp_fattree_nunit(t->tree), t->alloc_name,
		 t->conf ? ", settings " : "", t->conf ? t->conf : "");
}

const tpt_ops tpt_plugin = {
	.plugin_type = plugin_type,
	.plugin_id = 190,
	.kind = TP_TOPO_FATTREE,
	.describe = tp_describe_fattree,
	.strict = false, /* no job starves for lack of a tree answer */
	.switches = true,
	.loaded_line = loaded_line,
	.records = records,
	.node_addr = node_addr,
	.place = place,
	.rank = rank,
};
