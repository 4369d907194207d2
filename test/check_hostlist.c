/* check_hostlist.c - unit tests for base/hostlist.c. */
#include "check_util.h"
#include "base/hostlist.h"

#include <stdio.h>
#include <stdlib.h>
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

/* A few bytes must not expand to millions of names (found by
 * fuzz/fuzz_hostlist: 269 bytes, 20 million names, 2 GB): one list
 * names at most TP_HOSTLIST_MAX_NAMES hosts, counted per call. */
START_TEST(test_names_bounded)
{
	tp_hostlist hl = { 0 };
	char err[128] = "";
	char full[64], over[80];
	snprintf(full, sizeof(full), "a[0-999999],b[1-%d]",
		 TP_HOSTLIST_MAX_NAMES - 1000000);
	snprintf(over, sizeof(over), "%s,c", full);
	ck_assert_msg(tp_hostlist_expand(&hl, full, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(hl.n, TP_HOSTLIST_MAX_NAMES);
	/* the bound is per list: the next call may add as many again */
	ck_assert_msg(tp_hostlist_expand(&hl, "x", err, sizeof(err)) == 0, "%s", err);
	tp_hostlist_fini(&hl);
	ck_assert_int_eq(tp_hostlist_expand(&hl, over, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "more than 1048576 host names in one list"));
	tp_hostlist_fini(&hl);
	/* the range that would pass the bound is refused unexpanded */
	ck_assert_int_eq(tp_hostlist_expand(&hl, "a[0-999999],b[0-999999]", err,
					    sizeof(err)), -1);
	ck_assert_uint_eq(hl.n, 1000000);
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

/* ---- tp_hostlist_compress ---- */

static void expect_compressed(const char *const *names, size_t n, const char *want)
{
	char *got = tp_hostlist_compress(names, n);
	ck_assert_ptr_nonnull(got);
	ck_assert_msg(!strcmp(got, want), "'%s', want '%s'", got, want);
	free(got);
}

#define COMPRESS(want, ...)                                                   \
	do {                                                                  \
		static const char *const n_[] = { __VA_ARGS__ };              \
		expect_compressed(n_, sizeof(n_) / sizeof(*n_), (want));      \
	} while (0)

START_TEST(test_compress_ranges)
{
	COMPRESS("n[1-4,9],m7", "n1", "n2", "n3", "n4", "n9", "m7");
	COMPRESS("n5", "n5");
	COMPRESS("n[1-2]", "n1", "n2");
	COMPRESS("n[1,3,5]", "n1", "n3", "n5");
	/* numeric, not lexical, order; the number may grow a digit */
	COMPRESS("n[2,9-11]", "n10", "n9", "n2", "n11");
	COMPRESS("n[0-1]", "n0", "n1");
	COMPRESS("rack1-n[3-4]", "rack1-n4", "rack1-n3");
	COMPRESS("[7-8]", "8", "7");
}
END_TEST

START_TEST(test_compress_prefix_order)
{
	/* items in the order their prefixes first appear, each prefix's
	 * numbers gathered and ascending */
	COMPRESS("m7,n[1-2]", "m7", "n2", "n1");
	COMPRESS("b[1-3],a[1-2]", "b1", "a1", "b2", "a2", "b3");
	COMPRESS("n[1-2],nn[1-2]", "n1", "nn1", "n2", "nn2");
}
END_TEST

START_TEST(test_compress_zero_padding)
{
	/* widths stay apart, like Slurm's n01 and n1 (at an equal number
	 * the unpadded range first, as Slurm orders them) */
	COMPRESS("n[1-2,01-02]", "n01", "n1", "n02", "n2");
	COMPRESS("n[01,5]", "n5", "n01");
	COMPRESS("n[001-004,7]", "n001", "n002", "n003", "n004", "n7");
	COMPRESS("n05", "n05");
	COMPRESS("n[00-01]", "n01", "n00");
	COMPRESS("n[01,003]", "n003", "n01");
	/* a number that fills the width continues the padded range */
	COMPRESS("n[098-101]", "n098", "n099", "n100", "n101");
	COMPRESS("n[08-10]", "n08", "n09", "n10");
	COMPRESS("n[99-100]", "n99", "n100");
	/* ... but one with fewer digits than the width does not */
	COMPRESS("n[5,06]", "n5", "n06");
}
END_TEST

START_TEST(test_compress_plain_and_duplicates)
{
	COMPRESS("login,n[1-2],gpu-a", "login", "n1", "gpu-a", "n2");
	COMPRESS("n,n1", "n", "n1");
	COMPRESS("n5a,n[1-2]", "n5a", "n1", "n2");
	/* a suffix too long for a range is part of a plain name */
	COMPRESS("x12345678901,x[1-2]", "x12345678901", "x1", "x2");
	COMPRESS("n[1-3]", "n1", "n2", "n2", "n3", "n1");
	COMPRESS("a", "a", "a");
	COMPRESS("n100", "n100", "n100");
}
END_TEST

START_TEST(test_compress_empty)
{
	char *got = tp_hostlist_compress(NULL, 0);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "");
	free(got);
}
END_TEST

START_TEST(test_compress_large)
{
	enum { N = 49152 };
	char (*buf)[16] = malloc(N * sizeof(*buf));
	const char **names = malloc(N * sizeof(*names));
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(names);
	/* a whole machine but every 1000th node, the nodes in reverse */
	size_t n = 0;
	for (int i = N; i >= 1; i--)
		if (i % 1000) {
			snprintf(buf[n], sizeof(buf[n]), "n%d", i);
			names[n] = buf[n];
			n++;
		}
	char *got = tp_hostlist_compress(names, n);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(strncmp(got, "n[1-999,1001-1999,", 18), 0);
	ck_assert_msg(strlen(got) < 700, "%zu bytes", strlen(got));
	const char *tail = ",49001-49152]";
	ck_assert_str_eq(got + strlen(got) - strlen(tail), tail);
	free(got);
	free(names);
	free(buf);
}
END_TEST

/* Deterministic pseudo-random numbers for the round trip. */
static unsigned next_rand(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 16) & 0x7fff;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted names without repeats, in place; their new count. */
static size_t sort_unique(char **v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_str);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || strcmp(v[k - 1], v[i]))
			v[k++] = v[i];
	return k;
}

