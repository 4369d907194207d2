/*
 * torus_mss.c - Find_MSS and the fragmentation metric phi
 * (doc/methods.md B), in two evaluations that must agree: the direct one
 * (node by node, the paper's pseudo-code, rerun for every candidate) and
 * the fast one used by the torus-mss allocator.
 *
 * Why the fast one is exact.  Let S be the current state, F its free nodes,
 * M_0, M_1, ... its MSSs grown from seeds s_0 < s_1 < ..., and U_i the
 * nodes of F not yet discovered before seed i.  A candidate box B of free
 * nodes gives S' = S minus B; U' is the undiscovered set of S''s walk.
 *  (1) grow(u) depends only on the slabs it looked at: the ones it added lie
 *      in the final box, the one that stopped a phase held a locked node
 *      (or the line ended, or the ring was spanned), which stays so in S'.
 *      Hence grow_S'(u) = grow_S(u) whenever grow_S(u) misses B, and
 *      grow_S is computed once per node and cached.
 *  (2) Write U' = (U_is minus B) xor X, is being S's first seed at or after
 *      the walk's cursor.  If M_is misses B, X has no node in M_is and no
 *      node before s_is, then s_is is the next seed of S' too, its box is
 *      M_is, and both sides lose the same nodes: X is unchanged.  So runs of
 *      such seeds only add their sizes (block maxima make that O(run/64)),
 *      the walk starts at the first MSS B meets with X = 0, and X stays
 *      small: it holds only the nodes whose discovery differs so far.
 *  (3) Every other step takes the smallest node of U', its box (grow_S if
 *      that misses B, else grown again in S', replaying grow_S's phases
 *      where they still apply: grow_fast) and folds the box into X.
 * phi needs only the largest size and how many seeds reach it.  Box tests
 * use prefix sums (torus_box.c) plus interval tests against B, so S' is
 * never built; test/check_torus_mss compares both evaluations on random
 * states.
 */
#include "topology/torus.h"

#include "base/bitops.h"

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

/* ---- geometry and bit runs -------------------------------------------- */

typedef struct geom {
	int n, N, W;
	int dims[TP_TORUS_MAX_DIMS], stride[TP_TORUS_MAX_DIMS];
} geom;

static void geom_init(geom *g, const tp_torus *t)
{
	g->n = tp_torus_ndims(t);
	g->N = tp_torus_nnodes(t);
	g->W = (g->N + 63) / 64;
	int s = 1;
	for (int i = g->n - 1; i >= 0; i--) {
		g->dims[i] = tp_torus_dims(t)[i];
		g->stride[i] = s;
		s *= g->dims[i];
	}
}

static bool geom_intersects(const geom *g, const tp_box *a, const tp_box *b)
{
	for (int i = 0; i < g->n; i++) {
		int d = g->dims[i], x = b->off[i] - a->off[i];
		if (x < 0)
			x += d;
		if (x >= a->len[i] && (x ? d - x : 0) >= b->len[i])
			return false;
	}
	return true;
}

static int geom_size(const geom *g, const tp_box *b)
{
	int s = 1;
	for (int i = 0; i < g->n; i++)
		s *= b->len[i];
	return s;
}

/* What to do with the bits of a box. */
enum { OP_SET, OP_CLEAR, OP_LIST, OP_WORDS, OP_RANGE };

/* Boxes as (word, mask) pairs: a cached box is folded into a bit set with
 * one operation per word instead of one per row. */
typedef struct wordpool {
	int *word;
	uint64_t *mask;
	int n, cap;
	bool failed;
} wordpool;

static void pool_add(wordpool *p, int from, int w, uint64_t m)
{
	if (p->n > from && p->word[p->n - 1] == w) {
		p->mask[p->n - 1] |= m;
		return;
	}
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 1024;
		int *nw = realloc(p->word, (size_t)cap * sizeof(int));
		if (nw)
			p->word = nw;
		uint64_t *nm = realloc(p->mask, (size_t)cap * sizeof(uint64_t));
		if (nm)
			p->mask = nm;
		if (!nw || !nm) {
			p->failed = true;
			return;
		}
		p->cap = cap;
	}
	p->word[p->n] = w;
	p->mask[p->n++] = m;
}

typedef struct bitop {
	int op;
	uint64_t *w;      /* OP_SET, OP_CLEAR: the bit set */
	int *list, nlist; /* OP_LIST: node indices */
	wordpool *pool;   /* OP_WORDS: append pairs from index `from` on */
	int from;
	const int *val;   /* OP_RANGE: the least and largest val[], */
	const int *bmin, *bmax; /* and per 64 nodes */
	int vmin, vmax;
} bitop;

static void range_add(bitop *o, int lo, int hi)
{
	for (int i = lo; i < hi; i++) {
		if (o->val[i] < o->vmin)
			o->vmin = o->val[i];
		if (o->val[i] > o->vmax)
			o->vmax = o->val[i];
	}
}

