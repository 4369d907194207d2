/*
 * torus_box.c - box shapes, placements and box tests on a torus; the mean
 * diameter of a shape; prefix-sum counts of locked nodes over boxes.
 * See torus.h.
 */
#include "topology/torus.h"

#include <stdlib.h>
#include <string.h>

/* ---- mean diameter --------------------------------------------------- */

/* sum of k^e for k in [a, b] (e = 0, 1, 2); 0 if a > b. */
static uint64_t power_sum(int64_t a, int64_t b, int e)
{
	if (a > b)
		return 0;
	uint64_t s0 = (uint64_t)(b - a + 1);
	if (e == 0)
		return s0;
	uint64_t hi1 = (uint64_t)(b * (b + 1) / 2);
	uint64_t lo1 = (uint64_t)((a - 1) * a / 2);
	if (e == 1)
		return hi1 - lo1;
	uint64_t hi2 = (uint64_t)b * (uint64_t)(b + 1) * (uint64_t)(2 * b + 1) / 6;
	uint64_t lo2 = (uint64_t)(a - 1) * (uint64_t)a * (uint64_t)(2 * a - 1) / 6;
	return hi2 - lo2;
}

/*
 * D(p) = sum over ordered pairs (a, b) of positions 0..p-1 of a box side of
 * their distance along one dimension of size d.  There are 2(p - k) ordered
 * pairs at offset k; the distance at offset k is k on a line and
 * min(k, d - k) on a ring under Distance=torus.  Closed forms:
 *   line:  2 sum_{k<p} (p-k) k = (p^3 - p) / 3
 *   ring:  the same up to h = floor(d/2), then 2 sum (p-k)(d-k) above h.
 */
static uint64_t side_pair_sum(int p, int d, bool ring)
{
	int64_t P = p, D = d;
	if (!ring)
		return (uint64_t)((P * P * P - P) / 3);
	int64_t h = D / 2, top = P - 1 < h ? P - 1 : h;
	uint64_t near = (uint64_t)P * power_sum(1, top, 1) - power_sum(1, top, 2);
	uint64_t far = (uint64_t)(P * D) * power_sum(h + 1, P - 1, 0) -
		       (uint64_t)(P + D) * power_sum(h + 1, P - 1, 1) +
		       power_sum(h + 1, P - 1, 2);
	return 2 * (near + far);
}

static bool ring_distance(const tp_torus *t, int i)
{
	return tp_torus_options(t)->distance == TP_TORUS_DIST_TORUS &&
	       tp_torus_wrap(t)[i];
}

static void shape_fill(const tp_torus *t, tp_torus_shape *s)
{
	const int *dims = tp_torus_dims(t);
	uint64_t size = 1, sum = 0;
	for (int i = 0; i < tp_torus_ndims(t); i++)
		size *= (uint64_t)s->len[i];
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		uint64_t other = size / (uint64_t)s->len[i];
		sum += other * other *
		       side_pair_sum(s->len[i], dims[i], ring_distance(t, i));
	}
	s->size = (int)size;
	s->pair_sum = sum;
	s->mean_diameter = size > 1 ? (double)sum / ((double)size * (double)(size - 1))
				    : 0.0;
}

double tp_torus_mean_diameter(const tp_torus *t, const int *len)
{
	tp_torus_shape s = { 0 };
	memcpy(s.len, len, (size_t)tp_torus_ndims(t) * sizeof(int));
	shape_fill(t, &s);
	return s.mean_diameter;
}

/* ---- shape enumeration ------------------------------------------------ */

typedef struct shape_list {
	tp_torus_shape *v;
	int n, cap;
	int ndims;
	bool canonical; /* factors non-increasing (BaseShapes=canonical) */
} shape_list;

static int shape_push(shape_list *l, const tp_torus_shape *s)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 32;
		tp_torus_shape *v = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *s;
	return 0;
}

/* The largest factor dimension i may take: its size, and under the
 * canonical reading no more than the factor before it, so that each
 * multiset of factors appears once, sorted non-increasing. */
static int factor_cap(const tp_torus *t, const shape_list *l,
		      const tp_torus_shape *s, int i)
{
	int cap = tp_torus_dims(t)[i];
	if (l->canonical && i > 0 && s->len[i - 1] < cap)
		cap = s->len[i - 1];
	return cap;
}

