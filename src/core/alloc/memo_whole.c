/* memo_whole.c - an allocator's answers on the whole machine; see
 * memo_whole.h. */
#include "alloc/memo_whole.h"

#include <stdlib.h>

#include "alloc/memo_answers.h"

struct tp_memo_whole_ans {
	tp_memo_answer ans; /* its `out` initialised only when placed */
	tp_memo_whole_ans *next;
};

void tp_memo_whole_init(tp_memo_whole *w, int nnodes)
{
	w->nnodes = nnodes;
	w->by_nodes = NULL;
	w->held = 0;
}

void tp_memo_whole_fini(tp_memo_whole *w)
{
	for (int n = 0; w->by_nodes && n <= w->nnodes; n++) {
		tp_memo_whole_ans *a = w->by_nodes[n];
		while (a) {
			tp_memo_whole_ans *next = a->next;
			tp_nodeset_fini(&a->ans.out);
			free(a);
			a = next;
		}
	}
	free(w->by_nodes);
	tp_memo_whole_init(w, w->nnodes);
}

bool tp_memo_whole_applies(const tp_memo_whole *w, const tp_nodeset *free,
			   const tp_alloc_req *req)
{
	return free->n == w->nnodes && req->nodes >= 1 &&
	       req->nodes <= w->nnodes && tp_memo_answers_keeps(req) &&
	       tp_nodeset_count(free) == w->nnodes;
}

static tp_memo_whole_ans *find(const tp_memo_whole *w, const tp_alloc_req *req)
{
	tp_memo_whole_ans *a = w->by_nodes ? w->by_nodes[req->nodes] : NULL;
	while (a && !tp_memo_answer_is(&a->ans, req))
		a = a->next;
	return a;
}

int tp_memo_whole_get(const tp_memo_whole *w, const tp_alloc_req *req,
		      tp_nodeset *out)
{
	const tp_memo_whole_ans *a = find(w, req);
	return a ? tp_memo_answer_read(&a->ans, out) : 1;
}

void tp_memo_whole_put(tp_memo_whole *w, const tp_alloc_req *req, int rc,
		       const tp_nodeset *out)
{
	if (w->held >= TP_MEMO_WHOLE_MAX || find(w, req))
		return;
	if (!w->by_nodes &&
	    !(w->by_nodes = calloc((size_t)w->nnodes + 1, sizeof(*w->by_nodes))))
		return;
	tp_memo_whole_ans *a = calloc(1, sizeof(*a));
	if (!a)
		return;
	if (!rc && tp_nodeset_init(&a->ans.out, w->nnodes)) {
		free(a);
		return;
	}
	tp_memo_answer_write(&a->ans, req, rc, out);
	a->next = w->by_nodes[req->nodes];
	w->by_nodes[req->nodes] = a;
	w->held++;
}
