/* refusal.c - refused starts: the verdict and the sit-out table; see
 * refusal.h. */
#include "driver/refusal.h"


tp_refusal_verdict tp_refusal_judge(const tp_refusal_facts *f)
{
	if (f->placed != TP_REFUSED_NEVER || f->may_change)
		return TP_REFUSAL_NOT_NOW;
	/* A "never" on the policy's nodes alone may be the choice's fault
	 * (a node without a feature or memory the job needs): only the
	 * executor's own "never" on every node the job may use counts. */
	if (!f->asked_anywhere || f->anywhere_ok ||
	    f->anywhere != TP_REFUSED_NEVER)
		return TP_REFUSAL_NOT_NOW;
	return TP_REFUSAL_NEVER;
}

void tp_refusals_init(tp_refusals *t, int64_t base, int64_t max)
{
	tp_id_table_init(&t->jobs, sizeof(tp_refusal));
	t->base = base < 1 ? 1 : base;
	t->max = max < t->base ? t->base : max;
}

void tp_refusals_fini(tp_refusals *t)
{
	tp_id_table_fini(&t->jobs);
}

int64_t tp_refusals_delay(const tp_refusals *t, int count)
{
	int64_t d = t->base;
	for (int k = 1; k < count && d < t->max; k++)
		d *= 2;
	return d < t->max ? d : t->max;
}

int tp_refusals_note(tp_refusals *t, int64_t job, int code, int64_t now)
{
	bool added;
	tp_refusal *r = tp_id_table_get(&t->jobs, job, &added);
	if (!r)
		return -1;
	int report = added;
	if (!added && r->code != code) {
		/* Another cause: a new story, told once too. */
		r->count = 0;
		report = 1;
	}
	r->code = code;
	r->count++;
	r->retry_at = now + tp_refusals_delay(t, r->count);
	r->seen = true;
	return report;
}

bool tp_refusals_sits_out(tp_refusals *t, int64_t job, int64_t now)
{
	tp_refusal *r = tp_id_table_find(&t->jobs, job);
	if (!r)
		return false;
	r->seen = true;
	return now < r->retry_at;
}

void tp_refusals_forget(tp_refusals *t, int64_t job)
{
	(void)tp_id_table_remove(&t->jobs, job);
}

void tp_refusals_unsee(tp_refusals *t)
{
	for (size_t i = 0; i < t->jobs.n; i++)
		((tp_refusal *)tp_id_table_at(&t->jobs, i))->seen = false;
}

static bool was_seen(const void *r)
{
	return ((const tp_refusal *)r)->seen;
}

size_t tp_refusals_drop_unseen(tp_refusals *t)
{
	return tp_id_table_keep(&t->jobs, was_seen);
}
