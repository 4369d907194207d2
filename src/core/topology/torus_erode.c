/*
 * torus_erode.c - the free boxes of a free set by separable erosion on
 * bit sets.
 *
 * E(len) is the set of low corners c whose box (c, len) is all free.  It
 * separates per dimension, and a box of length a + b along dimension i
 * is a box of length a at c and one of length b at c + a e_i, so
 *     E(.., a + b, ..) = E(.., a, ..) & shift_i(E(.., b, ..), a),
 * where shift_i(A, k) at c is A at c + k e_i (around the ring, or nothing
 * past the end of a line).  A shift is two word-level bit shifts of the
 * whole set (by k strides for the coordinates that stay below d_i, by
 * d_i - k strides back for those that wrap) merged by a mask of the
 * coordinates c_i >= d_i - k: O(N/64) per step, whatever the box.  One
 * free set answers two questions:
 *   - the corners of one shape, in increasing corner index: the
 *     placements tp_torus_placement numbers, without building the
 *     prefix sums of every candidate test (O(2^n N) cells on a 5D torus);
 *   - L*, the volume of the largest free box, and P*, the number of
 *     distinct free boxes of that volume (the bound of torus-mss's early
 *     stop: every MSS of a subset of the free set is such a box, so
 *     phi(S minus B) <= N L* + P*), by a walk over the shapes whose
 *     corner sets are not empty (a shape with none has no larger one).
 * A box spanning a ring is counted once, at offset 0 (the canonical form).
 */
#include "topology/torus.h"

#include "base/bitops.h"
#include "base/vectorise.h"

#include <stdlib.h>
#include <string.h>

/* Shapes of the largest volume kept for tp_torus_erode_largest_boxes. */
#define KEEP_SHAPES 64
/* Partial erosions kept for the free set: the shapes a decision tries
 * share their first lengths (8x12x4x1x1 and 8x12x2x2x1), so E of a
 * prefix of the lengths is looked up instead of redone. */
#define PREFIX_SLOTS 64
/* Shapes kept as having no free box on the free set: every shape at least
 * as long in each dimension has none either (its box at a corner holds
 * theirs at that corner), so its corners are known to be none. */
#define EMPTY_SHAPES 256
/* Window sums of the free set kept per prefix of a shape's lengths (one
 * pool per depth), for the free counts: a packed search counts shape
 * after shape, and shapes share their first lengths (on 16x16x16 there
 * are 16 first lengths and 256 first pairs against 700-odd shapes), so
 * most counts take one window pass instead of one per dimension.  At
 * most COUNT_SLOTS per pool, fewer on a large torus: the pools hold
 * COUNT_BYTES at most (5 slots of 49,152 counts per pool on a 5D torus
 * of that size), and at least 2 slots each. */
#define COUNT_SLOTS 16
#define COUNT_BYTES (4u << 20)

typedef struct count_slot {
	uint32_t gen;     /* == the workspace's: valid for its free set */
	int len[TP_TORUS_MAX_DIMS]; /* lengths of the first `depth`
				     * dimensions in count_dim order */
	int *v;           /* N counts, allocated when first used */
} count_slot;

typedef struct prefix_slot {
	uint32_t gen;     /* == the workspace's: valid for its free set */
	int depth;        /* dimensions 0..depth eroded */
	int len[TP_TORUS_MAX_DIMS];
	bool empty;
	uint64_t *set;    /* W words, allocated when first used */
} prefix_slot;

