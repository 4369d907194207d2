/*
 * fattree_dpcache.c - DP tables kept per switch and rebuilt above the
 * leaves whose free counts changed; see fattree_dpcache.h.
 */
#include "alloc/fattree_dpcache.h"

#include <stdlib.h>
#include <string.h>

#include "alloc/fattree_merge.h"

static void state_fini(ft_dpstate *s, int nswitch)
{
	for (int v = 0; s->val && v < nswitch; v++)
		free(s->val[v]);
	for (int v = 0; s->cho && v < nswitch; v++)
		free(s->cho[v]);
	free(s->val);
	free(s->cho);
	free(s->room);
	free(s->snap);
	free(s->dpos);
	free(s->xcap);
	free(s->first);
	free(s->mg_n);
	free(s->mg);
	free(s->tab);
	memset(s, 0, sizeof(*s));
}

static int state_init(ft_dpstate *s, int nswitch)
{
	size_t n = (size_t)nswitch;
	memset(s, 0, sizeof(*s));
	s->val = calloc(n, sizeof(*s->val));
	s->cho = calloc(n, sizeof(*s->cho));
	s->room = calloc(n, sizeof(*s->room));
	s->snap = calloc(n, sizeof(*s->snap));
	s->dpos = calloc(n, sizeof(int));
	s->xcap = calloc(n, sizeof(int));
	s->first = calloc(n, sizeof(int));
	s->mg_n = calloc(n, sizeof(int));
	s->mg = calloc(n, sizeof(*s->mg));
	s->tab = calloc(n, sizeof(*s->tab));
	if (!s->val || !s->cho || !s->room || !s->snap || !s->dpos ||
	    !s->xcap || !s->first || !s->mg_n || !s->mg || !s->tab) {
		state_fini(s, nswitch);
		return -1;
	}
	return 0;
}

void ft_dpcache_fini(ft_dpcache *d)
{
	if (!d->t)
		return;
	for (int i = 0; i < FT_DP_STATES; i++)
		state_fini(&d->st[i], d->t->nswitch);
	free(d->mg_lo);
	free(d->cidx);
	memset(d, 0, sizeof(*d));
}

int ft_dpcache_init(ft_dpcache *d, const tp_fattree *t)
{
	memset(d, 0, sizeof(*d));
	d->t = t;
	d->mg_lo = malloc((size_t)t->nswitch * sizeof(int));
	d->cidx = calloc((size_t)t->nswitch, sizeof(int));
	int rc = d->mg_lo && d->cidx ? 0 : -1;
	for (int i = 0; i < FT_DP_STATES && !rc; i++)
		rc = state_init(&d->st[i], t->nswitch);
	if (rc) {
		ft_dpcache_fini(d);
		return -1;
	}
	d->uniform = true;
	int depth = -1;
	for (int l = 0; l < t->nleaf; l++) {
		const tp_fattree_switch *sw = &t->sw[t->leaves[l]];
		if (sw->msu_hi - sw->msu_lo > d->max_leaf_msus)
			d->max_leaf_msus = sw->msu_hi - sw->msu_lo;
		if (sw->depth > d->max_depth)
			d->max_depth = sw->depth;
		if (sw->msu_hi == sw->msu_lo)
			continue;
		if (depth >= 0 && sw->depth != depth)
			d->uniform = false;
		depth = sw->depth;
	}
	/* A switch merges each child after its first into the table so far:
	 * fewer merges than children, so nswitch slots hold them all. */
	int lo = 0;
	for (int v = 0; v < t->nswitch; v++) {
		d->mg_lo[v] = lo;
		lo += t->sw[v].nchild > 0 ? t->sw[v].nchild - 1 : 0;
		for (int i = 0; i < t->sw[v].nchild; i++)
			d->cidx[t->sw[v].child[i]] = i;
	}
	return 0;
}

/* The state for this key: a kept one, else the least recently used one,
 * emptied (every switch to be built). */
static ft_dpstate *take_state(ft_dpcache *d, const ft_dpkey *key)
{
	ft_dpstate *s = NULL;
	for (int i = 0; i < FT_DP_STATES && !s; i++) {
		ft_dpstate *c = &d->st[i];
		if (c->valid && c->cap == key->cap && c->kv == key->kv &&
		    c->K == key->K && c->prefer == key->prefer)
			s = c;
	}
	if (!s) {
		s = &d->st[0];
		for (int i = 1; i < FT_DP_STATES; i++)
			if (!d->st[i].valid || (s->valid && d->st[i].used < s->used))
				s = &d->st[i];
		s->valid = false;
		s->cap = key->cap;
		s->kv = key->kv;
		s->K = key->K;
		s->prefer = key->prefer;
		s->kband = 0;
		memset(s->dpos, 0, (size_t)d->t->nswitch * sizeof(int));
	}
	s->used = ++d->clock;
	return s;
}

