/* check_hostlist.c - unit tests for io/hostlist.c. */
#include "check_util.h"
#include "io/hostlist.h"

#include <stdio.h>
#include <string.h>

/* Expand expr into a fresh list; asserts success and the exact names. */
static void expect_names(const char *expr, const char *const *want, size_t nwant)
{
	tp_hostlist hl = { 0 };
	char err[256] = "";
	ck_assert_msg(tp_hostlist_expand(&hl, expr, err, sizeof(err)) == 0,
		      "'%s': %s", expr, err);
	ck_assert_msg(hl.n == nwant, "'%s': %zu names, want %zu", expr, hl.n, nwant);
	for (size_t i = 0; i < nwant; i++)
		ck_assert_msg(!strcmp(hl.names[i], want[i]), "'%s'[%zu]: '%s', want '%s'",
			      expr, i, hl.names[i], want[i]);
	tp_hostlist_fini(&hl);
}

#define EXPECT(expr, ...)                                                     \
	do {                                                                  \
		static const char *const w_[] = { __VA_ARGS__ };              \
		expect_names(expr, w_, sizeof(w_) / sizeof(*w_));             \
	} while (0)

START_TEST(test_plain_names)
{
	EXPECT("gpu1", "gpu1");
	EXPECT("a,b,c", "a", "b", "c");
	EXPECT("node-1.cluster,x_2", "node-1.cluster", "x_2");
}
END_TEST

START_TEST(test_ranges)
{
	EXPECT("n[1-3]", "n1", "n2", "n3");
	EXPECT("n[9-11]", "n9", "n10", "n11");
	EXPECT("n[0-2]", "n0", "n1", "n2");
	EXPECT("n[5]", "n5");
	EXPECT("n[4-4]", "n4");
	EXPECT("n[1,3,7-8]", "n1", "n3", "n7", "n8");
	/* no prefix, and a suffix after the brackets */
	EXPECT("[1-2]", "1", "2");
	EXPECT("r[1-2]-ib", "r1-ib", "r2-ib");
}
END_TEST

START_TEST(test_zero_padding)
{
	/* the example of hostlist.h */
	EXPECT("n[001-004,7],gpu1", "n001", "n002", "n003", "n004", "n7", "gpu1");
	EXPECT("n[08-11]", "n08", "n09", "n10", "n11");
	EXPECT("n[099-101]", "n099", "n100", "n101");
	EXPECT("n[00-02]", "n00", "n01", "n02");
	EXPECT("n[007]", "n007");
	/* each range keeps its own width */
	EXPECT("n[01-02,003,4]", "n01", "n02", "n003", "n4");
}
END_TEST

START_TEST(test_several_bracketed_items)
{
	/* commas inside brackets separate ranges, outside them items */
	EXPECT("a[1-2],b[08-09],c,d[5]", "a1", "a2", "b08", "b09", "c", "d5");
	EXPECT("rack[1-2]n,rack[3]m", "rack1n", "rack2n", "rack3m");
	EXPECT("x[1,3],y[2,4]", "x1", "x3", "y2", "y4");
}
END_TEST

START_TEST(test_expand_appends)
{
	tp_hostlist hl = { 0 };
	char err[128];
	ck_assert_int_eq(tp_hostlist_expand(&hl, "a[1-2]", err, sizeof(err)), 0);
	ck_assert_int_eq(tp_hostlist_expand(&hl, "b,c[7]", err, sizeof(err)), 0);
	ck_assert_uint_eq(hl.n, 4);
	ck_assert_str_eq(hl.names[0], "a1");
	ck_assert_str_eq(hl.names[1], "a2");
	ck_assert_str_eq(hl.names[2], "b");
	ck_assert_str_eq(hl.names[3], "c7");
	tp_hostlist_fini(&hl);
	ck_assert_uint_eq(hl.n, 0);
	ck_assert_ptr_null(hl.names);
}
END_TEST

