/*
 * fuzz_hostlist.c - Slurm host list expressions (base/hostlist.h), as
 * topology.conf, torus.conf, the job-requests and the heterogeneous
 * machine files give them.  A list that expands is compressed
 * (tp_hostlist_compress) and expanded again: the same set of names.  Only
 * lists of up to ROUND_TRIP_MAX names make the round trip: under the
 * sanitizers a list of a million names takes seconds to sort, compress
 * and expand again, and the compressor's paths are the same for short
 * lists (its unit tests compress large ones).
 */
#include <stdlib.h>
#include <string.h>

#include "base/hostlist.h"
#include "fuzz_util.h"

#define ROUND_TRIP_MAX 65536

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, without repeats. */
static size_t unique(tp_hostlist *hl)
{
	if (!hl->n)
		return 0;
	qsort(hl->names, hl->n, sizeof(*hl->names), by_name);
	size_t k = 1;
	for (size_t i = 1; i < hl->n; i++)
		if (strcmp(hl->names[i], hl->names[k - 1]))
			hl->names[k++] = hl->names[i];
		else
			free(hl->names[i]);
	return hl->n = k;
}

static void round_trip(tp_hostlist *hl)
{
	char *text = tp_hostlist_compress((const char *const *)hl->names, hl->n);
	if (!text)
		fuzz_fail("out of memory");
	tp_hostlist back = { 0 };
	char msg[256] = "";
	if (tp_hostlist_expand(&back, text, msg, sizeof(msg)))
		fuzz_fail("compressed list '%s' does not expand: %s", text, msg);
	unique(hl);
	unique(&back);
	if (back.n != hl->n)
		fuzz_fail("compressed '%s' expands to %zu names, not %zu", text,
			  back.n, hl->n);
	for (size_t i = 0; i < hl->n; i++)
		if (strcmp(hl->names[i], back.names[i]))
			fuzz_fail("compressed '%s' expands to '%s', not '%s'", text,
				  back.names[i], hl->names[i]);
	tp_hostlist_fini(&back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *expr = fuzz_str(data, size);
	tp_hostlist hl = { 0 };
	char msg[256] = "";
	int rc = tp_hostlist_expand(&hl, expr, msg, sizeof(msg));
	if (rc && !msg[0])
		fuzz_fail("'%s' fails without a message", expr);
	if (rc == 0 && hl.n && hl.n <= ROUND_TRIP_MAX)
		round_trip(&hl);
	tp_hostlist_fini(&hl);
	free(expr);
	return 0;
}
