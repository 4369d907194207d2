/* least_loaded.c - the lowest-utilisation placement; see least_loaded.h. */
#include "tasks/least_loaded.h"

#include "alloc/least_loaded.h"

#include <stdint.h>
#include <stdlib.h>

int tp_ll_init(tp_ll_nodes *n, int count)
{
	*n = (tp_ll_nodes){ 0 };
	if (count < 0)
		return -1;
	size_t c = count ? (size_t)count : 1;
	n->cores = calloc(c, sizeof(*n->cores));
	n->mem = calloc(c, sizeof(*n->mem));
	n->speed = calloc(c, sizeof(*n->speed));
	n->used_cores = calloc(c, sizeof(*n->used_cores));
	n->used_mem = calloc(c, sizeof(*n->used_mem));
	n->up = calloc(c, sizeof(*n->up));
	if (!n->cores || !n->mem || !n->speed || !n->used_cores ||
	    !n->used_mem || !n->up) {
		tp_ll_fini(n);
		return -1;
	}
	n->n = count;
	for (int k = 0; k < count; k++) {
		n->speed[k] = 1.0;
		n->up[k] = true;
	}
	return 0;
}

void tp_ll_fini(tp_ll_nodes *n)
{
	free(n->cores);
	free(n->mem);
	free(n->speed);
	free(n->used_cores);
	free(n->used_mem);
	free(n->up);
	*n = (tp_ll_nodes){ 0 };
}

bool tp_ll_fits(const tp_ll_nodes *n, int k, int cores, double mem)
{
	return n->up[k] && tp_ll_free_cores(n, k) >= cores &&
	       tp_ll_free_mem(n, k) >= mem;
}

static bool excluded(int k, const int *exclude, int nexclude)
{
	for (int i = 0; i < nexclude; i++)
		if (exclude[i] == k)
			return true;
	return false;
}

/* used_a/cores_a < used_b/cores_b: the core's rule (alloc/least_loaded.h),
 * the one sched/topo and toposim's least-loaded policy decide by. */
static bool less_loaded(const tp_ll_nodes *n, int a, int b)
{
	return tp_load_less(n->used_cores[a], n->cores[a], n->used_cores[b],
			    n->cores[b]);
}

int tp_ll_pick(const tp_ll_nodes *n, int cores, double mem,
	       const int *exclude, int nexclude)
{
	int best = -1;
	for (int k = 0; k < n->n; k++) {
		if (!tp_ll_fits(n, k, cores, mem) || excluded(k, exclude, nexclude))
			continue;
		/* strict: an equal load keeps the lower index */
		if (best < 0 || less_loaded(n, k, best))
			best = k;
	}
	return best;
}

int tp_ll_pick_first(const tp_ll_nodes *n, int cores, double mem,
		     const int *exclude, int nexclude)
{
	for (int k = 0; k < n->n; k++)
		if (tp_ll_fits(n, k, cores, mem) && !excluded(k, exclude, nexclude))
			return k;
	return -1;
}

void tp_ll_take(tp_ll_nodes *n, int k, int cores, double mem)
{
	n->used_cores[k] += cores;
	n->used_mem[k] += mem;
}

void tp_ll_release(tp_ll_nodes *n, int k, int cores, double mem)
{
	n->used_cores[k] -= cores;
	n->used_mem[k] -= mem;
}
