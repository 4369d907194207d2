/*
 * alloc_torus.c - the torus allocators "torus-base", "torus-fs",
 * "torus-mss" (doc/methods.md B) and "torus-compact" (the default; torus.conf(5)).
 * Each gives a job one box of free nodes of size Wnodes ..
 * Wnodes+Ntransit; the job gets every node of the box, so with
 * Ntransit > 0 it may get more nodes than it asked for (the transit nodes
 * carry its traffic and no other job may use them).
 *
 * Candidates are the placements of the shapes (tp_torus_shapes, in shape
 * order) in one of two orders:
 *   shape-major:  shape order, then low-corner index;
 *   offset-major: low-corner index, then shape order.
 * base takes the first free candidate shape-major (the Angara method),
 * over the shapes of its BaseShapes= reading (every orientation, or one
 * per multiset of factors);
 * fs takes the first free candidate in the FsOrder= order (with
 * FsOrder=diameter that is shape-major, hence the same box as base);
 * mss evaluates phi after the free candidates and keeps the first one
 * with the largest phi in the FsOrder= order (alloc_torus_mss.c, which
 * stops at phi's upper bound);
 * compact runs mss's scan over each class of the shapes within
 * CompactSlack= of the most compact one with a free box and keeps the
 * class best whose box leaves the largest free box, the more compact
 * first (alloc_torus_compact.c).  Candidates come from
 * alloc_torus_cand.c.  A size no box shape has is packed into a box
 * (Shapeless=pack, tp_torus_place_packed) unless the request is for
 * boxes only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"
#include "alloc/torus_cand.h"
#include "alloc/torus_pack_bounds.h"
#include "topology/torus.h"

/* The shapes a method tries: base has its BaseShapes= reading; fs and
 * mss search every box, as Find_Systems is defined. */
static tp_torus_base_shapes method_reading(const tp_torus *t,
					   tp_torus_method method)
{
	return method == TP_TORUS_BASE ? tp_torus_options(t)->base_shapes
				       : TP_TORUS_SHAPES_ALL;
}

/* Only whether a box is found is asked (tp_alloc_req.probe): the first
 * free candidate answers it.  Internal to this file: tp_torus_place's
 * callers ask where. */
#define PLACE_PROBE 0x100u

/* tp_torus_place with `ntransit` in place of the torus's Ntransit, on the
 * erosion workspace er (reset to avail here). */
static int place_transit(const tp_torus *t, tp_torus_method method,
			 const tp_nodeset *avail, int nodes, int ntransit,
			 unsigned flags, tp_torus_erode *er,
			 tp_shapes_kept *kept, tp_box *box)
{
	const tp_torus_opts *o = tp_torus_options(t);
	bool direct = flags & TP_TORUS_PLACE_DIRECT;
	if (nodes < 1 || tp_nodeset_count(avail) < nodes)
		return -1;
	const tp_torus_shape *sh;
	int nsh = tp_shapes_kept_get(kept, nodes, ntransit,
				     method_reading(t, method), &sh);
	if (nsh <= 0)
		return -1;
	tp_torus_erode_reset(er, avail);
	cand_ctx c = { .t = t, .avail = avail, .er = er, .direct = direct,
		       .bound = INT64_MAX, .nbig = -1 };
	bool mss = (method == TP_TORUS_MSS || method == TP_TORUS_COMPACT) &&
		   !(flags & PLACE_PROBE);
	if (mss && tp_torus_mss_prepare(&c, flags))
		c.failed = 1;
	bool shape_major = method == TP_TORUS_BASE ||
			   o->fs_order == TP_TORUS_FS_DIAMETER;
	cand_each_fn each = shape_major ? tp_torus_each_shape_major
					: tp_torus_each_offset_major;
	if (flags & PLACE_PROBE)
		/* every method finds a box exactly when one of its shapes
		 * has a free placement (compact's first shape is one) */
		each(&c, sh, nsh, tp_torus_take_first);
	else if (!c.failed && method == TP_TORUS_COMPACT)
		tp_torus_compact_scan(&c, sh, nsh, each);
	else if (!c.failed && mss)
		tp_torus_mss_scan(&c, sh, nsh, each);
	else if (!c.failed)
		each(&c, sh, nsh, tp_torus_take_first);
	if (mss)
		tp_torus_mss_done(&c);
	if (c.failed || !c.found)
		return -1;
	*box = c.box;
	return 0;
}

