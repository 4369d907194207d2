/* memo_answers.c - an allocator's answers on its last free sets; see
 * memo_answers.h. */
#include "alloc/memo_answers.h"

#include <string.h>

void tp_memo_answers_init(tp_memo_answers *m, int nnodes)
{
	memset(m, 0, sizeof(*m));
	m->nnodes = nnodes;
}

static void set_fini(tp_memo_set *s)
{
	for (int a = 0; a < TP_MEMO_ANSWERS; a++)
		tp_nodeset_fini(&s->ans[a].out);
	tp_nodeset_fini(&s->free);
}

void tp_memo_answers_fini(tp_memo_answers *m)
{
	for (int i = 0; i < m->nsets; i++)
		set_fini(&m->sets[i]);
	memset(m, 0, sizeof(*m));
}

bool tp_memo_answers_keeps(const tp_alloc_req *req)
{
	return !tp_alloc_req_constrained(req) && !req->keep_free;
}

bool tp_memo_answer_is(const tp_memo_answer *a, const tp_alloc_req *req)
{
	return a->nodes == req->nodes && a->max_nodes == req->max_nodes &&
	       a->boxes_only == req->boxes_only;
}

int tp_memo_answer_read(const tp_memo_answer *a, tp_nodeset *out)
{
	if (a->rc)
		tp_nodeset_zero(out);
	else
		tp_nodeset_copy(out, &a->out);
	return a->rc;
}

void tp_memo_answer_write(tp_memo_answer *a, const tp_alloc_req *req, int rc,
			  const tp_nodeset *out)
{
	a->nodes = req->nodes;
	a->max_nodes = req->max_nodes;
	a->boxes_only = req->boxes_only;
	a->rc = rc;
	if (!rc)
		tp_nodeset_copy(&a->out, out);
	else if (a->out.w)
		tp_nodeset_zero(&a->out);
}

static tp_memo_set *find_set(tp_memo_answers *m, const tp_nodeset *free)
{
	for (int i = 0; i < m->nsets; i++)
		if (tp_nodeset_equal(&m->sets[i].free, free)) {
			m->sets[i].used = ++m->clock;
			return &m->sets[i];
		}
	return NULL;
}

int tp_memo_answers_get(tp_memo_answers *m, const tp_nodeset *free,
			const tp_alloc_req *req, tp_nodeset *out)
{
	if (free->n != m->nnodes || !tp_memo_answers_keeps(req))
		return 1;
	tp_memo_set *s = find_set(m, free);
	for (int a = 0; s && a < s->n; a++) {
		if (tp_memo_answer_is(&s->ans[a], req))
			return tp_memo_answer_read(&s->ans[a], out);
	}
	return 1;
}

/* A slot for `free`: a new one while there is room, else the least
 * recently used one, emptied.  NULL on ENOMEM. */
static tp_memo_set *take_set(tp_memo_answers *m, const tp_nodeset *free)
{
	tp_memo_set *s;
	if (m->nsets < TP_MEMO_SETS) {
		s = &m->sets[m->nsets];
		memset(s, 0, sizeof(*s));
		if (tp_nodeset_init(&s->free, m->nnodes))
			return NULL;
		m->nsets++;
	} else {
		s = &m->sets[0];
		for (int i = 1; i < m->nsets; i++)
			if (m->sets[i].used < s->used)
				s = &m->sets[i];
		s->n = s->next = 0;
	}
	tp_nodeset_copy(&s->free, free);
	s->used = ++m->clock;
	return s;
}

void tp_memo_answers_put(tp_memo_answers *m, const tp_nodeset *free,
			 const tp_alloc_req *req, int rc,
			 const tp_nodeset *out)
{
	if (free->n != m->nnodes || !tp_memo_answers_keeps(req))
		return;
	tp_memo_set *s = find_set(m, free);
	if (!s && !(s = take_set(m, free)))
		return;
	tp_memo_answer *a = &s->ans[s->next];
	if (!a->out.w && tp_nodeset_init(&a->out, m->nnodes))
		return;
	tp_memo_answer_write(a, req, rc, out);
	s->next = (s->next + 1) % TP_MEMO_ANSWERS;
	if (s->n < TP_MEMO_ANSWERS)
		s->n++;
}
