/*
 * select_torus.c - Slurm 22.05 node selection on a multidimensional torus
 * (Angara-style): every job gets a box of nodes, chosen by the core
 * library's torus allocators (base, Find_Systems, Find_Systems + MSS);
 * Slurm's select/linear, loaded as a delegate, does all the bookkeeping.
 * What every topology select plugin shares is plugins/select/common/tps_select.c;
 * this file says what is the torus's own: its settings and files, boxes in
 * the logs, and that placements are a hard constraint.
 * Settings, rules and logs: select_torus(5).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"

#include "tpl_nodetable.h"
#include "tps_select.h"
#include "machine/torus_describe.h"

/* plugin_id: see select_fattree.c.  Project ids: 180 select/fattree,
 * 181 select/torus. */
const char plugin_name[] = "Torus topology node selection (boxes, MSS fragmentation metric)";
const char plugin_type[] = "select/torus";
const uint32_t plugin_id = 181;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static void log_torus(const tp_topo *t)
{
	char line[512];
	tp_torus_loaded_line(t, line, sizeof(line));
	info("%s: %s", plugin_type, line);
}

/* torus_ SchedulerParameters, then torus.conf (tpl_topo_load). */
static int load(tp_topo *t)
{
	int rc = tpl_topo_load(t, TP_TOPO_TORUS, -1, plugin_type);
	if (!rc)
		log_torus(t);
	return rc;
}

/* Jobs select/linear decides (required nodes, ...): say whether their
 * nodes still form a box; a job that gets no box is worth an info line. */
static void linear_chose(const tps_ctx *c, job_record_t *job_ptr,
			 uint16_t mode, bitstr_t *bitmap)
{
	const tp_topo *t = c->topo;
	tp_nodeset got, in;
	tp_box box;
	char desc[256];

	if (tp_nodeset_init(&got, c->map->ntopo))
		return;
	tpl_bits_to_set(c->map, bitmap, &got);
	if (tp_topo_inside(t, &got, &in)) {
		tp_nodeset_fini(&got);
		return;
	}
	/* a node outside the torus is in no box */
	bool is_box = tp_nodeset_count(&in) == tp_nodeset_count(&got) &&
		      tp_box_of(t->torus, &in, &box) == 0;
	tp_nodeset_fini(&in);
	tp_describe_torus_topo(t, c->alloc, &got, 0, desc, sizeof(desc));
	char *names = bitmap2node_name(bitmap);
	if (!is_box && (mode & SELECT_MODE_BASE) == SELECT_MODE_RUN_NOW)
		info("%s: %pJ %s: select/linear's choice is not a box: nodes=%d %s NodeList=%s",
		     plugin_type, job_ptr, tps_mode_name(mode),
		     tp_nodeset_count(&got), desc, names);
	else if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		log_flag(SELECT_TYPE, "%s: %pJ %s: select/linear chose nodes=%d %s NodeList=%s",
			 plugin_type, job_ptr, tps_mode_name(mode),
			 tp_nodeset_count(&got), desc, names);
	else
		debug2("%s: %pJ %s: select/linear chose nodes=%d %s NodeList=%s",
		       plugin_type, job_ptr, tps_mode_name(mode),
		       tp_nodeset_count(&got), desc, names);
	xfree(names);
	tp_nodeset_fini(&got);
}

const tps_select_ops tps_select_plugin = {
	.plugin_type = plugin_type,
	.load = load,
	.describe = tp_describe_torus_topo,
	/* Boxes are the point: a job the allocator decides gets a box or
	 * waits, never some other node set. */
	.strict = true,
	.linear_chose = linear_chose,
};

/* init, fini, select_p_node_init, select_p_reconfigure, select_p_job_test:
 * tps_select.c; every other select operation is select/linear's:
 * tps_delegate.c. */
