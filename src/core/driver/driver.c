/* driver.c - the steps every driver takes; see driver.h. */
#include "driver/driver.h"

int64_t tp_round_up(int64_t x, int64_t unit)
{
	if (unit <= 1 || x <= 0)
		return x;
	int64_t r = x % unit;
	if (!r)
		return x;
	return x > INT64_MAX - (unit - r) ? INT64_MAX : x + (unit - r);
}

bool tp_driver_limit_due(const tp_run *r, int64_t now, int64_t horizon,
			 int64_t decided_end)
{
	return r->limit <= now + horizon && r->limit != decided_end;
}

/* Would extending r by `add` seconds take its limit past its ceiling? */
static bool past_ceiling(const tp_run *r, int64_t add)
{
	return r->ceiling != INT64_MAX &&
	       (add > r->ceiling - r->limit);
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
	if (a.action == TP_LIMIT_EXTEND && past_ceiling(&c->run[ri], a.arg)) {
		/* The policy granted what the ceiling forbids: refused. */
		if (p->stats.ext_granted)
			p->stats.ext_granted--;
		p->stats.ext_denied++;
		a.action = TP_LIMIT_KILL;
		a.denied = a.ceiling = true;
		return a;
	}
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

int tp_driver_rhythm_pass(tp_policy *p, tp_cluster *c, const tp_rhythm *r,
			  bool full, bool backfill)
{
	uint64_t started = p->stats.started;
	tp_cluster_clear_starts(c);
	c->resv_job = NULL;
	c->resv_time = 0;
	p->stats.passes++;
	if ((r->sched_interval >= 0 && tp_rhythm_main(c, r, full) < 0) ||
	    (backfill && c->nqueue && tp_rhythm_backfill(p, c, r)))
		return -1;
	/* the main pass's starts and the window's count too */
	p->stats.started = started + c->nstarts;
	return 0;
}

tp_driver_scope tp_driver_scope_of(const tp_policy *p)
{
	return tp_policy_het_algo(p) >= 0 ? TP_DRIVE_MACHINE : TP_DRIVE_CLUSTER;
}
