/*
 * nodeset.h - a fixed-size set of node indices (a plain bitmap).
 *
 * The core library must not depend on Slurm, so it cannot use bitstr_t; the
 * plugins convert between the two at their boundary.  Node indices are
 * 0..n-1 in the order the topology (or the flat cluster) defines them.
 */
#ifndef TP_NODESET_H
#define TP_NODESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tp_nodeset {
	uint64_t *w;  /* ceil(n/64) words; bits past n are always zero */
	int n;        /* capacity in nodes */
} tp_nodeset;

int  tp_nodeset_init(tp_nodeset *s, int n);  /* all clear; -1 on ENOMEM */
int  tp_nodeset_init_copy(tp_nodeset *s, const tp_nodeset *src); /* -1 on ENOMEM */
void tp_nodeset_fini(tp_nodeset *s);
static inline int tp_nodeset_words(const tp_nodeset *s)
{
	return (s->n + 63) / 64;
}

static inline bool tp_nodeset_test(const tp_nodeset *s, int i)
{
	return (s->w[i >> 6] >> (i & 63)) & 1u;
}
static inline void tp_nodeset_set(tp_nodeset *s, int i)
{
	s->w[i >> 6] |= (uint64_t)1 << (i & 63);
}
static inline void tp_nodeset_clear(tp_nodeset *s, int i)
{
	s->w[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

void tp_nodeset_zero(tp_nodeset *s);
void tp_nodeset_fill(tp_nodeset *s);                     /* all n set */
void tp_nodeset_set_range(tp_nodeset *s, int lo, int hi);   /* [lo, hi) */
void tp_nodeset_clear_range(tp_nodeset *s, int lo, int hi); /* [lo, hi) */
void tp_nodeset_copy(tp_nodeset *dst, const tp_nodeset *src);
/* dst = the members of src below dst->n; the sets may differ in size
 * (a machine's topology nodes are the first of its nodes: topo.h). */
void tp_nodeset_copy_resized(tp_nodeset *dst, const tp_nodeset *src);
void tp_nodeset_or(tp_nodeset *dst, const tp_nodeset *src);
void tp_nodeset_and(tp_nodeset *dst, const tp_nodeset *src);
void tp_nodeset_andnot(tp_nodeset *dst, const tp_nodeset *src);
/* As or/andnot, returning how many members dst gained / lost: keeps a
 * count of dst up to date without counting all of it again. */
int  tp_nodeset_or_counted(tp_nodeset *dst, const tp_nodeset *src);
int  tp_nodeset_andnot_counted(tp_nodeset *dst, const tp_nodeset *src);
/* Words [*lo, *hi) hold every member of s (*lo == *hi when empty). */
void tp_nodeset_span(const tp_nodeset *s, int *lo, int *hi);
/* The same, for an s known to have no member in its words below `from`. */
void tp_nodeset_span_from(const tp_nodeset *s, int from, int *lo, int *hi);
/* Word-range forms, for a caller that keeps a set's span: only words
 * [lo, hi) are read and written, so a job's nodes cost what they fill,
 * not what the machine holds.  src must have no member outside them. */
void tp_nodeset_copy_words(tp_nodeset *dst, const tp_nodeset *src, int lo,
			   int hi);
void tp_nodeset_or_words(tp_nodeset *dst, const tp_nodeset *src, int lo,
			 int hi);
int  tp_nodeset_or_counted_words(tp_nodeset *dst, const tp_nodeset *src,
				 int lo, int hi);
int  tp_nodeset_andnot_counted_words(tp_nodeset *dst, const tp_nodeset *src,
				     int lo, int hi);
int  tp_nodeset_count(const tp_nodeset *s);
int  tp_nodeset_count_range(const tp_nodeset *s, int lo, int hi);
bool tp_nodeset_intersects(const tp_nodeset *a, const tp_nodeset *b);
bool tp_nodeset_subset(const tp_nodeset *a, const tp_nodeset *b); /* a ⊆ b */
bool tp_nodeset_equal(const tp_nodeset *a, const tp_nodeset *b);
int  tp_nodeset_next(const tp_nodeset *s, int from); /* first set >= from, or -1 */
int  tp_nodeset_next_clear(const tp_nodeset *s, int from); /* first clear >= from, or n */
/* out = the `count` lowest members of s (all of them if s has fewer), a
 * word at a time; returns how many out holds. */
int  tp_nodeset_lowest(const tp_nodeset *s, int count, tp_nodeset *out);
/* The same, for an s known to have no member in its words below `from`. */
int  tp_nodeset_lowest_from(const tp_nodeset *s, int from, int count,
			    tp_nodeset *out);

/* "0-3,8,10-11" style list of indices; caller frees.  NULL on ENOMEM. */
char *tp_nodeset_format(const tp_nodeset *s);

#endif
