/* check_alloc_fattree.c - unit tests for alloc_fattree.c (the MSU/DP
 * allocator "fattree-msu") and alloc_tree_greedy.c ("tree-greedy"). */
#include "check_util.h"
#include "tmpdir_util.h"
#include "alloc/alloc.h"
#include "alloc/alloc_fattree.h"
#include "alloc/alloc_memo.h"
#include "alloc/fattree_merge.h"
#include "topology/fattree.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Check records every passing assertion (one write each); checks inside
 * loops of thousands use this and call Check only on failure. */
#define QUIET(cond) do { if (!(cond)) ck_abort_msg("failed: %s", #cond); } while (0)
#define QUIET_EQ(a, b) do { long long qa_ = (a), qb_ = (b); \
	if (qa_ != qb_) ck_abort_msg("failed: %s == %s (%lld != %lld)", #a, #b, qa_, qb_); } while (0)

/* Scratch directory made by main(); tmpfs when there is one (the tests
 * write thousands of small files). */

static tp_fattree *gen(int levels, int width)
{
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_generate(levels, width, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static tp_alloc *make(const char *name, const tp_fattree *t)
{
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = t->nnodes, .fattree = t };
	tp_alloc *a = tp_alloc_create(name, &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	return a;
}

static void set_opts(tp_fattree *t, int msu_size, int busy_fallback,
		     int prefer_full)
{
	tp_fattree_opts o = { msu_size, busy_fallback, prefer_full };
	tp_error err = { "" };
	ck_assert_int_eq(tp_fattree_set_opts(t, &o, &err), 0);
}

/* out == the listed nodes exactly */
static void assert_nodes(const tp_nodeset *out, const int *want, int n)
{
	tp_nodeset w;
	tp_nodeset_init(&w, out->n);
	for (int i = 0; i < n; i++)
		tp_nodeset_set(&w, want[i]);
	char *got = tp_nodeset_format(out), *exp = tp_nodeset_format(&w);
	ck_assert_msg(tp_nodeset_equal(out, &w), "got %s, want %s", got, exp);
	free(got);
	free(exp);
	tp_nodeset_fini(&w);
}

/* ---- creation ---- */

START_TEST(test_create_errors)
{
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = 64 };
	ck_assert_ptr_null(tp_alloc_create("fattree", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'fattree' needs a topology (--topology FILE)");
	ck_assert_ptr_null(tp_alloc_create("fattree-msu", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'fattree-msu' needs a topology (--topology FILE)");
	ck_assert_ptr_null(tp_alloc_create("tree-greedy", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'tree-greedy' needs a topology (--topology FILE)");
	tp_fattree *t = gen(3, 4);
	cfg.fattree = t;
	cfg.nnodes = 65;
	ck_assert_ptr_null(tp_alloc_create("fattree", &cfg, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "65"));
	ck_assert_ptr_null(tp_alloc_create("fattree-msu", &cfg, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "65"));
	int seen = 0;
	for (const char *const *n = tp_alloc_names(); *n; n++)
		seen += !strcmp(*n, "fattree") + !strcmp(*n, "fattree-msu") +
			!strcmp(*n, "tree-greedy");
	ck_assert_int_eq(seen, 3);
	tp_fattree_free(t);
}
END_TEST

/* ---- u == 1: the patent's rules, worked by hand ---- */

START_TEST(test_single_unit_rules)
{
	tp_fattree *t = gen(3, 4);      /* 16 leaves = 16 MSUs of 4 */
	tp_alloc *a = make("fattree-msu", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_fill(&free);
	tp_nodeset_clear(&free, 0);
	tp_nodeset_clear(&free, 1);     /* MSU 0 busy, 2 free: {2,3} */
	tp_nodeset_clear(&free, 4);     /* MSU 1 busy, 3 free: {5,6,7} */
	ck_assert_int_eq(tp_alloc_place(a, &free, 2, &out), 0);
	assert_nodes(&out, (int[]){ 2, 3 }, 2);          /* exact busy fit */
	ck_assert_int_eq(tp_alloc_place(a, &free, 3, &out), 0);
	assert_nodes(&out, (int[]){ 5, 6, 7 }, 3);       /* exact busy fit */
	ck_assert_int_eq(tp_alloc_place(a, &free, 1, &out), 0);
	assert_nodes(&out, (int[]){ 8 }, 1);             /* from a free MSU */
	ck_assert_int_eq(tp_alloc_place(a, &free, 4, &out), 0);
	assert_nodes(&out, (int[]){ 8, 9, 10, 11 }, 4);  /* N = Nunit */
	/* capacity: 14 completely free MSUs of 4 */
	ck_assert_int_eq(tp_alloc_capacity(a, &free), 56);
	ck_assert_int_eq((int)tp_alloc_cost(a, &out), 0);
	tp_alloc_destroy(a);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

START_TEST(test_single_unit_prefer_full)
{
	tp_fattree *t = gen(3, 4);
	set_opts(t, 2, 0, 1);           /* 2 MSUs of 2 per leaf */
	tp_nodeset free, out;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_fill(&free);
	tp_nodeset_clear(&free, 4);
	tp_nodeset_clear(&free, 5);     /* leaf 1: MSU 2 allocated, MSU 3 free */
	tp_alloc *a = make("fattree-msu", t);
	ck_assert_int_eq(tp_alloc_place(a, &free, 2, &out), 0);
	assert_nodes(&out, (int[]){ 6, 7 }, 2);   /* the fuller leaf */
	tp_alloc_destroy(a);
	set_opts(t, 2, 0, 0);
	a = make("fattree-msu", t);
	ck_assert_int_eq(tp_alloc_place(a, &free, 2, &out), 0);
	assert_nodes(&out, (int[]){ 0, 1 }, 2);   /* lowest index */
	tp_alloc_destroy(a);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

START_TEST(test_single_unit_busy_fallback)
{
	tp_fattree *t = gen(1, 4);      /* one leaf, one MSU of 4 */
	tp_nodeset free, out;
	tp_nodeset_init(&free, 4);
	tp_nodeset_init(&out, 4);
	tp_nodeset_set_range(&free, 1, 4);  /* busy, 3 free */
	set_opts(t, 0, 0, 1);               /* the patent's rule */
	tp_alloc *a = make("fattree-msu", t);
	ck_assert_int_eq(tp_alloc_place(a, &free, 2, &out), -1);  /* patent */
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	ck_assert_int_eq(tp_alloc_place(a, &free, 3, &out), 0);   /* exact */
	tp_alloc_destroy(a);
	set_opts(t, 0, 1, 1);
	a = make("fattree-msu", t);
	ck_assert_int_eq(tp_alloc_place(a, &free, 2, &out), 0);
	assert_nodes(&out, (int[]){ 1, 2 }, 2);
	ck_assert_int_eq(tp_alloc_place(a, &free, 4, &out), -1);
	tp_alloc_destroy(a);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/* ---- u > 1: the DP, worked by hand ---- */

START_TEST(test_dp_hand)
{
	tp_fattree *t = gen(3, 4);
	tp_alloc *a = make("fattree-msu", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	/* free MSUs 0 (middle 0), 5 and 6 (middle 1), 15 (middle 3) */
	int units[] = { 0, 5, 6, 15 };
	for (int i = 0; i < 4; i++)
		tp_nodeset_set_range(&free, 4 * units[i], 4 * units[i] + 4);
	tp_nodeset_set(&free, 40);      /* a busy MSU must not be used */
	/* 2 units: {5,6} share middle 1: 3 hops; every other pair 5 */
	ck_assert_int_eq(tp_alloc_place(a, &free, 8, &out), 0);
	assert_nodes(&out, (int[]){ 20, 21, 22, 23, 24, 25, 26, 27 }, 8);
	ck_assert_int_eq((int)tp_alloc_cost(a, &out), 3);
	ck_assert_int_eq(tp_alloc_place(a, &free, 7, &out), 0);
	assert_nodes(&out, (int[]){ 20, 21, 22, 23, 24, 25, 26 }, 7);
	/* 3 units: {0,5,6} and {5,6,15} both cost 5+5+3 = 13; the tie goes
	 * to the earlier subtree (middle 0) */
	ck_assert_int_eq(tp_alloc_place(a, &free, 12, &out), 0);
	assert_nodes(&out, (int[]){ 0, 1, 2, 3, 20, 21, 22, 23, 24, 25, 26, 27 }, 12);
	ck_assert_int_eq((int)tp_alloc_cost(a, &out), 13);
	/* 4 units = all; 5 units impossible although 17 nodes are free */
	ck_assert_int_eq(tp_alloc_place(a, &free, 16, &out), 0);
	ck_assert_int_eq((int)tp_alloc_cost(a, &out), 3 + 5 * 5);
	ck_assert_int_eq(tp_alloc_place(a, &free, 17, &out), -1);
	ck_assert_int_eq(tp_alloc_capacity(a, &free), 16);
	tp_alloc_destroy(a);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/* Short units: leaves of 4, 4, 2 nodes (ubccr-micro shape), Nunit 4. */
START_TEST(test_dp_short_units)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/topology/ubccr-micro_cluster.topology.conf",
		 tp_data_dir());
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_load(path, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	tp_alloc *a = make("fattree-msu", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 10);
	tp_nodeset_init(&out, 10);
	tp_nodeset_fill(&free);
	/* 6 nodes: u = 2, slack 2: the 2-node unit may join a full one */
	ck_assert_int_eq(tp_alloc_place(a, &free, 6, &out), 0);
	ck_assert_int_eq((int)tp_alloc_cost(a, &out), 3);
	/* 7 nodes: slack 1 < deficit 2: two full units */
	ck_assert_int_eq(tp_alloc_place(a, &free, 7, &out), 0);
	assert_nodes(&out, (int[]){ 0, 1, 2, 3, 4, 5, 6 }, 7);
	/* only the 2-node unit and one full unit free: 4 nodes fit one unit */
	tp_nodeset_zero(&free);
	tp_nodeset_set_range(&free, 4, 10);
	ck_assert_int_eq(tp_alloc_place(a, &free, 4, &out), 0);
	assert_nodes(&out, (int[]){ 4, 5, 6, 7 }, 4);
	/* only the 2-node unit and a busy one: 3 nodes need a free unit >= 3 */
	tp_nodeset_zero(&free);
	tp_nodeset_set_range(&free, 5, 10);
	ck_assert_int_eq(tp_alloc_place(a, &free, 3, &out), 0);
	assert_nodes(&out, (int[]){ 5, 6, 7 }, 3);     /* exact busy fit */
	ck_assert_int_eq(tp_alloc_place(a, &free, 2, &out), 0);
	assert_nodes(&out, (int[]){ 8, 9 }, 2);        /* the 2-node unit */
	tp_alloc_destroy(a);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/* ---- property test: DP == brute force on random small trees ---- */

typedef struct rnd {
	unsigned s;
} rnd;

static int rn(rnd *r, int n)
{
	return (int)(rand_r(&r->s) % (unsigned)n);
}

typedef struct treegen {
	char lines[64][256];
	int nlines, nsw, nnode;
	rnd *r;
} treegen;

/* A random subtree of at most `depth` levels; returns its switch number. */
static int gen_switch(treegen *g, int depth)
{
	int me = g->nsw++;
	char *ln = g->lines[g->nlines++];
	if (depth == 0 || g->nlines > 40 || rn(g->r, 3) == 0) {
		int n = 1 + rn(g->r, 6);
		sprintf(ln, "SwitchName=x%d Nodes=h[%d-%d]", me, g->nnode + 1,
			g->nnode + n);
		g->nnode += n;
		return me;
	}
	int nc = 1 + rn(g->r, 3), child[3];
	for (int c = 0; c < nc; c++)
		child[c] = gen_switch(g, depth - 1);
	int k = sprintf(ln, "SwitchName=x%d Switches=", me);
	for (int c = 0; c < nc; c++)
		k += sprintf(ln + k, "%sx%d", c ? "," : "", child[c]);
	return me;
}

/* Random forest (1-2 trees), lines shuffled, written and loaded. */
static tp_fattree *random_tree(rnd *r, int max_nodes)
{
	treegen g = { .r = r };
	do {
		g.nlines = g.nsw = g.nnode = 0;
		int trees = rn(r, 5) == 0 ? 2 : 1;
		for (int i = 0; i < trees; i++)
			gen_switch(&g, 1 + rn(r, 3));
	} while (g.nnode > max_nodes);
	for (int i = g.nlines - 1; i > 0; i--) {
		int j = rn(r, i + 1);
		if (j == i)
			continue;
		char tmp[256];
		strcpy(tmp, g.lines[i]);
		strcpy(g.lines[i], g.lines[j]);
		strcpy(g.lines[j], tmp);
	}
	char path[1024];
	snprintf(path, sizeof(path), "%s/random.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	for (int i = 0; i < g.nlines; i++)
		fprintf(fp, "%s\n", g.lines[i]);
	fclose(fp);
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_load(path, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/* Each MSU free, allocated or busy at random. */
static void random_state(rnd *r, const tp_fattree *t, tp_nodeset *free)
{
	tp_nodeset_zero(free);
	int pfree = 20 + rn(r, 70);
	for (int m = 0; m < t->nmsu; m++) {
		int lo = t->msu_lo[m], hi = t->msu_lo[m + 1], c = rn(r, 100);
		if (c < pfree)
			tp_nodeset_set_range(free, lo, hi);
		else if (c < pfree + (100 - pfree) / 2)
			for (int v = lo; v < hi; v++)
				if (rn(r, 2))
					tp_nodeset_set(free, v);
	}
}

static int leaf_free_units(const tp_fattree *t, const tp_nodeset *free, int leaf)
{
	int c = 0;
	for (int m = t->sw[leaf].msu_lo; m < t->sw[leaf].msu_hi; m++)
		c += tp_fattree_msu_free(t, free, m) == tp_fattree_msu_size(t, m);
	return c;
}

typedef struct best {
	int k;
	long long hop, tie;
} best;

/* Exhaustive: least k, then least (hop sum, tie-break term) over all
 * k-sets of completely free MSUs of one fabric holding n nodes. */
static best brute_force(const tp_fattree *t, const tp_nodeset *free, int n,
			int kmin)
{
	int unit[64], nu = 0;
	for (int m = 0; m < t->nmsu; m++)
		if (tp_fattree_msu_free(t, free, m) == tp_fattree_msu_size(t, m))
			unit[nu++] = m;
	best b = { -1, 0, 0 };
	for (int k = kmin; k <= nu && b.k < 0; k++) {
		int idx[64];
		for (int i = 0; i < k; i++)
			idx[i] = i;
		for (;;) {
			long long cap = 0, hop = 0, tie = 0;
			int fab = t->sw[t->msu_leaf[unit[idx[0]]]].fabric;
			bool one = true; /* a set across fabrics never holds a job */
			for (int i = 0; i < k; i++) {
				int m = unit[idx[i]];
				one &= t->sw[t->msu_leaf[m]].fabric == fab;
				cap += tp_fattree_msu_size(t, m);
				if (t->opts.prefer_full)
					tie += leaf_free_units(t, free, t->msu_leaf[m]);
				for (int j = i + 1; j < k; j++)
					hop += tp_fattree_msu_hops(t, m, unit[idx[j]]);
			}
			if (one && cap >= n && (b.k < 0 || hop < b.hop ||
					 (hop == b.hop && tie < b.tie))) {
				b.k = k;
				b.hop = hop;
				b.tie = tie;
			}
			int i = k - 1;
			while (i >= 0 && idx[i] == nu - k + i)
				i--;
			if (i < 0)
				break;
			idx[i]++;
			for (int j = i + 1; j < k; j++)
				idx[j] = idx[j - 1] + 1;
		}
	}
	return b;
}

static int count_free_units(const tp_fattree *t, const tp_nodeset *free)
{
	int c = 0;
	for (int m = 0; m < t->nmsu; m++)
		c += tp_fattree_msu_free(t, free, m) == tp_fattree_msu_size(t, m);
	return c;
}

/* The patent's u == 1 rules, written out plainly; -1 if none applies. */
static int reference_single(const tp_fattree *t, const tp_nodeset *free,
			    int n, int *busy)
{
	int best = -1;
	*busy = 0;
	for (int m = 0; m < t->nmsu && n < t->nunit; m++) {
		int f = tp_fattree_msu_free(t, free, m);
		if (f == n && f < tp_fattree_msu_size(t, m)) {
			*busy = 1;
			return m;
		}
	}
	long bkey = 0;
	for (int m = 0; m < t->nmsu; m++) {
		int size = tp_fattree_msu_size(t, m);
		if (tp_fattree_msu_free(t, free, m) != size || size < n)
			continue;
		long key = (long)(size - n) * 1000 +
			   (t->opts.prefer_full ? leaf_free_units(t, free, t->msu_leaf[m]) : 0);
		if (best < 0 || key < bkey) {
			best = m;
			bkey = key;
		}
	}
	if (best >= 0 || !t->opts.busy_fallback)
		return best;
	for (int m = 0; m < t->nmsu; m++) {
		int f = tp_fattree_msu_free(t, free, m);
		if (f >= n && f < tp_fattree_msu_size(t, m) &&
		    (best < 0 || f < tp_fattree_msu_free(t, free, best)))
			best = m;
	}
	*busy = best >= 0;
	return best;
}

/* Check one placement against the reference / brute force. */
static void check_one(tp_alloc *a, const tp_fattree *t, const tp_nodeset *free,
		      int n, tp_nodeset *out, int *multi_checked)
{
	int rc = tp_alloc_place(a, free, n, out);
	int busy, m = n <= t->nunit ? reference_single(t, free, n, &busy) : -1;
	if (m >= 0) {
		QUIET_EQ(rc, 0);
		tp_nodeset want;
		tp_nodeset_init(&want, t->nnodes);
		for (int v = t->msu_lo[m], left = n; left > 0; v++)
			if (tp_nodeset_test(free, v)) {
				tp_nodeset_set(&want, v);
				left--;
			}
		QUIET(tp_nodeset_equal(out, &want));
		tp_nodeset_fini(&want);
		return;
	}
	int u = (n + t->nunit - 1) / t->nunit;
	best b = count_free_units(t, free) <= 14 ? brute_force(t, free, n, u > 1 ? u : 2)
						 : (best){ -2, 0, 0 };
	if (b.k == -2)
		return;         /* too many units to enumerate */
	if (b.k < 0) {
		QUIET_EQ(rc, -1);
		QUIET_EQ(tp_nodeset_count(out), 0);
		return;
	}
	QUIET_EQ(rc, 0);
	(*multi_checked)++;
	QUIET_EQ(tp_nodeset_count(out), n);
	QUIET(tp_nodeset_subset(out, free));
	/* touched units: completely free, b.k of them, optimal */
	int touched = 0, last = -1;
	long long tie = 0;
	for (int v = 0; v < t->nnodes; v++) {
		if (!tp_nodeset_test(out, v) || t->node_msu[v] == last)
			continue;
		last = t->node_msu[v];
		touched++;
		QUIET_EQ(tp_fattree_msu_free(t, free, last),
				 tp_fattree_msu_size(t, last));
		if (t->opts.prefer_full)
			tie += leaf_free_units(t, free, t->msu_leaf[last]);
	}
	QUIET_EQ(touched, b.k);
	QUIET_EQ(tp_fattree_hop_sum(t, out), b.hop);
	QUIET_EQ(tie, b.tie);
	/* the first n nodes of the chosen units in index order */
	tp_nodeset want;
	tp_nodeset_init(&want, t->nnodes);
	for (int mm = 0, left = n; mm < t->nmsu && left > 0; mm++) {
		int lo = t->msu_lo[mm], hi = t->msu_lo[mm + 1];
		if (!tp_fattree_count_range(out, lo, hi))
			continue;
		int take = hi - lo < left ? hi - lo : left;
		tp_nodeset_set_range(&want, lo, lo + take);
		left -= take;
	}
	QUIET(tp_nodeset_equal(out, &want));
	tp_nodeset_fini(&want);
}

START_TEST(test_dp_matches_brute_force)
{
	rnd r = { 20240601u };
	int trees = 0, multi = 0;
	for (int iter = 0; iter < 3000; iter++) {
		int gran = rn(&r, 4);   /* 0: rule; else msu_size 1..3 */
		tp_fattree *t = random_tree(&r, gran == 1 ? 14 : 40);
		set_opts(t, gran, rn(&r, 2), rn(&r, 4) != 0);
		tp_alloc *a = make("fattree-msu", t);
		tp_nodeset free, out;
		tp_nodeset_init(&free, t->nnodes);
		tp_nodeset_init(&out, t->nnodes);
		for (int s = 0; s < 4; s++) {
			random_state(&r, t, &free);
			int cnt = tp_nodeset_count(&free);
			for (int q = 0; q < 4; q++) {
				int n = 1 + rn(&r, cnt + 2);
				check_one(a, t, &free, n, &out, &multi);
			}
		}
		trees++;
		tp_nodeset_fini(&free);
		tp_nodeset_fini(&out);
		tp_alloc_destroy(a);
		tp_fattree_free(t);
	}
	ck_assert_int_eq(trees, 3000);
	/* the multi-unit path must really have been exercised */
	ck_assert_int_gt(multi, 3000);
}
END_TEST

/* ---- invariants on a larger tree, both allocators ---- */

START_TEST(test_invariants_large)
{
	tp_fattree *t = gen(4, 4);      /* 256 nodes, 64 MSUs */
	tp_alloc *ft = make("fattree-msu", t), *tg = make("tree-greedy", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 256);
	tp_nodeset_init(&out, 256);
	rnd r = { 7u };
	for (int s = 0; s < 300; s++) {
		random_state(&r, t, &free);
		int cnt = tp_nodeset_count(&free), units = count_free_units(t, &free);
		for (int q = 0; q < 10; q++) {
			int n = 1 + rn(&r, cnt + 8);
			int rc = tp_alloc_place(ft, &free, n, &out);
			if (rc == 0) {
				QUIET_EQ(tp_nodeset_count(&out), n);
				QUIET(tp_nodeset_subset(&out, &free));
			} else {
				QUIET_EQ(tp_nodeset_count(&out), 0);
				/* more than the free units hold never fits */
				if (n > 4)
					QUIET(n > 4 * units || n > cnt);
			}
			if (n > 4)
				QUIET_EQ(rc == 0, n <= 4 * units);
			rc = tp_alloc_place(tg, &free, n, &out);
			QUIET_EQ(rc == 0, n <= cnt);
			if (rc == 0) {
				QUIET_EQ(tp_nodeset_count(&out), n);
				QUIET(tp_nodeset_subset(&out, &free));
			}
		}
	}
	tp_alloc_destroy(ft);
	tp_alloc_destroy(tg);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/* ---- counts carried between calls == counts made afresh ---- */

/* Next free set of a churn: the last placement taken, a random range
 * freed or taken, a few nodes flipped, or (rarely) a new random state. */
static void churn_step(rnd *r, const tp_fattree *t, tp_nodeset *free,
		       const tp_nodeset *placed)
{
	int n = t->nnodes, lo = rn(r, n), hi = lo + 1 + rn(r, n - lo);
	switch (rn(r, 8)) {
	case 0:
	case 1:
	case 2:
		tp_nodeset_andnot(free, placed);
		break;
	case 3:
		tp_nodeset_set_range(free, lo, hi);
		break;
	case 4:
		for (int v = lo; v < hi; v++)
			tp_nodeset_clear(free, v);
		break;
	case 5:
	case 6:
		for (int i = 1 + rn(r, 4); i > 0; i--) {
			int v = rn(r, n);
			if (tp_nodeset_test(free, v))
				tp_nodeset_clear(free, v);
			else
				tp_nodeset_set(free, v);
		}
		break;
	default:
		random_state(r, t, free);
	}
}

START_TEST(test_cache_matches_fresh)
{
	rnd r = { 20261124u };
	for (int iter = 0; iter < 300; iter++) {
		int gran = rn(&r, 4);
		tp_fattree *t = iter % 10 ? random_tree(&r, 300) : gen(4, 4);
		set_opts(t, gran, rn(&r, 2), rn(&r, 4) != 0);
		tp_alloc *a = make("fattree-msu", t);
		tp_nodeset free, out, want;
		tp_nodeset_init(&free, t->nnodes);
		tp_nodeset_init(&out, t->nnodes);
		tp_nodeset_init(&want, t->nnodes);
		random_state(&r, t, &free);
		for (int step = 0; step < 60; step++) {
			int n = 1 + rn(&r, rn(&r, 4) ? 12 : t->nnodes);
			int rc = tp_alloc_place(a, &free, n, &out);
			tp_alloc *fresh = make("fattree-msu", t);
			QUIET_EQ(rc, tp_alloc_place(fresh, &free, n, &want));
			QUIET(tp_nodeset_equal(&out, &want));
			tp_alloc_destroy(fresh);
			churn_step(&r, t, &free, &out);
		}
		tp_nodeset_fini(&free);
		tp_nodeset_fini(&out);
		tp_nodeset_fini(&want);
		tp_alloc_destroy(a);
		tp_fattree_free(t);
	}
}
END_TEST

/* ---- state carried between questions == none carried ---- */

/* A tree for the carried-state test: random (leaves at several depths,
 * sometimes two fabrics, short units with some unit sizes) or generated
 * (every leaf at one depth: the tables shared by every size). */
static tp_fattree *carry_tree(rnd *r, int iter)
{
	static const int shapes[][2] = { { 4, 4 }, { 3, 5 }, { 2, 9 }, { 5, 3 },
					  { 3, 6 } };
	if (iter % 3)
		return random_tree(r, 300);
	const int *sh = shapes[rn(r, 5)];
	return gen(sh[0], sh[1]);
}

/* The churn both tests below run: a tree with its rules, an allocator
 * carrying state (a) and one answering afresh (b), a few sizes a queue
 * repeats, three free sets visited in turn, and the placements' out/want
 * sets.  Made in one order so each test's random sequence is the one it
 * was written with. */
typedef struct {
	tp_fattree *t;
	tp_alloc *a, *b;
	int sizes[4];
	tp_nodeset pool[3], out, want;
} churn_fix;

static void churn_fix_init(churn_fix *f, rnd *r, int iter)
{
	f->t = carry_tree(r, iter);
	set_opts(f->t, rn(r, 4), rn(r, 2), rn(r, 4) != 0);
	f->a = make("fattree-msu", f->t);
	f->b = make("fattree-msu", f->t);
	tp_fattree_alloc_carry(f->b, false);
	for (int i = 0; i < 4; i++)
		f->sizes[i] = 1 + rn(r, f->t->nnodes);
	for (int i = 0; i < 3; i++) {
		tp_nodeset_init(&f->pool[i], f->t->nnodes);
		random_state(r, f->t, &f->pool[i]);
	}
	tp_nodeset_init(&f->out, f->t->nnodes);
	tp_nodeset_init(&f->want, f->t->nnodes);
}

static void churn_fix_fini(churn_fix *f)
{
	for (int i = 0; i < 3; i++)
		tp_nodeset_fini(&f->pool[i]);
	tp_nodeset_fini(&f->out);
	tp_nodeset_fini(&f->want);
	tp_alloc_destroy(f->a);
	tp_alloc_destroy(f->b);
	tp_fattree_free(f->t);
}

/* The next question: one of the free sets (into *free) and a size, mostly
 * one the queue repeats. */
static int churn_fix_ask(churn_fix *f, rnd *r, tp_nodeset **free)
{
	*free = &f->pool[rn(r, 3)];
	return rn(r, 3) ? f->sizes[rn(r, 4)] : 1 + rn(r, f->t->nnodes);
}

/* One allocator carrying answers and DP tables, one building every answer
 * afresh (the code path before anything was carried): on churns over a
 * few free sets visited in turn (a backfill pass's current, projected and
 * "without this candidate" sets), sizes drawn mostly from a few (a queue
 * repeats them), every answer must be the same. */
START_TEST(test_carried_matches_uncarried)
{
	rnd r = { 20261126u };
	uint64_t reused_total = 0;
	for (int iter = 0; iter < 240; iter++) {
		churn_fix f;
		churn_fix_init(&f, &r, iter);
		tp_fattree *t = f.t;
		tp_alloc *a = f.a, *b = f.b;
		for (int step = 0; step < 150; step++) {
			tp_nodeset *free;
			int n = churn_fix_ask(&f, &r, &free);
			int rc = tp_alloc_place(a, free, n, &f.out);
			QUIET_EQ(rc, tp_alloc_place(b, free, n, &f.want));
			if (!tp_nodeset_equal(&f.out, &f.want))
				ck_abort_msg("iter %d step %d: %d nodes placed differently",
					     iter, step, n);
			if (rn(&r, 3) == 0)
				churn_step(&r, t, free, &f.out);
			/* rules changed between questions (both read them
			 * at every question): nothing answered under the
			 * old ones may be reused */
			if (rn(&r, 40) == 0)
				t->opts.busy_fallback = !t->opts.busy_fallback;
			if (rn(&r, 40) == 0)
				t->opts.prefer_full = !t->opts.prefer_full;
		}
		uint64_t built, reused;
		tp_fattree_alloc_stats(a, &built, &reused);
		reused_total += reused;
		churn_fix_fini(&f);
	}
	/* the carried tables were in fact used, not rebuilt every time */
	ck_assert_uint_gt(reused_total, 1000);
}
END_TEST

/* ---- the root's band == whole tables ---- */

/* Free or take a random range in the last part of the nodes: the root's
 * later children, whose units bound the band of every merge before
 * them. */
static void churn_late(rnd *r, const tp_fattree *t, tp_nodeset *free)
{
	int n = t->nnodes, lo = n / 2 + rn(r, n - n / 2);
	int hi = lo + 1 + rn(r, n - lo);
	if (rn(r, 2)) {
		tp_nodeset_set_range(free, lo, hi);
		return;
	}
	for (int v = lo; v < hi; v++)
		tp_nodeset_clear(free, v);
}

/* Questions of sizes near one another (one table key, bands that overlap
 * or not) on free sets changed mostly in the root's later children,
 * carried against afresh: the band's merges kept, widened and made
 * again must give every answer the whole tables give. */
START_TEST(test_band_matches_fresh)
{
	static const int shapes[][2] = { { 4, 4 }, { 3, 6 }, { 2, 12 },
					  { 3, 5 }, { 2, 9 } };
	rnd r = { 20261128u };
	uint64_t banded = 0;
	for (int iter = 0; iter < 150; iter++) {
		const int *sh = shapes[rn(&r, 5)];
		tp_fattree *t = iter % 4 ? gen(sh[0], sh[1]) : random_tree(&r, 300);
		set_opts(t, 1 + rn(&r, 3), rn(&r, 2), rn(&r, 4) != 0);
		tp_alloc *a = make("fattree-msu", t), *b = make("fattree-msu", t);
		tp_fattree_alloc_carry(b, false);
		int base = 2 + rn(&r, t->nnodes / 2 + 1);
		tp_nodeset pool[2], out, want;
		for (int i = 0; i < 2; i++) {
			tp_nodeset_init(&pool[i], t->nnodes);
			random_state(&r, t, &pool[i]);
		}
		tp_nodeset_init(&out, t->nnodes);
		tp_nodeset_init(&want, t->nnodes);
		for (int step = 0; step < 120; step++) {
			tp_nodeset *free = &pool[rn(&r, 2)];
			int n = base + rn(&r, base / 2 + 1) - base / 4;
			int rc = tp_alloc_place(a, free, n, &out);
			QUIET_EQ(rc, tp_alloc_place(b, free, n, &want));
			if (!tp_nodeset_equal(&out, &want))
				ck_abort_msg("iter %d step %d: %d nodes placed differently",
					     iter, step, n);
			switch (rn(&r, 4)) {
			case 0:
				churn_late(&r, t, free);
				break;
			case 1:
				churn_step(&r, t, free, &out);
				break;
			default:
				break;
			}
		}
		banded += tp_fattree_alloc_banded(a);
		for (int i = 0; i < 2; i++)
			tp_nodeset_fini(&pool[i]);
		tp_nodeset_fini(&out);
		tp_nodeset_fini(&want);
		tp_alloc_destroy(a);
		tp_alloc_destroy(b);
		tp_fattree_free(t);
	}
	/* the band did leave parts of the root's tables out */
	ck_assert_uint_gt(banded, 1000);
}
END_TEST

/* ---- a probe (fits or not, no placement) == a placement's answer ---- */

static int ask(tp_alloc *a, const tp_nodeset *free, int n, int max_nodes,
	       bool probe, tp_nodeset *out)
{
	tp_alloc_req req = { .nodes = n, .max_nodes = max_nodes, .probe = probe };
	return tp_alloc_place_req(a, free, &req, out);
}

/* One allocator asked probes and placements in turn, bare or behind the
 * failure memo (which must not keep a probe's missing placement), one
 * placing every question afresh: every probe answers as the placement
 * does, and the placements after probes are the fresh ones (a probe
 * leaves nothing behind that changes an answer). */
START_TEST(test_probe_matches_place)
{
	rnd r = { 20261127u };
	int decided_yes = 0;
	for (int iter = 0; iter < 240; iter++) {
		churn_fix f;
		churn_fix_init(&f, &r, iter);
		tp_fattree *t = f.t;
		if (iter % 2)
			f.a = tp_alloc_memo_wrap(f.a);
		ck_assert_ptr_nonnull(f.a);
		tp_alloc *a = f.a, *b = f.b;
		for (int step = 0; step < 150; step++) {
			tp_nodeset *free;
			int n = churn_fix_ask(&f, &r, &free);
			int cap = rn(&r, 4) ? 0 : n + rn(&r, 3);
			bool probe = rn(&r, 2);
			int rc = ask(a, free, n, cap, probe, &f.out);
			int want_rc = ask(b, free, n, cap, false, &f.want);
			if (rc != want_rc)
				ck_abort_msg("iter %d step %d: %s of %d nodes: %d, placed: %d",
					     iter, step, probe ? "probe" : "placement",
					     n, rc, want_rc);
			if (!probe && !tp_nodeset_equal(&f.out, &f.want))
				ck_abort_msg("iter %d step %d: %d nodes placed differently",
					     iter, step, n);
			decided_yes += probe && !rc && !tp_nodeset_count(&f.out);
			if (rn(&r, 3) == 0)
				churn_step(&r, t, free, &f.want);
		}
		churn_fix_fini(&f);
	}
	/* probes were in fact answered without a placement */
	ck_assert_int_gt(decided_yes, 500);
}
END_TEST


/* The merge as first written, one pair at a time with branches: the
 * reference for the vectorised rows (fattree_merge.c). */
static void merge_reference(const int64_t *A, int xa, const int64_t *B,
			    int xb, int64_t *R, int32_t *C, int xr, int64_t w,
			    bool one)
{
	for (int i = 0; i <= xr; i++)
		R[i] = FT_INF;
	for (int i = 0; i <= xa; i++) {
		int64_t a = A[i], wi = w * i;
		if (a == FT_INF)
			continue;
		int jmax = one && i ? 0 : ft_mini(xb, xr - i);
		for (int jx = 0; jx <= jmax; jx++) {
			if (B[jx] == FT_INF)
				continue;
			int64_t v = a + B[jx] + wi * jx;
			if (v <= R[i + jx]) {
				R[i + jx] = v;
				C[i + jx] = jx;
			}
		}
	}
}

/* Every merge the allocator runs gives the reference's values and, ties
 * included, its choices: tables of few distinct values (many ties),
 * lengths around the vector widths, with and without FT_INF entries and
 * capped results; with a band (entries from lo on), the same entries
 * from lo on, none written below it and no entry of A read below
 * lo - xb (those are made to win if read). */
START_TEST(test_merge_matches_reference)
{
	rnd r = { 20261127u };
	static int64_t A[80], B[80], R[160], Rr[160];
	static int32_t C[160], Cr[160];
	for (int iter = 0; iter < 20000; iter++) {
		int xa = rn(&r, 70), xb = rn(&r, 70);
		int xr = rn(&r, 4) ? xa + xb : rn(&r, xa + xb + 1);
		int64_t w = -(int64_t)rn(&r, 4) * (1 + rn(&r, 3));
		bool one = rn(&r, 8) == 0, inf = rn(&r, 4) == 0;
		int spread = 1 + rn(&r, 3) * rn(&r, 50);
		for (int i = 0; i <= xa; i++)
			A[i] = inf && rn(&r, 5) == 0 ? FT_INF : rn(&r, spread) - w * i * i / 2;
		for (int j = 0; j <= xb; j++)
			B[j] = inf && rn(&r, 5) == 0 ? FT_INF : rn(&r, spread) - w * j * j / 2;
		memset(C, 0, sizeof(C));
		memset(Cr, 0, sizeof(Cr));
		merge_reference(A, xa, B, xb, Rr, Cr, xr, w, one);
		int lo = rn(&r, 2) ? 0 : rn(&r, xr + 1);
		for (int i = 0; i < lo - xb && i <= xa; i++)
			A[i] = -(INT64_C(1) << 50);
		for (int t = 0; t < lo; t++)
			R[t] = 12345;
		ft_merge_plain(A, xa, B, xb, R, C, lo, xr, w, one);
		for (int t = 0; t < lo; t++)
			if (R[t] != 12345)
				ck_abort_msg("iter %d: entry %d below the band %d written",
					     iter, t, lo);
		for (int t = lo; t <= xr; t++) {
			if (R[t] != Rr[t] || (Rr[t] != FT_INF && C[t] != Cr[t]))
				ck_abort_msg("iter %d (xa %d xb %d xr %d lo %d w %lld): "
					     "entry %d value %lld choice %d, want %lld %d",
					     iter, xa, xb, xr, lo, (long long)w, t,
					     (long long)R[t], C[t], (long long)Rr[t], Cr[t]);
		}
	}
}
END_TEST

/* ---- tree-greedy, worked by hand (Slurm 22.05 cons_tres rules) ---- */

START_TEST(test_tree_greedy_hand)
{
	tp_fattree *t = gen(3, 4);
	tp_alloc *a = make("tree-greedy", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	/* middle 0: leaf 0 {2,3}, leaf 1 {4..7}, leaf 2 {8,9,10} */
	tp_nodeset_set_range(&free, 2, 11);
	tp_nodeset_clear(&free, 11);
	/* 3 nodes: leaves 1 and 2 fit; best fit (fewest free) is leaf 2 */
	ck_assert_int_eq(tp_alloc_place(a, &free, 3, &out), 0);
	assert_nodes(&out, (int[]){ 8, 9, 10 }, 3);
	/* 5 nodes: no leaf fits; same parent -> the most free (leaf 1),
	 * then for the last node the best fit among equally far leaves */
	ck_assert_int_eq(tp_alloc_place(a, &free, 5, &out), 0);
	assert_nodes(&out, (int[]){ 4, 5, 6, 7, 2 }, 5);
	ck_assert_int_eq((int)tp_alloc_cost(a, &out), 3);   /* MSUs 0, 1 */
	/* across middles: leaf 0 full, leaves 4 and 5 half free */
	tp_nodeset_zero(&free);
	tp_nodeset_set_range(&free, 0, 4);
	tp_nodeset_set_range(&free, 16, 18);
	tp_nodeset_set_range(&free, 20, 22);
	ck_assert_int_eq(tp_alloc_place(a, &free, 6, &out), 0);
	assert_nodes(&out, (int[]){ 0, 1, 2, 3, 16, 17 }, 6);
	ck_assert_int_eq(tp_alloc_place(a, &free, 9, &out), -1);
	/* the patent's allocator refuses: one completely free MSU only */
	tp_alloc *f = make("fattree-msu", t);
	ck_assert_int_eq(tp_alloc_place(f, &free, 6, &out), -1);
	tp_alloc_destroy(f);
	tp_alloc_destroy(a);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST


int main(void)
{
	Suite *s = suite_create("alloc_fattree");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_create_errors);
	tcase_add_test(tc, test_single_unit_rules);
	tcase_add_test(tc, test_single_unit_prefer_full);
	tcase_add_test(tc, test_single_unit_busy_fallback);
	tcase_add_test(tc, test_dp_hand);
	tcase_add_test(tc, test_dp_short_units);
	tcase_add_test(tc, test_dp_matches_brute_force);
	tcase_add_test(tc, test_invariants_large);
	tcase_add_test(tc, test_cache_matches_fresh);
	tcase_add_test(tc, test_carried_matches_uncarried);
	tcase_add_test(tc, test_band_matches_fresh);
	tcase_add_test(tc, test_probe_matches_place);
	tcase_add_test(tc, test_merge_matches_reference);
	tcase_add_test(tc, test_tree_greedy_hand);
	suite_add_tcase(s, tc);
	if (tmpdir_make("check_alloc_fattree")) {
		perror(tmpdir);
		return EXIT_FAILURE;
	}
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
