/* name_index.c - open addressing over FNV-1a hashes; see name_index.h. */
#include "base/name_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The slot holding `key`, or the empty slot where it would go. */
static uint32_t slot_of(const int *slot, int cap, char *const *names,
			const char *key)
{
	uint32_t mask = (uint32_t)cap - 1;
	uint32_t h = fnv1a(key) & mask;
	while (slot[h] >= 0 && strcmp(names[slot[h]], key))
		h = (h + 1) & mask;
	return h;
}

int tp_name_index_find(const tp_name_index *x, char *const *names,
		       const char *key)
{
	return x->cap ? x->slot[slot_of(x->slot, x->cap, names, key)] : -1;
}

/* At most half full, so that probes stay short. */
static int grow(tp_name_index *x, char *const *names)
{
	if (x->cap && 2 * (x->count + 1) <= x->cap)
		return 0;
	int cap = x->cap ? 2 * x->cap : 64;
	int *slot = malloc((size_t)cap * sizeof(*slot));
	if (!slot)
		return -1;
	memset(slot, 0xff, (size_t)cap * sizeof(*slot));
	for (int i = 0; i < x->count; i++)
		slot[slot_of(slot, cap, names, names[i])] = i;
	free(x->slot);
	x->slot = slot;
	x->cap = cap;
	return 0;
}

int tp_name_index_add(tp_name_index *x, char *const *names)
{
	if (grow(x, names))
		return -1;
	x->slot[slot_of(x->slot, x->cap, names, names[x->count])] = x->count;
	x->count++;
	return 0;
}

void tp_name_index_fini(tp_name_index *x)
{
	free(x->slot);
	*x = (tp_name_index){ 0 };
}