/* One random set: prefixes, paddings, plain names and repeats mixed. */
static size_t random_names(unsigned *seed, char (*buf)[24], char **names)
{
	static const char *const prefix[] = { "n", "m", "rack2-n", "" };
	static const char *const fmt[] = { "%s%d", "%s%02d", "%s%03d", "%s%d" };
	size_t n = 1 + next_rand(seed) % 60;
	for (size_t i = 0; i < n; i++) {
		const char *p = prefix[next_rand(seed) % 4];
		if (next_rand(seed) % 20 == 0)
			snprintf(buf[i], sizeof(buf[i]), "%sx", p);
		else
			snprintf(buf[i], sizeof(buf[i]), fmt[next_rand(seed) % 4], p,
				 (int)(next_rand(seed) % 130));
		names[i] = buf[i];
	}
	return n;
}

/* Whatever the names, expanding the expression gives them back. */
START_TEST(test_compress_round_trip)
{
	unsigned seed = 12345;
	char buf[60][24], *names[60], err[128];
	for (int round = 0; round < 2000; round++) {
		size_t n = random_names(&seed, buf, names);
		char *expr = tp_hostlist_compress((const char *const *)names, n);
		ck_assert_ptr_nonnull(expr);
		tp_hostlist hl = { 0 };
		ck_assert_msg(tp_hostlist_expand(&hl, expr, err, sizeof(err)) == 0,
			      "'%s': %s", expr, err);
		size_t nw = sort_unique(names, n);
		ck_assert_msg(hl.n == nw, "'%s': %zu names, want %zu", expr, hl.n, nw);
		size_t ng = sort_unique(hl.names, hl.n);
		ck_assert_msg(ng == nw, "'%s' repeats a name", expr);
		for (size_t i = 0; i < nw; i++)
			ck_assert_msg(!strcmp(hl.names[i], names[i]), "'%s': '%s', want '%s'",
				      expr, hl.names[i], names[i]);
		free(expr);
		tp_hostlist_fini(&hl);
	}
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
	tcase_add_test(tc, test_names_bounded);
	tcase_add_test(tc, test_error_keeps_list_usable);
	tcase_add_test(tc, test_small_errbuf_truncates);
	tcase_add_test(tc, test_compress_ranges);
	tcase_add_test(tc, test_compress_prefix_order);
	tcase_add_test(tc, test_compress_zero_padding);
	tcase_add_test(tc, test_compress_plain_and_duplicates);
	tcase_add_test(tc, test_compress_empty);
	tcase_add_test(tc, test_compress_large);
	tcase_add_test(tc, test_compress_round_trip);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