int tp_torus_place(const tp_torus *t, tp_torus_method method,
		   const tp_nodeset *avail, int nodes, unsigned flags,
		   tp_box *box)
{
	/* anchor places on its own grids (alloc_torus_anchor.c) */
	if ((unsigned)method > TP_TORUS_COMPACT || method == TP_TORUS_ANCHOR)
		return -1;
	tp_torus_erode *er = tp_torus_erode_new(t, NULL);
	tp_shapes_kept *kept = tp_shapes_kept_new(t);
	int rc = er && kept ? place_transit(t, method, avail, nodes,
					    tp_torus_options(t)->ntransit,
					    flags, er, kept, box)
			    : -1;
	tp_shapes_kept_free(kept);
	tp_torus_erode_free(er);
	return rc;
}

/* ---- the allocators ---------------------------------------------------- */

typedef struct torus_alloc {
	const tp_torus *t;
	tp_torus_method method;
	tp_torus_erode *er; /* kept across decisions: its masks are the torus's */
	tp_shapes_kept *kept; /* the shapes of the sizes asked about */
	tp_pack_bounds *pb; /* what packed searches learnt, or NULL */
	tp_torus_proj *proj; /* the last packed search's projections, or NULL */
} torus_alloc;

/* Does a shape have a placement with this low corner?  (A line needs room;
 * a spanned ring only has offset 0.) */
static bool corner_fits(const tp_torus *t, const int *off, const int *len)
{
	const int *dims = tp_torus_dims(t);
	const bool *wrap = tp_torus_wrap(t);
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		if (wrap[i] ? (len[i] == dims[i] && off[i])
			    : off[i] + len[i] > dims[i])
			return false;
	}
	return true;
}

/* The most free nodes of a count array: the fullest placement's, since a
 * corner that is no placement's (past a line's end, or off 0 on a
 * spanned ring) counts a part of a placement's box, or all of it. */
static int most_of(const int *free, int N)
{
	int most = 0;
	for (int k = 0; k < N; k++)
		if (free[k] > most)
			most = free[k];
	return most;
}

/* The placement of shape len with the lowest low corner (placement
 * order) holding at least `nodes` free nodes, into box.  The fullest
 * placement's count goes to the carried bounds (pb). */
static bool first_holding(const tp_torus *t, tp_torus_erode *er,
			  const int *len, int nodes, tp_pack_bounds *pb,
			  tp_box *box)
{
	const int *free = tp_torus_erode_free_counts(er, len);
	int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
	if (!free)
		return false;
	if (pb) {
		int most = most_of(free, N);
		tp_pack_bounds_note(pb, len, most);
		if (most < nodes)
			return false;
	}
	for (int k = 0; k < N; k++) {
		if (free[k] < nodes)
			continue;
		memset(box, 0, sizeof(*box));
		tp_torus_coord(t, k, box->off);
		if (!corner_fits(t, box->off, len))
			continue;
		memcpy(box->len, len, (size_t)n * sizeof(int));
		return true;
	}
	return false;
}

/* The most free nodes a placement of shape len holds; -1 on ENOMEM. */
static int most_holding(const tp_torus *t, tp_torus_erode *er, const int *len)
{
	const int *free = tp_torus_erode_free_counts(er, len);
	return free ? most_of(free, tp_torus_nnodes(t)) : -1;
}

/* Shapes whose boxes hold fewer than `nodes` free nodes, for the search
 * of tp_torus_place_packed to skip with whatever they contain. */
typedef struct dead_shapes {
	int (*len)[TP_TORUS_MAX_DIMS];
	int n;
} dead_shapes;