/* Every way to write `rest` as len[i] * ... * len[n-1], 1 <= len_j <= d_j
 * (and non-increasing under the canonical reading). */
static int factorise(const tp_torus *t, shape_list *l, tp_torus_shape *s,
		     int i, int rest)
{
	int cap = factor_cap(t, l, s, i);
	if (i == l->ndims - 1) {
		if (rest > cap)
			return 0;
		s->len[i] = rest;
		shape_fill(t, s);
		return shape_push(l, s);
	}
	for (int p = 1; p <= cap && p <= rest; p++) {
		if (rest % p)
			continue;
		s->len[i] = p;
		if (factorise(t, l, s, i + 1, rest / p))
			return -1;
	}
	return 0;
}

/* Shape order: mean diameter exactly (pair_sum / (P (P-1)) cross-
 * multiplied in 128 bits), then size, then lengths. */
static int shape_cmp(const void *pa, const void *pb)
{
	const tp_torus_shape *a = pa, *b = pb;
	unsigned __int128 da = a->size > 1 ? (unsigned __int128)a->size * (unsigned)(a->size - 1) : 1;
	unsigned __int128 db = b->size > 1 ? (unsigned __int128)b->size * (unsigned)(b->size - 1) : 1;
	unsigned __int128 l = (unsigned __int128)a->pair_sum * db;
	unsigned __int128 r = (unsigned __int128)b->pair_sum * da;
	if (l != r)
		return l < r ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	for (int i = 0; i < TP_TORUS_MAX_DIMS; i++)
		if (a->len[i] != b->len[i])
			return a->len[i] < b->len[i] ? -1 : 1;
	return 0;
}

int tp_torus_shapes_read(const tp_torus *t, int nodes, int ntransit,
			 tp_torus_base_shapes reading, tp_torus_shape **out)
{
	shape_list l = { .ndims = tp_torus_ndims(t),
			 .canonical = reading == TP_TORUS_SHAPES_CANONICAL };
	*out = NULL;
	if (nodes <= 0 || ntransit < 0)
		return 0;
	for (long size = nodes; size <= (long)nodes + ntransit &&
	     size <= tp_torus_nnodes(t); size++) {
		tp_torus_shape s = { 0 };
		if (factorise(t, &l, &s, 0, (int)size)) {
			free(l.v);
			return -1;
		}
	}
	if (l.n)
		qsort(l.v, (size_t)l.n, sizeof(*l.v), shape_cmp);
	*out = l.v;
	return l.n;
}

int tp_torus_shapes(const tp_torus *t, int nodes, int ntransit,
		    tp_torus_shape **out)
{
	return tp_torus_shapes_read(t, nodes, ntransit, TP_TORUS_SHAPES_ALL,
				    out);
}

/* No dimension of len (of `size` nodes) can grow without the size
 * passing `hi`. */
static bool maximal_shape(const tp_torus *t, const int *len, long size,
			  int hi)
{
	for (int i = 0; i < tp_torus_ndims(t); i++)
		if (len[i] < tp_torus_dims(t)[i] &&
		    size / len[i] * (len[i] + 1) <= hi)
			return false;
	return true;
}

/* The maximal shapes of sizes lo..hi with lengths len[0..i-1] so far
 * (product `size`) into l: every length of dimension i on, as long as
 * the product stays within hi.  -1 on ENOMEM. */
static int maximal_from(const tp_torus *t, shape_list *l, tp_torus_shape *s,
			int i, long size, int lo, int hi)
{
	if (i == l->ndims) {
		if (size < lo || !maximal_shape(t, s->len, size, hi))
			return 0;
		shape_fill(t, s);
		return shape_push(l, s);
	}
	for (int p = 1; p <= tp_torus_dims(t)[i] && size * p <= hi; p++) {
		s->len[i] = p;
		if (maximal_from(t, l, s, i + 1, size * p, lo, hi))
			return -1;
	}
	return 0;
}

/* The tuples of lengths are walked once, cut where their product passes
 * hi, rather than every size of the range factorised: a range of sizes
 * holds most shapes up to its top. */
