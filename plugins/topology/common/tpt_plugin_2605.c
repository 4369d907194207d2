/*
 * tpt_plugin_2605.c - Slurm 26.05's topology plugin operations, shared by
 * topology/fattree and topology/torus; see tpt_ops.h (24.11's are
 * tpt_plugin_2411.c).
 *
 * 26.05 loads the 26 symbols of src/interfaces/topology.c (syms[]).  Most
 * operations get a topology context: the whole topology_ctx_t (build,
 * destroy, add_rm_node, node ranking, get_topology_str, and
 * topology_eval_t's tctx) or only its plugin_ctx (the others).  With no
 * topology.yaml a TopologyPlugin= plugin gets one context, "default",
 * whose plugin_ctx it owns: ours is a tpt_state (the machine and its map
 * onto the node table), NULL until build_config (slurmctld, slurmd) and in
 * programs that never build it (clients, slurmstepd), where every
 * operation answers as topology/tree does with no switches.  These
 * functions have no prototypes in Slurm's headers: each signature is the
 * one of 26.05's topology/tree (topology_tree.c), checked against the ops
 * table of src/interfaces/topology.c.
 */
#include "tpt_ops.h"

#include <pthread.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/interfaces/topology.h"
#include "src/plugins/topology/common/common_topo.h"
#include "src/plugins/topology/common/eval_nodes.h"

#include "tpt_eval.h"
#include "tpt_route.h"

/* --exclusive=topo: not offered, as by topology/tree (whole_topo still
 * answers for ExclusiveTopo partitions when another plugin offers it). */
const bool supports_exclusive_topo = false;

/* One plugin per .so: this file is linked into each. */
static const tpt_ops *const ops = &tpt_plugin;
/* build/destroy against `scontrol show topology` (get) */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;

static tpt_state *state_of(topology_ctx_t *tctx)
{
	return tctx ? tctx->plugin_ctx : NULL;
}

static bool loaded(const tpt_state *s)
{
	return s && s->loaded;
}

extern int init(void)
{
	debug("%s loaded", ops->plugin_type);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	return SLURM_SUCCESS;
}

/*
 * slurmctld (at start; reconfigure restarts it) and slurmd: the machine
 * from its files, mapped onto the node table, into the context's
 * plugin_ctx.  Bad input stops the daemon with the file, line and value,
 * as topology/tree stops on a bad topology.conf.
 */
extern int topology_p_build_config(topology_ctx_t *tctx)
{
	if (!node_record_count)
		return SLURM_SUCCESS;
	slurm_mutex_lock(&state_lock);
	if (!tctx->plugin_ctx)
		tctx->plugin_ctx = xmalloc(sizeof(tpt_state));
	tpt_state_build(tctx->plugin_ctx, ops);
	slurm_mutex_unlock(&state_lock);
	return SLURM_SUCCESS;
}

extern int topology_p_destroy_config(topology_ctx_t *tctx)
{
	slurm_mutex_lock(&state_lock);
	if (tctx->plugin_ctx)
		tpt_state_fini(tctx->plugin_ctx);
	xfree(tctx->plugin_ctx);
	slurm_mutex_unlock(&state_lock);
	return SLURM_SUCCESS;
}

/*
 * Topology= of a node (slurm.conf, scontrol update, dynamic nodes): the
 * machine is the one of its files, so a node keeps its place.  A unit
 * naming the node's own place ("s2:s1:s0", ":torus:" coordinates as
 * get_topology_str writes them) is accepted, any other refused (edit
 * topology.conf / torus.conf and restart slurmctld instead).  No unit
 * (remove the node from the topology): nothing to do; a node the files
 * lack is never chosen by the allocator.
 */