struct tp_torus_erode {
	int n, N, W;
	int dims[TP_TORUS_MAX_DIMS], stride[TP_TORUS_MAX_DIMS];
	bool wrap[TP_TORUS_MAX_DIMS];
	int maxd;         /* the longest dimension */
	uint64_t *free;   /* S */
	uint64_t **hi;    /* [i * maxd + k]: c_i >= d_i - k, built when first
			   * used (they depend on the torus only) */
	uint64_t **zero;  /* [i]: c_i == 0, built when first used */
	uint64_t **pow;   /* E of lengths 1, 2, 4, ... along one dimension */
	int npow;
	uint64_t *out, *tmp;
	uint64_t *shifted; /* and_shifted's shifted set */
	uint64_t **stack; /* the walk over shapes: one set per depth */
	int levels, depth;
	/* the last tp_torus_erode_largest: the shapes of volume L* (if no
	 * more than KEEP_SHAPES) */
	int nbest;        /* -1: more than KEEP_SHAPES */
	int *cnt;         /* tp_torus_erode_free_counts, when first used */
	int *base;        /* the free set as 0/1 counts, for base_gen */
	uint32_t base_gen;
	/* [depth - 1][slot]: window sums over the first `depth` dimensions
	 * in count_dim order */
	count_slot counts[TP_TORUS_MAX_DIMS - 1][COUNT_SLOTS];
	int count_next[TP_TORUS_MAX_DIMS - 1]; /* the next slot replaced */
	int count_slots;  /* slots used per pool */
	/* L* and P* of the free set, kept until the set changes: a scheduler
	 * tries several jobs on one free set */
	bool have_largest;
	int largest_volume;
	long largest_count;
	int best_len[KEEP_SHAPES][TP_TORUS_MAX_DIMS];
	uint32_t gen;     /* bumped when the free set changes */
	prefix_slot prefix[PREFIX_SLOTS];
	int nempty;       /* shapes with no free box on the free set */
	int empty[EMPTY_SHAPES][TP_TORUS_MAX_DIMS];
};

/* ---- masks of coordinates ----------------------------------------------- */

/* Set bits [lo, hi) of m. */
static void set_run(uint64_t *m, int lo, int hi)
{
	while (lo < hi) {
		int b = lo & 63, nb = 64 - b < hi - lo ? 64 - b : hi - lo;
		m[lo >> 6] |= (nb == 64 ? ~(uint64_t)0
					: (((uint64_t)1 << nb) - 1)) << b;
		lo += nb;
	}
}

/* Set bits of nodes whose coordinate i lies in [lo, hi): one run of
 * consecutive indices per period of dimension i. */
static void coord_mask(const tp_torus_erode *e, int i, int lo, int hi,
		       uint64_t *m)
{
	memset(m, 0, (size_t)e->W * sizeof(*m));
	int s = e->stride[i], period = e->dims[i] * s;
	for (int base = 0; base < e->N; base += period)
		set_run(m, base + lo * s, base + hi * s);
}

static const uint64_t *hi_mask(tp_torus_erode *e, int i, int k)
{
	uint64_t **slot = &e->hi[i * e->maxd + k];
	if (!*slot && (*slot = malloc((size_t)e->W * sizeof(uint64_t))))
		coord_mask(e, i, e->dims[i] - k, e->dims[i], *slot);
	return *slot;
}

static const uint64_t *zero_mask(tp_torus_erode *e, int i)
{
	if (!e->zero[i] && (e->zero[i] = malloc((size_t)e->W * sizeof(uint64_t))))
		coord_mask(e, i, 0, 1, e->zero[i]);
	return e->zero[i];
}

static void coord_of(const tp_torus_erode *e, int idx, int *c)
{
	for (int i = 0; i < e->n; i++)
		c[i] = idx / e->stride[i] % e->dims[i];
}

/* ---- shifts ---------------------------------------------------------------- */

/* Word w of the set a shifted down by m bits (bit x of the result is bit
 * x + m of a). */
static inline uint64_t word_down(const uint64_t *a, int W, int w, int m)
{
	int q = w + (m >> 6), r = m & 63;
	uint64_t lo = q < W ? a[q] : 0;
	if (!r)
		return lo;
	uint64_t hi = q + 1 < W ? a[q + 1] : 0;
	return lo >> r | hi << (64 - r);
}

/* Word w of a shifted up by m bits (bit x of the result is bit x - m). */
static inline uint64_t word_up(const uint64_t *a, int w, int m)
{
	int q = w - (m >> 6), r = m & 63;
	uint64_t hi = q >= 0 ? a[q] : 0;
	if (!r)
		return hi;
	uint64_t lo = q - 1 >= 0 ? a[q - 1] : 0;
	return hi << r | lo >> (64 - r);
}

