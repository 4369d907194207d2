/*
 * alloc_fattree.c - "fattree-msu": the patent's allocation in minimum
 * scheduling units (doc/methods.md A), with the minimum pairwise-hop choice
 * of MSUs solved exactly by dynamic programming over the tree instead of
 * enumerating combinations.  Derivation and complexity:
 * doc/fattree-design.md.
 *
 * A job of N nodes needs u = ceil(N / Nunit) MSUs.
 * - u == 1 (the patent's rules, in this order):
 *   1. N < Nunit: a *busy* MSU (0 < free < size) with exactly N free nodes,
 *      lowest index first; it becomes fully allocated.
 *   2. a completely free MSU of size >= N: smallest size - N first (only
 *      short units differ), then [prefer_full] the one whose leaf has the
 *      fewest completely free MSUs, then lowest index; its first N nodes.
 *   3. [busy_fallback, on by default; off = the patent] the busy MSU with the fewest free
 *      nodes >= N, then lowest index; its first N free nodes.
 *   4. otherwise as below with k >= 2 units (possible only when short
 *      units exist), else no.
 * - u > 1: k completely free MSUs whose capacity covers N and whose sum of
 *   pairwise hops is minimal; k = u unless short units (a leaf's last,
 *   smaller unit) force more: k is the least count whose k largest free
 *   units hold N nodes.  The nodes are the first N of the chosen units in
 *   index order (the last one may be partly used and becomes busy).
 * Ties of equal hop sum: [prefer_full] fewest completely free MSUs in the
 * chosen units' leaves (summed per unit), then the DP's scan order, which
 * gives more units to earlier children (Switches= order) and, inside a
 * leaf, the lowest-indexed units.
 *
 * Fabrics (fattree.h): a job goes to one fabric; at the virtual root the
 * DP takes all k units from one child, the best fabric, ties to the
 * earlier one, so the hop sum never crosses it.
 *
 * The answer depends on the free set alone.  Its counts per MSU, leaf and
 * subtree are carried from call to call and updated where the free set
 * changed (fattree_counts.h); so are whole answers on the last few free
 * sets (memo_answers.h: a backfill pass asks about many jobs of a few
 * sizes on the same sets) and, on trees without short units, the DP
 * tables per switch, rebuilt only above leaves whose free units changed
 * (fattree_dpcache.h).  All of it is checked against the free set of
 * each call, never trusted: the same answers as building afresh
 * (tp_fattree_alloc_carry() turns it off for the tests).  This state and
 * the scratch buffers make one allocator instance non-reentrant.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"
#include "alloc/fattree_counts.h"
#include "alloc/fattree_dpcache.h"
#include "alloc/alloc_fattree.h"
#include "alloc/fattree_merge.h"
#include "alloc/memo_answers.h"
#include "topology/fattree.h"
#include "topology/spread.h"

#define INF INT64_MAX

typedef struct ft_merge {
	int child;       /* child merged into the accumulated table */
	int x, d;        /* result dimensions: 0..x units, 0..d deficit */
	size_t off;      /* result table (and choice table) offset */
} ft_merge;

typedef struct ft_alloc {
	const tp_fattree *t;
	int nunit, max_depth;
	bool has_short;   /* some leaf ends with a short unit */
	ft_counts c;      /* free counts, carried between decisions */
	/* ...and between probes, whose sets (a projection less a
	 * candidate) differ from those placements are asked on in every
	 * node released by then: one set of counts for each kind */
	ft_counts pc;
	/* whole answers on the last few free sets: a backfill pass asks
	 * about many jobs of the same few sizes on the same sets */
	tp_memo_answers answers;
	/* DP tables carried between questions (no short units only) */
	ft_dpcache dp;
	bool carry;       /* use answers and dp (tests turn it off) */
	tp_spread spread; /* least node-level costs by size, on first use */
	tp_fattree_opts seen_opts; /* the rules `answers` were given under */
	/* DP over switches */
	int *live;        /* [nswitch] switches with free units, pre-order */
	int nlive;
	int *F, *S, *xcap, *dcap, *first, *mg_lo, *mg_n; /* [nswitch] */
	size_t *off;                                     /* [nswitch] */
	ft_merge *mg;                                    /* [nswitch] */
	int64_t *val;     /* DP tables */
	int32_t *cho;     /* choice per merge entry: x * (child d + 1) + d */
	size_t cap;
	int *stack;       /* [3 * nswitch] reconstruction */
	int *picked;      /* [nmsu] chosen MSUs */
	int npicked;
} ft_alloc;