START_TEST(test_growth)
{
	tp_hostlist hl = { 0 };
	char err[128], want[32];
	ck_assert_int_eq(tp_hostlist_expand(&hl, "n[00000-19999],last", err, sizeof(err)), 0);
	ck_assert_uint_eq(hl.n, 20001);
	ck_assert_uint_ge(hl.cap, hl.n);
	int bad = 0;
	for (int i = 0; i < 20000; i++) {
		snprintf(want, sizeof(want), "n%05d", i);
		bad += strcmp(hl.names[i], want) != 0;
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_str_eq(hl.names[20000], "last");
	tp_hostlist_fini(&hl);
}
END_TEST

/* Every error returns -1 and names the offending input in the message. */
START_TEST(test_errors_name_bad_input)
{
	static const struct {
		const char *expr, *msg;
	} bad[] = {
		{ "", "empty host name in ''" },
		{ "a,,b", "empty host name in 'a,,b'" },
		{ "a,", "empty host name in 'a,'" },
		{ ",a", "empty host name in ',a'" },
		{ "a, b", "space in hostlist 'a, b'" },
		{ "n[1-2] ", "space in hostlist 'n[1-2] '" },
		{ "n[1-3", "bad hostlist 'n[1-3'" },
		{ "ok,n[]", "bad hostlist 'n[]'" },
		{ "n[1-2]x[3-4]", "bad hostlist 'n[1-2]x[3-4]'" }, /* one bracket per item */
		{ "n]1", "unbalanced ']' in 'n]1'" },
		{ "n[a-b]", "bad range 'a-b'" },
		{ "n[1x]", "bad range '1x'" },
		{ "n[1-2x]", "bad range '1-2x'" },
		{ "n[1-]", "bad range '1-'" },
		{ "n[-1]", "bad range '-1'" },
		{ "n[3-1]", "bad range '3-1'" },
		{ "n[1,2,9-x]", "bad range '9-x'" },
		{ "n[1-99999999]", "bad range '1-99999999'" },
		{ "a,n[x],b", "bad range 'x'" },
		/* numbers past a long: refused, not an endless loop */
		{ "n[99999999999999999999]", "bad range '99999999999999999999'" },
		{ "n[9223372036854775807]", "bad range '9223372036854775807'" },
		{ "n[+1-+2]", "bad range '+1-+2'" },
		/* a stray ']' would stop commas from splitting items */
		{ "a[1-2]],b", "unbalanced ']' in 'a[1-2]],b'" },
		{ "n[1-2]]", "unbalanced ']' in 'n[1-2]]'" },
		/* empty members of a range list */
		{ "n[,]", "empty range in ','" },
		{ "n[1,,2]", "empty range in '1,,2'" },
		{ "n[1,]", "empty range in '1,'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		tp_hostlist hl = { 0 };
		char err[256] = "";
		ck_assert_msg(tp_hostlist_expand(&hl, bad[i].expr, err, sizeof(err)) == -1,
			      "'%s' accepted", bad[i].expr);
		ck_assert_msg(strstr(err, bad[i].msg), "'%s': got '%s', want '%s'",
			      bad[i].expr, err, bad[i].msg);
		tp_hostlist_fini(&hl); /* partial results are freed, no leak */
		ck_assert_uint_eq(hl.n, 0);
	}
}
END_TEST

START_TEST(test_name_too_long)
{
	char expr[400];
	memset(expr, 'a', 300);
	strcpy(expr + 300, "[1-2]");
	tp_hostlist hl = { 0 };
	char err[128] = "";
	ck_assert_int_eq(tp_hostlist_expand(&hl, expr, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "too long"));
	tp_hostlist_fini(&hl);
}
END_TEST

START_TEST(test_error_keeps_list_usable)
{
	tp_hostlist hl = { 0 };
	char err[128];
	ck_assert_int_eq(tp_hostlist_expand(&hl, "a[1-3]", err, sizeof(err)), 0);
	ck_assert_int_eq(tp_hostlist_expand(&hl, "b[1-2],c[z]", err, sizeof(err)), -1);
	/* what came before the failing call is still there */
	ck_assert_uint_ge(hl.n, 3);
	ck_assert_str_eq(hl.names[0], "a1");
	ck_assert_str_eq(hl.names[2], "a3");
	tp_hostlist_fini(&hl);
	/* and a list is reusable after fini */
	ck_assert_int_eq(tp_hostlist_expand(&hl, "z[9]", err, sizeof(err)), 0);
	ck_assert_uint_eq(hl.n, 1);
	ck_assert_str_eq(hl.names[0], "z9");
	tp_hostlist_fini(&hl);
}
END_TEST

START_TEST(test_small_errbuf_truncates)
{
	tp_hostlist hl = { 0 };
	char err[8];
	memset(err, 'X', sizeof(err));
	ck_assert_int_eq(tp_hostlist_expand(&hl, "n[bad-range-here]", err, sizeof(err)), -1);
	ck_assert_uint_eq(strlen(err), sizeof(err) - 1);
	ck_assert_str_eq(err, "bad ran");
	tp_hostlist_fini(&hl);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hostlist");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_plain_names);
	tcase_add_test(tc, test_ranges);
	tcase_add_test(tc, test_zero_padding);
	tcase_add_test(tc, test_several_bracketed_items);
	tcase_add_test(tc, test_expand_appends);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_errors_name_bad_input);
	tcase_add_test(tc, test_name_too_long);
	tcase_add_test(tc, test_error_keeps_list_usable);
	tcase_add_test(tc, test_small_errbuf_truncates);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