static bool inside_dead(const dead_shapes *d, const int *len, int ndims)
{
	for (int j = 0; j < d->n; j++) {
		int i = 0;
		while (i < ndims && len[i] <= d->len[j][i])
			i++;
		if (i == ndims)
			return true;
	}
	return false;
}

/*
 * The largest box shapes of sizes nodes+1..most (no dimension can grow
 * within that range), tested one at a time for holding `nodes` free nodes
 * anywhere: a box of a shape lies in a box of any shape at least as long
 * in every dimension (at the same low corner, or offset 0 on a spanned
 * ring, or moved back from a line's end), so no shape inside a dead one
 * holds them either.  Every shape, whatever the search's reading: each
 * shape of the range lies inside a largest one, but under
 * BaseShapes=canonical that one need not be canonical.  When every
 * largest shape is dead nothing can be found: a size that fits nowhere -
 * the expensive answer, one count per shape - is refused after one count
 * per largest shape.  The search takes one step of this scan with every
 * DEAD_EVERY-th of its own counts, the first with its DEAD_EVERY-th, so a
 * size that fits within its first counts (the usual case: most fit at
 * the first) pays nothing for it and one that fits soon a quarter more
 * at most, and one that fits nowhere at most DEAD_EVERY + 1 times the
 * scan.  The scan only spares counts: what it finds dead holds no
 * placement, so when it steps changes no answer.
 */
#define DEAD_EVERY 4

typedef struct dead_scan {
	const tp_torus *t;
	tp_torus_erode *er;
	const tp_nodeset *avail;
	/* bounds that spare most counts: the caller's (*slot, proj_for),
	 * moved to avail at the first shape the carried bounds (pb) do not
	 * rule out, when `want_proj` */
	tp_torus_proj **slot;
	tp_torus_proj *proj;
	bool want_proj;
	tp_pack_bounds *pb;
	int nodes;
	const int (*big)[TP_TORUS_MAX_DIMS]; /* the largest shapes (kept's) */
	int nbig, next, live;
	dead_shapes d;
} dead_scan;

static void dead_scan_fini(dead_scan *s)
{
	free(s->d.len);
}

/* The projections of avail in *slot: built there the first time, moved
 * to avail by the nodes that changed after that.  NULL on ENOMEM. */
static tp_torus_proj *proj_for(const tp_torus *t, tp_torus_proj **slot,
			       const tp_nodeset *avail)
{
	if (*slot)
		tp_torus_proj_reset(*slot, avail);
	else
		*slot = tp_torus_proj_new(t, avail);
	return *slot;
}

/* Can a box of shape len hold `nodes` free nodes by the carried bounds
 * and the projections' bound?  (Without them: maybe.)  The projections'
 * bound is carried on. */
static bool may_hold(dead_scan *s, const int *len)
{
	if (tp_pack_bounds_below(s->pb, len, s->nodes))
		return false;
	if (s->want_proj && !s->proj &&
	    !(s->proj = proj_for(s->t, s->slot, s->avail)))
		s->want_proj = false;
	if (!s->proj)
		return true;
	int bound = tp_torus_proj_bound(s->proj, len, s->nodes);
	tp_pack_bounds_note(s->pb, len, bound);
	return bound >= s->nodes;
}

/* The largest shapes of the range into s (none when every node is free:
 * the first box then holds the job).  On ENOMEM s has none: nothing is
 * skipped. */
static void dead_scan_init(dead_scan *s, const tp_torus *t, tp_torus_erode *er,
			   tp_shapes_kept *kept, tp_pack_bounds *pb,
			   tp_torus_proj **slot,
			   const tp_nodeset *avail, bool all_free, int nodes,
			   int most)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->er = er;
	s->avail = avail;
	s->pb = pb;
	s->slot = slot;
	s->nodes = nodes;
	if (all_free || most <= nodes)
		return;
	const int (*big)[TP_TORUS_MAX_DIMS];
	int nbig = tp_shapes_kept_largest(kept, nodes, most, &big);
	if (nbig <= 0)
		return;
	if (!(s->d.len = malloc((size_t)nbig * sizeof(*s->d.len))))
		return;
	s->want_proj = true;
	s->big = big;
	s->nbig = nbig;
}

