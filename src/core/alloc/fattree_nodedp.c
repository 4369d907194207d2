/*
 * fattree_nodedp.c - the node-level DP of a fat tree with tables carried
 * per switch; see fattree_nodedp.h.
 *
 * A value is cost * M + tie in one int64 (M larger than any tie sum), so
 * a merge is fattree_merge.h's min-plus row, vectorised, shared with
 * the unit allocator.  Tables of the switches below a fabric's root are
 * kept per (cap, k) state; a fabric root's merges change with nearly
 * every placement and are made per call, only over the band of entries
 * that can reach k.
 */
#include "alloc/fattree_nodedp.h"

#include <stdlib.h>
#include <string.h>

#include "alloc/fattree_merge.h"
#include "base/grow.h"
#include "topology/fattree_nodecost.h"

/* One switch's table for x = 0..n nodes below it, and the choices of its
 * merges: merge i (i >= 1) put child kid[i]'s table into that of
 * kid[0..i-1]; cho + off[i] holds, per entry, the nodes taken from
 * kid[i]. */
struct ftn_table {
	uint64_t stamp;      /* the switch's stamp when built, 0: never */
	int n;               /* entries 0..n: min(free nodes, lim) */
	int lim;             /* the cap it was built under */
	int64_t *val;
	size_t nval;         /* allocated entries of val */
	int32_t *cho;
	size_t ncho;         /* allocated entries of cho */
	size_t *off;         /* [nchild] */
	int *kid;            /* [nchild] the children merged, in order */
	int nkid;
};

/* ---- counts ---- */

static void counts_changed(ftn_dp *d, int leaf, int delta)
{
	const tp_fattree *t = d->t;
	d->leaf_free[leaf] += delta;
	d->clock++;
	for (int v = leaf; v >= 0; v = t->sw[v].parent) {
		d->sub_free[v] += delta;
		d->stamp[v] = d->clock;
	}
}

void ftn_dp_update(ftn_dp *d, const tp_nodeset *free)
{
	const tp_fattree *t = d->t;
	for (int w = 0; w < d->nwords; w++) {
		if (free->w[w] == d->seen[w])
			continue;
		d->seen[w] = free->w[w];
		int lo = w * 64, hi = lo + 64 < t->nnodes ? lo + 64 : t->nnodes;
		for (int i = lo; i < hi;) {
			const tp_fattree_switch *s = &t->sw[t->node_leaf[i]];
			int l = t->node_leaf[i];
			int f = tp_fattree_count_range(free, s->node_lo, s->node_hi);
			if (f != d->leaf_free[l])
				counts_changed(d, l, f - d->leaf_free[l]);
			i = s->node_hi;
		}
	}
}

bool ftn_dp_fits(const ftn_dp *d, int k)
{
	const tp_fattree *t = d->t;
	for (int f = 0; f < t->nfabric; f++)
		if (d->sub_free[t->fabric_root[f]] >= k)
			return true;
	return false;
}

/* ---- states ---- */

static void table_fini(ftn_table *tb)
{
	free(tb->val);
	free(tb->cho);
	free(tb->off);
	free(tb->kid);
	memset(tb, 0, sizeof(*tb));
}

static void state_fini(ftn_state *s, int nswitch)
{
	for (int v = 0; s->tab && v < nswitch; v++)
		table_fini(&s->tab[v]);
	free(s->tab);
	memset(s, 0, sizeof(*s));
}

/* cost * M + tie stays within int64 for every value of any job size: M
 * exceeds any tie sum (a node's weights over the switches above it sum
 * to at most the nodes of all levels, 2n on a tree of width 2 or more,
 * and the tree's depth times n on any); without room, ties get no
 * weight. */
static void scale_for(const ftn_dp *d, ftn_state *s)
{
	double levels = d->max_depth + 1.0, n = d->t->nnodes;
	double tie = n * n * levels + 1;
	double cost = n * n * (levels + 1) + n * n * levels;
	s->tie_on = cost * tie < 4e18;
	s->M = s->tie_on ? (int64_t)tie : 1;
	if (s->k == -1) { /* keep mode: the tie is the kept nodes taken */
		s->tie_on = true;
		s->M = (int64_t)n + 1;
	}
}

