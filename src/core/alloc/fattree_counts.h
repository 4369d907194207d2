/*
 * fattree_counts.h - free counts of a fat tree's MSUs, leaves and subtrees,
 * carried from one decision of the "fattree" allocator to the next.
 *
 * Consecutive decisions see free sets that differ in a few words (one job
 * placed, a few ended), so the counts are updated from a word-by-word
 * comparison with the free set of the previous update instead of being
 * rebuilt from every word, MSU and leaf.  The counts start as those of an
 * empty free set; the first update therefore counts everything.  The
 * result is the same as counting afresh, whatever the sequence of free
 * sets.
 */
#ifndef TP_FATTREE_COUNTS_H
#define TP_FATTREE_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "topology/fattree.h"

typedef struct ft_counts {
	const tp_fattree *t;
	int nunit;
	int *mword;       /* [nmsu] word holding the MSU, -1 if it straddles */
	uint8_t *mshift;  /* [nmsu] its first bit in that word */
	uint64_t *mmask;  /* [nmsu] size-bit mask */
	int *mfree;       /* [nmsu] free nodes per MSU */
	int *leaf_free;   /* [nswitch] completely free MSUs of a leaf */
	int *leaf_full;   /* [nswitch] ... of which full-size */
	int *sub;         /* [nswitch] completely free MSUs below a switch */
	int *short_hist;  /* [nunit] completely free short MSUs by size */
	int *lf_hist;     /* [max MSUs of a leaf + 1] leaves by leaf_free */
	int free_full, free_short, max_leaf_free;
	/* busy MSUs (0 < free < size) by free count: busy + f * bwords is
	 * the bit set of those with f free, nbusy[f] their number */
	uint64_t *busy;
	int *nbusy;       /* [nunit] */
	int bwords;
	uint64_t *seen;   /* free set of the last update */
	int nwords;
} ft_counts;

/* Counts of an empty free set.  -1 on ENOMEM (c is then finalised). */
int ft_counts_init(ft_counts *c, const tp_fattree *t);
void ft_counts_fini(ft_counts *c);
/* Make the counts those of `free` (t->nnodes nodes). */
void ft_counts_update(ft_counts *c, const tp_nodeset *free);
/* Free nodes of MSU m in any set, without touching the counts. */
int ft_counts_msu_free(const ft_counts *c, const tp_nodeset *free, int m);
/* Lowest-indexed busy MSU with exactly f free nodes (1 <= f < Nunit),
 * or -1. */
int ft_counts_busy_first(const ft_counts *c, int f);

#endif
