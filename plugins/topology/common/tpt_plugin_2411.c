/*
 * tpt_plugin_2411.c - Slurm 24.11's topology plugin operations, shared by
 * topology/fattree and topology/torus; see tpt_ops.h.  26.05's are
 * tpt_plugin_2605.c.
 */
#include "tpt_ops.h"

#include <pthread.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/interfaces/topology.h"
#include "src/plugins/topology/common/common_topo.h"

#include "tpt_eval.h"

/* One plugin per .so: this file is linked into each. */
static const tpt_ops *const ops = &tpt_plugin;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static tpt_state state;

/*
 * 24.11's eval_nodes callback (set with trump_others): narrow node_map
 * to our choice and return ESLURM_NOT_SUPPORTED, so that Slurm's own
 * consecutive fit picks cores and GRES inside it.  Slurm's eval_nodes()
 * calls the callback a second time for the same narrowed map before that
 * fit: it answers the same way without placing again.
 */
static __thread const topology_eval_t *narrowed_eval;
static __thread bitstr_t *narrowed_map;

static bool asked_again(const topology_eval_t *e)
{
	return narrowed_eval == e && narrowed_map &&
	       bit_size(narrowed_map) == bit_size(e->node_map) &&
	       bit_equal(narrowed_map, e->node_map);
}

static int eval_callback(topology_eval_t *e)
{
	if (asked_again(e))
		return ESLURM_NOT_SUPPORTED;
	switch (tpt_eval_choose(&state, ops, e)) {
	case TPT_CHOSEN:
		FREE_NULL_BITMAP(narrowed_map);
		narrowed_map = bit_copy(e->node_map);
		narrowed_eval = e;
		return ESLURM_NOT_SUPPORTED; /* Slurm picks cores inside */
	case TPT_WAIT:
		return SLURM_ERROR;
	case TPT_NO_FABRIC:
		/* topology/tree's answer when no switch holds the job; at
		 * submission slurmctld reports this code */
		return ESLURM_REQUESTED_TOPO_CONFIG_UNAVAILABLE;
	case TPT_SLURM:
		break;
	}
	return ESLURM_NOT_SUPPORTED;
}

extern int init(void)
{
	debug("%s loaded", ops->plugin_type);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	slurm_mutex_lock(&state_lock);
	tpt_state_fini(&state);
	slurm_mutex_unlock(&state_lock);
	return SLURM_SUCCESS;
}

/*
 * slurmctld (at start and on reconfigure, which restarts it in 24.11) and
 * slurmd: the machine from its files, mapped onto the node table.  Bad
 * input stops the daemon with the file, line and value, as topology/tree
 * stops on a bad topology.conf: a controller must not run on a topology
 * it does not have.
 */
extern int topology_p_build_config(void)
{
	slurm_mutex_lock(&state_lock);
	tpt_state_build(&state, ops);
	slurm_mutex_unlock(&state_lock);
	return SLURM_SUCCESS;
}

/* cons_tres, every mode: our allocator narrows, Slurm picks cores. */
extern int topology_p_eval_nodes(topology_eval_t *topo_eval)
{
	if (state.loaded) {
		topo_eval->eval_nodes = eval_callback;
		topo_eval->trump_others = true;
	}
	return common_topo_choose_nodes(topo_eval);
}

/* --exclusive=topo and ExclusiveTopo: a fat tree's whole leaf switches;
 * a torus has no such unit (the mask stays). */
extern int topology_p_whole_topo(bitstr_t *node_mask)
{
	tpt_state_whole_topo(&state, node_mask);
	return SLURM_SUCCESS;
}

/* The nodes of switch `name` (hostlist function switch{name}); not to be
 * freed by the caller. */
extern bitstr_t *topology_p_get_bitmap(char *name)
{
	return tpt_state_bitmap(&state, name);
}

extern bool topology_p_generate_node_ranking(void)
{
	return false;
}

extern int topology_p_get_node_addr(char *node_name, char **addr,
				    char **pattern)
{
	if (!tpt_state_node_addr(&state, ops, node_name, addr, pattern))
		return SLURM_SUCCESS;
	return common_topo_get_node_addr(node_name, addr, pattern);
}

extern int topology_p_split_hostlist(hostlist_t *hl, hostlist_t ***sp_hl,
				     int *count, uint16_t tree_width)
{
	return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
						    tree_width);
}

extern int topology_p_topology_free(void *topoinfo_ptr)
{
	tpt_info_free(topoinfo_ptr);
	return SLURM_SUCCESS;
}

extern int topology_p_get(topology_data_t type, void *data)
{
	switch (type) {
	case TOPO_DATA_TOPOLOGY_PTR: {
		dynamic_plugin_data_t **pp = data;
		slurm_mutex_lock(&state_lock);
		tpt_info *info = tpt_state_info(&state, ops);
		slurm_mutex_unlock(&state_lock);
		*pp = xmalloc(sizeof(dynamic_plugin_data_t));
		(*pp)->data = info;
		(*pp)->plugin_id = ops->plugin_id;
		return SLURM_SUCCESS;
	}
	case TOPO_DATA_REC_CNT: {
		const tp_fattree *tree = state.loaded ? state.topo.tree : NULL;
		*(int *)data = tree ? tree->nswitch : 0;
		return SLURM_SUCCESS;
	}
	case TOPO_DATA_EXCLUSIVE_TOPO:
		*(int *)data = 0;
		return SLURM_SUCCESS;
	}
	error("%s: unsupported topology data %d", ops->plugin_type, type);
	return SLURM_ERROR;
}

extern int topology_p_topology_pack(void *topoinfo_ptr, buf_t *buffer,
				    uint16_t protocol_version)
{
	tpt_info empty = { 0 };
	tpt_info_pack(topoinfo_ptr ? topoinfo_ptr : &empty, buffer);
	return SLURM_SUCCESS;
}

extern int topology_p_topology_print(void *topoinfo_ptr, char *nodes_list,
				     char **out)
{
	tpt_info_print(topoinfo_ptr, nodes_list, out);
	return SLURM_SUCCESS;
}

extern int topology_p_topology_unpack(void **topoinfo_pptr, buf_t *buffer,
				      uint16_t protocol_version)
{
	*topoinfo_pptr = tpt_info_unpack(buffer);
	return *topoinfo_pptr ? SLURM_SUCCESS : SLURM_ERROR;
}

/* backfill's bf_topopt oracle: the core's measure (topo.h). */
extern uint32_t topology_p_get_fragmentation(bitstr_t *node_mask)
{
	return tpt_state_fragmentation(&state, node_mask);
}
