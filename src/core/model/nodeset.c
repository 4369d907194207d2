/* nodeset.c - bitmap of node indices; see nodeset.h. */
#include "model/nodeset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tp_nodeset_words(const tp_nodeset *s)
{
	return (s->n + 63) / 64;
}

int tp_nodeset_init(tp_nodeset *s, int n)
{
	s->n = n;
	s->w = calloc((size_t)(n + 63) / 64 + 1, sizeof(uint64_t));
	return s->w ? 0 : -1;
}

void tp_nodeset_fini(tp_nodeset *s)
{
	free(s->w);
	s->w = NULL;
	s->n = 0;
}

void tp_nodeset_zero(tp_nodeset *s)
{
	memset(s->w, 0, (size_t)tp_nodeset_words(s) * sizeof(uint64_t));
}

void tp_nodeset_set_range(tp_nodeset *s, int lo, int hi)
{
	for (int i = lo; i < hi && (i & 63); i++)
		tp_nodeset_set(s, i);
	int i = lo + ((64 - (lo & 63)) & 63);
	for (; i + 64 <= hi; i += 64)
		s->w[i >> 6] = ~(uint64_t)0;
	for (; i < hi; i++)
		tp_nodeset_set(s, i);
}

void tp_nodeset_fill(tp_nodeset *s)
{
	tp_nodeset_zero(s);
	tp_nodeset_set_range(s, 0, s->n);
}

void tp_nodeset_copy(tp_nodeset *dst, const tp_nodeset *src)
{
	memcpy(dst->w, src->w, (size_t)tp_nodeset_words(src) * sizeof(uint64_t));
}

void tp_nodeset_or(tp_nodeset *dst, const tp_nodeset *src)
{
	for (int k = 0, m = tp_nodeset_words(dst); k < m; k++)
		dst->w[k] |= src->w[k];
}

void tp_nodeset_and(tp_nodeset *dst, const tp_nodeset *src)
{
	for (int k = 0, m = tp_nodeset_words(dst); k < m; k++)
		dst->w[k] &= src->w[k];
}

void tp_nodeset_andnot(tp_nodeset *dst, const tp_nodeset *src)
{
	for (int k = 0, m = tp_nodeset_words(dst); k < m; k++)
		dst->w[k] &= ~src->w[k];
}

int tp_nodeset_count(const tp_nodeset *s)
{
	int c = 0;
	for (int k = 0, m = tp_nodeset_words(s); k < m; k++)
		c += __builtin_popcountll(s->w[k]);
	return c;
}

int tp_nodeset_count_range(const tp_nodeset *s, int lo, int hi)
{
	int c = 0;
	for (int i = tp_nodeset_next(s, lo); i >= 0 && i < hi;
	     i = tp_nodeset_next(s, i + 1))
		c++;
	return c;
}

bool tp_nodeset_intersects(const tp_nodeset *a, const tp_nodeset *b)
{
	for (int k = 0, m = tp_nodeset_words(a); k < m; k++)
		if (a->w[k] & b->w[k])
			return true;
	return false;
}

bool tp_nodeset_subset(const tp_nodeset *a, const tp_nodeset *b)
{
	for (int k = 0, m = tp_nodeset_words(a); k < m; k++)
		if (a->w[k] & ~b->w[k])
			return false;
	return true;
}

bool tp_nodeset_equal(const tp_nodeset *a, const tp_nodeset *b)
{
	return a->n == b->n &&
	       !memcmp(a->w, b->w, (size_t)tp_nodeset_words(a) * sizeof(uint64_t));
}

int tp_nodeset_next(const tp_nodeset *s, int from)
{
	if (from >= s->n)
		return -1;
	int k = from >> 6, m = tp_nodeset_words(s);
	uint64_t word = s->w[k] & (~(uint64_t)0 << (from & 63));
	while (!word) {
		if (++k >= m)
			return -1;
		word = s->w[k];
	}
	int i = k * 64 + __builtin_ctzll(word);
	return i < s->n ? i : -1;
}

char *tp_nodeset_format(const tp_nodeset *s)
{
	size_t cap = 64, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (int i = tp_nodeset_next(s, 0); i >= 0;) {
		int j = i;
		while (j + 1 < s->n && tp_nodeset_test(s, j + 1))
			j++;
		char item[32];
		int l = (i == j) ? snprintf(item, sizeof(item), "%s%d", len ? "," : "", i)
				 : snprintf(item, sizeof(item), "%s%d-%d", len ? "," : "", i, j);
		if (len + (size_t)l + 1 > cap) {
			cap = 2 * cap + (size_t)l;
			char *grown = realloc(out, cap);
			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
		}
		memcpy(out + len, item, (size_t)l + 1);
		len += (size_t)l;
		i = tp_nodeset_next(s, j + 1);
	}
	return out;
}
