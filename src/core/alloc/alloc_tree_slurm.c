/*
 * alloc_tree_slurm.c - "tree-slurm" and "tree-slurm-26.05": what Slurm's
 * own topology/tree plugin chooses from 24.05 to 24.11 and in 26.05, at
 * node granularity: the current-Slurm baselines next to "tree-greedy"
 * (Slurm 22.05).
 *
 * Re-implemented from the rules of _eval_nodes_topo() in Slurm 24.11.5's
 * src/plugins/topology/tree/eval_nodes_tree.c and the switch table of
 * switch_record.c, for a job of N whole nodes with equal node weights:
 *   1. count the free nodes under every switch;
 *   2. top switch: among real switches with >= N free nodes, the one of
 *      the highest level, the LAST in file order at that level (Slurm
 *      replaces on ">=" level and "<=" weight, and every weight is equal
 *      here).  Counts are then those inside the top switch's subtree
 *      (its ancestors count what it counts, other switches 0).  No such
 *      switch: refused, as Slurm refuses (disjoint trees are never
 *      combined; the model's virtual root is not a switch of Slurm's);
 *   3. pick leaf switches one at a time, scanning leaves with free nodes
 *      in file order; the first one is the candidate, a later leaf i
 *      replaces it when
 *        - i is strictly closer (summed switch distance to the leaves
 *          picked so far) AND "i fits": i, or i's ancestor at the level
 *          where the fit comparison below was decided, holds the rest; or
 *        - i is as close and fits strictly better;
 *      "fits better" climbs from the two leaves in lockstep: if both hold
 *      the rest, fewer free nodes wins (equal: undecided, stop); if one
 *      does, it wins; if neither, go to both parents unless they are the
 *      same switch; undecided at the end: more free nodes wins, then the
 *      lower level;
 *   4. take the picked leaf's free nodes, lowest index first, until N are
 *      taken; then the leaf and every ancestor lose the leaf's whole free
 *      count (counted once picked), so later fit comparisons see the
 *      ancestors' remaining room.  This, and "closer needs a fit" in 3,
 *      are what 24.05 changed from 22.05 (tree-greedy: static inner
 *      counts, closer wins unless it fits strictly worse).
 * Required nodes (-w, fewer than N; TP_ALLOC_OWN_REQUIRED): the top switch
 * is instead the FIRST switch of the highest level holding a required
 * node (refused unless it holds them all; it need not hold N); the
 * required leaves are filled first, in file order, lowest nodes first,
 * each lowering itself and its ancestors by the nodes taken from ALL
 * required leaves so far (Slurm's running total); every switch holding a
 * required node, inner ones too, adds its distances, and required leaves
 * are not scanned in step 3.  Counts include the required nodes.
 * --switches (max_groups): Slurm makes the same choice and then keeps the
 * job waiting when it spans more leaf switches than asked (it retries
 * smaller sizes only for node ranges); flag TP_ALLOC_GROUPS_AFTER makes
 * tp_alloc_place_req() do exactly that.
 * Deviation: when the fit comparison reaches a root on one side only
 * (leaves at different depths), Slurm reads past its switch table; here
 * it stops there, undecided.
 *
 * Slurm 26.05 ("tree-slurm-26.05", read from 26.05.3): the rules above
 * hold for every job of two or more nodes (_eval_nodes_topo() only gained
 * checks that stop at the job's node maximum, which a whole-node job of
 * fixed size meets only once it has all its nodes, and return codes with
 * eval_action directives for common_topo_choose_nodes()'s retry loop,
 * which runs after a failed first pass: with whole nodes of equal weight
 * the first pass fails only when the job cannot be placed at all, and
 * then the retries fail too).  What changed is the one-node
 * job: since 26.05.0 select/cons_tres places a job whose node maximum is
 * 1 itself (_get_one_res(), for topology plugins that allow it;
 * topology/tree does), on the first usable node in scheduling-weight
 * order, i.e. the lowest-numbered free node when weights are equal; the
 * tree is not consulted, so the job no longer goes to the leaf it fits
 * best (one_node_lowest below).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"
#include "alloc/tree_fit.h"
#include "topology/fattree.h"

/* What differs between the Slurm releases modelled. */
typedef struct ts_rules {
	/* 26.05: a job of one node (and no more) takes the lowest free node */
	bool one_node_lowest;
} ts_rules;

static const ts_rules rules_2405 = { .one_node_lowest = false };
static const ts_rules rules_2605 = { .one_node_lowest = true };

typedef struct ts_alloc {
	const tp_fattree *t;
	const ts_rules *rules;
	int *cnt;        /* [nswitch] free nodes under a switch, as used */
	int *req;        /* [nswitch] required nodes under a switch */
	long *dist;      /* [nswitch] summed distance to the picked leaves */
} ts_alloc;

static bool is_leaf(const tp_fattree *t, int v)
{
	return t->sw[v].nchild == 0;
}