/* The state for k (0: any), with tables up to cap: a kept one, else the
 * least recently used, emptied.  NULL on ENOMEM. */
static ftn_state *take_state(ftn_dp *d, int cap, int k)
{
	ftn_state *s = NULL;
	for (int i = 0; i < FTN_STATES && !s; i++)
		if (d->st[i].valid && d->st[i].k == k)
			s = &d->st[i];
	if (!s) {
		s = &d->st[0];
		for (int i = 1; i < FTN_STATES; i++)
			if (!d->st[i].valid || (s->valid && d->st[i].used < s->used))
				s = &d->st[i];
		if (!s->tab &&
		    !(s->tab = calloc((size_t)d->t->nswitch, sizeof(*s->tab))))
			return NULL;
		for (int v = 0; v < d->t->nswitch; v++)
			s->tab[v].stamp = 0;
		s->valid = true;
		s->k = k;
		scale_for(d, s);
	}
	s->cap = cap;
	s->used = ++d->clock;
	return s;
}

/* ---- tables ---- */

static int table_room(ftn_table *tb, int nchild, int n, size_t ncho)
{
	if (tp_grow_to((void **)&tb->val, &tb->nval, (size_t)n + 1, sizeof(*tb->val)) ||
	    (ncho && tp_grow_to((void **)&tb->cho, &tb->ncho, ncho, sizeof(*tb->cho))))
		return -1;
	if (nchild && !tb->off) {
		tb->off = malloc((size_t)nchild * sizeof(*tb->off));
		tb->kid = malloc((size_t)nchild * sizeof(*tb->kid));
		if (!tb->off || !tb->kid)
			return -1;
	}
	return 0;
}

/* A switch's own term at x: its link's -x^2 (and on a leaf of a fabric
 * whose leaves lie at several depths, k x d), then the tie-break. */
static void add_own(const ftn_dp *d, const ftn_state *s, int v, int64_t *val,
		    int n, int64_t lin)
{
	int64_t w = s->tie_on && !d->keep ? ftn_tie_weight(d, v) : 0;
	for (int x = 0; x <= n; x++)
		val[x] += s->M * (lin * x - (int64_t)x * x) + w * x;
}

/* A leaf's table: any x of its free nodes; no pair inside it costs more
 * than the C(k,2) every placement pays.  In keep mode the tie-break is
 * the kept nodes taken: the leaf's others go first. */
static int build_leaf(ftn_dp *d, ftn_state *s, int v)
{
	ftn_table *tb = &s->tab[v];
	int n = d->leaf_free[v] < s->cap ? d->leaf_free[v] : s->cap;
	if (table_room(tb, 0, n, 0))
		return -1;
	memset(tb->val, 0, ((size_t)n + 1) * sizeof(*tb->val));
	for (int x = d->keep ? d->leaf_other[v] + 1 : n + 1; x <= n; x++)
		tb->val[x] = x - d->leaf_other[v];
	add_own(d, s, v, tb->val, n, (int64_t)s->klin * d->depth[v]);
	tb->n = n;
	return 0;
}

static int ensure(ftn_dp *d, ftn_state *s, int v);

/* The children of v with free nodes into tb->kid, their tables built;
 * the merged table's size, capped at cap, in *n; the choice entries its
 * merges need in *ncho. */
static int gather_kids(ftn_dp *d, ftn_state *s, int v, ftn_table *tb, int cap,
		       int *n, size_t *ncho)
{
	const tp_fattree_switch *sw = &d->t->sw[v];
	*n = 0;
	*ncho = 0;
	tb->nkid = 0;
	for (int c = 0; c < sw->nchild; c++) {
		int ch = sw->child[c];
		if (!d->sub_free[ch])
			continue;
		if (ensure(d, s, ch))
			return -1;
		int m = s->tab[ch].n;
		*n = *n + m < cap ? *n + m : cap;
		if (tb->nkid)
			*ncho += (size_t)*n + 1;
		tb->nkid++;
	}
	if (table_room(tb, sw->nchild, *n, *ncho))
		return -1;
	tb->nkid = 0;
	for (int c = 0; c < sw->nchild; c++)
		if (d->sub_free[sw->child[c]])
			tb->kid[tb->nkid++] = sw->child[c];
	return 0;
}

