/*
 * alloc_torus_mss.c - torus-mss's scan: phi after each free candidate,
 * the first candidate of largest phi wins (doc/methods.md B,
 * Find_Systems + MSS).
 *
 * Why it can stop early.  Every MSS of a subset of the free set S is a
 * free box of S, so phi(S minus B) <= N L* + P* (L* the volume of the
 * largest free box of S, P* the number of them; torus_erode.c): the
 * first candidate that reaches that bound is the choice, as no later one
 * beats it and ties keep the earlier.  Pass 1 evaluates, in enumeration
 * order, a few of the candidates that may reach it (those that may keep
 * every big box an MSS, settled before their phi where possible: the
 * big boxes they miss, and which of those can still be an MSS after
 * them).  If none does, pass 2 bounds every other candidate by what S's
 * own MSS walk says of S minus it (torus.h, tp_mss_eval_discovery) and
 * evaluates them largest bound first, until no bound can beat the best:
 * branch and bound, exact because the bounds are and ties keep the
 * earlier ordinal.  test/check_torus_mss_bound checks the choice against
 * the full scan on random states, bench_torus the speed-up.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/torus_cand.h"

/* Most nodes (P* L*) of big boxes whose reach is worked out. */
#define MAX_REACH_NODES 16384

/*
 * When can a big box M (free, of volume L*) be an MSS after candidate B?
 * Its seed s lies in M and grows into M in S' = S minus B.  Growing
 * fixes dimension 0 first (a line through s), then 1, ...: the box from s
 * is M exactly when, for each dimension i that M neither spans (ring)
 * nor ends against (line), the slabs just outside M on both sides of
 * dimension i - M's extent in dimensions < i, s's coordinates in those
 * > i - each hold a node locked in S'.  Inside M growth never stops.
 * So if some s has all its stopping slabs locked in S, M grows from s in
 * S already (grown); otherwise B must meet one of the stopping slabs that
 * are free in S (their union: the reach of M, a shell around M).
 */
typedef struct big_reach {
	bool grown;          /* some node of M grows into M in S */
	tp_nodeset reach;    /* else the free stopping slabs of its nodes */
} big_reach;

/* Local coordinates of M: k[j] in 0..len_j-1, the odometer over those of
 * dimensions > i (last fastest); false when it wraps. */
static bool next_suffix(const tp_box *m, int n, int i, int *k)
{
	for (int j = n - 1; j > i; j--) {
		if (++k[j] < m->len[j])
			return true;
		k[j] = 0;
	}
	return false;
}

static int suffix_index(const tp_box *m, int n, int i, const int *k)
{
	int q = 0;
	for (int j = i + 1; j < n; j++)
		q = q * m->len[j] + k[j];
	return q;
}

/* The stopping slab of dimension i, direction dir, for the suffix k; false
 * if M spans the ring or ends against the line there. */
static bool stop_slab(const tp_torus *t, const tp_box *m, int i, int dir,
		      const int *k, tp_box *slab)
{
	int d = tp_torus_dims(t)[i], n = tp_torus_ndims(t);
	bool wrap = tp_torus_wrap(t)[i];
	if (m->len[i] == d)
		return false;
	int p = dir > 0 ? m->off[i] + m->len[i] : m->off[i] - 1;
	if (!wrap && (p < 0 || p >= d))
		return false;
	*slab = *m;
	slab->off[i] = (p + d) % d;
	slab->len[i] = 1;
	for (int j = i + 1; j < n; j++) {
		slab->off[j] = (m->off[j] + k[j]) % tp_torus_dims(t)[j];
		slab->len[j] = 1;
	}
	return true;
}

/* open[i][q]: which stopping slabs of dimension i for suffix q are free
 * in S (bit 0: the + side, bit 1: the - side); adds them to r->reach. */
static int open_slabs(cand_ctx *c, const tp_box *m, big_reach *r,
		      unsigned char **open)
{
	int n = tp_torus_ndims(c->t);
	for (int i = 0; i < n; i++) {
		int k[TP_TORUS_MAX_DIMS] = { 0 }, q = 1;
		for (int j = i + 1; j < n; j++)
			q *= m->len[j];
		if (!(open[i] = calloc((size_t)q, 1)))
			return -1;
		do {
			for (int dir = 1; dir >= -1; dir -= 2) {
				tp_box slab;
				if (!stop_slab(c->t, m, i, dir, k, &slab) ||
				    !tp_torus_box_all_free(c->t, &slab, c->avail))
					continue;
				open[i][suffix_index(m, n, i, k)] |= dir > 0 ? 1 : 2;
				tp_torus_box_nodes(c->t, &slab, &r->reach);
			}
		} while (next_suffix(m, n, i, k));
	}
	return 0;
}