/* Members of s under every switch, into cnt[]. */
static void count_under(const tp_fattree *t, const tp_nodeset *s, int *cnt)
{
	for (int q = 0; q < t->nswitch; q++) {
		int v = t->postorder[q];
		const tp_fattree_switch *sw = &t->sw[v];
		if (is_leaf(t, v)) {
			cnt[v] = tp_fattree_count_range(s, sw->node_lo, sw->node_hi);
			continue;
		}
		cnt[v] = 0;
		for (int c = 0; c < sw->nchild; c++)
			cnt[v] += cnt[sw->child[c]];
	}
}

/* Only nodes under the top switch count from now on. */
static void restrict_to(ts_alloc *st, int top)
{
	for (int i = 0; i < st->t->nswitch; i++)
		if (!tp_fattree_in_subtree(st->t, i, top))
			st->cnt[i] = tp_fattree_in_subtree(st->t, top, i) ?
				     st->cnt[top] : 0;
}

/* Step 2: the top switch, -1 when none has n free nodes. */
static int top_switch(const ts_alloc *st, int n)
{
	const tp_fattree *t = st->t;
	int top = -1;
	for (int i = 0; i < t->nswitch; i++)
		if (!t->sw[i].is_virtual && st->cnt[i] >= n &&
		    (top < 0 || t->sw[i].level >= t->sw[top].level))
			top = i;
	return top;
}

/* With required nodes: the first highest-level switch holding one, -1
 * unless it holds all r of them (Slurm: no shared network). */
static int required_top(const ts_alloc *st, int r)
{
	const tp_fattree *t = st->t;
	int top = -1;
	for (int i = 0; i < t->nswitch; i++)
		if (!t->sw[i].is_virtual && st->req[i] > 0 &&
		    (top < 0 || t->sw[i].level > t->sw[top].level))
			top = i;
	return top >= 0 && st->req[top] == r ? top : -1;
}

/* Step 3: the next leaf for `rem` more nodes, -1 when none is left. */
static int choose_leaf(const ts_alloc *st, int rem)
{
	const tp_fattree *t = st->t;
	int best = -1;
	for (int i = 0; i < t->nswitch; i++) {
		if (!is_leaf(t, i) || !st->cnt[i] || st->req[i])
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		bool i_fit;
		int tcs = tp_tree_compare_fit(st->t, st->cnt, i, best, rem, &i_fit);
		if ((st->dist[i] < st->dist[best] && i_fit) ||
		    (st->dist[i] == st->dist[best] && tcs > 0))
			best = i;
	}
	return best;
}

/* Step 4's bookkeeping: `used` nodes are gone for the leaf and for every
 * switch above it. */
static void use_leaf(ts_alloc *st, int leaf, int used)
{
	for (int v = leaf; v >= 0; v = st->t->sw[v].parent)
		st->cnt[v] = st->cnt[v] > used ? st->cnt[v] - used : 0;
}

/* Step 4: the leaf's lowest free nodes not chosen yet; returns how many
 * are still due. */
static int take_nodes(const tp_fattree *t, int leaf, const tp_nodeset *free,
		      int rem, tp_nodeset *out)
{
	const tp_fattree_switch *s = &t->sw[leaf];
	for (int v = s->node_lo; v < s->node_hi && rem > 0; v++)
		if (tp_nodeset_test(free, v) && !tp_nodeset_test(out, v)) {
			tp_nodeset_set(out, v);
			rem--;
		}
	return rem;
}

/* Required nodes: the top switch (counts restricted to it), the rest of
 * the required leaves taken, and the distances of every switch holding a
 * required node.  Returns the nodes still due, or -1: refused. */
static int place_required(ts_alloc *st, const tp_nodeset *free,
			  const tp_nodeset *required, int nodes,
			  tp_nodeset *out)
{
	const tp_fattree *t = st->t;
	int r = tp_nodeset_count(required), rem = nodes - r;
	count_under(t, required, st->req);
	int top = required_top(st, r);
	if (top < 0 || st->cnt[top] - r < rem)
		return -1;
	restrict_to(st, top);
	tp_nodeset_copy(out, required);
	int taken = 0; /* Slurm lowers each leaf by the running total */
	for (int i = 0; i < t->nswitch && rem > 0; i++) {
		if (!is_leaf(t, i) || !st->req[i])
			continue;
		int left = take_nodes(t, i, free, rem, out);
		taken += rem - left;
		rem = left;
		use_leaf(st, i, taken);
	}
	for (int i = 0; i < t->nswitch; i++)
		if (st->req[i] && !t->sw[i].is_virtual)
			tp_tree_add_dist(st->t, st->dist, i);
	return rem;
}

/* 26.05's one-node path: cons_tres asks the tree only for jobs that may
 * get more than one node.  A node range whose minimum is 1 is not such a
 * job (its maximum is larger), even when the range is tried at size 1. */
static bool one_node_path(const ts_rules *rules, const tp_alloc_req *req)
{
	return rules->one_node_lowest && req->nodes == 1 && req->max_nodes <= 1;
}