/* OP_RANGE over [lo, hi): whole blocks of 64 by their extremes. */
static void range_op(bitop *o, int lo, int hi)
{
	int a = (lo + 63) & ~63, b = hi & ~63;
	if (a >= b) {
		range_add(o, lo, hi);
		return;
	}
	range_add(o, lo, a);
	for (int w = a >> 6; w < b >> 6; w++) {
		if (o->bmin[w] < o->vmin)
			o->vmin = o->bmin[w];
		if (o->bmax[w] > o->vmax)
			o->vmax = o->bmax[w];
	}
	range_add(o, b, hi);
}

static void run_op(bitop *o, int lo, int hi)
{
	if (o->op == OP_RANGE) {
		range_op(o, lo, hi);
		return;
	}

	if (o->op == OP_LIST) {
		for (int i = lo; i < hi; i++)
			o->list[o->nlist++] = i;
		return;
	}
	while (lo < hi) {
		int wi = lo >> 6, b = lo & 63;
		int nb = 64 - b < hi - lo ? 64 - b : hi - lo;
		uint64_t m = (nb == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nb) - 1)) << b;
		lo += nb;
		switch (o->op) {
		case OP_WORDS:
			pool_add(o->pool, o->from, wi, m);
			break;
		case OP_SET:
			o->w[wi] |= m;
			break;
		case OP_CLEAR:
			o->w[wi] &= ~m;
			break;
		}
	}
}

/* Apply o to the nodes of a box, as runs of consecutive indices: the
 * trailing dimensions the box spans merge into one run per row of the
 * last dimension it does not span (two runs where that one crosses its
 * ring's seam). */
static void box_op(const geom *g, const tp_box *b, bitop *o)
{
	int k = g->n - 1;
	while (k >= 0 && b->len[k] == g->dims[k])
		k--;
	if (k < 0) {
		run_op(o, 0, g->N);
		return;
	}
	int s = g->stride[k], seam = g->dims[k] * s;
	int lo = b->off[k] * s, hi = (b->off[k] + b->len[k]) * s;
	int c[TP_TORUS_MAX_DIMS], cnt[TP_TORUS_MAX_DIMS], base = 0;
	for (int i = 0; i < k; i++) {
		c[i] = b->off[i];
		cnt[i] = 0;
		base += c[i] * g->stride[i];
	}
	for (;;) {
		if (hi <= seam) {
			run_op(o, base + lo, base + hi);
		} else {
			run_op(o, base + lo, base + seam);
			run_op(o, base, base + hi - seam);
		}
		int j = k - 1;
		for (; j >= 0; j--) {
			if (++cnt[j] < b->len[j]) {
				if (++c[j] == g->dims[j]) {
					c[j] = 0;
					base -= (g->dims[j] - 1) * g->stride[j];
				} else {
					base += g->stride[j];
				}
				break;
			}
			base += (b->off[j] - c[j]) * g->stride[j];
			c[j] = b->off[j];
			cnt[j] = 0;
		}
		if (j < 0)
			return;
	}
}

static void box_bits(const geom *g, const tp_box *b, uint64_t *w, int op)
{
	bitop o = { .op = op, .w = w };
	box_op(g, b, &o);
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
			return (wi << 6) + tp_ctz64(cur);
		if (++wi == nwords)
			return -1;
		cur = w[wi];
	}
}

/* ---- the evaluator ------------------------------------------------------- */

struct tp_mss_eval {
	const tp_torus *t;
	bool direct;
	geom g;
	const bool *wrap;
	tp_nodeset free;         /* S */
	tp_nodeset scratch;      /* direct: S' */

	/* Find_MSS of S */
	tp_torus_counts *counts; /* locked counts of S */
	int K;                   /* MSSs of S, in discovery order */
	tp_box *mss;
	int *seed, *size;
	uint64_t *undisc;        /* K x W: U_i, undiscovered free nodes before seed i */
	int *nd_start, *nd_word; /* U_i minus U_i+1 as (word, mask) pairs */
	uint64_t *nd_mask;
	int *blk_max, *blk_cnt;  /* largest size and its count per 64 seeds */
	int *pre_max, *pre_cnt;  /* largest size and its count over seeds < k */
	int *disc;               /* free node -> the seed whose MSS discovered it */
	int *disc_min, *disc_max;/* per 64 nodes (meaningful where all are free) */
	int *cov_start, *cov;    /* node -> MSSs covering it (CSR) */
	double avg_cover;        /* cover entries per free node */
	int *touch_start, *touch;/* word -> MSSs with nodes in it, ascending, */
	uint64_t *touch_mask;    /* and their nodes there */

