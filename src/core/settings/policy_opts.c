/*
 * policy_opts.c - a policy made from settings: its options' defaults and
 * ranges are the settings table's (settings.c), so the policy layer below
 * knows none of them; see settings.h.
 */
#include "settings/settings.h"

#include <stdlib.h>

/* Defaults and ranges are the settings table's (settings.c). */
void tp_policy_opts_default(tp_policy_opts *o)
{
	tp_settings s;
	tp_settings_default(&s, false);
	*o = s.popts;
}

int tp_policy_opts_check(const tp_policy_opts *o, tp_error *err)
{
	tp_settings s;
	tp_settings_default(&s, false);
	s.popts = *o;
	return tp_settings_check(&s, TP_SCOPE_SIM, err);
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
	const tp_policy_ops *ops = tp_policy_find(name);
	if (!ops) {
		tp_errorf(err, "unknown policy '%s'", name);
		return NULL;
	}
	tp_policy *pol = calloc(1, sizeof(*pol));
	if (!pol) {
		tp_errorf(err, "out of memory");
		return NULL;
	}
	pol->ops = ops;
	pol->opts = *opts;
	return pol;
}

