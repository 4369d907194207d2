/* outside.c - which jobs may use nodes outside the topology, and the
 * allocator wrapper that places by it; see outside.h. */
#include "alloc/outside.h"

#include <stdlib.h>
#include <string.h>

static const char *const rule_names[] = { "never", "one-node" };

const char *tp_outside_rule_name(tp_outside_rule r)
{
	return (unsigned)r < 2 ? rule_names[r] : "?";
}

int tp_outside_rule_parse(const char *name, tp_outside_rule *r)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(name, rule_names[i])) {
			*r = (tp_outside_rule)i;
			return 0;
		}
	return -1;
}

const char *tp_outside_rule_says(tp_outside_rule r)
{
	if (r == TP_OUTSIDE_ONE_NODE)
		return "only a job of one node may get one, as with Slurm 26.05's topology/tree";
	return "no job gets one, as with Slurm 24.11's topology/tree and 22.05's select/linear with topology/tree";
}

bool tp_outside_allowed(tp_outside_rule rule, const tp_alloc_req *req)
{
	int required = req->required ? tp_nodeset_count(req->required) : 0;
	return rule == TP_OUTSIDE_ONE_NODE && req->nodes == 1 &&
	       req->max_nodes <= 1 && required <= 1;
}

void tp_outside_usable(const tp_outside *o, const tp_alloc_req *req,
		       tp_nodeset *s)
{
	if (o->ninside < s->n && !tp_outside_allowed(o->rule, req))
		tp_nodeset_clear_range(s, o->ninside, s->n);
}

/* ---- the wrapper ---- */

typedef struct wrap {
	tp_alloc_ops ops;   /* inner's, with our place/capacity/cost/destroy */
	tp_alloc *inner;
	tp_outside o;
	tp_nodeset usable;  /* o.nnodes: what a request may use */
	tp_nodeset in_free, in_required, in_out, in_keep; /* o.ninside: inner's view */
} wrap;

static int refuse(tp_nodeset *out)
{
	tp_nodeset_zero(out);
	return -1;
}

/* Inner's placement on the topology part of w->usable; -1 when the
 * request needs an outside node or inner finds nothing. */
static int place_inside(wrap *w, const tp_alloc_req *req, tp_nodeset *out)
{
	tp_alloc_req in = *req;
	in.allowed = NULL; /* in w->usable already */
	if (req->required && tp_nodeset_count(req->required)) {
		tp_nodeset_copy_resized(&w->in_required, req->required);
		if (tp_nodeset_count(&w->in_required) !=
		    tp_nodeset_count(req->required))
			return -1;
		in.required = &w->in_required;
	} else {
		in.required = NULL;
	}
	if (req->keep_free) {
		tp_nodeset_copy_resized(&w->in_keep, req->keep_free);
		in.keep_free = &w->in_keep;
	}
	tp_nodeset_copy_resized(&w->in_free, &w->usable);
	if (tp_alloc_place_req(w->inner, &w->in_free, &in, &w->in_out))
		return -1;
	tp_nodeset_copy_resized(out, &w->in_out);
	return 0;
}

/* An allowed request that inner could not place: the outside node it
 * requires, if any (a required topology node is inner's to place), else
 * the lowest usable outside nodes.  No topology among them: any will do. */
static int place_outside(wrap *w, const tp_alloc_req *req, tp_nodeset *out)
{
	if (req->required && tp_nodeset_count(req->required)) {
		if (tp_nodeset_next(req->required, w->o.ninside) < 0)
			return refuse(out);
		tp_nodeset_copy(out, req->required);
		return 0;
	}
	tp_nodeset_zero(out);
	int got = 0;
	for (int i = tp_nodeset_next(&w->usable, w->o.ninside);
	     i >= 0 && got < req->nodes; i = tp_nodeset_next(&w->usable, i + 1)) {
		tp_nodeset_set(out, i);
		got++;
	}
	return got == req->nodes ? 0 : refuse(out);
}

