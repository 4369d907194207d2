/*
 * fattree_dpcache.h - the "fattree" allocator's DP tables for trees
 * without short units, carried from one question to the next.
 *
 * A switch's table (the best value of choosing 0..x free units below it)
 * depends on the job only through (k, K, prefer) and on the free set only
 * through the free-unit counts of the leaves below it.  A backfill pass
 * asks about the head job again and again on free sets that differ in a
 * few leaves (projected sets at each release time, the same set without
 * each candidate's nodes), so a state keeps its tables with the leaf
 * counts they were built from and rebuilds only the switches above a
 * leaf whose counts changed.  A few states, one per table key (in
 * general the job's k; on trees whose leaves are all at one depth, k's
 * power-of-two class: key_for() in the .c says why that is the same), are
 * kept, the least recently used replaced.  The tables are those a fresh
 * build computes, number for number (same merges in the same order), so
 * no answer changes.
 *
 * At the root only the entries an answer for k units can reach are
 * computed, the band: the root's first children give at most k units
 * and at least k - U, U being what the children after them hold.  A
 * merge is kept while its band holds the one needed (the same merge,
 * its inputs unchanged), else made again for the k asked.  The band
 * spares most of the root's merges, the DP's largest tables, when k is
 * far below the table's cap or near the free units (a large job on a
 * busy machine).
 */
#ifndef TP_FATTREE_DPCACHE_H
#define TP_FATTREE_DPCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/fattree_counts.h"

/* states kept: with uniform leaf depths one per power-of-two cap, so
 * every size of a 2^15-unit machine has its own */
#define FT_DP_STATES 16

/* What a state's tables were built for (fattree_dpcache.c: key_for). */
typedef struct ft_dpkey {
	int cap;         /* units a table holds at most */
	int kv;          /* k of the leaf term (1: left out) */
	int64_t K;       /* weight of hops over the tie-break */
	int prefer;      /* tie-break on */
} ft_dpkey;

typedef struct ft_dpmerge {
	int child, x;    /* child merged; result holds 0..x units */
	int lo, hi;      /* ...of which lo..hi are computed (the root's band) */
	size_t off;      /* in the switch's own storage */
} ft_dpmerge;

typedef struct ft_dpstate {
	bool valid;      /* tables built for the key below */
	int cap, kv, prefer;   /* ft_dpkey */
	int64_t K;
	int kband;       /* units asked last: the root's band is for them */
	uint64_t used;   /* for replacement */
	int *snap;       /* [nswitch] leaf_full of each leaf when built */
	/* [nswitch] -1: tables up to date; else the position of the first
	 * child whose subtree changed (0 for everything) */
	int *dpos;
	int *xcap, *first, *mg_n;   /* [nswitch] */
	ft_dpmerge *mg;  /* [nswitch]: switch v's merges at mg_lo[v] */
	const int64_t **tab;        /* [nswitch] final table, or NULL */
	int64_t **val;   /* [nswitch] own storage */
	int32_t **cho;
	size_t *room;    /* [nswitch] entries val and cho hold */
} ft_dpstate;

typedef struct ft_dpcache {
	const tp_fattree *t;
	int *mg_lo;      /* [nswitch] first merge slot of each switch */
	int *cidx;       /* [nswitch] position among its parent's children */
	bool uniform;    /* every leaf with units at one depth */
	int max_leaf_msus, max_depth;
	uint64_t clock;
	ft_dpstate st[FT_DP_STATES];
	uint64_t built, reused;   /* switches rebuilt / kept (tests) */
	uint64_t merges_kept;     /* merges of rebuilt switches kept */
	uint64_t banded;          /* root merges made on part of their table */
} ft_dpcache;

/* -1 on ENOMEM (d is then finalised). */
int ft_dpcache_init(ft_dpcache *d, const tp_fattree *t);
void ft_dpcache_fini(ft_dpcache *d);
/* Tables for a job of k units (K, prefer: alloc_fattree.c's dp_job) on
 * the free set counted in c, which has no short unit.  Returns the state
 * holding them, NULL on ENOMEM. */
ft_dpstate *ft_dpcache_build(ft_dpcache *d, const ft_counts *c, int k,
			     int64_t K, int prefer);
/* The MSUs of the best choice of k units (the root's table must hold k
 * units at a finite value) into picked; returns their number. */
int ft_dpcache_pick(const ft_dpcache *d, const ft_dpstate *s,
		    const ft_counts *c, int k, int *stack, int *picked);

#endif
