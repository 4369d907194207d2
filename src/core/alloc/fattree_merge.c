/*
 * fattree_merge.c - one row of a DP merge (fattree_merge.h), the
 * "fattree" allocator's innermost loop: 90% of a large tree's time
 * (bench_scale, 65,536 nodes).  Written without branches so compilers
 * vectorise it; on x86-64 built twice (AVX2 and the baseline), the CPU
 * choosing at load time.  Integer arithmetic: every build computes the
 * same numbers and choices.
 */
#include "alloc/fattree_merge.h"

/* FT_NO_CLONES: one build for the compiler flags given (to test each) */
#if !defined(FT_NO_CLONES) && defined(__GNUC__) && !defined(__clang__) && \
	defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
/* -O2 vectorises only loops needing no epilogue; this one has one */
#define FT_ROW_ATTR __attribute__((target_clones("avx512f", "avx2", "default"), \
	optimize("tree-vectorize", "vect-cost-model=dynamic")))
#endif
#endif
#ifndef FT_ROW_ATTR
#define FT_ROW_ATTR
#endif

FT_ROW_ATTR
void ft_merge_row(const int64_t *restrict B, int j0, int n, int64_t a,
		  int64_t wi, int64_t *restrict R, int32_t *restrict C)
{
	/* wi * jx by addition: a vector unit has no 64-bit multiply */
	int64_t cross = wi * j0;
	for (int jx = j0; jx <= n; jx++) {
		int64_t v = a + B[jx] + cross;
		int64_t r = R[jx];
		int le = v <= r;
		R[jx] = le ? v : r;
		C[jx] = le ? jx : C[jx];
		cross += wi;
	}
}

/* Rows i and i + 1 in one sweep: each output takes row i's pair, then
 * row i + 1's, the order of two ft_merge_row calls, with half the loads
 * and stores of R and C.  n2 (row i + 1's last jx) is n1 or n1 - 1; the
 * outputs start at t0 (row i's first jx; row i + 1's is t0 - 1, or 0
 * when t0 is 0). */
FT_ROW_ATTR
void ft_merge_row2(const int64_t *restrict B, int t0, int n1, int n2,
		   int64_t a1, int64_t w1, int64_t a2, int64_t w2,
		   int64_t *restrict R, int32_t *restrict C)
{
	if (!t0) {
		if (a1 + B[0] <= R[0]) {
			R[0] = a1 + B[0];
			C[0] = 0;
		}
		t0 = 1;
	}
	int64_t c1 = w1 * t0, c2 = w2 * (t0 - 1);
	for (int t = t0; t <= n1; t++) {
		int64_t v1 = a1 + B[t] + c1, v2 = a2 + B[t - 1] + c2;
		int64_t r = R[t];
		int32_t c = C[t];
		int le = v1 <= r;
		r = le ? v1 : r;
		c = le ? t : c;
		le = v2 <= r;
		r = le ? v2 : r;
		c = le ? t - 1 : c;
		R[t] = r;
		C[t] = c;
		c1 += w1;
		c2 += w2;
	}
	if (n2 == n1) {
		int64_t v2 = a2 + B[n1] + w2 * n1;
		if (v2 <= R[n1 + 1]) {
			R[n1 + 1] = v2;
			C[n1 + 1] = n1;
		}
	}
}
