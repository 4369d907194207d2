/*
 * vectorise.h - TP_VECTORISE marks a function whose loops over rows of
 * integers should be vectorised: GCC at -O2 vectorises only loops that
 * need no scalar epilogue, and rows of a torus's counts have any length.
 * Integer arithmetic: the vector and scalar forms give the same numbers.
 */
#ifndef TP_VECTORISE_H
#define TP_VECTORISE_H

#if defined(__GNUC__) && !defined(__clang__)
#define TP_VECTORISE \
	__attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define TP_VECTORISE
#endif

#endif
