/*
 * torus.h - multidimensional torus (Angara-style) topology and box
 * allocation with the MSS fragmentation metric (doc/methods.md B).
 *
 * A torus has n >= 1 dimensions d0 x d1 x ... x d(n-1); each dimension is a
 * ring (wraparound) or a line.  A node is a coordinate vector; its index is
 * the row-major index of that vector with the LAST dimension fastest:
 *
 *     index = ((c0 * d1 + c1) * d2 + c2) ... ,  0 <= index < d0*d1*...
 *
 * A job gets a box: an n-dimensional rectangle of free nodes given by a low
 * corner `off` and lengths `len` (1 <= len_i <= d_i).  In a wrapped
 * dimension the box covers positions off_i, off_i+1, ... modulo d_i, so it
 * may cross the ring's seam; a box that spans a whole ring has off_i = 0
 * (one canonical form per node set).  In a line dimension off_i + len_i <=
 * d_i.
 *
 * The three methods of doc/methods.md B (allocators "torus-base", "torus-fs",
 * "torus-mss"), Slurm's anchored placements ("torus-anchor"), the default
 * "torus-compact" (base's compactness, mss's free space) and the
 * configuration file are described in torus.conf(5).
 */
#ifndef TP_TORUS_H
#define TP_TORUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/nodeset.h"

#define TP_TORUS_MAX_DIMS 8
/* Keeps every derived count (prefix-sum grids, phi) in range. */
#define TP_TORUS_MAX_NODES (1 << 20)
/* Most CompactSlack= (percent) a torus.conf may give. */
#define TP_TORUS_MAX_SLACK 1000

typedef struct tp_torus tp_torus;

/* Default placement method (Method= in torus.conf). */
typedef enum tp_torus_method {
	TP_TORUS_BASE,  /* first free box, shapes by mean diameter */
	TP_TORUS_FS,    /* Find_Systems: best free box by the FsOrder rule */
	TP_TORUS_MSS,   /* Find_Systems + MSS: largest phi after placement */
	TP_TORUS_ANCHOR, /* Slurm 26.05 topology/torus3d's anchored
			  * placements: the torus-anchor allocator
			  * (alloc_torus_anchor.c), not tp_torus_place */
	TP_TORUS_COMPACT, /* the shapes within CompactSlack= of the most
			   * compact one with a free box: the box that
			   * leaves the largest free box, the more compact
			   * shape on a tie, then phi (the default) */
} tp_torus_method;

/* Node distance L(u,v) (Distance=).  The paper prints the plain sum of
 * coordinate differences; the wrapped variant takes the shorter way round
 * each ring. */
typedef enum tp_torus_distance {
	TP_TORUS_DIST_MANHATTAN, /* sum |u_i - v_i| */
	TP_TORUS_DIST_TORUS,     /* sum min(|u_i-v_i|, d_i-|u_i-v_i|) on rings */
} tp_torus_distance;

/* Order in which torus-fs picks among all free candidate boxes
 * (FsOrder=); torus-mss breaks phi ties by the same order. */
typedef enum tp_torus_fs_order {
	/* lowest low-corner index first, then the shape order (mean
	 * diameter, size, lengths) */
	TP_TORUS_FS_OFFSET,
	/* shape order first, then lowest low-corner index: the same choice
	 * torus-base makes */
	TP_TORUS_FS_DIAMETER,
} tp_torus_fs_order;

/* A job size no box shape of the torus has (3 nodes on 2x2x2, 5 on
 * 4x4x2x2; Shapeless=). */
typedef enum tp_torus_shapeless {
	/* the job's nodes are the lowest-numbered ones of the smallest free
	 * box that holds them: compact, and it runs as on stock Slurm */
	TP_TORUS_SHAPELESS_PACK,
	/* no placement: the simulator rejects such a job at arrival, Slurm
	 * at submission (the published methods' reading) */
	TP_TORUS_SHAPELESS_REFUSE,
} tp_torus_shapeless;

/* Which box shapes torus-base tries (BaseShapes=).  The paper's
 * "factorisation of a size into n factors" may be an ordered tuple or a
 * multiset; doc/methods.md B offers both readings. */