int tp_torus_shapes_maximal(const tp_torus *t, int lo, int hi,
			    tp_torus_shape **out)
{
	shape_list l = { .ndims = tp_torus_ndims(t) };
	tp_torus_shape s = { 0 };
	*out = NULL;
	if (lo < 1)
		lo = 1;
	if (hi > tp_torus_nnodes(t))
		hi = tp_torus_nnodes(t);
	if (lo > hi)
		return 0;
	if (maximal_from(t, &l, &s, 0, 1, lo, hi)) {
		free(l.v);
		return -1;
	}
	if (l.n)
		qsort(l.v, (size_t)l.n, sizeof(*l.v), shape_cmp);
	*out = l.v;
	return l.n;
}

/* ---- placements and box tests ---------------------------------------- */

static int offsets_in_dim(const tp_torus *t, int i, int len)
{
	int d = tp_torus_dims(t)[i];
	if (tp_torus_wrap(t)[i])
		return len == d ? 1 : d;
	return d - len + 1;
}

long tp_torus_placements(const tp_torus *t, const int *len)
{
	long n = 1;
	for (int i = 0; i < tp_torus_ndims(t); i++)
		n *= offsets_in_dim(t, i, len[i]);
	return n;
}

void tp_torus_placement(const tp_torus *t, const int *len, long k,
			tp_box *box)
{
	memset(box, 0, sizeof(*box));
	for (int i = tp_torus_ndims(t) - 1; i >= 0; i--) {
		int m = offsets_in_dim(t, i, len[i]);
		box->len[i] = len[i];
		box->off[i] = (int)(k % m);
		k /= m;
	}
}

int tp_torus_box_corner(const tp_torus *t, const tp_box *box)
{
	return tp_torus_index(t, box->off);
}

int tp_torus_box_size(const tp_torus *t, const tp_box *box)
{
	int n = 1;
	for (int i = 0; i < tp_torus_ndims(t); i++)
		n *= box->len[i];
	return n;
}

bool tp_torus_box_contains(const tp_torus *t, const tp_box *box, int idx)
{
	int c[TP_TORUS_MAX_DIMS];
	const int *dims = tp_torus_dims(t);
	tp_torus_coord(t, idx, c);
	for (int i = 0; i < tp_torus_ndims(t); i++)
		if ((c[i] - box->off[i] + dims[i]) % dims[i] >= box->len[i])
			return false;
	return true;
}

/* Two arcs [a, a+la), [b, b+lb) of a ring of d meet iff one starts inside
 * the other; on a line (no arc crosses the end) the same test holds. */
bool tp_torus_box_intersects(const tp_torus *t, const tp_box *a,
			     const tp_box *b)
{
	const int *dims = tp_torus_dims(t);
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		int d = dims[i];
		if ((b->off[i] - a->off[i] + d) % d >= a->len[i] &&
		    (a->off[i] - b->off[i] + d) % d >= b->len[i])
			return false;
	}
	return true;
}

bool tp_torus_box_equal(const tp_torus *t, const tp_box *a, const tp_box *b)
{
	for (int i = 0; i < tp_torus_ndims(t); i++)
		if (a->off[i] != b->off[i] || a->len[i] != b->len[i])
			return false;
	return true;
}

/* Visit every node of the box (odometer over local coordinates). */
#define BOX_FOR_EACH(t, box, idx, body)                                      \
	do {                                                                 \
		int n_ = tp_torus_ndims(t), k_[TP_TORUS_MAX_DIMS] = { 0 };   \
		int c_[TP_TORUS_MAX_DIMS];                                   \
		const int *d_ = tp_torus_dims(t);                            \
		for (;;) {                                                   \
			for (int i_ = 0; i_ < n_; i_++)                      \
				c_[i_] = ((box)->off[i_] + k_[i_]) % d_[i_]; \
			int idx = tp_torus_index(t, c_);                     \
			body;                                                \
			int j_ = n_ - 1;                                     \
			while (j_ >= 0 && ++k_[j_] == (box)->len[j_])        \
				k_[j_--] = 0;                                \
			if (j_ < 0)                                          \
				break;                                       \
		}                                                            \
	} while (0)

/* The box's nodes a row at a time: along the last dimension (stride 1)
 * a row is one run of indices, or two when it goes round the ring. */
