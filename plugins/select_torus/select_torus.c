/*
 * select_torus.c - Slurm 22.05 node selection on a multidimensional torus
 * (Angara-style): every job gets a box of nodes, chosen by the core
 * library's torus allocators (base, Find_Systems, Find_Systems + MSS);
 * Slurm's select/linear, loaded as a delegate, does all the bookkeeping.
 * Settings, rules and logs: select_torus(5).
 *
 * Loading: slurmctld loads every select_*.so in PluginDir and calls its
 * init() whatever SelectType says, and slurmd and every client command load
 * select plugins too.  So init() only loads the delegate everywhere; the
 * settings, the torus and the allocator are read only inside slurmctld and
 * only when this is the configured SelectType.  No slurmctld-only DATA
 * symbol is referenced at link time (that would make dlopen fail in the
 * other programs); slurmctld's job_list is looked up at run time.
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "tpl_delegate.h"
#include "tpl_jobtest.h"
#include "tpl_nodemap.h"
#include "tpl_nodetable.h"
#include "tt_box.h"
#include "tt_state.h"

/*
 * plugin_id: packed with node and job select info, so it must never change
 * and must be unique among all select plugins in PluginDir (Slurm's own use
 * 101-110).  Project ids: 180 select/fattree, 181 select/torus.
 */
#define TT_PLUGIN_ID 181

const char plugin_name[] = "Torus topology node selection (boxes, MSS fragmentation metric)";
const char plugin_type[] = "select/torus";
const uint32_t plugin_id = TT_PLUGIN_ID;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static bool active;          /* slurmctld with SelectType=select/torus */
static tt_state state;       /* valid when active */
static tpl_nodemap nodemap;  /* valid when mapped */
static bool mapped;
static List *ctld_job_list;  /* slurmctld's job_list, when found */

static int load_state(tt_state *s)
{
	char *conf, *dir;
	tp_error err = { { 0 } };
	int rc;

	tpl_conf_paths("torus.conf", &conf, &dir);
	rc = tt_state_load(s, slurm_conf.sched_params, conf, dir, &err);
	if (rc) {
		error("%s: %s", plugin_type, err.msg);
	} else {
		const int *d = tp_torus_dims(s->torus);
		char dims[96] = "";
		for (int i = 0; i < tp_torus_ndims(s->torus); i++) {
			size_t used = strlen(dims);
			snprintf(dims + used, sizeof(dims) - used, "%s%d",
				 i ? "x" : "", d[i]);
		}
		info("%s: torus %s: %s, %d nodes, Ntransit=%d, allocator %s (from %s)",
		     plugin_type, s->conf_path, dims,
		     tp_torus_nnodes(s->torus), tp_torus_ntransit(s->torus),
		     s->alloc_name, s->method_from);
	}
	xfree(conf);
	xfree(dir);
	return rc ? SLURM_ERROR : SLURM_SUCCESS;
}

/* Build the Slurm <-> torus map for the current node table. */
static int map_nodes(void)
{
	tpl_nodemap m;

	if (tpl_nodetable_map(&m, state.torus, tp_torus_nnodes(state.torus),
			      tt_state_node_index, plugin_type, "torus",
			      state.conf_path))
		return SLURM_ERROR;
	if (mapped)
		tpl_nodemap_fini(&nodemap);
	nodemap = m;
	mapped = true;
	return SLURM_SUCCESS;
}

extern int init(void)
{
	if (tpl_linear_load(&tpl_delegate))
		return SLURM_ERROR;
	if (!running_in_slurmctld() ||
	    xstrcmp(slurm_conf.select_type, plugin_type))
		return SLURM_SUCCESS;

	if (load_state(&state) != SLURM_SUCCESS) {
		tpl_linear_unload(&tpl_delegate);
		return SLURM_ERROR;
	}
	ctld_job_list = dlsym(RTLD_DEFAULT, "job_list");
	if (!ctld_job_list)
		info("%s: slurmctld's job_list not found; WILL_RUN plans on free nodes only",
		     plugin_type);
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
		tt_state_fini(&state);
	active = false;
	slurm_mutex_unlock(&state_lock);
	tpl_linear_unload(&tpl_delegate);
	return SLURM_SUCCESS;
}

