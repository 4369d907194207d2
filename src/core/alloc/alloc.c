/* alloc.c - allocator registry and generic helpers; see alloc.h. */
#include "alloc/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"

tp_alloc *tp_alloc_new(const tp_alloc_ops *ops, int nnodes, void *state)
{
	tp_alloc *a = calloc(1, sizeof(*a));
	if (a) {
		a->ops = ops;
		a->flags = ops->flags;
		a->nnodes = nnodes;
		a->state = state;
	}
	return a;
}

tp_alloc *tp_alloc_create(const char *name, const tp_alloc_cfg *cfg,
			  tp_error *err)
{
	for (const tp_alloc_entry *const *e = tp_alloc_registry; *e; e++)
		if (!strcmp((*e)->name, name))
			return (*e)->create(cfg, err);
	tp_errorf(err, "unknown allocator '%s'", name);
	return NULL;
}

void tp_alloc_destroy(tp_alloc *a)
{
	if (!a)
		return;
	if (a->ops->destroy)
		a->ops->destroy(a);
	free(a);
}

const char *const *tp_alloc_names(void)
{
	static const char *names[64];
	if (!names[0]) {
		int i = 0;
		for (const tp_alloc_entry *const *e = tp_alloc_registry;
		     *e && i < 63; e++)
			names[i++] = (*e)->name;
	}
	return names;
}

int tp_alloc_capacity(tp_alloc *a, const tp_nodeset *free)
{
	return a->ops->capacity ? a->ops->capacity(a, free)
				: tp_nodeset_count(free);
}

double tp_alloc_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	return a->ops->cost ? a->ops->cost(a, nodes) : -1.0;
}

bool tp_alloc_fits(tp_alloc *a, const tp_nodeset *free, int nodes,
		   tp_nodeset *out)
{
	return nodes >= 1 && tp_nodeset_count(free) >= nodes &&
	       tp_alloc_place(a, free, nodes, out) == 0;
}