	/* grow_S(u) for any free u, computed on demand */
	tp_box *cache;
	unsigned char *cached;
	int *wl_start, *wl_len;  /* as pairs in pool */
	int *phases;             /* its phases, replayed by grow_fast */
	wordpool pool;
	wordpool fresh;          /* pairs of the last grow in S' */

	/* per candidate */
	uint64_t *X, *bmask;     /* U' xor (U_is minus B); B */
	int *xlist, xn;          /* words of X that may be nonzero */
	unsigned char *inx;
	int *tptr;               /* per listed word: position in its touch list
				  * (entries before it are below is), or -1 */
	int *hit_stamp, stamp, *hits, nhits, *nodes;
};

typedef struct fast_ctx {
	const geom *g;
	const uint64_t *free;    /* S */
	const tp_torus_counts *counts;
	const tp_box *minus;     /* B, or NULL for S itself */
	const bool *wrap;
} fast_ctx;

/* Most slabs that are not free have a locked low corner: a bit test
 * settles those before the prefix-sum query.  (The test against B never
 * fails in grow_fast's tested phases - a slab there lies beside the arc
 * where B first cut the box - but correctness need not rest on that.) */
static bool fast_open(void *ctx, const tp_box *slab)
{
	fast_ctx *c = ctx;
	int corner = 0;
	for (int i = 0; i < c->g->n; i++)
		corner += slab->off[i] * c->g->stride[i];
	if (!(c->free[corner >> 6] >> (corner & 63) & 1))
		return false;
	if (c->minus && geom_intersects(c->g, slab, c->minus))
		return false;
	return !tp_torus_counts_locked(c->counts, slab);
}

/* Do the dimensions other than i of box and B meet? */
static bool others_meet(const geom *g, const tp_box *box, const tp_box *B,
			int i)
{
	for (int j = 0; j < g->n; j++) {
		if (j == i)
			continue;
		int d = g->dims[j], x = B->off[j] - box->off[j];
		if (x < 0)
			x += d;
		if (x >= box->len[j] && (x ? d - x : 0) >= B->len[j])
			return false;
	}
	return true;
}

/* Room for a phase of dimension i from the box: positions before the
 * ring is spanned or the line ends. */
static int phase_room(const fast_ctx *c, const tp_box *box, int i, int dir)
{
	int d = c->g->dims[i];
	if (c->wrap[i])
		return d - box->len[i];
	return dir > 0 ? d - box->off[i] - box->len[i] : box->off[i];
}

/* k-th position a phase of dimension i would add to the box. */
static int phase_pos(const fast_ctx *c, const tp_box *box, int i, int dir,
		     int k)
{
	int d = c->g->dims[i];
	return dir > 0 ? (box->off[i] + box->len[i] + k) % d
		       : (box->off[i] - 1 - k + d) % d;
}

static void phase_add(const fast_ctx *c, tp_box *box, int i, int dir, int k)
{
	int d = c->g->dims[i];
	box->len[i] += k;
	if (dir < 0)
		box->off[i] = (box->off[i] - k + d) % d;
}

/* Extend by testing slab after slab (prefix sums, minus B); returns the
 * number of slabs added. */
static int phase_test(const fast_ctx *c, tp_box *box, int i, int dir)
{
	int added = 0, room = phase_room(c, box, i, dir);
	for (; added < room; added++) {
		tp_box slab = *box;
		slab.off[i] = phase_pos(c, box, i, dir, 0);
		slab.len[i] = 1;
		if (!fast_open((void *)c, &slab))
			break;
		phase_add(c, box, i, dir, 1);
	}
	return added;
}

static bool others_equal(const geom *g, const tp_box *a, const tp_box *b,
			 int i)
{
	for (int j = 0; j < g->n; j++)
		if (j != i && (a->off[j] != b->off[j] || a->len[j] != b->len[j]))
			return false;
	return true;
}

/*
 * grow() with prefix-sum slab tests, in S (B = NULL; the (off, len) of the
 * growing dimension after each of the 2n phases is recorded into rec) or
 * in S' = S minus B, replaying S's phases (replay) while the S' box stays
 * inside S's box P at the same phase.  Then the positions P's phase added
 * hold slabs free in S (all positions, if P spans the ring), so S' takes
 * them up to the first one B meets, found by arithmetic on B's arc.  If S'
 * gets through them, the slab that stopped P stops S' too when the other
 * dimensions are equal; otherwise (a thinner S' box) the rest of the phase
 * is tested, and once S' passes P, every later phase is tested.
 */
