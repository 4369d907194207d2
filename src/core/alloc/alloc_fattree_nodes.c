/*
 * alloc_fattree_nodes.c - "fattree", the default fat-tree allocator: the
 * least node-level hop sum over the free nodes of one fabric
 * (fattree_nodedp.h), ties to the placement that leaves emptier subtrees
 * whole.
 *
 * Feasibility is Slurm's topology/tree's: a job fits exactly when one
 * fabric has as many free nodes as it asks, so it never waits where
 * Slurm's tree would start it; of the placements it may take now it takes
 * the most compact, counted over every pair of nodes.  The patent's
 * method in minimum scheduling units, which waits for whole units, is
 * "fattree-msu" (alloc_fattree.c).  doc/fattree-design.md, "Node level".
 *
 * On a tree of one fabric any k free nodes hold a k-node job: the
 * allocator is flat (policies may reason with counts, and place only the
 * jobs they start) and monotone.  With several fabrics it is monotone.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "alloc/alloc_fattree_nodes.h"
#include "alloc/alloc_registry.h"
#include "alloc/fattree_nodedp.h"
#include "alloc/memo_answers.h"
#include "topology/fattree.h"
#include "topology/spread.h"

typedef struct ftn_alloc {
	const tp_fattree *t;
	ftn_dp dp;
	/* whole answers on the last few free sets (a pass that places
	 * several jobs of one size on one set asks once) */
	tp_memo_answers answers;
	tp_spread spread;   /* least costs by size, on first use */
} ftn_alloc;

static int place_fresh(ftn_alloc *st, const tp_nodeset *free,
		       const tp_nodeset *keep, int nodes, tp_nodeset *out)
{
	ftn_dp_update(&st->dp, free);
	return ftn_dp_place(&st->dp, free, keep, nodes, out, NULL);
}

static int fattree_nodes_place(tp_alloc *a, const tp_nodeset *free,
			       const tp_alloc_req *req, tp_nodeset *out)
{
	ftn_alloc *st = a->state;
	int nodes = req->nodes;
	tp_nodeset_zero(out);
	if (nodes < 1 || tp_nodeset_count(free) < nodes)
		return -1;
	if (req->probe || st->t->nfabric == 1) {
		/* counting answers whether it fits */
		ftn_dp_update(&st->dp, free);
		if (!ftn_dp_fits(&st->dp, nodes))
			return -1;
		if (req->probe)
			return 0;
	}
	if (req->keep_free) /* an answer of its own, not kept */
		return place_fresh(st, free, req->keep_free, nodes, out);
	tp_alloc_req key = { .nodes = nodes };
	int rc = tp_memo_answers_get(&st->answers, free, &key, out);
	if (rc != 1)
		return rc;
	rc = place_fresh(st, free, NULL, nodes, out);
	tp_memo_answers_put(&st->answers, free, &key, rc, out);
	return rc;
}

/* The patent's metric, the same number the other fat-tree allocators
 * report (pairs of units; the node-level cost is the runtime model's). */
static double fattree_nodes_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	ftn_alloc *st = a->state;
	return (double)tp_fattree_hop_sum(st->t, nodes);
}

static double fattree_nodes_spread(tp_alloc *a, const tp_nodeset *nodes)
{
	ftn_alloc *st = a->state;
	return tp_spread_of(&st->spread, nodes);
}

static void fattree_nodes_destroy(tp_alloc *a)
{
	ftn_alloc *st = a->state;
	if (!st)
		return;
	ftn_dp_fini(&st->dp);
	tp_memo_answers_fini(&st->answers);
	tp_spread_fini(&st->spread);
	free(st);
}

static const tp_alloc_ops fattree_nodes_ops = {
	.name = "fattree",
	.flags = TP_ALLOC_MONOTONE,
	.place = fattree_nodes_place,
	.cost = fattree_nodes_cost,
	.spread = fattree_nodes_spread,
	.destroy = fattree_nodes_destroy,
};

static tp_alloc *fattree_nodes_create(const tp_alloc_cfg *cfg, tp_error *err)
{
	const tp_fattree *t = cfg->fattree;
	if (!t) {
		tp_errorf(err, "allocator 'fattree' needs a topology (--topology FILE)");
		return NULL;
	}
	if (cfg->nnodes != t->nnodes) {
		tp_errorf(err, "fattree: the cluster has %d nodes but topology %s has %d",
			  cfg->nnodes, t->path, t->nnodes);
		return NULL;
	}
	ftn_alloc *st = calloc(1, sizeof(*st));
	tp_alloc *a = NULL;
	if (st) {
		st->t = t;
		tp_memo_answers_init(&st->answers, t->nnodes);
		if (!tp_spread_init(&st->spread, t, NULL) &&
		    !ftn_dp_init(&st->dp, t))
			a = tp_alloc_new(&fattree_nodes_ops, t->nnodes, st);
	}
	if (!a) {
		if (st) {
			tp_alloc tmp = { .state = st };
			fattree_nodes_destroy(&tmp);
		}
		tp_errorf(err, "fattree: out of memory");
		return NULL;
	}
	if (t->nfabric == 1)
		a->flags |= TP_ALLOC_FLAT;
	return a;
}

const tp_alloc_entry tp_alloc_entry_fattree_nodes = {
	.name = "fattree",
	.create = fattree_nodes_create,
};

void tp_fattree_nodes_carry(tp_alloc *a, bool on)
{
	ftn_alloc *st = a->state;
	ftn_dp_carry(&st->dp, on);
	if (!on) {
		tp_memo_answers_fini(&st->answers);
		tp_memo_answers_init(&st->answers, st->t->nnodes);
	}
}

int tp_fattree_nodes_place_cost(tp_alloc *a, const tp_nodeset *free, int nodes,
				tp_nodeset *out, int64_t *cost)
{
	ftn_alloc *st = a->state;
	tp_nodeset_zero(out);
	ftn_dp_update(&st->dp, free);
	return ftn_dp_place(&st->dp, free, NULL, nodes, out, cost);
}