/* Test the next largest shape: true when every largest shape has been
 * tested and all are dead (nothing can be found).  On ENOMEM the scan
 * stops with the dead shapes it has (it never answers true then). */
static bool dead_scan_step(dead_scan *s)
{
	if (s->next == s->nbig)
		return s->nbig && !s->live;
	const int *len = s->big[s->next++];
	int most_free = 0; /* below nodes: dead */
	if (may_hold(s, len)) {
		most_free = most_holding(s->t, s->er, len);
		tp_pack_bounds_note(s->pb, len, most_free);
	}
	if (most_free < 0) {
		s->next = s->nbig;
		s->live++;
		return false;
	}
	if (most_free >= s->nodes)
		s->live++;
	else
		memcpy(s->d.len[s->d.n++], len,
		       (size_t)tp_torus_ndims(s->t) * sizeof(int));
	return s->next == s->nbig && !s->live;
}

/* tp_torus_size_has_box, from the kept shapes when every position is
 * present and no transit node is taken (the shapes place_transit keeps
 * then are the ones it reads): a failed placement asks this each time,
 * and reading a size's shapes afresh costs more than the rest of a
 * refusal of a size that has boxes. */
static bool size_has_box(const tp_torus *t, tp_torus_base_shapes reading,
			 tp_shapes_kept *kept, int nodes)
{
	const tp_torus_shape *sh;
	if (tp_torus_present_counts(t) || tp_torus_options(t)->ntransit)
		return tp_torus_size_has_box(t, reading, nodes);
	int nsh = tp_shapes_kept_get(kept, nodes, 0, reading, &sh);
	return nsh < 0 ? tp_torus_size_has_box(t, reading, nodes) : nsh > 0;
}

/* Shapeless=pack: `nodes` has no box shape on this torus at all (3 on
 * 2x2x2, 5 on 4x4x2x2), or none whose positions are all present
 * (torus_present.c), so no box of it ever frees.  The job gets the
 * lowest-numbered `nodes` available nodes (packed_nodes) of the smallest
 * box (sizes up to twice the job's, shape order, then low-corner index,
 * for every method) that has that many available, found into *box:
 * compact, and it runs as on stock Slurm.
 * A box qualifies on every superset of `avail` and on the job's own nodes,
 * so the allocator stays monotone.  -1 when the size has a shape (the job
 * waits for a box), no box qualifies, or Shapeless=refuse.  "A shape" is
 * one of the method's reading: under BaseShapes=canonical a size whose
 * boxes all lie against the listed order of the dimensions is packed. */
static int find_packed(const tp_torus *t, tp_torus_base_shapes reading,
		       const tp_nodeset *avail, int nodes, tp_torus_erode *er,
		       tp_shapes_kept *kept, tp_pack_bounds *pb,
		       tp_torus_proj **slot, tp_box *box)
{
	if (tp_torus_options(t)->shapeless != TP_TORUS_SHAPELESS_PACK ||
	    nodes < 1 || tp_nodeset_count(avail) < nodes ||
	    size_has_box(t, reading, kept, nodes))
		return -1;
	tp_torus_erode_reset(er, avail);
	tp_pack_bounds_begin(pb, avail);
	int most = tp_torus_nnodes(t) < 2 * nodes ? tp_torus_nnodes(t) : 2 * nodes;
	bool found = false, none = most <= nodes;
	long counts = 0;
	dead_scan ds;
	int n = tp_torus_ndims(t);
	bool all_free = tp_nodeset_count(avail) == tp_torus_nnodes(t);
	dead_scan_init(&ds, t, er, kept, pb, slot, avail, all_free, nodes, most);
	for (int m = nodes + 1; m <= most && !found && !none; m++) {
		const tp_torus_shape *sh;
		int nsh = tp_shapes_kept_get(kept, m, 0, reading, &sh);
		for (int r = 0; r < nsh && !found && !none; r++) {
			if (tp_pack_bounds_below(pb, sh[r].len, nodes) ||
			    inside_dead(&ds.d, sh[r].len, n) ||
			    !may_hold(&ds, sh[r].len))
				continue;
			if (counts++ % DEAD_EVERY == DEAD_EVERY - 1 &&
			    dead_scan_step(&ds))
				none = true;
			else if (!inside_dead(&ds.d, sh[r].len, n))
				found = first_holding(t, er, sh[r].len, nodes,
						      pb, box);
		}
	}
	dead_scan_fini(&ds);
	return found ? 0 : -1;
}