/* g[w] = (a shifted down by m bits)[w] & keep[w], or with `up` the set
 * shifted up by m bits, |= instead of = (keep: the mask or, with invert,
 * its complement).  The words whose sources lie inside the set run
 * without bound checks (loops the compiler vectorises); the few others
 * take word_down/word_up. */
TP_VECTORISE
static void shifted_masked(uint64_t *g, const uint64_t *a, int W, int m,
			   const uint64_t *mask, bool invert, bool up)
{
	int q = m >> 6, r = m & 63;
	uint64_t flip = invert ? ~(uint64_t)0 : 0;
	/* down: word w reads a[w + q] and a[w + q + 1]; up: a[w - q] and
	 * a[w - q - 1] */
	int lo = up ? q + 1 : 0, hi = up ? W : W - q - 1;
	if (lo > hi)
		lo = hi = W;
	for (int w = 0; w < lo; w++)
		g[w] = up ? g[w] | (word_up(a, w, m) & (mask[w] ^ flip))
			  : word_down(a, W, w, m) & (mask[w] ^ flip);
	if (!up && !r)
		for (int w = lo; w < hi; w++)
			g[w] = a[w + q] & (mask[w] ^ flip);
	else if (!up)
		for (int w = lo; w < hi; w++)
			g[w] = (a[w + q] >> r | a[w + q + 1] << (64 - r)) &
			       (mask[w] ^ flip);
	else if (!r)
		for (int w = lo; w < hi; w++)
			g[w] |= a[w - q] & (mask[w] ^ flip);
	else
		for (int w = lo; w < hi; w++)
			g[w] |= (a[w - q] << r | a[w - q - 1] >> (64 - r)) &
				(mask[w] ^ flip);
	for (int w = hi; w < W; w++)
		g[w] = up ? g[w] | (word_up(a, w, m) & (mask[w] ^ flip))
			  : word_down(a, W, w, m) & (mask[w] ^ flip);
}

/* r = r & shift_i(a, k), 0 < k < d_i. */
TP_VECTORISE
static int and_shifted(tp_torus_erode *e, uint64_t *r, const uint64_t *a,
		       int i, int k)
{
	const uint64_t *hi = hi_mask(e, i, k);
	if (!hi)
		return -1;
	int s = e->stride[i], down = k * s, up = (e->dims[i] - k) * s;
	uint64_t *g = e->shifted;
	shifted_masked(g, a, e->W, down, hi, true, false);
	if (e->wrap[i])
		shifted_masked(g, a, e->W, up, hi, false, true);
	for (int w = 0; w < e->W; w++)
		r[w] &= g[w];
	return 0;
}

static long popcount_words(const uint64_t *a, int W)
{
	long c = 0;
	for (int w = 0; w < W; w++)
		c += tp_popcount64(a[w]);
	return c;
}

static bool set_empty(const uint64_t *a, int W)
{
	for (int w = 0; w < W; w++)
		if (a[w])
			return false;
	return true;
}

/* ---- one shape ------------------------------------------------------------ */

/* a = E(a with length len along i) when a holds the corners of length 1
 * along i: doubling (pow[j] = length 2^j), then the binary digits of len
 * from the highest. */
static int erode_dim(tp_torus_erode *e, uint64_t *a, int i, int len)
{
	if (len <= 1)
		return 0;
	size_t bytes = (size_t)e->W * sizeof(uint64_t);
	int top = 0;
	memcpy(e->pow[0], a, bytes);
	while ((2 << top) <= len) {
		memcpy(e->pow[top + 1], e->pow[top], bytes);
		if (and_shifted(e, e->pow[top + 1], e->pow[top], i, 1 << top))
			return -1;
		top++;
	}
	memcpy(a, e->pow[top], bytes);
	for (int j = top - 1, have = 1 << top; j >= 0; j--) {
		if (!(len >> j & 1))
			continue;
		if (and_shifted(e, a, e->pow[j], i, have))
			return -1;
		have += 1 << j;
	}
	if (len == e->dims[i] && e->wrap[i]) { /* one box per ring: offset 0 */
		const uint64_t *z = zero_mask(e, i);
		if (!z)
			return -1;
		for (int w = 0; w < e->W; w++)
			a[w] &= z[w];
	}
	return 0;
}