typedef enum tp_torus_base_shapes {
	/* every ordered factorisation: every orientation of every box */
	TP_TORUS_SHAPES_ALL,
	/* one orientation per multiset of factors: sorted non-increasing
	 * and matched to the dimensions in their listed order (p_i <= d_i),
	 * the reading that reproduces the paper's base */
	TP_TORUS_SHAPES_CANONICAL,
} tp_torus_base_shapes;

typedef struct tp_torus_opts {
	int ntransit;                 /* Ntransit=, default 0 */
	tp_torus_method method;       /* Method=, default compact */
	tp_torus_distance distance;   /* Distance=, default manhattan */
	tp_torus_fs_order fs_order;   /* FsOrder=, default offset */
	tp_torus_shapeless shapeless; /* Shapeless=, default pack */
	tp_torus_base_shapes base_shapes; /* BaseShapes=, default all */
	/* CompactSlack=, percent, default 20: compact tries the shapes whose
	 * mean diameter is at most (100 + this) % of the most compact shape
	 * with a free box */
	int compact_slack;
} tp_torus_opts;

/* A box (see above).  Entries past the torus's ndims are zero. */
typedef struct tp_box {
	int off[TP_TORUS_MAX_DIMS];
	int len[TP_TORUS_MAX_DIMS];
} tp_box;

/* ---- model (torus.c) ------------------------------------------------ */

/* Read torus.conf(5).  NULL with "FILE:LINE: ..." in err on bad input. */
tp_torus *tp_torus_load(const char *path, tp_error *err);
/* A torus without a file: wrap may be NULL (all rings); nodes are named
 * "n1" .. "nN" by index + 1; options are the defaults. */
tp_torus *tp_torus_generate(int ndims, const int *dims, const bool *wrap,
			    tp_error *err);
/* Write a torus.conf(5) that tp_torus_load() reads back into an equal
 * torus (explicit NodeName lines).  0, or -1 on a write error. */
int tp_torus_write_conf(const tp_torus *t, FILE *fp);
void tp_torus_free(tp_torus *t);

int tp_torus_nnodes(const tp_torus *t);
int tp_torus_ndims(const tp_torus *t);
const int *tp_torus_dims(const tp_torus *t);   /* ndims entries */
const bool *tp_torus_wrap(const tp_torus *t);  /* ndims entries */
int tp_torus_ntransit(const tp_torus *t);
tp_torus_method tp_torus_default_method(const tp_torus *t);
const tp_torus_opts *tp_torus_options(const tp_torus *t);
/* Replace the options (e.g. an experiment sweeping Ntransit); -1 with err
 * on a negative ntransit or an unknown enum value. */
int tp_torus_set_options(tp_torus *t, const tp_torus_opts *o, tp_error *err);

const char *tp_torus_node_name(const tp_torus *t, int idx);
/* Index of a node name, -1 if unknown; O(log n). */
int tp_torus_node_index(const tp_torus *t, const char *name);
/* coord: ndims entries.  tp_torus_index returns -1 if out of range. */
void tp_torus_coord(const tp_torus *t, int idx, int *coord);
int tp_torus_index(const tp_torus *t, const int *coord);
/* L(u, v) under the torus's Distance= option (manhattan: plain coordinate
 * differences, as printed in the paper). */
int tp_torus_distance_between(const tp_torus *t, int u, int v);

/* Name <-> enum for the option values ("base", "manhattan", ...);
 * parse functions return -1 for an unknown name. */
const char *tp_torus_method_name(tp_torus_method m);
int tp_torus_method_parse(const char *s, tp_torus_method *m);
const char *tp_torus_distance_name(tp_torus_distance d);
const char *tp_torus_fs_order_name(tp_torus_fs_order o);
const char *tp_torus_shapeless_name(tp_torus_shapeless s);
const char *tp_torus_base_shapes_name(tp_torus_base_shapes r);
int tp_torus_base_shapes_parse(const char *s, tp_torus_base_shapes *r);

/* ---- boxes and shapes (torus_box.c) ---------------------------------- */