static int msu_size(const ft_alloc *st, int m)
{
	return tp_fattree_msu_size(st->t, m);
}

/* ---- one MSU or less (u == 1) ---- */

/* The first n free nodes of MSU m into out. */
static void take_free(const ft_alloc *st, const tp_nodeset *free, int m,
		      int n, tp_nodeset *out)
{
	for (int v = st->t->msu_lo[m]; n > 0; v++)
		if (tp_nodeset_test(free, v)) {
			tp_nodeset_set(out, v);
			n--;
		}
}

static int busy_exact(const ft_alloc *st, int n)
{
	return ft_counts_busy_first(&st->c, n);
}

static int best_free_unit(const ft_alloc *st, int n)
{
	const tp_fattree *t = st->t;
	int best = -1, bwaste = 0, bleaf = 0;
	for (int l = 0; l < t->nleaf; l++) {
		int v = t->leaves[l];
		if (!st->c.leaf_free[v])
			continue;
		int lf = t->opts.prefer_full ? st->c.leaf_free[v] : 0;
		for (int m = t->sw[v].msu_lo; m < t->sw[v].msu_hi; m++) {
			int size = msu_size(st, m), waste = size - n;
			if (st->c.mfree[m] != size || waste < 0)
				continue;
			if (best < 0 || waste < bwaste ||
			    (waste == bwaste && (lf < bleaf || (lf == bleaf && m < best)))) {
				best = m;
				bwaste = waste;
				bleaf = lf;
			}
		}
	}
	return best;
}

/* Busy MSUs have fewer free nodes than Nunit. */
static int busy_fitting(const ft_alloc *st, int n)
{
	for (int f = n; f < st->nunit; f++) {
		int m = ft_counts_busy_first(&st->c, f);
		if (m >= 0)
			return m;
	}
	return -1;
}

static int place_single(ft_alloc *st, const tp_nodeset *free, int n,
			tp_nodeset *out)
{
	int m = n < st->nunit ? busy_exact(st, n) : -1;
	if (m < 0 && (m = best_free_unit(st, n)) < 0 && st->t->opts.busy_fallback)
		m = busy_fitting(st, n);
	if (m < 0)
		return -1;
	take_free(st, free, m, n, out);
	return 0;
}

/* ---- several MSUs: how many ---- */

/* Least k >= u such that the k largest completely free MSUs hold n nodes,
 * or -1.  Full units first, then short ones by decreasing size. */
static int units_needed(const ft_alloc *st, int n, int u)
{
	if (st->c.free_full >= u && (long)u * st->nunit >= n)
		return u;
	long cap = (long)st->c.free_full * st->nunit;
	int k = st->c.free_full, size = st->nunit - 1, left = 0;
	while (k < u || cap < n) {
		while (!left && size > 0)
			if (!(left = st->c.short_hist[size]))
				size--;
		if (!left)
			return -1;
		cap += size;
		left--;
		if (!left)
			size--;
		k++;
	}
	return k;
}

/* ---- several MSUs: the DP ---- */

static int ensure_cap(ft_alloc *st, size_t need)
{
	if (need <= st->cap)
		return 0;
	size_t cap = st->cap ? st->cap : 1024;
	while (cap < need)
		cap *= 2;
	int64_t *v = realloc(st->val, cap * sizeof(*v));
	if (!v)
		return -1;
	st->val = v;
	int32_t *c = realloc(st->cho, cap * sizeof(*c));
	if (!c)
		return -1;
	st->cho = c;
	st->cap = cap;
	return 0;
}

