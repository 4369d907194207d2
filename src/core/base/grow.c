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

int tp_grow_to(void **items, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return -1;
		n *= 2;
	}
	void *p = realloc(*items, n * size);
	if (!p)
		return -1;
	*items = p;
	*cap = n;
	return 0;
}
