/*
 * torus_mss.c - Find_MSS and the fragmentation metric phi (spec B), in two
 * evaluations that must agree: the direct one (node by node, the paper's
 * pseudo-code) and the fast one used by the torus-mss allocator.
 *
 * Why the fast one is exact.  Let S be the current state and S' = S minus a
 * candidate box B of free nodes.
 *  (1) grow(u) depends only on the free nodes it looked at: every extension
 *      that succeeded lies inside the final box, every one that failed hit a
 *      locked node or the end of a line, which stays so in S'.  Hence
 *      grow_S'(u) = grow_S(u) whenever grow_S(u) does not meet B.
 *  (2) The walk over seeds is the same in S and S' up to the first seed
 *      whose MSS meets B: until then the same boxes are discovered, and the
 *      next seed min(F \ discovered) is not in B (a seed lies in its own
 *      box), so removing B does not change the minimum.
 *  (3) If the S' walk reaches a node that is the i-th seed of S, no MSS of S
 *      from i on meets B, and the undiscovered sets agree (U' = U_i \ B),
 *      then by (1) and (2) the rest of the walk is S's, whose statistics
 *      are precomputed.
 * Between (2) and (3) the candidate's walk runs on its own, reusing grow_S
 * from a cache by (1).  Box tests use prefix sums (torus_box.c) plus an
 * interval test against B, so S' is never materialised.
 */
#include "torus.h"

#include <stdlib.h>
#include <string.h>

/* ---- growing a box ----------------------------------------------------- */

/* Is every node of `slab` free?  (Discovered nodes count as free.) */
typedef bool (*slab_open_fn)(void *ctx, const tp_box *slab);

/* Grow from node u in the directions +d0, -d0, +d1, -d1, ...; each as far
 * as it goes.  A spanned ring gets offset 0 (canonical form). */
static void grow(const tp_torus *t, int u, slab_open_fn open, void *ctx,
		 tp_box *box)
{
	int n = tp_torus_ndims(t);
	const int *dims = tp_torus_dims(t);
	const bool *wrap = tp_torus_wrap(t);
	memset(box, 0, sizeof(*box));
	tp_torus_coord(t, u, box->off);
	for (int i = 0; i < n; i++)
		box->len[i] = 1;
	for (int i = 0; i < n; i++) {
		int d = dims[i];
		for (int dir = 1; dir >= -1; dir -= 2) {
			while (box->len[i] < d) {
				int p;
				if (dir > 0) {
					if (!wrap[i] && box->off[i] + box->len[i] == d)
						break;
					p = (box->off[i] + box->len[i]) % d;
				} else {
					if (!wrap[i] && box->off[i] == 0)
						break;
					p = (box->off[i] - 1 + d) % d;
				}
				tp_box slab = *box;
				slab.off[i] = p;
				slab.len[i] = 1;
				if (!open(ctx, &slab))
					break;
				box->len[i]++;
				if (dir < 0)
					box->off[i] = p;
			}
		}
		if (box->len[i] == d)
			box->off[i] = 0;
	}
}

/* ---- the direct method --------------------------------------------------- */

enum { ST_FREE, ST_LOCKED, ST_DISCOVERED };

typedef struct naive_ctx {
	const tp_torus *t;
	const unsigned char *st;
} naive_ctx;

/* Visit the nodes of a box one by one; returns false from the visitor to
 * stop.  Odometer over local coordinates. */
static bool box_visit(const tp_torus *t, const tp_box *box,
		      bool (*visit)(void *ctx, int idx), void *ctx)
{
	int n = tp_torus_ndims(t), k[TP_TORUS_MAX_DIMS] = { 0 };
	int c[TP_TORUS_MAX_DIMS];
	const int *dims = tp_torus_dims(t);
	for (;;) {
		for (int i = 0; i < n; i++)
			c[i] = (box->off[i] + k[i]) % dims[i];
		if (!visit(ctx, tp_torus_index(t, c)))
			return false;
		int j = n - 1;
		while (j >= 0 && ++k[j] == box->len[j])
			k[j--] = 0;
		if (j < 0)
			return true;
	}
}

static bool naive_not_locked(void *ctx, int idx)
{
	return ((naive_ctx *)ctx)->st[idx] != ST_LOCKED;
}

static bool naive_open(void *ctx, const tp_box *slab)
{
	naive_ctx *c = ctx;
	return box_visit(c->t, slab, naive_not_locked, c);
}

