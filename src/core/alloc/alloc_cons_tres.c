/*
 * alloc_cons_tres.c - Slurm's select/cons_tres choice of nodes on a
 * machine without topology (eval_nodes' consecutive best fit, all nodes
 * of one weight), written from its description and rules:
 *
 *  - the nodes the job may use form blocks of consecutive indices (a node
 *    it may not use ends a block); a block weighs the CPUs its nodes have
 *    free for the job;
 *  - the block taken is the first one, replaced in order by a block that
 *    is sufficient (enough nodes and CPUs for what is left) when the best
 *    so far is not, by a sufficient one with fewer CPUs, or by one that
 *    is not sufficient but has more CPUs than the best so far;
 *  - a job that needs one more node takes the block's node with the
 *    fewest CPUs that still holds it (the first of equals); otherwise the
 *    block's nodes from its start;
 *  - a block too small is taken whole and the choice made again among
 *    the rest.
 *
 * So jobs that share nodes pack onto the nodes already partly used (few
 * CPUs free, in a short block) before starting on idle ones, as Slurm
 * packs them.  A node's CPUs free come from the request's resources
 * (tp_alloc_req.res): all its CPUs for a whole-node request, its CPUs
 * not allocated otherwise; without them every node weighs 1.  Node
 * weights (slurm.conf Weight=) are not modelled.
 */
#include <stdlib.h>

#include "alloc/alloc_registry.h"
#include "model/res.h"

typedef struct block {
	int start, end;   /* node indices [start, end] */
	int nodes;        /* usable nodes left in it */
	int64_t cpus;
} block;

/* CPUs node x has for the request. */
static int64_t node_cpus(const tp_alloc_req *req, int x)
{
	const tp_res *r = req->res;
	if (!r || x >= r->nnodes)
		return 1;
	if (!req->ask || req->ask->whole)
		return r->total[x].cpus;
	return r->total[x].cpus - r->used[x].cpus;
}

/* CPUs the request needs on each node, for "sufficient". */
static int64_t ask_cpus(const tp_alloc_req *req)
{
	if (!req->res)
		return 1;
	if (!req->ask || req->ask->whole)
		return 1;
	return req->ask->cpus;
}

/* The blocks of `free`; NULL on ENOMEM (*n 0 for an empty set). */
static block *blocks_of(const tp_nodeset *usable, const tp_alloc_req *req,
			int *n)
{
	*n = 0;
	int cap = 16;
	block *b = malloc((size_t)cap * sizeof(*b));
	if (!b)
		return NULL;
	for (int x = tp_nodeset_next(usable, req->empty_words * 64); x >= 0;) {
		int end = tp_nodeset_next_clear(usable, x) - 1;
		if (*n == cap) {
			block *nb = realloc(b, (size_t)(cap *= 2) * sizeof(*b));
			if (!nb) {
				free(b);
				return NULL;
			}
			b = nb;
		}
		block *k = &b[(*n)++];
		*k = (block){ .start = x, .end = end, .nodes = end - x + 1 };
		for (int y = x; y <= end; y++)
			k->cpus += node_cpus(req, y);
		x = end + 1 < usable->n ? tp_nodeset_next(usable, end + 1) : -1;
	}
	return b;
}

/* The block to take from for `left` nodes and `cpus` CPUs, -1 if none. */
static int best_block(const block *b, int n, int left, int64_t cpus)
{
	int best = -1;
	bool best_ok = false;
	for (int i = 0; i < n; i++) {
		if (!b[i].nodes)
			continue;
		bool ok = b[i].nodes >= left && b[i].cpus >= cpus;
		if (best < 0 || (ok && !best_ok) ||
		    (ok && b[i].cpus < b[best].cpus) ||
		    (!ok && b[i].cpus > b[best].cpus)) {
			best = i;
			best_ok = ok;
		}
	}
	return best;
}

/* One node of block k for a job that needs `need` CPUs on it: the one
 * with the fewest CPUs free that still holds them, the first of equals;
 * -1 if none does. */
static int best_node(const tp_alloc_req *req, const block *k, int64_t need)
{
	int best = -1;
	int64_t size = 0;
	for (int x = k->start; x <= k->end; x++) {
		int64_t c = node_cpus(req, x);
		if (c < need || (best >= 0 && c >= size))
			continue;
		best = x;
		size = c;
		if (c == need)
			break;
	}
	return best;
}

/* Take from block k into out, from its start, at most `left` nodes. */
static int take_block(block *k, int left, tp_nodeset *out)
{
	int took = 0;
	for (int x = k->start; x <= k->end && took < left; x++) {
		tp_nodeset_set(out, x);
		took++;
	}
	k->nodes = 0;
	return took;
}

static int cons_tres_place(tp_alloc *a, const tp_nodeset *usable,
			   const tp_alloc_req *req, tp_nodeset *out)
{
	(void)a;
	tp_nodeset_zero(out);
	int n, left = req->nodes;
	int64_t per = ask_cpus(req);
	block *b = blocks_of(usable, req, &n);
	if (!b)
		return -1;
	while (left > 0) {
		int i = best_block(b, n, left, per * left);
		if (i < 0)
			break;
		int x = left == 1 ? best_node(req, &b[i], per) : -1;
		if (x >= 0) {
			tp_nodeset_set(out, x);
			left = 0;
			break;
		}
		left -= take_block(&b[i], left, out);
	}
	free(b);
	if (left > 0) {
		tp_nodeset_zero(out);
		return -1;
	}
	return 0;
}

static const tp_alloc_ops cons_tres_ops = {
	.name = "cons-tres",
	.flags = TP_ALLOC_FLAT | TP_ALLOC_MONOTONE,
	.place = cons_tres_place,
};

static tp_alloc *cons_tres_create(const tp_alloc_cfg *cfg, tp_error *err)
{
	if (cfg->nnodes <= 0) {
		tp_errorf(err, "cons-tres: node count must be > 0 (got %d)",
			  cfg->nnodes);
		return NULL;
	}
	tp_alloc *a = tp_alloc_new(&cons_tres_ops, cfg->nnodes, NULL);
	if (!a)
		tp_errorf(err, "cons-tres: out of memory");
	return a;
}

const tp_alloc_entry tp_alloc_entry_cons_tres = {
	.name = "cons-tres",
	.create = cons_tres_create,
};
