/* check_nodeset.c - unit tests for nodeset.c. */
#include "check_util.h"
#include "base/nodeset.h"

#include <stdio.h>
#include <stdlib.h>
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

/* Range clear, lowest-n, counted or/andnot, spans and word ranges
 * against bit-by-bit answers, around word boundaries. */
static int naive_count(const tp_nodeset *s, int lo, int hi)
{
	int c = 0;
	for (int i = lo; i < hi; i++)
		c += tp_nodeset_test(s, i);
	return c;
}

static void random_set(tp_nodeset *s, unsigned *seed, int density)
{
	tp_nodeset_zero(s);
	for (int i = 0; i < s->n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		if ((int)((*seed >> 16) % 100) < density)
			tp_nodeset_set(s, i);
	}
}

START_TEST(test_clear_range)
{
	static const int edges[] = { 0, 1, 63, 64, 65, 127, 128, 129, 199, 200 };
	const int ne = sizeof(edges) / sizeof(*edges);
	tp_nodeset s;
	tp_nodeset_init(&s, 200);
	for (int a = 0; a < ne; a++)
		for (int b = a; b < ne; b++) {
			int lo = edges[a], hi = edges[b], bad = 0;
			tp_nodeset_fill(&s);
			tp_nodeset_clear_range(&s, lo, hi);
			for (int i = 0; i < 200; i++)
				bad += tp_nodeset_test(&s, i) == (i >= lo && i < hi);
			ck_assert_int_eq(bad, 0);
			ck_assert_int_eq(tp_nodeset_count(&s), 200 - (hi - lo));
			ck_assert_int_eq(tp_nodeset_count_range(&s, lo, 200),
					 naive_count(&s, lo, 200));
		}
	tp_nodeset_fini(&s);
}
END_TEST

START_TEST(test_lowest)
{
	unsigned seed = 5;
	tp_nodeset s, out;
	tp_nodeset_init(&s, 1000);
	tp_nodeset_init(&out, 1000);
	for (int round = 0; round < 50; round++) {
		random_set(&s, &seed, round % 2 ? 3 : 60);
		int have = tp_nodeset_count(&s);
		tp_nodeset_fill(&out); /* stale content must go */
		for (int want = 0; want <= have + 1; want += 1 + want / 3) {
			int got = tp_nodeset_lowest(&s, want, &out);
			ck_assert_int_eq(got, want < have ? want : have);
			ck_assert_int_eq(tp_nodeset_count(&out), got);
			ck_assert(tp_nodeset_subset(&out, &s));
			/* no member of s below out's highest is left out */
			int top = -1;
			for (int i = tp_nodeset_next(&out, 0); i >= 0;
			     i = tp_nodeset_next(&out, i + 1))
				top = i;
			ck_assert_int_eq(naive_count(&s, 0, top + 1), got);
		}
	}
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&out);
}
END_TEST

/* The forms given a bound below which s is empty, and the uncounted
 * word-range or, against the plain ones. */
START_TEST(test_from_bounds)
{
	unsigned seed = 13;
	tp_nodeset s, a, b;
	tp_nodeset_init(&s, 1000);
	tp_nodeset_init(&a, 1000);
	tp_nodeset_init(&b, 1000);
	for (int round = 0; round < 40; round++) {
		random_set(&s, &seed, round % 2 ? 3 : 60);
		tp_nodeset_clear_range(&s, 0, 64 * (round % 13)); /* busy start */
		int lo, hi;
		tp_nodeset_span(&s, &lo, &hi);
		const int froms[] = { 0, lo / 2, lo };
		for (int f = 0; f < 3; f++) {
			int l2, h2;
			tp_nodeset_span_from(&s, froms[f], &l2, &h2);
			ck_assert_int_eq(l2, lo);
			ck_assert_int_eq(h2, hi);
			for (int want = 1; want < 400; want *= 3) {
				tp_nodeset_fill(&a); /* stale content must go */
				tp_nodeset_fill(&b);
				ck_assert_int_eq(
					tp_nodeset_lowest_from(&s, froms[f], want, &a),
					tp_nodeset_lowest(&s, want, &b));
				ck_assert(tp_nodeset_equal(&a, &b));
			}
		}
		random_set(&a, &seed, 50);
		tp_nodeset_copy(&b, &a);
		tp_nodeset_or(&a, &s);
		tp_nodeset_or_words(&b, &s, lo, hi);
		ck_assert(tp_nodeset_equal(&a, &b));
	}
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&a);
	tp_nodeset_fini(&b);
}
END_TEST

