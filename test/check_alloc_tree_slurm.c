/* check_alloc_tree_slurm.c - unit tests for alloc_tree_slurm.c
 * ("tree-slurm", Slurm 24.05-24.11 topology/tree, and "tree-slurm-26.05"),
 * next to "tree-greedy" (Slurm 22.05) where they choose differently. */
#include "check_util.h"
#include "tmpdir_util.h"
#include "alloc/alloc.h"
#include "topology/fattree.h"

#include <stdio.h>
#include <string.h>

/* Check records every passing assertion; loops use these. */
#define QUIET(cond) do { if (!(cond)) ck_abort_msg("failed: %s", #cond); } while (0)
#define QUIET_EQ(a, b) do { long long qa_ = (a), qb_ = (b); \
	if (qa_ != qb_) ck_abort_msg("failed: %s == %s (%lld != %lld)", #a, #b, qa_, qb_); } while (0)

static tp_fattree *gen(int levels, int width)
{
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_generate(levels, width, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static tp_fattree *load(const char *name, const char *text)
{
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_load(tmpdir_write(name, text), &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/* The allocator, with the leaf switches as its groups (as the machine
 * loader sets them) so max_groups applies; free the groups with it. */
static tp_alloc *make(const char *name, const tp_fattree *t)
{
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = t->nnodes, .fattree = t };
	tp_alloc *a = tp_alloc_create(name, &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	tp_groups *g = malloc(sizeof(*g) + (size_t)t->nnodes * sizeof(int));
	ck_assert_ptr_nonnull(g);
	int *of = (int *)(g + 1);
	for (int i = 0; i < t->nnodes; i++)
		for (int l = 0; l < t->nleaf; l++)
			if (t->leaves[l] == t->node_leaf[i])
				of[i] = l;
	*g = (tp_groups){ .ngroups = t->nleaf, .of = of };
	a->groups = g;
	return a;
}

static void unmake(tp_alloc *a)
{
	free((void *)a->groups);
	tp_alloc_destroy(a);
}

static void set_nodes(tp_nodeset *s, const int *v, int n)
{
	tp_nodeset_zero(s);
	for (int i = 0; i < n; i++)
		tp_nodeset_set(s, v[i]);
}

/* out == the listed nodes exactly */
static void assert_nodes(const tp_nodeset *out, const int *want, int n)
{
	tp_nodeset w;
	tp_nodeset_init(&w, out->n);
	set_nodes(&w, want, n);
	char *got = tp_nodeset_format(out), *exp = tp_nodeset_format(&w);
	ck_assert_msg(tp_nodeset_equal(out, &w), "got %s, want %s", got, exp);
	free(got);
	free(exp);
	tp_nodeset_fini(&w);
}

#define FREE(...) set_nodes(&free, (int[]){ __VA_ARGS__ }, \
	(int)(sizeof((int[]){ __VA_ARGS__ }) / sizeof(int)))
#define WANT(out, ...) assert_nodes(out, (int[]){ __VA_ARGS__ }, \
	(int)(sizeof((int[]){ __VA_ARGS__ }) / sizeof(int)))

START_TEST(test_create)
{
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = 64 };
	ck_assert_ptr_null(tp_alloc_create("tree-slurm", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'tree-slurm' needs a topology (--topology FILE)");
	tp_fattree *t = gen(3, 4);
	cfg.fattree = t;
	cfg.nnodes = 65;
	ck_assert_ptr_null(tp_alloc_create("tree-slurm", &cfg, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "65"));
	ck_assert_ptr_null(tp_alloc_create("tree-slurm-26.05", &cfg, &err));
	ck_assert_str_eq(err.msg, "tree-slurm-26.05: the cluster has 65 nodes but "
			 "topology (generated) has 64");
	cfg.fattree = NULL;
	ck_assert_ptr_null(tp_alloc_create("tree-slurm-26.05", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'tree-slurm-26.05' needs a topology (--topology FILE)");
	int seen = 0, seen_2605 = 0;
	for (const char *const *n = tp_alloc_names(); *n; n++) {
		seen += !strcmp(*n, "tree-slurm");
		seen_2605 += !strcmp(*n, "tree-slurm-26.05");
	}
	ck_assert_int_eq(seen, 1);
	ck_assert_int_eq(seen_2605, 1);
	cfg = (tp_alloc_cfg){ .nnodes = 64, .fattree = t };
	tp_alloc *a = tp_alloc_create("tree-slurm-26.05", &cfg, &err);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->ops->name, "tree-slurm-26.05");
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

/*
 * 64 nodes, width 4: leaf Lk holds nodes 4k..4k+3, middle Mk leaves
 * 4k..4k+3.  Free: L0 {0,1}, L4 {16..19}, L5 {20..23}; 6 nodes.
 * First leaf (no distances yet): L4, as M1 (8) holds 6 and M0 (2) does
 * not; L5 ties with it and comes later.  Then 2 more: L0 holds exactly 2
 * at distance 4, L5 holds 4 at distance 2.  Slurm >= 24.05 takes the
 * closer leaf because it holds the rest; 22.05 only when it fits no
 * worse, so tree-greedy takes the tighter L0.
 */
START_TEST(test_closer_beats_tighter)
{
	tp_fattree *t = gen(3, 4);
	tp_alloc *s = make("tree-slurm", t), *g = make("tree-greedy", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	FREE(0, 1, 16, 17, 18, 19, 20, 21, 22, 23);
	ck_assert_int_eq(tp_alloc_place(s, &free, 6, &out), 0);
	WANT(&out, 16, 17, 18, 19, 20, 21);
	ck_assert_int_eq((int)tp_alloc_cost(s, &out), 3); /* L4-L5: 3 routers */
	ck_assert_int_eq(tp_alloc_place(g, &free, 6, &out), 0);
	WANT(&out, 0, 1, 16, 17, 18, 19);
	ck_assert_int_eq((int)tp_alloc_cost(g, &out), 5); /* L0-L4: 5 */
	/* a closer leaf that cannot hold the rest is passed over by both:
	 * L1 {4,5,6} (distance 4) is taken for 3, not L5 {20,21} (2) */
	FREE(0, 1, 4, 5, 6, 16, 17, 18, 19, 20, 21);
	ck_assert_int_eq(tp_alloc_place(s, &free, 7, &out), 0);
	WANT(&out, 4, 5, 6, 16, 17, 18, 19);
	ck_assert_int_eq(tp_alloc_place(g, &free, 7, &out), 0);
	WANT(&out, 4, 5, 6, 16, 17, 18, 19);
	unmake(s);
	unmake(g);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/*
 * 27 nodes, width 3: leaf Lk holds 3k..3k+2, middle Mk leaves 3k..3k+2.
 * Free: L1 {3}, L4 {14}, L5 {16,17}, L6 {20}, L8 {25,26}; 4 nodes.
 * First: L5 (M1 holds 3 like M2 but comes first; in M1, L5 has more).
 * Then 2 more.  tree-greedy still counts M1 as 3, so the closer L4
 * "fits" through its parent and is taken, then L1 for the last node.
 * Slurm >= 24.05 has taken L5's 2 from M1 (1 left): L4 neither fits nor
 * is better, and among the leaves at distance 4 L8 holds both.
 */
START_TEST(test_ancestor_counts_drop)
{
	tp_fattree *t = gen(3, 3);
	tp_alloc *s = make("tree-slurm", t), *g = make("tree-greedy", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 27);
	tp_nodeset_init(&out, 27);
	FREE(3, 14, 16, 17, 20, 25, 26);
	ck_assert_int_eq(tp_alloc_place(s, &free, 4, &out), 0);
	WANT(&out, 16, 17, 25, 26);
	ck_assert_int_eq(tp_alloc_place(g, &free, 4, &out), 0);
	WANT(&out, 3, 14, 16, 17);
	/*
	 * Free: L0 {0}, L2 {7}, L3 {9}, L4 {12,14}, L6 {18,20}; 5 nodes.
	 * Both start with L4 (M1 has 3).  For 3 more, tree-greedy takes the
	 * closer L3 (M1 still "3"), then L6's 2.  Slurm: M1 has 1 left, M0
	 * 2: L3 is not taken; L0 (first at distance 4), then L2 and L3 at
	 * equal distance 6 (L2 first), then L3: four leaves.
	 */
	FREE(0, 7, 9, 12, 14, 18, 20);
	ck_assert_int_eq(tp_alloc_place(s, &free, 5, &out), 0);
	WANT(&out, 0, 7, 9, 12, 14);
	ck_assert_int_eq(tp_alloc_place(g, &free, 5, &out), 0);
	WANT(&out, 9, 12, 14, 18, 20);
	/* --switches: Slurm's own choice or nothing */
	tp_alloc_req req = { .nodes = 5, .max_groups = 3 };
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &req, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	ck_assert_int_eq(tp_alloc_place_req(g, &free, &req, &out), 0);
	req.max_groups = 4;
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &req, &out), 0);
	WANT(&out, 0, 7, 9, 12, 14);
	unmake(s);
	unmake(g);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/* One leaf holds the job: the tightest such leaf, the first on ties, its
 * lowest free nodes; whole machine free: the first leaves in order. */
START_TEST(test_best_fit_and_ties)
{
	tp_fattree *t = gen(3, 4);
	tp_alloc *s = make("tree-slurm", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	FREE(1, 2, 3, 5, 6, 7, 40, 42, 43, 60, 61);
	ck_assert_int_eq(tp_alloc_place(s, &free, 3, &out), 0);
	WANT(&out, 1, 2, 3);          /* L0, L1 and L10 hold 3: L0 first */
	ck_assert_int_eq(tp_alloc_place(s, &free, 2, &out), 0);
	WANT(&out, 60, 61);           /* L15: exactly 2 */
	tp_nodeset_set_range(&free, 0, 64);
	ck_assert_int_eq(tp_alloc_place(s, &free, 10, &out), 0);
	for (int i = 0; i < 10; i++)
		ck_assert(tp_nodeset_test(&out, i));
	ck_assert_int_eq(tp_alloc_place(s, &free, 64, &out), 0);
	ck_assert_int_eq(tp_alloc_place(s, &free, 65, &out), -1);
	/* not enough free nodes: refused, nothing chosen */
	FREE(0, 1, 2, 30);
	ck_assert_int_eq(tp_alloc_place(s, &free, 5, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	ck_assert_int_eq(tp_alloc_place(s, &free, 0, &out), -1);
	unmake(s);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/*
 * Two trees.  Equal root levels: the LAST switch of the highest level
 * with enough nodes is the top switch; a job larger than every tree is
 * refused (Slurm never combines trees; tree-greedy joins them through the
 * model's virtual root and chooses over both).
 */
START_TEST(test_top_switch)
{
	tp_fattree *t = load("two.conf",
		"SwitchName=a Nodes=a[1-4]\nSwitchName=b Nodes=b[1-4]\n"
		"SwitchName=r1 Switches=a,b\n"
		"SwitchName=c Nodes=c[1-4]\nSwitchName=d Nodes=d[1-4]\n"
		"SwitchName=r2 Switches=c,d\n");
	tp_alloc *s = make("tree-slurm", t), *g = make("tree-greedy", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 16);
	tp_nodeset_init(&out, 16);
	FREE(0, 1, 8, 9, 10, 11, 12, 13, 14, 15);  /* a {a1,a2}, c, d */
	ck_assert_int_eq(tp_alloc_place(s, &free, 2, &out), 0);
	WANT(&out, 8, 9);             /* r2, the later; c and d tie: c */
	ck_assert_int_eq(tp_alloc_place(g, &free, 2, &out), 0);
	WANT(&out, 8, 9);             /* r2 too: trees are never combined */
	ck_assert_int_eq(tp_alloc_place(s, &free, 9, &out), -1);
	ck_assert_int_eq(tp_alloc_place(g, &free, 9, &out), -1);
	ck_assert_int_eq(tp_alloc_place(s, &free, 8, &out), 0);
	WANT(&out, 8, 9, 10, 11, 12, 13, 14, 15);
	unmake(s);
	unmake(g);
	tp_fattree_free(t);
	/* a higher root wins over a later, larger tree */
	t = load("levels.conf",
		"SwitchName=a Nodes=a[1-4]\nSwitchName=b Nodes=b[1-4]\n"
		"SwitchName=m Switches=a,b\nSwitchName=r1 Switches=m\n"
		"SwitchName=c Nodes=c[1-4]\nSwitchName=d Nodes=d[1-4]\n"
		"SwitchName=r2 Switches=c,d\n");
	s = make("tree-slurm", t);
	g = make("tree-greedy", t);
	FREE(0, 1, 2, 8, 9);          /* a {a1..a3}, c {c1,c2} */
	ck_assert_int_eq(tp_alloc_place(s, &free, 2, &out), 0);
	WANT(&out, 0, 1);
	ck_assert_int_eq(tp_alloc_place(g, &free, 2, &out), 0);
	WANT(&out, 0, 1);
	unmake(s);
	unmake(g);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_fattree_free(t);
}
END_TEST

/*
 * Required nodes, Slurm's way (through tp_alloc_place_req).  64 nodes:
 * -w n18 (node 17, leaf L4), free L0 {0..3}, L4 {16,17,18}, L5 {20}; 6
 * nodes.  Slurm fills the required leaf first (16, 18), then scans the
 * other leaves by their distance to every switch holding n18 (L4, M1 and
 * the root): L5 (5) is closer than L0 (9) but cannot hold the last 3, so
 * L0's first three.  tree-greedy goes through the generic rule (n18's
 * leaf cannot hold 5 more: the allocator's choice anywhere).
 */
START_TEST(test_required)
{
	tp_fattree *t = gen(3, 4);
	tp_alloc *s = make("tree-slurm", t), *g = make("tree-greedy", t);
	tp_nodeset free, out, req_nodes;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_init(&req_nodes, 64);
	tp_nodeset_set(&req_nodes, 17);
	FREE(0, 1, 2, 3, 16, 17, 18, 20);
	tp_alloc_req req = { .nodes = 6, .required = &req_nodes };
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &req, &out), 0);
	WANT(&out, 0, 1, 2, 16, 17, 18);
	ck_assert_int_eq(tp_alloc_place_req(g, &free, &req, &out), 0);
	WANT(&out, 0, 1, 2, 3, 17, 20);
	/* two required leaves: both filled first, in file order */
	tp_nodeset_set(&req_nodes, 1);
	req.nodes = 5;
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &req, &out), 0);
	WANT(&out, 0, 1, 2, 3, 17);
	/* the required nodes alone, or not enough room: as before */
	req.nodes = 2;
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &req, &out), 0);
	WANT(&out, 1, 17);
	req.nodes = 9;
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &req, &out), -1);
	/* a required node that is busy: refused */
	tp_nodeset_clear(&free, 17);
	req.nodes = 4;
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &req, &out), -1);
	unmake(s);
	unmake(g);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&req_nodes);
	tp_fattree_free(t);
}
END_TEST

