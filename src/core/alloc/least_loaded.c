/* least_loaded.c - the lowest-utilisation placement; see least_loaded.h. */
#include "alloc/least_loaded.h"

#include <stdlib.h>

typedef struct node_load {
	int x;
	int64_t used, total;
} node_load;

/* Lower utilisation first, then lower index. */
static int by_load(const void *a, const void *b)
{
	const node_load *p = a, *q = b;
	if (tp_load_less(p->used, p->total, q->used, q->total))
		return -1;
	if (tp_load_less(q->used, q->total, p->used, p->total))
		return 1;
	return (p->x > q->x) - (p->x < q->x);
}

/* Whole nodes: the k lowest indices (every free node is idle). */
static int lowest_indices(const tp_nodeset *hosts, int k, tp_nodeset *out)
{
	int n = 0;
	tp_nodeset_zero(out);
	for (int x = tp_nodeset_next(hosts, 0); x >= 0 && n < k;
	     x = tp_nodeset_next(hosts, x + 1), n++)
		tp_nodeset_set(out, x);
	return n == k ? k : -1;
}

int tp_least_loaded_place(const tp_res *res, const tp_nodeset *hosts, int k,
			  tp_nodeset *out)
{
	int n = tp_nodeset_count(hosts);
	if (k < 1 || n < k)
		return -1;
	if (!res)
		return lowest_indices(hosts, k, out);
	node_load *v = malloc((size_t)n * sizeof(*v));
	if (!v)
		return -1;
	int m = 0;
	for (int x = tp_nodeset_next(hosts, 0); x >= 0;
	     x = tp_nodeset_next(hosts, x + 1))
		v[m++] = (node_load){ x, tp_res_cpus_used(res, x),
				      tp_res_cpus(res, x) };
	qsort(v, (size_t)m, sizeof(*v), by_load);
	tp_nodeset_zero(out);
	for (int i = 0; i < k; i++)
		tp_nodeset_set(out, v[i].x);
	free(v);
	return k;
}
