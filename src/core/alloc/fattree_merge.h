/*
 * fattree_merge.h - the "fattree" allocator's DP steps shared by its
 * one-shot tables (alloc_fattree.c) and its carried ones
 * (fattree_dpcache.c): a leaf's value of choosing x units, and the merge
 * of two tables without short units.  Both users must compute the same
 * numbers in the same order, ties included; hence one copy.
 */
#ifndef TP_FATTREE_MERGE_H
#define TP_FATTREE_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#define FT_INF INT64_MAX

static inline int ft_mini(int a, int b)
{
	return a < b ? a : b;
}

static inline int ft_maxi(int a, int b)
{
	return a > b ? a : b;
}

/* A leaf at depth D choosing x of its free units for a job of k units:
 * the per-unit depth term and its C(x,2) pairs whose lowest common switch
 * is the leaf (doc/fattree-design.md; the +1 of every pair is the
 * constant C(k,2), left out), weighted by K, plus the tie-break (the
 * leaf's completely free units per chosen unit) when `prefer`. */
static inline int64_t ft_leaf_value(int x, int k, int D, int64_t K,
				    int prefer, int leaf_free)
{
	int64_t pairs = (int64_t)x * (x - 1) / 2;
	int64_t hop = (int64_t)x * (k - 1) * D - 2 * D * pairs;
	return hop * K + (prefer ? (int64_t)x * leaf_free : 0);
}

/* R[jx] = min(R[jx], a + B[jx] + wi jx) for jx = j0..n, C[jx] = jx where
 * the new value is kept (ties included); B has no FT_INF
 * (fattree_merge.c). */
void ft_merge_row(const int64_t *restrict B, int j0, int n, int64_t a,
		  int64_t wi, int64_t *restrict R, int32_t *restrict C);

/* Two rows (fattree_merge.c): those of a1 (jx = t0..n1) and of a2 one
 * unit on (up to n2 = n1 or n1 - 1), from output t0 on. */
void ft_merge_row2(const int64_t *restrict B, int t0, int n1, int n2,
		   int64_t a1, int64_t w1, int64_t a2, int64_t w2,
		   int64_t *restrict R, int32_t *restrict C);

static inline bool ft_has_inf(const int64_t *B, int n)
{
	for (int j = 0; j <= n; j++)
		if (B[j] == FT_INF)
			return true;
	return false;
}

/* Table A (0..xa units) merged with a child's B (0..xb) into R and its
 * choices C, entries lo..xr (those below lo are neither computed nor
 * read: A is read from lo - xb on); cross pairs cost w each.  `one` (a
 * virtual root, whose children are fabrics with no link): units from
 * the accumulated side or from the child, never both.  Every entry
 * computed sees all its pairs in the same order whatever lo is; among
 * ties the later pair is kept, which has more units in earlier
 * children. */
static inline void ft_merge_plain(const int64_t *A, int xa, const int64_t *B,
				  int xb, int64_t *R, int32_t *C, int lo,
				  int xr, int64_t w, bool one)
{
	for (int i = lo; i <= xr; i++)
		R[i] = FT_INF;
	int i0 = ft_maxi(0, lo - xb);
	/* rows of a few entries: the call costs more than the loop */
	if (!one && xb >= 8 && !ft_has_inf(B, xb)) {
		/* the same pairs in the same order, row by row */
		int last = ft_mini(xa, xr);
		for (int i = i0; i <= last; i++) {
			if (A[i] == FT_INF)
				continue;
			int j0 = ft_maxi(0, lo - i), n1 = ft_mini(xb, xr - i);
			if (i < last && A[i + 1] != FT_INF) {
				ft_merge_row2(B, j0, n1, ft_mini(xb, xr - i - 1),
					      A[i], w * i, A[i + 1], w * (i + 1),
					      R + i, C + i);
				i++;
				continue;
			}
			ft_merge_row(B, j0, n1, A[i], w * i, R + i, C + i);
		}
		return;
	}
	for (int i = i0; i <= xa; i++) {
		int64_t a = A[i], wi = w * i;
		if (a == FT_INF)
			continue;
		int jmax = one && i ? 0 : ft_mini(xb, xr - i);
		for (int jx = ft_maxi(0, lo - i); jx <= jmax; jx++) {
			if (B[jx] == FT_INF)
				continue;
			int64_t v = a + B[jx] + wi * jx;
			if (v <= R[i + jx]) {
				R[i + jx] = v;
				C[i + jx] = jx;
			}
		}
	}
}

#endif