/* Deficit (Nunit - size) of leaf l's short unit if it is completely free
 * and usable within `slack`, else 0. */
static int short_deficit(const ft_alloc *st, int l, int slack)
{
	const tp_fattree *t = st->t;
	if (!st->has_short || t->sw[l].msu_lo == t->sw[l].msu_hi)
		return 0;
	int m = t->sw[l].msu_hi - 1, size = msu_size(st, m);
	if (size == st->nunit || st->c.mfree[m] != size)
		return 0;
	int d = st->nunit - size;
	return d <= slack ? d : 0;
}

typedef struct dp_job {
	int k, slack;
	int64_t K;       /* weight of hops over the tie-break term */
	int prefer;
} dp_job;

/* Switches with a completely free unit below, parents before children:
 * the others have no table, and skipping them here spares visiting the
 * whole tree at every decision. */
static void find_live(ft_alloc *st)
{
	const tp_fattree *t = st->t;
	int sp = 0, *stk = st->stack;
	st->nlive = 0;
	if (st->c.sub[t->root])
		stk[sp++] = t->root;
	while (sp) {
		int v = stk[--sp];
		const tp_fattree_switch *s = &t->sw[v];
		st->live[st->nlive++] = v;
		for (int c = s->nchild - 1; c >= 0; c--)
			if (st->c.sub[s->child[c]])
				stk[sp++] = s->child[c];
	}
}

/* F of a child: switches off the live list have no free unit. */
static int child_F(const ft_alloc *st, int ch)
{
	return st->c.sub[ch] ? st->F[ch] : 0;
}

/* Pass 1: free units per subtree, table sizes and offsets. */
static size_t plan_tables(ft_alloc *st, const dp_job *j)
{
	const tp_fattree *t = st->t;
	size_t total = 0;
	int nmg = 0;
	find_live(st);
	for (int q = st->nlive - 1; q >= 0; q--) {
		int v = st->live[q];
		const tp_fattree_switch *s = &t->sw[v];
		st->mg_lo[v] = nmg;
		st->mg_n[v] = 0;
		st->first[v] = -1;
		if (s->nchild == 0) {
			int d = short_deficit(st, v, j->slack);
			st->F[v] = st->c.leaf_full[v] + (d > 0);
			st->S[v] = d;
		} else {
			long accF = 0, accS = 0;
			for (int c = 0; c < s->nchild; c++)
				accF += child_F(st, s->child[c]);
			if (!accF) {    /* nothing free below: no table */
				st->F[v] = st->S[v] = 0;
				continue;
			}
			accF = 0;
			for (int c = 0; c < s->nchild; c++) {
				int ch = s->child[c];
				if (!child_F(st, ch))
					continue;
				accF += st->F[ch];
				accS = accS + st->S[ch] > j->slack ? j->slack : accS + st->S[ch];
				if (st->first[v] < 0) {
					st->first[v] = ch;
					continue;
				}
				ft_merge *m = &st->mg[nmg++];
				m->child = ch;
				m->x = (int)(accF < j->k ? accF : j->k);
				m->d = (int)accS;
				m->off = total;
				total += (size_t)(m->x + 1) * (size_t)(m->d + 1);
				st->mg_n[v]++;
			}
			st->F[v] = (int)(accF < j->k ? accF : j->k);
			st->S[v] = (int)accS;
		}
		st->xcap[v] = ft_mini(j->k, st->F[v]);
		st->dcap[v] = ft_mini(j->slack, st->S[v]);
		if (!st->F[v])
			continue;
		if (s->nchild == 0) {
			st->off[v] = total;
			total += (size_t)(st->xcap[v] + 1) * (size_t)(st->dcap[v] + 1);
		} else if (st->mg_n[v]) {
			st->off[v] = st->mg[nmg - 1].off;
		} else {
			st->off[v] = st->off[st->first[v]];
		}
	}
	return total;
}

