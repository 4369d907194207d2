/*
 * select_fattree.c - Slurm 22.05 node selection on a fat tree.
 *
 * SelectType=select/fattree.  The core library's fat-tree allocator (MSUs,
 * minimal pairwise hop sum) chooses a job's nodes; Slurm's select/linear,
 * loaded as a delegate, does all the bookkeeping.  Settings, rules and
 * logs: select_fattree(5).
 *
 * Loading: slurmctld loads every select_*.so in PluginDir and calls its
 * init() whatever SelectType says, and slurmd and every client command load
 * select plugins too.  So init() only loads the delegate everywhere; the
 * settings, the tree and the allocator are read only inside slurmctld and
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

#include "ft_jobtest.h"
#include "ft_state.h"
#include "tpl_delegate.h"
#include "tpl_nodemap.h"
#include "tpl_nodetable.h"

/*
 * plugin_id: packed with node and job select info, so it must never change
 * and must be unique among all select plugins in PluginDir (Slurm's own use
 * 101-110).  Project ids: 180 select/fattree, 181 select/torus.
 */
#define FT_PLUGIN_ID 180

const char plugin_name[] = "Fat-tree topology node selection (MSU, minimal hop sum)";
const char plugin_type[] = "select/fattree";
const uint32_t plugin_id = FT_PLUGIN_ID;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static bool active;          /* slurmctld with SelectType=select/fattree */
static ft_state state;       /* valid when active */
static tpl_nodemap nodemap;  /* valid when mapped */
static bool mapped;
static List *ctld_job_list;  /* slurmctld's job_list, when found */

static int load_state(ft_state *s)
{
	char *conf, *dir;
	tp_error err = { { 0 } };
	int rc;

	tpl_conf_paths("fattree.conf", &conf, &dir);
	rc = ft_state_load(s, conf, dir, &err);
	if (rc)
		error("%s: %s", plugin_type, err.msg);
	else if (s->tree->nwarn)
		error("%s: WARNING: %s (%d such node(s); each is kept under its first leaf switch)",
		      plugin_type, s->tree->warn, s->tree->nwarn);
	if (!rc)
		info("%s: topology %s: %d nodes, %d MSUs of %d nodes, allocator %s%s%s",
		     plugin_type, s->cfg.topology_file,
		     tp_fattree_nnodes(s->tree), tp_fattree_nmsu(s->tree),
		     tp_fattree_nunit(s->tree), s->cfg.allocator,
		     s->cfg.source ? ", settings " : "",
		     s->cfg.source ? s->cfg.source : "");
	xfree(conf);
	xfree(dir);
	return rc ? SLURM_ERROR : SLURM_SUCCESS;
}

/* Build the Slurm <-> tree map for the current node table. */
static int map_nodes(void)
{
	tpl_nodemap m;

	if (tpl_nodetable_map(&m, state.tree, tp_fattree_nnodes(state.tree),
			      ft_state_node_index, plugin_type, "tree",
			      state.cfg.topology_file))
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
		ft_state_fini(&state);
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
 * scontrol reconfigure (and partition or node changes): re-read
 * fattree.conf and the tree.  A bad new file keeps the old settings, so a
 * running controller does not lose its scheduler to a typo.
 */
extern int select_p_reconfigure(void)
{
	int rc = tpl_delegate.ops.reconfigure();
	ft_state fresh;

	if (!active)
		return rc;
	slurm_mutex_lock(&state_lock);
	if (load_state(&fresh) == SLURM_SUCCESS) {
		ft_state old = state;
		state = fresh;
		if (map_nodes() == SLURM_SUCCESS) {
			ft_state_fini(&old);
		} else {
			error("%s: keeping the previous topology", plugin_type);
			state = old;
			ft_state_fini(&fresh);
		}
	} else {
		error("%s: keeping the previous settings and topology",
		      plugin_type);
		if (!mapped || nodemap.nslurm != node_record_count)
			(void) map_nodes();
	}
	slurm_mutex_unlock(&state_lock);
	return rc;
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
	ft_ctx ctx = {
		.st = &state,
		.map = &nodemap,
		.linear = &tpl_delegate,
		.job_list = ctld_job_list,
	};
	rc = ft_job_test(&ctx, job_ptr, bitmap, min_nodes, max_nodes,
			 req_nodes, mode, preemptee_candidates,
			 preemptee_job_list, exc_core_bitmap);
	slurm_mutex_unlock(&state_lock);
	return rc;
}

/* Every other select operation is select/linear's: tpl_delegate.c. */