static prefix_slot *prefix_slot_of(tp_torus_erode *e, const int *len,
				   int depth)
{
	unsigned h = (unsigned)depth;
	for (int i = 0; i <= depth; i++)
		h = h * 31u + (unsigned)len[i];
	return &e->prefix[h % PREFIX_SLOTS];
}

static bool prefix_is(const prefix_slot *p, const tp_torus_erode *e,
		      const int *len, int depth)
{
	return p->gen == e->gen && p->depth == depth &&
	       !memcmp(p->len, len, (size_t)(depth + 1) * sizeof(int));
}

/* Keep e->out as E of len's dimensions 0..depth (nothing on ENOMEM). */
static void prefix_keep(tp_torus_erode *e, const int *len, int depth,
			bool empty)
{
	prefix_slot *p = prefix_slot_of(e, len, depth);
	if (!empty && !p->set && !(p->set = malloc((size_t)e->W * sizeof(uint64_t))))
		return;
	p->gen = e->gen;
	p->depth = depth;
	memcpy(p->len, len, (size_t)(depth + 1) * sizeof(int));
	p->empty = empty;
	if (!empty)
		memcpy(p->set, e->out, (size_t)e->W * sizeof(uint64_t));
}

/* e->out = E of the longest kept prefix of len (or the free set): the
 * first dimension still to erode, or -1 when that prefix has no corner. */
static int prefix_start(tp_torus_erode *e, const int *len)
{
	size_t bytes = (size_t)e->W * sizeof(uint64_t);
	for (int depth = e->n - 2; depth >= 0; depth--) {
		const prefix_slot *p = prefix_slot_of(e, len, depth);
		if (!prefix_is(p, e, len, depth))
			continue;
		if (p->empty)
			return -1;
		memcpy(e->out, p->set, bytes);
		return depth + 1;
	}
	memcpy(e->out, e->free, bytes);
	return 0;
}

/* Is len at least as long as a shape known to have no free box? */
static bool known_empty(const tp_torus_erode *e, const int *len)
{
	for (int k = 0; k < e->nempty; k++) {
		int i = 0;
		while (i < e->n && len[i] >= e->empty[k][i])
			i++;
		if (i == e->n)
			return true;
	}
	return false;
}

/* The shape of len's dimensions 0..depth (length 1 beyond) has no free
 * box: keep it, unless the list is full. */
static void keep_empty(tp_torus_erode *e, const int *len, int depth)
{
	if (e->nempty == EMPTY_SHAPES)
		return;
	int *v = e->empty[e->nempty++];
	for (int i = 0; i < e->n; i++)
		v[i] = i <= depth ? len[i] : 1;
}

const uint64_t *tp_torus_erode_corners(tp_torus_erode *e, const int *len)
{
	for (int i = 0; i < e->n; i++)
		if (len[i] < 1 || len[i] > e->dims[i])
			return NULL;
	int from = known_empty(e, len) ? -1 : prefix_start(e, len);
	if (from < 0) {
		memset(e->out, 0, (size_t)e->W * sizeof(uint64_t));
		return e->out;
	}
	for (int i = from; i < e->n; i++) {
		if (erode_dim(e, e->out, i, len[i]))
			return NULL;
		bool empty = set_empty(e->out, e->W);
		/* prefixes worth keeping: an erosion was done, and more
		 * dimensions follow */
		if (i < e->n - 1 && len[i] > 1)
			prefix_keep(e, len, i, empty);
		if (empty) {
			keep_empty(e, len, i);
			break;
		}
	}
	return e->out;
}

int tp_torus_erode_next(const tp_torus_erode *e, const uint64_t *corners,
			int from)
{
	int wi = from >> 6;
	if (from < 0 || wi >= e->W)
		return -1;
	uint64_t cur = corners[wi] & (~(uint64_t)0 << (from & 63));
	for (;;) {
		if (cur)
			return (wi << 6) + tp_ctz64(cur);
		if (++wi == e->W)
			return -1;
		cur = corners[wi];
	}
}

/* ---- the largest free boxes --------------------------------------------- */

typedef struct walk {
	int len[TP_TORUS_MAX_DIMS];
	int best;    /* L* */
	long count;  /* P* */
	int failed;
} walk;