/* Records a merge of child ch into v's accumulated table of up to x
 * units and d deficit; returns the table size. */
static size_t add_merge(ft_alloc *st, int v, int ch, int x, int d, size_t off)
{
	ft_merge *m = &st->mg[st->mg_lo[v] + st->mg_n[v]++];
	m->child = ch;
	m->x = x;
	m->d = d;
	m->off = off;
	return (size_t)(x + 1) * (size_t)(d + 1);
}

/* plan_tables() without short units anywhere: a subtree's F is its count
 * of free units capped at k, so a single pass over the live switches,
 * parents first, plans everything (run_dp() sets inner offsets). */
static size_t plan_plain(ft_alloc *st, const dp_job *j)
{
	const tp_fattree *t = st->t;
	size_t total = 0;
	int nmg = 0;
	find_live(st);
	for (int i = 0; i < st->nlive; i++) {
		int v = st->live[i];
		const tp_fattree_switch *s = &t->sw[v];
		st->F[v] = st->xcap[v] = ft_mini(j->k, st->c.sub[v]);
		st->S[v] = st->dcap[v] = 0;
		st->mg_lo[v] = nmg;
		st->mg_n[v] = 0;
		st->first[v] = -1;
		if (s->nchild == 0) {
			st->off[v] = total;
			total += (size_t)st->xcap[v] + 1;
			continue;
		}
		int accF = 0;
		for (int c = 0; c < s->nchild; c++) {
			int ch = s->child[c];
			if (!st->c.sub[ch])
				continue;
			accF = ft_mini(j->k, accF + ft_mini(j->k, st->c.sub[ch]));
			if (st->first[v] < 0)
				st->first[v] = ch;
			else
				total += add_merge(st, v, ch, accF, 0, total);
		}
		nmg += st->mg_n[v];
	}
	return total;
}

/* A leaf choosing x of its free units: the per-unit depth term and its
 * C(x,2) pairs whose lowest common switch is the leaf (see
 * doc/fattree-design.md; the +1 of every pair is the constant C(k,2),
 * left out), plus the tie-break. */
static void fill_leaf(ft_alloc *st, int v, const dp_job *j)
{
	const tp_fattree *t = st->t;
	int64_t *T = st->val + st->off[v];
	int xc = st->xcap[v], dc = st->dcap[v], D = t->sw[v].depth;
	int full = st->c.leaf_full[v], delta = st->S[v];
	for (int i = 0; i < (xc + 1) * (dc + 1); i++)
		T[i] = INF;
	for (int x = 0; x <= xc; x++) {
		int64_t val = ft_leaf_value(x, j->k, D, j->K, j->prefer,
					    st->c.leaf_free[v]);
		if (x <= full)
			T[x * (dc + 1)] = val;
		if (delta && x >= 1 && x - 1 <= full)
			T[x * (dc + 1) + delta] = val;
	}
}

/* acc (xa, da) + child table -> m's table; cross pairs cost w each.
 * `one` (the virtual root, whose children are fabrics with no link):
 * units from the accumulated side or from the child, never both. */
static void merge(ft_alloc *st, const int64_t *A, int xa, int da,
		  const ft_merge *m, int64_t w, bool one)
{
	int c = m->child, xb = st->xcap[c], db = st->dcap[c];
	const int64_t *B = st->val + st->off[c];
	int64_t *R = st->val + m->off;
	int32_t *C = st->cho + m->off;
	int xr = m->x, dr = m->d;
	if (!da && !db && !dr) {
		ft_merge_plain(A, xa, B, xb, R, C, 0, xr, w, one);
		return;
	}
	for (int i = 0; i < (xr + 1) * (dr + 1); i++)
		R[i] = INF;
	for (int i = 0; i <= xa; i++)
		for (int di = 0; di <= da; di++) {
			int64_t a = A[i * (da + 1) + di];
			if (a == INF)
				continue;
			int jmax = one && i ? 0 : ft_mini(xb, xr - i);
			int dmax = ft_mini(db, dr - di);
			for (int jx = 0; jx <= jmax; jx++) {
				int64_t cross = w * i * jx;
				for (int dj = 0; dj <= dmax; dj++) {
					int64_t b = B[jx * (db + 1) + dj];
					if (b == INF)
						continue;
					int r = (i + jx) * (dr + 1) + di + dj;
					int64_t v = a + b + cross;
					/* <=: among ties keep the later pair, which
					 * has more units in earlier children */
					if (v <= R[r]) {
						R[r] = v;
						C[r] = jx * (db + 1) + dj;
					}
				}
			}
		}
}