static void grow_fast(const fast_ctx *c, int u, const int *replay, int *rec,
		      tp_box *box)
{
	const geom *g = c->g;
	const tp_box *B = c->minus;
	memset(box, 0, sizeof(*box));
	for (int i = 0, r = u; i < g->n; i++) {
		box->off[i] = r / g->stride[i];
		r %= g->stride[i];
		box->len[i] = 1;
	}
	tp_box P = *box; /* S's box, while replaying */
	bool inside = replay != NULL;
	for (int i = 0; i < g->n; i++) {
		int d = g->dims[i];
		for (int dir = 1; dir >= -1; dir -= 2) {
			int ph = 2 * (2 * i + (dir < 0));
			bool done = false;
			if (inside) {
				int known = replay[ph + 1] == d ? INT32_MAX
						: replay[ph + 1] - P.len[i];
				P.off[i] = replay[ph];
				P.len[i] = replay[ph + 1];
				int room = phase_room(c, box, i, dir);
				int lim = known < room ? known : room, k = lim;
				if (lim > 0 && others_meet(g, box, B, i))
					for (k = 0; k < lim; k++) {
						int x = phase_pos(c, box, i, dir, k) - B->off[i];
						if ((x < 0 ? x + d : x) < B->len[i])
							break;
					}
				phase_add(c, box, i, dir, k);
				done = k < lim || lim == room ||
				       others_equal(g, box, &P, i);
			}
			if (!done && phase_test(c, box, i, dir) > 0)
				inside = false;
			if (rec) {
				rec[ph] = box->off[i];
				rec[ph + 1] = box->len[i];
			}
		}
		if (box->len[i] == d)
			box->off[i] = 0;
		if (P.len[i] == d)
			P.off[i] = 0;
	}
}

/* grow_S(u) and its word pairs, cached. */
static const tp_box *grow_s(tp_mss_eval *e, int u)
{
	if (!e->cached[u]) {
		fast_ctx ctx = { &e->g, e->free.w, e->counts, NULL, e->wrap };
		grow_fast(&ctx, u, NULL, e->phases + (size_t)u * 4 * e->g.n,
			  &e->cache[u]);
		bitop o = { .op = OP_WORDS, .pool = &e->pool, .from = e->pool.n };
		box_op(&e->g, &e->cache[u], &o);
		e->wl_start[u] = o.from;
		e->wl_len[u] = e->pool.n - o.from;
		e->cached[u] = 1;
	}
	return &e->cache[u];
}

/* ---- preparation: Find_MSS of S and its indexes ------------------------ */

static void stats_add(int *max, int *cnt, int size, int count)
{
	if (size > *max) {
		*max = size;
		*cnt = count;
	} else if (size == *max) {
		*cnt += count;
	}
}

static void *grow_array(void *p, size_t n, size_t elem)
{
	void *q = realloc(p, n * elem);
	if (!q)
		free(p);
	return q;
}

/* Clear grow_S(u) from a bit set. */
static void clear_cached(tp_mss_eval *e, int u, uint64_t *w)
{
	const int *word = e->pool.word + e->wl_start[u];
	const uint64_t *mask = e->pool.mask + e->wl_start[u];
	for (int p = 0; p < e->wl_len[u]; p++)
		w[word[p]] &= ~mask[p];
}

/* Find_MSS of S with the fast grow, keeping U_i before each seed. */
static int prepare_walk(tp_mss_eval *e)
{
	int W = e->g.W, cap = 16;
	uint64_t *U = malloc((size_t)W * sizeof(*U));
	if (!U)
		return -1;
	memcpy(U, e->free.w, (size_t)W * sizeof(*U));
	for (int u = bits_next(U, W, 0); u >= 0; u = bits_next(U, W, u + 1)) {
		if (!e->mss || e->K == cap) {
			cap = e->mss ? 2 * cap : cap;
			if (!(e->mss = grow_array(e->mss, (size_t)cap, sizeof(tp_box))) ||
			    !(e->seed = grow_array(e->seed, (size_t)cap, sizeof(int))) ||
			    !(e->size = grow_array(e->size, (size_t)cap, sizeof(int))) ||
			    !(e->undisc = grow_array(e->undisc, (size_t)cap * W, sizeof(uint64_t)))) {
				free(U);
				return -1;
			}
		}
		int k = e->K++;
		memcpy(e->undisc + (size_t)k * W, U, (size_t)W * sizeof(*U));
		e->mss[k] = *grow_s(e, u);
		e->seed[k] = u;
		e->size[k] = geom_size(&e->g, &e->mss[k]);
		clear_cached(e, u, U);
	}
	free(U);
	return e->pool.failed ? -1 : 0;
}

/* U_i minus U_i+1 (what seed i discovers) as sparse (word, mask) pairs;
 * each free node is discovered once, so there are at most |F| pairs. */
