/* alloc_registry.c - the table behind tp_alloc_create(); see alloc_registry.h. */
#include "alloc_registry.h"

#include <stddef.h>

const tp_alloc_entry *const tp_alloc_registry[] = {
	&tp_alloc_entry_first_free,
	NULL,
};