static int scratch_room(ftn_dp *d, int n)
{
	return tp_grow_to((void **)&d->acc, &d->nacc, (size_t)n + 1, sizeof(*d->acc)) ||
	       tp_grow_to((void **)&d->tmp, &d->ntmp, (size_t)n + 1, sizeof(*d->tmp));
}

/* Merge the children's tables in order into d->acc, entries lo_of(i)..
 * of each merge (band: 0 for a kept table); the result's size is
 * returned.  Choices go to tb->cho at tb->off[i]. */
static int merge_kids(ftn_dp *d, const ftn_state *s, ftn_table *tb, int cap,
		      int k_band)
{
	const ftn_table *first = &s->tab[tb->kid[0]];
	int na = first->n, later = 0;
	memcpy(d->acc, first->val, ((size_t)na + 1) * sizeof(*d->acc));
	for (int i = 1; i < tb->nkid; i++)
		later += s->tab[tb->kid[i]].n;
	size_t off = 0;
	for (int i = 1; i < tb->nkid; i++) {
		const ftn_table *ct = &s->tab[tb->kid[i]];
		later -= ct->n;
		int nr = na + ct->n < cap ? na + ct->n : cap;
		/* entries below k - (what later children hold) never reach k */
		int lo = k_band >= 0 && k_band - later > 0 ? k_band - later : 0;
		tb->off[i] = off;
		ft_merge_plain(d->acc, na, ct->val, ct->n, d->tmp, tb->cho + off,
			       lo, nr, 0, false);
		off += (size_t)nr + 1;
		int64_t *x = d->acc;
		d->acc = d->tmp;
		d->tmp = x;
		size_t nx = d->nacc;
		d->nacc = d->ntmp;
		d->ntmp = nx;
		na = nr;
	}
	return na;
}

/* An inner switch's kept table: its children's merged, then its own
 * term. */
static int build_inner(ftn_dp *d, ftn_state *s, int v)
{
	ftn_table *tb = &s->tab[v];
	int n;
	size_t ncho;
	if (gather_kids(d, s, v, tb, s->cap, &n, &ncho) || scratch_room(d, n))
		return -1;
	merge_kids(d, s, tb, s->cap, -1);
	memcpy(tb->val, d->acc, ((size_t)n + 1) * sizeof(*tb->val));
	add_own(d, s, v, tb->val, n, 0);
	tb->n = n;
	return 0;
}

/* Does tb hold every entry up to cap of switch v's free set? */
static bool table_serves(const ftn_dp *d, const ftn_table *tb, int v, int cap)
{
	return d->carry && tb->stamp && tb->stamp == d->stamp[v] &&
	       (tb->lim >= cap || tb->n == d->sub_free[v]);
}

/* The table of switch v (sub_free > 0) up to s->cap, built unless
 * carried. */
static int ensure(ftn_dp *d, ftn_state *s, int v)
{
	ftn_table *tb = &s->tab[v];
	if (!d->keep && table_serves(d, tb, v, s->cap)) {
		d->reused++;
		return 0;
	}
	tb->lim = s->cap;
	int rc = d->t->sw[v].nchild ? build_inner(d, s, v) : build_leaf(d, s, v);
	if (rc) {
		tb->stamp = 0;
		return -1;
	}
	tb->stamp = d->stamp[v];
	d->built++;
	return 0;
}

/* A fabric root's entry k: its children merged over the band that can
 * reach k, into the state's table of r (not kept: a root changes with
 * nearly every placement).  Its value, or -1 on ENOMEM (*ok false). */
static int64_t root_value(ftn_dp *d, ftn_state *s, int r, int k, bool *ok)
{
	ftn_table *tb = &s->tab[r];
	tb->stamp = 0;
	*ok = false;
	if (!d->t->sw[r].nchild) { /* a lone leaf is its own fabric */
		if (ensure(d, s, r))
			return -1;
		tb->stamp = 0;
		*ok = true;
		return tb->val[k];
	}
	int n;
	size_t ncho;
	if (gather_kids(d, s, r, tb, k, &n, &ncho) || scratch_room(d, n))
		return -1;
	merge_kids(d, s, tb, k, k);
	*ok = true;
	return d->acc[k] + s->M * -((int64_t)k * k);
}

