/* check_plugin_plan.c - unit tests for plugins/common/tpl_plan.c. */
#include "check_util.h"

#include <string.h>

#include "alloc/alloc.h"
#include "topology/fattree.h"
#include "model/rng.h"
#include "tpl_plan.h"

static tp_alloc *first_free(int n)
{
	tp_alloc_cfg cfg = { .nnodes = n };
	tp_error err;
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	return a;
}

static void set_list(tp_nodeset *s, const int *idx, int n)
{
	tp_nodeset_zero(s);
	for (int i = 0; i < n; i++)
		tp_nodeset_set(s, idx[i]);
}

START_TEST(test_range_prefers_largest_count)
{
	tp_alloc *a = first_free(8);
	tp_nodeset usable, out;
	tp_nodeset_init(&usable, 8);
	tp_nodeset_init(&out, 8);
	set_list(&usable, (int[]){ 1, 3, 4, 7 }, 4);

	/* hi fits: the largest count wins, lowest nodes (first-free). */
	ck_assert_int_eq(tpl_place_range(a, &usable, 2, 3, &out), 3);
	char *txt = tp_nodeset_format(&out);
	ck_assert_str_eq(txt, "1,3-4");
	free(txt);
	/* hi beyond the usable nodes is clamped, not a failure. */
	ck_assert_int_eq(tpl_place_range(a, &usable, 2, 10, &out), 4);
	/* lo beyond them is a failure with an empty result. */
	ck_assert_int_eq(tpl_place_range(a, &usable, 5, 6, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	/* lo < 1 means 1. */
	ck_assert_int_eq(tpl_place_range(a, &usable, 0, 1, &out), 1);

	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
}
END_TEST

START_TEST(test_earliest_by_release_time)
{
	tp_alloc *a = first_free(8);
	tp_nodeset now, out;
	tpl_release rel[3];
	int64_t when = -7;

	tp_nodeset_init(&now, 8);
	tp_nodeset_init(&out, 8);
	tp_nodeset_set(&now, 0);
	for (int i = 0; i < 3; i++)
		tp_nodeset_init(&rel[i].nodes, 8);
	/* Unsorted on purpose; two jobs end together at 20. */
	rel[0].time = 50;
	set_list(&rel[0].nodes, (int[]){ 1, 2 }, 2);
	rel[1].time = 20;
	set_list(&rel[1].nodes, (int[]){ 3 }, 1);
	rel[2].time = 20;
	set_list(&rel[2].nodes, (int[]){ 4 }, 1);

	/* Fits now. */
	ck_assert_int_eq(tpl_place_earliest(a, &now, rel, 3, 1, 1, &out, &when), 1);
	ck_assert_int_eq(when, 0);
	/* 3 nodes: both jobs ending at 20 count together -> {0,3,4} at 20. */
	ck_assert_int_eq(tpl_place_earliest(a, &now, rel, 3, 3, 3, &out, &when), 3);
	ck_assert_int_eq(when, 20);
	char *txt = tp_nodeset_format(&out);
	ck_assert_str_eq(txt, "0,3-4");
	free(txt);
	/* 5 nodes: only after the job ending at 50. */
	ck_assert_int_eq(tpl_place_earliest(a, &now, rel, 3, 5, 5, &out, &when), 5);
	ck_assert_int_eq(when, 50);
	/* 6 nodes: never. */
	ck_assert_int_eq(tpl_place_earliest(a, &now, rel, 3, 6, 6, &out, &when), -1);
	/* The caller's array is not reordered. */
	ck_assert_int_eq(rel[0].time, 50);
	ck_assert_int_eq(rel[1].time, 20);

	for (int i = 0; i < 3; i++)
		tp_nodeset_fini(&rel[i].nodes);
	tp_nodeset_fini(&now);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
}
END_TEST

/* Property: the time returned is the first at which a placement exists,
 * and the placement lies within the nodes free at that time. */
START_TEST(test_earliest_property)
{
	enum { N = 70, R = 12 };
	tp_rng rng;
	tp_rng_seed(&rng, 20240611u);
	tp_alloc *a = first_free(N);
	tp_nodeset now, out, avail, tmp;
	tpl_release rel[R];
	tp_nodeset_init(&now, N);
	tp_nodeset_init(&out, N);
	tp_nodeset_init(&avail, N);
	tp_nodeset_init(&tmp, N);
	for (int r = 0; r < R; r++)
		tp_nodeset_init(&rel[r].nodes, N);

	for (int round = 0; round < 300; round++) {
		/* Each node: free now, or held by one of the R jobs. */
		tp_nodeset_zero(&now);
		for (int r = 0; r < R; r++) {
			tp_nodeset_zero(&rel[r].nodes);
			rel[r].time = 1 + (int64_t)tp_rng_below(&rng, 6);
		}
		for (int i = 0; i < N; i++) {
			int owner = (int)tp_rng_below(&rng, R + 3) - 3;
			if (owner < 0)
				tp_nodeset_set(&now, i);
			else
				tp_nodeset_set(&rel[owner].nodes, i);
		}
		int want = 1 + (int)tp_rng_below(&rng, N);
		int64_t when;
		int k = tpl_place_earliest(a, &now, rel, R, want, want, &out,
					   &when);
		/* Brute force over the times 0..6. */
		int64_t first = -1;
		for (int64_t t = 0; t <= 6 && first < 0; t++) {
			tp_nodeset_copy(&avail, &now);
			for (int r = 0; r < R; r++)
				if (rel[r].time <= t)
					tp_nodeset_or(&avail, &rel[r].nodes);
			if (tp_nodeset_count(&avail) >= want)
				first = t;
		}
		if (first < 0) {
			ck_assert_int_eq(k, -1);
			continue;
		}
		ck_assert_int_eq(k, want);
		ck_assert_int_eq(when, first);
		tp_nodeset_copy(&avail, &now);
		for (int r = 0; r < R; r++)
			if (rel[r].time <= when)
				tp_nodeset_or(&avail, &rel[r].nodes);
		ck_assert(tp_nodeset_subset(&out, &avail));
		ck_assert_int_eq(tp_nodeset_count(&out), want);
	}
	for (int r = 0; r < R; r++)
		tp_nodeset_fini(&rel[r].nodes);
	tp_nodeset_fini(&now);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&tmp);
	tp_alloc_destroy(a);
}
END_TEST

/* With the fat-tree allocator: a 4-node job on a 16-node tree of 4-node
 * leaves goes to one completely free leaf, never across leaves, even when
 * the lowest free nodes would split it. */
START_TEST(test_range_on_fattree)
{
	tp_error err;
	tp_fattree *t = tp_fattree_generate(2, 4, &err);
	ck_assert_msg(t, "%s", err.msg);
	tp_alloc_cfg cfg = { .nnodes = tp_fattree_nnodes(t), .fattree = t };
	tp_alloc *a = tp_alloc_create("fattree", &cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	tp_nodeset usable, out;
	tp_nodeset_init(&usable, 16);
	tp_nodeset_init(&out, 16);
	/* leaf 0: nodes 2,3 free; leaf 2: all free; leaf 3: 12 free. */
	set_list(&usable, (int[]){ 2, 3, 8, 9, 10, 11, 12 }, 7);
	ck_assert_int_eq(tpl_place_range(a, &usable, 4, 4, &out), 4);
	char *txt = tp_nodeset_format(&out);
	ck_assert_str_eq(txt, "8-11");
	free(txt);
	ck_assert_int_eq(tp_alloc_cost(a, &out) >= 0, 1);
	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

static bool have_allocator(const char *name)
{
	for (const char *const *n = tp_alloc_names(); *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

int main(void)
{
	Suite *s = suite_create("plugin_plan");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, test_range_prefers_largest_count);
	tcase_add_test(tc, test_earliest_by_release_time);
	tcase_add_test(tc, test_earliest_property);
	if (have_allocator("fattree"))
		tcase_add_test(tc, test_range_on_fattree);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
