/* tt_state.c - settings, torus and allocator of select/torus; see tt_state.h. */
#include "tt_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *path_join(const char *dir, const char *file)
{
	if (file[0] == '/' || !dir || !dir[0])
		return strdup(file);
	size_t n = strlen(dir) + strlen(file) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, file);
	return p;
}

/* ---- the core allocator behind a node limit ---------------------------- */

typedef struct capped {
	tp_alloc *core;
	tp_torus *torus;   /* its options are adjusted per placement */
	int max_nodes;     /* 0: no limit */
} capped;

static int capped_place(tp_alloc *a, const tp_nodeset *free, int nodes,
			tp_nodeset *out)
{
	capped *c = a->state;
	tp_torus_opts saved = *tp_torus_options(c->torus), o = saved;
	tp_error err;
	int rc;

	if (c->max_nodes > 0) {
		if (nodes > c->max_nodes) {
			tp_nodeset_zero(out);
			return -1;
		}
		if (o.ntransit > c->max_nodes - nodes)
			o.ntransit = c->max_nodes - nodes;
	}
	if (o.ntransit == saved.ntransit)
		return tp_alloc_place(c->core, free, nodes, out);
	(void) tp_torus_set_options(c->torus, &o, &err); /* valid: smaller */
	rc = tp_alloc_place(c->core, free, nodes, out);
	(void) tp_torus_set_options(c->torus, &saved, &err);
	return rc;
}

static double capped_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	const capped *c = a->state;
	return tp_alloc_cost(c->core, nodes);
}

static void capped_destroy(tp_alloc *a)
{
	capped *c = a->state;
	tp_alloc_destroy(c->core);
	free(c);
}

static const tp_alloc_ops capped_ops = {
	.name = "select/torus (node limit)",
	.place = capped_place,
	.cost = capped_cost,
	.destroy = capped_destroy,
};

/* Takes `core` over (destroyed on failure too). */
static tp_alloc *capped_new(tp_alloc *core, tp_torus *t)
{
	capped *c = malloc(sizeof(*c));
	tp_alloc *a = c ? tp_alloc_new(&capped_ops, core->nnodes, c) : NULL;
	if (!a) {
		free(c);
		tp_alloc_destroy(core);
		return NULL;
	}
	*c = (capped){ .core = core, .torus = t };
	return a;
}

void tt_state_limit(tt_state *s, int max_nodes)
{
	capped *c = s->alloc->state;
	c->max_nodes = max_nodes > 0 ? max_nodes : 0;
}

/* ---- loading ------------------------------------------------------------- */

int tt_state_load(tt_state *s, const char *sched_params,
		  const char *default_conf, const char *confdir,
		  tp_error *err)
{
	tt_options o;

	*s = (tt_state){ 0 };
	if (tt_options_parse(&o, sched_params, err))
		return -1;
	s->conf_path = o.conf ? path_join(confdir, o.conf)
			      : strdup(default_conf);
	if (!s->conf_path) {
		tp_errorf(err, "torus.conf: out of memory");
		goto fail;
	}
	s->torus = tp_torus_load(s->conf_path, err);
	if (!s->torus)
		goto fail;

	if (o.have_method) {
		s->method = o.method;
		s->method_from = "SchedulerParameters torus_method=";
	} else {
		s->method = tp_torus_default_method(s->torus);
		s->method_from = "torus.conf Method=";
	}
	snprintf(s->alloc_name, sizeof(s->alloc_name), "torus-%s",
		 tp_torus_method_name(s->method));
	tp_alloc_cfg acfg = {
		.nnodes = tp_torus_nnodes(s->torus),
		.torus = s->torus,
	};
	tp_error aerr;
	tp_alloc *core = tp_alloc_create(s->alloc_name, &acfg, &aerr);
	if (!core) {
		tp_errorf(err, "%s: allocator %s: %s", s->conf_path,
			  s->alloc_name, aerr.msg);
		goto fail;
	}
	s->alloc = capped_new(core, s->torus);
	if (!s->alloc) {
		tp_errorf(err, "%s: out of memory", s->conf_path);
		goto fail;
	}
	tt_options_fini(&o);
	return 0;
fail:
	tt_options_fini(&o);
	tt_state_fini(s);
	return -1;
}

void tt_state_fini(tt_state *s)
{
	tp_alloc_destroy(s->alloc);
	tp_torus_free(s->torus);
	free(s->conf_path);
	*s = (tt_state){ 0 };
}

int tt_state_node_index(const void *torus, const char *name)
{
	return tp_torus_node_index(torus, name);
}
