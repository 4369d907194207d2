/*
 * tpt_plugin.c - Slurm 24.11's topology plugin operations, shared by
 * topology/fattree and topology/torus; see tpt_plugin.h.
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

#include "tpl_nodetable.h"
#include "tpt_eval.h"

/* One plugin per .so: this file is linked into each. */
static const tpt_ops *const ops = &tpt_plugin;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static tpt_state state;
static bool loaded;

static void unload(void)
{
	for (int i = 0; i < state.ngroup_bits; i++)
		FREE_NULL_BITMAP(state.group_bits[i]);
	xfree(state.group_bits);
	if (loaded) {
		tpl_nodemap_fini(&state.map);
		tp_topo_fini(&state.topo);
	}
	memset(&state, 0, sizeof(state));
	loaded = false;
}

/* Each switch's nodes in Slurm's indices (get_bitmap, whole_topo). */
static void build_group_bits(void)
{
	const tp_fattree *tree = state.topo.tree;
	if (!tree)
		return;
	state.ngroup_bits = tree->nswitch;
	state.group_bits = xcalloc(tree->nswitch, sizeof(bitstr_t *));
	for (int s = 0; s < tree->nswitch; s++)
		state.group_bits[s] = bit_alloc(node_record_count);
	for (int i = 0; i < node_record_count; i++) {
		int j = state.map.to_topo[i];
		if (j < 0)
			continue;
		for (int s = tree->node_leaf[j]; s >= 0; s = tree->sw[s].parent)
			bit_set(state.group_bits[s], i);
	}
}

extern int init(void)
{
	debug("%s loaded", ops->plugin_type);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	slurm_mutex_lock(&state_lock);
	unload();
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
	tpt_state fresh = { 0 };

	if (!node_record_count)
		return SLURM_SUCCESS;
	if (tpl_topo_load(&fresh.topo, ops->kind, -1, ops->plugin_type))
		fatal("%s: cannot load the %s (the error above names the file, line and value)",
		      ops->plugin_type, tp_topo_kind_name(ops->kind));
	if (tpl_topo_map(&fresh.map, &fresh.topo, ops->plugin_type))
		fatal("%s: slurm.conf's nodes do not fit the %s (see the error above)",
		      ops->plugin_type, tp_topo_kind_name(ops->kind));
	slurm_mutex_lock(&state_lock);
	unload();
	state = fresh;
	loaded = true;
	build_group_bits();
	slurm_mutex_unlock(&state_lock);
	char line[512];
	ops->loaded_line(&state.topo, line, sizeof(line));
	info("%s: %s", ops->plugin_type, line);
	return SLURM_SUCCESS;
}

/* cons_tres, every mode: our allocator narrows, Slurm picks cores. */
extern int topology_p_eval_nodes(topology_eval_t *topo_eval)
{
	if (loaded) {
		tpt_eval_bind(&state, ops);
		topo_eval->eval_nodes = tpt_eval;
		topo_eval->trump_others = true;
	}
	return common_topo_choose_nodes(topo_eval);
}

/* --exclusive=topo and ExclusiveTopo: a fat tree's whole leaf switches;
 * a torus has no such unit (the mask stays). */
extern int topology_p_whole_topo(bitstr_t *node_mask)
{
	const tp_fattree *tree = loaded ? state.topo.tree : NULL;
	if (!tree)
		return SLURM_SUCCESS;
	for (int l = 0; l < tree->nleaf; l++) {
		bitstr_t *b = state.group_bits[tree->leaves[l]];
		if (bit_overlap_any(b, node_mask))
			bit_or(node_mask, b);
	}
	return SLURM_SUCCESS;
}

/* The nodes of switch `name` (hostlist function switch{name}); not to be
 * freed by the caller. */
extern bitstr_t *topology_p_get_bitmap(char *name)
{
	const tp_fattree *tree = loaded ? state.topo.tree : NULL;
	if (!tree || !name)
		return NULL;
	int s = tp_fattree_switch_index(tree, name);
	return s >= 0 && s < state.ngroup_bits ? state.group_bits[s] : NULL;
}

extern bool topology_p_generate_node_ranking(void)
{
	return false;
}

extern int topology_p_get_node_addr(char *node_name, char **addr,
				    char **pattern)
{
	int i = loaded ? tp_topo_node_index(&state.topo, node_name) : -1;
	if (i >= 0 && ops->node_addr &&
	    ops->node_addr(&state.topo, i, addr, pattern) == 0)
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
		tpt_info *info = xmalloc(sizeof(*info));
		slurm_mutex_lock(&state_lock);
		if (loaded)
			ops->records(&state.topo, info);
		slurm_mutex_unlock(&state_lock);
		*pp = xmalloc(sizeof(dynamic_plugin_data_t));
		(*pp)->data = info;
		(*pp)->plugin_id = ops->plugin_id;
		return SLURM_SUCCESS;
	}
	case TOPO_DATA_REC_CNT: {
		const tp_fattree *tree = loaded ? state.topo.tree : NULL;
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
	tp_nodeset free;
	uint64_t f = 0;

	if (!loaded || state.map.nslurm != bit_size(node_mask) ||
	    tp_nodeset_init(&free, state.map.ntopo))
		return 0;
	tpl_bits_to_set(&state.map, node_mask, &free);
	f = tp_topo_fragmentation(&state.topo, &free);
	tp_nodeset_fini(&free);
	return f > UINT32_MAX ? UINT32_MAX : (uint32_t)f;
}