/* Does some node of M have every stopping slab locked in S? */
static bool some_node_grows(const tp_box *m, int n, unsigned char **open)
{
	int k[TP_TORUS_MAX_DIMS] = { 0 };
	do {
		bool closed = true;
		for (int i = 0; i < n && closed; i++)
			closed = !open[i][suffix_index(m, n, i, k)];
		if (closed)
			return true;
	} while (next_suffix(m, n, -1, k));
	return false;
}

static int reach_of(cand_ctx *c, const tp_box *m, big_reach *r)
{
	int n = tp_torus_ndims(c->t), rc = -1;
	unsigned char *open[TP_TORUS_MAX_DIMS] = { NULL };
	if (tp_nodeset_init(&r->reach, tp_torus_nnodes(c->t)))
		return -1;
	if (!open_slabs(c, m, r, open)) {
		r->grown = some_node_grows(m, n, open);
		rc = 0;
	}
	for (int i = 0; i < n; i++)
		free(open[i]);
	return rc;
}

static void free_reach(cand_ctx *c)
{
	for (int b = 0; c->reach && b < c->nbig; b++)
		if (c->reach[b].reach.w)
			tp_nodeset_fini(&c->reach[b].reach);
	free(c->reach);
	c->reach = NULL;
	if (c->scratch.w)
		tp_nodeset_fini(&c->scratch);
}

/* The reach of every big box (none if they are too large: then every big
 * box a candidate misses counts as reachable). */
static void build_reach(cand_ctx *c)
{
	if (c->nbig <= 0 || (long)c->nbig * tp_torus_box_size(c->t, &c->big[0]) >
				    MAX_REACH_NODES)
		return;
	if (tp_nodeset_init(&c->scratch, tp_torus_nnodes(c->t)) ||
	    !(c->reach = calloc((size_t)c->nbig, sizeof(*c->reach)))) {
		free_reach(c);
		return;
	}
	for (int b = 0; b < c->nbig; b++)
		if (reach_of(c, &c->big[b], &c->reach[b])) {
			free_reach(c);
			return;
		}
}

/* May big box b be an MSS after the candidate (whose nodes are in
 * c->scratch)? */
static bool can_reach(const cand_ctx *c, int b)
{
	const big_reach *r = &c->reach[b];
	return r->grown || tp_nodeset_intersects(&c->scratch, &r->reach);
}

/* The big boxes that may be MSSs after the candidate: those it misses
 * whose reach it meets (or every one it misses, without reaches). */
static int big_after(cand_ctx *c, const tp_box *box)
{
	int k = 0;
	bool listed = false;
	for (int b = 0; b < c->nbig; b++) {
		if (tp_torus_box_intersects(c->t, box, &c->big[b]))
			continue;
		if (c->reach && !listed) {
			tp_nodeset_zero(&c->scratch);
			tp_torus_box_nodes(c->t, box, &c->scratch);
			listed = true;
		}
		k += !c->reach || can_reach(c, b);
	}
	return k;
}


/*
 * A bound of each candidate's own when every node is free and every
 * dimension is a ring (slurmctld asks whether a job could ever run on
 * the whole machine): there every candidate misses the one big box, the
 * torus, so the global bound prunes nothing and every placement of every
 * shape would be evaluated.  Two boxes on rings meet exactly when their
 * intervals meet in every dimension, so a box free after candidate B
 * keeps, in some dimension i, within the d_i - b_i positions B leaves
 * there: the largest are that segment times every other ring, one box
 * per dimension i of largest (d_i - b_i) N / d_i.  That is L* and P* of
 * the torus less B, and every MSS after B is one of its free boxes, so
 * phi <= N L* + P* as in phi_bound.  The same for every placement of a
 * shape: a bound per shape.
 */
static int64_t whole_bound(const tp_torus *t, const int *len)
{
	const int *d = tp_torus_dims(t);
	int64_t N = tp_torus_nnodes(t), best = 0, count = 0;
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		if (len[i] == d[i])
			continue;
		int64_t v = (int64_t)(d[i] - len[i]) * (N / d[i]);
		if (v > best) {
			best = v;
			count = 0;
		}
		count += v == best;
	}
	return N * best + count;
}

/* Pass 1: the candidates that may reach the bound, in enumeration order:
 * on the whole torus those of a shape whose own bound is the largest,
 * else those that may keep every big box an MSS (every candidate when
 * the big boxes are not listed). */
static bool in_pass1(cand_ctx *c, const tp_box *box)
{
	if (c->whole)
		return whole_bound(c->t, box->len) == c->whole_cap;
	return c->nbig < 0 || big_after(c, box) == c->nbig;
}

/* Candidates evaluated directly before the fast evaluator is built. */
#define DIRECT_FIRST 2

