/* tps_select.c - a topology select plugin's own operations; see tps_select.h. */
#include "tps_select.h"

#include <dlfcn.h>
#include <pthread.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xstring.h"

#include "tps_delegate.h"
#include "tpl_nodetable.h"

/* One plugin per .so: this file is linked into each. */
static const tps_select_ops *const ops = &tps_select_plugin;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static bool active;          /* slurmctld with this SelectType */
static tp_topo topo;         /* valid when active */
static tpl_nodemap nodemap;  /* valid when mapped */
static bool mapped;
static List *ctld_job_list;  /* slurmctld's job_list, when found */

/* Build the Slurm <-> topology map for the current node table. */
static int map_nodes(void)
{
	tpl_nodemap m;

	if (tpl_topo_map(&m, &topo, ops->plugin_type))
		return SLURM_ERROR;
	if (mapped)
		tpl_nodemap_fini(&nodemap);
	nodemap = m;
	mapped = true;
	return SLURM_SUCCESS;
}

extern int init(void)
{
	if (tps_linear_load(&tps_delegate))
		return SLURM_ERROR;
	if (!running_in_slurmctld() ||
	    xstrcmp(slurm_conf.select_type, ops->plugin_type))
		return SLURM_SUCCESS;
	if (ops->load(&topo)) {
		tps_linear_unload(&tps_delegate);
		return SLURM_ERROR;
	}
	ctld_job_list = dlsym(RTLD_DEFAULT, "job_list");
	if (!ctld_job_list)
		info("%s: slurmctld's job_list not found; WILL_RUN plans on free nodes only",
		     ops->plugin_type);
	active = true;
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	slurm_mutex_lock(&state_lock);
	if (mapped)
		tpl_nodemap_fini(&nodemap);
	mapped = false;
	if (active)
		tp_topo_fini(&topo);
	active = false;
	slurm_mutex_unlock(&state_lock);
	tps_linear_unload(&tps_delegate);
	return SLURM_SUCCESS;
}

extern int select_p_node_init(void)
{
	int rc = tps_delegate.ops.node_init();

	if (rc != SLURM_SUCCESS || !active)
		return rc;
	slurm_mutex_lock(&state_lock);
	rc = map_nodes();
	slurm_mutex_unlock(&state_lock);
	return rc;
}

/*
 * scontrol reconfigure (and partition or node changes): re-read the
 * files.  A bad new file keeps the old machine, so a running controller
 * does not lose its scheduler to a typo.
 */
extern int select_p_reconfigure(void)
{
	int rc = tps_delegate.ops.reconfigure();
	tp_topo fresh;

	if (!active)
		return rc;
	slurm_mutex_lock(&state_lock);
	if (ops->load(&fresh) == 0) {
		tp_topo old = topo;
		topo = fresh;
		if (map_nodes() == SLURM_SUCCESS) {
			tp_topo_fini(&old);
		} else {
			/* the map may have changed the machine (its outside
			 * nodes): free what `topo` holds now, not `fresh` */
			error("%s: keeping the previous topology", ops->plugin_type);
			tp_topo_fini(&topo);
			topo = old;
		}
	} else {
		error("%s: keeping the previous settings and topology",
		      ops->plugin_type);
		if (!mapped || nodemap.nslurm != node_record_count)
			(void) map_nodes();
	}
	slurm_mutex_unlock(&state_lock);
	return rc;
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode, List preemptees,
			     List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	int rc;

	if (!active || !mapped)
		return tps_delegate.ops.job_test(job_ptr, bitmap, min_nodes,
						 max_nodes, req_nodes, mode,
						 preemptees, preemptee_job_list,
						 exc_core_bitmap);
	slurm_mutex_lock(&state_lock);
	tps_ctx ctx = {
		.plugin_type = ops->plugin_type,
		.kind = topo.kind == TP_TOPO_TORUS ? "torus" : "tree",
		.alloc = topo.alloc,
		.alloc_name = topo.alloc_name,
		.topo = &topo,
		.describe = ops->describe,
		.map = &nodemap,
		.linear = &tps_delegate,
		.job_list = ctld_job_list,
		.strict = ops->strict,
		.linear_chose = ops->linear_chose,
	};
	rc = tps_job_test(&ctx, job_ptr, bitmap, min_nodes, max_nodes,
			  req_nodes, mode, preemptees, preemptee_job_list,
			  exc_core_bitmap);
	slurm_mutex_unlock(&state_lock);
	return rc;
}
