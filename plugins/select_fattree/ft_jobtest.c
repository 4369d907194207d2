/*
 * ft_jobtest.c - select/fattree's job_test: the topology plugins' common
 * one (plugins/common/tpl_jobtest.c, the rules) with the tree's
 * description of a placement for the logs.
 */
#include "ft_jobtest.h"

#include <stdio.h>

#include "tpl_jobtest.h"

/* "units=2 hop_sum=12": MSUs touched and the allocator's cost, else the
 * tree's own pairwise hop sum. */
static void ft_describe(const void *topo, tp_alloc *alloc,
			const tp_nodeset *nodes, int requested, char *buf,
			size_t len)
{
	const ft_state *st = topo;
	double hops = tp_alloc_cost(alloc, nodes);

	if (hops < 0) /* allocator without a metric: the tree's own */
		hops = (double)tp_fattree_hop_sum(st->tree, nodes);
	snprintf(buf, len, "units=%d hop_sum=%.0f", ft_state_units(st, nodes),
		 hops);
}

int ft_job_test(ft_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
		uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes,
		uint16_t mode, List preemptees, List *preemptee_job_list,
		bitstr_t *exc_core_bitmap)
{
	tpl_ctx t = {
		.plugin_type = "select/fattree",
		.kind = "tree",
		.alloc = c->st->alloc,
		.alloc_name = c->st->cfg.allocator,
		.topo = c->st,
		.describe = ft_describe,
		.map = c->map,
		.linear = c->linear,
		.job_list = c->job_list,
		.strict = false, /* no job starves for lack of a tree answer */
	};

	return tpl_job_test(&t, job_ptr, bitmap, min_nodes, max_nodes,
			    req_nodes, mode, preemptees, preemptee_job_list,
			    exc_core_bitmap);
}
