/*
 * vectorise.h - TP_VECTORISE marks a function whose loops over rows of
 * integers or words should be vectorised: GCC at -O2 vectorises only
 * loops that need no scalar epilogue, and rows of a torus's counts have
 * any length.  On x86-64 such a function is also built for AVX2 beside
 * the baseline (SSE2), and the loader picks the one the CPU runs: the
 * erosions and window sums of the torus allocators take a third of a
 * replay's time there and run twice as many lanes at once.  Integer
 * arithmetic: every form gives the same numbers.
 */
#ifndef TP_VECTORISE_H
#define TP_VECTORISE_H

/* (for __GLIBC__: the loader's choice is an ifunc, which glibc has) */
#include <limits.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
	defined(__GLIBC__)
#define TP_VECTORISE \
	__attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic"), \
		       target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define TP_VECTORISE \
	__attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define TP_VECTORISE
#endif

#endif
