/*
 * select_torus.c - Slurm 22.05 node selection on a multidimensional torus
 * (Angara-style): every job gets a box of nodes, chosen by the core
 * library's torus allocators (base, Find_Systems, Find_Systems + MSS);
 * Slurm's select/linear, loaded as a delegate, does all the bookkeeping.
 * What every topology select plugin shares is plugins/common/tpl_select.c;
 * this file says what is the torus's own: its settings and files, boxes in
 * the logs, and that placements are a hard constraint.
 * Settings, rules and logs: select_torus(5).
 */
#include "config.h"

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"

#include "tpl_nodetable.h"
#include "tpl_select.h"
#include "tt_box.h"

/* plugin_id: see select_fattree.c.  Project ids: 180 select/fattree,
 * 181 select/torus. */
const char plugin_name[] = "Torus topology node selection (boxes, MSS fragmentation metric)";
const char plugin_type[] = "select/torus";
const uint32_t plugin_id = 181;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static void report(void *arg, const char *msg)
{
	error("%s: %s", plugin_type, msg);
}

/* torus_ SchedulerParameters, then torus.conf: any problem refuses the
 * settings (a typo must not fall back to a default). */
static int load(tp_topo *t)
{
	char *conf, *dir, alloc[32];
	tp_settings set;
	tp_topo_spec spec;
	tp_error err = { { 0 } };
	int rc = -1;

	tpl_conf_paths("torus.conf", &conf, &dir);
	if (tp_settings_parse_params(&set, NULL, slurm_conf.sched_params,
				     TP_SCOPE_TORUS, report, NULL))
		goto out;
	tp_topo_spec_torus(&spec, &set, conf, dir, alloc, sizeof(alloc));
	if ((rc = tp_topo_load(t, &spec, &err)))
		error("%s: %s", plugin_type, err.msg);
	else
		info("%s: %s", plugin_type, t->describe);
out:
	xfree(conf);
	xfree(dir);
	return rc;
}

static void describe(const void *topo, tp_alloc *alloc,
		     const tp_nodeset *nodes, int requested, char *buf,
		     size_t len)
{
	tt_describe(((const tp_topo *)topo)->torus, nodes, requested, buf, len);
}

/* Jobs select/linear decides (required nodes, ...): say whether their
 * nodes still form a box; a job that gets no box is worth an info line. */
static void linear_chose(const tpl_ctx *c, job_record_t *job_ptr,
			 uint16_t mode, bitstr_t *bitmap)
{
	const tp_torus *torus = ((const tp_topo *)c->topo)->torus;
	tp_nodeset got;
	tp_box box;
	char desc[256];

	if (tp_nodeset_init(&got, c->map->ntopo))
		return;
	tpl_bits_to_set(c->map, bitmap, &got);
	bool is_box = tt_box_of(torus, &got, &box) == 0;
	tt_describe(torus, &got, 0, desc, sizeof(desc));
	char *names = bitmap2node_name(bitmap);
	if (!is_box && (mode & SELECT_MODE_BASE) == SELECT_MODE_RUN_NOW)
		info("%s: %pJ %s: select/linear's choice is not a box: nodes=%d %s NodeList=%s",
		     plugin_type, job_ptr, tpl_mode_name(mode),
		     tp_nodeset_count(&got), desc, names);
	else if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		log_flag(SELECT_TYPE, "%s: %pJ %s: select/linear chose nodes=%d %s NodeList=%s",
			 plugin_type, job_ptr, tpl_mode_name(mode),
			 tp_nodeset_count(&got), desc, names);
	else
		debug2("%s: %pJ %s: select/linear chose nodes=%d %s NodeList=%s",
		       plugin_type, job_ptr, tpl_mode_name(mode),
		       tp_nodeset_count(&got), desc, names);
	xfree(names);
	tp_nodeset_fini(&got);
}

static const tpl_select_ops torus_ops = {
	.plugin_type = plugin_type,
	.load = load,
	.describe = describe,
	/* Boxes are the point: a job the allocator decides gets a box or
	 * waits, never some other node set. */
	.strict = true,
	.linear_chose = linear_chose,
};

extern int init(void)
{
	return tpl_select_init(&torus_ops);
}

extern int fini(void)
{
	return tpl_select_fini();
}

extern int select_p_node_init(void)
{
	return tpl_select_node_init();
}

extern int select_p_reconfigure(void)
{
	return tpl_select_reconfigure();
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates,
			     List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	return tpl_select_job_test(job_ptr, bitmap, min_nodes, max_nodes,
				   req_nodes, mode, preemptee_candidates,
				   preemptee_job_list, exc_core_bitmap);
}

/* Every other select operation is select/linear's: tpl_delegate.c. */
