/*
 * fattree_nodedp.h - the least node-level hop sum for k nodes on a fat
 * tree's free nodes, by dynamic programming over the switches, with the
 * tables of each switch carried from call to call (doc/fattree-design.md,
 * "Node level").
 *
 * Cost of a placement P of k nodes: the routers crossed over every pair
 * of P's nodes (1 within a leaf; the runtime model's cost,
 * doc/runtime-model.md).  Per link it is C(k,2) + sum over the switches c
 * below a fabric's root of x_c (k - x_c), x_c = P's nodes under c, so
 *
 *     cost = C(k,2) + k * sum_leaves x_l * d_l - sum_c x_c^2
 *
 * with d_l the leaf's depth below its fabric's root.  Where every leaf
 * of a fabric has one depth D, the middle term is k^2 D whatever P is:
 * the least cost is the largest sum of squares, a number that does not
 * depend on k, so one table per switch serves every job size up to its
 * cap.  Leaves at several depths keep the k term in the tables, which
 * then serve one k.
 *
 * Ties of equal cost go to the placement whose switches have the fewest
 * free nodes, summed over its nodes and every switch above them (best
 * fit at every level, as Slurm's tree fits leaves: emptier subtrees stay
 * whole for the jobs after, and a job that fits a small subtree leaves
 * the large ones alone), then to earlier children (Switches= order) and,
 * within a leaf, to its lowest free nodes.  (On trees too large for a
 * cost and its tie-break in one 64-bit value, about 20,000 nodes, cost
 * alone decides.)
 *
 * The answer depends on the free set alone; the carried tables are
 * checked against it (the counts they were built from), never trusted.
 */
#ifndef TP_FATTREE_NODEDP_H
#define TP_FATTREE_NODEDP_H

#include <stdbool.h>
#include <stdint.h>

#include "base/nodeset.h"
#include "topology/fattree.h"

typedef struct ftn_table ftn_table; /* one switch's table (fattree_nodedp.c) */

/* Carried table sets: one for every job size where the costs do not
 * depend on it (every fabric's leaves at one depth), else one per size,
 * the least recently used replaced. */
#define FTN_STATES 4

typedef struct ftn_state {
	bool valid;
	int cap;             /* entries wanted this call: 0..the job's size */
	int k;               /* the job size the tables are for, 0 for any,
			      * -1 keep mode */
	int klin;            /* the job size of this call's k x d term (0
			      * where every leaf lies at one depth) */
	int64_t M;           /* a value is cost * M + tie */
	bool tie_on;         /* room for ties in an int64 (else cost alone) */
	uint64_t used;       /* least recently used goes first */
	ftn_table *tab;      /* [nswitch] */
} ftn_state;

typedef struct ftn_dp {
	const struct tp_fattree *t;
	int *leaf_free;      /* [nswitch] free nodes of each leaf */
	int *sub_free;       /* [nswitch] free nodes below each switch */
	int *size;           /* [nswitch] nodes below each switch */
	int *depth;          /* [nswitch] edges below the switch's fabric root */
	int *fabric_depth;   /* [nfabric] its leaves' depth (when uniform) */
	int max_depth;       /* the deepest switch below a fabric root */
	/* Regular subtrees (fattree_nodeideal.c): every child of the same
	 * shape, so the least cost of x nodes there is the packed one. */
	bool *regular;       /* [nswitch] */
	int *height;         /* [nswitch] levels below: a leaf 0 */
	int *child_size;     /* [nswitch] nodes below each child (regular) */
	int *level_size;     /* [nswitch + 1] nodes below a switch of each height */
	bool packable;       /* one fabric, regular: ideal placements sought */
	bool uniform;        /* every fabric's leaves at one depth */
	bool carry;          /* keep tables between calls */
	uint64_t *seen;      /* the free set the counts are of */
	int nwords;
	uint64_t *stamp;     /* [nswitch] bumped when its free counts change */
	uint64_t clock;
	ftn_state st[FTN_STATES];
		int64_t *acc, *tmp;  /* merge buffers */
	size_t nacc, ntmp;
	int *stack;          /* [2 * nswitch] */
	/* keep mode (one call): the free nodes not to keep, and each leaf's
	 * count of them */
	const tp_nodeset *keep;
	tp_nodeset other;
	int *leaf_other;     /* [nswitch] */
	/* statistics (tests, benchmarks) */
	uint64_t built, reused;
} ftn_dp;

/* The tie-break weight of a node placed below switch v: its free nodes. */
static inline int64_t ftn_tie_weight(const ftn_dp *d, int v)
{
	return d->sub_free[v];
}

/* -1 on ENOMEM (d is then finalised). */
int ftn_dp_init(ftn_dp *d, const struct tp_fattree *t);
void ftn_dp_fini(ftn_dp *d);
/* Make the counts those of `free` (t->nnodes nodes). */
void ftn_dp_update(ftn_dp *d, const tp_nodeset *free);
/* Does some fabric hold k free nodes (after ftn_dp_update)? */
bool ftn_dp_fits(const ftn_dp *d, int k);
/* The least-cost placement of k nodes on `free` (ftn_dp_update()d to it)
 * into `out` (cleared by the caller), its cost in *cost if not NULL.
 * `keep` (NULL: none): nodes to use as few of as the least cost allows
 * (tp_alloc_req.keep_free); it replaces the tie-break, and its tables are
 * built for the call.  0, or -1 when no fabric holds k free nodes or on
 * ENOMEM. */
int ftn_dp_place(ftn_dp *d, const tp_nodeset *free, const tp_nodeset *keep,
		 int k, tp_nodeset *out, int64_t *cost);
/* Carry tables between calls (default) or build every one afresh (tests:
 * the answers must be the same). */
void ftn_dp_carry(ftn_dp *d, bool on);

/* fattree_nodeideal.c: on a regular tree, a placement of k nodes at the
 * least cost any k nodes have on the idle tree, when the free set holds
 * one (most answers do): whole free subtrees and a packed remainder,
 * found by counting, no table.  0 and the placement in `out`, or -1 (none
 * on this free set, or the tree is not regular). */
int ftn_ideal_place(ftn_dp *d, const tp_nodeset *free, int k, tp_nodeset *out);
/* Set up the regular-subtree data (from ftn_dp_init). */
void ftn_ideal_shape(ftn_dp *d);

#endif