static int prepare_discoveries(tp_mss_eval *e)
{
	int W = e->g.W, K = e->K, n = 0, cap = 64;
	e->nd_start = malloc(((size_t)K + 1) * sizeof(int));
	e->nd_word = malloc((size_t)cap * sizeof(int));
	e->nd_mask = malloc((size_t)cap * sizeof(uint64_t));
	if (!e->nd_start || !e->nd_word || !e->nd_mask)
		return -1;
	for (int k = 0; k < K; k++) {
		const uint64_t *a = e->undisc + (size_t)k * W;
		const uint64_t *b = k + 1 < K ? a + W : NULL;
		e->nd_start[k] = n;
		for (int w = 0; w < W; w++) {
			uint64_t m = a[w] & ~(b ? b[w] : 0);
			if (!m)
				continue;
			if (n == cap) {
				cap *= 2;
				if (!(e->nd_word = grow_array(e->nd_word, (size_t)cap, sizeof(int))) ||
				    !(e->nd_mask = grow_array(e->nd_mask, (size_t)cap, sizeof(uint64_t))))
					return -1;
			}
			e->nd_word[n] = w;
			e->nd_mask[n++] = m;
		}
	}
	e->nd_start[K] = n;
	return 0;
}

/* Statistics per block of 64 seeds, for range queries. */
static int prepare_blocks(tp_mss_eval *e)
{
	int nb = (e->K + 63) / 64 + 1;
	e->blk_max = calloc((size_t)nb, sizeof(int));
	e->blk_cnt = calloc((size_t)nb, sizeof(int));
	if (!e->blk_max || !e->blk_cnt)
		return -1;
	for (int k = 0; k < e->K; k++)
		stats_add(&e->blk_max[k >> 6], &e->blk_cnt[k >> 6], e->size[k], 1);
	return 0;
}

/* Statistics of every prefix of the seeds, and who discovered each free
 * node (the first MSS that covers it), for tp_mss_eval_prefix_bound. */
static int prepare_prefix(tp_mss_eval *e)
{
	e->pre_max = calloc((size_t)e->K + 1, sizeof(int));
	e->pre_cnt = calloc((size_t)e->K + 1, sizeof(int));
	e->disc = malloc((size_t)e->g.N * sizeof(int));
	e->disc_min = malloc((size_t)e->g.W * sizeof(int));
	e->disc_max = malloc((size_t)e->g.W * sizeof(int));
	if (!e->pre_max || !e->pre_cnt || !e->disc || !e->disc_min ||
	    !e->disc_max)
		return -1;
	for (int v = 0; v < e->g.N; v++)
		e->disc[v] = -1; /* locked: never asked */
	for (int k = 0; k < e->K; k++) {
		e->pre_max[k + 1] = e->pre_max[k];
		e->pre_cnt[k + 1] = e->pre_cnt[k];
		stats_add(&e->pre_max[k + 1], &e->pre_cnt[k + 1], e->size[k], 1);
		for (int p = e->nd_start[k]; p < e->nd_start[k + 1]; p++)
			for (uint64_t m = e->nd_mask[p]; m; m &= m - 1)
				e->disc[(e->nd_word[p] << 6) + tp_ctz64(m)] = k;
	}
	for (int w = 0; w < e->g.W; w++) {
		e->disc_min[w] = INT32_MAX;
		e->disc_max[w] = -1;
		for (int v = w << 6; v < (w + 1) << 6 && v < e->g.N; v++) {
			if (e->disc[v] < e->disc_min[w])
				e->disc_min[w] = e->disc[v];
			if (e->disc[v] > e->disc_max[w])
				e->disc_max[w] = e->disc[v];
		}
	}
	return 0;
}

/* CSR of `nkeys` lists: key(k, j) for the j-th of n(k) entries of item k;
 * items are added in increasing k, so each list is ascending. */
static int csr_build(int nkeys, int nitems, int (*count)(tp_mss_eval *, int),
		     int (*key)(tp_mss_eval *, int, int), tp_mss_eval *e,
		     int **start, int **list, long *total)
{
	int *st = calloc((size_t)nkeys + 1, sizeof(int));
	if (!st)
		return -1;
	long tot = 0;
	for (int k = 0; k < nitems; k++) {
		int n = count(e, k);
		for (int j = 0; j < n; j++)
			st[key(e, k, j) + 1]++;
		tot += n;
	}
	if (tot > INT32_MAX / 2) { /* more than fits in memory anyway */
		free(st);
		return -1;
	}
	for (int v = 0; v < nkeys; v++)
		st[v + 1] += st[v];
	int *l = malloc((size_t)(tot ? tot : 1) * sizeof(int));
	int *pos = malloc(((size_t)nkeys + 1) * sizeof(int));
	if (!l || !pos) {
		free(st);
		free(l);
		free(pos);
		return -1;
	}
	memcpy(pos, st, (size_t)nkeys * sizeof(int));
	for (int k = 0; k < nitems; k++) {
		int n = count(e, k);
		for (int j = 0; j < n; j++)
			l[pos[key(e, k, j)]++] = k;
	}
	free(pos);
	*start = st;
	*list = l;
	*total = tot;
	return 0;
}