/* A box shape with its mean diameter: the average of L(u,v) over the
 * unordered pairs of distinct nodes of the box (0 for one node).  For a box
 * the sum over pairs separates per dimension, so it is exact and O(n):
 *   sum over ordered pairs = sum_i (P/p_i)^2 * D_i(p_i),
 *   D_i(p) = sum_{a,b in 0..p-1} dist_i(a, b)   (= (p^3-p)/3 on a line),
 *   mean  = that / (P (P - 1)),  P = product of p_i. */
typedef struct tp_torus_shape {
	int len[TP_TORUS_MAX_DIMS];
	int size;             /* product of len */
	uint64_t pair_sum;    /* sum of L over ordered pairs */
	double mean_diameter; /* pair_sum / (size * (size - 1)) */
} tp_torus_shape;

/* All shapes of sizes nodes .. nodes+ntransit (sizes above the node count
 * skipped), every factorisation into ndims factors 1 <= p_i <= d_i, in the
 * shape order: mean diameter ascending (compared exactly), then size, then
 * lengths lexicographically.  Returns the count (0 if none, e.g. nodes <=
 * 0), *out malloc'd; -1 on ENOMEM. */
int tp_torus_shapes(const tp_torus *t, int nodes, int ntransit,
		    tp_torus_shape **out);
/* The same under a reading: TP_TORUS_SHAPES_ALL is tp_torus_shapes;
 * TP_TORUS_SHAPES_CANONICAL keeps the factorisations with p_0 >= p_1 >=
 * ... (each multiset of factors once, matched to the dimensions in
 * order), in the same shape order. */
int tp_torus_shapes_read(const tp_torus *t, int nodes, int ntransit,
			 tp_torus_base_shapes reading, tp_torus_shape **out);
/* The shapes of sizes lo .. hi that no dimension can lengthen without
 * passing hi (each shape of the range lies in one of them), in the shape
 * order.  Returns the count, *out malloc'd; -1 on ENOMEM. */
int tp_torus_shapes_maximal(const tp_torus *t, int lo, int hi,
			    tp_torus_shape **out);
double tp_torus_mean_diameter(const tp_torus *t, const int *len);

/* Number of distinct placements of a shape: per dimension d_i on a ring
 * (1 if the shape spans it), d_i - p_i + 1 on a line.  Placements are
 * numbered row-major over the low-corner vector (last dimension fastest),
 * i.e. in increasing low-corner node index. */
long tp_torus_placements(const tp_torus *t, const int *len);
/* Box of placement number k (0 <= k < tp_torus_placements). */
void tp_torus_placement(const tp_torus *t, const int *len, long k,
			tp_box *box);
/* Node index of a box's low corner (the offset index used in orders). */
int tp_torus_box_corner(const tp_torus *t, const tp_box *box);
int tp_torus_box_size(const tp_torus *t, const tp_box *box);
bool tp_torus_box_contains(const tp_torus *t, const tp_box *box, int idx);
bool tp_torus_box_intersects(const tp_torus *t, const tp_box *a,
			     const tp_box *b);
bool tp_torus_box_equal(const tp_torus *t, const tp_box *a, const tp_box *b);
/* Nodes of the box into out (set, not cleared first). */
void tp_torus_box_nodes(const tp_torus *t, const tp_box *box,
			tp_nodeset *out);
/* Every node of the box is in free (node by node). */
bool tp_torus_box_all_free(const tp_torus *t, const tp_box *box,
			   const tp_nodeset *free);
/* "off=3,0 len=2,4" for messages and tests; buf of at least 128 bytes. */
const char *tp_torus_box_format(const tp_torus *t, const tp_box *box,
				char *buf, size_t len);
/* Mean of L over unordered pairs of distinct nodes of any node set (0 for
 * fewer than two nodes); separates per dimension, O(k n + sum d_i^2).
 * Under Distance=manhattan a ring is unrolled at its longest run of
 * unused positions, so a box across the seam is measured along the box
 * and gets its shape's mean diameter (the allocators' cost). */
double tp_torus_set_mean_distance(const tp_torus *t, const tp_nodeset *s);

