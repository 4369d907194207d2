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
enum { OP_SET, OP_CLEAR, OP_TRACK, OP_LIST, OP_WORDS };

/* Boxes as (word, mask) pairs: a cached box is cleared from a bit set in
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
	uint64_t *w;     /* the bit set */
	uint64_t *x;     /* OP_TRACK: difference set */
	int *diff;       /* nonzero words of x */
	int *list, nlist; /* OP_LIST: node indices */
	wordpool *pool;   /* OP_WORDS: append pairs from index `from` on */
	int from;
} bitop;

static void run_op(bitop *o, int lo, int hi)
{
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
		case OP_TRACK: {
			/* bits that really leave w flip in the difference set */
			uint64_t ch = o->w[wi] & m;
			if (ch) {
				uint64_t old = o->x[wi];
				o->w[wi] &= ~m;
				o->x[wi] = old ^ ch;
				*o->diff += (o->x[wi] != 0) - (old != 0);
			}
			break;
		}
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
	geom g;
	tp_nodeset free;         /* S */
	tp_nodeset scratch;      /* direct: S' */

	tp_torus_counts *counts; /* locked counts of S */
	int K;                   /* MSSs of S, in discovery order */
	tp_box *mss;
	int *seed, *size;
	uint64_t *undisc;        /* K x W: U_i, undiscovered free nodes before seed i */
	int *nd_start, *nd_word; /* U_i minus U_i+1 as (word, mask) pairs */
	uint64_t *nd_mask;
	int *pmax, *pcnt;        /* largest size and its count over seeds < i */
	int *cov_start, *cov;    /* MSSs covering each node (CSR) */
	double avg_cover;        /* cover entries per free node */
	tp_box *cache;           /* grow_S(u), valid where cached[u] */
	unsigned char *cached;
	int *wl_start, *wl_len;  /* grow_S(u) as pool pairs */
	int *phases;             /* grow_S(u)'s phases (grow_fast), 4n ints */
	const bool *wrap;
	wordpool pool;

	/* per-candidate scratch */
	uint64_t *U, *X, *bmask; /* U', U' xor (U_is minus B), B */
	/* (the walk keeps the number of nonzero words of X, 0 iff X = 0) */
	int *hit_stamp, stamp, *hits, *nodes;
};

typedef struct fast_ctx {
	const geom *g;
	const uint64_t *free;    /* S */
	const tp_torus_counts *counts;
	const tp_box *minus;     /* B, or NULL for S itself */
	const bool *wrap;
} fast_ctx;

/* Most slabs that are not free have a locked low corner: a bit test
 * settles those before the prefix-sum query. */
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