/* Pass 2: bottom-up tables. */
static void run_dp(ft_alloc *st, const dp_job *j)
{
	const tp_fattree *t = st->t;
	for (int q = st->nlive - 1; q >= 0; q--) {
		int v = st->live[q];
		if (!st->F[v])
			continue;
		if (t->sw[v].nchild == 0) {
			fill_leaf(st, v, j);
			continue;
		}
		int f = st->first[v];
		const int64_t *A = st->val + st->off[f];
		int xa = st->xcap[f], da = st->dcap[f];
		int64_t w = -2 * (int64_t)t->sw[v].depth * j->K;
		for (int k = 0; k < st->mg_n[v]; k++) {
			const ft_merge *m = &st->mg[st->mg_lo[v] + k];
			merge(st, A, xa, da, m, w, t->sw[v].is_virtual);
			A = st->val + m->off;
			xa = m->x;
			da = m->d;
		}
		st->off[v] = (size_t)(A - st->val);
	}
}

static void pick_leaf_units(ft_alloc *st, int v, int x, int d)
{
	const tp_fattree *t = st->t;
	const tp_fattree_switch *s = &t->sw[v];
	if (d > 0) {
		st->picked[st->npicked++] = s->msu_hi - 1;
		x--;
	}
	for (int m = s->msu_lo; m < s->msu_hi && x > 0; m++)
		if (msu_size(st, m) == st->nunit && st->c.mfree[m] == st->nunit) {
			st->picked[st->npicked++] = m;
			x--;
		}
}