/* The fast evaluator, built on first use (NULL on ENOMEM). */
static tp_mss_eval *fast_eval(cand_ctx *c)
{
	if (!c->fast)
		c->fast = tp_mss_eval_new(c->t, c->avail, false);
	return c->fast;
}

/* phi after the candidate.  The first DIRECT_FIRST candidates get the
 * direct evaluation (one Find_MSS each): most decisions end at the bound
 * within them, and building the fast evaluator costs about as much as
 * that many direct runs (measured: 3x one at 4,096 nodes, 2x at 49,152).
 * Both give the same phi (test/check_torus_mss). */
static int64_t cand_phi(cand_ctx *c, const tp_box *box)
{
	tp_mss_eval *e = c->eval;
	if (!c->direct && c->nevals++ >= DIRECT_FIRST && !(e = fast_eval(c)))
		return -1;
	return tp_mss_eval_phi(e, box);
}

/* Has the best so far a phi no later candidate can beat (the bound;
 * on the whole torus, the largest whole_bound of the shapes)? */
static bool reached(const cand_ctx *c)
{
	return c->found && (c->best_phi >= c->bound ||
			    (c->whole && c->best_phi >= c->whole_cap));
}

/* Can a candidate of phi at most ub, at ordinal ord, beat the best so
 * far (ties keep the earlier)? */
static bool may_beat(const cand_ctx *c, int64_t ub, long ord)
{
	return !c->found || ub > c->best_phi ||
	       (ub == c->best_phi && ord < c->best_ordinal);
}

/* Evaluate the candidate and keep the first one of largest phi. */
static void evaluate(cand_ctx *c, const tp_box *box, long ord)
{
	int64_t phi = cand_phi(c, box);
	if (phi < 0) {
		c->failed = 1;
		return;
	}
	if (may_beat(c, phi, ord)) {
		c->found = true;
		c->best_phi = phi;
		c->best_ordinal = ord;
		c->box = *box;
	}
}

/* Pass 0 (no bound): every candidate. */
static bool keep_every(cand_ctx *c, const tp_box *box)
{
	evaluate(c, box, c->ordinal++);
	return c->failed;
}

/* Pass 1: the candidates that may keep every big box, until one reaches
 * the bound (nothing beats it, ties keep the earlier) or PASS1_EVALS are
 * evaluated; their ordinals are noted for pass 2. */
static bool keep_first(cand_ctx *c, const tp_box *box)
{
	long ord = c->ordinal++;
	if (!in_pass1(c, box))
		return false;
	evaluate(c, box, ord);
	c->evaluated[c->nevaluated++] = ord;
	return c->failed || reached(c) || c->nevaluated == TP_MSS_PASS1_EVALS;
}

/* Did pass 1 evaluate the candidate at ord?  (Its ordinals ascend.) */
static bool was_evaluated(const cand_ctx *c, long ord)
{
	int a = 0, b = c->nevaluated;
	while (a < b) {
		int mid = a + (b - a) / 2;
		if (c->evaluated[mid] < ord)
			a = mid + 1;
		else
			b = mid;
	}
	return a < c->nevaluated && c->evaluated[a] == ord;
}

/* How many big boxes may be MSSs of S minus B after its first h MSSs:
 * those that miss B, hold a node discovered at h or later (largest
 * discoverer >= h) and may be MSSs after B (their reach).  Without the
 * list, P* less the `pre` among the first h. */
static long later_big(cand_ctx *c, const tp_box *box, int h, long pre)
{
	if (c->nbig < 0)
		return c->count - pre;
	long later = 0;
	bool listed = false;
	for (int b = 0; b < c->nbig; b++) {
		if (c->big_last[b] < h ||
		    tp_torus_box_intersects(c->t, box, &c->big[b]))
			continue;
		if (c->reach && !listed) {
			tp_nodeset_zero(&c->scratch);
			tp_torus_box_nodes(c->t, box, &c->scratch);
			listed = true;
		}
		later += !c->reach || can_reach(c, b);
	}
	return later;
}

/* Is the candidate's node set (listed into c->lv_nodes on first use)
 * meeting the reach of level box m? */
static bool meets_reach(cand_ctx *c, const tp_box *box, bool *listed,
			const struct lvl_box *m);

/* The largest volume >= lv_min a later MSS of S minus B may have, and
 * how many may have it; 0 if none (the levels, below). */
static int level_top(cand_ctx *c, const tp_box *box, int h, long *count);

/*
 * Pass 2's bound of a candidate B, from the walk of S (torus.h): with h
 * the first MSS of S that B meets, S minus B keeps S's first h MSSs
 * (their largest size and its count are known) and every later MSS is a
 * free box of S that misses B and holds a node discovered at h or later.
 * With the levels, the later MSSs are bounded by level_top (and are
 * smaller than lv_min, of unknown number, if it finds none).  Without
 * them, the later MSSs of volume L* are at most the big boxes that miss
 * B, reach past h and may be MSSs after B; a prefix MSS of volume L* is
 * a big box wholly discovered before h, so none is counted twice.
 */
