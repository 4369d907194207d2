/* check_evheap.c - unit tests for engine/evheap.c. */
#include "check_util.h"
#include "engine/evheap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Small deterministic generator (xorshift64*), independent of the core's rng. */
static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static tp_event ev(int64_t time, uint32_t who, uint32_t gen)
{
	tp_event e = { .time = time, .who = who, .gen = gen };
	return e;
}

/* The order evheap.c promises: time, then owner index. */
static int cmp_event(const void *pa, const void *pb)
{
	const tp_event *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->who < b->who ? -1 : a->who > b->who;
}

START_TEST(test_empty)
{
	tp_evheap h = { 0 };
	ck_assert_ptr_null(tp_evheap_top(&h));
	tp_evheap_fini(&h);
	tp_evheap_fini(&h); /* twice is harmless */
	ck_assert_ptr_null(h.ev);
	ck_assert_uint_eq(h.n, 0);
	ck_assert_uint_eq(h.cap, 0);

	/* a single event: top, pop, empty again */
	ck_assert_int_eq(tp_evheap_push(&h, ev(42, 7, 3)), 0);
	ck_assert_uint_eq(h.n, 1);
	ck_assert_ptr_nonnull(tp_evheap_top(&h));
	ck_assert_int_eq(tp_evheap_top(&h)->time, 42);
	tp_event e = tp_evheap_pop(&h);
	ck_assert_int_eq(e.time, 42);
	ck_assert_uint_eq(e.who, 7);
	ck_assert_uint_eq(e.gen, 3);
	ck_assert_uint_eq(h.n, 0);
	ck_assert_ptr_null(tp_evheap_top(&h));
	tp_evheap_fini(&h);
}
END_TEST

START_TEST(test_order_by_time)
{
	tp_evheap h = { 0 };
	static const int64_t t[] = { 50, 10, 30, 20, 40, -5, 0 };
	static const int64_t min_after[] = { 50, 10, 10, 10, 10, -5, -5 };
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		ck_assert_int_eq(tp_evheap_push(&h, ev(t[i], (uint32_t)i, 0)), 0);
		ck_assert_int_eq(tp_evheap_top(&h)->time, min_after[i]);
	}
	static const int64_t want[] = { -5, 0, 10, 20, 30, 40, 50 };
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		ck_assert_int_eq(tp_evheap_top(&h)->time, want[i]);
		ck_assert_int_eq(tp_evheap_pop(&h).time, want[i]);
	}
	ck_assert_ptr_null(tp_evheap_top(&h));
	tp_evheap_fini(&h);
}
END_TEST

/* Equal times pop by owner index so runs are reproducible. */
START_TEST(test_tie_break_by_owner)
{
	tp_evheap h = { 0 };
	static const uint32_t who[] = { 9, 3, 7, 0, 5, 1, 8, 2, 6, 4 };
	for (size_t i = 0; i < 10; i++)
		tp_evheap_push(&h, ev(100, who[i], 0));
	tp_evheap_push(&h, ev(99, 1000, 0));
	tp_evheap_push(&h, ev(101, 0, 0));
	tp_event e = tp_evheap_pop(&h);
	ck_assert_int_eq(e.time, 99);
	ck_assert_uint_eq(e.who, 1000);
	for (uint32_t w = 0; w < 10; w++) {
		e = tp_evheap_pop(&h);
		ck_assert_int_eq(e.time, 100);
		ck_assert_uint_eq(e.who, w);
	}
	e = tp_evheap_pop(&h);
	ck_assert_int_eq(e.time, 101);
	ck_assert_uint_eq(h.n, 0);
	tp_evheap_fini(&h);
}
END_TEST

/* Many random events (lots of ties) pop in the order of a sorted copy, and
 * every pushed event (told apart by gen) comes out exactly once. */