void tp_torus_box_nodes(const tp_torus *t, const tp_box *box, tp_nodeset *out)
{
	int n = tp_torus_ndims(t), last = n - 1, k[TP_TORUS_MAX_DIMS] = { 0 };
	const int *d = tp_torus_dims(t);
	int off = box->off[last], len = box->len[last], dl = d[last];
	int head = off + len <= dl ? len : dl - off; /* before the seam */
	for (;;) {
		int base = 0;
		for (int i = 0; i < last; i++)
			base = (base + (box->off[i] + k[i]) % d[i]) * d[i + 1];
		tp_nodeset_set_range(out, base + off, base + off + head);
		if (head < len)
			tp_nodeset_set_range(out, base, base + len - head);
		int j = last - 1;
		while (j >= 0 && ++k[j] == box->len[j])
			k[j--] = 0;
		if (j < 0)
			break;
	}
}

bool tp_torus_box_all_free(const tp_torus *t, const tp_box *box,
			   const tp_nodeset *avail)
{
	bool ok = true;
	BOX_FOR_EACH(t, box, idx, if (!tp_nodeset_test(avail, idx)) {
		ok = false;
		break;
	});
	return ok;
}

const char *tp_torus_box_format(const tp_torus *t, const tp_box *box,
				char *buf, size_t len)
{
	size_t k = 0;
	int n = tp_torus_ndims(t);
	k += (size_t)snprintf(buf, len, "off=");
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "",
				      box->off[i]);
	if (k < len)
		k += (size_t)snprintf(buf + k, len - k, " len=");
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "",
				      box->len[i]);
	return buf;
}

/* Sum over ordered pairs of one dimension's distances, from the histogram
 * h[0..d-1] of that coordinate: O(d) on a line, O(d^2) on a ring. */
static double hist_pair_sum(const long *h, int d, bool ring)
{
	double sum = 0;
	if (!ring) {
		double before = 0, before_pos = 0;
		for (int c = 0; c < d; c++) {
			sum += (double)h[c] * ((double)c * before - before_pos);
			before += (double)h[c];
			before_pos += (double)h[c] * c;
		}
		return 2 * sum;
	}
	for (int a = 0; a < d; a++)
		for (int b = a + 1; b < d; b++) {
			int k = b - a < d - (b - a) ? b - a : d - (b - a);
			sum += (double)h[a] * (double)h[b] * k;
		}
	return 2 * sum;
}

/* Start of the occupied arc of a ring histogram: the position after its
 * longest run of empty positions (the first such run), 0 if none is
 * empty.  Unrolling the ring there measures a box that crosses the seam
 * along the box, as its shape's mean diameter does. */
static int arc_start(const long *h, int d)
{
	int best = 0, best_len = 0;
	for (int c = 0; c < d; c++) {
		if (!h[c] || h[(c + d - 1) % d])
			continue;
		/* c is occupied after an empty position: measure that gap */
		int len = 0;
		while (len < d && !h[(c + d - 1 - len) % d])
			len++;
		if (len > best_len) {
			best_len = len;
			best = c;
		}
	}
	return best;
}

double tp_torus_set_mean_distance(const tp_torus *t, const tp_nodeset *s)
{
	int n = tp_torus_ndims(t), c[TP_TORUS_MAX_DIMS], at[TP_TORUS_MAX_DIMS];
	const int *dims = tp_torus_dims(t);
	long k = tp_nodeset_count(s);
	if (k < 2)
		return 0.0;
	/* every dimension's histogram from one pass over the nodes */
	int total = 0;
	for (int i = 0; i < n; i++) {
		at[i] = total;
		total += dims[i];
	}
	long *hist = calloc((size_t)total, sizeof(*hist));
	if (!hist)
		return -1.0;
	/* by runs of consecutive indices (a box is rows of them) cut at the
	 * ends of the last dimension's lines: along a piece only the last
	 * coordinate moves */
	int dl = dims[n - 1];
	for (int v = tp_nodeset_next(s, 0); v >= 0; v = tp_nodeset_next(s, v)) {
		int end = tp_nodeset_next_clear(s, v);
		while (v < end) {
			tp_torus_coord(t, v, c);
			int piece = dl - c[n - 1];
			if (piece > end - v)
				piece = end - v;
			for (int i = 0; i < n - 1; i++)
				hist[at[i] + c[i]] += piece;
			for (int x = 0; x < piece; x++)
				hist[at[n - 1] + c[n - 1] + x]++;
			v += piece;
		}
	}
	double sum = 0;
	for (int i = 0; i < n; i++) {
		long *h = hist + at[i];
		long *r = NULL;
		if (tp_torus_wrap(t)[i] && !ring_distance(t, i)) {
			if (!(r = malloc((size_t)dims[i] * sizeof(*r)))) {
				free(hist);
				return -1.0;
			}
			int start = arc_start(h, dims[i]);
			for (int p = 0; p < dims[i]; p++)
				r[p] = h[(start + p) % dims[i]];
			h = r;
		}
		sum += hist_pair_sum(h, dims[i], ring_distance(t, i));
		free(r);
	}
	free(hist);
	return sum / ((double)k * (double)(k - 1));
}

