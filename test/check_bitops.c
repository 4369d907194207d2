/* check_bitops.c - unit tests for bitops.h.  This file selects the
 * portable forms, so the code a compiler without the builtins would run
 * is compiled and checked here whatever compiler builds the tests. */
#define TP_BITOPS_PORTABLE 1
#include "check_util.h"
#include "base/bitops.h"
#include "trace/rng.h"

static int naive_popcount(uint64_t x)
{
	int c = 0;
	for (int i = 0; i < 64; i++)
		c += (int)((x >> i) & 1);
	return c;
}

static int naive_ctz(uint64_t x)
{
	int i = 0;
	while (!((x >> i) & 1))
		i++;
	return i;
}

/* Edge words, then random ones with few, half and most bits set. */
static uint64_t sample(tp_rng *r, int i)
{
	static const uint64_t edge[] = { 0, 1, 2, 3, 0x8000000000000000ull,
		~0ull, ~0ull - 1, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull,
		0x00000000ffffffffull, 0xffffffff00000000ull };
	const int ne = sizeof(edge) / sizeof(*edge);
	if (i < ne)
		return edge[i];
	uint64_t x = tp_rng_next(r);
	switch (i % 3) {
	case 0: return x & tp_rng_next(r) & tp_rng_next(r);
	case 1: return x;
	default: return x | tp_rng_next(r) | tp_rng_next(r);
	}
}

START_TEST(test_portable_popcount)
{
	ck_assert_int_eq(TP_BITOPS_PORTABLE, 1);
#ifdef TP_POPCOUNT_BUILTIN
	ck_abort_msg("TP_BITOPS_PORTABLE must select the portable popcount");
#endif
	tp_rng r;
	tp_rng_seed(&r, 7);
	for (int i = 0; i < 20000; i++) {
		uint64_t x = sample(&r, i);
		ck_assert_int_eq(tp_popcount64(x), naive_popcount(x));
		ck_assert_int_eq(tp_popcount64_portable(x), naive_popcount(x));
#ifdef __GNUC__
		ck_assert_int_eq(tp_popcount64_portable(x), __builtin_popcountll(x));
#endif
	}
}
END_TEST

START_TEST(test_portable_ctz)
{
#ifdef TP_CTZ_BUILTIN
	ck_abort_msg("TP_BITOPS_PORTABLE must select the portable ctz");
#endif
	for (int b = 0; b < 64; b++) {
		ck_assert_int_eq(tp_ctz64((uint64_t)1 << b), b);
		ck_assert_int_eq(tp_ctz64(~0ull << b), b);
	}
	tp_rng r;
	tp_rng_seed(&r, 11);
	for (int i = 0; i < 20000; i++) {
		uint64_t x = sample(&r, i);
		if (!x)
			continue;
		ck_assert_int_eq(tp_ctz64(x), naive_ctz(x));
#ifdef __GNUC__
		ck_assert_int_eq(tp_ctz64_portable(x), __builtin_ctzll(x));
#endif
	}
}
END_TEST

START_TEST(test_lowest_bits)
{
	tp_rng r;
	tp_rng_seed(&r, 13);
	for (int i = 0; i < 5000; i++) {
		uint64_t x = sample(&r, i);
		int n = tp_popcount64(x);
		for (int k = 0; k <= n; k += 1 + k / 4) {
			uint64_t low = tp_lowest_bits64(x, k);
			ck_assert_int_eq(tp_popcount64(low), k);
			ck_assert((low & ~x) == 0);
			/* every kept bit is below every dropped one */
			uint64_t dropped = x & ~low;
			int top = 63;
			while (low && !((low >> top) & 1))
				top--;
			if (low && dropped)
				ck_assert_int_lt(top, tp_ctz64(dropped));
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bitops");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_portable_popcount);
	tcase_add_test(tc, test_portable_ctz);
	tcase_add_test(tc, test_lowest_bits);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
