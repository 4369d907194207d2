/* policy.c - policy registry, options and dispatch; see policy.h. */
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>

static const tp_policy_ops *const policies[] = {
	&tp_policy_fcfs,
	&tp_policy_easy,
	&tp_policy_conservative,
	&tp_policy_window_ff,
	&tp_policy_batch_njob,
	&tp_policy_rb_har,
	NULL,
};

void tp_policy_opts_default(tp_policy_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->window = 1;
	o->njob = 4;            /* the patent's default batch */
	o->rbhar_max_ext = 1;   /* the paper extends once, then kills */
	o->rbhar_max_time = 0;
	o->rbhar_resubmit = 1;
	o->rbhar_factor = 2.0;
}

int tp_policy_opts_check(const tp_policy_opts *o, tp_error *err)
{
	if (o->window < 1)
		return tp_errorf(err, "window must be >= 1 (got %d)", o->window);
	if (o->window_rule != TP_WINDOW_QUEUE && o->window_rule != TP_WINDOW_INDEX)
		return tp_errorf(err, "window rule must be queue or index (got %d)",
				 (int)o->window_rule);
	if (o->njob < 1)
		return tp_errorf(err, "njob must be >= 1 (got %d)", o->njob);
	if (o->rbhar_max_ext < 0)
		return tp_errorf(err, "rbhar max extensions must be >= 0 (got %d)",
				 o->rbhar_max_ext);
	if (o->rbhar_max_time < 0)
		return tp_errorf(err, "rbhar max extension time must be >= 0 (got %lld)",
				 (long long)o->rbhar_max_time);
	if (!(o->rbhar_factor >= 1.0))
		return tp_errorf(err, "rbhar estimate factor must be >= 1 (got %g)",
				 o->rbhar_factor);
	return 0;
}

tp_policy *tp_policy_create(const char *name, const tp_policy_opts *opts,
			    tp_error *err)
{
	tp_policy_opts def;
	if (!opts) {
		tp_policy_opts_default(&def);
		opts = &def;
	}
	if (tp_policy_opts_check(opts, err))
		return NULL;
	for (const tp_policy_ops *const *p = policies; *p; p++) {
		if (strcmp((*p)->name, name))
			continue;
		tp_policy *pol = calloc(1, sizeof(*pol));
		if (!pol) {
			tp_errorf(err, "out of memory");
			return NULL;
		}
		pol->ops = *p;
		pol->opts = *opts;
		return pol;
	}
	tp_errorf(err, "unknown policy '%s'", name);
	return NULL;
}

void tp_policy_destroy(tp_policy *p)
{
	free(p);
}

const char *const *tp_policy_names(void)
{
	static const char *names[16];
	if (!names[0])
		for (int i = 0; policies[i] && i < 15; i++)
			names[i] = policies[i]->name;
	return names;
}

void tp_policy_pass(tp_policy *p, tp_cluster *c)
{
	size_t before = c->nstarts;
	p->stats.passes++;
	p->ops->pass(p, c);
	p->stats.started += c->nstarts - before;
}

tp_limit_action tp_policy_at_limit(tp_policy *p, tp_cluster *c, size_t ri,
				   int64_t *arg)
{
	*arg = 0;
	if (!p->ops->at_limit)
		return TP_LIMIT_KILL;
	return p->ops->at_limit(p, c, ri, arg);
}