/* cover lists: the nodes of each MSS (listed into e->nodes); touch lists:
 * the words of each MSS (its pairs) */
static int cov_count(tp_mss_eval *e, int k)
{
	bitop o = { .op = OP_LIST, .list = e->nodes };
	box_op(&e->g, &e->mss[k], &o);
	return o.nlist;
}
static int cov_key(tp_mss_eval *e, int k, int j)
{
	(void)k;
	return e->nodes[j];
}
static int touch_count(tp_mss_eval *e, int k)
{
	return e->wl_len[e->seed[k]];
}
static int touch_key(tp_mss_eval *e, int k, int j)
{
	return e->pool.word[e->wl_start[e->seed[k]] + j];
}

static int prepare_index(tp_mss_eval *e)
{
	long total;
	if (csr_build(e->g.N, e->K, cov_count, cov_key, e, &e->cov_start,
		      &e->cov, &total))
		return -1;
	int nfree = tp_nodeset_count(&e->free);
	e->avg_cover = nfree ? (double)total / nfree : 0;
	if (csr_build(e->g.W, e->K, touch_count, touch_key, e,
		      &e->touch_start, &e->touch, &total))
		return -1;
	/* the masks, in the same order as csr_build filled the lists */
	int *pos = malloc(((size_t)e->g.W + 1) * sizeof(int));
	e->touch_mask = malloc((size_t)(total ? total : 1) * sizeof(uint64_t));
	if (!pos || !e->touch_mask) {
		free(pos);
		return -1;
	}
	memcpy(pos, e->touch_start, (size_t)e->g.W * sizeof(int));
	for (int k = 0; k < e->K; k++) {
		int u = e->seed[k];
		for (int j = 0; j < e->wl_len[u]; j++) {
			int w = e->pool.word[e->wl_start[u] + j];
			e->touch_mask[pos[w]++] = e->pool.mask[e->wl_start[u] + j];
		}
	}
	free(pos);
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
	e->wrap = tp_torus_wrap(t);
	geom_init(&e->g, t);
	int N = e->g.N, W = e->g.W;
	if (tp_nodeset_init(&e->free, N))
		goto fail;
	tp_nodeset_copy(&e->free, avail);
	if (direct) {
		if (tp_nodeset_init(&e->scratch, N))
			goto fail;
		return e;
	}
	e->counts = tp_torus_counts_new(t, avail);
	e->cache = malloc((size_t)N * sizeof(*e->cache));
	e->cached = calloc((size_t)N, 1);
	e->wl_start = malloc((size_t)N * sizeof(int));
	e->wl_len = malloc((size_t)N * sizeof(int));
	e->phases = malloc((size_t)N * 4 * (size_t)e->g.n * sizeof(int));
	e->X = calloc((size_t)W, sizeof(uint64_t));
	e->bmask = calloc((size_t)W, sizeof(uint64_t));
	e->xlist = malloc((size_t)W * sizeof(int));
	e->inx = calloc((size_t)W, 1);
	e->tptr = malloc((size_t)W * sizeof(int));
	e->nodes = malloc((size_t)N * sizeof(int));
	if (!e->counts || !e->cache || !e->cached || !e->wl_start ||
	    !e->wl_len || !e->phases || !e->X || !e->bmask || !e->xlist ||
	    !e->inx || !e->tptr || !e->nodes || prepare_walk(e))
		goto fail;
	e->hit_stamp = calloc((size_t)e->K + 1, sizeof(int));
	e->hits = malloc(((size_t)e->K + 1) * sizeof(int));
	if (!e->hit_stamp || !e->hits || prepare_discoveries(e) ||
	    prepare_blocks(e) || prepare_prefix(e) || prepare_index(e))
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
	void *owned[] = {
		e->mss, e->seed, e->size, e->undisc, e->nd_start, e->nd_word,
		e->nd_mask, e->blk_max, e->blk_cnt, e->pre_max, e->pre_cnt,
		e->disc, e->disc_min, e->disc_max, e->cov_start, e->cov,
		e->touch_start, e->touch, e->touch_mask, e->cache, e->cached, e->wl_start,
		e->wl_len, e->phases, e->pool.word, e->pool.mask,
		e->fresh.word, e->fresh.mask, e->X, e->bmask, e->xlist, e->inx,
		e->tptr,
		e->hit_stamp, e->hits, e->nodes,
	};
	for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
		free(owned[i]);
	free(e);
}

const tp_torus_counts *tp_mss_eval_counts(const tp_mss_eval *e)
{
	return e->counts;
}

/* ---- bounds from S's walk ------------------------------------------------ */

