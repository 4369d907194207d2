/* nodeset.c - bitmap of node indices; see nodeset.h. */
#include "base/nodeset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bitops.h"

int tp_nodeset_init(tp_nodeset *s, int n)
{
	s->n = n;
	s->w = calloc((size_t)(n + 63) / 64 + 1, sizeof(uint64_t));
	return s->w ? 0 : -1;
}

int tp_nodeset_init_copy(tp_nodeset *s, const tp_nodeset *src)
{
	size_t words = (size_t)tp_nodeset_words(src);
	s->n = src->n;
	s->w = malloc((words + 1) * sizeof(uint64_t));
	if (!s->w)
		return -1;
	memcpy(s->w, src->w, words * sizeof(uint64_t));
	s->w[words] = 0;
	return 0;
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

/* Bits [lo, hi) of word k, for 64k <= lo < hi <= 64(k+1). */
static uint64_t word_mask(int lo, int hi)
{
	uint64_t up = (hi & 63) ? ((uint64_t)1 << (hi & 63)) - 1 : ~(uint64_t)0;
	return up & (~(uint64_t)0 << (lo & 63));
}

/* Words a..b hold [lo, hi); *first and *last mask its bits in words a
 * and b (lo < hi). */
static void range_words(int lo, int hi, int *a, int *b, uint64_t *first,
			uint64_t *last)
{
	*a = lo >> 6;
	*b = (hi - 1) >> 6;
	*first = ~(uint64_t)0 << (lo & 63);
	*last = ~(uint64_t)0 >> (63 - ((hi - 1) & 63));
	if (*a == *b)
		*first = *last = *first & *last;
}

void tp_nodeset_set_range(tp_nodeset *s, int lo, int hi)
{
	int a, b;
	uint64_t first, last;
	if (lo >= hi)
		return;
	range_words(lo, hi, &a, &b, &first, &last);
	s->w[a] |= first;
	if (b > a + 1)
		memset(s->w + a + 1, 0xff, (size_t)(b - a - 1) * sizeof(uint64_t));
	s->w[b] |= last;
}

void tp_nodeset_clear_range(tp_nodeset *s, int lo, int hi)
{
	int a, b;
	uint64_t first, last;
	if (lo >= hi)
		return;
	range_words(lo, hi, &a, &b, &first, &last);
	s->w[a] &= ~first;
	if (b > a + 1)
		memset(s->w + a + 1, 0, (size_t)(b - a - 1) * sizeof(uint64_t));
	s->w[b] &= ~last;
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

void tp_nodeset_copy_resized(tp_nodeset *dst, const tp_nodeset *src)
{
	int n = dst->n < src->n ? dst->n : src->n;
	int words = (n + 63) / 64;
	tp_nodeset_zero(dst);
	memcpy(dst->w, src->w, (size_t)words * sizeof(uint64_t));
	if (n & 63) /* bits past n stay zero (nodeset.h) */
		dst->w[words - 1] &= ((uint64_t)1 << (n & 63)) - 1;
}

void tp_nodeset_copy_words(tp_nodeset *dst, const tp_nodeset *src, int lo,
			   int hi)
{
	if (lo < hi)
		memcpy(dst->w + lo, src->w + lo, (size_t)(hi - lo) * sizeof(uint64_t));
}

/* Words [*lo, *hi) hold every member of s (*lo == *hi when empty).  A
 * job's nodes fill few of a large machine's words: operations with them
 * skip the rest, eight words a test. */
void tp_nodeset_span(const tp_nodeset *s, int *lo, int *hi)
{
	tp_nodeset_span_from(s, 0, lo, hi);
}

void tp_nodeset_span_from(const tp_nodeset *s, int from, int *lo, int *hi)
{
	const uint64_t *w = s->w;
	int m = tp_nodeset_words(s), k = from < m ? from : m;
	for (; k + 8 <= m; k += 8)
		if (w[k] | w[k + 1] | w[k + 2] | w[k + 3] | w[k + 4] | w[k + 5] |
		    w[k + 6] | w[k + 7])
			break;
	while (k < m && !w[k])
		k++;
	*lo = k;
	for (; m - 8 >= k; m -= 8)
		if (w[m - 1] | w[m - 2] | w[m - 3] | w[m - 4] | w[m - 5] |
		    w[m - 6] | w[m - 7] | w[m - 8])
			break;
	while (m > k && !w[m - 1])
		m--;
	*hi = m;
}

/* span() of src, within dst's words. */
static void span_in(const tp_nodeset *src, const tp_nodeset *dst, int *lo,
		    int *hi)
{
	tp_nodeset_span(src, lo, hi);
	int m = tp_nodeset_words(dst);
	if (*hi > m)
		*hi = m;
}

/* Members of one word.  Sets of nodes are mostly runs: whole words, set
 * or clear, are the common case and need no count. */
static inline int word_count(uint64_t x)
{
	if (!x)
		return 0;
	return x == ~(uint64_t)0 ? 64 : tp_popcount64(x);
}

void tp_nodeset_or(tp_nodeset *dst, const tp_nodeset *src)
{
	int lo, hi;
	span_in(src, dst, &lo, &hi);
	for (int k = lo; k < hi; k++)
		dst->w[k] |= src->w[k];
}

void tp_nodeset_and(tp_nodeset *dst, const tp_nodeset *src)
{
	for (int k = 0, m = tp_nodeset_words(dst); k < m; k++)
		dst->w[k] &= src->w[k];
}

void tp_nodeset_andnot(tp_nodeset *dst, const tp_nodeset *src)
{
	int lo, hi;
	span_in(src, dst, &lo, &hi);
	for (int k = lo; k < hi; k++)
		dst->w[k] &= ~src->w[k];
}

int tp_nodeset_or_counted(tp_nodeset *dst, const tp_nodeset *src)
{
	int lo, hi;
	span_in(src, dst, &lo, &hi);
	return tp_nodeset_or_counted_words(dst, src, lo, hi);
}

void tp_nodeset_or_words(tp_nodeset *dst, const tp_nodeset *src, int lo,
			 int hi)
{
	for (int k = lo; k < hi; k++)
		dst->w[k] |= src->w[k];
}

int tp_nodeset_or_counted_words(tp_nodeset *dst, const tp_nodeset *src,
				int lo, int hi)
{
	int c = 0;
	for (int k = lo; k < hi; k++) {
		uint64_t gain = src->w[k] & ~dst->w[k];
		c += word_count(gain);
		dst->w[k] |= gain;
	}
	return c;
}

int tp_nodeset_andnot_counted(tp_nodeset *dst, const tp_nodeset *src)
{
	int lo, hi;
	span_in(src, dst, &lo, &hi);
	return tp_nodeset_andnot_counted_words(dst, src, lo, hi);
}

int tp_nodeset_andnot_counted_words(tp_nodeset *dst, const tp_nodeset *src,
				    int lo, int hi)
{
	int c = 0;
	for (int k = lo; k < hi; k++) {
		uint64_t loss = src->w[k] & dst->w[k];
		c += word_count(loss);
		dst->w[k] &= ~loss;
	}
	return c;
}

/* Counting a whole set is the loop of popcounts every placement question
 * asks (a torus allocator's, several times a call).  On x86-64 built
 * without the popcount instruction (bitops.h) it is built a second time
 * with it, taken when the CPU has it: both count the same. */
#if !defined(TP_BITOPS_PORTABLE) && defined(__GNUC__) && \
	defined(__x86_64__) && !defined(__POPCNT__)
#define TP_COUNT_DISPATCH 1
__attribute__((target("popcnt")))
static int count_words_popcnt(const uint64_t *w, int lo, int hi)
{
	int c = 0;
	for (int k = lo; k < hi; k++)
		c += __builtin_popcountll(w[k]);
	return c;
}
#endif

static int count_words(const uint64_t *w, int lo, int hi)
{
	int c = 0;
	for (int k = lo; k < hi; k++)
		c += word_count(w[k]);
	return c;
}

int tp_nodeset_count(const tp_nodeset *s)
{
	int lo, hi;
	tp_nodeset_span(s, &lo, &hi);
#ifdef TP_COUNT_DISPATCH
	if (__builtin_cpu_supports("popcnt"))
		return count_words_popcnt(s->w, lo, hi);
#endif
	return count_words(s->w, lo, hi);
}

int tp_nodeset_count_range(const tp_nodeset *s, int lo, int hi)
{
	int c = 0;
	if (hi > s->n)
		hi = s->n;
	while (lo < hi) {
		int end = (lo | 63) + 1 < hi ? (lo | 63) + 1 : hi;
		c += tp_popcount64(s->w[lo >> 6] & word_mask(lo, end));
		lo = end;
	}
	return c;
}

bool tp_nodeset_intersects(const tp_nodeset *a, const tp_nodeset *b)
{
	int lo, hi;
	span_in(b, a, &lo, &hi);
	for (int k = lo; k < hi; k++)
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
	int i = k * 64 + tp_ctz64(word);
	return i < s->n ? i : -1;
}

int tp_nodeset_next_clear(const tp_nodeset *s, int from)
{
	if (from >= s->n)
		return s->n;
	int k = from >> 6, m = tp_nodeset_words(s);
	uint64_t word = ~s->w[k] & (~(uint64_t)0 << (from & 63));
	while (!word) {
		if (++k >= m)
			return s->n;
		word = ~s->w[k];
	}
	int i = k * 64 + tp_ctz64(word);
	return i < s->n ? i : s->n;
}

int tp_nodeset_lowest(const tp_nodeset *s, int count, tp_nodeset *out)
{
	return tp_nodeset_lowest_from(s, 0, count, out);
}

int tp_nodeset_lowest_from(const tp_nodeset *s, int from, int count,
			   tp_nodeset *out)
{
	int got = 0, m = tp_nodeset_words(s);
	int k = from < m ? from : m;
	const uint64_t *w = s->w;
	uint64_t *o = out->w;
	memset(o, 0, (size_t)k * sizeof(*o));
	/* Each word of out is written once, in order, as s is read. */
	while (k < m && got < count) {
		if (k + 8 <= m && !(w[k] | w[k + 1] | w[k + 2] | w[k + 3] |
				    w[k + 4] | w[k + 5] | w[k + 6] | w[k + 7])) {
			memset(o + k, 0, 8 * sizeof(*o));
			k += 8;
			continue;
		}
		uint64_t word = w[k];
		int have = word_count(word);
		if (have > count - got) {
			word = tp_lowest_bits64(word, count - got);
			have = count - got;
		}
		o[k++] = word;
		got += have;
	}
	memset(o + k, 0, (size_t)(m - k) * sizeof(*o));
	return got;
}

/* The decimal digits of v >= 0, written backwards to end just before
 * `end`; their count. */
static int put_index(char *end, int v)
{
	int l = 0;
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
		l++;
	} while (v);
	return l;
}

/* ",i" or ",i-j" (no comma first) into item; its length.  By hand: a
 * replay lists every job's nodes, and snprintf costs most of it. */
static int format_range(char *item, bool first, int i, int j)
{
	char digits[24];
	char *end = digits + sizeof(digits);
	int l = 0;
	if (i != j) {
		l = put_index(end, j);
		*(end - ++l) = '-';
	}
	l += put_index(end - l, i);
	if (!first)
		*(end - ++l) = ',';
	memcpy(item, end - l, (size_t)l);
	item[l] = '\0';
	return l;
}

char *tp_nodeset_format(const tp_nodeset *s)
{
	size_t cap = 64, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (int i = tp_nodeset_next(s, 0); i >= 0;) {
		int j = tp_nodeset_next_clear(s, i) - 1;
		char item[32];
		int l = format_range(item, len == 0, i, j);
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
