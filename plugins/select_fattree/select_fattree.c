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
#include <libgen.h>
#include <pthread.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "ft_jobtest.h"
#include "ft_state.h"
#include "tpl_linear.h"
#include "tpl_nodemap.h"

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

static tpl_linear linear;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static bool active;          /* slurmctld with SelectType=select/fattree */
static ft_state state;       /* valid when active */
static tpl_nodemap nodemap;  /* valid when mapped */
static bool mapped;
static List *ctld_job_list;  /* slurmctld's job_list, when found */

/* fattree.conf path and the directory of slurm.conf (for relative paths). */
static void conf_paths(char **conf, char **dir)
{
	*conf = get_extra_conf_path("fattree.conf");
	char *copy = xstrdup(*conf);
	*dir = xstrdup(dirname(copy));
	xfree(copy);
}

static int load_state(ft_state *s)
{
	char *conf, *dir;
	tp_error err = { { 0 } };
	int rc;

	conf_paths(&conf, &dir);
	rc = ft_state_load(s, conf, dir, &err);
	if (rc)
		error("%s: %s", plugin_type, err.msg);
	else
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

/* Slurm node names that have no place in the tree, as a hostlist. */
static void report_missing(const tpl_nodemap *m, const char *topo_file)
{
	hostlist_t hl = hostlist_create(NULL);
	for (int i = 0; i < m->nslurm; i++) {
		node_record_t *n = node_record_table_ptr[i];
		if (n && n->name && m->to_topo[i] < 0)
			hostlist_push_host(hl, n->name);
	}
	char *names = hostlist_ranged_string_xmalloc(hl);
	error("%s: %d node(s) of slurm.conf are not in %s: %s (every node needs its place in the tree)",
	      plugin_type, m->nmissing, topo_file, names);
	xfree(names);
	hostlist_destroy(hl);
}

/* Build the Slurm <-> tree map for the current node table. */
static int map_nodes(void)
{
	const char **names = xcalloc(node_record_count + 1, sizeof(char *));
	tpl_nodemap m;
	tp_error err = { { 0 } };
	int rc = SLURM_SUCCESS;

	for (int i = 0; i < node_record_count; i++)
		if (node_record_table_ptr[i])
			names[i] = node_record_table_ptr[i]->name;
	if (tpl_nodemap_build(&m, names, node_record_count, state.tree,
			      tp_fattree_nnodes(state.tree),
			      ft_state_node_index, &err)) {
		error("%s: %s: %s", plugin_type, state.cfg.topology_file,
		      err.msg);
		rc = SLURM_ERROR;
	} else if (m.nmissing) {
		report_missing(&m, state.cfg.topology_file);
		tpl_nodemap_fini(&m);
		rc = SLURM_ERROR;
	} else {
		if (m.nunused)
			info("%s: %d node(s) of %s are not in slurm.conf; they are never chosen",
			     plugin_type, m.nunused, state.cfg.topology_file);
		if (mapped)
			tpl_nodemap_fini(&nodemap);
		nodemap = m;
		mapped = true;
	}
	xfree(names);
	return rc;
}

extern int init(void)
{
	if (tpl_linear_load(&linear))
		return SLURM_ERROR;
	if (!running_in_slurmctld() ||
	    xstrcmp(slurm_conf.select_type, plugin_type))
		return SLURM_SUCCESS;

	if (load_state(&state) != SLURM_SUCCESS) {
		tpl_linear_unload(&linear);
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
	tpl_linear_unload(&linear);
	return SLURM_SUCCESS;
}

/* ---- operations with our own part -------------------------------- */

extern int select_p_node_init(void)
{
	int rc = linear.ops.node_init();

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
	int rc = linear.ops.reconfigure();
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
		return linear.ops.job_test(job_ptr, bitmap, min_nodes,
					   max_nodes, req_nodes, mode,
					   preemptee_candidates,
					   preemptee_job_list,
					   exc_core_bitmap);
	slurm_mutex_lock(&state_lock);
	ft_ctx ctx = {
		.st = &state,
		.map = &nodemap,
		.linear = &linear,
		.job_list = ctld_job_list,
	};
	rc = ft_job_test(&ctx, job_ptr, bitmap, min_nodes, max_nodes,
			 req_nodes, mode, preemptee_candidates,
			 preemptee_job_list, exc_core_bitmap);
	slurm_mutex_unlock(&state_lock);
	return rc;
}

/* ---- everything else is select/linear's --------------------------- */

extern int select_p_state_save(char *dir_name)
{
	return linear.ops.state_save(dir_name);
}

extern int select_p_state_restore(char *dir_name)
{
	return linear.ops.state_restore(dir_name);
}

extern int select_p_job_init(List job_list)
{
	return linear.ops.job_init(job_list);
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	return linear.ops.job_begin(job_ptr);
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	return linear.ops.job_ready(job_ptr);
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	return linear.ops.job_expand(from_job_ptr, to_job_ptr);
}

extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	return linear.ops.job_resized(job_ptr, node_ptr);
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return linear.ops.job_signal(job_ptr, signal);
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	return linear.ops.job_fini(job_ptr);
}

extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	return linear.ops.job_suspend(job_ptr, indf_susp);
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	return linear.ops.job_resume(job_ptr, indf_susp);
}

extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	return linear.ops.step_pick_nodes(job_ptr, jobinfo, node_count,
					  avail_nodes);
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	return linear.ops.step_start(step_ptr);
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	return linear.ops.step_finish(step_ptr, killing_step);
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	return linear.ops.nodeinfo_pack(nodeinfo, buffer, protocol_version);
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	return linear.ops.nodeinfo_unpack(nodeinfo, buffer, protocol_version);
}

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	return linear.ops.nodeinfo_alloc();
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	return linear.ops.nodeinfo_free(nodeinfo);
}

extern int select_p_select_nodeinfo_set_all(void)
{
	return linear.ops.nodeinfo_set_all();
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	return linear.ops.nodeinfo_set(job_ptr);
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state,
					void *data)
{
	return linear.ops.nodeinfo_get(nodeinfo, dinfo, state, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	return linear.ops.jobinfo_alloc();
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	return linear.ops.jobinfo_free(jobinfo);
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return linear.ops.jobinfo_set(jobinfo, data_type, data);
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return linear.ops.jobinfo_get(jobinfo, data_type, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(select_jobinfo_t *jobinfo)
{
	return linear.ops.jobinfo_copy(jobinfo);
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	return linear.ops.jobinfo_pack(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	return linear.ops.jobinfo_unpack(jobinfo, buffer, protocol_version);
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	return linear.ops.jobinfo_sprint(jobinfo, buf, size, mode);
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	return linear.ops.jobinfo_xstrdup(jobinfo, mode);
}

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	return linear.ops.get_info_from_plugin(dinfo, job_ptr, data);
}

extern int select_p_update_node_config(int index)
{
	return linear.ops.update_node_config(index);
}

extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt,
				    bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	return linear.ops.resv_test(resv_desc_ptr, node_cnt, avail_bitmap,
				    core_bitmap);
}