/* ---- operations with our own part -------------------------------- */

extern int select_p_node_init(void)
{
	int rc = tpl_delegate.ops.node_init();

	if (rc != SLURM_SUCCESS || !active)
		return rc;
	slurm_mutex_lock(&state_lock);
	rc = map_nodes();
	slurm_mutex_unlock(&state_lock);
	return rc;
}

/*
 * scontrol reconfigure (and node changes): re-read the settings and
 * torus.conf.  A bad new file keeps the old torus, so a running controller
 * does not lose its scheduler to a typo.
 */
extern int select_p_reconfigure(void)
{
	int rc = tpl_delegate.ops.reconfigure();
	tt_state fresh;

	if (!active)
		return rc;
	slurm_mutex_lock(&state_lock);
	if (load_state(&fresh) == SLURM_SUCCESS) {
		tt_state old = state;
		state = fresh;
		if (map_nodes() == SLURM_SUCCESS) {
			tt_state_fini(&old);
		} else {
			error("%s: keeping the previous torus", plugin_type);
			state = old;
			tt_state_fini(&fresh);
		}
	} else {
		error("%s: keeping the previous settings and torus",
		      plugin_type);
		if (!mapped || nodemap.nslurm != node_record_count)
			(void) map_nodes();
	}
	slurm_mutex_unlock(&state_lock);
	return rc;
}

static void describe(const void *topo, tp_alloc *alloc,
		     const tp_nodeset *nodes, int requested, char *buf,
		     size_t len)
{
	tt_describe(topo, nodes, requested, buf, len);
}

/* Jobs select/linear decides (required nodes, ...): say whether their
 * nodes still form a box; a job that gets no box is worth an info line. */
static void linear_chose(const tpl_ctx *c, job_record_t *job_ptr,
			 uint16_t mode, bitstr_t *bitmap)
{
	tp_nodeset got;
	tp_box box;
	char desc[256];

	if (tp_nodeset_init(&got, c->map->ntopo))
		return;
	tpl_bits_to_set(c->map, bitmap, &got);
	bool is_box = tt_box_of(c->topo, &got, &box) == 0;
	tt_describe(c->topo, &got, 0, desc, sizeof(desc));
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

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates,
			     List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	int rc;

	if (!active || !mapped)
		return tpl_delegate.ops.job_test(job_ptr, bitmap, min_nodes,
						 max_nodes, req_nodes, mode,
						 preemptee_candidates,
						 preemptee_job_list,
						 exc_core_bitmap);
	slurm_mutex_lock(&state_lock);
	tpl_ctx ctx = {
		.plugin_type = plugin_type,
		.kind = "torus",
		.alloc = state.alloc,
		.alloc_name = state.alloc_name,
		.topo = state.torus,
		.describe = describe,
		.map = &nodemap,
		.linear = &tpl_delegate,
		.job_list = ctld_job_list,
		/* Boxes are the point: a job the allocator decides gets a
		 * box or waits, never some other node set. */
		.strict = true,
		.linear_chose = linear_chose,
	};
	/* Transit nodes only within the job's node range (select_torus(5)). */
	tt_state_limit(&state, max_nodes > INT32_MAX ? 0 : (int)max_nodes);
	rc = tpl_job_test(&ctx, job_ptr, bitmap, min_nodes, max_nodes,
			  req_nodes, mode, preemptee_candidates,
			  preemptee_job_list, exc_core_bitmap);
	tt_state_limit(&state, 0);
	slurm_mutex_unlock(&state_lock);
	return rc;
}

/* Every other select operation is select/linear's: tpl_delegate.c. */
