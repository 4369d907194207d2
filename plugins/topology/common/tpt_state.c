/*
 * tpt_state.c - the machine of a topology plugin and its map onto Slurm's
 * node table, and the answers that need nothing else (switch bitmaps,
 * message addresses, fragmentation, `scontrol show topology`); the same
 * on every release.  See tpt_ops.h.
 */
#include "tpt_ops.h"

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "tpl_nodetable.h"

/* Each switch's nodes in Slurm's indices (get_bitmap, whole_topo). */
static void build_group_bits(tpt_state *s)
{
	const tp_fattree *tree = s->topo.tree;
	if (!tree)
		return;
	s->ngroup_bits = tree->nswitch;
	s->group_bits = xcalloc(tree->nswitch, sizeof(bitstr_t *));
	for (int i = 0; i < tree->nswitch; i++)
		s->group_bits[i] = bit_alloc(s->map.nslurm);
	for (int i = 0; i < s->map.nslurm; i++) {
		int j = s->map.to_topo[i];
		if (j < 0 || j >= s->topo.ninside) /* outside every switch */
			continue;
		for (int w = tree->node_leaf[j]; w >= 0; w = tree->sw[w].parent)
			bit_set(s->group_bits[w], i);
	}
}

void tpt_state_fini(tpt_state *s)
{
	for (int i = 0; i < s->ngroup_bits; i++)
		FREE_NULL_BITMAP(s->group_bits[i]);
	xfree(s->group_bits);
	if (s->loaded) {
		tpl_nodemap_fini(&s->map);
		tp_topo_fini(&s->topo);
	}
	memset(s, 0, sizeof(*s));
}

void tpt_state_build(tpt_state *s, const tpt_ops *ops)
{
	tpt_state fresh = { 0 };
	char line[512];

	if (!node_record_count)
		return;
	if (tpl_topo_load(&fresh.topo, ops->kind, -1, ops->plugin_type))
		fatal("%s: cannot load the %s (the error above names the file, line and value)",
		      ops->plugin_type, tp_topo_kind_name(ops->kind));
	if (tpl_topo_map(&fresh.map, &fresh.topo, ops->plugin_type))
		fatal("%s: slurm.conf's nodes do not fit the %s (see the error above)",
		      ops->plugin_type, tp_topo_kind_name(ops->kind));
	fresh.loaded = true;
	build_group_bits(&fresh);
	tpt_state_fini(s);
	*s = fresh;
	ops->loaded_line(&s->topo, line, sizeof(line));
	info("%s: %s", ops->plugin_type, line);
}

int tpt_state_topo_index(const tpt_state *s, int slurm_index)
{
	if (!s || !s->loaded || slurm_index < 0 ||
	    slurm_index >= s->map.nslurm)
		return -1;
	int j = s->map.to_topo[slurm_index];
	return j < s->topo.ninside ? j : -1;
}

void tpt_state_whole_topo(const tpt_state *s, bitstr_t *mask)
{
	const tp_fattree *tree = s && s->loaded ? s->topo.tree : NULL;
	if (!tree || bit_size(mask) != s->map.nslurm)
		return;
	for (int l = 0; l < tree->nleaf; l++) {
		bitstr_t *b = s->group_bits[tree->leaves[l]];
		if (bit_overlap_any(b, mask))
			bit_or(mask, b);
	}
}

bitstr_t *tpt_state_bitmap(const tpt_state *s, const char *name)
{
	const tp_fattree *tree = s && s->loaded ? s->topo.tree : NULL;
	if (!tree || !name)
		return NULL;
	int w = tp_fattree_switch_index(tree, name);
	return w >= 0 && w < s->ngroup_bits ? s->group_bits[w] : NULL;
}

int tpt_state_node_addr(const tpt_state *s, const tpt_ops *ops,
			const char *name, char **addr, char **pattern)
{
	int i = s && s->loaded ? tp_topo_node_index(&s->topo, name) : -1;
	if (i < 0 || i >= s->topo.ninside || !ops->node_addr)
		return -1;
	return ops->node_addr(&s->topo, i, addr, pattern);
}

uint32_t tpt_state_fragmentation(const tpt_state *s, bitstr_t *mask)
{
	tp_nodeset free;
	uint64_t f;

	if (!s || !s->loaded || !mask || s->map.nslurm != bit_size(mask) ||
	    tp_nodeset_init(&free, s->map.ntopo))
		return 0;
	tpl_bits_to_set(&s->map, mask, &free);
	f = tp_topo_fragmentation(&s->topo, &free);
	tp_nodeset_fini(&free);
	return f > UINT32_MAX ? UINT32_MAX : (uint32_t)f;
}

tpt_info *tpt_state_info(const tpt_state *s, const tpt_ops *ops)
{
	tpt_info *info = xmalloc(sizeof(*info));
	if (s && s->loaded)
		ops->records(&s->topo, info);
	return info;
}