/* Distinct boxes with corners in a: a spanned ring counts at offset 0. */
static long distinct_boxes(tp_torus_erode *e, const uint64_t *a,
			   const int *len)
{
	bool spans = false;
	for (int i = 0; i < e->n; i++)
		spans |= e->wrap[i] && len[i] == e->dims[i];
	if (!spans)
		return popcount_words(a, e->W);
	memcpy(e->tmp, a, (size_t)e->W * sizeof(uint64_t));
	for (int i = 0; i < e->n; i++) {
		if (!(e->wrap[i] && len[i] == e->dims[i]))
			continue;
		const uint64_t *z = zero_mask(e, i);
		if (!z)
			return -1;
		for (int w = 0; w < e->W; w++)
			e->tmp[w] &= z[w];
	}
	return popcount_words(e->tmp, e->W);
}

static void keep_shape(tp_torus_erode *e, const int *len)
{
	if (e->nbest < 0)
		return;
	if (e->nbest == KEEP_SHAPES) {
		e->nbest = -1;
		return;
	}
	memcpy(e->best_len[e->nbest++], len, (size_t)e->n * sizeof(int));
}

/* Visit the shapes with free corners reachable from the shape on top of
 * the stack by lengthening dimensions i, i+1, ... (each shape once:
 * lengths grow in dimension order). */
static void walk_from(tp_torus_erode *e, walk *wk, int i, int volume)
{
	const uint64_t *a = e->stack[e->depth];
	if (volume >= wk->best) {
		long c = distinct_boxes(e, a, wk->len);
		if (c < 0) {
			wk->failed = 1;
			return;
		}
		if (volume > wk->best) {
			wk->best = volume;
			wk->count = 0;
			e->nbest = 0;
		}
		wk->count += c;
		keep_shape(e, wk->len);
	}
	for (int j = i; j < e->n && !wk->failed; j++) {
		if (wk->len[j] == e->dims[j])
			continue;
		uint64_t *b = e->stack[e->depth + 1];
		memcpy(b, a, (size_t)e->W * sizeof(uint64_t));
		if (and_shifted(e, b, a, j, 1)) {
			wk->failed = 1;
			return;
		}
		if (set_empty(b, e->W))
			continue;
		wk->len[j]++;
		e->depth++;
		walk_from(e, wk, j, volume / (wk->len[j] - 1) * wk->len[j]);
		e->depth--;
		wk->len[j]--;
	}
}

int tp_torus_erode_largest(tp_torus_erode *e, int *volume, long *count)
{
	if (e->have_largest) {
		*volume = e->largest_volume;
		*count = e->largest_count;
		return 0;
	}
	walk wk = { .best = 0, .count = 0 };
	e->nbest = 0;
	*volume = 0;
	*count = 0;
	if (set_empty(e->free, e->W))
		return 0;
	if (popcount_words(e->free, e->W) == e->N) {
		/* every node free (slurmctld's whole machine): the torus
		 * itself, one box, instead of a walk over every shape */
		wk.best = e->N;
		wk.count = 1;
		keep_shape(e, e->dims);
	} else {
		for (int i = 0; i < e->n; i++)
			wk.len[i] = 1;
		e->depth = 0;
		memcpy(e->stack[0], e->free, (size_t)e->W * sizeof(uint64_t));
		walk_from(e, &wk, 0, 1);
		if (wk.failed)
			return -1;
	}
	*volume = e->largest_volume = wk.best;
	*count = e->largest_count = wk.count;
	e->have_largest = true;
	return 0;
}

/* The walk of walk_from, listing the shapes of volume >= vmin. */
typedef struct shape_list {
	int len[TP_TORUS_MAX_DIMS];
	int vmin, max, n;
	int (*out)[TP_TORUS_MAX_DIMS];
	int failed; /* -1: ENOMEM or more than max */
} shape_list;

