/* check_alloc_fattree_nodes.c - unit tests for the default fat-tree
 * allocator "fattree" (alloc_fattree_nodes.c, fattree_nodedp.c): the least
 * node-level hop sum over the free nodes of one fabric. */
#include "check_util.h"
#include "tmpdir_util.h"
#include "alloc/alloc.h"
#include "alloc/alloc_fattree_nodes.h"
#include "topology/fattree.h"
#include "trace/rng.h"

#include <string.h>

#define QUIET(cond) do { if (!(cond)) ck_abort_msg("failed: %s", #cond); } while (0)
#define QUIET_EQ(a, b) do { long long qa_ = (a), qb_ = (b); \
	if (qa_ != qb_) ck_abort_msg("failed: %s == %s (%lld != %lld)", #a, #b, qa_, qb_); } while (0)

static tp_fattree *load(const char *name, const char *text)
{
	tp_error err = { { 0 } };
	tp_fattree *t = tp_fattree_load(tmpdir_write(name, text), &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static tp_fattree *gen(int levels, int width)
{
	tp_error err = { { 0 } };
	tp_fattree *t = tp_fattree_generate(levels, width, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static tp_alloc *make(const char *name, const tp_fattree *t)
{
	tp_error err = { { 0 } };
	tp_alloc_cfg cfg = { .nnodes = t->nnodes, .fattree = t };
	tp_alloc *a = tp_alloc_create(name, &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	return a;
}

/* The node-level hop sum by its definition: routers between every pair. */
static long long pair_cost(const tp_fattree *t, const tp_nodeset *s)
{
	long long sum = 0;
	for (int a = tp_nodeset_next(s, 0); a >= 0; a = tp_nodeset_next(s, a + 1))
		for (int b = tp_nodeset_next(s, a + 1); b >= 0;
		     b = tp_nodeset_next(s, b + 1))
			sum += tp_fattree_hops(t, a, b);
	return sum;
}

static void random_free(tp_rng *r, tp_nodeset *free, int n, int pct)
{
	tp_nodeset_zero(free);
	for (int i = 0; i < n; i++)
		if ((int)(tp_rng_next(r) % 100) < pct)
			tp_nodeset_set(free, i);
}

/* Least pair_cost over the k-subsets of `free` within one fabric, by
 * enumeration (nodes <= 20); -1 when none.  *kept (if keep): the fewest
 * nodes of keep among the least-cost subsets. */
static long long brute_keep(const tp_fattree *t, const tp_nodeset *free, int k,
			    const tp_nodeset *keep, int *kept)
{
	int n = t->nnodes;
	long long best = -1;
	tp_nodeset s;
	tp_nodeset_init(&s, n);
	for (uint32_t m = 0; m < (1u << n); m++) {
		if (__builtin_popcount(m) != k)
			continue;
		bool ok = true;
		tp_nodeset_zero(&s);
		for (int i = 0; i < n && ok; i++)
			if (m >> i & 1) {
				ok = tp_nodeset_test(free, i);
				tp_nodeset_set(&s, i);
			}
		if (!ok || tp_fattree_set_fabric(t, &s, NULL) < 0)
			continue;
		long long c = pair_cost(t, &s);
		int kk = 0;
		for (int i = 0; keep && i < n; i++)
			kk += (m >> i & 1) && tp_nodeset_test(keep, i);
		if (best < 0 || c < best || (c == best && kept && kk < *kept)) {
			if (kept)
				*kept = kk;
			best = c;
		}
	}
	tp_nodeset_fini(&s);
	return best;
}

static long long brute(const tp_fattree *t, const tp_nodeset *free, int k)
{
	return brute_keep(t, free, k, NULL, NULL);
}

static int count_in(const tp_nodeset *a, const tp_nodeset *b)
{
	int c = 0;
	for (int i = tp_nodeset_next(a, 0); i >= 0; i = tp_nodeset_next(a, i + 1))
		c += tp_nodeset_test(b, i);
	return c;
}

/* A request that keeps nodes free now: still a least-cost placement,
 * with as few kept nodes as any least-cost placement has. */
static void check_keep_against_brute(const char *conf, int cases)
{
	tp_fattree *t = load("tree.conf", conf);
	tp_alloc *a = make("fattree", t);
	tp_rng r;
	tp_rng_seed(&r, 77);
	tp_nodeset free, keep, out;
	tp_nodeset_init(&free, t->nnodes);
	tp_nodeset_init(&keep, t->nnodes);
	tp_nodeset_init(&out, t->nnodes);
	for (int c = 0; c < cases; c++) {
		random_free(&r, &free, t->nnodes, 40 + (int)(tp_rng_next(&r) % 60));
		random_free(&r, &keep, t->nnodes, 50);
		tp_nodeset_and(&keep, &free);
		int k = 1 + (int)(tp_rng_next(&r) % (unsigned)t->nnodes), kept = 0;
		long long want = brute_keep(t, &free, k, &keep, &kept);
		tp_alloc_req req = { .nodes = k, .keep_free = &keep };
		int rc = tp_alloc_place_req(a, &free, &req, &out);
		QUIET_EQ(rc, want < 0 ? -1 : 0);
		if (rc)
			continue;
		QUIET_EQ(pair_cost(t, &out), want);
		QUIET_EQ(count_in(&out, &keep), kept);
	}
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&keep);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}

/* Every answer is a least-cost placement within one fabric, its reported
 * cost is its cost, and it refuses only when no fabric holds the job. */
static void check_against_brute(const char *conf, int cases)
{
	tp_fattree *t = load("tree.conf", conf);
	tp_alloc *a = make("fattree", t);
	tp_rng r;
	tp_rng_seed(&r, 42);
	tp_nodeset free, out;
	tp_nodeset_init(&free, t->nnodes);
	tp_nodeset_init(&out, t->nnodes);
	for (int c = 0; c < cases; c++) {
		random_free(&r, &free, t->nnodes, 20 + (int)(tp_rng_next(&r) % 80));
		int k = 1 + (int)(tp_rng_next(&r) % (unsigned)t->nnodes);
		long long want = brute(t, &free, k);
		int64_t cost = -1;
		int rc = tp_fattree_nodes_place_cost(a, &free, k, &out, &cost);
		if (want < 0) {
			QUIET_EQ(rc, -1);
			continue;
		}
		QUIET_EQ(rc, 0);
		QUIET_EQ(tp_nodeset_count(&out), k);
		QUIET(tp_nodeset_subset(&out, &free));
		QUIET(tp_fattree_set_fabric(t, &out, NULL) >= 0);
		QUIET_EQ(pair_cost(t, &out), want);
		QUIET_EQ(cost, want);
		/* place() gives the same placement */
		tp_nodeset o2;
		tp_nodeset_init(&o2, t->nnodes);
		QUIET_EQ(tp_alloc_place(a, &free, k, &o2), 0);
		QUIET(tp_nodeset_equal(&o2, &out));
		tp_nodeset_fini(&o2);
	}
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}

/* 16 nodes, 4 leaves of 4 under two middle switches and a root. */
#define REGULAR \
	"SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\n" \
	"SwitchName=l3 Nodes=n[9-12]\nSwitchName=l4 Nodes=n[13-16]\n" \
	"SwitchName=m1 Switches=l[1-2]\nSwitchName=m2 Switches=l[3-4]\n" \
	"SwitchName=top Switches=m[1-2]\n"
/* Leaves at three depths and of unequal sizes. */
#define UNEVEN \
	"SwitchName=a Nodes=n[1-3]\nSwitchName=b Nodes=n[4-5]\n" \
	"SwitchName=c Nodes=n[6-9]\nSwitchName=d Nodes=n[10-11]\n" \
	"SwitchName=e Nodes=n[12-14]\n" \
	"SwitchName=x Switches=a,b\nSwitchName=y Switches=x,c\n" \
	"SwitchName=top Switches=y,d,e\n"
/* Two fabrics without a spine, one a lone leaf. */
#define TWO_FABRICS \
	"SwitchName=a1 Nodes=n[1-3]\nSwitchName=a2 Nodes=n[4-6]\n" \
	"SwitchName=A Switches=a[1-2]\nSwitchName=lone Nodes=n[7-10]\n"

START_TEST(test_least_cost_regular)
{
	check_against_brute(REGULAR, 400);
}
END_TEST

START_TEST(test_least_cost_uneven)
{
	check_against_brute(UNEVEN, 400);
}
END_TEST

START_TEST(test_least_cost_two_fabrics)
{
	check_against_brute(TWO_FABRICS, 400);
}
END_TEST

START_TEST(test_keep_free)
{
	check_keep_against_brute(REGULAR, 300);
	check_keep_against_brute(UNEVEN, 300);
	check_keep_against_brute(TWO_FABRICS, 300);
}
END_TEST

static void set_names(const tp_fattree *t, tp_nodeset *s, const char *const *names)
{
	tp_nodeset_zero(s);
	for (; *names; names++)
		tp_nodeset_set(s, tp_fattree_node_index(t, *names));
}

static void assert_placed(const tp_fattree *t, tp_alloc *a, const tp_nodeset *free,
			  int k, const char *want)
{
	tp_nodeset out;
	tp_nodeset_init(&out, t->nnodes);
	ck_assert_int_eq(tp_alloc_place(a, free, k, &out), 0);
	char got[256] = "";
	for (int v = tp_nodeset_next(&out, 0); v >= 0; v = tp_nodeset_next(&out, v + 1))
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 *got ? "," : "", t->node_name[v]);
	ck_assert_str_eq(got, want);
	tp_nodeset_fini(&out);
}

/* Ties of equal cost, worked by hand: the fewest free nodes over the
 * switches above each node placed, summed, wins (best fit at every
 * level). */
START_TEST(test_ties_best_fit)
{
	tp_fattree *t = load("regular.conf", REGULAR);
	tp_alloc *a = make("fattree", t);
	tp_nodeset free;
	tp_nodeset_init(&free, t->nnodes);
	/* l1 all free, l2 two free (n5,n6), l3 all free, l4 three free */
	set_names(t, &free, (const char *const[]){ "n1", "n2", "n3", "n4", "n5",
		"n6", "n9", "n10", "n11", "n12", "n14", "n15", "n16", NULL });
	/* m1 has 6 free nodes, m2 7, top 13 (the same above every node).
	 * 2 nodes: one leaf (1 hop); per node l2 + m1 = 2 + 6 beats l1's
	 * 4 + 6, l3's 4 + 7 and l4's 3 + 7 */
	assert_placed(t, a, &free, 2, "n5,n6");
	/* 3 nodes: l1 (4 + 6), l3 (4 + 7) or l4 (3 + 7): l1 and l4 tie, the
	 * earlier wins */
	assert_placed(t, a, &free, 3, "n1,n2,n3");
	/* 4 nodes: l1 (4 + 6) or l3 (4 + 7) */
	assert_placed(t, a, &free, 4, "n1,n2,n3,n4");
	/* 6 nodes: l1 + l2 (6 + 16 = 22, plus C(6,2)) beats any split
	 * across m1 and m2; the same cost in m2 (l3 + two of l4: 4 x 11 +
	 * 2 x 10) loses the tie to m1 (4 x 10 + 2 x 8) */
	assert_placed(t, a, &free, 6, "n1,n2,n3,n4,n5,n6");
	/* 1 node: l2 + m1 = 8, the fewest */
	assert_placed(t, a, &free, 1, "n5");
	tp_nodeset_fini(&free);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

/* Equal cost and equal free nodes above: the smaller fabric, whose nodes
 * fewer jobs can use. */
START_TEST(test_ties_smaller_fabric)
{
	/* two lone leaves, each its own fabric (as maatthias-site's) */
	tp_fattree *t = load("lone.conf", "SwitchName=big Nodes=n[1-4]\n"
				       "SwitchName=small Nodes=n[5-6]\n");
	tp_alloc *a = make("fattree", t);
	tp_nodeset free;
	tp_nodeset_init(&free, t->nnodes);
	set_names(t, &free, (const char *const[]){ "n1", "n5", NULL });
	assert_placed(t, a, &free, 1, "n5");
	/* with more free nodes in the small fabric, the larger one's
	 * single free node is the better fit */
	set_names(t, &free, (const char *const[]){ "n1", "n5", "n6", NULL });
	assert_placed(t, a, &free, 1, "n1");
	tp_nodeset_fini(&free);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

/* Feasibility is Slurm's tree's: it fits exactly when one fabric has the
 * nodes, and one fabric's tree is flat (counts decide), two are not. */
START_TEST(test_feasibility_by_count)
{
	tp_fattree *t = load("two.conf", TWO_FABRICS);
	tp_alloc *a = make("fattree", t);
	ck_assert(!tp_alloc_is_flat(a));
	ck_assert(tp_alloc_is_monotone(a));
	tp_rng r;
	tp_rng_seed(&r, 5);
	tp_nodeset free, out;
	tp_nodeset_init(&free, t->nnodes);
	tp_nodeset_init(&out, t->nnodes);
	for (int c = 0; c < 2000; c++) {
		random_free(&r, &free, t->nnodes, 50);
		int fa = 0, fb = 0;
		for (int i = 0; i < 6; i++)
			fa += tp_nodeset_test(&free, i);
		for (int i = 6; i < 10; i++)
			fb += tp_nodeset_test(&free, i);
		int k = 1 + (int)(tp_rng_next(&r) % 8);
		int rc = tp_alloc_place(a, &free, k, &out);
		QUIET_EQ(rc == 0, k <= fa || k <= fb);
		tp_alloc_req probe = { .nodes = k, .probe = true };
		QUIET_EQ(tp_alloc_place_req(a, &free, &probe, &out) == 0,
			 k <= fa || k <= fb);
	}
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
	t = gen(3, 4);
	a = make("fattree", t);
	ck_assert(tp_alloc_is_flat(a));
	ck_assert(tp_alloc_is_monotone(a));
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

/* Carried tables and answers change no answer: a sequence of free sets
 * that changes a little at a time, as a replay's does, answered by a
 * carrying allocator and by one that builds every answer afresh. */
START_TEST(test_carry_same_answers)
{
	tp_fattree *trees[] = { gen(3, 4), gen(2, 8), load("uneven.conf", UNEVEN),
				load("two.conf", TWO_FABRICS) };
	for (size_t ti = 0; ti < sizeof(trees) / sizeof(trees[0]); ti++) {
		tp_fattree *t = trees[ti];
		tp_alloc *a = make("fattree", t), *b = make("fattree", t);
		tp_fattree_nodes_carry(b, false);
		tp_rng r;
		tp_rng_seed(&r, 11 + ti);
		tp_nodeset free, o1, o2;
		tp_nodeset_init(&free, t->nnodes);
		tp_nodeset_init(&o1, t->nnodes);
		tp_nodeset_init(&o2, t->nnodes);
		tp_nodeset_fill(&free);
		for (int step = 0; step < 3000; step++) {
			int v = (int)(tp_rng_next(&r) % (unsigned)t->nnodes);
			if (tp_nodeset_test(&free, v))
				tp_nodeset_clear(&free, v);
			else
				tp_nodeset_set(&free, v);
			int k = 1 + (int)(tp_rng_next(&r) % (unsigned)t->nnodes);
			int r1 = tp_alloc_place(a, &free, k, &o1);
			int r2 = tp_alloc_place(b, &free, k, &o2);
			QUIET_EQ(r1, r2);
			QUIET(r1 || tp_nodeset_equal(&o1, &o2));
		}
		tp_nodeset_fini(&free);
		tp_nodeset_fini(&o1);
		tp_nodeset_fini(&o2);
		tp_alloc_destroy(a);
		tp_alloc_destroy(b);
		tp_fattree_free(t);
	}
}
END_TEST

/* On an idle machine the cost is the least any k nodes can have: whole
 * leaves under one switch; a 64-node tree of 4-node leaves, by hand. */
START_TEST(test_idle_tree_by_hand)
{
	tp_fattree *t = gen(3, 4);
	tp_alloc *a = make("fattree", t);
	tp_nodeset free, out;
	tp_nodeset_init(&free, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_fill(&free);
	int64_t cost;
	/* 4 nodes: one leaf, C(4,2) = 6 */
	ck_assert_int_eq(tp_fattree_nodes_place_cost(a, &free, 4, &out, &cost), 0);
	ck_assert_int_eq(cost, 6);
	/* 6: a leaf and two of its neighbour: 15 pairs + 4*2 + 2*4 = 31 */
	ck_assert_int_eq(tp_fattree_nodes_place_cost(a, &free, 6, &out, &cost), 0);
	ck_assert_int_eq(cost, 31);
	/* 20: a whole middle switch (16) and a leaf of the next, by the link
	 * formula C(20,2) + sum x (k - x): 190 pairs, five leaves of
	 * 4 * 16 = 64, the two middle switches 16 * 4 + 4 * 16 = 128 */
	ck_assert_int_eq(tp_fattree_nodes_place_cost(a, &free, 20, &out, &cost), 0);
	ck_assert_int_eq(cost, 190 + 5 * 64 + 128);
	ck_assert_int_eq(pair_cost(t, &out), cost);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

int main(void)
{
	if (tmpdir_make("check_alloc_fattree_nodes"))
		return EXIT_FAILURE;
	Suite *s = suite_create("alloc_fattree_nodes");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_least_cost_regular);
	tcase_add_test(tc, test_least_cost_uneven);
	tcase_add_test(tc, test_least_cost_two_fabrics);
	tcase_add_test(tc, test_keep_free);
	tcase_add_test(tc, test_ties_best_fit);
	tcase_add_test(tc, test_ties_smaller_fabric);
	tcase_add_test(tc, test_feasibility_by_count);
	tcase_add_test(tc, test_carry_same_answers);
	tcase_add_test(tc, test_idle_tree_by_hand);
	suite_add_tcase(s, tc);
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