/* Which tables answer a job of k units (K, prefer: the weights of a fresh
 * build).  In general those built for exactly (k, K, prefer).  When every
 * leaf with units is at the same depth D, the leaf term x (k - 1) D sums
 * to (k - 1) D r over any r chosen units, the same for every choice of r
 * units, so it is left out (kv = 1) without changing a comparison; with
 * the tie-break, any K above the largest tie-break sum ranks values as
 * (hops, tie-break) pairs, as the fresh K does, so one K per cap serves
 * every k; and entries up to k of a table capped at cap >= k are those of
 * one capped at k (the same pairs, met in the same order).  Caps are
 * powers of two: few states serve every size. */
static ft_dpkey key_for(const ft_dpcache *d, int k, int64_t K, int prefer)
{
	ft_dpkey exact = { .cap = k, .kv = k, .K = K, .prefer = prefer };
	if (!d->uniform)
		return exact;
	int cap = 1;
	while (cap < k)
		cap *= 2;
	ft_dpkey key = { .cap = cap, .kv = 1, .K = 1, .prefer = prefer };
	if (prefer) {
		double Kc = (double)cap * d->max_leaf_msus + 1;
		if (4.0 * cap * (double)cap * (d->max_depth + 1) * Kc >= 4e18)
			return exact;
		key.K = (int64_t)Kc;
	}
	return key;
}

/* Mark every switch above a leaf whose free-unit count changed since the
 * tables were built.  Without short units a leaf's completely free units
 * are its full ones (leaf_free == leaf_full), which is all a table reads
 * of the free set; which units they are is read when picking. */
static void mark_changed(const ft_dpcache *d, ft_dpstate *s, const ft_counts *c)
{
	const tp_fattree *t = d->t;
	for (int l = 0; l < t->nleaf; l++) {
		int v = t->leaves[l];
		if (s->valid && s->snap[v] == c->leaf_full[v])
			continue;
		s->snap[v] = c->leaf_full[v];
		s->dpos[v] = 0;
		/* up to the first switch already marked: those above it
		 * were marked through the same child */
		for (int u = v, p = t->sw[v].parent; p >= 0; u = p, p = t->sw[p].parent) {
			int was = s->dpos[p];
			if (was < 0 || d->cidx[u] < was)
				s->dpos[p] = d->cidx[u];
			if (was >= 0)
				break;
		}
	}
}

static int reserve(ft_dpstate *s, int v, size_t need)
{
	if (need <= s->room[v])
		return 0;
	size_t cap = s->room[v] ? s->room[v] : 4;
	while (cap < need)
		cap *= 2;
	int64_t *val = realloc(s->val[v], cap * sizeof(*val));
	if (!val)
		return -1;
	s->val[v] = val;
	int32_t *cho = realloc(s->cho[v], cap * sizeof(*cho));
	if (!cho)
		return -1;
	s->cho[v] = cho;
	s->room[v] = cap;
	return 0;
}

static int build_leaf(ft_dpstate *s, const tp_fattree *t, const ft_counts *c,
		      int v)
{
	int xc = s->xcap[v];
	if (reserve(s, v, (size_t)xc + 1))
		return -1;
	for (int x = 0; x <= xc; x++)
		s->val[v][x] = ft_leaf_value(x, s->kv, t->sw[v].depth, s->K,
					     s->prefer, c->leaf_free[v]);
	s->tab[v] = s->val[v];
	return 0;
}

/* Units the children of the (real) root hold, each capped as its table
 * is: the band's bound (fattree_dpcache.h); 0 elsewhere (no band). */
static int band_units(const ft_dpcache *d, const ft_dpstate *s,
		      const ft_counts *c, int v)
{
	const tp_fattree_switch *sw = &d->t->sw[v];
	int units = 0;
	if (v != d->t->root || sw->is_virtual)
		return 0;
	for (int i = 0; i < sw->nchild; i++)
		units += ft_mini(s->cap, c->sub[sw->child[i]]);
	return units;
}

/* The same merges, in the same order and with the same caps, as a fresh
 * build (alloc_fattree.c: plan_plain, run_dp), at the root from its band
 * on.  The merges of children before the first changed one are kept when
 * they are the same merges and their band holds the one needed now: the
 * table so far is then the same where it is read. */