static bool mark_discovered(void *ctx, int idx)
{
	((unsigned char *)ctx)[idx] = ST_DISCOVERED;
	return true;
}

int tp_torus_find_mss(const tp_torus *t, const tp_nodeset *avail,
		      tp_box **boxes, int **seeds)
{
	int N = tp_torus_nnodes(t), k = 0, cap = 16;
	unsigned char *st = malloc((size_t)N);
	tp_box *b = malloc((size_t)cap * sizeof(*b));
	int *s = malloc((size_t)cap * sizeof(*s));
	if (!st || !b || !s)
		goto nomem;
	for (int u = 0; u < N; u++)
		st[u] = tp_nodeset_test(avail, u) ? ST_FREE : ST_LOCKED;
	naive_ctx ctx = { t, st };
	for (int u = 0; u < N; u++) {
		if (st[u] != ST_FREE)
			continue;
		if (k == cap) {
			cap *= 2;
			tp_box *nb = realloc(b, (size_t)cap * sizeof(*b));
			if (nb)
				b = nb;
			int *ns = realloc(s, (size_t)cap * sizeof(*s));
			if (ns)
				s = ns;
			if (!nb || !ns)
				goto nomem;
		}
		grow(t, u, naive_open, &ctx, &b[k]);
		s[k] = u;
		box_visit(t, &b[k], mark_discovered, st);
		k++;
	}
	free(st);
	*boxes = b;
	if (seeds)
		*seeds = s;
	else
		free(s);
	return k;
nomem:
	free(st);
	free(b);
	free(s);
	return -1;
}

static int64_t phi_of(int64_t N, int maxsize, int count)
{
	return N * maxsize + count;
}

int64_t tp_torus_mss_phi(const tp_torus *t, const tp_nodeset *avail)
{
	tp_box *b;
	int k = tp_torus_find_mss(t, avail, &b, NULL);
	if (k < 0)
		return -1;
	int max = 0, cnt = 0;
	for (int i = 0; i < k; i++) {
		int sz = tp_torus_box_size(t, &b[i]);
		if (sz > max) {
			max = sz;
			cnt = 0;
		}
		cnt += sz == max;
	}
	free(b);
	return phi_of(tp_torus_nnodes(t), max, cnt);
}

/* ---- bit rows -------------------------------------------------------------- */

/* Set or clear bits [lo, hi) of a word array. */
static void bits_range(uint64_t *w, int lo, int hi, bool set)
{
	while (lo < hi) {
		int wi = lo >> 6, b = lo & 63;
		int nb = 64 - b < hi - lo ? 64 - b : hi - lo;
		uint64_t m = (nb == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nb) - 1)) << b;
		if (set)
			w[wi] |= m;
		else
			w[wi] &= ~m;
		lo += nb;
	}
}

/* Set or clear the nodes of a box: one run (two across the seam) per row
 * of the last dimension. */
static void bits_box(const tp_torus *t, const tp_box *box, uint64_t *w,
		     bool set)
{
	int n = tp_torus_ndims(t), last = n - 1;
	const int *dims = tp_torus_dims(t);
	int k[TP_TORUS_MAX_DIMS] = { 0 }, c[TP_TORUS_MAX_DIMS];
	int lo = box->off[last], hi = lo + box->len[last], d = dims[last];
	c[last] = 0;
	for (;;) {
		for (int i = 0; i < last; i++)
			c[i] = (box->off[i] + k[i]) % dims[i];
		int row = tp_torus_index(t, c);
		if (hi <= d) {
			bits_range(w, row + lo, row + hi, set);
		} else {
			bits_range(w, row + lo, row + d, set);
			bits_range(w, row, row + hi - d, set);
		}
		int j = last - 1;
		while (j >= 0 && ++k[j] == box->len[j])
			k[j--] = 0;
		if (j < 0)
			return;
	}
}

/* First set bit >= from, or -1. */
static int bits_next(const uint64_t *w, int nwords, int from)
{
	int wi = from >> 6;
	if (wi >= nwords)
		return -1;
	uint64_t cur = w[wi] & (~(uint64_t)0 << (from & 63));
	for (;;) {
		if (cur)
			return (wi << 6) + __builtin_ctzll(cur);
		if (++wi == nwords)
			return -1;
		cur = w[wi];
	}
}

/* ---- the evaluator ------------------------------------------------------- */