/* The lowest-numbered `nodes` available nodes of box into out. */
static void packed_nodes(const tp_torus *t, const tp_box *box,
			 const tp_nodeset *avail, int nodes, tp_nodeset *out)
{
	tp_torus_box_nodes(t, box, out);
	tp_nodeset_and(out, avail);
	int i = -1;
	for (int k = 0; k < nodes; k++)
		i = tp_nodeset_next(out, i + 1);
	while ((i = tp_nodeset_next(out, i + 1)) >= 0)
		tp_nodeset_clear(out, i);
}

/* find_packed, its nodes into out unless `probe` (alloc.h). */
static int place_packed(const tp_torus *t, tp_torus_base_shapes reading,
			const tp_nodeset *avail, int nodes, tp_torus_erode *er,
			tp_shapes_kept *kept, tp_pack_bounds *pb,
			tp_torus_proj **slot, bool probe, tp_nodeset *out)
{
	tp_box box;
	tp_nodeset_zero(out);
	if (find_packed(t, reading, avail, nodes, er, kept, pb, slot, &box))
		return -1;
	if (!probe)
		packed_nodes(t, &box, avail, nodes, out);
	return 0;
}

int tp_torus_place_packed(const tp_torus *t, tp_torus_base_shapes reading,
			  const tp_nodeset *avail, int nodes, tp_nodeset *out)
{
	tp_torus_erode *er = tp_torus_erode_new(t, NULL);
	tp_shapes_kept *kept = tp_shapes_kept_new(t);
	tp_torus_proj *proj = NULL;
	int rc = -1;
	tp_nodeset_zero(out);
	if (er && kept)
		rc = place_packed(t, reading, avail, nodes, er, kept, NULL,
				  &proj, false, out);
	tp_torus_proj_free(proj);
	tp_shapes_kept_free(kept);
	tp_torus_erode_free(er);
	return rc;
}

static int torus_place(tp_alloc *a, const tp_nodeset *avail,
		const tp_alloc_req *req, tp_nodeset *out)
{
	torus_alloc *ta = a->state;
	int ntransit = tp_torus_options(ta->t)->ntransit;
	tp_box box;
	tp_nodeset_zero(out);
	/* Transit nodes only within the request's own range: Slurm refuses
	 * a placement larger than the job's maximum node count. */
	if (req->max_nodes > 0) {
		if (req->nodes > req->max_nodes)
			return -1;
		if (ntransit > req->max_nodes - req->nodes)
			ntransit = req->max_nodes - req->nodes;
	}
	if (place_transit(ta->t, ta->method, avail, req->nodes, ntransit,
			  req->probe ? PLACE_PROBE : 0, ta->er, ta->kept, &box))
		return req->boxes_only ? -1
				       : place_packed(ta->t,
						method_reading(ta->t, ta->method),
						avail, req->nodes, ta->er,
						ta->kept, ta->pb, &ta->proj,
						req->probe, out);
	/* a probe asks whether, not where (alloc.h): the box's nodes are
	 * not listed */
	if (!req->probe)
		tp_torus_box_nodes(ta->t, &box, out);
	return 0;
}

/* Mean L over the pairs of the nodes (the box's mean diameter). */
static double torus_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	const torus_alloc *ta = a->state;
	return tp_torus_set_mean_distance(ta->t, nodes);
}