static int build_inner(ft_dpcache *d, ft_dpstate *s, const ft_counts *c, int v)
{
	const tp_fattree_switch *sw = &d->t->sw[v];
	ft_dpmerge *mg = s->mg + d->mg_lo[v];
	size_t total = 0;
	int accF = 0, n = 0, first = -1, had = s->mg_n[v], keep = 0;
	int after = band_units(d, s, c, v); /* held by the children after i */
	bool band = after > 0;
	bool same = s->first[v] >= 0 && s->dpos[v] > 0;
	for (int i = 0; i < sw->nchild; i++) {
		int ch = sw->child[i];
		if (!c->sub[ch])
			continue;
		after -= ft_mini(s->cap, c->sub[ch]);
		accF = ft_mini(s->cap, accF + ft_mini(s->cap, c->sub[ch]));
		if (first < 0) {
			first = ch;
			same = same && ch == s->first[v] && i < s->dpos[v];
			continue;
		}
		int lo = band ? ft_maxi(0, s->kband - after) : 0;
		int hi = band ? ft_mini(accF, s->kband) : accF;
		ft_dpmerge m = { .child = ch, .x = accF, .lo = lo, .hi = hi,
				 .off = total };
		same = same && n < had && i < s->dpos[v] && mg[n].child == ch &&
		       mg[n].x == accF && mg[n].lo <= lo && mg[n].hi >= hi;
		keep += same;
		if (same)
			m = mg[n];
		mg[n++] = m;
		total += (size_t)accF + 1;
	}
	s->first[v] = first;
	s->mg_n[v] = n;
	if (reserve(s, v, total))
		return -1;
	const int64_t *A = keep ? s->val[v] + mg[keep - 1].off : s->tab[first];
	int xa = keep ? mg[keep - 1].hi : s->xcap[first];
	int64_t w = -2 * (int64_t)sw->depth * s->K;
	for (int i = keep; i < n; i++) {
		int ch = mg[i].child;
		int64_t *R = s->val[v] + mg[i].off;
		ft_merge_plain(A, xa, s->tab[ch], s->xcap[ch], R,
			       s->cho[v] + mg[i].off, mg[i].lo, mg[i].hi, w,
			       sw->is_virtual);
		A = R;
		xa = mg[i].hi;
		d->banded += mg[i].lo > 0 || mg[i].hi < mg[i].x;
	}
	d->merges_kept += (uint64_t)keep;
	s->tab[v] = A;
	return 0;
}

static int build_switch(ft_dpcache *d, ft_dpstate *s, const ft_counts *c, int v)
{
	s->xcap[v] = ft_mini(s->cap, c->sub[v]);
	if (!c->sub[v]) {
		s->tab[v] = NULL;
		s->mg_n[v] = 0;
		s->first[v] = -1;
		return 0;
	}
	if (d->t->sw[v].nchild == 0)
		return build_leaf(s, d->t, c, v);
	return build_inner(d, s, c, v);
}

ft_dpstate *ft_dpcache_build(ft_dpcache *d, const ft_counts *c, int k,
			     int64_t K, int prefer)
{
	const tp_fattree *t = d->t;
	ft_dpkey key = key_for(d, k, K, prefer);
	ft_dpstate *s = take_state(d, &key);
	mark_changed(d, s, c);
	if (k != s->kband) {
		/* the root's merges whose band misses k's are made again
		 * (build_inner) */
		s->kband = k;
		if (s->dpos[t->root] < 0)
			s->dpos[t->root] = t->sw[t->root].nchild;
	}
	for (int i = 0; i < t->nswitch; i++) {
		int v = t->postorder[i];
		if (s->dpos[v] < 0) {
			d->reused++;
			continue;
		}
		if (build_switch(d, s, c, v)) {
			s->valid = false;
			return NULL;
		}
		s->dpos[v] = -1;
		d->built++;
	}
	s->valid = true;
	return s;
}

static int pick_leaf(const tp_fattree *t, const ft_counts *c, int v, int x,
		     int *picked, int np)
{
	const tp_fattree_switch *sw = &t->sw[v];
	for (int m = sw->msu_lo; m < sw->msu_hi && x > 0; m++)
		if (tp_fattree_msu_size(t, m) == c->nunit && c->mfree[m] == c->nunit) {
			picked[np++] = m;
			x--;
		}
	return np;
}

int ft_dpcache_pick(const ft_dpcache *d, const ft_dpstate *s,
		    const ft_counts *c, int k, int *stack, int *picked)
{
	const tp_fattree *t = d->t;
	int sp = 0, np = 0;
	stack[sp++] = t->root;
	stack[sp++] = k;
	while (sp) {
		int x = stack[--sp], v = stack[--sp];
		if (!x)
			continue;
		if (t->sw[v].nchild == 0) {
			np = pick_leaf(t, c, v, x, picked, np);
			continue;
		}
		const ft_dpmerge *mg = s->mg + d->mg_lo[v];
		for (int i = s->mg_n[v] - 1; i >= 0; i--) {
			int jx = s->cho[v][mg[i].off + x];
			stack[sp++] = mg[i].child;
			stack[sp++] = jx;
			x -= jx;
		}
		stack[sp++] = s->first[v];
		stack[sp++] = x;
	}
	return np;
}