extern int topology_p_add_rm_node(node_record_t *node_ptr, char *unit,
				  topology_ctx_t *tctx)
{
	tpt_state *s = state_of(tctx);
	char *place = NULL;
	int i, rc = SLURM_SUCCESS;

	if (!unit || !unit[0])
		return SLURM_SUCCESS;
	if (!loaded(s)) {
		/* no machine here (slurmctld checks slurm.conf's
		 * Topology= after build_config): nothing to check against */
		info("%s: Topology=%s of %s ignored: the %s comes from its file",
		     ops->plugin_type, unit, node_ptr->name,
		     tp_topo_kind_name(ops->kind));
		return SLURM_SUCCESS;
	}
	i = tpt_state_topo_index(s, node_ptr->index);
	if (i >= 0)
		ops->place(&s->topo, i, &place);
	if (!place || xstrcmp(place + 1, unit)) {
		error("%s: Topology=%s for %s: the node's place is %s in the %s of %s; edit that file and restart slurmctld to move it",
		      ops->plugin_type, unit, node_ptr->name,
		      place ? place + 1 : "none", tp_topo_kind_name(ops->kind),
		      s->topo.topology ? s->topo.topology :
		      s->topo.conf ? s->topo.conf : "its file");
		rc = SLURM_ERROR;
	}
	xfree(place);
	return rc;
}

/*
 * Single-node jobs: with a machine loaded, our allocator places them too
 * (cons_tres's one-node fast path would pick any node that fits and cut
 * into free leaf units or torus boxes), so no fast path: they go through
 * eval_nodes, where a job that shares its node still gets Slurm's own
 * best fit (tpt_eval.h).  No machine: the fast path, as topology/tree.
 */
extern bool topology_p_allow_one_node(void *tctx)
{
	return !loaded(tctx);
}

/* The fast path's test of one node (only with no machine): Slurm's. */
extern int topology_p_eval_node(topology_eval_t *topo_eval, int node_idx)
{
	return common_test_node(topo_eval, node_idx);
}

/* Slurm's own choice (cores, memory, GRES; consecutive fit, spread,
 * busy-first or LLN as configured) on topo_eval's node_map. */
static int slurm_choice(topology_eval_t *e)
{
	int (*fn)(topology_eval_t *) = e->eval_nodes;
	bool trump = e->trump_others;
	int rc;

	e->eval_nodes = NULL;
	e->trump_others = false;
	rc = eval_nodes(e);
	e->eval_nodes = fn;
	e->trump_others = trump;
	return rc;
}

/*
 * The eval_nodes callback, alone (trump_others) inside Slurm's
 * common_topo_choose_nodes(): our allocator narrows node_map to its
 * choice, then Slurm's eval_nodes() picks cores inside it.  26.05 no
 * longer falls back from a trump_others callback that answers
 * ESLURM_NOT_SUPPORTED (a permanent error there), so the callback calls
 * Slurm's selection itself.  No placement: an error that retrying with
 * fewer nodes cannot mend (EVAL_ACTION_BREAK).  A failure of Slurm's own
 * selection inside our nodes keeps the action it set, so
 * common_topo_choose_nodes() retries without the nodes short of
 * resources, and we place again among the rest.
 */
static int eval_callback(topology_eval_t *e)
{
	switch (tpt_eval_choose(state_of(e->tctx), ops, e)) {
	case TPT_WAIT:
	case TPT_NO_FABRIC: /* 26.05's topology/tree: insufficient resources */
		e->eval_action = EVAL_ACTION_BREAK;
		return SLURM_ERROR;
	case TPT_CHOSEN:
	case TPT_SLURM:
		break;
	}
	return slurm_choice(e);
}

/* cons_tres, every mode (run now, test only, will run). */
extern int topology_p_eval_nodes(topology_eval_t *topo_eval)
{
	if (loaded(state_of(topo_eval->tctx))) {
		topo_eval->eval_nodes = eval_callback;
		topo_eval->trump_others = true;
	} else {
		topo_eval->eval_nodes = NULL;
		topo_eval->trump_others = false;
	}
	return common_topo_choose_nodes(topo_eval);
}

