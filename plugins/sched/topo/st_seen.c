/* st_seen.c - running jobs of the previous cycle; see st_seen.h. */
#include "st_seen.h"
#include "base/grow.h"

#include <stdlib.h>

void st_seen_init(st_seen *s, int64_t now)
{
	*s = (st_seen){ .primed = true, .since = now };
}

void st_seen_fini(st_seen *s)
{
	free(s->prev);
	free(s->next);
	*s = (st_seen){ 0 };
}

void st_seen_reset(st_seen *s)
{
	s->nprev = s->nnext = 0;
	s->primed = false;
}

static bool in_prev(const st_seen *s, uint32_t id)
{
	size_t lo = 0, hi = s->nprev;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->prev[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nprev && s->prev[lo] == id;
}

int st_seen_note(st_seen *s, uint32_t id)
{
	uint32_t *n = tp_grow(s->next, &s->capnext, s->nnext, sizeof(*n), 64);
	if (!n)
		return -1;
	s->next = n;
	s->next[s->nnext++] = id;
	return s->primed && !in_prev(s, id);
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

void st_seen_end(st_seen *s, int64_t now)
{
	qsort(s->next, s->nnext, sizeof(*s->next), cmp_id);
	size_t u = 0;
	for (size_t i = 0; i < s->nnext; i++)
		if (!u || s->next[u - 1] != s->next[i])
			s->next[u++] = s->next[i];
	/* Swap the buffers: the old prev is next cycle's scratch. */
	uint32_t *t = s->prev;
	size_t cap = s->capprev;
	s->prev = s->next;
	s->capprev = s->capnext;
	s->nprev = u;
	s->next = t;
	s->capnext = cap;
	s->nnext = 0;
	s->primed = true;
	s->since = now;
}