struct tp_mss_eval {
	const tp_torus *t;
	bool direct;
	int N, W;                /* nodes, 64-bit words per node set */
	tp_nodeset free;         /* S */
	tp_nodeset scratch;      /* direct: S' */

	tp_torus_counts *counts; /* locked counts of S */
	int K;                   /* MSSs of S, in discovery order */
	tp_box *mss;
	int *seed, *size;
	uint64_t *undisc;        /* K x W: undiscovered free nodes before seed i */
	int *pmax, *pcnt;        /* largest size and its count over seeds < i */
	int *smax, *scnt;        /* the same over seeds >= i */
	tp_box *cache;           /* grow_S(u), valid where cached[u] */
	unsigned char *cached;
	uint64_t *U, *bmask;     /* per-candidate scratch */
};

typedef struct fast_ctx {
	const tp_torus *t;
	const tp_torus_counts *counts;
	const tp_box *minus;     /* B, or NULL for S itself */
} fast_ctx;

static bool fast_open(void *ctx, const tp_box *slab)
{
	fast_ctx *c = ctx;
	if (tp_torus_counts_locked(c->counts, slab))
		return false;
	return !c->minus || !tp_torus_box_intersects(c->t, slab, c->minus);
}

/* grow_S(u), cached. */
static const tp_box *grow_s(tp_mss_eval *e, int u)
{
	if (!e->cached[u]) {
		fast_ctx ctx = { e->t, e->counts, NULL };
		grow(e->t, u, fast_open, &ctx, &e->cache[u]);
		e->cached[u] = 1;
	}
	return &e->cache[u];
}

static void stats_add(int *max, int *cnt, int size, int count)
{
	if (size > *max) {
		*max = size;
		*cnt = count;
	} else if (size == *max) {
		*cnt += count;
	}
}

/* Find_MSS of S with snapshots of the undiscovered set before each seed. */
static int fast_prepare(tp_mss_eval *e)
{
	int W = e->W, cap = 16;
	uint64_t *U = e->U;
	memcpy(U, e->free.w, (size_t)W * sizeof(*U));
	e->mss = malloc((size_t)cap * sizeof(*e->mss));
	e->seed = malloc((size_t)cap * sizeof(int));
	e->size = malloc((size_t)cap * sizeof(int));
	e->undisc = malloc((size_t)cap * (size_t)W * sizeof(uint64_t));
	if (!e->mss || !e->seed || !e->size || !e->undisc)
		return -1;
	for (int u = bits_next(U, W, 0); u >= 0; u = bits_next(U, W, u + 1)) {
		if (e->K == cap) {
			cap *= 2;
			void *p;
			if (!(p = realloc(e->mss, (size_t)cap * sizeof(*e->mss))))
				return -1;
			e->mss = p;
			if (!(p = realloc(e->seed, (size_t)cap * sizeof(int))))
				return -1;
			e->seed = p;
			if (!(p = realloc(e->size, (size_t)cap * sizeof(int))))
				return -1;
			e->size = p;
			if (!(p = realloc(e->undisc, (size_t)cap * (size_t)W * sizeof(uint64_t))))
				return -1;
			e->undisc = p;
		}
		int k = e->K++;
		memcpy(e->undisc + (size_t)k * W, U, (size_t)W * sizeof(*U));
		e->mss[k] = *grow_s(e, u);
		e->seed[k] = u;
		e->size[k] = tp_torus_box_size(e->t, &e->mss[k]);
		bits_box(e->t, &e->mss[k], U, false);
	}
	int K = e->K;
	e->pmax = calloc((size_t)K + 1, sizeof(int));
	e->pcnt = calloc((size_t)K + 1, sizeof(int));
	e->smax = calloc((size_t)K + 1, sizeof(int));
	e->scnt = calloc((size_t)K + 1, sizeof(int));
	if (!e->pmax || !e->pcnt || !e->smax || !e->scnt)
		return -1;
	for (int i = 0; i < K; i++) {
		e->pmax[i + 1] = e->pmax[i];
		e->pcnt[i + 1] = e->pcnt[i];
		stats_add(&e->pmax[i + 1], &e->pcnt[i + 1], e->size[i], 1);
	}
	for (int i = K - 1; i >= 0; i--) {
		e->smax[i] = e->smax[i + 1];
		e->scnt[i] = e->scnt[i + 1];
		stats_add(&e->smax[i], &e->scnt[i], e->size[i], 1);
	}
	return 0;
}

