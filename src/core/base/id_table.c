/* id_table.c - a sorted array and binary search; see id_table.h. */
#include "base/id_table.h"

#include <stdlib.h>
#include <string.h>

void tp_id_table_init(tp_id_table *t, size_t record_size)
{
	*t = (tp_id_table){ .size = record_size };
}

void tp_id_table_fini(tp_id_table *t)
{
	free(t->v);
	tp_id_table_init(t, t->size);
}

/* The id of record i: the record's first member (memcpy: the table does
 * not know the record's type). */
static int64_t id_at(const tp_id_table *t, size_t i)
{
	int64_t id;
	memcpy(&id, tp_id_table_at(t, i), sizeof(id));
	return id;
}

/* Index of the first record with an id >= `id`. */
static size_t lower_bound(const tp_id_table *t, int64_t id)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (id_at(t, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void *tp_id_table_find(const tp_id_table *t, int64_t id)
{
	size_t i = lower_bound(t, id);
	return i < t->n && id_at(t, i) == id ? tp_id_table_at(t, i) : NULL;
}

static bool grow(tp_id_table *t)
{
	if (t->n < t->cap)
		return true;
	size_t cap = t->cap ? 2 * t->cap : 16;
	void *v = realloc(t->v, cap * t->size);
	if (!v)
		return false;
	t->v = v;
	t->cap = cap;
	return true;
}

void *tp_id_table_get(tp_id_table *t, int64_t id, bool *added)
{
	size_t i = lower_bound(t, id);
	if (added)
		*added = false;
	if (i < t->n && id_at(t, i) == id)
		return tp_id_table_at(t, i);
	if (!grow(t))
		return NULL;
	char *r = tp_id_table_at(t, i);
	memmove(r + t->size, r, (t->n - i) * t->size);
	t->n++;
	memset(r, 0, t->size);
	memcpy(r, &id, sizeof(id));
	if (added)
		*added = true;
	return r;
}

bool tp_id_table_remove(tp_id_table *t, int64_t id)
{
	size_t i = lower_bound(t, id);
	if (i == t->n || id_at(t, i) != id)
		return false;
	char *r = tp_id_table_at(t, i);
	memmove(r, r + t->size, (t->n - i - 1) * t->size);
	t->n--;
	return true;
}

size_t tp_id_table_keep(tp_id_table *t, bool (*keep)(const void *record))
{
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		void *r = tp_id_table_at(t, i);
		if (!keep(r))
			continue;
		if (k != i)
			memcpy(tp_id_table_at(t, k), r, t->size);
		k++;
	}
	size_t gone = t->n - k;
	t->n = k;
	return gone;
}