void tp_mss_eval_discovery(const tp_mss_eval *e, const tp_box *box,
			   int *first, int *last)
{
	bitop o = { .op = OP_RANGE, .val = e->disc, .bmin = e->disc_min,
		    .bmax = e->disc_max, .vmin = INT32_MAX, .vmax = -1 };
	box_op(&e->g, box, &o);
	*first = o.vmin;
	*last = o.vmax;
}

int tp_mss_eval_nmss(const tp_mss_eval *e)
{
	return e->K;
}

int tp_mss_eval_discoverer(const tp_mss_eval *e, int v)
{
	return e->disc[v];
}

void tp_mss_eval_prefix(const tp_mss_eval *e, int k, int *max, int *count)
{
	*max = e->pre_max[k];
	*count = e->pre_cnt[k];
}

/* ---- the direct evaluation -------------------------------------------- */

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

/* ---- the fast evaluation ---------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Indices of the MSSs of S that meet B, ascending, marked in hit_stamp.
 * Through the cover lists when B is small, else by testing every MSS. */
static void find_hits(tp_mss_eval *e, const tp_box *B)
{
	int nh = 0, stamp = ++e->stamp;
	if (geom_size(&e->g, B) * e->avg_cover < e->K) {
		bitop o = { .op = OP_LIST, .list = e->nodes };
		box_op(&e->g, B, &o);
		for (int i = 0; i < o.nlist; i++) {
			int v = o.list[i];
			for (int c = e->cov_start[v]; c < e->cov_start[v + 1]; c++) {
				int k = e->cov[c];
				if (e->hit_stamp[k] != stamp) {
					e->hit_stamp[k] = stamp;
					e->hits[nh++] = k;
				}
			}
		}
		qsort(e->hits, (size_t)nh, sizeof(int), cmp_int);
	} else {
		for (int k = 0; k < e->K; k++)
			if (geom_intersects(&e->g, &e->mss[k], B)) {
				e->hit_stamp[k] = stamp;
				e->hits[nh++] = k;
			}
	}
	e->nhits = nh;
}

static void x_flip(tp_mss_eval *e, int w, uint64_t m)
{
	e->X[w] ^= m;
	if (!e->inx[w]) {
		e->inx[w] = 1;
		e->tptr[w] = -1;
		e->xlist[e->xn++] = w;
	}
}

/* S's pointer passes seed i: U_i minus B becomes U_i+1 minus B. */
static void x_pass(tp_mss_eval *e, int i)
{
	for (int p = e->nd_start[i]; p < e->nd_start[i + 1]; p++) {
		uint64_t m = e->nd_mask[p] & ~e->bmask[e->nd_word[p]];
		if (m)
			x_flip(e, e->nd_word[p], m);
	}
}

/* The S' walk discovers the pairs' nodes: U' loses them, where
 * U' = (U_is minus B) xor X. */
static void x_discover(tp_mss_eval *e, int is, const int *word,
		       const uint64_t *mask, int n)
{
	const uint64_t *ui = is < e->K ? e->undisc + (size_t)is * e->g.W : NULL;
	for (int p = 0; p < n; p++) {
		int w = word[p];
		uint64_t u = ((ui ? ui[w] : 0) & ~e->bmask[w]) ^ e->X[w];
		if (u & mask[p])
			x_flip(e, w, u & mask[p]);
	}
}

/* Smallest node of U' at or after `from`, or -1. */
static int next_seed(const tp_mss_eval *e, int is, int from)
{
	const uint64_t *ui = is < e->K ? e->undisc + (size_t)is * e->g.W : NULL;
	for (int w = from >> 6; w < e->g.W; w++) {
		uint64_t u = ((ui ? ui[w] : 0) & ~e->bmask[w]) ^ e->X[w];
		if (w == from >> 6)
			u &= ~(uint64_t)0 << (from & 63);
		if (u)
			return (w << 6) + tp_ctz64(u);
	}
	return -1;
}

/* Drop the words of X that are zero again; returns X's smallest node or
 * INT32_MAX. */
static int x_compact(tp_mss_eval *e)
{
	int n = 0, xmin = INT32_MAX;
	for (int i = 0; i < e->xn; i++) {
		int w = e->xlist[i];
		if (!e->X[w]) {
			e->inx[w] = 0;
			continue;
		}
		e->xlist[n++] = w;
		int b = (w << 6) + tp_ctz64(e->X[w]);
		if (b < xmin)
			xmin = b;
	}
	e->xn = n;
	return xmin;
}

/* Position of the first entry >= from in the ascending list l[a..b). */
static int first_at_least(const int *l, int a, int b, int from)
{
	while (a < b) {
		int mid = a + (b - a) / 2;
		if (l[mid] < from)
			a = mid + 1;
		else
			b = mid;
	}
	return a;
}

