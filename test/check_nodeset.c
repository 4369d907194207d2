/* check_nodeset.c - unit tests for nodeset.c. */
#include "check_util.h"
#include "model/nodeset.h"

#include <string.h>

START_TEST(test_set_range_and_count)
{
	/* Word boundaries are where bitmap code goes wrong. */
	static const int edges[] = { 0, 1, 5, 62, 63, 64, 65, 100, 127, 128, 129, 191, 192, 200 };
	const int ne = sizeof(edges) / sizeof(*edges);
	static const int sizes[] = { 1, 63, 64, 65, 128, 129, 200 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		int n = sizes[k];
		tp_nodeset s;
		ck_assert_int_eq(tp_nodeset_init(&s, n), 0);
		for (int a = 0; a < ne && edges[a] < n; a++)
			for (int b = a; b < ne && edges[b] <= n; b++) {
				int lo = edges[a], hi = edges[b];
				tp_nodeset_zero(&s);
				tp_nodeset_set_range(&s, lo, hi);
				ck_assert_int_eq(tp_nodeset_count(&s), hi - lo);
				int bad = 0;
				for (int i = 0; i < n; i++)
					bad += tp_nodeset_test(&s, i) != (i >= lo && i < hi);
				ck_assert_int_eq(bad, 0);
				ck_assert_int_eq(tp_nodeset_count_range(&s, 0, n), hi - lo);
			}
		tp_nodeset_fini(&s);
	}
}
END_TEST

START_TEST(test_next_and_format)
{
	tp_nodeset s;
	tp_nodeset_init(&s, 130);
	tp_nodeset_set_range(&s, 0, 4);
	tp_nodeset_set(&s, 8);
	tp_nodeset_set_range(&s, 63, 66);
	tp_nodeset_set(&s, 129);
	ck_assert_int_eq(tp_nodeset_next(&s, 4), 8);
	ck_assert_int_eq(tp_nodeset_next(&s, 9), 63);
	ck_assert_int_eq(tp_nodeset_next(&s, 66), 129);
	ck_assert_int_eq(tp_nodeset_next(&s, 130), -1);
	char *txt = tp_nodeset_format(&s);
	ck_assert_str_eq(txt, "0-3,8,63-65,129");
	free(txt);
	ck_assert_int_eq(tp_nodeset_count_range(&s, 2, 64), 4);
	tp_nodeset_fini(&s);
}
END_TEST

START_TEST(test_set_algebra)
{
	tp_nodeset a, b, c;
	tp_nodeset_init(&a, 100);
	tp_nodeset_init(&b, 100);
	tp_nodeset_init(&c, 100);
	tp_nodeset_set_range(&a, 10, 60);
	tp_nodeset_set_range(&b, 50, 90);
	ck_assert(tp_nodeset_intersects(&a, &b));
	tp_nodeset_copy(&c, &a);
	tp_nodeset_andnot(&c, &b);
	ck_assert_int_eq(tp_nodeset_count(&c), 40);
	ck_assert(tp_nodeset_subset(&c, &a));
	ck_assert(!tp_nodeset_subset(&a, &c));
	ck_assert(!tp_nodeset_intersects(&c, &b));
	tp_nodeset_or(&c, &b);
	ck_assert_int_eq(tp_nodeset_count(&c), 80);
	tp_nodeset_and(&c, &a);
	ck_assert(tp_nodeset_equal(&c, &a));
	tp_nodeset_fill(&c);
	ck_assert_int_eq(tp_nodeset_count(&c), 100);
	tp_nodeset_fini(&a);
	tp_nodeset_fini(&b);
	tp_nodeset_fini(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nodeset");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_set_range_and_count);
	tcase_add_test(tc, test_next_and_format);
	tcase_add_test(tc, test_set_algebra);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
