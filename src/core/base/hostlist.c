/* hostlist.c - hostlist expression expansion; see hostlist.h. */
#include "base/hostlist.h"
#include "base/grow.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A range expansion beyond this is almost certainly a typo ("n[1-1000000]"). */
#define MAX_RANGE 1000000

static int push(tp_hostlist *hl, const char *name)
{
	char **p = tp_grow(hl->names, &hl->cap, hl->n, sizeof(*p), 64);
	if (!p)
		return -1;
	hl->names = p;
	if (!(hl->names[hl->n] = strdup(name)))
		return -1;
	hl->n++;
	return 0;
}

/* Digits only, no sign, at most 15 of them (no overflow): the number and
 * where it ends, or -1. */
static long parse_num(const char *s, const char **end)
{
	long v = 0;
	const char *p = s;
	for (; isdigit((unsigned char)*p) && p - s < 15; p++)
		v = v * 10 + (*p - '0');
	*end = p;
	return p == s || isdigit((unsigned char)*p) ? -1 : v;
}

/* A range list has no empty member: no leading, trailing or double comma. */
static bool has_empty_member(const char *ranges, size_t rlen)
{
	if (!rlen || ranges[0] == ',' || ranges[rlen - 1] == ',')
		return true;
	for (size_t i = 1; i < rlen; i++)
		if (ranges[i] == ',' && ranges[i - 1] == ',')
			return true;
	return false;
}

/* Would `more` names take hl past `stop`?  Then the message says so. */
static bool too_many(const tp_hostlist *hl, size_t stop, long more,
		     char *errbuf, size_t errlen)
{
	if (hl->n + (size_t)more <= stop)
		return false;
	snprintf(errbuf, errlen, "more than %d host names in one list",
		 TP_HOSTLIST_MAX_NAMES);
	return true;
}

/* Expand prefix + one range list "a-b,c" + suffix, up to `stop` names. */
static int expand_ranges(tp_hostlist *hl, size_t stop, const char *prefix,
			 size_t plen, const char *ranges, size_t rlen,
			 const char *suffix, char *errbuf, size_t errlen)
{
	if (has_empty_member(ranges, rlen)) {
		snprintf(errbuf, errlen, "empty range in '%.*s'", (int)rlen, ranges);
		return -1;
	}
	char *list = strndup(ranges, rlen), *save = NULL;
	if (!list)
		return -1;
	int rc = 0;
	for (char *tok = strtok_r(list, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		const char *end;
		int width = (int)(dash ? (size_t)(dash - tok) : strlen(tok));
		long lo = parse_num(tok, &end), hi = lo;
		if (lo < 0 || (dash ? end != dash : *end)) {
			snprintf(errbuf, errlen, "bad range '%s'", tok);
			rc = -1;
			break;
		}
		if (dash) {
			hi = parse_num(dash + 1, &end);
			if (hi < 0 || *end) {
				snprintf(errbuf, errlen, "bad range '%s'", tok);
				rc = -1;
				break;
			}
		}
		if (lo < 0 || hi < lo || hi - lo > MAX_RANGE) {
			snprintf(errbuf, errlen, "bad range '%s'", tok);
			rc = -1;
			break;
		}
		if (too_many(hl, stop, hi - lo + 1, errbuf, errlen)) {
			rc = -1;
			break;
		}
		int pad = (tok[0] == '0' && width > 1) ? width : 0;
		for (long v = lo; v <= hi && !rc; v++) {
			char name[256];
			int l = snprintf(name, sizeof(name), "%.*s%0*ld%s",
					 (int)plen, prefix, pad, v, suffix);
			if (l < 0 || (size_t)l >= sizeof(name)) {
				snprintf(errbuf, errlen, "host name too long");
				rc = -1;
			} else if (push(hl, name)) {
				snprintf(errbuf, errlen, "out of memory");
				rc = -1;
			}
		}
	}
	free(list);
	return rc;
}

/* One comma-free item: "pre[ranges]suf" or a plain name. */
static int expand_item(tp_hostlist *hl, size_t stop, const char *item,
		       char *errbuf, size_t errlen)
{
	const char *lb = strchr(item, '['), *rb = lb ? strchr(lb, ']') : NULL;
	if (!lb) {
		if (strchr(item, ']')) {
			snprintf(errbuf, errlen, "unbalanced ']' in '%s'", item);
			return -1;
		}
		if (too_many(hl, stop, 1, errbuf, errlen))
			return -1;
		if (push(hl, item)) {
			snprintf(errbuf, errlen, "out of memory");
			return -1;
		}
		return 0;
	}
	if (!rb || rb == lb + 1 || strchr(rb + 1, '[')) {
		snprintf(errbuf, errlen, "bad hostlist '%s'", item);
		return -1;
	}
	return expand_ranges(hl, stop, item, (size_t)(lb - item), lb + 1,
			     (size_t)(rb - lb - 1), rb + 1, errbuf, errlen);
}

int tp_hostlist_expand(tp_hostlist *hl, const char *expr, char *errbuf,
		       size_t errlen)
{
	/* Split on commas that are not inside brackets. */
	size_t len = strlen(expr);
	char *item = malloc(len + 1);
	if (!item)
		return -1;
	int depth = 0, rc = 0;
	size_t k = 0, stop = hl->n + TP_HOSTLIST_MAX_NAMES;
	for (size_t i = 0; i <= len && !rc; i++) {
		char ch = expr[i];
		if (ch == '[')
			depth++;
		else if (ch == ']' && --depth < 0) {
			snprintf(errbuf, errlen, "unbalanced ']' in '%s'", expr);
			rc = -1;
			break;
		}
		if ((ch == ',' && depth == 0) || ch == '\0') {
			item[k] = '\0';
			if (k == 0) {
				snprintf(errbuf, errlen, "empty host name in '%s'", expr);
				rc = -1;
			} else {
				rc = expand_item(hl, stop, item, errbuf, errlen);
			}
			k = 0;
		} else if (isspace((unsigned char)ch)) {
			snprintf(errbuf, errlen, "space in hostlist '%s'", expr);
			rc = -1;
		} else {
			item[k++] = ch;
		}
	}
	free(item);
	return rc;
}

void tp_hostlist_fini(tp_hostlist *hl)
{
	for (size_t i = 0; i < hl->n; i++)
		free(hl->names[i]);
	free(hl->names);
	memset(hl, 0, sizeof(*hl));
}