static void list_from(tp_torus_erode *e, shape_list *sl, int i, int volume)
{
	const uint64_t *a = e->stack[e->depth];
	if (volume >= sl->vmin) {
		if (sl->n == sl->max) {
			sl->failed = 1;
			return;
		}
		memcpy(sl->out[sl->n++], sl->len, (size_t)e->n * sizeof(int));
	}
	for (int j = i; j < e->n && !sl->failed; j++) {
		if (sl->len[j] == e->dims[j])
			continue;
		uint64_t *b = e->stack[e->depth + 1];
		memcpy(b, a, (size_t)e->W * sizeof(uint64_t));
		if (and_shifted(e, b, a, j, 1)) {
			sl->failed = 1;
			return;
		}
		if (set_empty(b, e->W))
			continue;
		sl->len[j]++;
		e->depth++;
		list_from(e, sl, j, volume / (sl->len[j] - 1) * sl->len[j]);
		e->depth--;
		sl->len[j]--;
	}
}

int tp_torus_erode_shapes_at_least(tp_torus_erode *e, int vmin,
				   int (*lens)[TP_TORUS_MAX_DIMS], int max)
{
	shape_list sl = { .vmin = vmin, .max = max, .out = lens };
	if (set_empty(e->free, e->W))
		return 0;
	for (int i = 0; i < e->n; i++)
		sl.len[i] = 1;
	e->depth = 0;
	memcpy(e->stack[0], e->free, (size_t)e->W * sizeof(uint64_t));
	list_from(e, &sl, 0, 1);
	return sl.failed ? -1 : sl.n;
}

int tp_torus_erode_largest_boxes(tp_torus_erode *e, tp_box *boxes, int max)
{
	int k = 0;
	if (e->nbest < 0)
		return -1;
	for (int r = 0; r < e->nbest; r++) {
		const uint64_t *cs = tp_torus_erode_corners(e, e->best_len[r]);
		if (!cs)
			return -1;
		for (int c = tp_torus_erode_next(e, cs, 0); c >= 0;
		     c = tp_torus_erode_next(e, cs, c + 1)) {
			if (k == max)
				return -1;
			memset(&boxes[k], 0, sizeof(boxes[k]));
			coord_of(e, c, boxes[k].off);
			memcpy(boxes[k].len, e->best_len[r], (size_t)e->n * sizeof(int));
			k++;
		}
	}
	return k;
}

/* ---- free counts of boxes ---------------------------------------------- */

/* out = in summed over windows of len positions along one line (stride
 * 1, the last dimension): one running sum per line. */
static void window_sum_lines(const tp_torus_erode *e, const int *in,
			     int *out, int i, int len)
{
	int d = e->dims[i];
	bool wrap = e->wrap[i];
	for (int base = 0; base < e->N; base += d) {
		const int *a = in + base;
		int *o = out + base, sum = 0, p = 0;
		for (int k = 0; k < len; k++)
			sum += a[k];
		/* windows inside the line, then those past its end: no test
		 * per position */
		for (; p + len < d; p++) {
			o[p] = sum;
			sum += a[p + len] - a[p];
		}
		for (; p < d; p++) {
			o[p] = sum;
			sum += (wrap ? a[p + len - d] : 0) - a[p];
		}
	}
}

/* dst = a - b + c over n ints (c may be NULL: past a line's end). */
TP_VECTORISE
static void row_step(int *dst, const int *a, const int *b, const int *c,
		     int n)
{
	if (c)
		for (int x = 0; x < n; x++)
			dst[x] = a[x] - b[x] + c[x];
	else
		for (int x = 0; x < n; x++)
			dst[x] = a[x] - b[x];
}

/* out = in summed over windows of len positions along dimension i (past
 * the end of a line counts nothing).  With a stride above 1 the stride's
 * consecutive nodes share their positions along i: the running sum is
 * taken over whole rows of them at once (loops the compiler vectorises). */
TP_VECTORISE
static void window_sum(const tp_torus_erode *e, const int *in, int *out,
		       int i, int len)
{
	int d = e->dims[i], s = e->stride[i], period = d * s;
	if (s == 1) {
		window_sum_lines(e, in, out, i, len);
		return;
	}
	for (int outer = 0; outer < e->N; outer += period) {
		const int *row = in + outer;
		int *o = out + outer;
		memcpy(o, row, (size_t)s * sizeof(int));
		for (int k = 1; k < len && k < d; k++)
			for (int x = 0; x < s; x++)
				o[x] += row[k * s + x];
		for (int p = 0; p + 1 < d; p++) {
			int q = p + len;
			const int *add = q < d ? row + q * s
				       : e->wrap[i] ? row + (q - d) * s : NULL;
			row_step(o + (p + 1) * s, o + p * s, row + p * s, add, s);
		}
	}
}

