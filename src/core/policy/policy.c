/* policy.c - policy registry, options and dispatch; see policy.h. */
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>

#include "policy/shadow_kept.h"

static const tp_policy_ops *const policies[] = {
	&tp_policy_fcfs,
	&tp_policy_easy,
	&tp_policy_conservative,
	&tp_policy_window_ff,
	&tp_policy_batch_njob,
	&tp_policy_rb_har,
	&tp_policy_olb,
	&tp_policy_min_min,
	&tp_policy_min_max,
	&tp_policy_sjs,
	&tp_policy_pjs,
	&tp_policy_least_loaded,
	NULL,
};

const tp_policy_ops *tp_policy_find(const char *name)
{
	for (const tp_policy_ops *const *p = policies; *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

void tp_policy_destroy(tp_policy *p)
{
	if (p)
		tp_shadow_kept_free(p->shadow_kept);
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
	if (!p->ops->pass)
		return; /* heterogeneous: tp_het_pass() */
	c->completion_share = p->opts.completion_share;
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

int tp_policy_het_algo(const tp_policy *p)
{
	return p->ops->het_algo - 1;
}
