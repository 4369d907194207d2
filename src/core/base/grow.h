/*
 * grow.h - room for one more element at the end of a growing array, the
 * one pattern behind every table that is appended to (records, events,
 * names, ids): the capacity doubles from a first size, so n appends cost
 * O(n) copies in all.
 */
#ifndef TP_BASE_GROW_H
#define TP_BASE_GROW_H

#include <stddef.h>

/* The array `items` of *cap elements of `size` bytes, with room for
 * element n (n <= *cap): items itself when n < *cap, else a larger copy
 * (*cap doubled, or `first` when 0).  NULL when out of memory: items and
 * *cap are then as they were. */
void *tp_grow(void *items, size_t *cap, size_t n, size_t size, size_t first);
/* Room for `need` elements of `size` bytes in *items (*cap of them now):
 * the capacity doubles from 16 until it holds them.  0, or -1 when out
 * of memory (*items and *cap then as they were). */
int tp_grow_to(void **items, size_t *cap, size_t need, size_t size);

#endif