/* The first free node in node order (Slurm sorts the usable nodes by
 * scheduling weight, all equal here, with a stable sort). */
static int place_lowest(const tp_nodeset *free, tp_nodeset *out)
{
	int v = tp_nodeset_next(free, 0);
	if (v < 0)
		return -1;
	tp_nodeset_set(out, v);
	return 0;
}

static int tree_slurm_place(tp_alloc *a, const tp_nodeset *free,
			    const tp_alloc_req *req, tp_nodeset *out)
{
	ts_alloc *st = a->state;
	const tp_fattree *t = st->t;
	tp_nodeset_zero(out);
	if (req->nodes < 1)
		return -1;
	if (one_node_path(st->rules, req))
		return place_lowest(free, out);
	count_under(t, free, st->cnt);
	for (int l = 0; l < t->nleaf; l++)
		st->dist[t->leaves[l]] = 0;
	int rem = req->nodes, leaf;
	if (req->required && tp_nodeset_count(req->required) > 0) {
		rem = place_required(st, free, req->required, req->nodes, out);
		if (rem < 0) {
			tp_nodeset_zero(out);
			return -1;
		}
	} else {
		int top = top_switch(st, req->nodes);
		if (top < 0)
			return -1;
		memset(st->req, 0, (size_t)t->nswitch * sizeof(int));
		restrict_to(st, top);
	}
	while (rem > 0 && (leaf = choose_leaf(st, rem)) >= 0) {
		tp_tree_add_dist(st->t, st->dist, leaf);
		rem = take_nodes(t, leaf, free, rem, out);
		use_leaf(st, leaf, st->cnt[leaf]);
	}
	if (rem > 0) {
		tp_nodeset_zero(out);
		return -1;
	}
	return 0;
}

/* The same metric as "fattree" and "tree-greedy" report. */
static double tree_slurm_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	ts_alloc *st = a->state;
	return (double)tp_fattree_hop_sum(st->t, nodes);
}

static void tree_slurm_destroy(tp_alloc *a)
{
	ts_alloc *st = a->state;
	if (!st)
		return;
	free(st->cnt);
	free(st->req);
	free(st->dist);
	free(st);
}

/* succeeds whenever one real tree has enough free nodes, and places
 * within one tree */
#define TREE_SLURM_OPS(label) { \
	.name = label, \
	.flags = TP_ALLOC_MONOTONE | TP_ALLOC_GROUPS_AFTER | \
		 TP_ALLOC_OWN_REQUIRED, \
	.place = tree_slurm_place, \
	.cost = tree_slurm_cost, \
	.destroy = tree_slurm_destroy, \
}
static const tp_alloc_ops ops_2405 = TREE_SLURM_OPS("tree-slurm");
static const tp_alloc_ops ops_2605 = TREE_SLURM_OPS("tree-slurm-26.05");

static tp_alloc *tree_slurm_new(const tp_alloc_cfg *cfg, const ts_rules *rules,
				const tp_alloc_ops *ops, tp_error *err)
{
	const tp_fattree *t = cfg->fattree;
	if (!t) {
		tp_errorf(err, "allocator '%s' needs a topology (--topology FILE)",
			  ops->name);
		return NULL;
	}
	if (cfg->nnodes != t->nnodes) {
		tp_errorf(err, "%s: the cluster has %d nodes but topology %s has %d",
			  ops->name, cfg->nnodes, t->path, t->nnodes);
		return NULL;
	}
	ts_alloc *st = calloc(1, sizeof(*st));
	size_t ns = (size_t)t->nswitch;
	if (st) {
		st->t = t;
		st->rules = rules;
		st->cnt = malloc(ns * sizeof(int));
		st->req = malloc(ns * sizeof(int));
		st->dist = calloc(ns, sizeof(long));
	}
	tp_alloc *a = NULL;
	if (st && st->cnt && st->req && st->dist) {
		a = tp_alloc_new(ops, t->nnodes, st);
	}
	if (!a) {
		tp_alloc tmp = { .state = st };
		tree_slurm_destroy(&tmp);
		tp_errorf(err, "%s: out of memory", ops->name);
	}
	return a;
}

static tp_alloc *create_2405(const tp_alloc_cfg *cfg, tp_error *err)
{
	return tree_slurm_new(cfg, &rules_2405, &ops_2405, err);
}

static tp_alloc *create_2605(const tp_alloc_cfg *cfg, tp_error *err)
{
	return tree_slurm_new(cfg, &rules_2605, &ops_2605, err);
}

/* Slurm 24.05 to 24.11 (read from 24.11.5) */
const tp_alloc_entry tp_alloc_entry_tree_slurm = {
	.name = "tree-slurm",
	.create = create_2405,
};

/* Slurm 26.05 (read from 26.05.3) */
const tp_alloc_entry tp_alloc_entry_tree_slurm_2605 = {
	.name = "tree-slurm-26.05",
	.create = create_2605,
};
