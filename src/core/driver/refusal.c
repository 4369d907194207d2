/* refusal.c - refused starts: the verdict and the sit-out table; see
 * refusal.h. */
#include "driver/refusal.h"

#include <stdlib.h>
#include <string.h>

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
	memset(t, 0, sizeof(*t));
	t->base = base < 1 ? 1 : base;
	t->max = max < t->base ? t->base : max;
}

void tp_refusals_fini(tp_refusals *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Index of the first entry with job >= id. */
static size_t lower_bound(const tp_refusals *t, int64_t id)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].job < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static tp_refusal *find(tp_refusals *t, int64_t job)
{
	size_t i = lower_bound(t, job);
	return i < t->n && t->v[i].job == job ? &t->v[i] : NULL;
}

int64_t tp_refusals_delay(const tp_refusals *t, int count)
{
	int64_t d = t->base;
	for (int k = 1; k < count && d < t->max; k++)
		d *= 2;
	return d < t->max ? d : t->max;
}

static tp_refusal *insert(tp_refusals *t, int64_t job)
{
	size_t i = lower_bound(t, job);
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		tp_refusal *p = realloc(t->v, cap * sizeof(*p));
		if (!p)
			return NULL;
		t->v = p;
		t->cap = cap;
	}
	memmove(t->v + i + 1, t->v + i, (t->n - i) * sizeof(*t->v));
	t->n++;
	t->v[i] = (tp_refusal){ .job = job };
	return &t->v[i];
}

int tp_refusals_note(tp_refusals *t, int64_t job, int code, int64_t now)
{
	tp_refusal *r = find(t, job);
	int report = 0;
	if (!r) {
		if (!(r = insert(t, job)))
			return -1;
		report = 1;
	} else if (r->code != code) {
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
	tp_refusal *r = find(t, job);
	if (!r)
		return false;
	r->seen = true;
	return now < r->retry_at;
}

void tp_refusals_forget(tp_refusals *t, int64_t job)
{
	size_t i = lower_bound(t, job);
	if (i == t->n || t->v[i].job != job)
		return;
	memmove(t->v + i, t->v + i + 1, (t->n - i - 1) * sizeof(*t->v));
	t->n--;
}

void tp_refusals_unsee(tp_refusals *t)
{
	for (size_t i = 0; i < t->n; i++)
		t->v[i].seen = false;
}

size_t tp_refusals_drop_unseen(tp_refusals *t)
{
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].seen)
			t->v[k++] = t->v[i];
	size_t dropped = t->n - k;
	t->n = k;
	return dropped;
}