static int64_t cand_bound(cand_ctx *c, const tp_box *box)
{
	int64_t N = tp_torus_nnodes(c->t), ub = c->bound;
	if (c->whole) {
		int64_t own = whole_bound(c->t, box->len);
		if (own < ub)
			ub = own;
	}
	int h, last, pmax, pcnt;
	tp_mss_eval_discovery(c->fast, box, &h, &last);
	tp_mss_eval_prefix(c->fast, h, &pmax, &pcnt);
	int64_t walk;
	if (c->lv) {
		long cnt;
		int64_t v = level_top(c, box, h, &cnt);
		if (!v) { /* every later MSS is below the levels: < lv_min */
			v = c->lv_min - 1;
			cnt = N;
		}
		if (v < pmax)
			walk = N * pmax + pcnt;
		else if (v == pmax)
			walk = N * pmax + pcnt + cnt;
		else
			walk = N * v + cnt;
	} else {
		long pre = pmax == c->volume ? pcnt : 0;
		walk = N * c->volume + pre + later_big(c, box, h, pre);
	}
	return walk < ub ? walk : ub;
}

/* A candidate of pass 2: its bound, ordinal, low corner and shape. */
typedef struct cand_item {
	int64_t ub;
	long ord;
	int corner, shape;
} cand_item;

/* The index of the candidate's shape in the list (the last one found
 * first: both enumerations repeat it often). */
static int shape_of(cand_ctx *c, const tp_box *box)
{
	int n = tp_torus_ndims(c->t);
	for (int k = 0; k < c->shapes->nsh; k++) {
		int r = (c->last_shape + k) % c->shapes->nsh;
		if (!memcmp(c->shapes->sh[r].len, box->len, (size_t)n * sizeof(int)))
			return c->last_shape = r;
	}
	return -1; /* not reached: every candidate has a listed shape */
}

static void item_box(const cand_ctx *c, const cand_item *it, tp_box *box)
{
	memset(box, 0, sizeof(*box));
	tp_torus_coord(c->t, it->corner, box->off);
	memcpy(box->len, c->shapes->sh[it->shape].len,
	       (size_t)tp_torus_ndims(c->t) * sizeof(int));
}

/* Pass 2 before its list, if pass 1 evaluated nothing: the first
 * candidate, so that the others have a best to beat. */
static bool evaluate_first(cand_ctx *c, const tp_box *box)
{
	evaluate(c, box, c->ordinal++);
	c->evaluated[c->nevaluated++] = c->ordinal - 1;
	return true;
}

/* Candidates left to pass 2 that it evaluates without bounds (and
 * without the fast evaluator). */
#define FEW_LEFT DIRECT_FIRST

/* Pass 2: count the candidates not evaluated yet, up to FEW_LEFT + 1. */
static bool count_left(cand_ctx *c, const tp_box *box)
{
	(void)box;
	if (!was_evaluated(c, c->ordinal++))
		c->nleft++;
	return c->nleft > FEW_LEFT;
}

/* Pass 2 with few left: evaluate them. */
static bool evaluate_left(cand_ctx *c, const tp_box *box)
{
	long ord = c->ordinal++;
	if (!was_evaluated(c, ord) && may_beat(c, c->bound, ord))
		evaluate(c, box, ord);
	return c->failed;
}

/* Pass 2: list the candidates not evaluated yet that may beat the best
 * so far by their bound. */
static bool collect(cand_ctx *c, const tp_box *box)
{
	long ord = c->ordinal++;
	if (was_evaluated(c, ord))
		return false;
	int64_t ub = cand_bound(c, box);
	if (!may_beat(c, ub, ord))
		return false;
	if (c->nitems == c->cap) {
		long cap = c->cap ? 2 * c->cap : 1024;
		cand_item *n = realloc(c->items, (size_t)cap * sizeof(*n));
		if (!n) {
			c->failed = 1;
			return true;
		}
		c->items = n;
		c->cap = cap;
	}
	c->items[c->nitems++] = (cand_item){ ub, ord,
		tp_torus_index(c->t, box->off), shape_of(c, box) };
	return false;
}