/* out[x] = bit x of the N bits of w: a word at a time, whole words of
 * busy or free nodes (the common case) by filling. */
static void unpack_bits(const uint64_t *w, int N, int *out)
{
	for (int base = 0; base < N; base += 64) {
		uint64_t b = w[base >> 6];
		int *o = out + base, n = N - base < 64 ? N - base : 64;
		if (b == 0) {
			memset(o, 0, (size_t)n * sizeof(int));
		} else if (b == ~(uint64_t)0) {
			for (int j = 0; j < n; j++)
				o[j] = 1;
		} else {
			for (int j = 0; j < n; j++)
				o[j] = (int)(b >> j & 1);
		}
	}
}

/* The free set as counts of boxes of length 1, kept for the set. */
static const int *base_counts(tp_torus_erode *e)
{
	if (!e->base && !(e->base = malloc((size_t)e->N * sizeof(int))))
		return NULL;
	if (e->base_gen != e->gen) {
		unpack_bits(e->free, e->N, e->base);
		e->base_gen = e->gen;
	}
	return e->base;
}

/* The order the counts take the dimensions in: the last one (stride 1,
 * a running sum along each line, the costliest pass) first, so that it
 * is the pass most often kept; then 0, 1, ... */
static int count_dim(const tp_torus_erode *e, int j)
{
	return j == 0 ? e->n - 1 : j - 1;
}

static bool same_prefix(const tp_torus_erode *e, const count_slot *c,
			const int *len, int depth)
{
	for (int j = 0; j < depth; j++)
		if (c->len[j] != len[count_dim(e, j)])
			return false;
	return true;
}

/* The kept sums over dimensions 0..depth-1 with these lengths, or NULL. */
static const int *kept_counts(const tp_torus_erode *e, const int *len,
			      int depth)
{
	const count_slot *pool = e->counts[depth - 1];
	for (int k = 0; k < e->count_slots; k++)
		if (pool[k].gen == e->gen && pool[k].v &&
		    same_prefix(e, &pool[k], len, depth))
			return pool[k].v;
	return NULL;
}

/* A slot for the sums over dimensions 0..depth-1 (the pool's next one
 * in turn); NULL on ENOMEM. */
static int *keep_counts(tp_torus_erode *e, const int *len, int depth)
{
	int *next = &e->count_next[depth - 1];
	count_slot *c = &e->counts[depth - 1][*next];
	if (!c->v && !(c->v = malloc((size_t)e->N * sizeof(int))))
		return NULL;
	*next = (*next + 1) % e->count_slots;
	c->gen = e->gen;
	for (int j = 0; j < depth; j++)
		c->len[j] = len[count_dim(e, j)];
	return c->v;
}

/* From the deepest kept prefix of the lengths (count_dim order), one
 * window pass per remaining dimension; each prefix reached is kept (the last, all the
 * dimensions, goes to e->cnt).  Pools of different depths never share a
 * buffer, so the pass's source is never its destination. */
const int *tp_torus_erode_free_counts(tp_torus_erode *e, const int *len)
{
	for (int i = 0; i < e->n; i++)
		if (len[i] < 1 || len[i] > e->dims[i])
			return NULL;
	if (!e->cnt && !(e->cnt = malloc((size_t)e->N * sizeof(int))))
		return NULL;
	const int *src = NULL;
	int from = e->n - 1;
	for (; from > 0 && !src; from--)
		src = kept_counts(e, len, from);
	if (src)
		from++; /* the loop stepped past the depth it found */
	else if (!(src = base_counts(e)))
		return NULL;
	for (int j = from; j < e->n; j++) {
		int i = count_dim(e, j);
		if (len[i] == 1 && j + 1 < e->n)
			continue; /* the same sums: not kept twice */
		int *dst = j + 1 < e->n ? keep_counts(e, len, j + 1) : e->cnt;
		if (!dst)
			return NULL;
		if (len[i] == 1)
			memcpy(dst, src, (size_t)e->N * sizeof(int));
		else
			window_sum(e, src, dst, i, len[i]);
		src = dst;
	}
	return src;
}

