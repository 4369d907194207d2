/*
 * alloc_fixtures.h - allocators for policy tests: the real first-free, and
 * "contig", a topology-like allocator (the lowest run of consecutive free
 * nodes) under which a placement can fail although enough nodes are free.
 */
#ifndef TP_ALLOC_FIXTURES_H
#define TP_ALLOC_FIXTURES_H

#include <check.h>

#include "alloc/alloc.h"

static inline tp_alloc *first_free(int n)
{
	tp_alloc_cfg cfg = { .nnodes = n };
	tp_error err;
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	return a;
}

static inline int contig_place(tp_alloc *a, const tp_nodeset *free,
			       const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	(void)a;
	tp_nodeset_zero(out);
	int run = 0;
	for (int i = 0; i < free->n; i++) {
		run = tp_nodeset_test(free, i) ? run + 1 : 0;
		if (run == nodes) {
			tp_nodeset_set_range(out, i - nodes + 1, i + 1);
			return 0;
		}
	}
	return -1;
}

static const tp_alloc_ops contig_ops = {
	.name = "contig", .flags = 0, .place = contig_place,
};

#endif
