/* res.c - resources inside nodes; see res.h. */
#include "model/res.h"

#include <stdlib.h>
#include <string.h>

int tp_res_init(tp_res *r, int nnodes, const tp_res_node *total)
{
	memset(r, 0, sizeof(*r));
	if (nnodes < 1)
		return -1;
	r->nnodes = nnodes;
	for (int x = 0; x < nnodes; x++) {
		if (total[x].cpus < 1)
			return -1;
		if (total[x].cpus > r->max_cpus)
			r->max_cpus = total[x].cpus;
	}
	r->total = malloc((size_t)nnodes * sizeof(*r->total));
	r->used = calloc((size_t)nnodes, sizeof(*r->used));
	r->jobs = calloc((size_t)nnodes, sizeof(*r->jobs));
	r->by_free = calloc((size_t)r->max_cpus + 1, sizeof(*r->by_free));
	if (!r->total || !r->used || !r->jobs || !r->by_free) {
		tp_res_fini(r);
		return -1;
	}
	memcpy(r->total, total, (size_t)nnodes * sizeof(*r->total));
	for (int x = 0; x < nnodes; x++)
		r->by_free[total[x].cpus]++;
	r->nidle = nnodes;
	return 0;
}

void tp_res_fini(tp_res *r)
{
	free(r->total);
	free(r->used);
	free(r->jobs);
	free(r->by_free);
	memset(r, 0, sizeof(*r));
}

void tp_res_copy(tp_res *dst, const tp_res *src)
{
	size_t n = (size_t)src->nnodes;
	memcpy(dst->used, src->used, n * sizeof(*dst->used));
	memcpy(dst->jobs, src->jobs, n * sizeof(*dst->jobs));
	memcpy(dst->by_free, src->by_free,
	       ((size_t)src->max_cpus + 1) * sizeof(*dst->by_free));
	dst->nidle = src->nidle;
	dst->serial = src->serial + 1;
}

int tp_res_may_host(const tp_res *r, const tp_res_ask *ask)
{
	if (ask->whole)
		return r->nidle;
	if (ask->cpus > r->max_cpus)
		return 0;
	int n = 0;
	for (int32_t k = ask->cpus < 1 ? 1 : ask->cpus; k <= r->max_cpus; k++)
		n += r->by_free[k];
	return n;
}

int tp_res_hosts(const tp_res *r, const tp_res_ask *ask,
		 const tp_nodeset *within, tp_nodeset *out)
{
	tp_nodeset_zero(out);
	if (!tp_res_may_host(r, ask))
		return 0;
	int n = 0;
	if (!within) {
		for (int x = 0; x < r->nnodes; x++)
			if (tp_res_fits(r, x, ask)) {
				tp_nodeset_set(out, x);
				n++;
			}
		return n;
	}
	for (int x = tp_nodeset_next(within, 0); x >= 0 && x < r->nnodes;
	     x = tp_nodeset_next(within, x + 1))
		if (tp_res_fits(r, x, ask)) {
			tp_nodeset_set(out, x);
			n++;
		}
	return n;
}

/* Node x's slot in by_free (an allocation past the node's CPUs, which
 * tp_res_take does not refuse, counts as none free). */
static int32_t free_slot(const tp_res *r, int x)
{
	int32_t f = r->total[x].cpus - r->used[x].cpus;
	return f < 0 ? 0 : f;
}

/* Node x's allocation changes by sign x the ask's amounts. */
static void change(tp_res *r, int x, const tp_res_ask *ask, int sign)
{
	tp_res_node a = tp_res_amount(r, x, ask);
	tp_res_node *u = &r->used[x];
	r->by_free[free_slot(r, x)]--;
	u->cpus += sign * a.cpus;
	u->gpus += sign * a.gpus;
	u->mem += sign * a.mem;
	r->by_free[free_slot(r, x)]++;
	if (sign > 0)
		r->nidle -= r->jobs[x]++ == 0;
	else
		r->nidle += --r->jobs[x] == 0;
}

void tp_res_take(tp_res *r, const tp_nodeset *nodes, const tp_res_ask *ask)
{
	for (int x = tp_nodeset_next(nodes, 0); x >= 0 && x < r->nnodes;
	     x = tp_nodeset_next(nodes, x + 1))
		change(r, x, ask, 1);
	r->serial++;
}

void tp_res_give(tp_res *r, const tp_nodeset *nodes, const tp_res_ask *ask)
{
	for (int x = tp_nodeset_next(nodes, 0); x >= 0 && x < r->nnodes;
	     x = tp_nodeset_next(nodes, x + 1))
		change(r, x, ask, -1);
	r->serial++;
}

int tp_res_overdrawn(const tp_res *r)
{
	for (int x = 0; x < r->nnodes; x++) {
		const tp_res_node *t = &r->total[x], *u = &r->used[x];
		if (u->cpus > t->cpus || u->mem > t->mem || u->gpus > t->gpus ||
		    u->cpus < 0 || u->mem < 0 || u->gpus < 0 || r->jobs[x] < 0)
			return x;
	}
	return -1;
}