/*
 * How far from seed `is` the S' walk takes S's seeds with S's boxes and
 * leaves X unchanged: up to (not including) the first seed whose MSS meets
 * B, whose MSS has a node in X, or which comes after X's smallest node
 * (below s_is that is a node of U' that S has discovered: a seed S' has
 * and S has not).  Before that, each seed k is in U' (X is zero there) and
 * U' loses exactly U_k minus U_k+1 minus B, as S's side does.
 */
static int common_run_end(tp_mss_eval *e, int is, int *hp)
{
	while (*hp < e->nhits && e->hits[*hp] < is)
		(*hp)++;
	int end = *hp < e->nhits ? e->hits[*hp] : e->K;
	if (!e->xn)
		return end;
	int xmin = x_compact(e);
	if (xmin == INT32_MAX)
		return end;
	for (int i = 0; i < e->xn && end > is; i++) {
		int w = e->xlist[i], last = e->touch_start[w + 1];
		int p = e->tptr[w];
		if (p < 0)
			p = first_at_least(e->touch, e->touch_start[w], last, is);
		while (p < last && e->touch[p] < is)
			p++;
		e->tptr[w] = p;
		for (; p < last && e->touch[p] < end; p++)
			if (e->touch_mask[p] & e->X[w]) {
				end = e->touch[p];
				break;
			}
	}
	/* first seed after xmin */
	int a = is, b = end;
	while (a < b) {
		int mid = a + (b - a) / 2;
		if (e->seed[mid] < xmin)
			a = mid + 1;
		else
			b = mid;
	}
	return a;
}

/* stats over the sizes of seeds [a, b) */
static void range_stats(const tp_mss_eval *e, int a, int b, int *max, int *cnt)
{
	while (a < b && (a & 63))
		stats_add(max, cnt, e->size[a++], 1);
	while (a + 64 <= b) {
		stats_add(max, cnt, e->blk_max[a >> 6], e->blk_cnt[a >> 6]);
		a += 64;
	}
	while (a < b)
		stats_add(max, cnt, e->size[a++], 1);
}

/*
 * The walk of S' = S minus B, with U' kept implicitly as (U_is minus B)
 * xor X, `is` being S's first seed at or after the cursor.  Runs of seeds
 * that S' shares with S (common_run_end) only add their sizes; the other
 * steps take the smallest node of U', its box (grow_S if it misses B,
 * else grown again in S') and fold the box into X.
 */
static int64_t fast_phi(tp_mss_eval *e, const tp_box *B)
{
	const geom *g = &e->g;
	find_hits(e, B);
	int max = 0, cnt = 0, is = 0, hp = 0, cursor = 0;
	if (!e->nhits) { /* B holds no free node: S' = S */
		range_stats(e, 0, e->K, &max, &cnt);
		return phi_of(g->N, max, cnt);
	}
	box_bits(g, B, e->bmask, OP_SET);
	fast_ctx ctx = { g, e->free.w, e->counts, B, e->wrap };
	for (;;) {
		while (is < e->K && e->seed[is] < cursor)
			x_pass(e, is++);
		int end = common_run_end(e, is, &hp);
		if (end > is) {
			range_stats(e, is, end, &max, &cnt);
			cursor = e->seed[end - 1] + 1;
			is = end;
			continue;
		}
		if (is == e->K && !e->xn)
			break;
		int u = next_seed(e, is, cursor);
		if (u < 0)
			break;
		while (is < e->K && e->seed[is] < u)
			x_pass(e, is++);
		const tp_box *m = grow_s(e, u);
		if (geom_intersects(g, m, B)) {
			tp_box fresh;
			grow_fast(&ctx, u, e->phases + (size_t)u * 4 * g->n, NULL,
				  &fresh);
			e->fresh.n = 0;
			bitop o = { .op = OP_WORDS, .pool = &e->fresh, .from = 0 };
			box_op(g, &fresh, &o);
			x_discover(e, is, e->fresh.word, e->fresh.mask, e->fresh.n);
			stats_add(&max, &cnt, geom_size(g, &fresh), 1);
		} else {
			x_discover(e, is, e->pool.word + e->wl_start[u],
				   e->pool.mask + e->wl_start[u], e->wl_len[u]);
			stats_add(&max, &cnt, geom_size(g, m), 1);
		}
		cursor = u + 1;
	}
	for (int i = 0; i < e->xn; i++) {
		e->X[e->xlist[i]] = 0;
		e->inx[e->xlist[i]] = 0;
	}
	e->xn = 0;
	box_bits(g, B, e->bmask, OP_CLEAR);
	if (e->pool.failed || e->fresh.failed)
		return -1;
	return phi_of(g->N, max, cnt);
}

int64_t tp_mss_eval_phi(tp_mss_eval *e, const tp_box *box)
{
	return e->direct ? direct_phi(e, box) : fast_phi(e, box);
}