/*
 * grow() in S (B = NULL, phases recorded into rec: (off, len) of the
 * growing dimension after each of the 2n phases) or in S' = S minus B
 * replaying S's phases: while the box equals S's, a phase of S' adds S's
 * slabs up to the first one B meets (the slabs S added are free in S, and
 * the one that stopped S is not free in S' either), found by arithmetic
 * on B's arc.  From the first phase B cut short on, slabs are tested.
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
	bool same = replay != NULL;
	for (int i = 0; i < g->n; i++) {
		int d = g->dims[i];
		for (int dir = 1; dir >= -1; dir -= 2) {
			int ph = 2 * (2 * i + (dir < 0));
			if (same) {
				int off0 = box->off[i], len0 = box->len[i];
				int added = replay[ph + 1] - len0, k = added;
				if (added > 0 && others_meet(g, box, B, i))
					for (k = 0; k < added; k++) {
						int q = dir > 0 ? (off0 + len0 + k) % d
								: (off0 - 1 - k + d) % d;
						int x = q - B->off[i];
						if ((x < 0 ? x + d : x) < B->len[i])
							break;
					}
				box->len[i] = len0 + k;
				if (dir < 0)
					box->off[i] = (off0 - k + d) % d;
				same = k == added;
				continue;
			}
			while (box->len[i] < d) {
				int q;
				if (dir > 0) {
					if (!c->wrap[i] && box->off[i] + box->len[i] == d)
						break;
					q = (box->off[i] + box->len[i]) % d;
				} else {
					if (!c->wrap[i] && box->off[i] == 0)
						break;
					q = (box->off[i] - 1 + d) % d;
				}
				tp_box slab = *box;
				slab.off[i] = q;
				slab.len[i] = 1;
				if (!fast_open((void *)c, &slab))
					break;
				box->len[i]++;
				if (dir < 0)
					box->off[i] = q;
			}
			if (rec) {
				rec[ph] = box->off[i];
				rec[ph + 1] = box->len[i];
			}
		}
		if (box->len[i] == d)
			box->off[i] = 0;
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

/* Clear grow_S(u) from w (cached); with x: track the difference set. */
static void clear_cached(tp_mss_eval *e, int u, uint64_t *w, uint64_t *x,
			 int *diff)
{
	const int *word = e->pool.word + e->wl_start[u];
	const uint64_t *mask = e->pool.mask + e->wl_start[u];
	for (int p = 0; p < e->wl_len[u]; p++) {
		uint64_t ch = w[word[p]] & mask[p];
		if (!ch)
			continue;
		w[word[p]] &= ~ch;
		if (x) {
			uint64_t old = x[word[p]];
			x[word[p]] = old ^ ch;
			*diff += (old != ch) - (old != 0);
		}
	}
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

static void *grow_array(void *p, size_t n, size_t elem)
{
	void *q = realloc(p, n * elem);
	if (!q)
		free(p);
	return q;
}

/* Find_MSS of S, keeping U_i before each seed. */
static int prepare_walk(tp_mss_eval *e)
{
	int W = e->g.W, cap = 16;
	uint64_t *U = e->U;
	memcpy(U, e->free.w, (size_t)W * sizeof(*U));
	for (int u = bits_next(U, W, 0); u >= 0; u = bits_next(U, W, u + 1)) {
		if (!e->mss || e->K == cap) {
			cap = e->mss ? 2 * cap : cap;
			if (!(e->mss = grow_array(e->mss, (size_t)cap, sizeof(tp_box))) ||
			    !(e->seed = grow_array(e->seed, (size_t)cap, sizeof(int))) ||
			    !(e->size = grow_array(e->size, (size_t)cap, sizeof(int))) ||
			    !(e->undisc = grow_array(e->undisc, (size_t)cap * W, sizeof(uint64_t))))
				return -1;
		}
		int k = e->K++;
		memcpy(e->undisc + (size_t)k * W, U, (size_t)W * sizeof(*U));
		e->mss[k] = *grow_s(e, u);
		e->seed[k] = u;
		e->size[k] = geom_size(&e->g, &e->mss[k]);
		clear_cached(e, u, U, NULL, NULL);
	}
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

/* Prefix statistics and, for each node, the MSSs that cover it. */
static int prepare_index(tp_mss_eval *e)
{
	int K = e->K, N = e->g.N;
	e->pmax = calloc((size_t)K + 1, sizeof(int));
	e->pcnt = calloc((size_t)K + 1, sizeof(int));
	e->cov_start = calloc((size_t)N + 1, sizeof(int));
	if (!e->pmax || !e->pcnt || !e->cov_start)
		return -1;
	for (int i = 0; i < K; i++) {
		e->pmax[i + 1] = e->pmax[i];
		e->pcnt[i + 1] = e->pcnt[i];
		stats_add(&e->pmax[i + 1], &e->pcnt[i + 1], e->size[i], 1);
	}
	long total = 0;
	for (int k = 0; k < K; k++) {
		bitop o = { .op = OP_LIST, .list = e->nodes };
		box_op(&e->g, &e->mss[k], &o);
		for (int i = 0; i < o.nlist; i++)
			e->cov_start[o.list[i] + 1]++;
		total += o.nlist;
	}
	if (total > (long)INT32_MAX / 2) {
		e->avg_cover = 1e300; /* too big to index: always scan */
		return 0;
	}
	for (int v = 0; v < N; v++)
		e->cov_start[v + 1] += e->cov_start[v];
	if (!(e->cov = malloc((size_t)(total ? total : 1) * sizeof(int))))
		return -1;
	int *pos = malloc((size_t)N * sizeof(int));
	if (!pos)
		return -1;
	memcpy(pos, e->cov_start, (size_t)N * sizeof(int));
	for (int k = 0; k < K; k++) {
		bitop o = { .op = OP_LIST, .list = e->nodes };
		box_op(&e->g, &e->mss[k], &o);
		for (int i = 0; i < o.nlist; i++)
			e->cov[pos[o.list[i]]++] = k;
	}
	free(pos);
	int nfree = tp_nodeset_count(&e->free);
	e->avg_cover = nfree ? (double)total / nfree : 0;
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
	e->wrap = tp_torus_wrap(t);
	e->U = malloc((size_t)W * sizeof(uint64_t));
	e->X = calloc((size_t)W, sizeof(uint64_t));
	e->bmask = calloc((size_t)W, sizeof(uint64_t));
	e->nodes = malloc((size_t)N * sizeof(int));
	if (!e->counts || !e->cache || !e->cached || !e->wl_start ||
	    !e->wl_len || !e->phases || !e->U || !e->X ||
	    !e->bmask || !e->nodes || prepare_walk(e))
		goto fail;
	e->hit_stamp = calloc((size_t)e->K + 1, sizeof(int));
	e->hits = malloc(((size_t)e->K + 1) * sizeof(int));
	if (!e->hit_stamp || !e->hits || prepare_discoveries(e) ||
	    prepare_index(e))
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
	free(e->nd_start);
	free(e->nd_word);
	free(e->nd_mask);
	free(e->pmax);
	free(e->pcnt);
	free(e->cov_start);
	free(e->cov);
	free(e->cache);
	free(e->cached);
	free(e->wl_start);
	free(e->wl_len);
	free(e->phases);
	free(e->pool.word);
	free(e->pool.mask);
	free(e->U);
	free(e->X);
	free(e->bmask);
	free(e->hit_stamp);
	free(e->hits);
	free(e->nodes);
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

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Indices of the MSSs of S that meet B, ascending, marked in hit_stamp.
 * Through the cover lists when B is small, else by testing every MSS. */
static int find_hits(tp_mss_eval *e, const tp_box *B)
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
		return nh;
	}
	for (int k = 0; k < e->K; k++)
		if (geom_intersects(&e->g, &e->mss[k], B)) {
			e->hit_stamp[k] = stamp;
			e->hits[nh++] = k;
		}
	return nh;
}

/* U' = U_j minus B. */
static void restore(tp_mss_eval *e, int j)
{
	const uint64_t *uj = e->undisc + (size_t)j * e->g.W;
	for (int w = 0; w < e->g.W; w++)
		e->U[w] = uj[w] & ~e->bmask[w];
}

/* S's pointer passes seed i: U_i minus B becomes U_i+1 minus B. */
static void pass_seed(tp_mss_eval *e, int i, int *diff)
{
	for (int p = e->nd_start[i]; p < e->nd_start[i + 1]; p++) {
		uint64_t m = e->nd_mask[p] & ~e->bmask[e->nd_word[p]];
		if (m) {
			uint64_t *x = &e->X[e->nd_word[p]], old = *x;
			*x = old ^ m;
			*diff += (*x != 0) - (old != 0);
		}
	}
}

/*
 * The walk of S' = S minus B.  `is` is S's next seed (the first not below
 * the cursor); X = U' xor (U_is minus B) and diff counts its nonzero
 * words.  Whenever diff is 0 at a seed of S whose MSS does not meet B, S'
 * follows S's walk up to the next MSS that meets B, so those seeds only
 * add their sizes.
 */
static int64_t fast_phi(tp_mss_eval *e, const tp_box *B)
{
	const geom *g = &e->g;
	int nh = find_hits(e, B);
	if (!nh) /* B holds no free node: S' = S */
		return phi_of(g->N, e->pmax[e->K], e->pcnt[e->K]);
	box_bits(g, B, e->bmask, OP_SET);
	memset(e->X, 0, (size_t)g->W * sizeof(uint64_t));
	int max = e->pmax[e->hits[0]], cnt = e->pcnt[e->hits[0]], diff = 0;
	int is = e->hits[0], hp = 0, cursor = e->seed[is];
	restore(e, is);
	fast_ctx ctx = { g, e->free.w, e->counts, B, e->wrap };
	bitop track = { .op = OP_TRACK, .w = e->U, .x = e->X, .diff = &diff };
	for (;;) {
		while (hp < nh && e->hits[hp] < is)
			hp++;
		if (!diff && is < e->K && (hp == nh || e->hits[hp] != is)) {
			int j = hp < nh ? e->hits[hp] : e->K;
			for (int i = is; i < j; i++)
				stats_add(&max, &cnt, e->size[i], 1);
			if (j == e->K)
				break;
			restore(e, j);
			is = j;
			cursor = e->seed[j];
		}
		int u = bits_next(e->U, g->W, cursor);
		if (u < 0)
			break;
		while (is < e->K && e->seed[is] < u)
			pass_seed(e, is++, &diff);
		if (!diff && is < e->K && e->hit_stamp[is] != e->stamp) {
			cursor = u;
			continue;
		}
		const tp_box *m = grow_s(e, u);
		if (geom_intersects(g, m, B)) {
			tp_box fresh;
			grow_fast(&ctx, u, e->phases + (size_t)u * 4 * g->n, NULL,
				  &fresh);
			stats_add(&max, &cnt, geom_size(g, &fresh), 1);
			box_op(g, &fresh, &track);
		} else {
			stats_add(&max, &cnt, geom_size(g, m), 1);
			clear_cached(e, u, e->U, e->X, &diff);
		}
		cursor = u + 1;
	}
	box_bits(g, B, e->bmask, OP_CLEAR);
	if (e->pool.failed)
		return -1;
	return phi_of(g->N, max, cnt);
}

const tp_torus_counts *tp_mss_eval_counts(const tp_mss_eval *e)
{
	return e->counts;
}

int64_t tp_mss_eval_phi(tp_mss_eval *e, const tp_box *box)
{
	return e->direct ? direct_phi(e, box) : fast_phi(e, box);
}