START_TEST(test_counted_and_spans)
{
	unsigned seed = 9;
	tp_nodeset a, b, want, c;
	tp_nodeset_init(&a, 700);
	tp_nodeset_init(&b, 700);
	tp_nodeset_init(&want, 700);
	for (int round = 0; round < 60; round++) {
		random_set(&a, &seed, 50);
		random_set(&b, &seed, round % 3 ? 40 : 0);
		if (round % 2) { /* a job-like run in a few words */
			tp_nodeset_zero(&b);
			tp_nodeset_set_range(&b, 100 + round, 300 + 2 * round);
		}
		int lo, hi;
		tp_nodeset_span(&b, &lo, &hi);
		int first = tp_nodeset_next(&b, 0);
		if (first < 0) {
			ck_assert_int_eq(lo, hi);
		} else {
			ck_assert_int_eq(lo, first / 64);
			ck_assert_int_eq(naive_count(&b, 0, lo * 64), 0);
			ck_assert_int_eq(naive_count(&b, hi * 64 < 700 ? hi * 64 : 700, 700), 0);
			ck_assert(tp_nodeset_test(&b, tp_nodeset_next(&b, (hi - 1) * 64)));
		}
		tp_nodeset_copy(&want, &a);
		tp_nodeset_or(&want, &b);
		int gain = tp_nodeset_count(&want) - tp_nodeset_count(&a);
		ck_assert_int_eq(tp_nodeset_init_copy(&c, &a), 0);
		ck_assert(tp_nodeset_equal(&c, &a));
		ck_assert_int_eq(tp_nodeset_or_counted(&c, &b), gain);
		ck_assert(tp_nodeset_equal(&c, &want));
		tp_nodeset_copy(&c, &a);
		ck_assert_int_eq(tp_nodeset_or_counted_words(&c, &b, lo, hi), gain);
		ck_assert(tp_nodeset_equal(&c, &want));
		tp_nodeset_copy(&want, &a);
		tp_nodeset_andnot(&want, &b);
		int loss = tp_nodeset_count(&a) - tp_nodeset_count(&want);
		tp_nodeset_copy(&c, &a);
		ck_assert_int_eq(tp_nodeset_andnot_counted(&c, &b), loss);
		ck_assert(tp_nodeset_equal(&c, &want));
		tp_nodeset_copy(&c, &a);
		ck_assert_int_eq(tp_nodeset_andnot_counted_words(&c, &b, lo, hi), loss);
		ck_assert(tp_nodeset_equal(&c, &want));
		tp_nodeset_zero(&c);
		tp_nodeset_copy_words(&c, &b, lo, hi);
		ck_assert(tp_nodeset_equal(&c, &b));
		ck_assert_int_eq(tp_nodeset_intersects(&a, &b),
				 tp_nodeset_count(&a) != tp_nodeset_count(&want));
		for (int i = 0; i < 700; i += 7) {
			int nc = tp_nodeset_next_clear(&a, i), j = i;
			while (j < 700 && tp_nodeset_test(&a, j))
				j++;
			ck_assert_int_eq(nc, j);
		}
		tp_nodeset_fini(&c);
	}
	tp_nodeset_fini(&a);
	tp_nodeset_fini(&b);
	tp_nodeset_fini(&want);
}
END_TEST

/* Between sets of different sizes (a machine's topology part and the
 * whole machine): the members below the smaller size, no bit past it. */
