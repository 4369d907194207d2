/* check_name_index.c - base/name_index.h: every name finds its index
 * while the table grows, absent names find none, a zeroed index is
 * empty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "base/name_index.h"

#define N 5000

START_TEST(test_grow_and_find)
{
	char **names = calloc(N, sizeof(*names));
	tp_name_index x = { 0 };
	ck_assert_int_eq(tp_name_index_find(&x, names, "n0"), -1);
	for (int i = 0; i < N; i++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "n%d", i);
		names[i] = strdup(buf);
		ck_assert_int_eq(tp_name_index_find(&x, names, buf), -1);
		ck_assert_int_eq(tp_name_index_add(&x, names), 0);
		ck_assert_int_eq(x.count, i + 1);
		ck_assert_int_ge(x.cap, 2 * x.count); /* at most half full */
	}
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(tp_name_index_find(&x, names, names[i]), i);
	ck_assert_int_eq(tp_name_index_find(&x, names, "n5000"), -1);
	ck_assert_int_eq(tp_name_index_find(&x, names, ""), -1);
	tp_name_index_fini(&x);
	ck_assert_int_eq(x.cap, 0);
	ck_assert_int_eq(tp_name_index_find(&x, names, "n1"), -1);
	for (int i = 0; i < N; i++)
		free(names[i]);
	free(names);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("name_index");
	TCase *tc = tcase_create("index");
	tcase_add_test(tc, test_grow_and_find);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