/* Locked-node counts over arbitrary (wrapping) boxes in O(2^n): prefix sums
 * over the torus unrolled twice along each ring. */
typedef struct tp_torus_counts tp_torus_counts;
tp_torus_counts *tp_torus_counts_new(const tp_torus *t,
				     const tp_nodeset *free);
/* Number of nodes of box that are not free. */
int tp_torus_counts_locked(const tp_torus_counts *c, const tp_box *box);
void tp_torus_counts_free(tp_torus_counts *c);

/* ---- free boxes by erosion (torus_erode.c) ---------------------------- */

/* The free boxes of one free set, as bit sets of low corners (O(N/64) word
 * operations per step, no per-candidate test).  A workspace: reset it to
 * another free set of the same torus instead of building a new one (it
 * keeps masks that depend on the torus only). */
typedef struct tp_torus_erode tp_torus_erode;
/* free may be NULL (then reset before use).  NULL on ENOMEM. */
tp_torus_erode *tp_torus_erode_new(const tp_torus *t, const tp_nodeset *free);
void tp_torus_erode_reset(tp_torus_erode *e, const tp_nodeset *free);
void tp_torus_erode_free(tp_torus_erode *e);
/* The low corners of the all-free boxes of shape len (a box spanning a
 * ring only at offset 0, a line's only where it fits): the placements of
 * tp_torus_placement that are free.  Valid until the next call; NULL on
 * ENOMEM or a length outside 1..d_i. */
const uint64_t *tp_torus_erode_corners(tp_torus_erode *e, const int *len);
/* The free nodes of the box of shape len at every low corner (by node
 * index; a corner where no placement lies - a line's end, a spanned
 * ring's offset > 0 - has a value that means nothing).  Running sums
 * along each dimension: O(n N) per shape.  Valid until the next call;
 * NULL on ENOMEM or a length outside 1..d_i. */
const int *tp_torus_erode_free_counts(tp_torus_erode *e, const int *len);
/* Next corner >= from in a set of tp_torus_erode_corners, or -1. */
int tp_torus_erode_next(const tp_torus_erode *e, const uint64_t *corners,
			int from);
/* L*, the volume of the largest free box, and P*, the number of distinct
 * free boxes of that volume (0, 0 if nothing is free); kept until a reset
 * to a different free set.  Every MSS of a
 * subset of the free set is such a box, so phi of any subset is at most
 * N L* + P*.  0, or -1 on ENOMEM. */
int tp_torus_erode_largest(tp_torus_erode *e, int *volume, long *count);
/* The P* boxes of the last tp_torus_erode_largest into boxes: their
 * count, or -1 if there are more than max (or ENOMEM). */
int tp_torus_erode_largest_boxes(tp_torus_erode *e, tp_box *boxes, int max);
/* The shapes (lengths) of volume >= vmin that have a free box: their
 * count, or -1 if there are more than max (or ENOMEM).  One walk over
 * the shapes with free boxes, as tp_torus_erode_largest. */
int tp_torus_erode_shapes_at_least(tp_torus_erode *e, int vmin,
				   int (*lens)[TP_TORUS_MAX_DIMS], int max);

/* ---- bounds from projections (torus_proj.c) --------------------------- */

/* The free set's projections on every pair of dimensions (a torus of one
 * dimension has none: its bounds are unknown).  NULL on ENOMEM. */
typedef struct tp_torus_proj tp_torus_proj;
tp_torus_proj *tp_torus_proj_new(const tp_torus *t, const tp_nodeset *free);
void tp_torus_proj_free(tp_torus_proj *p);
/* The projections of another free set, as tp_torus_proj_new would build
 * them, by the nodes that changed: O(changed nodes), so an allocator
 * keeps one across the nearly equal sets of a pass. */
void tp_torus_proj_reset(tp_torus_proj *p, const tp_nodeset *free);
/* At least the most free nodes of any box of shape len (lengths 1..d_i);
 * it may stop as soon as the bound is below `below`.  INT_MAX when
 * unknown (fewer than two dimensions). */
int tp_torus_proj_bound(tp_torus_proj *p, const int *len, int below);

