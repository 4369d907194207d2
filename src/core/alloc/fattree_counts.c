/*
 * fattree_counts.c - free counts of MSUs, leaves and subtrees kept up to
 * date by comparing free sets word by word.  See fattree_counts.h.
 */
#include "alloc/fattree_counts.h"

#include <stdlib.h>
#include <string.h>

/* Busy MSUs by free count cost (largest MSU) x nmsu bits; beyond a few
 * bits per node (huge units over many tiny leaves) they are found by
 * scanning mfree instead. */
#define BUSY_BITS_PER_NODE 4

static int max_msu_size(const tp_fattree *t)
{
	int best = 0;
	for (int m = 0; m < t->nmsu; m++)
		if (tp_fattree_msu_size(t, m) > best)
			best = tp_fattree_msu_size(t, m);
	return best;
}

static int max_leaf_msus(const tp_fattree *t)
{
	int best = 0;
	for (int l = 0; l < t->nleaf; l++) {
		const tp_fattree_switch *s = &t->sw[t->leaves[l]];
		if (s->msu_hi - s->msu_lo > best)
			best = s->msu_hi - s->msu_lo;
	}
	return best;
}

static void locate_msus(ft_counts *c)
{
	const tp_fattree *t = c->t;
	for (int m = 0; m < t->nmsu; m++) {
		int lo = t->msu_lo[m], size = tp_fattree_msu_size(t, m);
		c->mword[m] = (lo & 63) + size <= 64 ? lo >> 6 : -1;
		c->mshift[m] = (uint8_t)(lo & 63);
		c->mmask[m] = size >= 64 ? ~0ull : ((uint64_t)1 << size) - 1;
	}
}

/* Bit sets of busy MSUs, when small enough (see BUSY_BITS_PER_NODE). */
static int alloc_busy(ft_counts *c)
{
	const tp_fattree *t = c->t;
	int sizes = max_msu_size(t);
	c->bwords = (t->nmsu + 63) / 64;
	if ((double)sizes * t->nmsu > (double)BUSY_BITS_PER_NODE * t->nnodes + 4096)
		return 0;
	c->busy = calloc((size_t)sizes * (size_t)c->bwords + 1, sizeof(uint64_t));
	return c->busy ? 0 : -1;
}

int ft_counts_init(ft_counts *c, const tp_fattree *t)
{
	memset(c, 0, sizeof(*c));
	size_t ns = (size_t)t->nswitch, nm = (size_t)(t->nmsu ? t->nmsu : 1);
	c->t = t;
	c->nunit = t->nunit;
	c->nwords = (t->nnodes + 63) / 64;
	c->mword = malloc(nm * sizeof(int));
	c->mshift = malloc(nm);
	c->mmask = malloc(nm * sizeof(uint64_t));
	c->mfree = calloc(nm, sizeof(int));
	c->leaf_free = calloc(ns, sizeof(int));
	c->leaf_full = calloc(ns, sizeof(int));
	c->sub = calloc(ns, sizeof(int));
	c->short_hist = calloc((size_t)t->nunit + 1, sizeof(int));
	c->lf_hist = calloc((size_t)max_leaf_msus(t) + 1, sizeof(int));
	c->nbusy = calloc((size_t)t->nunit + 1, sizeof(int));
	c->seen = calloc((size_t)c->nwords + 1, sizeof(uint64_t));
	if (!c->mword || !c->mshift || !c->mmask || !c->mfree ||
	    !c->leaf_free || !c->leaf_full || !c->sub || !c->short_hist ||
	    !c->lf_hist || !c->nbusy || !c->seen || alloc_busy(c)) {
		ft_counts_fini(c);
		return -1;
	}
	c->lf_hist[0] = t->nleaf;
	locate_msus(c);
	return 0;
}

void ft_counts_fini(ft_counts *c)
{
	free(c->mword);
	free(c->mshift);
	free(c->mmask);
	free(c->mfree);
	free(c->leaf_free);
	free(c->leaf_full);
	free(c->sub);
	free(c->short_hist);
	free(c->lf_hist);
	free(c->busy);
	free(c->nbusy);
	free(c->seen);
	memset(c, 0, sizeof(*c));
}

int ft_counts_msu_free(const ft_counts *c, const tp_nodeset *free, int m)
{
	int w = c->mword[m];
	if (w < 0)
		return tp_fattree_count_range(free, c->t->msu_lo[m], c->t->msu_lo[m + 1]);
	return tp_fattree_popcount64((free->w[w] >> c->mshift[m]) & c->mmask[m]);
}

static void busy_flip(ft_counts *c, int m, int f)
{
	c->busy[(size_t)f * c->bwords + (m >> 6)] ^= (uint64_t)1 << (m & 63);
}

/* MSU m left (delta -1) or joined (+1) the set of busy MSUs with f free. */
static void busy_move(ft_counts *c, int m, int f, int delta)
{
	if (f <= 0 || f >= tp_fattree_msu_size(c->t, m))
		return;
	c->nbusy[f] += delta;
	if (c->busy)
		busy_flip(c, m, f);
}

/* Leaf counters, the leaf histogram and the subtree counts when MSU m
 * became completely free (delta +1) or stopped being so (-1). */
static void unit_freed(ft_counts *c, int m, int delta)
{
	const tp_fattree *t = c->t;
	int l = t->msu_leaf[m], size = tp_fattree_msu_size(t, m);
	c->lf_hist[c->leaf_free[l]]--;
	c->leaf_free[l] += delta;
	c->lf_hist[c->leaf_free[l]]++;
	if (c->leaf_free[l] > c->max_leaf_free)
		c->max_leaf_free = c->leaf_free[l];
	while (c->max_leaf_free > 0 && !c->lf_hist[c->max_leaf_free])
		c->max_leaf_free--;
	if (size == c->nunit) {
		c->leaf_full[l] += delta;
		c->free_full += delta;
	} else {
		c->short_hist[size] += delta;
		c->free_short += delta;
	}
	for (int v = l; v >= 0; v = t->sw[v].parent)
		c->sub[v] += delta;
}

static void set_msu_free(ft_counts *c, int m, int f)
{
	int old = c->mfree[m], size = tp_fattree_msu_size(c->t, m);
	if (old == f)
		return;
	busy_move(c, m, old, -1);
	busy_move(c, m, f, +1);
	c->mfree[m] = f;
	if ((old == size) != (f == size))
		unit_freed(c, m, f == size ? +1 : -1);
}

void ft_counts_update(ft_counts *c, const tp_nodeset *free)
{
	const tp_fattree *t = c->t;
	for (int w = 0; w < c->nwords; w++) {
		if (free->w[w] == c->seen[w])
			continue;
		c->seen[w] = free->w[w];
		int hi = (w + 1) * 64 < t->nnodes ? (w + 1) * 64 : t->nnodes;
		for (int m = t->node_msu[w * 64]; m <= t->node_msu[hi - 1]; m++)
			set_msu_free(c, m, ft_counts_msu_free(c, free, m));
	}
}

static int busy_scan(const ft_counts *c, int f)
{
	for (int m = 0; m < c->t->nmsu; m++)
		if (c->mfree[m] == f && f < tp_fattree_msu_size(c->t, m))
			return m;
	return -1;
}

int ft_counts_busy_first(const ft_counts *c, int f)
{
	if (!c->nbusy[f])
		return -1;
	if (!c->busy)
		return busy_scan(c, f);
	const uint64_t *b = c->busy + (size_t)f * c->bwords;
	for (int w = 0; w < c->bwords; w++)
		if (b[w])
			return w * 64 + tp_ctz64(b[w]);
	return -1;
}