/* Top-down: follow the recorded choices from (root, k, d). */
static void reconstruct(ft_alloc *st, int d)
{
	const tp_fattree *t = st->t;
	int sp = 0, *stk = st->stack;
	st->npicked = 0;
	stk[sp++] = t->root;
	stk[sp++] = st->xcap[t->root];
	stk[sp++] = d;
	while (sp) {
		int dd = stk[--sp], x = stk[--sp], v = stk[--sp];
		if (!x)
			continue;
		if (t->sw[v].nchild == 0) {
			pick_leaf_units(st, v, x, dd);
			continue;
		}
		for (int k = st->mg_n[v] - 1; k >= 0; k--) {
			const ft_merge *m = &st->mg[st->mg_lo[v] + k];
			int c = m->child, ch = st->cho[m->off + x * (m->d + 1) + dd];
			int jx = ch / (st->dcap[c] + 1), jd = ch % (st->dcap[c] + 1);
			stk[sp++] = c;
			stk[sp++] = jx;
			stk[sp++] = jd;
			x -= jx;
			dd -= jd;
		}
		stk[sp++] = st->first[v];
		stk[sp++] = x;
		stk[sp++] = dd;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Are the picked units in index order already?  The picks walk the
 * tree in child order, which is index order in most files. */
static bool picked_sorted(const ft_alloc *st)
{
	for (int i = 1; i < st->npicked; i++)
		if (st->picked[i - 1] > st->picked[i])
			return false;
	return true;
}

/* The first n nodes of the picked units, in index order. */
static void emit_nodes(ft_alloc *st, int n, tp_nodeset *out)
{
	const tp_fattree *t = st->t;
	if (!picked_sorted(st))
		qsort(st->picked, (size_t)st->npicked, sizeof(int), cmp_int);
	for (int i = 0; i < st->npicked && n > 0; i++) {
		int m = st->picked[i], size = msu_size(st, m);
		int take = size < n ? size : n;
		tp_nodeset_set_range(out, t->msu_lo[m], t->msu_lo[m] + take);
		n -= take;
	}
}

/* place_multi() on the carried tables (fattree_dpcache.h): the same
 * tables, merges and picks as plan_plain(), run_dp() and reconstruct(). */
static int place_carried(ft_alloc *st, const dp_job *j, int n, tp_nodeset *out)
{
	int root = st->t->root;
	if (st->c.sub[root] < j->k)
		return -1;
	ft_dpstate *s = ft_dpcache_build(&st->dp, &st->c, j->k, j->K, j->prefer);
	if (!s || s->tab[root][j->k] == INF)
		return -1;
	st->npicked = ft_dpcache_pick(&st->dp, s, &st->c, j->k, st->stack,
				      st->picked);
	emit_nodes(st, n, out);
	return 0;
}

static int place_multi(ft_alloc *st, int n, int k, tp_nodeset *out)
{
	const tp_fattree *t = st->t;
	dp_job j = { .k = k, .slack = (int)((long)k * st->nunit - n), .K = 1,
		     .prefer = t->opts.prefer_full };
	if (j.prefer) {
		/* hops must dominate the tie-break; skip it if that could
		 * overflow (only for absurdly large trees) */
		double K = (double)k * st->c.max_leaf_free + 1;
		double bound = 4.0 * k * (double)k * (st->max_depth + 1) * K;
		if (bound < 4e18)
			j.K = (int64_t)K;
		else
			j.prefer = 0;
	}
	if (st->carry && !st->has_short)
		return place_carried(st, &j, n, out);
	if (ensure_cap(st, st->has_short ? plan_tables(st, &j) : plan_plain(st, &j)))
		return -1;
	if (!st->c.sub[t->root] || st->xcap[t->root] < k)
		return -1;
	run_dp(st, &j);
	const int64_t *R = st->val + st->off[t->root];
	int dc = st->dcap[t->root], best = -1;
	for (int d = 0; d <= dc; d++)
		if (R[k * (dc + 1) + d] != INF &&
		    (best < 0 || R[k * (dc + 1) + d] < R[k * (dc + 1) + best]))
			best = d;
	if (best < 0)
		return -1;
	reconstruct(st, best);
	emit_nodes(st, n, out);
	return 0;
}

/* units_needed() counts units over every fabric; with short units the
 * least count that holds the job in ONE fabric may be higher, so a
 * failed k is worth retrying with one unit more while units are left. */
static bool more_units(const ft_alloc *st, int k)
{
	if (st->t->nfabric < 2 || !st->has_short)
		return false;
	long units = st->c.free_full;
	for (int size = 1; size < st->nunit; size++)
		units += st->c.short_hist[size];
	return k < units;
}

/* ---- tp_alloc_ops ---- */

static int place_fresh(ft_alloc *st, const tp_nodeset *free, int nodes,
		       tp_nodeset *out)
{
	ft_counts_update(&st->c, free);
	int u = (nodes + st->nunit - 1) / st->nunit;
	if (u == 1 && !place_single(st, free, nodes, out))
		return 0;
	int k = units_needed(st, nodes, u);
	if (k < 2)
		return -1;
	while (place_multi(st, nodes, k, out)) {
		tp_nodeset_zero(out);
		if (!more_units(st, k))
			return -1;
		k++;
	}
	return 0;
}

/* Does some fabric hold k completely free units?  Without short units
 * that is when the DP's root table holds k units at a finite value: every
 * count up to a subtree's free units is reachable below a real switch,
 * and the virtual root takes all k units from one fabric. */
static bool one_fabric_holds(const ft_alloc *st, const ft_counts *cn, int k)
{
	const tp_fattree *t = st->t;
	const tp_fattree_switch *r = &t->sw[t->root];
	if (!r->is_virtual)
		return cn->sub[t->root] >= k;
	for (int c = 0; c < r->nchild; c++)
		if (cn->sub[r->child[c]] >= k)
			return true;
	return false;
}

/* place_fresh()'s answer without the DP where counting gives it (a
 * probe: alloc.h); *decided false when it must place. */
static int probe_fresh(ft_alloc *st, const tp_nodeset *free, int nodes,
		       bool *decided)
{
	*decided = false;
	if (st->has_short)
		return -1;
	int u = (nodes + st->nunit - 1) / st->nunit;
	if (u == 1)
		return -1; /* placing one unit costs no DP */
	ft_counts_update(&st->pc, free);
	*decided = true;
	/* units_needed() is u when that many are free, else -1, without
	 * short units */
	return st->pc.free_full >= u && one_fabric_holds(st, &st->pc, u) ? 0 : -1;
}

/* The answer depends on the free set and the node count alone (the node
 * cap is not ours: alloc.h), so it is kept under the count only.  A
 * probe decided by counting is not kept: counting it again is cheap. */
static int fattree_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	ft_alloc *st = a->state;
	tp_nodeset_zero(out);
	if (nodes < 1 || tp_nodeset_count(free) < nodes)
		return -1;
	bool decided = false;
	if (req->probe) {
		int rc = probe_fresh(st, free, nodes, &decided);
		if (decided)
			return rc;
	}
	if (!st->carry)
		return place_fresh(st, free, nodes, out);
	if (st->t->opts.busy_fallback != st->seen_opts.busy_fallback ||
	    st->t->opts.prefer_full != st->seen_opts.prefer_full) {
		/* answered under other rules: forget (the DP keys on them) */
		tp_memo_answers_fini(&st->answers);
		tp_memo_answers_init(&st->answers, st->t->nnodes);
		st->seen_opts = st->t->opts;
	}
	tp_alloc_req key = { .nodes = nodes };
	int rc = tp_memo_answers_get(&st->answers, free, &key, out);
	if (rc != 1)
		return rc;
	rc = place_fresh(st, free, nodes, out);
	tp_memo_answers_put(&st->answers, free, &key, rc, out);
	return rc;
}

/* batch-Njob's Nnode: nodes in completely free MSUs (= Nunit x free MSUs
 * when every unit is full-size, the patent's formula). */
static int fattree_capacity(tp_alloc *a, const tp_nodeset *free)
{
	ft_alloc *st = a->state;
	const tp_fattree *t = st->t;
	int sum = 0;
	for (int m = 0; m < t->nmsu; m++) {
		int size = msu_size(st, m);
		if (ft_counts_msu_free(&st->c, free, m) == size)
			sum += size;
	}
	return sum;
}

static double fattree_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	ft_alloc *st = a->state;
	return (double)tp_fattree_hop_sum(st->t, nodes);
}