/* ---- answers ---- */

/* x of the lowest nodes of leaf sw in `from` not in out yet, into out;
 * what is still wanted. */
static int take_lowest(const tp_nodeset *from, const tp_fattree_switch *sw,
		       int x, tp_nodeset *out)
{
	for (int i = sw->node_lo; x > 0 && i < sw->node_hi; i++)
		if (tp_nodeset_test(from, i) && !tp_nodeset_test(out, i)) {
			tp_nodeset_set(out, i);
			x--;
		}
	return x;
}

/* Nodes below each switch from fabric root r down, following the
 * tables' choices; each leaf's share is its lowest free nodes (in keep
 * mode those not kept first). */
static void pick(ftn_dp *d, const ftn_state *s, const tp_nodeset *free,
		 int r, int k, tp_nodeset *out)
{
	const tp_fattree *t = d->t;
	int sp = 0, *stk = d->stack;
	stk[sp++] = r;
	stk[sp++] = k;
	while (sp) {
		int x = stk[--sp], v = stk[--sp];
		if (!x)
			continue;
		const tp_fattree_switch *sw = &t->sw[v];
		if (!sw->nchild) {
			x = take_lowest(d->keep ? &d->other : free, sw, x, out);
			if (x > 0)
				take_lowest(free, sw, x, out);
			continue;
		}
		const ftn_table *tb = &s->tab[v];
		for (int i = tb->nkid - 1; i > 0; i--) {
			int j = tb->cho[tb->off[i] + (size_t)x];
			stk[sp++] = tb->kid[i];
			stk[sp++] = j;
			x -= j;
		}
		stk[sp++] = tb->kid[0];
		stk[sp++] = x;
	}
}

/* Keep mode for this call when some free node is not kept: each leaf's
 * count of those; false when every free node is kept (nothing to
 * prefer). */
static bool keep_mode(ftn_dp *d, const tp_nodeset *free, const tp_nodeset *keep)
{
	const tp_fattree *t = d->t;
	d->keep = NULL;
	if (!keep)
		return false;
	tp_nodeset_copy(&d->other, free);
	tp_nodeset_andnot(&d->other, keep);
	if (!tp_nodeset_count(&d->other))
		return false;
	for (int l = 0; l < t->nleaf; l++) {
		const tp_fattree_switch *sw = &t->sw[t->leaves[l]];
		d->leaf_other[t->leaves[l]] =
			tp_fattree_count_range(&d->other, sw->node_lo, sw->node_hi);
	}
	d->keep = keep;
	return true;
}

/* The table set of this call: keep mode has its own (k -1), rebuilt. */
static ftn_state *state_for(ftn_dp *d, int k)
{
	ftn_state *s = take_state(d, k, d->keep ? -1 : d->uniform ? 0 : k);
	if (s)
		s->klin = d->uniform ? 0 : k;
	return s;
}

/* The DP's answer in state s. */
static int place_dp(ftn_dp *d, ftn_state *s, const tp_nodeset *free, int k,
		    tp_nodeset *out)
{
	const tp_fattree *t = d->t;
	int best = -1;
	int64_t bv = 0;
	for (int f = 0; f < t->nfabric; f++) {
		int r = t->fabric_root[f];
		if (d->sub_free[r] < k)
			continue;
		bool ok;
		int64_t v = root_value(d, s, r, k, &ok);
		if (!ok)
			return -1;
		/* fabrics compare by their whole cost: k^2 D of uniform ones
		 * is not in the tables; ties to the smaller fabric (a job that
		 * fits a small one leaves the large one whole), then the
		 * earlier */
		if (d->uniform)
			v += s->M * (int64_t)k * k * d->fabric_depth[f];
		if (best < 0 || v < bv ||
		    (v == bv && d->size[r] < d->size[best])) {
			best = r;
			bv = v;
		}
	}
	pick(d, s, free, best, k, out); /* each root keeps its own choices */
	return 0;
}

