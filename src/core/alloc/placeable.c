/* placeable.c - per-size "ever placeable" answers; see placeable.h. */
#include "alloc/placeable.h"

#include <stdlib.h>
#include <string.h>

int tp_placeable_init(tp_placeable *p, int nnodes)
{
	memset(p, 0, sizeof(*p));
	p->nnodes = nnodes;
	p->known = calloc((size_t)nnodes + 1, sizeof(*p->known));
	if (!p->known || tp_nodeset_init(&p->scratch, nnodes)) {
		tp_placeable_fini(p);
		return -1;
	}
	return 0;
}

void tp_placeable_fini(tp_placeable *p)
{
	free(p->known);
	tp_nodeset_fini(&p->scratch);
	memset(p, 0, sizeof(*p));
}

void tp_placeable_forget(tp_placeable *p)
{
	memset(p->known, 0, (size_t)p->nnodes + 1);
}

bool tp_placeable_test(tp_placeable *p, tp_alloc *a, const tp_nodeset *all,
		       int nodes)
{
	if (nodes < 1 || nodes > p->nnodes)
		return false;
	if (!p->known[nodes])
		p->known[nodes] = tp_alloc_fits(a, all,
						&(tp_alloc_req){ .nodes = nodes },
						&p->scratch) ? 1 : -1;
	return p->known[nodes] > 0;
}
