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

bool tp_alloc_fits(tp_alloc *a, const tp_nodeset *free,
		   const tp_alloc_req *req, tp_nodeset *out)
{
	return req->nodes >= 1 && tp_nodeset_count(free) >= req->nodes &&
	       tp_alloc_place_req(a, free, req, out) == 0;
}

bool tp_alloc_req_constrained(const tp_alloc_req *req)
{
	return req->allowed || req->contiguous ||
	       (req->required && tp_nodeset_count(req->required) > 0);
}

static int refuse(tp_nodeset *out)
{
	tp_nodeset_zero(out);
	return -1;
}

/* The lowest run of consecutive usable nodes, at least req->nodes long,
 * that holds every required node. */
static int place_contiguous(const tp_nodeset *usable, const tp_alloc_req *req,
			    tp_nodeset *out)
{
	int n = req->nodes, lo = 0, hi = usable->n;
	if (req->required && tp_nodeset_count(req->required)) {
		int first = tp_nodeset_next(req->required, 0), last = first;
		for (int i = first; i >= 0; i = tp_nodeset_next(req->required, i + 1))
			last = i;
		if (last - first + 1 > n)
			n = last - first + 1;
		lo = last - n + 1 > 0 ? last - n + 1 : 0;
		hi = first + n < usable->n ? first + n : usable->n;
	}
	if (req->max_nodes > 0 && n > req->max_nodes)
		return refuse(out);
	for (int start = lo, run = 0, i = lo; i < hi; i++) {
		if (!tp_nodeset_test(usable, i)) {
			run = 0;
			start = i + 1;
			continue;
		}
		if (++run == n) {
			tp_nodeset_zero(out);
			tp_nodeset_set_range(out, start, start + n);
			return 0;
		}
	}
	return refuse(out);
}

/* The required nodes, and the allocator's choice for the rest on the
 * other usable nodes. */
static int place_with_required(tp_alloc *a, const tp_nodeset *usable,
			       const tp_alloc_req *req, tp_nodeset *out)
{
	int r = tp_nodeset_count(req->required);
	if (r >= req->nodes) {
		if (req->max_nodes > 0 && r > req->max_nodes)
			return refuse(out);
		tp_nodeset_copy(out, req->required);
		return 0;
	}
	tp_nodeset rest;
	if (tp_nodeset_init(&rest, usable->n))
		return refuse(out);
	tp_nodeset_copy(&rest, usable);
	tp_nodeset_andnot(&rest, req->required);
	tp_alloc_req more = { .nodes = req->nodes - r,
			      .max_nodes = req->max_nodes > 0 ? req->max_nodes - r : 0 };
	int rc = a->ops->place(a, &rest, &more, out);
	tp_nodeset_fini(&rest);
	if (rc)
		return refuse(out);
	tp_nodeset_or(out, req->required);
	return 0;
}

int tp_alloc_place_req(tp_alloc *a, const tp_nodeset *free,
		       const tp_alloc_req *req, tp_nodeset *out)
{
	if (!tp_alloc_req_constrained(req))
		return a->ops->place(a, free, req, out);
	tp_nodeset usable;
	if (tp_nodeset_init(&usable, free->n))
		return refuse(out);
	tp_nodeset_copy(&usable, free);
	if (req->allowed)
		tp_nodeset_and(&usable, req->allowed);
	bool has_required = req->required && tp_nodeset_count(req->required);
	tp_alloc_req plain = { .nodes = req->nodes, .max_nodes = req->max_nodes };
	int rc;
	if (has_required && !tp_nodeset_subset(req->required, &usable))
		rc = refuse(out);
	else if (req->contiguous)
		rc = place_contiguous(&usable, req, out);
	else if (has_required)
		rc = place_with_required(a, &usable, req, out);
	else
		rc = a->ops->place(a, &usable, &plain, out);
	tp_nodeset_fini(&usable);
	return rc;
}
