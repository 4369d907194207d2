/* driver.c - the steps every driver takes; see driver.h. */
#include "engine/driver.h"

int64_t tp_round_up(int64_t x, int64_t unit)
{
	if (unit <= 1 || x <= 0)
		return x;
	int64_t r = x % unit;
	if (!r)
		return x;
	return x > INT64_MAX - (unit - r) ? INT64_MAX : x + (unit - r);
}

tp_limit_answer tp_driver_at_limit(tp_policy *p, tp_cluster *c, size_t ri,
				   int64_t unit)
{
	tp_limit_answer a = { 0 };
	uint64_t denied = p->stats.ext_denied;

	a.action = tp_policy_at_limit(p, c, ri, &a.raw);
	a.denied = p->stats.ext_denied > denied;
	if (a.action == TP_LIMIT_EXTEND && a.raw <= 0)
		a.action = TP_LIMIT_KILL; /* nothing to extend by */
	if (a.action == TP_LIMIT_KILL)
		return a;
	a.arg = tp_round_up(a.raw, unit);
	if (a.action == TP_LIMIT_EXTEND) {
		c->run[ri].limit += a.arg;
		c->run[ri].extensions++;
	}
	return a;
}

void tp_driver_pass(tp_policy *p, tp_cluster *c)
{
	tp_cluster_clear_starts(c);
	c->resv_job = NULL;
	c->resv_time = 0;
	tp_policy_pass(p, c);
}