START_TEST(test_random_vs_sorted)
{
	enum { N = 5000 };
	rng_state = 0x9E3779B97F4A7C15ULL;
	tp_event *ref = malloc(N * sizeof(*ref));
	char *seen = calloc(N, 1);
	tp_evheap h = { 0 };
	int64_t min = INT64_MAX;
	for (uint32_t i = 0; i < N; i++) {
		ref[i] = ev((int64_t)(rnd() % 200) - 50, (uint32_t)(rnd() % 40), i);
		ck_assert_int_eq(tp_evheap_push(&h, ref[i]), 0);
		if (ref[i].time < min)
			min = ref[i].time;
		ck_assert_int_eq(tp_evheap_top(&h)->time, min);
	}
	ck_assert_uint_eq(h.n, N);
	qsort(ref, N, sizeof(*ref), cmp_event);
	int bad = 0;
	for (size_t i = 0; i < N; i++) {
		tp_event top = *tp_evheap_top(&h);
		tp_event e = tp_evheap_pop(&h);
		bad += memcmp(&top, &e, sizeof(e)) != 0;
		bad += e.time != ref[i].time || e.who != ref[i].who;
		bad += e.gen >= N || seen[e.gen]++;
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(h.n, 0);
	tp_evheap_fini(&h);
	free(ref);
	free(seen);
}
END_TEST

/* Random interleaving of pushes and pops against a naive reference. */
START_TEST(test_interleaved_vs_reference)
{
	enum { OPS = 20000 };
	rng_state = 12345;
	tp_event *ref = malloc(OPS * sizeof(*ref));
	size_t nref = 0;
	tp_evheap h = { 0 };
	int bad = 0;
	for (uint32_t op = 0; op < OPS; op++) {
		/* pushes slightly more likely, so the heap grows and shrinks */
		if (nref == 0 || rnd() % 5 < 3) {
			tp_event e = ev((int64_t)(rnd() % 1000) * ((rnd() & 1) ? 1 : -1),
					(uint32_t)rnd(), op);
			ref[nref++] = e;
			ck_assert_int_eq(tp_evheap_push(&h, e), 0);
		} else {
			size_t m = 0;
			for (size_t i = 1; i < nref; i++)
				if (cmp_event(&ref[i], &ref[m]) < 0)
					m = i;
			tp_event e = tp_evheap_pop(&h);
			bad += e.time != ref[m].time || e.who != ref[m].who;
			/* (time, who) ties: the popped one must be one of them */
			size_t k = m;
			for (size_t i = 0; i < nref; i++)
				if (!cmp_event(&ref[i], &e) && ref[i].gen == e.gen)
					k = i;
			bad += ref[k].gen != e.gen;
			ref[k] = ref[--nref];
		}
		bad += h.n != nref;
	}
	ck_assert_int_eq(bad, 0);
	tp_evheap_fini(&h);
	free(ref);
}
END_TEST

START_TEST(test_growth)
{
	enum { N = 100000 };
	tp_evheap h = { 0 };
	size_t last_cap = 0;
	int grew = 0;
	/* descending times: every push sifts to the root */
	for (int64_t i = 0; i < N; i++) {
		ck_assert_int_eq(tp_evheap_push(&h, ev(N - i, (uint32_t)i, 0)), 0);
		ck_assert_uint_ge(h.cap, h.n);
		grew += h.cap != last_cap;
		last_cap = h.cap;
		ck_assert_int_eq(tp_evheap_top(&h)->time, N - i);
	}
	ck_assert_int_gt(grew, 5);
	int bad = 0;
	for (int64_t t = 1; t <= N; t++)
		bad += tp_evheap_pop(&h).time != t;
	ck_assert_int_eq(bad, 0);
	tp_evheap_fini(&h);
}
END_TEST

START_TEST(test_extreme_values)
{
	tp_evheap h = { 0 };
	tp_evheap_push(&h, ev(INT64_MAX, 0, 1));
	tp_evheap_push(&h, ev(0, UINT32_MAX, 2));
	tp_evheap_push(&h, ev(INT64_MIN, UINT32_MAX, 3));
	tp_evheap_push(&h, ev(INT64_MIN, 0, 4));
	tp_evheap_push(&h, ev(-1, 5, UINT32_MAX));
	tp_evheap_push(&h, ev(0, 0, 6));
	static const struct { int64_t t; uint32_t who, gen; } want[] = {
		{ INT64_MIN, 0, 4 }, { INT64_MIN, UINT32_MAX, 3 }, { -1, 5, UINT32_MAX },
		{ 0, 0, 6 }, { 0, UINT32_MAX, 2 }, { INT64_MAX, 0, 1 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		tp_event e = tp_evheap_pop(&h);
		ck_assert_int_eq(e.time, want[i].t);
		ck_assert_uint_eq(e.who, want[i].who);
		ck_assert_uint_eq(e.gen, want[i].gen);
	}
	ck_assert_ptr_null(tp_evheap_top(&h));
	tp_evheap_fini(&h);
}
END_TEST

START_TEST(test_fini_and_reuse)
{
	tp_evheap h = { 0 };
	for (int i = 0; i < 1000; i++)
		tp_evheap_push(&h, ev(i % 17, (uint32_t)i, 0));
	tp_evheap_fini(&h); /* with events still inside: no leak */
	ck_assert_ptr_null(h.ev);
	ck_assert_uint_eq(h.n, 0);
	ck_assert_uint_eq(h.cap, 0);
	ck_assert_ptr_null(tp_evheap_top(&h));
	tp_evheap_push(&h, ev(3, 0, 0));
	tp_evheap_push(&h, ev(1, 0, 0));
	ck_assert_int_eq(tp_evheap_pop(&h).time, 1);
	ck_assert_int_eq(tp_evheap_pop(&h).time, 3);
	tp_evheap_fini(&h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("evheap");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_order_by_time);
	tcase_add_test(tc, test_tie_break_by_owner);
	tcase_add_test(tc, test_random_vs_sorted);
	tcase_add_test(tc, test_interleaved_vs_reference);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_extreme_values);
	tcase_add_test(tc, test_fini_and_reuse);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
