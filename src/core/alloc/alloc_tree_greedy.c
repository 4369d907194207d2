/*
 * alloc_tree_greedy.c - "tree-greedy": the Slurm 22.05 baseline, a
 * re-implementation of what Slurm 22.05 does with
 * TopologyPlugin=topology/tree, at node granularity.  Slurm's choice since
 * 24.05 (ancestors' counts drop as leaves are used, a closer leaf must fit)
 * is "tree-slurm" (alloc_tree_slurm.c); this one stays as the older
 * baseline the published comparisons used.
 *
 * Re-implemented: _eval_nodes_topo() of select/cons_tres (22.05.8,
 * src/plugins/select/cons_tres/job_test.c) with its helpers
 * _topo_choose_best_switch(), _topo_compare_switches() and
 * _topo_add_dist(), and the switch distances of topology/tree
 * (switches_dist: edges on the tree path, by Floyd-Warshall there, by the
 * lowest common ancestor here), for a job that asks for N whole nodes,
 * with no required nodes, equal node weights and one CPU per node:
 *   1. count the free nodes under every switch;
 *   2. "top switch": the highest-level switch with >= N free nodes (ties:
 *      the last one in file order, as Slurm's >= does); only nodes below it
 *      are considered (switches outside its subtree count 0, its ancestors
 *      count what it counts);
 *   3. repeatedly pick a leaf switch with free nodes: the one with the least
 *      accumulated distance to the leaves already picked whose "fit" is not
 *      worse, or at equal distance a strictly better fit.  Fit compares two
 *      leaves: if both hold the remaining need, fewer free nodes wins (best
 *      fit); if one does, it wins; if neither, compare their parents the
 *      same way, climbing while the parents differ; when that ends
 *      undecided, more free nodes wins, then the lower level.  Counts of
 *      inner switches are those of step 1 (Slurm does not update them);
 *   4. take the picked leaf's free nodes in index order until N are taken.
 * Disjoint trees (fabrics, fattree.h) are never combined, as in Slurm:
 * the model's virtual root is no top switch, so a job larger than every
 * tree is refused.  Deviation, for trees Slurm itself handles badly: the
 * parent climb stops at
 * the root (22.05 follows parent index 0 there, harmless only when leaves
 * are at equal depth).  select/linear's _job_test_topo() differs (lowest
 * level best-fit switch, then leaves with the fewest free CPUs first); it
 * is not what cons_tres, the usual SelectType, does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"
#include "alloc/tree_fit.h"
#include "topology/fattree.h"

typedef struct tg_alloc {
	const tp_fattree *t;
	int *cnt;     /* [nswitch] free nodes under a switch (step 1) */
	long *dist;   /* [nswitch] accumulated distance (leaves only) */
} tg_alloc;

static void count_free(tg_alloc *st, const tp_nodeset *free)
{
	const tp_fattree *t = st->t;
	for (int q = 0; q < t->nswitch; q++) {
		int v = t->postorder[q];
		const tp_fattree_switch *s = &t->sw[v];
		if (s->nchild == 0) {
			st->cnt[v] = tp_fattree_count_range(free, s->node_lo, s->node_hi);
			continue;
		}
		st->cnt[v] = 0;
		for (int c = 0; c < s->nchild; c++)
			st->cnt[v] += st->cnt[s->child[c]];
	}
}

/* Step 2: the top switch, and counts restricted to its subtree. */
static int top_switch(tg_alloc *st, int n)
{
	const tp_fattree *t = st->t;
	int top = -1;
	for (int i = 0; i < t->nswitch; i++)
		if (!t->sw[i].is_virtual && st->cnt[i] >= n &&
		    (top < 0 || t->sw[i].level >= t->sw[top].level))
			top = i;
	if (top < 0)
		return -1;
	for (int i = 0; i < t->nswitch; i++)
		if (!tp_fattree_in_subtree(st->t, i, top))
			st->cnt[i] = tp_fattree_in_subtree(st->t, top, i) ?
				     st->cnt[top] : 0;
	return top;
}

/* _topo_choose_best_switch() over all leaves, in file order. */
static int choose_leaf(const tg_alloc *st, int rem)
{
	const tp_fattree *t = st->t;
	int best = -1;
	for (int i = 0; i < t->nswitch; i++) {
		if (t->sw[i].nchild != 0 || !st->cnt[i])
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		bool i_fit;
		int tcs = tp_tree_compare_fit(st->t, st->cnt, i, best, rem, &i_fit);
		if ((st->dist[i] < st->dist[best] && tcs >= 0) ||
		    (st->dist[i] == st->dist[best] && tcs > 0))
			best = i;
	}
	return best;
}

static int tree_greedy_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	tg_alloc *st = a->state;
	const tp_fattree *t = st->t;
	tp_nodeset_zero(out);
	if (nodes < 1)
		return -1;
	count_free(st, free);
	if (top_switch(st, nodes) < 0)
		return -1;
	for (int l = 0; l < t->nleaf; l++)
		st->dist[t->leaves[l]] = 0;
	int rem = nodes, leaf;
	while (rem > 0 && (leaf = choose_leaf(st, rem)) >= 0) {
		const tp_fattree_switch *s = &t->sw[leaf];
		tp_tree_add_dist(st->t, st->dist, leaf);
		for (int v = s->node_lo; v < s->node_hi && rem > 0; v++)
			if (tp_nodeset_test(free, v)) {
				tp_nodeset_set(out, v);
				rem--;
			}
		st->cnt[leaf] = 0;
	}
	if (rem > 0) {
		tp_nodeset_zero(out);
		return -1;
	}
	return 0;
}

/* The same metric as "fattree" reports, so runs compare column by column. */
static double tree_greedy_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	tg_alloc *st = a->state;
	return (double)tp_fattree_hop_sum(st->t, nodes);
}

static void tree_greedy_destroy(tp_alloc *a)
{
	tg_alloc *st = a->state;
	if (!st)
		return;
	free(st->cnt);
	free(st->dist);
	free(st);
}

static const tp_alloc_ops tree_greedy_ops = {
	.name = "tree-greedy",
	/* succeeds whenever one fabric has enough free nodes */
	.flags = TP_ALLOC_MONOTONE,
	.place = tree_greedy_place,
	.cost = tree_greedy_cost,
	.destroy = tree_greedy_destroy,
};

static tp_alloc *tree_greedy_create(const tp_alloc_cfg *cfg, tp_error *err)
{
	const tp_fattree *t = cfg->fattree;
	if (!t) {
		tp_errorf(err, "allocator 'tree-greedy' needs a topology (--topology FILE)");
		return NULL;
	}
	if (cfg->nnodes != t->nnodes) {
		tp_errorf(err, "tree-greedy: the cluster has %d nodes but topology %s has %d",
			  cfg->nnodes, t->path, t->nnodes);
		return NULL;
	}
	tg_alloc *st = calloc(1, sizeof(*st));
	size_t ns = (size_t)t->nswitch;
	if (st) {
		st->t = t;
		st->cnt = malloc(ns * sizeof(int));
		st->dist = calloc(ns, sizeof(long));
	}
	tp_alloc *a = NULL;
	if (st && st->cnt && st->dist) {
		a = tp_alloc_new(&tree_greedy_ops, t->nnodes, st);
	}
	if (!a) {
		tp_alloc tmp = { .state = st };
		tree_greedy_destroy(&tmp);
		tp_errorf(err, "tree-greedy: out of memory");
	}
	return a;
}

const tp_alloc_entry tp_alloc_entry_tree_greedy = {
	.name = "tree-greedy",
	.create = tree_greedy_create,
};
