/*
 * topology_torus.c - Slurm 24.11 and 26.05 torus placement under
 * select/cons_tres (TopologyPlugin=topology/torus): every job a box of
 * nodes, chosen by the core library's torus allocators (base,
 * Find_Systems, Find_Systems + MSS; the same ones select/torus uses on
 * 22.05) among the nodes cons_tres offers; Slurm picks cores and GRES
 * inside the box.  torus.conf beside slurm.conf, torus_conf=/torus_method=
 * in SchedulerParameters.  What every topology plugin of the suite shares
 * is plugins/topology/common/ (tpt_plugin_2411.c on 24.11, tpt_plugin_2605.c
 * on 26.05); this file is the torus's own: records, a node's place and
 * rank.  Settings, rules and logs: topology_torus(5).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/hostlist.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "tpt_ops.h"
#include "machine/torus_describe.h"

/* plugin_id: see topology_fattree.c. */
const char plugin_name[] = "Torus topology placement (boxes, MSS fragmentation metric)";
const char plugin_type[] = "topology/torus";
const uint32_t plugin_id = 191;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static char *all_nodes(const tp_torus *t)
{
	hostlist_t *hl = hostlist_create(NULL);
	for (int i = 0; i < tp_torus_nnodes(t); i++)
		hostlist_push_host(hl, tp_torus_node_name(t, i));
	char *s = hostlist_ranged_string_xmalloc(hl);
	hostlist_destroy(hl);
	return s;
}

/* "TorusName=torus Dims=4x4 Wrap=yes,yes Nodes=..." then one record per
 * node with its coordinates, so `scontrol show topology n3` says where
 * n3 is. */
static void records(const tp_topo *t, tpt_info *info)
{
	const tp_torus *torus = t->torus;
	int n = tp_torus_ndims(torus), coord[TP_TORUS_MAX_DIMS];
	const int *d = tp_torus_dims(torus);
	const bool *w = tp_torus_wrap(torus);
	char *dims = NULL, *wrap = NULL, *line = NULL, *nodes = all_nodes(torus);

	for (int i = 0; i < n; i++) {
		xstrfmtcat(dims, "%s%d", i ? "x" : "", d[i]);
		xstrfmtcat(wrap, "%s%s", i ? "," : "", w[i] ? "yes" : "no");
	}
	xstrfmtcat(line, "TorusName=torus Dims=%s Wrap=%s Ntransit=%d Allocator=%s Nodes=%s",
		   dims, wrap, tp_torus_ntransit(torus), t->alloc_name, nodes);
	tpt_info_add(info, "torus", NULL, line);
	xfree(line);
	for (int i = 0; i < tp_torus_nnodes(torus); i++) {
		char *c = NULL;
		const char *name = tp_torus_node_name(torus, i);
		tp_torus_coord(torus, i, coord);
		for (int k = 0; k < n; k++)
			xstrfmtcat(c, "%s%d", k ? "," : "", coord[k]);
		xstrfmtcat(line, "NodeName=%s Coord=%s Torus=%s", name, c, dims);
		tpt_info_add(info, name, name, line);
		xfree(line);
		xfree(c);
	}
	xfree(nodes);
	xfree(dims);
	xfree(wrap);
}

/* ":torus:1.2.0": the node's coordinates (no commas: Topology= lists
 * topologies separated by commas). */
static void place(const tp_topo *t, int i, char **str)
{
	int coord[TP_TORUS_MAX_DIMS], n = tp_torus_ndims(t->torus);
	tp_torus_coord(t->torus, i, coord);
	xstrcat(*str, ":torus:");
	for (int k = 0; k < n; k++)
		xstrfmtcat(*str, "%s%d", k ? "." : "", coord[k]);
}

/*
 * One unit, the torus; the order is the node's place on a snake
 * (boustrophedon) path through it: the first dimension runs fastest and
 * turns back at each end, and so on outwards, so consecutive ranks are
 * neighbours and a box's tasks run along it rather than jumping between
 * rows.
 */
static void rank(const tp_topo *t, int i, uint32_t *unit, uint32_t *order)
{
	const tp_torus *torus = t->torus;
	int n = tp_torus_ndims(torus), coord[TP_TORUS_MAX_DIMS];
	const int *d = tp_torus_dims(torus);
	uint64_t pos = 0;

	tp_torus_coord(torus, i, coord);
	for (int k = n - 1; k >= 0; k--) {
		/* outer dimensions' position so far: odd turns this one back */
		int c = (pos & 1) ? d[k] - 1 - coord[k] : coord[k];
		pos = pos * (uint64_t)d[k] + (uint64_t)c;
	}
	*unit = 1;
	*order = (uint32_t)(pos & 0xffff); /* below TOPO_RANK_ID_SHIFT */
}

const tpt_ops tpt_plugin = {
	.plugin_type = plugin_type,
	.plugin_id = 191,
	.kind = TP_TOPO_TORUS,
	.describe = tp_describe_torus_topo,
	/* Boxes are the point: a job gets a box or waits. */
	.strict = true,
	.switches = false, /* a torus has no switches: --switches is ignored */
	.loaded_line = tp_torus_loaded_line,
	.records = records,
	.node_addr = NULL, /* the node name (no switch hierarchy) */
	.place = place,
	.rank = rank,
};
