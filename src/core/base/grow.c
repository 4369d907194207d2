/* grow.c - see grow.h. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void *tp_grow(void *items, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return items;
	size_t want = *cap ? 2 * *cap : first;
	if (want <= n || want > SIZE_MAX / size)
		return NULL;
	void *p = realloc(items, want * size);
	if (p)
		*cap = want;
	return p;
}