static double fattree_spread(tp_alloc *a, const tp_nodeset *nodes)
{
	ft_alloc *st = a->state;
	return tp_spread_of(&st->spread, nodes);
}

static void fattree_destroy(tp_alloc *a)
{
	ft_alloc *st = a->state;
	if (!st)
		return;
	tp_spread_fini(&st->spread);
	ft_counts_fini(&st->c);
	ft_counts_fini(&st->pc);
	tp_memo_answers_fini(&st->answers);
	ft_dpcache_fini(&st->dp);
	free(st->live);
	free(st->F);
	free(st->S);
	free(st->xcap);
	free(st->dcap);
	free(st->first);
	free(st->mg_lo);
	free(st->mg_n);
	free(st->off);
	free(st->mg);
	free(st->val);
	free(st->cho);
	free(st->stack);
	free(st->picked);
	free(st);
}

static const tp_alloc_ops fattree_ops = {
	.name = "fattree-msu",
	.flags = 0,
	.place = fattree_place,
	.capacity = fattree_capacity,
	.cost = fattree_cost,
	.spread = fattree_spread,
	.destroy = fattree_destroy,
};

static ft_alloc *state_new(const tp_fattree *t)
{
	ft_alloc *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	size_t ns = (size_t)t->nswitch, nm = (size_t)(t->nmsu ? t->nmsu : 1);
	st->t = t;
	st->nunit = t->nunit;
	st->carry = true;
	st->seen_opts = t->opts;
	tp_memo_answers_init(&st->answers, t->nnodes);
	for (int l = 0; l < t->nleaf; l++)
		if (t->sw[t->leaves[l]].depth > st->max_depth)
			st->max_depth = t->sw[t->leaves[l]].depth;
	st->live = malloc(ns * sizeof(int));
	st->picked = malloc(nm * sizeof(int));
	st->F = malloc(ns * sizeof(int));
	st->S = malloc(ns * sizeof(int));
	st->xcap = malloc(ns * sizeof(int));
	st->dcap = malloc(ns * sizeof(int));
	st->first = malloc(ns * sizeof(int));
	st->mg_lo = malloc(ns * sizeof(int));
	st->mg_n = malloc(ns * sizeof(int));
	st->off = malloc(ns * sizeof(size_t));
	st->mg = malloc(ns * sizeof(ft_merge));
	st->stack = malloc(3 * ns * sizeof(int));
	if (!st->live || !st->picked || !st->F || !st->S || !st->xcap || !st->dcap ||
	    !st->first || !st->mg_lo || !st->mg_n || !st->off || !st->mg ||
	    !st->stack || ensure_cap(st, 4096) || ft_counts_init(&st->c, t) ||
	    tp_spread_init(&st->spread, t, NULL) ||
	    ft_counts_init(&st->pc, t) ||
	    ft_dpcache_init(&st->dp, t)) {
		tp_alloc tmp = { .state = st };
		fattree_destroy(&tmp);
		return NULL;
	}
	for (int m = 0; m < t->nmsu; m++)
		st->has_short |= tp_fattree_msu_size(t, m) != t->nunit;
	return st;
}

