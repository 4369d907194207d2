/*
 * fattree_msu.c - minimum scheduling units (MSUs) of a fat tree, the hop
 * count between them and the patent's hop-sum metric.  See fattree.h.
 */
#include "topology/fattree.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int tp_fattree_build_msus(tp_fattree *t, tp_error *err);

void tp_fattree_opts_default(tp_fattree_opts *o)
{
	o->msu_size = 0;
	o->busy_fallback = 1;
	o->prefer_full = 1;
}

int tp_fattree_nunit_rule(int nnodes, int nleaf)
{
	int cap = nnodes <= 4096 ? 4 : 8;
	return nleaf <= cap ? nleaf : cap;
}

int tp_fattree_build_msus(tp_fattree *t, tp_error *err)
{
	int nunit = t->opts.msu_size ? t->opts.msu_size
				     : tp_fattree_nunit_rule(t->nnodes, t->max_leaf);
	if (nunit < 1)
		nunit = 1;
	int nmsu = 0;
	for (int l = 0; l < t->nleaf; l++) {
		const tp_fattree_switch *s = &t->sw[t->leaves[l]];
		nmsu += (s->node_hi - s->node_lo + nunit - 1) / nunit;
	}
	int *lo = malloc((size_t)(nmsu + 1) * sizeof(int));
	int *leaf = malloc((size_t)(nmsu ? nmsu : 1) * sizeof(int));
	int *node_msu = malloc((size_t)(t->nnodes ? t->nnodes : 1) * sizeof(int));
	if (!lo || !leaf || !node_msu) {
		free(lo);
		free(leaf);
		free(node_msu);
		return tp_errorf(err, "%s: out of memory", t->path);
	}
	int m = 0;
	for (int l = 0; l < t->nleaf; l++) {
		tp_fattree_switch *s = &t->sw[t->leaves[l]];
		s->msu_lo = m;
		for (int v = s->node_lo; v < s->node_hi; v += nunit) {
			lo[m] = v;
			leaf[m] = t->leaves[l];
			int end = v + nunit < s->node_hi ? v + nunit : s->node_hi;
			for (int k = v; k < end; k++)
				node_msu[k] = m;
			m++;
		}
		s->msu_hi = m;
	}
	lo[nmsu] = t->nnodes;
	free(t->msu_lo);
	free(t->msu_leaf);
	free(t->node_msu);
	t->msu_lo = lo;
	t->msu_leaf = leaf;
	t->node_msu = node_msu;
	t->nmsu = nmsu;
	t->nunit = nunit;
	return 0;
}

int tp_fattree_set_opts(tp_fattree *t, const tp_fattree_opts *o, tp_error *err)
{
	if (o->msu_size < 0 || o->busy_fallback < 0 || o->busy_fallback > 1 ||
	    o->prefer_full < 0 || o->prefer_full > 1)
		return tp_errorf(err, "fattree options: msu_size %d must be >= 0, busy_fallback %d and prefer_full %d 0 or 1",
				 o->msu_size, o->busy_fallback, o->prefer_full);
	tp_fattree_opts old = t->opts;
	t->opts = *o;
	if (tp_fattree_build_msus(t, err)) {
		t->opts = old;
		return -1;
	}
	return 0;
}

int tp_fattree_nunit(const tp_fattree *t)
{
	return t->nunit;
}

int tp_fattree_nmsu(const tp_fattree *t)
{
	return t->nmsu;
}

int tp_fattree_msu_hops(const tp_fattree *t, int m1, int m2)
{
	if (m1 == m2)
		return 0;
	return tp_fattree_switch_dist(t, t->msu_leaf[m1], t->msu_leaf[m2]) + 1;
}

int tp_fattree_msu_free(const tp_fattree *t, const tp_nodeset *free, int m)
{
	return tp_fattree_count_range(free, t->msu_lo[m], t->msu_lo[m + 1]);
}

static long long pairs(long long x)
{
	return x * (x - 1) / 2;
}

/*
 * Sum of hops over pairs of touched MSUs without visiting pairs.  With D
 * the depth of a switch, a pair (a, b) with lowest common switch v costs
 * D(a) + D(b) - 2 D(v) + 1 routers (same leaf: v is the leaf, cost 1), so
 * over u units: (u-1) sum_a D(a) + C(u,2) - 2 sum_v D(v) P(v), where P(v)
 * is the number of pairs whose lowest common switch is v:
 * C(x_v,2) - sum over children c of C(x_c,2).  A child is one deeper
 * than its parent, so sum_v D(v) P(v) is the sum of C(x_v,2) over the
 * switches below the root: only the switches above a touched unit are
 * visited, not the whole tree (the engine asks at every start).
 */
long long tp_fattree_hop_sum(const tp_fattree *t, const tp_nodeset *nodes)
{
	char *touched = calloc((size_t)(t->nmsu ? t->nmsu : 1), 1);
	long long *x = calloc((size_t)t->nswitch, sizeof(*x));
	int *seen = malloc((size_t)t->nswitch * sizeof(*seen)), nseen = 0;
	if (!touched || !x || !seen) {
		free(touched);
		free(x);
		free(seen);
		return -1;
	}
	int words = tp_nodeset_words(nodes);
	for (int k = 0; k < words; k++)
		for (uint64_t w = nodes->w[k]; w; w &= w - 1) {
			int i = k * 64 + tp_ctz64(w);
			int m = t->node_msu[i];
			if (touched[m])
				continue;
			touched[m] = 1;
			for (int v = t->msu_leaf[m]; v >= 0; v = t->sw[v].parent)
				if (!x[v]++)
					seen[nseen++] = v;
		}
	long long sum_depth = 0, lca_depth = 0;
	for (int k = 0; k < nseen; k++) {
		int v = seen[k];
		const tp_fattree_switch *s = &t->sw[v];
		if (s->nchild == 0)
			sum_depth += x[v] * s->depth;
		if (v != t->root)
			lca_depth += pairs(x[v]);
	}
	long long u = x[t->root];
	free(touched);
	free(x);
	free(seen);
	if (u < 2)
		return 0;
	return (u - 1) * sum_depth + pairs(u) - 2 * lca_depth;
}
