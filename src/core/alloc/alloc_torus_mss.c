/*
 * alloc_torus_mss.c - torus-mss's scan: phi after each free candidate,
 * the first candidate of largest phi wins (spec B, Find_Systems + MSS).
 *
 * Why it can stop early.  Every MSS of a subset of the free set S is a
 * free box of S, so phi(S minus B) <= N L* + P* (L* the volume of the
 * largest free box of S, P* the number of them; torus_erode.c): the
 * first candidate that reaches that bound is the choice, as no later one
 * beats it and ties keep the earlier.  Which candidates can reach it, or
 * beat the best so far, is settled before their phi where possible (the
 * big boxes they miss, and which of those can still be an MSS after
 * them); test/check_torus_erode checks the choice against the full scan
 * on random states, bench_torus the speed-up.
 */
#include <stdlib.h>

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

/* open[i][q]: a stopping slab of dimension i for suffix q is free in S;
 * adds the free ones to r->reach. */
static int open_slabs(cand_ctx *c, const tp_box *m, big_reach *r,
		      bool **open)
{
	int n = tp_torus_ndims(c->t);
	for (int i = 0; i < n; i++) {
		int k[TP_TORUS_MAX_DIMS] = { 0 }, q = 1;
		for (int j = i + 1; j < n; j++)
			q *= m->len[j];
		if (!(open[i] = calloc((size_t)q, sizeof(bool))))
			return -1;
		do {
			for (int dir = 1; dir >= -1; dir -= 2) {
				tp_box slab;
				if (!stop_slab(c->t, m, i, dir, k, &slab) ||
				    !tp_torus_box_all_free(c->t, &slab, c->avail))
					continue;
				open[i][suffix_index(m, n, i, k)] = true;
				tp_torus_box_nodes(c->t, &slab, &r->reach);
			}
		} while (next_suffix(m, n, i, k));
	}
	return 0;
}

/* Does some node of M have every stopping slab locked in S? */
static bool some_node_grows(const tp_box *m, int n, bool **open)
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
	bool *open[TP_TORUS_MAX_DIMS] = { NULL };
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

/* Did pass 1 evaluate the candidate?  Those that may keep every big box
 * an MSS. */
static bool in_pass1(const cand_ctx *c, int reach)
{
	return reach == c->nbig;
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

/* Can the candidate at ordinal ord beat the best so far?  Its phi is at
 * most N L* + (the big boxes that may be MSSs after it): each MSS of
 * volume L* is one of them; on the whole torus, at most its shape's
 * whole_bound. */
static bool may_beat(const cand_ctx *c, long ord, int reach,
		     const tp_box *box)
{
	int64_t bound = c->bound - (c->nbig - reach);
	if (c->whole) {
		int64_t own = whole_bound(c->t, box->len);
		if (own < bound)
			bound = own;
	}
	return !c->found || bound > c->best_phi ||
	       (bound == c->best_phi && ord < c->best_ordinal);
}

/* Should the pass evaluate the candidate? */
static bool pass_takes(cand_ctx *c, long ord, const tp_box *box)
{
	if (!c->pass)
		return true;
	int reach = big_after(c, box);
	if (c->pass == 1)
		return in_pass1(c, reach);
	return !in_pass1(c, reach) && may_beat(c, ord, reach, box);
}

/* Candidates evaluated directly before the fast evaluator is built. */
#define DIRECT_FIRST 2

/* phi after the candidate.  The first DIRECT_FIRST candidates get the
 * direct evaluation (one Find_MSS each): most decisions end at the bound
 * within them, and building the fast evaluator costs about as much as
 * that many direct runs (measured: 3x one at 4,096 nodes, 2x at 49,152).
 * Both give the same phi (test/check_torus_mss). */
static int64_t cand_phi(cand_ctx *c, const tp_box *box)
{
	if (!c->direct && c->nevals++ == DIRECT_FIRST) {
		tp_mss_eval_free(c->eval);
		if (!(c->eval = tp_mss_eval_new(c->t, c->avail, false)))
			return -1;
	}
	return tp_mss_eval_phi(c->eval, box);
}

/* Has the best so far a phi no later candidate can beat (the bound;
 * on the whole torus, the largest whole_bound of the shapes)? */
static bool reached(const cand_ctx *c)
{
	return c->found && (c->best_phi >= c->bound ||
			    (c->whole && c->best_phi >= c->whole_cap));
}

/* Keeps the first candidate (in enumeration order) of largest phi.  phi
 * reaches the bound N L* + P* only if all P* big boxes are MSSs after the
 * candidate, so pass 1 evaluates just the candidates that may keep them
 * all: the first of those that reaches the bound is the choice (nothing
 * beats it, ties keep the earlier).  Only if none does, pass 2 evaluates
 * the others that may still beat the best (none reaches the bound) and
 * the earliest largest phi of both passes wins. */
static bool keep_best_phi(cand_ctx *c, const tp_box *box)
{
	long ord = c->ordinal++;
	if (!pass_takes(c, ord, box))
		return false;
	int64_t phi = cand_phi(c, box);
	if (phi < 0) {
		c->failed = 1;
		return true;
	}
	if (!c->found || phi > c->best_phi ||
	    (phi == c->best_phi && ord < c->best_ordinal)) {
		c->found = true;
		c->best_phi = phi;
		c->best_ordinal = ord;
		c->box = *box;
	}
	return reached(c);
}

/* Most boxes of volume L* listed for the two passes of keep_best_phi;
 * with more, one pass over every candidate. */
#define MAX_BIG 256

/* phi's upper bound N L* + P* over every subset of the free set, and the
 * P* boxes when they are few. */
static int phi_bound(cand_ctx *c)
{
	int volume;
	long count;
	if (tp_torus_erode_largest(c->er, &volume, &count))
		return -1;
	c->bound = (int64_t)tp_torus_nnodes(c->t) * volume + count;
	c->nbig = -1;
	if (count <= MAX_BIG && (c->big = malloc(MAX_BIG * sizeof(tp_box))))
		c->nbig = tp_torus_erode_largest_boxes(c->er, c->big, MAX_BIG);
	return 0;
}

/* The passes of keep_best_phi (one if the big boxes are unknown). */
void tp_torus_mss_scan(cand_ctx *c, const tp_torus_shape *sh, int nsh,
		       cand_each_fn each)
{
	c->whole_cap = 0;
	for (int r = 0; c->whole && r < nsh; r++) {
		int64_t b = whole_bound(c->t, sh[r].len);
		if (b > c->whole_cap)
			c->whole_cap = b;
	}
	c->pass = c->nbig >= 0;
	each(c, sh, nsh, keep_best_phi);
	if (c->pass && !c->failed && !reached(c)) {
		c->pass = 2;
		c->ordinal = 0;
		each(c, sh, nsh, keep_best_phi);
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
	if (!(flags & TP_TORUS_PLACE_NO_BOUND) && phi_bound(c))
		return -1;
	c->whole = !(flags & TP_TORUS_PLACE_NO_BOUND) && all_rings(c->t) &&
		   tp_nodeset_count(c->avail) == tp_torus_nnodes(c->t);
	build_reach(c);
	/* direct first (cand_phi) */
	return (c->eval = tp_mss_eval_new(c->t, c->avail, true)) ? 0 : -1;
}

void tp_torus_mss_done(cand_ctx *c)
{
	tp_mss_eval_free(c->eval);
	free_reach(c);
	free(c->big);
}