static int wrap_place(tp_alloc *a, const tp_nodeset *free,
		      const tp_alloc_req *req, tp_nodeset *out)
{
	wrap *w = a->state;
	tp_nodeset_copy(&w->usable, free);
	if (req->allowed)
		tp_nodeset_and(&w->usable, req->allowed);
	tp_outside_usable(&w->o, req, &w->usable);
	if (req->required && !tp_nodeset_subset(req->required, &w->usable))
		return refuse(out);
	if (place_inside(w, req, out) == 0)
		return 0;
	if (!tp_outside_allowed(w->o.rule, req))
		return refuse(out);
	return place_outside(w, req, out);
}

/* Inner's answers on the topology part of a set. */
static int wrap_capacity(tp_alloc *a, const tp_nodeset *free)
{
	wrap *w = a->state;
	tp_nodeset_copy_resized(&w->in_free, free);
	return tp_alloc_capacity(w->inner, &w->in_free);
}

static double wrap_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	wrap *w = a->state;
	tp_nodeset_copy_resized(&w->in_free, nodes);
	if (!tp_nodeset_count(&w->in_free))
		return 0.0; /* outside nodes alone: no topology cost */
	return tp_alloc_cost(w->inner, &w->in_free);
}

/* Outside nodes have no place in the topology: the spread of the part
 * inside it. */
static double wrap_spread(tp_alloc *a, const tp_nodeset *nodes)
{
	wrap *w = a->state;
	tp_nodeset_copy_resized(&w->in_free, nodes);
	return tp_alloc_spread(w->inner, &w->in_free);
}

static void wrap_free(wrap *w)
{
	if (!w)
		return;
	tp_alloc_destroy(w->inner);
	tp_nodeset_fini(&w->usable);
	tp_nodeset_fini(&w->in_free);
	tp_nodeset_fini(&w->in_required);
	tp_nodeset_fini(&w->in_keep);
	tp_nodeset_fini(&w->in_out);
	free(w);
}

static void wrap_destroy(tp_alloc *a)
{
	wrap_free(a->state);
}

tp_alloc *tp_alloc_outside_wrap(tp_alloc *inner, const tp_outside *o,
				tp_error *err)
{
	if (inner->nnodes != o->ninside || o->nnodes < o->ninside) {
		tp_errorf(err, "allocator %s has %d nodes, the topology %d (of %d)",
			  inner->ops->name, inner->nnodes, o->ninside, o->nnodes);
		tp_alloc_destroy(inner);
		return NULL;
	}
	wrap *w = calloc(1, sizeof(*w));
	if (!w) {
		tp_alloc_destroy(inner);
		tp_errorf(err, "out of memory");
		return NULL;
	}
	w->inner = inner;
	w->o = *o;
	w->ops = *inner->ops;
	w->ops.place = wrap_place;
	w->ops.capacity = wrap_capacity;
	w->ops.cost = inner->ops->cost ? wrap_cost : NULL;
	w->ops.spread = inner->ops->spread ? wrap_spread : NULL;
	w->ops.destroy = wrap_destroy;
	tp_alloc *a = NULL;
	if (!tp_nodeset_init(&w->usable, o->nnodes) &&
	    !tp_nodeset_init(&w->in_free, o->ninside) &&
	    !tp_nodeset_init(&w->in_required, o->ninside) &&
	    !tp_nodeset_init(&w->in_keep, o->ninside) &&
	    !tp_nodeset_init(&w->in_out, o->ninside) &&
	    (a = tp_alloc_new(&w->ops, o->nnodes, w)))
		a->flags = (inner->flags & ~TP_ALLOC_FLAT) |
			   TP_ALLOC_OWN_CONSTRAINTS;
	if (!a) {
		wrap_free(w);
		tp_errorf(err, "out of memory");
	}
	return a;
}
