/*
 * alloc_torus_compact.c - torus-compact's scan (torus.conf Method=compact,
 * the default): base's compactness with mss's free space.
 *
 * torus-base takes the most compact shape that has a free box, so its
 * jobs' nodes are close, but it leaves whatever free space that box
 * leaves; torus-mss takes the box that leaves the most free space (phi),
 * whatever its shape, so it keeps large boxes free at the price of
 * stretched jobs.  torus-compact takes the shapes whose mean diameter is
 * at most (100 + CompactSlack) % of the most compact shape with a free
 * box, grouped in classes of equal mean diameter, most compact first;
 * mss's scan (alloc_torus_mss.c) gives each class's best box by phi.
 * The class whose best box leaves the largest free box wins, the more
 * compact one on a tie: a less compact shape is taken only when it
 * leaves a larger free box, never for a larger count of equally large
 * ones.  So each later class is scanned with a floor on phi, N (L + 1)
 * for the best L so far, which its branch and bound prunes by, and once
 * a class leaves a box as large as the largest free box now (L*, which
 * no placement can raise) the scan stops.  One preparation (bound,
 * evaluators, reaches) serves every class: they share the free set.
 */
#include "alloc/torus_cand.h"

/* 128-bit cross-multiplied mean diameters, as the shape order compares
 * them (torus_box.c): pair_sum / (size (size - 1)). */
typedef unsigned __int128 u128;

static u128 pairs_of(const tp_torus_shape *s)
{
	return s->size > 1 ? (u128)s->size * (unsigned)(s->size - 1) : 1;
}

/* a's mean diameter times `num` is at most b's times `den` */
static bool diameter_at_most(const tp_torus_shape *a, const tp_torus_shape *b,
			     unsigned num, unsigned den)
{
	return (u128)a->pair_sum * pairs_of(b) * num <=
	       (u128)b->pair_sum * pairs_of(a) * den;
}

static bool same_class(const tp_torus_shape *a, const tp_torus_shape *b)
{
	return diameter_at_most(a, b, 1, 1) && diameter_at_most(b, a, 1, 1);
}

/* Does some box of shape r lie in the free set?  -1 on ENOMEM. */
static int has_free_box(cand_ctx *c, const tp_torus_shape *s)
{
	const uint64_t *cs = tp_torus_erode_corners(c->er, s->len);
	if (!cs)
		return -1;
	return tp_torus_erode_next(c->er, cs, 0) >= 0;
}

/* The first shape of sh[from..end) with a free box, end if none, -1 on
 * ENOMEM. */
static int first_free(cand_ctx *c, const tp_torus_shape *sh, int from,
		      int end)
{
	for (int r = from; r < end; r++) {
		int f = has_free_box(c, &sh[r]);
		if (f)
			return f < 0 ? -1 : r;
	}
	return end;
}

/* mss's scan over the class sh[0..nsh), restarted with the floor a box
 * must reach to leave a free box larger than `beat` (-1: any box).  1
 * with its choice in *box and the volume of the largest free box it
 * leaves in *left, 0 if it chose none; -1 on ENOMEM. */
static int class_best(cand_ctx *c, const tp_torus_shape *sh, int nsh,
		      cand_each_fn each, int beat, tp_box *box, int *left)
{
	int64_t N = tp_torus_nnodes(c->t);
	tp_torus_mss_restart(c, (int64_t)(beat + 1) * N);
	tp_torus_mss_scan(c, sh, nsh, each);
	if (c->failed)
		return -1;
	if (c->best_ordinal < 0)
		return 0;
	*box = c->box;
	/* phi = N L + P with P < N: a placement takes a node, so at most
	 * N - 1 free boxes are left */
	*left = (int)(c->best_phi / N);
	return 1;
}

void tp_torus_compact_scan(cand_ctx *c, const tp_torus_shape *sh, int nsh,
			   cand_each_fn each)
{
	unsigned slack = (unsigned)tp_torus_options(c->t)->compact_slack;
	/* L*, which no placement can leave larger; unknown without the
	 * bound (TP_TORUS_PLACE_NO_BOUND) */
	int largest = c->bound == INT64_MAX ? -1 : c->volume;
	int head = first_free(c, sh, 0, nsh), best_left = -1;
	tp_box best;
	if (head < 0) {
		c->failed = 1;
		return;
	}
	for (int r = head; r < nsh && (largest < 0 || best_left < largest) &&
	     diameter_at_most(&sh[r], &sh[head], 100, 100 + slack);) {
		int end = r + 1, left = 0, got = 0;
		while (end < nsh && same_class(&sh[end], &sh[r]))
			end++;
		int f = first_free(c, sh, r, end);
		if (f >= 0 && f < end)
			got = class_best(c, sh + f, end - f, each, best_left,
					 &best, &left);
		if (f < 0 || got < 0) {
			c->failed = 1;
			return;
		}
		if (got) {
			c->box = best;
			best_left = left;
		}
		r = end;
	}
	c->found = best_left >= 0;
}