/* Largest bound first, then enumeration order. */
static int cmp_item(const void *a, const void *b)
{
	const cand_item *x = a, *y = b;
	if (x->ub != y->ub)
		return x->ub > y->ub ? -1 : 1;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

/* The largest discoverer of each big box, for cand_bound. */
static int prepare_big_last(cand_ctx *c)
{
	if (c->nbig <= 0)
		return 0;
	if (!(c->big_last = malloc((size_t)c->nbig * sizeof(int))))
		return -1;
	for (int b = 0; b < c->nbig; b++) {
		int first;
		tp_mss_eval_discovery(c->fast, &c->big[b], &first, &c->big_last[b]);
	}
	return 0;
}

/*
 * The levels: every free box of S of volume >= lv_min (the volume of the
 * best's largest MSS after pass 1), largest first, when they are few.  A
 * later MSS of S minus B (after its first h) of volume >= lv_min is one
 * of them, missing B, holding a node discovered at h or later, and grown
 * from such a node (its seed) in S minus B: a node whose stopping slabs
 * (the reach analysis above) are all locked in S, or one that needs B to
 * lock one, so B meets the box's reach.
 */
typedef struct lvl_box {
	tp_box box;
	int volume;
	int last;           /* its largest discoverer */
	int glast;          /* the largest discoverer of its nodes that grow
			     * into it in S, or -1 */
	tp_nodeset reach;   /* its free stopping slabs */
	int npat;           /* the open patterns of its nodes: */
	unsigned *pat;      /* bit 2i (+) and 2i+1 (-): that stopping slab of */
	int *pat_last;      /* dimension i is free in S; the largest
			     * discoverer of a node with the pattern */
} lvl_box;

/* Most shapes, boxes and nodes (boxes times volume) of the levels. */
#define MAX_LVL_SHAPES 1024
#define MAX_LVL_BOXES 2048
#define MAX_LVL_NODES (1L << 22)
/* Most boxes tested for maximality while listing the levels. */
#define MAX_LVL_TESTED (1L << 18)

/* The open patterns of box l's nodes with their largest discoverers
 * (glast: that of pattern 0, every slab locked). */
static int node_patterns(cand_ctx *c, lvl_box *l, unsigned char **open)
{
	const tp_box *m = &l->box;
	int n = tp_torus_ndims(c->t), k[TP_TORUS_MAX_DIMS] = { 0 };
	const int *d = tp_torus_dims(c->t);
	int npat = 1 << (2 * n), *last = malloc((size_t)npat * sizeof(int));
	if (!last)
		return -1;
	for (int p = 0; p < npat; p++)
		last[p] = -1;
	do {
		unsigned p = 0;
		int x[TP_TORUS_MAX_DIMS];
		for (int i = 0; i < n; i++) {
			p |= (unsigned)open[i][suffix_index(m, n, i, k)] << (2 * i);
			x[i] = (m->off[i] + k[i]) % d[i];
		}
		int who = tp_mss_eval_discoverer(c->fast, tp_torus_index(c->t, x));
		if (who > last[p])
			last[p] = who;
	} while (next_suffix(m, n, -1, k));
	l->glast = last[0];
	l->npat = 0;
	l->pat = malloc((size_t)npat * sizeof(unsigned));
	l->pat_last = malloc((size_t)npat * sizeof(int));
	if (!l->pat || !l->pat_last) {
		free(last);
		return -1;
	}
	for (int p = 0; p < npat; p++)
		if (last[p] >= 0) {
			l->pat[l->npat] = (unsigned)p;
			l->pat_last[l->npat++] = last[p];
		}
	free(last);
	/* keep only the patterns met (a shrinking realloc keeps the data) */
	unsigned *pat = realloc(l->pat, (size_t)l->npat * sizeof(unsigned));
	int *pl = realloc(l->pat_last, (size_t)l->npat * sizeof(int));
	if (pat)
		l->pat = pat;
	if (pl)
		l->pat_last = pl;
	return 0;
}

/* The stopping slabs of box m (bits as in a pattern) that candidate B can
 * lock: B holds the position just outside m on that side of dimension i
 * and meets m's extent in every dimension before i (the slab spans it). */
static unsigned lockable(const tp_torus *t, const tp_box *m, const tp_box *B)
{
	int n = tp_torus_ndims(t);
	const int *d = tp_torus_dims(t);
	unsigned mask = 0;
	bool before = true; /* B meets m in the dimensions < i */
	for (int i = 0; i < n && before; i++) {
		for (int dir = 0; dir < 2; dir++) {
			int p = dir ? m->off[i] - 1 : m->off[i] + m->len[i];
			int x = ((p - B->off[i]) % d[i] + 2 * d[i]) % d[i];
			if (x < B->len[i])
				mask |= 1u << (2 * i + dir);
		}
		int x = ((B->off[i] - m->off[i]) % d[i] + d[i]) % d[i];
		before = x < m->len[i] || (x ? d[i] - x : 0) < B->len[i];
	}
	return mask;
}

/* Can some node of m discovered at h or later grow into m in S minus B:
 * every stopping slab free in S locked by B? */
static bool pattern_fits(const tp_torus *t, const lvl_box *l, const tp_box *B,
			 int h)
{
	unsigned can = lockable(t, &l->box, B);
	for (int p = 0; p < l->npat; p++)
		if (l->pat_last[p] >= h && !(l->pat[p] & ~can))
			return true;
	return false;
}

static int level_box(cand_ctx *c, lvl_box *l)
{
	int n = tp_torus_ndims(c->t), rc = -1, first;
	unsigned char *open[TP_TORUS_MAX_DIMS] = { NULL };
	big_reach r;
	l->pat = NULL;
	l->pat_last = NULL;
	memset(&l->reach, 0, sizeof(l->reach));
	if (tp_nodeset_init(&r.reach, tp_torus_nnodes(c->t)))
		return -1;
	l->volume = tp_torus_box_size(c->t, &l->box);
	tp_mss_eval_discovery(c->fast, &l->box, &first, &l->last);
	if (!open_slabs(c, &l->box, &r, open))
		rc = node_patterns(c, l, open);
	for (int i = 0; i < n; i++)
		free(open[i]);
	l->reach = r.reach;
	return rc;
}

static void free_levels(cand_ctx *c)
{
	for (int i = 0; c->lv && i < c->nlv; i++) {
		tp_nodeset_fini(&c->lv[i].reach);
		free(c->lv[i].pat);
		free(c->lv[i].pat_last);
	}
	free(c->lv);
	c->lv = NULL;
	if (c->lv_nodes.w)
		tp_nodeset_fini(&c->lv_nodes);
}

static int cmp_level(const void *a, const void *b)
{
	const lvl_box *x = a, *y = b;
	return (y->volume > x->volume) - (y->volume < x->volume);
}

/* Can no side of free box m grow by a slab of free nodes in S? */
static bool maximal(cand_ctx *c, const tp_box *m)
{
	const tp_torus_counts *cnt = tp_mss_eval_counts(c->fast);
	const int *d = tp_torus_dims(c->t);
	const bool *wrap = tp_torus_wrap(c->t);
	for (int i = 0; i < tp_torus_ndims(c->t); i++) {
		if (m->len[i] == d[i])
			continue;
		for (int dir = 0; dir < 2; dir++) {
			int p = dir ? m->off[i] - 1 : m->off[i] + m->len[i];
			if (!wrap[i] && (p < 0 || p >= d[i]))
				continue;
			tp_box slab = *m;
			slab.off[i] = (p + d[i]) % d[i];
			slab.len[i] = 1;
			if (!tp_torus_counts_locked(cnt, &slab))
				return false;
		}
	}
	return true;
}

/* The maximal free boxes of shape len into c->lv (false if too many). */
static bool add_shape_boxes(cand_ctx *c, const int *len, int cap, long *nodes)
{
	const uint64_t *cs = tp_torus_erode_corners(c->er, len);
	if (!cs)
		return false;
	int n = tp_torus_ndims(c->t);
	for (int k = tp_torus_erode_next(c->er, cs, 0); k >= 0;
	     k = tp_torus_erode_next(c->er, cs, k + 1)) {
		if (++c->lv_tested > MAX_LVL_TESTED || c->nlv == cap)
			return false;
		lvl_box *l = &c->lv[c->nlv];
		memset(&l->box, 0, sizeof(l->box));
		tp_torus_coord(c->t, k, l->box.off);
		memcpy(l->box.len, len, (size_t)n * sizeof(int));
		if (!c->lv_full && !maximal(c, &l->box))
			continue;
		if ((*nodes += tp_torus_box_size(c->t, &l->box)) > MAX_LVL_NODES)
			return false;
		if (level_box(c, l)) {
			if (l->reach.w)
				tp_nodeset_fini(&l->reach);
			free(l->pat);
			free(l->pat_last);
			return false;
		}
		c->nlv++;
	}
	return true;
}

/* Are the free boxes of volume >= lv_min (shapes lens) few enough to
 * list them all? */
static bool all_fit(cand_ctx *c, int (*lens)[TP_TORUS_MAX_DIMS], int nsh)
{
	long boxes = 0, nodes = 0;
	for (int r = 0; r < nsh; r++) {
		const uint64_t *cs = tp_torus_erode_corners(c->er, lens[r]);
		if (!cs)
			return false;
		long k = 0, v = 1;
		for (int i = 0; i < tp_torus_ndims(c->t); i++)
			v *= lens[r][i];
		for (int x = tp_torus_erode_next(c->er, cs, 0); x >= 0;
		     x = tp_torus_erode_next(c->er, cs, x + 1))
			k++;
		boxes += k;
		nodes += k * v;
		if (boxes > MAX_LVL_BOXES || nodes > MAX_LVL_NODES)
			return false;
	}
	return true;
}

/* The levels from lv_min: every free box of that volume or more if they
 * are few, else the maximal ones (none if those are too many). */
static void build_levels(cand_ctx *c, int lv_min)
{
	int (*lens)[TP_TORUS_MAX_DIMS] = malloc(MAX_LVL_SHAPES * sizeof(*lens));
	int nsh = lens ? tp_torus_erode_shapes_at_least(c->er, lv_min, lens,
							MAX_LVL_SHAPES) : -1;
	long nodes = 0;
	bool ok = nsh >= 0 &&
		  !tp_nodeset_init(&c->lv_nodes, tp_torus_nnodes(c->t)) &&
		  (c->lv = malloc(MAX_LVL_BOXES * sizeof(*c->lv)));
	c->nlv = 0;
	c->lv_tested = 0;
	c->lv_full = ok && !c->maximal_levels && all_fit(c, lens, nsh);
	for (int r = 0; ok && r < nsh; r++)
		ok = add_shape_boxes(c, lens[r], MAX_LVL_BOXES, &nodes);
	free(lens);
	if (!ok) {
		free_levels(c);
		return;
	}
	c->lv_min = lv_min;
	qsort(c->lv, (size_t)c->nlv, sizeof(*c->lv), cmp_level);
}

static bool meets_reach(cand_ctx *c, const tp_box *box, bool *listed,
			const lvl_box *m)
{
	if (!*listed) {
		tp_nodeset_zero(&c->lv_nodes);
		tp_torus_box_nodes(c->t, box, &c->lv_nodes);
		*listed = true;
	}
	return tp_nodeset_intersects(&c->lv_nodes, &m->reach);
}

/* The largest boxes inside level box m that miss B, which meets m: in
 * some dimension i such a box lies in a run of m's positions that B
 * does not hold, and at most spans m in the others.  Their volume, and
 * how many (dimension, run) pairs reach it: boxes of that volume inside
 * m that miss B are exactly those. */
static int largest_outside(const tp_torus *t, const tp_box *m, const tp_box *B,
			   long *count)
{
	int n = tp_torus_ndims(t), best = 0;
	const int *d = tp_torus_dims(t);
	*count = 0;
	for (int i = 0; i < n; i++) {
		int rest = 1;
		for (int j = 0; j < n; j++)
			rest *= j == i ? 1 : m->len[j];
		/* runs along m's positions in dimension i (cyclic if m spans
		 * the ring) not held by B */
		int run = 0, first = -1, runs[TP_TORUS_MAX_DIMS * 8], nr = 0;
		for (int k = 0; k < m->len[i]; k++) {
			int x = ((m->off[i] + k - B->off[i]) % d[i] + 2 * d[i]) % d[i];
			if (x >= B->len[i]) {
				run++;
				continue;
			}
			if (first < 0)
				first = run;
			else if (run && nr < (int)(sizeof(runs) / sizeof(runs[0])))
				runs[nr++] = run;
			run = 0;
		}
		if (first < 0) /* B misses m in dimension i: not called so */
			continue;
		if (m->len[i] == d[i])
			runs[nr++] = first + run; /* the wrap joins both ends */
		else {
			if (first)
				runs[nr++] = first;
			if (run)
				runs[nr++] = run;
		}
		for (int r = 0; r < nr; r++) {
			int v = runs[r] * rest;
			if (v > best) {
				best = v;
				*count = 0;
			}
			*count += v == best;
		}
	}
	return best;
}

/* The largest volume >= lv_min a later MSS of S minus B (after its
 * first h) may have, and how many of that volume may be; 0 if none.
 * Such an MSS is a free box of S that B misses and that a node
 * discovered at h or later can grow into: with every such box listed,
 * one of them; else, as it is slab-maximal in S minus B, a maximal box
 * of S that B misses or a box inside one that B meets. */
static int level_top(cand_ctx *c, const tp_box *box, int h, long *count)
{
	int top = 0;
	bool listed = false;
	*count = 0;
	for (int i = 0; i < c->nlv; i++) {
		const lvl_box *m = &c->lv[i];
		if (m->volume < top)
			break;
		int v;
		long k;
		if (tp_torus_box_intersects(c->t, box, &m->box)) {
			if (c->lv_full) /* its boxes that miss B are listed */
				continue;
			v = largest_outside(c->t, &m->box, box, &k);
		} else if (m->last >= h &&
			   (m->glast >= h || (pattern_fits(c->t, m, box, h) &&
					      meets_reach(c, box, &listed, m)))) {
			v = m->volume;
			k = 1;
		} else {
			continue;
		}
		if (v < c->lv_min || v < top)
			continue;
		if (v > top) {
			top = v;
			*count = 0;
		}
		*count += k;
	}
	return top;
}

/* Pass 2: every candidate that may still beat the best, largest bound
 * first (branch and bound): once a bound cannot beat the best, no later
 * one can, as the bounds only fall and, on a tie, the ordinals rise. */
static void pass2(cand_ctx *c, const tp_shape_list *sl)
{
	if (!c->found) {
		c->ordinal = 0;
		sl->each(c, sl->sh, sl->nsh, evaluate_first);
	}
	/* a few candidates left: evaluated directly, in order, without
	 * building the fast evaluator for their bounds */
	c->ordinal = 0;
	c->nleft = 0;
	sl->each(c, sl->sh, sl->nsh, count_left);
	if (c->nleft <= FEW_LEFT) {
		c->ordinal = 0;
		sl->each(c, sl->sh, sl->nsh, evaluate_left);
		return;
	}
	if (c->failed || !fast_eval(c) || prepare_big_last(c)) {
		c->failed = 1;
		return;
	}
	int64_t N = tp_torus_nnodes(c->t);
	if (c->found && !c->failed && c->best_phi >= N)
		build_levels(c, (int)(c->best_phi / N));
	c->ordinal = 0;
	c->shapes = sl;
	sl->each(c, sl->sh, sl->nsh, collect);
	if (c->failed || !c->nitems)
		return;
	qsort(c->items, (size_t)c->nitems, sizeof(*c->items), cmp_item);
	for (long i = 0; i < c->nitems && !c->failed; i++) {
		const cand_item *it = &c->items[i];
		if (!may_beat(c, it->ub, it->ord))
			break;
		tp_box box;
		item_box(c, it, &box);
		evaluate(c, &box, it->ord);
	}
}

/* Most boxes of volume L* listed for in_pass1 and cand_bound; with more,
 * pass 1 takes every candidate and pass 2 counts P* for them. */
#define MAX_BIG 256

/* phi's upper bound N L* + P* over every subset of the free set, and the
 * P* boxes when they are few. */
static int phi_bound(cand_ctx *c)
{
	int volume;
	long count;
	if (tp_torus_erode_largest(c->er, &volume, &count))
		return -1;
	c->volume = volume;
	c->count = count;
	c->bound = (int64_t)tp_torus_nnodes(c->t) * volume + count;
	c->nbig = -1;
	if (count <= MAX_BIG && (c->big = malloc(MAX_BIG * sizeof(tp_box))))
		c->nbig = tp_torus_erode_largest_boxes(c->er, c->big, MAX_BIG);
	return 0;
}

/* Pass 0 without the bound; else pass 1, and pass 2 unless it ended at
 * the bound. */
void tp_torus_mss_scan(cand_ctx *c, const tp_torus_shape *sh, int nsh,
		       cand_each_fn each)
{
	c->whole_cap = 0;
	for (int r = 0; c->whole && r < nsh; r++) {
		int64_t b = whole_bound(c->t, sh[r].len);
		if (b > c->whole_cap)
			c->whole_cap = b;
	}
	if (c->bound == INT64_MAX) {
		each(c, sh, nsh, keep_every);
		return;
	}
	each(c, sh, nsh, keep_first);
	if (!c->failed && !reached(c)) {
		tp_shape_list sl = { sh, nsh, each };
		pass2(c, &sl);
	}
}

static bool all_rings(const tp_torus *t)
{
	for (int i = 0; i < tp_torus_ndims(t); i++)
		if (!tp_torus_wrap(t)[i])
			return false;
	return true;
}

int tp_torus_mss_prepare(cand_ctx *c, unsigned flags)
{
	c->maximal_levels = flags & TP_TORUS_PLACE_MAXIMAL_LEVELS;
	if (!(flags & TP_TORUS_PLACE_NO_BOUND) && phi_bound(c))
		return -1;
	c->whole = !(flags & TP_TORUS_PLACE_NO_BOUND) && all_rings(c->t) &&
		   tp_nodeset_count(c->avail) == tp_torus_nnodes(c->t);
	build_reach(c);
	/* direct first (cand_phi) */
	return (c->eval = tp_mss_eval_new(c->t, c->avail, true)) ? 0 : -1;
}

void tp_torus_mss_restart(cand_ctx *c, int64_t floor)
{
	free_levels(c);
	c->nlv = 0;
	free(c->big_last);
	c->big_last = NULL;
	c->ordinal = 0;
	c->nevaluated = 0;
	c->nitems = 0;
	c->nleft = 0;
	c->last_shape = 0;
	/* a best no candidate ties (ordinal -1): below the floor */
	c->found = floor > 0;
	c->best_phi = floor - 1;
	c->best_ordinal = -1;
}

void tp_torus_mss_done(cand_ctx *c)
{
	tp_mss_eval_free(c->eval);
	tp_mss_eval_free(c->fast);
	free_reach(c);
	free(c->big);
	free(c->big_last);
	free(c->items);
	free_levels(c);
}