/* ---- life cycle ------------------------------------------------------------ */

tp_torus_erode *tp_torus_erode_new(const tp_torus *t, const tp_nodeset *free)
{
	tp_torus_erode *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->n = tp_torus_ndims(t);
	e->N = tp_torus_nnodes(t);
	e->W = (e->N + 63) / 64;
	e->levels = 1;
	e->gen = 1;
	for (int i = e->n - 1, s = 1; i >= 0; i--) {
		e->dims[i] = tp_torus_dims(t)[i];
		e->wrap[i] = tp_torus_wrap(t)[i];
		e->stride[i] = s;
		s *= e->dims[i];
		e->levels += e->dims[i] - 1;
		if (e->dims[i] > e->maxd)
			e->maxd = e->dims[i];
	}
	while ((1 << e->npow) <= e->maxd)
		e->npow++;
	size_t pool = (size_t)e->N * sizeof(int) * (size_t)(e->n > 1 ? e->n - 1 : 1);
	e->count_slots = (int)(COUNT_BYTES / pool);
	if (e->count_slots > COUNT_SLOTS)
		e->count_slots = COUNT_SLOTS;
	if (e->count_slots < 2)
		e->count_slots = 2;
	size_t bytes = (size_t)e->W * sizeof(uint64_t);
	e->hi = calloc((size_t)e->n * (size_t)e->maxd, sizeof(*e->hi));
	e->zero = calloc((size_t)e->n, sizeof(*e->zero));
	e->pow = calloc((size_t)e->npow, sizeof(*e->pow));
	e->stack = calloc((size_t)e->levels, sizeof(*e->stack));
	e->free = calloc(1, bytes);
	e->out = malloc(bytes);
	e->tmp = malloc(bytes);
	e->shifted = malloc(bytes);
	bool ok = e->hi && e->zero && e->pow && e->stack && e->free && e->out &&
		  e->tmp && e->shifted;
	for (int j = 0; ok && j < e->npow; j++)
		ok = (e->pow[j] = malloc(bytes)) != NULL;
	for (int d = 0; ok && d < e->levels; d++)
		ok = (e->stack[d] = malloc(bytes)) != NULL;
	if (!ok) {
		tp_torus_erode_free(e);
		return NULL;
	}
	if (free)
		tp_torus_erode_reset(e, free);
	return e;
}

void tp_torus_erode_reset(tp_torus_erode *e, const tp_nodeset *free)
{
	size_t bytes = (size_t)e->W * sizeof(uint64_t);
	if (!memcmp(e->free, free->w, bytes))
		return;
	memcpy(e->free, free->w, bytes);
	e->have_largest = false;
	e->nempty = 0;
	if (++e->gen == 0) { /* wrapped: forget every kept prefix once */
		for (int k = 0; k < PREFIX_SLOTS; k++)
			e->prefix[k].gen = 0;
		for (int d = 0; d + 1 < TP_TORUS_MAX_DIMS; d++)
			for (int k = 0; k < COUNT_SLOTS; k++)
				e->counts[d][k].gen = 0;
		e->base_gen = 0;
		e->gen = 1;
	}
}

static void free_all(uint64_t **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void tp_torus_erode_free(tp_torus_erode *e)
{
	if (!e)
		return;
	free_all(e->hi, e->n * e->maxd);
	free_all(e->zero, e->n);
	free_all(e->pow, e->npow);
	free_all(e->stack, e->levels);
	free(e->free);
	free(e->out);
	free(e->tmp);
	free(e->shifted);
	free(e->cnt);
	free(e->base);
	for (int d = 0; d + 1 < TP_TORUS_MAX_DIMS; d++)
		for (int k = 0; k < COUNT_SLOTS; k++)
			free(e->counts[d][k].v);
	for (int k = 0; k < PREFIX_SLOTS; k++)
		free(e->prefix[k].set);
	free(e);
}