/*
 * Slurm 26.05: a job of one node no longer goes through the tree.
 * 64 nodes; free: L0 {2,3}, L2 {9}, L6 {25}.  Slurm 24.05-24.11 takes the
 * tightest leaf (L2 holds exactly 1, first of the two); 26.05's cons_tres
 * takes the first free node, 2.  A node range 1-4 tried at size 1 is not
 * a one-node job (its maximum is 4): the tree's choice again.  Jobs of
 * two or more nodes: both models choose alike.
 */
START_TEST(test_one_node_2605)
{
	tp_fattree *t = gen(3, 4);
	tp_alloc *s = make("tree-slurm", t), *n = make("tree-slurm-26.05", t);
	tp_nodeset free, out, req_nodes;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_init(&req_nodes, 64);
	FREE(2, 3, 9, 25);
	ck_assert_int_eq(tp_alloc_place(s, &free, 1, &out), 0);
	WANT(&out, 9);
	ck_assert_int_eq(tp_alloc_place(n, &free, 1, &out), 0);
	WANT(&out, 2);
	tp_alloc_req one = { .nodes = 1, .max_nodes = 1 };
	ck_assert_int_eq(tp_alloc_place_req(n, &free, &one, &out), 0);
	WANT(&out, 2);
	tp_alloc_req range = { .nodes = 1, .max_nodes = 4 };
	ck_assert_int_eq(tp_alloc_place_req(n, &free, &range, &out), 0);
	WANT(&out, 9);
	/* -w names the node: that node in both */
	tp_nodeset_set(&req_nodes, 25);
	tp_alloc_req need = { .nodes = 1, .required = &req_nodes };
	ck_assert_int_eq(tp_alloc_place_req(n, &free, &need, &out), 0);
	WANT(&out, 25);
	ck_assert_int_eq(tp_alloc_place_req(s, &free, &need, &out), 0);
	WANT(&out, 25);
	/* two nodes: L0, the tightest leaf holding 2, in both */
	ck_assert_int_eq(tp_alloc_place(s, &free, 2, &out), 0);
	WANT(&out, 2, 3);
	ck_assert_int_eq(tp_alloc_place(n, &free, 2, &out), 0);
	WANT(&out, 2, 3);
	/* nothing free: refused */
	tp_nodeset_zero(&free);
	ck_assert_int_eq(tp_alloc_place(n, &free, 1, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	unmake(s);
	unmake(n);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&req_nodes);
	tp_fattree_free(t);
}
END_TEST

/* xorshift: the same sequence on every platform */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Free nodes of the biggest real tree (a root's subtree). */
static int most_in_one_tree(const tp_fattree *t, const tp_nodeset *free)
{
	int best = 0;
	for (int r = 0; r < t->nswitch; r++) {
		if (t->sw[r].is_virtual ||
		    (t->sw[r].parent >= 0 && !t->sw[t->sw[r].parent].is_virtual))
			continue;
		int n = 0;
		for (int i = 0; i < t->nnodes; i++) {
			int v = t->node_leaf[i];
			while (v != r && v >= 0 && !t->sw[v].is_virtual)
				v = t->sw[v].parent;
			n += v == r && tp_nodeset_test(free, i);
		}
		if (n > best)
			best = n;
	}
	return best;
}

/* The tightest leaf holding n in a one-tree machine, first on ties. */
static int tightest_leaf(const tp_fattree *t, const tp_nodeset *free, int n)
{
	int best = -1, best_cnt = 0;
	for (int v = 0; v < t->nswitch; v++) {
		if (t->sw[v].nchild)
			continue;
		int c = tp_fattree_count_range(free, t->sw[v].node_lo, t->sw[v].node_hi);
		if (c >= n && (best < 0 || c < best_cnt)) {
			best = v;
			best_cnt = c;
		}
	}
	return best;
}

/* -w: one or two of the free nodes required, n > their count.  A valid
 * placement holds them; on one tree it exists iff n nodes are free. */
static void check_required(tp_alloc *s, const tp_fattree *t,
			   const tp_nodeset *free, int n, uint64_t *x)
{
	int nfree = tp_nodeset_count(free), r = 1 + (int)(rnd(x) % 2);
	if (nfree < 3)
		return;
	tp_nodeset need, out, again;
	tp_nodeset_init(&need, t->nnodes);
	tp_nodeset_init(&out, t->nnodes);
	tp_nodeset_init(&again, t->nnodes);
	for (int k = 0; k < r; k++) {
		int skip = (int)(rnd(x) % (uint64_t)nfree), v = tp_nodeset_next(free, 0);
		while (skip--)
			v = tp_nodeset_next(free, v + 1);
		tp_nodeset_set(&need, v);
	}
	r = tp_nodeset_count(&need);
	if (n <= r)
		n = r + 1;
	tp_alloc_req req = { .nodes = n, .required = &need };
	int rc = tp_alloc_place_req(s, free, &req, &out);
	if (!t->sw[t->root].is_virtual)
		QUIET_EQ(rc == 0, nfree >= n);
	if (rc == 0) {
		QUIET_EQ(tp_nodeset_count(&out), n);
		QUIET(tp_nodeset_subset(&need, &out));
		QUIET(tp_nodeset_subset(&out, free));
		QUIET_EQ(tp_alloc_place_req(s, free, &req, &again), 0);
		QUIET(tp_nodeset_equal(&out, &again));
	}
	tp_nodeset_fini(&need);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&again);
}

/* The lowest free node (26.05's one-node jobs). */
static int lowest_free(const tp_nodeset *free)
{
	return tp_nodeset_next(free, 0);
}

static void check_random(tp_fattree *t, uint64_t *x, int rounds, const char *name)
{
	bool v2605 = !strcmp(name, "tree-slurm-26.05");
	tp_alloc *s = make(name, t), *old = make("tree-slurm", t);
	tp_nodeset same;
	tp_nodeset_init(&same, t->nnodes);
	int nn = t->nnodes;
	tp_nodeset free, out, again, within;
	tp_nodeset_init(&free, nn);
	tp_nodeset_init(&out, nn);
	tp_nodeset_init(&again, nn);
	tp_nodeset_init(&within, nn);
	for (int r = 0; r < rounds; r++) {
		int p = (int)(rnd(x) % 101);
		tp_nodeset_zero(&free);
		for (int i = 0; i < nn; i++)
			if ((int)(rnd(x) % 100) < p)
				tp_nodeset_set(&free, i);
		int n = 1 + (int)(rnd(x) % (uint64_t)nn);
		if (v2605 && rnd(x) % 4 == 0)
			n = 1;  /* the rule that differs: often */
		int rc = tp_alloc_place(s, &free, n, &out);
		QUIET_EQ(rc == 0, most_in_one_tree(t, &free) >= n);
		if (rc) {
			QUIET_EQ(tp_nodeset_count(&out), 0);
			continue;
		}
		QUIET_EQ(tp_nodeset_count(&out), n);
		tp_nodeset_copy(&within, &out);
		tp_nodeset_andnot(&within, &free);
		QUIET_EQ(tp_nodeset_count(&within), 0);
		/* deterministic, and no state kept between calls */
		tp_alloc *fresh = make(name, t);
		QUIET_EQ(tp_alloc_place(fresh, &free, n, &again), 0);
		QUIET(tp_nodeset_equal(&out, &again));
		unmake(fresh);
		QUIET_EQ(tp_alloc_place(s, &free, n, &again), 0);
		QUIET(tp_nodeset_equal(&out, &again));
		/* 26.05: one node is the lowest free one; more: as 24.11 */
		if (v2605 && n == 1) {
			QUIET(tp_nodeset_test(&out, lowest_free(&free)));
		} else if (v2605) {
			QUIET_EQ(tp_alloc_place(old, &free, n, &same), 0);
			QUIET(tp_nodeset_equal(&out, &same));
		}
		/* one tree whose leaf holds the job: that leaf, lowest nodes */
		int leaf = t->sw[t->root].is_virtual || (v2605 && n == 1)
				   ? -1 : tightest_leaf(t, &free, n);
		if (leaf >= 0) {
			int k = 0;
			for (int i = t->sw[leaf].node_lo; i < t->sw[leaf].node_hi && k < n; i++)
				if (tp_nodeset_test(&free, i)) {
					QUIET(tp_nodeset_test(&out, i));
					k++;
				}
		}
		/* --switches: the same placement when it keeps to the limit */
		int mg = 1 + (int)(rnd(x) % 4);
		int touched = tp_groups_touched(s->groups, &out);
		tp_alloc_req req = { .nodes = n, .max_groups = mg };
		int rcg = tp_alloc_place_req(s, &free, &req, &again);
		QUIET_EQ(rcg == 0, touched <= mg);
		if (rcg == 0)
			QUIET(tp_nodeset_equal(&out, &again));
		QUIET(tp_alloc_cost(s, &out) >= 0);
		check_required(s, t, &free, n, x);
	}
	unmake(s);
	unmake(old);
	tp_nodeset_fini(&same);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&again);
	tp_nodeset_fini(&within);
}

