/*
 * fattree_merge.c - one row of a DP merge (fattree_merge.h), the
 * "fattree" allocator's innermost loop: 90% of a large tree's time
 * (bench_scale, 65,536 nodes).  Written without branches so compilers
 * vectorise it; on x86-64 built twice (AVX2 and the baseline), the CPU
 * choosing at load time.  Integer arithmetic: every build computes the
 * same numbers and choices.
 */
#include "alloc/fattree_merge.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
	defined(__has_attribute)
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
void ft_merge_row(const int64_t *restrict B, int n, int64_t a, int64_t wi,
		  int64_t *restrict R, int32_t *restrict C)
{
	/* wi * jx by addition: a vector unit has no 64-bit multiply */
	int64_t cross = 0;
	for (int jx = 0; jx <= n; jx++) {
		int64_t v = a + B[jx] + cross;
		int64_t r = R[jx];
		int le = v <= r;
		R[jx] = le ? v : r;
		C[jx] = le ? jx : C[jx];
		cross += wi;
	}
}
