/*
 * select_fattree.c - Slurm 22.05 node selection on a fat tree.
 *
 * SelectType=select/fattree.  The core library's fat-tree allocator (MSUs,
 * minimal pairwise hop sum) chooses a job's nodes; Slurm's select/linear,
 * loaded as a delegate, does all the bookkeeping.  What every topology
 * select plugin shares is plugins/select/common/tps_select.c; this file says
 * what is the fat tree's own: its files and how a placement is logged.
 * Settings, rules and logs: select_fattree(5).
 */
#include "config.h"

#include <stdio.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/log.h"
#include "src/common/xmalloc.h"

#include "machine/describe.h"
#include "tpl_nodetable.h"
#include "tps_select.h"

/*
 * plugin_id: packed with node and job select info, so it must never change
 * and must be unique among all select plugins in PluginDir (Slurm's own use
 * 101-110).  Project ids: 180 select/fattree, 181 select/torus.
 */
const char plugin_name[] = "Fat-tree topology node selection (MSU, minimal hop sum)";
const char plugin_type[] = "select/fattree";
const uint32_t plugin_id = 180;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* fattree.conf beside slurm.conf, and the topology file it names. */
static int load(tp_topo *t)
{
	int rc = tpl_topo_load(t, TP_TOPO_FATTREE, -1, plugin_type);
	if (!rc)
		info("%s: topology %s: %d nodes, %d MSUs of %d nodes, allocator %s%s%s",
		     plugin_type, t->topology, t->ninside, tp_fattree_nmsu(t->tree),
		     tp_fattree_nunit(t->tree), t->alloc_name,
		     t->conf ? ", settings " : "", t->conf ? t->conf : "");
	return rc;
}

const tps_select_ops tps_select_plugin = {
	.plugin_type = plugin_type,
	.load = load,
	.describe = tp_describe_fattree,
	.strict = false, /* no job starves for lack of a tree answer */
};

/* init, fini, select_p_node_init, select_p_reconfigure, select_p_job_test:
 * tps_select.c; every other select operation is select/linear's:
 * tps_delegate.c. */