static void torus_destroy(tp_alloc *a)
{
	torus_alloc *ta = a->state;
	tp_torus_proj_free(ta->proj);
	tp_torus_erode_free(ta->er);
	tp_shapes_kept_free(ta->kept);
	tp_pack_bounds_free(ta->pb);
	free(ta);
}

#define TP_TORUS_FLAGS (TP_ALLOC_MONOTONE | TP_ALLOC_PACKS)

/* Monotone: each method places a job exactly when some candidate box is
 * all free, and a box free in a set is free in every superset (a packed
 * placement's box too: tp_torus_place_packed). */
static const tp_alloc_ops torus_ops[] = {
	[TP_TORUS_BASE] = { .name = "torus-base", .flags = TP_TORUS_FLAGS,
			    .place = torus_place, .cost = torus_cost,
			    .destroy = torus_destroy },
	[TP_TORUS_FS] = { .name = "torus-fs", .flags = TP_TORUS_FLAGS,
			  .place = torus_place, .cost = torus_cost,
			  .destroy = torus_destroy },
	[TP_TORUS_MSS] = { .name = "torus-mss", .flags = TP_TORUS_FLAGS,
			   .place = torus_place, .cost = torus_cost,
			   .destroy = torus_destroy },
	[TP_TORUS_COMPACT] = { .name = "torus-compact",
			       .flags = TP_TORUS_FLAGS, .place = torus_place,
			       .cost = torus_cost, .destroy = torus_destroy },
};

static tp_alloc *torus_create(const tp_alloc_cfg *cfg, tp_torus_method m,
			      tp_error *err)
{
	const char *name = torus_ops[m].name;
	if (!cfg->torus) {
		tp_errorf(err, "allocator '%s' needs a torus (--torus FILE)", name);
		return NULL;
	}
	int N = tp_torus_nnodes(cfg->torus);
	if (cfg->nnodes > 0 && cfg->nnodes != N) {
		tp_errorf(err, "allocator '%s': cluster has %d nodes, the torus %d",
			  name, cfg->nnodes, N);
		return NULL;
	}
	torus_alloc *ta = malloc(sizeof(*ta));
	tp_torus_erode *er = ta ? tp_torus_erode_new(cfg->torus, NULL) : NULL;
	tp_shapes_kept *kept = er ? tp_shapes_kept_new(cfg->torus) : NULL;
	tp_alloc *a = kept ? tp_alloc_new(&torus_ops[m], N, ta) : NULL;
	if (!a) {
		tp_shapes_kept_free(kept);
		tp_torus_erode_free(er);
		free(ta);
		tp_errorf(err, "allocator '%s': out of memory", name);
		return NULL;
	}
	ta->t = cfg->torus;
	ta->method = m;
	ta->er = er;
	ta->kept = kept;
	/* without it (ENOMEM) the searches only carry nothing */
	ta->pb = tp_pack_bounds_new(cfg->torus);
	ta->proj = NULL;
	return a;
}

static tp_alloc *create_base(const tp_alloc_cfg *cfg, tp_error *err)
{
	return torus_create(cfg, TP_TORUS_BASE, err);
}

static tp_alloc *create_fs(const tp_alloc_cfg *cfg, tp_error *err)
{
	return torus_create(cfg, TP_TORUS_FS, err);
}

static tp_alloc *create_mss(const tp_alloc_cfg *cfg, tp_error *err)
{
	return torus_create(cfg, TP_TORUS_MSS, err);
}

static tp_alloc *create_compact(const tp_alloc_cfg *cfg, tp_error *err)
{
	return torus_create(cfg, TP_TORUS_COMPACT, err);
}

const tp_alloc_entry tp_alloc_entry_torus_base = {
	.name = "torus-base", .create = create_base,
};
const tp_alloc_entry tp_alloc_entry_torus_fs = {
	.name = "torus-fs", .create = create_fs,
};
const tp_alloc_entry tp_alloc_entry_torus_mss = {
	.name = "torus-mss", .create = create_mss,
};
const tp_alloc_entry tp_alloc_entry_torus_compact = {
	.name = "torus-compact", .create = create_compact,
};