int ftn_dp_place(ftn_dp *d, const tp_nodeset *free, const tp_nodeset *keep,
		 int k, tp_nodeset *out, int64_t *cost)
{
	const tp_fattree *t = d->t;
	if (k < 1 || !ftn_dp_fits(d, k))
		return -1;
	bool keeping = keep_mode(d, free, keep);
	if (!keeping && !ftn_ideal_place(d, free, k, out)) {
		if (cost)
			*cost = tp_fattree_node_cost(t, out);
		return 0;
	}
	ftn_state *s = state_for(d, k);
	int rc = s ? place_dp(d, s, free, k, out) : -1;
	d->keep = NULL;
	if (!rc && cost)
		*cost = tp_fattree_node_cost(t, out);
	return rc;
}

void ftn_dp_carry(ftn_dp *d, bool on)
{
	d->carry = on;
}

/* ---- set-up ---- */

void ftn_dp_fini(ftn_dp *d)
{
	if (!d->t)
		return;
	for (int i = 0; i < FTN_STATES; i++)
		state_fini(&d->st[i], d->t->nswitch);
	free(d->leaf_free);
	free(d->sub_free);
	free(d->size);
	free(d->depth);
	free(d->fabric_depth);
	free(d->seen);
	free(d->stamp);
	free(d->acc);
	free(d->tmp);
	free(d->stack);
	free(d->regular);
	free(d->height);
	free(d->child_size);
	free(d->level_size);
	free(d->leaf_other);
	tp_nodeset_fini(&d->other);
	memset(d, 0, sizeof(*d));
}

/* Sizes, depths below the fabric roots, and whether each fabric's
 * leaves share one depth. */
static void shape(ftn_dp *d)
{
	const tp_fattree *t = d->t;
	for (int f = 0; f < t->nfabric; f++)
		d->fabric_depth[f] = -1;
	d->uniform = true;
	for (int p = 0; p < t->nswitch; p++) {
		int v = t->postorder[p];
		const tp_fattree_switch *sw = &t->sw[v];
		d->size[v] = sw->nchild ? 0 : sw->node_hi - sw->node_lo;
		for (int c = 0; c < sw->nchild; c++)
			d->size[v] += d->size[sw->child[c]];
		if (sw->is_virtual)
			continue;
		d->depth[v] = sw->depth - t->sw[t->fabric_root[sw->fabric]].depth;
		if (d->depth[v] > d->max_depth)
			d->max_depth = d->depth[v];
		if (sw->nchild || sw->node_hi == sw->node_lo)
			continue;
		int *fd = &d->fabric_depth[sw->fabric];
		if (*fd >= 0 && *fd != d->depth[v])
			d->uniform = false;
		if (*fd < 0)
			*fd = d->depth[v];
	}
}

int ftn_dp_init(ftn_dp *d, const tp_fattree *t)
{
	memset(d, 0, sizeof(*d));
	d->t = t;
	d->carry = true;
	size_t ns = (size_t)t->nswitch;
	d->nwords = (t->nnodes + 63) / 64;
	d->leaf_free = calloc(ns, sizeof(int));
	d->sub_free = calloc(ns, sizeof(int));
	d->size = calloc(ns, sizeof(int));
	d->depth = calloc(ns, sizeof(int));
	d->fabric_depth = calloc((size_t)t->nfabric, sizeof(int));
	d->seen = calloc((size_t)d->nwords + 1, sizeof(uint64_t));
	d->stamp = calloc(ns, sizeof(uint64_t));
	d->stack = malloc(2 * ns * sizeof(int));
	d->regular = calloc(ns, sizeof(bool));
	d->height = calloc(ns, sizeof(int));
	d->child_size = calloc(ns, sizeof(int));
	d->level_size = calloc(ns + 1, sizeof(int));
	d->leaf_other = calloc(ns, sizeof(int));
	if (tp_nodeset_init(&d->other, t->nnodes) || !d->leaf_other ||
	    !d->leaf_free || !d->sub_free || !d->size || !d->depth ||
	    !d->fabric_depth || !d->seen || !d->stamp || !d->stack ||
	    !d->regular || !d->height || !d->child_size || !d->level_size) {
		ftn_dp_fini(d);
		return -1;
	}
	shape(d);
	ftn_ideal_shape(d);
	return 0;
}