START_TEST(test_random_properties)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	static const int shapes[][2] = { { 1, 4 }, { 2, 2 }, { 2, 5 }, { 3, 3 },
					 { 3, 4 }, { 4, 3 }, { 4, 2 } };
	for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		tp_fattree *t = gen(shapes[k][0], shapes[k][1]);
		check_random(t, &x, 400, "tree-slurm");
		check_random(t, &x, 400, "tree-slurm-26.05");
		tp_fattree_free(t);
	}
	/* irregular: two trees of different depth, leaves of 1..5 nodes */
	tp_fattree *t = load("irr.conf",
		"SwitchName=a Nodes=a[1-5]\nSwitchName=b Nodes=b1\n"
		"SwitchName=e Nodes=e[1-3]\nSwitchName=m Switches=a,b\n"
		"SwitchName=m2 Switches=e\nSwitchName=r1 Switches=m,m2\n"
		"SwitchName=c Nodes=c[1-4]\nSwitchName=d Nodes=d[1-2]\n"
		"SwitchName=r2 Switches=c,d\n");
	check_random(t, &x, 2000, "tree-slurm");
	check_random(t, &x, 2000, "tree-slurm-26.05");
	tp_fattree_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc_tree_slurm");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_create);
	tcase_add_test(tc, test_closer_beats_tighter);
	tcase_add_test(tc, test_ancestor_counts_drop);
	tcase_add_test(tc, test_best_fit_and_ties);
	tcase_add_test(tc, test_top_switch);
	tcase_add_test(tc, test_required);
	tcase_add_test(tc, test_one_node_2605);
	tcase_add_test(tc, test_random_properties);
	suite_add_tcase(s, tc);
	if (tmpdir_make("check_alloc_tree_slurm")) {
		perror(tmpdir);
		return EXIT_FAILURE;
	}
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