START_TEST(test_copy_resized)
{
	tp_nodeset big, small, back;
	ck_assert_int_eq(tp_nodeset_init(&big, 130), 0);
	ck_assert_int_eq(tp_nodeset_init(&small, 70), 0);
	ck_assert_int_eq(tp_nodeset_init(&back, 130), 0);
	tp_nodeset_fill(&big);
	tp_nodeset_copy_resized(&small, &big);
	ck_assert_int_eq(tp_nodeset_count(&small), 70);
	ck_assert_int_eq(tp_nodeset_next(&small, 69), 69);
	tp_nodeset_fill(&back);
	tp_nodeset_copy_resized(&back, &small); /* larger: the rest cleared */
	ck_assert_int_eq(tp_nodeset_count(&back), 70);
	ck_assert_int_eq(tp_nodeset_next(&back, 70), -1);
	tp_nodeset_zero(&big);
	tp_nodeset_set(&big, 3);
	tp_nodeset_set(&big, 100);
	tp_nodeset_copy_resized(&small, &big);
	ck_assert_int_eq(tp_nodeset_count(&small), 1);
	ck_assert(tp_nodeset_test(&small, 3));
	tp_nodeset_fini(&big);
	tp_nodeset_fini(&small);
	tp_nodeset_fini(&back);
}
END_TEST

/* tp_nodeset_count (built with and without the popcount instruction,
 * the CPU choosing) against the members one by one, on random sets of
 * every density and of sizes around word boundaries. */
START_TEST(test_count_random)
{
	uint64_t x = 88172645463325252ull;
	for (int round = 0; round < 2000; round++) {
		int n = 1 + round % 300;
		tp_nodeset s;
		tp_nodeset_init(&s, n);
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		unsigned density = (unsigned)(x % 9); /* eighths */
		int want = 0;
		for (int i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (x % 8 < density) {
				tp_nodeset_set(&s, i);
				want++;
			}
		}
		ck_assert_int_eq(tp_nodeset_count(&s), want);
		tp_nodeset_fini(&s);
	}
}
END_TEST

/* The node-list text of random sets (indices of one to six digits,
 * runs of every length) against a reference written with snprintf. */
START_TEST(test_format_random)
{
	uint64_t x = 2463534242ull;
	for (int round = 0; round < 400; round++) {
		int n = 1 + (round % 4 ? round * 7 : round * 499);
		tp_nodeset s;
		tp_nodeset_init(&s, n);
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int run = 1 + (int)(x % 12);
		for (int i = 0; i < n; i += run) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (x % 2)
				tp_nodeset_set_range(&s, i, i + run < n ? i + run : n);
		}
		/* at most 8 digits, a comma or a dash per node */
		size_t cap = 9 * (size_t)n + 1, len = 0;
		char *want = calloc(cap, 1);
		ck_assert_ptr_nonnull(want);
		for (int i = tp_nodeset_next(&s, 0); i >= 0;) {
			int j = tp_nodeset_next_clear(&s, i) - 1;
			const char *sep = len ? "," : "";
			len += (size_t)(i == j ? snprintf(want + len, cap - len, "%s%d", sep, i)
					       : snprintf(want + len, cap - len, "%s%d-%d", sep, i, j));
			ck_assert_uint_lt(len, cap);
			i = tp_nodeset_next(&s, j + 1);
		}
		char *got = tp_nodeset_format(&s);
		ck_assert_str_eq(got, want);
		free(got);
		free(want);
		tp_nodeset_fini(&s);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nodeset");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_set_range_and_count);
	tcase_add_test(tc, test_next_and_format);
	tcase_add_test(tc, test_set_algebra);
	tcase_add_test(tc, test_clear_range);
	tcase_add_test(tc, test_lowest);
	tcase_add_test(tc, test_from_bounds);
	tcase_add_test(tc, test_counted_and_spans);
	tcase_add_test(tc, test_copy_resized);
	tcase_add_test(tc, test_count_random);
	tcase_add_test(tc, test_format_random);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