/* --exclusive=topo and ExclusiveTopo: a fat tree's whole leaf switches;
 * a torus has no such unit (the mask stays). */
extern int topology_p_whole_topo(bitstr_t *node_mask, void *tctx)
{
	tpt_state_whole_topo(tctx, node_mask);
	return SLURM_SUCCESS;
}

/* Task ranks of a step (job_test, unless SelectTypeParameters has
 * NO_DIST_TOPO_BLOCK): the node's unit << TOPO_RANK_ID_SHIFT plus its
 * order in the unit (tpt_ops.h: rank).  No machine: no ranks. */
extern int topology_p_get_rank(bitstr_t *node_bitmap, uint32_t **node_rank,
			       uint32_t *size, void *tctx)
{
	tpt_state *s = tctx;
	uint32_t count, n = 0;

	*node_rank = NULL;
	*size = 0;
	if (!node_bitmap || !loaded(s) || !(count = bit_set_count(node_bitmap)))
		return SLURM_SUCCESS;
	*node_rank = xcalloc(count, sizeof(**node_rank));
	*size = count;
	for (int i = 0; next_node_bitmap(node_bitmap, &i); i++) {
		int j = tpt_state_topo_index(s, i);
		uint32_t unit = 0, order = 0;
		if (j >= 0)
			ops->rank(&s->topo, j, &unit, &order);
		(*node_rank)[n++] = (unit << TOPO_RANK_ID_SHIFT) |
				    (order & ((1u << TOPO_RANK_ID_SHIFT) - 1));
	}
	return SLURM_SUCCESS;
}

/* The nodes of switch `name` (hostlist function switch{name}); not to be
 * freed by the caller. */
extern bitstr_t *topology_p_get_bitmap(char *name, void *tctx)
{
	return tpt_state_bitmap(tctx, name);
}

/*
 * TopologyParam=SwitchAsNodeRank (fat tree): every node's node_rank is its
 * leaf switch (from 1), so slurmctld orders its node table by leaf, as
 * topology/tree does.  Called before build_config: the machine is loaded
 * for this and dropped again.  A torus has no switches: false.
 */
extern bool topology_p_generate_node_ranking(topology_ctx_t *tctx)
{
	tpt_state tmp = { 0 };

	if (ops->kind != TP_TOPO_FATTREE ||
	    !xstrcasestr(slurm_conf.topology_param, "SwitchAsNodeRank"))
		return false;
	tpt_state_build(&tmp, ops);
	if (!tmp.loaded)
		return false;
	for (int n = 0; n < node_record_count; n++) {
		int j = tpt_state_topo_index(&tmp, n);
		uint32_t unit = 0, order = 0;
		if (!node_record_table_ptr[n] || j < 0)
			continue;
		ops->rank(&tmp.topo, j, &unit, &order);
		node_record_table_ptr[n]->node_rank = unit;
		debug("node=%s rank=%u", node_record_table_ptr[n]->name, unit);
	}
	tpt_state_fini(&tmp);
	return true;
}

/* "s2.s1.s0.n3" / "switch.switch.switch.node" on a fat tree; the node's
 * name ("node") otherwise or with no machine. */
extern int topology_p_get_node_addr(char *node_name, char **addr,
				    char **pattern, void *tctx)
{
	if (!tpt_state_node_addr(tctx, ops, node_name, addr, pattern))
		return SLURM_SUCCESS;
	return common_topo_get_node_addr(node_name, addr, pattern);
}

/* Message fan-out: along the fat tree with TopologyParam=RouteTree
 * (tpt_route.h), else TreeWidth (a torus, or no machine). */
extern int topology_p_split_hostlist(hostlist_t *hl, hostlist_t ***sp_hl,
				     int *count, uint16_t tree_width,
				     void *tctx)
{
	if (common_topo_route_tree() && loaded(tctx))
		return tpt_route_split(tctx, hl, sp_hl, count, tree_width);
	return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
						    tree_width);
}