tp_mss_eval *tp_mss_eval_new(const tp_torus *t, const tp_nodeset *avail,
			     bool direct)
{
	tp_mss_eval *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->t = t;
	e->direct = direct;
	e->N = tp_torus_nnodes(t);
	if (tp_nodeset_init(&e->free, e->N))
		goto fail;
	tp_nodeset_copy(&e->free, avail);
	e->W = tp_nodeset_words(&e->free);
	if (direct) {
		if (tp_nodeset_init(&e->scratch, e->N))
			goto fail;
		return e;
	}
	e->counts = tp_torus_counts_new(t, avail);
	e->cache = malloc((size_t)e->N * sizeof(*e->cache));
	e->cached = calloc((size_t)e->N, 1);
	e->U = malloc((size_t)e->W * sizeof(uint64_t));
	e->bmask = calloc((size_t)e->W, sizeof(uint64_t));
	if (!e->counts || !e->cache || !e->cached || !e->U || !e->bmask ||
	    fast_prepare(e))
		goto fail;
	return e;
fail:
	tp_mss_eval_free(e);
	return NULL;
}

void tp_mss_eval_free(tp_mss_eval *e)
{
	if (!e)
		return;
	if (e->free.w)
		tp_nodeset_fini(&e->free);
	if (e->scratch.w)
		tp_nodeset_fini(&e->scratch);
	tp_torus_counts_free(e->counts);
	free(e->mss);
	free(e->seed);
	free(e->size);
	free(e->undisc);
	free(e->pmax);
	free(e->pcnt);
	free(e->smax);
	free(e->scnt);
	free(e->cache);
	free(e->cached);
	free(e->U);
	free(e->bmask);
	free(e);
}

static bool clear_node(void *ctx, int idx)
{
	tp_nodeset_clear(ctx, idx);
	return true;
}

static int64_t direct_phi(tp_mss_eval *e, const tp_box *box)
{
	tp_nodeset_copy(&e->scratch, &e->free);
	box_visit(e->t, box, clear_node, &e->scratch);
	return tp_torus_mss_phi(e->t, &e->scratch);
}

/* U' == U_i minus B, comparing the words from `from` on (both are empty
 * below the current seed). */
static bool rejoins(const tp_mss_eval *e, int i, int from)
{
	const uint64_t *ui = e->undisc + (size_t)i * e->W;
	for (int w = from >> 6; w < e->W; w++)
		if (e->U[w] != (ui[w] & ~e->bmask[w]))
			return false;
	return true;
}

static int64_t fast_phi(tp_mss_eval *e, const tp_box *B)
{
	const tp_torus *t = e->t;
	int first = -1, last = -1;
	for (int i = 0; i < e->K; i++)
		if (tp_torus_box_intersects(t, &e->mss[i], B)) {
			if (first < 0)
				first = i;
			last = i;
		}
	if (first < 0) /* B holds no free node: S' = S */
		return phi_of(e->N, e->smax[0], e->scnt[0]);

	int max = e->pmax[first], cnt = e->pcnt[first];
	memcpy(e->U, e->undisc + (size_t)first * e->W,
	       (size_t)e->W * sizeof(uint64_t));
	bits_box(t, B, e->bmask, true);
	for (int w = 0; w < e->W; w++)
		e->U[w] &= ~e->bmask[w];

	fast_ctx ctx = { t, e->counts, B };
	int is = first; /* next seed of S not below the cursor */
	for (int u = bits_next(e->U, e->W, e->seed[first]); u >= 0;
	     u = bits_next(e->U, e->W, u + 1)) {
		while (is < e->K && e->seed[is] < u)
			is++;
		if (is > last && is < e->K && e->seed[is] == u &&
		    rejoins(e, is, u)) {
			stats_add(&max, &cnt, e->smax[is], e->scnt[is]);
			break;
		}
		const tp_box *m = grow_s(e, u);
		tp_box fresh;
		if (tp_torus_box_intersects(t, m, B)) {
			grow(t, u, fast_open, &ctx, &fresh);
			m = &fresh;
		}
		stats_add(&max, &cnt, tp_torus_box_size(t, m), 1);
		bits_box(t, m, e->U, false);
	}
	bits_box(t, B, e->bmask, false);
	return phi_of(e->N, max, cnt);
}

int64_t tp_mss_eval_phi(tp_mss_eval *e, const tp_box *box)
{
	return e->direct ? direct_phi(e, box) : fast_phi(e, box);
}