/* ---- prefix-sum counts ------------------------------------------------ */

/*
 * Q is the inclusive prefix sum of "locked" over the torus unrolled twice
 * along each ring (ext_i = 2 d_i), padded with a zero plane in front, so a
 * box that crosses a ring's seam is one plain rectangle [off, off+len) of
 * the unrolled grid and its count is the 2^n-term inclusion-exclusion.
 */
struct tp_torus_counts {
	int n;
	int ext[TP_TORUS_MAX_DIMS];
	long qstride[TP_TORUS_MAX_DIMS];
	int *q;
};

tp_torus_counts *tp_torus_counts_new(const tp_torus *t, const tp_nodeset *avail)
{
	tp_torus_counts *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	int n = c->n = tp_torus_ndims(t);
	const int *dims = tp_torus_dims(t);
	long cells = 1;
	for (int i = n - 1; i >= 0; i--) {
		c->ext[i] = tp_torus_wrap(t)[i] && dims[i] > 1 ? 2 * dims[i]
							       : dims[i];
		c->qstride[i] = cells;
		cells *= c->ext[i] + 1;
	}
	if (!(c->q = calloc((size_t)cells, sizeof(*c->q)))) {
		free(c);
		return NULL;
	}
	/* Cells at padded coordinate x >= 1 hold locked(x - 1 mod d):
	 * odometer over the leading dimensions, a plain loop over the last. */
	int x[TP_TORUS_MAX_DIMS], stride[TP_TORUS_MAX_DIMS], last = n - 1;
	stride[last] = 1;
	for (int i = last - 1; i >= 0; i--)
		stride[i] = stride[i + 1] * dims[i + 1];
	for (int i = 0; i < n; i++)
		x[i] = 1;
	for (;;) {
		long qi = 0;
		int row = 0;
		for (int i = 0; i < last; i++) {
			qi += x[i] * c->qstride[i];
			row += (x[i] - 1) % dims[i] * stride[i];
		}
		for (int p = 1, pos = 0; p <= c->ext[last]; p++) {
			c->q[qi + p] = !tp_nodeset_test(avail, row + pos);
			if (++pos == dims[last])
				pos = 0;
		}
		int j = last - 1;
		while (j >= 0 && ++x[j] > c->ext[j])
			x[j--] = 1;
		if (j < 0)
			break;
	}
	/* Running sums along each dimension in turn (blocks of (ext+1) rows
	 * of qstride cells; the x = 0 planes stay zero). */
	for (int i = 0; i < n; i++) {
		long s = c->qstride[i], block = s * (c->ext[i] + 1);
		for (long b0 = 0; b0 < cells; b0 += block)
			for (long r = b0 + s; r < b0 + block; r += s) {
				int *dst = c->q + r;
				const int *src = dst - s;
				for (long k = 0; k < s; k++)
					dst[k] += src[k];
			}
	}
	return c;
}

int tp_torus_counts_locked(const tp_torus_counts *c, const tp_box *box)
{
	long base = 0, delta[TP_TORUS_MAX_DIMS];
	int n = c->n;
	for (int i = 0; i < n; i++) {
		base += box->off[i] * c->qstride[i];
		delta[i] = box->len[i] * c->qstride[i];
	}
	/* corner mask m: bit i set = upper end in dimension i; the sign is
	 * + when the number of lower ends is even. */
	int sum = 0;
	for (unsigned m = 0; m < (1u << n); m++) {
		long qi = base;
		int lower = n;
		for (int i = 0; i < n; i++)
			if (m >> i & 1) {
				qi += delta[i];
				lower--;
			}
		sum += (lower & 1) ? -c->q[qi] : c->q[qi];
	}
	return sum;
}

void tp_torus_counts_free(tp_torus_counts *c)
{
	if (!c)
		return;
	free(c->q);
	free(c);
}