/* ---- Find_MSS and phi (torus_mss.c) ---------------------------------- */

/* Find_MSS (paper fig. 2): for each free node in index order that no
 * earlier MSS covers, grow a box from it in the directions +d0, -d0, +d1,
 * -d1, ... each as far as free nodes (covered or not) allow, stopping at a
 * locked node, at the end of a line or when the box spans the ring.  One
 * pass suffices: a side blocked for a thinner box stays blocked.  Each seed
 * lies outside all earlier MSSs, so the MSSs are pairwise distinct node
 * sets: counting distinct boxes and counting discoveries agree.
 * Returns the count, boxes (and, if seeds != NULL, the seed nodes) in
 * malloc'd arrays; -1 on ENOMEM.  Node-by-node (the direct method). */
int tp_torus_find_mss(const tp_torus *t, const tp_nodeset *free,
		      tp_box **boxes, int **seeds);
/* phi(S) = N * (size of the largest MSS) + (number of MSSs of that size);
 * 0 when nothing is free.  Direct evaluation. */
int64_t tp_torus_mss_phi(const tp_torus *t, const tp_nodeset *free);

/* phi of the state after placing each candidate box, for one free set.
 * direct: rebuild the state and run tp_torus_find_mss for every
 * candidate (the reference).  Otherwise (fast): Find_MSS of the current
 * state is computed once with prefix-sum box tests; a candidate reuses the
 * MSS walk up to the first MSS it touches, reuses every later box it does
 * not touch, and rejoins the precomputed walk once the undiscovered set
 * agrees again.  Both return the same phi (checked by test/check_torus_mss). */
typedef struct tp_mss_eval tp_mss_eval;
tp_mss_eval *tp_mss_eval_new(const tp_torus *t, const tp_nodeset *free,
			     bool direct);
/* phi(free minus box); box must consist of free nodes.  -1 on ENOMEM. */
int64_t tp_mss_eval_phi(tp_mss_eval *e, const tp_box *box);
/* The fast evaluator's locked counts of the free set (NULL if direct), for
 * callers that also test candidate boxes. */
const tp_torus_counts *tp_mss_eval_counts(const tp_mss_eval *e);
void tp_mss_eval_free(tp_mss_eval *e);
/*
 * What the fast evaluator's walk of the free set S tells about S minus a
 * box B of free nodes, for bounds on phi without evaluating it.  Number
 * S's MSSs 0..K-1 in discovery order; node v is discovered by the first
 * MSS that covers it.  If h is the least of those over B's nodes, the
 * walk of S minus B takes S's first h seeds with S's boxes (none of them
 * meets B), so its first h MSSs are S's, and every later MSS of it is a
 * free box of S that misses B and holds a node S discovers at h or later.
 */
/* The least (first) and largest (last) discoverer over the nodes of box,
 * which must be free; the fast evaluator only. */
void tp_mss_eval_discovery(const tp_mss_eval *e, const tp_box *box,
			   int *first, int *last);
/* K, the number of MSSs of S. */
int tp_mss_eval_nmss(const tp_mss_eval *e);
/* The largest size among S's first k MSSs and how many have it (0, 0 for
 * k = 0). */
void tp_mss_eval_prefix(const tp_mss_eval *e, int k, int *max, int *count);
/* The MSS of S that discovers free node v. */
int tp_mss_eval_discoverer(const tp_mss_eval *e, int v);


/* ---- placement (alloc_torus.c) --------------------------------------- */

/* Internal flags for tp_torus_place. */
#define TP_TORUS_PLACE_DIRECT 0x1u /* mss: use the direct evaluation */
/* mss: evaluate every candidate, without the early stop at phi's upper
 * bound (the reference the stop is tested against) */
#define TP_TORUS_PLACE_NO_BOUND 0x2u
/* mss: pass 2 lists only the maximal free boxes of its levels, as when
 * all of them are too many (for the tests of that path) */
#define TP_TORUS_PLACE_MAXIMAL_LEVELS 0x4u

