/*
 * torus_shapes_kept.c - the box shapes of each size, kept by a torus
 * allocator for its life: they depend on the torus alone, and a pass asks
 * about the same sizes again and again (factorising a size and sorting
 * its shapes cost more than testing them on a free set).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/torus_cand.h"

typedef struct kept_list {
	bool have;
	int ntransit;
	int n;
	tp_torus_shape *v;
} kept_list;

typedef struct kept_big {
	bool have;
	int n;
	int (*len)[TP_TORUS_MAX_DIMS];
} kept_big;

struct tp_shapes_kept {
	const tp_torus *t;
	int N;
	kept_list *lists[2]; /* [canonical reading?][nodes] */
	kept_big *big;       /* [nodes] */
};

tp_shapes_kept *tp_shapes_kept_new(const tp_torus *t)
{
	tp_shapes_kept *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->t = t;
	k->N = tp_torus_nnodes(t);
	return k;
}

void tp_shapes_kept_free(tp_shapes_kept *k)
{
	if (!k)
		return;
	for (int r = 0; r < 2; r++)
		for (int x = 0; k->lists[r] && x <= k->N; x++)
			free(k->lists[r][x].v);
	for (int x = 0; k->big && x <= k->N; x++)
		free(k->big[x].len);
	free(k->lists[0]);
	free(k->lists[1]);
	free(k->big);
	free(k);
}

int tp_shapes_kept_get(tp_shapes_kept *k, int nodes, int ntransit,
		       tp_torus_base_shapes reading,
		       const tp_torus_shape **out)
{
	*out = NULL;
	if (nodes < 1 || nodes > k->N)
		return 0;
	int r = reading == TP_TORUS_SHAPES_CANONICAL;
	if (!k->lists[r] &&
	    !(k->lists[r] = calloc((size_t)k->N + 1, sizeof(kept_list))))
		return -1;
	kept_list *l = &k->lists[r][nodes];
	if (!l->have || l->ntransit != ntransit) {
		tp_torus_shape *v;
		int n = tp_torus_shapes_read(k->t, nodes, ntransit, reading, &v);
		if (n < 0)
			return -1;
		free(l->v);
		*l = (kept_list){ .have = true, .ntransit = ntransit, .n = n,
				  .v = v };
	}
	*out = l->v;
	return l->n;
}

int tp_shapes_kept_largest(tp_shapes_kept *k, int nodes, int most,
			   const int (**out)[TP_TORUS_MAX_DIMS])
{
	*out = NULL;
	if (nodes < 1 || nodes > k->N || most <= nodes)
		return 0;
	if (!k->big && !(k->big = calloc((size_t)k->N + 1, sizeof(kept_big))))
		return -1;
	kept_big *b = &k->big[nodes];
	if (!b->have) {
		tp_torus_shape *sh = NULL;
		int n = tp_torus_ndims(k->t);
		int nsh = tp_torus_shapes_maximal(k->t, nodes + 1, most, &sh);
		if (nsh < 0)
			return -1;
		if (nsh && !(b->len = malloc((size_t)nsh * sizeof(*b->len)))) {
			free(sh);
			return -1;
		}
		for (int r = 0; r < nsh; r++)
			memcpy(b->len[b->n++], sh[r].len, (size_t)n * sizeof(int));
		free(sh);
		b->have = true;
	}
	*out = (const int (*)[TP_TORUS_MAX_DIMS])b->len;
	return b->n;
}
