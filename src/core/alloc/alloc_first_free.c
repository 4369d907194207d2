/*
 * alloc_first_free.c - the flat baseline: the lowest-numbered free nodes.
 * Topology-blind on purpose; every topology allocator is measured against it.
 */
#include <stdlib.h>

#include "alloc/alloc_registry.h"

static int first_free_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	(void)a;
	if (tp_nodeset_lowest_from(free, req->empty_words, req->nodes, out) >=
	    req->nodes)
		return 0;
	tp_nodeset_zero(out);
	return -1;
}

static const tp_alloc_ops first_free_ops = {
	.name = "first-free",
	.flags = TP_ALLOC_FLAT | TP_ALLOC_MONOTONE,
	.place = first_free_place,
};

static tp_alloc *first_free_create(const tp_alloc_cfg *cfg, tp_error *err)
{
	if (cfg->nnodes <= 0) {
		tp_errorf(err, "first-free: node count must be > 0 (got %d)",
			  cfg->nnodes);
		return NULL;
	}
	tp_alloc *a = tp_alloc_new(&first_free_ops, cfg->nnodes, NULL);
	if (!a)
		tp_errorf(err, "first-free: out of memory");
	return a;
}

const tp_alloc_entry tp_alloc_entry_first_free = {
	.name = "first-free",
	.create = first_free_create,
};