/* Choose a box for a job of `nodes` nodes with `method` (base, fs, mss or
 * compact; anchor's grids live in its allocator), using the torus's
 * options (Ntransit, FsOrder, Distance, BaseShapes, CompactSlack).  Returns 0 with *box set, or
 * -1 if no box of free nodes fits, on ENOMEM or for TP_TORUS_ANCHOR. */
int tp_torus_place(const tp_torus *t, tp_torus_method method,
		   const tp_nodeset *free, int nodes, unsigned flags,
		   tp_box *box);
/* Shapeless=pack for a size that has no shape under `reading` (or none
 * with a box of present positions, tp_torus_set_present): the
 * lowest-numbered `nodes` free nodes of the smallest box (of that
 * reading's shapes) that has as many free, into out.  -1 when the size
 * has a box, nothing qualifies, or Shapeless=refuse. */
int tp_torus_place_packed(const tp_torus *t, tp_torus_base_shapes reading,
			  const tp_nodeset *free, int nodes, tp_nodeset *out);

/* ---- anchor grids: topology/torus3d's placements (torus_grid.c) --------
 * Slurm 26.05's topology/torus3d gives a job of s nodes the box of an
 * anchor of a "placement" of exactly s nodes: a box shape with a grid of
 * anchors, positions seed, seed + spacing, seed + 2 spacing, ... along each
 * dimension (on a ring until they cycle back to the seed).  torus.conf's
 * Placement= lines declare them, in the order torus-anchor tries them;
 * with none, torus-anchor derives a list from the torus (torus.conf(5)). */
typedef struct tp_torus_grid {
	int len[TP_TORUS_MAX_DIMS];     /* the box shape, 1 <= len_i <= d_i */
	int seed[TP_TORUS_MAX_DIMS];    /* AnchorSeed=, 0 <= seed_i < d_i */
	int spacing[TP_TORUS_MAX_DIMS]; /* AnchorSpacing=, 1 <= q_i <= d_i */
} tp_torus_grid;

/* Node count of a grid's boxes. */
int tp_torus_grid_size(const tp_torus *t, const tp_torus_grid *g);
/* Is g valid on t (the ranges above; on a line the seed's box fits)?
 * -1 with a message naming the dimension and value (no file/line). */
int tp_torus_grid_check(const tp_torus *t, const tp_torus_grid *g,
			tp_error *err);
/* The declared grids in torus3d's list order: by size, equal sizes in
 * the order declared.  Their count, 0 when none was declared. */
int tp_torus_grids(const tp_torus *t, const tp_torus_grid **out);
/* Declare n grids (n = 0: none), each checked, copied and then sorted
 * stably by size.  -1 with err (the index of the bad one) or on ENOMEM;
 * the torus keeps its old list then. */
int tp_torus_set_grids(tp_torus *t, const tp_torus_grid *g, int n,
		       tp_error *err);
/* Internal to torus.c / torus_grid.c: where the torus keeps them. */
typedef struct tp_torus_grid_list {
	tp_torus_grid *g;
	int n;
} tp_torus_grid_list;
tp_torus_grid_list *tp_torus_grids_slot(tp_torus *t);

/* ---- present positions (torus_present.c) ------------------------------
 * A torus.conf may name positions slurm.conf lacks (a machine with holes,
 * or nodes not yet added): no job can ever get them.  A size none of
 * whose boxes lies within the present positions is then shapeless on this
 * machine, like 3 on 2x2x2: Shapeless= decides (pack, or refuse), instead
 * of the job waiting for a box that can never be free. */

/* `present` (a node set over the torus): the positions that hold a node;
 * NULL, or every position: all (the default).  Copied.  -1 on ENOMEM. */
int tp_torus_set_present(tp_torus *t, const tp_nodeset *present);
/* Whether some box of `nodes` nodes (a shape of `reading`) lies within
 * the present positions. */
bool tp_torus_size_has_box(const tp_torus *t, tp_torus_base_shapes reading,
			   int nodes);
/* Internal to torus.c / torus_present.c. */
tp_torus_counts **tp_torus_present_slot(tp_torus *t);
const tp_torus_counts *tp_torus_present_counts(const tp_torus *t);

#endif
