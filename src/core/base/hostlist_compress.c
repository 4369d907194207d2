/* hostlist_compress.c - names to a ranged hostlist expression; see hostlist.h. */
#include "base/hostlist.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longer numeric suffixes are kept as plain names: nine digits fit a long
 * everywhere, and no real host numbering comes near them. */
#define MAX_DIGITS 9

/* One name split into prefix and numeric suffix. */
typedef struct host {
	const char *name;
	size_t plen;   /* prefix length; the whole name if has_num is false */
	long num;
	int nd;        /* digits of the suffix */
	int pad;       /* width it was zero-padded to, 0 if not padded */
	bool has_num;
	size_t idx;    /* position in the input, for the order of prefixes */
} host;

/* A run of consecutive numbers printed with one zero-padding width. */
typedef struct range {
	long lo, hi;
	int pad;
} range;

static host split(const char *name, size_t idx)
{
	size_t len = strlen(name), k = len;
	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	host h = { .name = name, .plen = len, .idx = idx };
	if (k == len || len - k > MAX_DIGITS)
		return h;
	h.plen = k;
	h.has_num = true;
	h.nd = (int)(len - k);
	h.num = strtol(name + k, NULL, 10);
	/* The expander pads a range to its first number's width when that
	 * number starts with 0, so only a leading zero makes a name padded. */
	h.pad = (h.nd > 1 && name[k] == '0') ? h.nd : 0;
	return h;
}

static int cmp_prefix(const host *a, const host *b)
{
	size_t n = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	return (int)a->has_num - (int)b->has_num;
}

/* Prefix, then number, then padding: each prefix's names in ascending
 * order, so runs can be grown in one pass. */
static int cmp_host(const void *pa, const void *pb)
{
	const host *a = pa, *b = pb;
	int c = cmp_prefix(a, b);
	if (c)
		return c;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	if (a->pad != b->pad)
		return a->pad < b->pad ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cmp_range(const void *pa, const void *pb)
{
	const range *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->pad - b->pad;
}

/* Can h be printed with zero padding to width `pad` (0: none)?  A padded
 * name only with its own width; an unpadded one with any width its digits
 * already fill ("n100" continues n098, n099 as n[098-100]). */
static bool fits(const host *h, int pad)
{
	if (h->pad)
		return pad == h->pad;
	return pad == 0 || pad <= h->nd;
}

/* The prefix's runs, built in one pass over its names in ascending order:
 * at most one open run per padding width.  Returns the number of runs in
 * out (room for n), duplicates dropped. */
static size_t build_ranges(const host *h, size_t n, range *out)
{
	range open[MAX_DIGITS + 1];
	bool is_open[MAX_DIGITS + 1] = { false };
	size_t nout = 0;
	for (size_t i = 0; i < n; i++) {
		int w, hit = -1;
		for (w = 0; w <= MAX_DIGITS && hit < 0; w++)
			if (is_open[w] && fits(&h[i], w) && open[w].hi >= h[i].num - 1)
				hit = w;
		if (hit >= 0) {
			open[hit].hi = h[i].num; /* extends, or repeats, the run */
			continue;
		}
		w = h[i].pad;
		if (is_open[w])
			out[nout++] = open[w];
		open[w] = (range){ h[i].num, h[i].num, w };
		is_open[w] = true;
	}
	for (int w = 0; w <= MAX_DIGITS; w++)
		if (is_open[w])
			out[nout++] = open[w];
	qsort(out, nout, sizeof(*out), cmp_range);
	return nout;
}

static void put_range(FILE *fp, const range *r)
{
	fprintf(fp, "%0*ld", r->pad, r->lo);
	if (r->hi > r->lo)
		fprintf(fp, "-%0*ld", r->pad, r->hi);
}

/* One prefix's names (sorted, all sharing prefix and has_num) as one item:
 * "n5", "n[1-4,9]" or a plain name once. */
static void put_block(FILE *fp, const host *h, size_t n, range *tmp)
{
	if (!h->has_num) {
		fputs(h->name, fp);
		return;
	}
	size_t nr = build_ranges(h, n, tmp);
	bool bracket = nr > 1 || tmp[0].hi > tmp[0].lo;
	fprintf(fp, "%.*s%s", (int)h->plen, h->name, bracket ? "[" : "");
	for (size_t i = 0; i < nr; i++) {
		if (i)
			fputc(',', fp);
		put_range(fp, &tmp[i]);
	}
	if (bracket)
		fputc(']', fp);
}

/* A block of equal prefixes in the sorted hosts and where the prefix
 * first appeared in the input. */
typedef struct block {
	size_t start, len, first;
} block;

static int cmp_block(const void *pa, const void *pb)
{
	const block *a = pa, *b = pb;
	return a->first < b->first ? -1 : a->first > b->first;
}

static size_t find_blocks(const host *h, size_t n, block *b)
{
	size_t nb = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || cmp_prefix(&h[i - 1], &h[i]))
			b[nb++] = (block){ i, 0, h[i].idx };
		block *cur = &b[nb - 1];
		cur->len++;
		if (h[i].idx < cur->first)
			cur->first = h[i].idx;
	}
	qsort(b, nb, sizeof(*b), cmp_block);
	return nb;
}

static void put_all(FILE *fp, const char *const *names, size_t n, host *h,
		    block *b, range *tmp)
{
	for (size_t i = 0; i < n; i++)
		h[i] = split(names[i], i);
	qsort(h, n, sizeof(*h), cmp_host);
	size_t nb = find_blocks(h, n, b);
	for (size_t i = 0; i < nb; i++) {
		if (i)
			fputc(',', fp);
		put_block(fp, h + b[i].start, b[i].len, tmp);
	}
}

char *tp_hostlist_compress(const char *const *names, size_t n)
{
	size_t cap = n ? n : 1;
	host *h = malloc(cap * sizeof(*h));
	block *b = malloc(cap * sizeof(*b));
	range *tmp = malloc(cap * sizeof(*tmp));
	char *out = NULL;
	size_t len = 0;
	FILE *fp = h && b && tmp ? open_memstream(&out, &len) : NULL;
	if (fp) {
		put_all(fp, names, n, h, b, tmp);
		int bad = ferror(fp);
		if (fclose(fp) || bad) {
			free(out);
			out = NULL;
		}
	}
	free(h);
	free(b);
	free(tmp);
	return out;
}
