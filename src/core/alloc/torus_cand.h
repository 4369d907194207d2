/*
 * torus_cand.h - internal to the torus allocators: candidate boxes in
 * the two enumeration orders (alloc_torus_cand.c) and torus-mss's scan
 * over them (alloc_torus_mss.c).
 */
#ifndef TP_TORUS_CAND_H
#define TP_TORUS_CAND_H

#include <stdbool.h>
#include <stdint.h>

#include "topology/torus.h"

/* Candidates torus-mss's pass 1 evaluates at most (alloc_torus_mss.c). */
#define TP_MSS_PASS1_EVALS 8

/* One scan over the free candidate boxes of a placement decision. */
typedef struct cand_ctx {
	const tp_torus *t;
	const tp_nodeset *avail;
	tp_torus_erode *er;
	/* mss */
	tp_mss_eval *eval;   /* the direct evaluator */
	tp_mss_eval *fast;   /* the fast one, built on first use */
	bool direct;         /* TP_TORUS_PLACE_DIRECT: never the fast one */
	int nevals;
	int64_t best_phi;
	int64_t bound;       /* N L* + P*: no candidate's phi exceeds it */
	int volume;          /* L* */
	long count;          /* P* */
	tp_box *big;         /* the P* free boxes of volume L*, */
	int nbig;            /* or -1 when there are too many to list */
	int *big_last;       /* each one's largest discoverer (pass 2) */
	struct big_reach *reach; /* how each big box can be grown, or NULL */
	tp_nodeset scratch;  /* with reach: a candidate's nodes */
	/* Every node free and every dimension a ring: a candidate's phi is
	 * then at most its own whole_bound (alloc_torus_mss.c), and none
	 * exceeds whole_cap, the largest of those over the shapes asked. */
	bool whole;
	int64_t whole_cap;
	long ordinal, best_ordinal; /* candidates in enumeration order */
	long evaluated[TP_MSS_PASS1_EVALS]; /* pass 1's evaluated ordinals */
	int nevaluated;
	struct cand_item *items; /* pass 2's candidates that may beat the best */
	long nitems, cap;
	int nleft;           /* pass 2: candidates not evaluated (counted) */
	const struct tp_shape_list *shapes; /* pass 2's shapes */
	struct lvl_box *lv;  /* pass 2's levels (alloc_torus_mss.c), or NULL */
	int nlv, lv_min;
	long lv_tested;
	bool lv_full;        /* every free box of volume >= lv_min listed */
	bool maximal_levels; /* TP_TORUS_PLACE_MAXIMAL_LEVELS */
	tp_nodeset lv_nodes; /* a candidate's nodes, for the levels */
	int last_shape;
	int failed;
	/* result */
	bool found;
	tp_box box;
} cand_ctx;

/* Returns true to stop the enumeration. */
typedef bool (*cand_fn)(cand_ctx *c, const tp_box *box);

typedef void (*cand_each_fn)(cand_ctx *c, const tp_torus_shape *sh, int nsh,
			     cand_fn fn);

/* The shapes of a decision and their enumeration. */
typedef struct tp_shape_list {
	const tp_torus_shape *sh;
	int nsh;
	cand_each_fn each;
} tp_shape_list;

/* shape order, then low-corner index */
void tp_torus_each_shape_major(cand_ctx *c, const tp_torus_shape *sh, int nsh,
			       cand_fn fn);
/* low-corner index, then shape order */
void tp_torus_each_offset_major(cand_ctx *c, const tp_torus_shape *sh,
				int nsh, cand_fn fn);
/* Stops at the first candidate. */
bool tp_torus_take_first(cand_ctx *c, const tp_box *box);

/* torus-mss: the bound (unless flags has TP_TORUS_PLACE_NO_BOUND) and
 * the evaluator; -1 on ENOMEM.  Then the scan, then the clean-up. */
int tp_torus_mss_prepare(cand_ctx *c, unsigned flags);
void tp_torus_mss_scan(cand_ctx *c, const tp_torus_shape *sh, int nsh,
		       cand_each_fn each);
void tp_torus_mss_done(cand_ctx *c);
/* Ready a prepared context for another scan of the same free set (over
 * other shapes): what the last scan found is forgotten, and only a
 * candidate of phi >= floor can be chosen (floor 0: any); a scan chose
 * one when c->best_ordinal >= 0 after it.  The bound, the evaluators and
 * the big boxes' reaches are kept. */
void tp_torus_mss_restart(cand_ctx *c, int64_t floor);

/* torus-compact (alloc_torus_compact.c): sh in shape order, c prepared
 * for mss (tp_torus_mss_prepare) on the free set; each class of shapes
 * within CompactSlack= gets mss's scan, restarted with a floor that only
 * a box leaving a larger free box than the best so far reaches.
 * c->found and c->box, or c->failed on ENOMEM. */
void tp_torus_compact_scan(cand_ctx *c, const tp_torus_shape *sh, int nsh,
			   cand_each_fn each);

/* The shapes of each size, kept for the allocator's life
 * (torus_shapes_kept.c).  NULL on ENOMEM. */
typedef struct tp_shapes_kept tp_shapes_kept;
tp_shapes_kept *tp_shapes_kept_new(const tp_torus *t);
void tp_shapes_kept_free(tp_shapes_kept *k);
/* tp_torus_shapes_read(t, nodes, ntransit, reading), owned by k: valid
 * until the next call with these nodes and reading.  -1 on ENOMEM. */
int tp_shapes_kept_get(tp_shapes_kept *k, int nodes, int ntransit,
		       tp_torus_base_shapes reading,
		       const tp_torus_shape **out);
/* The largest shapes (no dimension can grow within the range) among all
 * shapes of sizes nodes+1..most, most <= 2 nodes as Shapeless=pack
 * searches (the first `most` asked for a size is kept), owned by k.
 * -1 on ENOMEM. */
int tp_shapes_kept_largest(tp_shapes_kept *k, int nodes, int most,
			   const int (**out)[TP_TORUS_MAX_DIMS]);

#endif
