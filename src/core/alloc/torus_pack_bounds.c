/* torus_pack_bounds.c - per-shape bounds carried between Shapeless=pack
 * searches; see torus_pack_bounds.h. */
#include "alloc/torus_pack_bounds.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/bitops.h"

/* A bound no search has set: the shape is looked at. */
#define UNKNOWN INT_MAX

/* One table and the set its numbers hold on. */
typedef struct lane {
	bool have;
	tp_nodeset set;
	int *most;       /* [shape index]: free nodes of its fullest box */
	uint64_t used;   /* when last begun on, for replacement */
} lane;

struct tp_pack_bounds {
	int n, N;
	int dims[TP_TORUS_MAX_DIMS];
	int stride[TP_TORUS_MAX_DIMS]; /* of a shape's index, over len - 1 */
	lane lanes[TP_PACK_LANES];
	lane *cur;       /* the lane of the last begin, or NULL */
	uint64_t clock;
};

tp_pack_bounds *tp_pack_bounds_new(const tp_torus *t)
{
	tp_pack_bounds *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->n = tp_torus_ndims(t);
	b->N = tp_torus_nnodes(t);
	for (int i = b->n - 1, s = 1; i >= 0; i--) {
		b->dims[i] = tp_torus_dims(t)[i];
		b->stride[i] = s;
		s *= b->dims[i];
	}
	/* every shape's lengths lie in 1..d_i: N shapes */
	for (int l = 0; l < TP_PACK_LANES; l++)
		if (tp_nodeset_init(&b->lanes[l].set, b->N) ||
		    !(b->lanes[l].most = malloc((size_t)b->N * sizeof(int)))) {
			tp_pack_bounds_free(b);
			return NULL;
		}
	return b;
}

void tp_pack_bounds_free(tp_pack_bounds *b)
{
	if (!b)
		return;
	for (int l = 0; l < TP_PACK_LANES; l++) {
		tp_nodeset_fini(&b->lanes[l].set);
		free(b->lanes[l].most);
	}
	free(b);
}

/* Nodes of `free` that the lane's set lacks, and nodes in one set only. */
static int added_nodes(const lane *l, const tp_nodeset *free, int *differ)
{
	int added = 0, W = tp_nodeset_words(free);
	*differ = 0;
	for (int w = 0; w < W; w++) {
		added += tp_popcount64(free->w[w] & ~l->set.w[w]);
		*differ += tp_popcount64(free->w[w] ^ l->set.w[w]);
	}
	return added;
}

/* The numbers of l hold on `free`, which has `added` nodes its set
 * lacks: each grows by that many (one that reaches the machine's size
 * says nothing). */
static void rebase(const tp_pack_bounds *b, lane *l, int added)
{
	for (int k = 0; added && k < b->N; k++)
		if (l->most[k] != UNKNOWN)
			l->most[k] = l->most[k] < b->N - added
					     ? l->most[k] + added
					     : UNKNOWN;
}

static void forget(const tp_pack_bounds *b, lane *l)
{
	for (int k = 0; k < b->N; k++)
		l->most[k] = UNKNOWN;
	l->have = true;
}

/*
 * Among the lanes to whose set `free` adds at most an eighth of the
 * machine (past that a grown bound spares little), the one nearest to it
 * (fewest nodes in one set only), rebased: a step of the free set (a job
 * started or ended) keeps its numbers.  None: the least recently used
 * lane starts afresh on `free`.  slurmctld's questions on every node
 * ("could it ever run") and on the free ones alternate; the free nodes'
 * next set is nearer to their last one than to every node (though a
 * subset of both), so neither lane wipes the other's numbers.
 */
void tp_pack_bounds_begin(tp_pack_bounds *b, const tp_nodeset *free)
{
	if (!b || free->n != b->N)
		return;
	lane *best = NULL, *old = &b->lanes[0];
	int nearest = INT_MAX, best_added = 0;
	for (int i = 0; i < TP_PACK_LANES; i++) {
		lane *l = &b->lanes[i];
		if (l->used < old->used)
			old = l;
		if (!l->have)
			continue;
		int differ, added = added_nodes(l, free, &differ);
		if (added <= b->N / 8 && differ < nearest) {
			nearest = differ;
			best = l;
			best_added = added;
		}
	}
	if (best) {
		rebase(b, best, best_added);
	} else {
		best = old;
		forget(b, best);
	}
	tp_nodeset_copy(&best->set, free);
	best->used = ++b->clock;
	b->cur = best;
}

static int shape_index(const tp_pack_bounds *b, const int *len)
{
	int k = 0;
	for (int i = 0; i < b->n; i++)
		k += (len[i] - 1) * b->stride[i];
	return k;
}

static bool valid_shape(const tp_pack_bounds *b, const int *len)
{
	for (int i = 0; i < b->n; i++)
		if (len[i] < 1 || len[i] > b->dims[i])
			return false;
	return true;
}

bool tp_pack_bounds_below(const tp_pack_bounds *b, const int *len, int nodes)
{
	return b && b->cur && valid_shape(b, len) &&
	       b->cur->most[shape_index(b, len)] < nodes;
}

void tp_pack_bounds_note(tp_pack_bounds *b, const int *len, int most)
{
	if (!b || !b->cur || !valid_shape(b, len) || most < 0)
		return;
	int *m = &b->cur->most[shape_index(b, len)];
	if (most < *m)
		*m = most;
}