extern int topology_p_get(topology_data_t type, void *data, void *tctx)
{
	tpt_state *s = tctx;

	switch (type) {
	case TOPO_DATA_TOPOLOGY_PTR: {
		dynamic_plugin_data_t **pp = data;
		slurm_mutex_lock(&state_lock);
		tpt_info *info = tpt_state_info(s, ops);
		slurm_mutex_unlock(&state_lock);
		*pp = xmalloc(sizeof(dynamic_plugin_data_t));
		(*pp)->data = info;
		(*pp)->plugin_id = ops->plugin_id;
		return SLURM_SUCCESS;
	}
	case TOPO_DATA_REC_CNT: {
		const tp_fattree *tree = loaded(s) ? s->topo.tree : NULL;
		*(int *)data = tree ? tree->nswitch : 0;
		return SLURM_SUCCESS;
	}
	case TOPO_DATA_EXCLUSIVE_TOPO:
		*(int *)data = 0;
		return SLURM_SUCCESS;
	default:
		break;
	}
	error("%s: unsupported topology data %d", ops->plugin_type, type);
	return SLURM_ERROR;
}

extern int topology_p_topoinfo_free(void *topoinfo_ptr)
{
	tpt_info_free(topoinfo_ptr);
	return SLURM_SUCCESS;
}

extern int topology_p_topoinfo_pack(void *topoinfo_ptr, buf_t *buffer,
				    uint16_t protocol_version)
{
	tpt_info empty = { 0 };
	tpt_info_pack(topoinfo_ptr ? topoinfo_ptr : &empty, buffer);
	return SLURM_SUCCESS;
}

extern int topology_p_topoinfo_print(void *topoinfo_ptr, char *nodes_list,
				     char *unit, char **out)
{
	tpt_info_print_match(topoinfo_ptr, nodes_list, unit, out);
	return SLURM_SUCCESS;
}

extern int topology_p_topoinfo_unpack(void **topoinfo_pptr, buf_t *buffer,
				      uint16_t protocol_version)
{
	*topoinfo_pptr = tpt_info_unpack(buffer);
	return *topoinfo_pptr ? SLURM_SUCCESS : SLURM_ERROR;
}

/* Per-job topology data: none, as topology/tree (the job's nodes say all
 * there is). */
extern void topology_p_jobinfo_free(void *topo_jobinfo)
{
	return;
}

extern void topology_p_jobinfo_pack(void *topo_jobinfo, buf_t *buffer,
				    uint16_t protocol_version)
{
	return;
}

extern int topology_p_jobinfo_unpack(void **topo_jobinfo, buf_t *buffer,
				     uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern int topology_p_jobinfo_get(topology_jobinfo_type_t type,
				  void *topo_jobinfo, void *data)
{
	return ESLURM_NOT_SUPPORTED;
}

/* backfill's bf_topopt oracle: the core's measure (topo.h); topology/tree
 * answers 0. */
extern uint32_t topology_p_get_fragmentation(bitstr_t *node_mask, void *tctx)
{
	return tpt_state_fragmentation(tctx, node_mask);
}

/* Topology= of `scontrol show node`: "default:s2:s1:s0" on a fat tree (the
 * switches from the top down, as topology/tree), "default:torus:1.2.0" on
 * a torus; appended after a comma to what other contexts wrote. */
extern void topology_p_get_topology_str(node_record_t *node_ptr,
					char **topology_str_ptr,
					topology_ctx_t *tctx)
{
	tpt_state *s = state_of(tctx);
	char *place = NULL;
	int i = tpt_state_topo_index(s, node_ptr->index);

	if (i < 0)
		return;
	ops->place(&s->topo, i, &place);
	if (place)
		xstrfmtcat(*topology_str_ptr, "%s%s%s",
			   *topology_str_ptr ? "," : "", tctx->name, place);
	xfree(place);
}
