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
#include <limits.h>
#include <stdlib.h>

#include "alloc/torus_cand.h"

/* Most grows (P* L*) spent on the reach of the big boxes. */
#define MAX_REACH_GROWS 16384

/*
 * When can a big box M (free, of volume L*) be an MSS after candidate B?
 * Its seed s lies in M and grows into M in S minus B.  If what s grows
 * into in S misses B, it is the same box there (tp_mss_eval_grown), so:
 * M can be an MSS only if some node of M grows into M in S, or B meets
 * what some node of M grows into in S (their union: the reach of M).
 */
typedef struct big_reach {
	bool grown;          /* some node of M grows into M in S */
	tp_nodeset reach;    /* else the union of what its nodes grow into */
} big_reach;

static int reach_of(cand_ctx *c, const tp_box *m, tp_nodeset *nodes,
		    big_reach *r)
{
	r->grown = false;
	if (tp_nodeset_init(&r->reach, tp_torus_nnodes(c->t)))
		return -1;
	tp_nodeset_zero(nodes);
	tp_torus_box_nodes(c->t, m, nodes);
	for (int u = tp_nodeset_next(nodes, 0); u >= 0;
	     u = tp_nodeset_next(nodes, u + 1)) {
		const tp_box *g = tp_mss_eval_grown(c->eval, u);
		if (!g || tp_torus_box_equal(c->t, g, m)) {
			r->grown = true; /* unknown counts as grown */
			return 0;
		}
		tp_torus_box_nodes(c->t, g, &r->reach);
	}
	return 0;
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

/* The reach of every big box, with the fast evaluator just built. */
static void build_reach(cand_ctx *c)
{
	if (c->nbig <= 0 || (long)c->nbig * tp_torus_box_size(c->t, &c->big[0]) >
				    MAX_REACH_GROWS)
		return;
	if (tp_nodeset_init(&c->scratch, tp_torus_nnodes(c->t)) ||
	    !(c->reach = calloc((size_t)c->nbig, sizeof(*c->reach)))) {
		free_reach(c);
		return;
	}
	for (int b = 0; b < c->nbig; b++)
		if (reach_of(c, &c->big[b], &c->scratch, &c->reach[b])) {
			free_reach(c);
			return;
		}
	if (c->pass == 1)
		c->reach_from = c->ordinal;
}

/* May big box b be an MSS after the candidate (whose nodes are in
 * c->scratch)? */
static bool can_reach(const cand_ctx *c, int b)
{
	const big_reach *r = &c->reach[b];
	return r->grown || tp_nodeset_intersects(&c->scratch, &r->reach);
}

/* Big boxes the candidate misses (*missed) and of those, the ones that
 * may be MSSs after it (the return value). */
static int big_after(cand_ctx *c, const tp_box *box, int *missed)
{
	int k = 0;
	bool listed = false;
	*missed = 0;
	for (int b = 0; b < c->nbig; b++) {
		if (tp_torus_box_intersects(c->t, box, &c->big[b]))
			continue;
		++*missed;
		if (c->reach && !listed) {
			tp_nodeset_zero(&c->scratch);
			tp_torus_box_nodes(c->t, box, &c->scratch);
			listed = true;
		}
		k += !c->reach || can_reach(c, b);
	}
	return k;
}

/* Did pass 1 evaluate the candidate?  Those that miss every big box
 * (before the reach was known), or that may keep them all as MSSs. */
static bool in_pass1(const cand_ctx *c, long ord, int missed, int reach)
{
	return missed == c->nbig && (ord < c->reach_from || reach == c->nbig);
}

/* Can the candidate at ordinal ord beat the best so far?  Its phi is at
 * most N L* + (the big boxes that may be MSSs after it): each MSS of
 * volume L* is one of them. */
static bool may_beat(const cand_ctx *c, long ord, int reach)
{
	int64_t bound = c->bound - (c->nbig - reach);
	return !c->found || bound > c->best_phi ||
	       (bound == c->best_phi && ord < c->best_ordinal);
}

/* Should the pass evaluate the candidate? */
static bool pass_takes(cand_ctx *c, long ord, const tp_box *box)
{
	if (!c->pass)
		return true;
	int missed, reach = big_after(c, box, &missed);
	if (c->pass == 1)
		return in_pass1(c, ord, missed, reach);
	return !in_pass1(c, ord, missed, reach) && may_beat(c, ord, reach);
}

/* Candidates evaluated directly before the fast evaluator is built. */
#define DIRECT_FIRST 2

/* phi after the candidate.  The first DIRECT_FIRST candidates get the
 * direct evaluation (one Find_MSS each): most decisions end at the bound
 * within them, and building the fast evaluator costs about as much as
 * that many direct runs (measured: 3x one at 4,096 nodes, 2x at 49,152).
 * Both give the same phi (test/check_torus_mss).  With the fast one come
 * the grown boxes, hence the reach of the big boxes. */
static int64_t cand_phi(cand_ctx *c, const tp_box *box)
{
	if (!c->direct && c->nevals++ == DIRECT_FIRST) {
		tp_mss_eval_free(c->eval);
		if (!(c->eval = tp_mss_eval_new(c->t, c->avail, false)))
			return -1;
		if (c->pass)
			build_reach(c);
	}
	return tp_mss_eval_phi(c->eval, box);
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
	return phi >= c->bound;
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
	c->pass = c->nbig >= 0;
	each(c, sh, nsh, keep_best_phi);
	if (c->pass && !c->failed && !(c->found && c->best_phi >= c->bound)) {
		c->pass = 2;
		c->ordinal = 0;
		if (!c->reach && !c->direct && c->nevals > DIRECT_FIRST)
			build_reach(c);
		each(c, sh, nsh, keep_best_phi);
	}
}

int tp_torus_mss_prepare(cand_ctx *c, unsigned flags)
{
	if (!(flags & TP_TORUS_PLACE_NO_BOUND) && phi_bound(c))
		return -1;
	/* direct first (cand_phi) */
	return (c->eval = tp_mss_eval_new(c->t, c->avail, true)) ? 0 : -1;
}

void tp_torus_mss_done(cand_ctx *c)
{
	tp_mss_eval_free(c->eval);
	free_reach(c);
	free(c->big);
}
