/*
 * alloc_torus_cand.c - the candidate boxes of the torus allocators, in
 * shape-major or offset-major order (alloc_torus.c), from the erosion of
 * the free set (torus_erode.c): one bit set of low corners per shape,
 * O(N/64) words a step, instead of a locked-count test per placement.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/torus_cand.h"

static void box_at(const cand_ctx *c, int corner, const int *len, tp_box *box)
{
	memset(box, 0, sizeof(*box));
	tp_torus_coord(c->t, corner, box->off);
	memcpy(box->len, len, (size_t)tp_torus_ndims(c->t) * sizeof(int));
}

void tp_torus_each_shape_major(cand_ctx *c, const tp_torus_shape *sh, int nsh,
			       cand_fn fn)
{
	for (int r = 0; r < nsh; r++) {
		const uint64_t *cs = tp_torus_erode_corners(c->er, sh[r].len);
		if (!cs) {
			c->failed = 1;
			return;
		}
		for (int k = tp_torus_erode_next(c->er, cs, 0); k >= 0;
		     k = tp_torus_erode_next(c->er, cs, k + 1)) {
			tp_box box;
			box_at(c, k, sh[r].len, &box);
			if (fn(c, &box))
				return;
		}
	}
}

static bool corner_in(const uint64_t *cs, int k)
{
	return cs[k >> 6] >> (k & 63) & 1;
}

/* Every shape's corner set first (nsh sets), then the corners of their
 * union in index order, each with its shapes in shape order. */
void tp_torus_each_offset_major(cand_ctx *c, const tp_torus_shape *sh,
				int nsh, cand_fn fn)
{
	int W = (tp_torus_nnodes(c->t) + 63) / 64;
	uint64_t *sets = malloc((size_t)nsh * W * sizeof(uint64_t));
	uint64_t *any = calloc((size_t)W, sizeof(uint64_t));
	if (!sets || !any)
		goto fail;
	for (int r = 0; r < nsh; r++) {
		const uint64_t *cs = tp_torus_erode_corners(c->er, sh[r].len);
		if (!cs)
			goto fail;
		memcpy(sets + (size_t)r * W, cs, (size_t)W * sizeof(uint64_t));
		for (int w = 0; w < W; w++)
			any[w] |= cs[w];
	}
	for (int k = tp_torus_erode_next(c->er, any, 0); k >= 0;
	     k = tp_torus_erode_next(c->er, any, k + 1)) {
		for (int r = 0; r < nsh; r++) {
			tp_box box;
			if (!corner_in(sets + (size_t)r * W, k))
				continue;
			box_at(c, k, sh[r].len, &box);
			if (fn(c, &box))
				goto done;
		}
	}
	goto done;
fail:
	c->failed = 1;
done:
	free(sets);
	free(any);
}

bool tp_torus_take_first(cand_ctx *c, const tp_box *box)
{
	c->found = true;
	c->box = *box;
	return true;
}
