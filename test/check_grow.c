/* check_grow.c - base/grow.h: appends keep every element, the capacity
 * doubles from the first size, and a size that cannot be had leaves the
 * array as it was. */
#include <stdint.h>
#include <stdlib.h>

#include "check_util.h"
#include "base/grow.h"

START_TEST(appends_keep_elements)
{
	int *a = NULL;
	size_t n = 0, cap = 0;
	for (int i = 0; i < 1000; i++) {
		int *p = tp_grow(a, &cap, n, sizeof(*p), 16);
		ck_assert_ptr_nonnull(p);
		a = p;
		ck_assert_uint_gt(cap, n);
		a[n++] = i * 7;
	}
	/* 16, 32, ..., 1024 */
	ck_assert_uint_eq(cap, 1024);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(a[i], (int)i * 7);
	/* room already there: the same array, the same capacity */
	ck_assert_ptr_eq(tp_grow(a, &cap, 1000, sizeof(*a), 16), a);
	ck_assert_uint_eq(cap, 1024);
	free(a);
}
END_TEST

START_TEST(too_large_changes_nothing)
{
	char *a = malloc(4);
	ck_assert_ptr_nonnull(a);
	size_t cap = SIZE_MAX / 2 + 1;
	/* doubling would overflow: refused, cap kept */
	ck_assert_ptr_null(tp_grow(a, &cap, cap, 1, 16));
	ck_assert_uint_eq(cap, SIZE_MAX / 2 + 1);
	size_t small = 4;
	/* an element size whose product overflows */
	ck_assert_ptr_null(tp_grow(a, &small, 4, SIZE_MAX / 4, 16));
	ck_assert_uint_eq(small, 4);
	free(a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("grow");
	TCase *tc = tcase_create("grow");
	tcase_add_test(tc, appends_keep_elements);
	tcase_add_test(tc, too_large_changes_nothing);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
