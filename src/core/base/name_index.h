/*
 * name_index.h - names to their indices in O(1): a hash over an array of
 * names that the caller owns and fills in order (name i at index i).
 *
 * For readers that number names by first appearance: looking each one up
 * by a scan of those seen before made a line naming a million hosts
 * ("Nodes=n[0-999999]", 19 bytes) cost 10^12 string comparisons.  A
 * zeroed tp_name_index is a valid empty one.
 */
#ifndef TP_NAME_INDEX_H
#define TP_NAME_INDEX_H

typedef struct tp_name_index {
	int cap;    /* slots: 0, or a power of two above twice the count */
	int count;  /* names indexed: names[0..count-1] */
	int *slot;  /* index into the names, -1 = empty */
} tp_name_index;

/* The index of `key` among the names indexed, or -1. */
int tp_name_index_find(const tp_name_index *x, char *const *names,
		       const char *key);
/* Index names[x->count], which must not be there yet.  `names` is the
 * whole array (the index rehashes from it when it grows).  0, or -1 when
 * out of memory (the index is then unchanged). */
int tp_name_index_add(tp_name_index *x, char *const *names);
void tp_name_index_fini(tp_name_index *x);

#endif