static tp_alloc *fattree_create(const tp_alloc_cfg *cfg, tp_error *err)
{
	const tp_fattree *t = cfg->fattree;
	if (!t) {
		tp_errorf(err, "allocator 'fattree-msu' needs a topology (--topology FILE)");
		return NULL;
	}
	if (cfg->nnodes != t->nnodes) {
		tp_errorf(err, "fattree-msu: the cluster has %d nodes but topology %s has %d",
			  cfg->nnodes, t->path, t->nnodes);
		return NULL;
	}
	ft_alloc *st = state_new(t);
	tp_alloc *a = st ? tp_alloc_new(&fattree_ops, t->nnodes, st) : NULL;
	/* Never TP_ALLOC_MONOTONE.  With busy_fallback feasibility does grow
	 * with the free set, but a placement need not be placeable on itself:
	 * a 5-node job on 4-node units gets a whole unit and one node of a
	 * second, which is not a completely free unit once its other nodes
	 * are taken.  Planners that pin placements (conservative) must then
	 * keep watching the head; the patent's exact-fit rule alone is not
	 * even monotone. */
	if (!a) {
		if (st) {
			tp_alloc tmp = { .state = st };
			fattree_destroy(&tmp);
		}
		tp_errorf(err, "fattree-msu: out of memory");
	}
	return a;
}

const tp_alloc_entry tp_alloc_entry_fattree = {
	.name = "fattree-msu",
	.create = fattree_create,
};

void tp_fattree_alloc_carry(tp_alloc *a, bool on)
{
	ft_alloc *st = a->state;
	st->carry = on;
}

void tp_fattree_alloc_stats(const tp_alloc *a, uint64_t *built,
			    uint64_t *reused)
{
	const ft_alloc *st = a->state;
	*built = st->dp.built;
	*reused = st->dp.reused;
}

uint64_t tp_fattree_alloc_banded(const tp_alloc *a)
{
	const ft_alloc *st = a->state;
	return st->dp.banded;
}
