/* alloc.c - allocator registry and generic helpers; see alloc.h. */
#include "alloc/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"

static atomic_uint_fast64_t next_serial;

tp_alloc *tp_alloc_new(const tp_alloc_ops *ops, int nnodes, void *state)
{
	tp_alloc *a = calloc(1, sizeof(*a));
	if (a) {
		a->ops = ops;
		a->flags = ops->flags;
		a->nnodes = nnodes;
		a->state = state;
		a->serial = atomic_fetch_add(&next_serial, 1) + 1;
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

double tp_alloc_spread(tp_alloc *a, const tp_nodeset *nodes)
{
	return a->ops->spread ? a->ops->spread(a, nodes) : 1.0;
}

bool tp_alloc_fits(tp_alloc *a, const tp_nodeset *free,
		   const tp_alloc_req *req, tp_nodeset *out)
{
	return req->nodes >= 1 && tp_nodeset_count(free) >= req->nodes &&
	       tp_alloc_place_req(a, free, req, out) == 0;
}

bool tp_alloc_req_constrained(const tp_alloc_req *req)
{
	return req->allowed || req->contiguous || req->max_groups > 0 ||
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

/* Usable nodes, not required, in the groups of the required nodes. */
static void near_required(const tp_groups *g, const tp_nodeset *rest,
			  const tp_nodeset *required, bool *pick,
			  tp_nodeset *near)
{
	memset(pick, 0, (size_t)g->ngroups * sizeof(*pick));
	for (int i = tp_nodeset_next(required, 0); i >= 0;
	     i = tp_nodeset_next(required, i + 1))
		pick[g->of[i]] = true;
	tp_nodeset_zero(near);
	for (int i = tp_nodeset_next(rest, 0); i >= 0;
	     i = tp_nodeset_next(rest, i + 1))
		if (pick[g->of[i]])
			tp_nodeset_set(near, i);
}

/* The required nodes, and the allocator's choice for the rest on the
 * other usable nodes: first within the groups (leaf switches) of the
 * required nodes, as Slurm's topology/tree starts from their switches,
 * then anywhere. */
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
	tp_nodeset rest, near;
	bool *pick = a->groups ? calloc((size_t)a->groups->ngroups + 1, 1) : NULL;
	if (tp_nodeset_init(&rest, usable->n) || tp_nodeset_init(&near, usable->n) ||
	    (a->groups && !pick)) {
		tp_nodeset_fini(&rest);
		free(pick);
		return refuse(out);
	}
	tp_nodeset_copy(&rest, usable);
	tp_nodeset_andnot(&rest, req->required);
	tp_alloc_req more = { .nodes = req->nodes - r,
			      .max_nodes = req->max_nodes > 0 ? req->max_nodes - r : 0 };
	int rc = -1;
	if (pick) {
		near_required(a->groups, &rest, req->required, pick, &near);
		if (tp_nodeset_count(&near) >= more.nodes)
			rc = a->ops->place(a, &near, &more, out);
	}
	if (rc)
		rc = a->ops->place(a, &rest, &more, out);
	tp_nodeset_fini(&rest);
	tp_nodeset_fini(&near);
	free(pick);
	if (rc)
		return refuse(out);
	tp_nodeset_or(out, req->required);
	return 0;
}

typedef struct group_count {
	int group, free;
} group_count;

static int cmp_free_asc(const void *x, const void *y)
{
	const group_count *a = x, *b = y;
	if (a->free != b->free)
		return a->free < b->free ? -1 : 1;
	return a->group - b->group;
}

/* Usable nodes per group, sorted by count (fewest first), then group. */
static group_count *count_groups(const tp_groups *g, const tp_nodeset *usable)
{
	group_count *c = calloc((size_t)g->ngroups + 1, sizeof(*c));
	if (!c)
		return NULL;
	for (int k = 0; k < g->ngroups; k++)
		c[k].group = k;
	for (int i = tp_nodeset_next(usable, 0); i >= 0;
	     i = tp_nodeset_next(usable, i + 1))
		c[g->of[i]].free++;
	qsort(c, (size_t)g->ngroups, sizeof(*c), cmp_free_asc);
	return c;
}

/* Usable nodes of groups c[from..to) into s (`pick`: ngroups flags). */
static void groups_nodes(const tp_groups *g, const group_count *c, int from,
			 int to, const tp_nodeset *usable, bool *pick,
			 tp_nodeset *s)
{
	memset(pick, 0, (size_t)g->ngroups * sizeof(*pick));
	for (int k = from; k < to; k++)
		pick[c[k].group] = true;
	tp_nodeset_zero(s);
	for (int i = tp_nodeset_next(usable, 0); i >= 0;
	     i = tp_nodeset_next(usable, i + 1))
		if (pick[g->of[i]])
			tp_nodeset_set(s, i);
}

int tp_groups_touched(const tp_groups *g, const tp_nodeset *s)
{
	bool *seen = calloc((size_t)g->ngroups + 1, sizeof(*seen));
	if (!seen)
		return -1;
	int n = 0;
	for (int i = tp_nodeset_next(s, 0); i >= 0; i = tp_nodeset_next(s, i + 1))
		if (!seen[g->of[i]]) {
			seen[g->of[i]] = true;
			n++;
		}
	free(seen);
	return n;
}

/*
 * At most max_groups groups, as Slurm's topology/tree reads --switches:
 * one group, the best fit first (the group with the fewest usable nodes
 * that might hold the job, as Slurm picks the lowest switch that fits);
 * more groups: the max_groups groups with the most usable nodes.  The
 * other constraints apply inside.
 */
static int place_in_groups(tp_alloc *a, const tp_nodeset *avail,
			   const tp_alloc_req *req, tp_nodeset *out)
{
	const tp_groups *g = a->groups;
	tp_nodeset usable, within;
	tp_alloc_req inner = *req;
	inner.max_groups = 0;
	if (tp_nodeset_init(&usable, avail->n) || tp_nodeset_init(&within, avail->n)) {
		tp_nodeset_fini(&usable);
		return refuse(out);
	}
	tp_nodeset_copy(&usable, avail);
	if (req->allowed)
		tp_nodeset_and(&usable, req->allowed);
	group_count *c = count_groups(g, &usable);
	bool *pick = calloc((size_t)g->ngroups + 1, sizeof(*pick));
	int rc = -1;
	for (int k = 0; c && pick && k < g->ngroups && rc; k++) {
		if (req->max_groups == 1) {
			if (c[k].free < req->nodes)
				continue;
			groups_nodes(g, c, k, k + 1, &usable, pick, &within);
		} else {
			int from = g->ngroups - req->max_groups;
			groups_nodes(g, c, from < 0 ? 0 : from, g->ngroups,
				     &usable, pick, &within);
			k = g->ngroups; /* one try */
		}
		inner.allowed = &within;
		rc = tp_alloc_place_req(a, avail, &inner, out);
	}
	free(c);
	free(pick);
	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&within);
	return rc ? refuse(out) : 0;
}

/* TP_ALLOC_GROUPS_AFTER: the placement without the limit, if it keeps
 * to max_groups groups. */
static int place_then_count(tp_alloc *a, const tp_nodeset *free,
			    const tp_alloc_req *req, tp_nodeset *out)
{
	tp_alloc_req inner = *req;
	inner.max_groups = 0;
	inner.probe = false; /* its groups are counted */
	if (tp_alloc_place_req(a, free, &inner, out))
		return -1;
	int n = tp_groups_touched(a->groups, out);
	return n < 0 || n > req->max_groups ? refuse(out) : 0;
}

static int place_any(tp_alloc *a, const tp_nodeset *free,
		     const tp_alloc_req *req, tp_nodeset *out)
{
	if (!tp_alloc_req_constrained(req) ||
	    (a->flags & TP_ALLOC_OWN_CONSTRAINTS))
		return a->ops->place(a, free, req, out);
	if (req->max_groups > 0 && a->groups)
		return a->flags & TP_ALLOC_GROUPS_AFTER
			       ? place_then_count(a, free, req, out)
			       : place_in_groups(a, free, req, out);
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
	else if (has_required && (a->flags & TP_ALLOC_OWN_REQUIRED) &&
		 tp_nodeset_count(req->required) < req->nodes)
		rc = a->ops->place(a, &usable, &(tp_alloc_req){
			.nodes = req->nodes, .max_nodes = req->max_nodes,
			.required = req->required }, out);
	else if (has_required)
		rc = place_with_required(a, &usable, req, out);
	else
		rc = a->ops->place(a, &usable, &plain, out);
	tp_nodeset_fini(&usable);
	return rc;
}

static int node_fabric(const tp_groups *g, int v)
{
	return g->fabric[g->of[v]];
}

/* Does s lie in one fabric (or is it empty)? */
static bool one_fabric(const tp_groups *g, const tp_nodeset *s)
{
	int v = tp_nodeset_next(s, 0);
	int f = v >= 0 ? node_fabric(g, v) : -1;
	for (; v >= 0; v = tp_nodeset_next(s, v + 1))
		if (node_fabric(g, v) != f)
			return false;
	return true;
}

/* The request inside each fabric in turn (allowed narrowed to it); the
 * first fabric that holds it wins.  Reached only when the plain answer
 * spans fabrics: constraints (required nodes, contiguous, --switches)
 * that an allocator's own fabric rule does not see. */
static int place_per_fabric(tp_alloc *a, const tp_nodeset *free,
			    const tp_alloc_req *req, tp_nodeset *out)
{
	const tp_groups *g = a->groups;
	tp_nodeset mask;
	if (tp_nodeset_init(&mask, free->n))
		return refuse(out);
	tp_alloc_req inner = *req;
	inner.allowed = &mask;
	int rc = -1;
	for (int f = 0; f < g->nfabric && rc; f++) {
		tp_nodeset_zero(&mask);
		for (int v = 0; v < free->n; v++)
			if (node_fabric(g, v) == f)
				tp_nodeset_set(&mask, v);
		if (req->required && !tp_nodeset_subset(req->required, &mask))
			continue;
		if (req->allowed)
			tp_nodeset_and(&mask, req->allowed);
		rc = place_any(a, free, &inner, out);
		if (!rc && !one_fabric(g, out))
			rc = -1;
	}
	tp_nodeset_fini(&mask);
	return rc ? refuse(out) : 0;
}

int tp_alloc_place_req(tp_alloc *a, const tp_nodeset *free,
		       const tp_alloc_req *req, tp_nodeset *out)
{
	const tp_groups *g = a->groups;
	int rc = place_any(a, free, req, out);
	if (rc || !g || g->nfabric < 2 || !g->fabric || one_fabric(g, out))
		return rc;
	return place_per_fabric(a, free, req, out);
}
