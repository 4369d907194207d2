/*
 * memo_answers.h - whole answers of an allocator (placement or refusal)
 * on the last few free sets, for the failure memo (alloc_memo.c).
 *
 * The memo's per-size marks hold failures of plain requests on one free
 * set.  slurmctld's questions all carry a node cap (the job's maximum),
 * and it asks the same one several times: at submission and again in the
 * main scheduler on the same free nodes, twice in a row when refused
 * (cons_tres retries the same node set), and about the whole machine
 * ("could it ever run") at every submission that does not fit now.
 * These keep the answers themselves, keyed by the request (nodes, node
 * cap, boxes only) on each of a few free sets, the least recently used
 * set replaced.  An allocator is a pure function of (free set, request)
 * (alloc.h), so an answer from here is the one it would give.
 */
#ifndef TP_MEMO_ANSWERS_H
#define TP_MEMO_ANSWERS_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/alloc.h"

#define TP_MEMO_SETS 4    /* free sets kept */
#define TP_MEMO_ANSWERS 8 /* answers kept per free set */

typedef struct tp_memo_answer {
	int nodes, max_nodes;
	bool boxes_only;
	int rc;          /* 0: placed on `out`; -1: refused */
	tp_nodeset out;
} tp_memo_answer;

/* Is a the answer to req (the same nodes, node cap and boxes only)? */
bool tp_memo_answer_is(const tp_memo_answer *a, const tp_alloc_req *req);
/* a's placement into out (cleared when refused); its rc, 0 or -1. */
int tp_memo_answer_read(const tp_memo_answer *a, tp_nodeset *out);
/* Record rc (out: the placement when 0) as the answer to req; a->out
 * must be initialised when rc is 0 (a refusal needs none). */
void tp_memo_answer_write(tp_memo_answer *a, const tp_alloc_req *req, int rc,
			  const tp_nodeset *out);

typedef struct tp_memo_set {
	tp_nodeset free;
	uint64_t used;   /* when last asked about, for replacement */
	int n, next;     /* answers held; the next one replaced */
	tp_memo_answer ans[TP_MEMO_ANSWERS];
} tp_memo_set;

typedef struct tp_memo_answers {
	int nnodes;
	uint64_t clock;
	int nsets;
	tp_memo_set sets[TP_MEMO_SETS];
} tp_memo_answers;

void tp_memo_answers_init(tp_memo_answers *m, int nnodes);
void tp_memo_answers_fini(tp_memo_answers *m);
/* Does the store hold answers to this request?  Requests with node
 * constraints (alloc.h: tp_alloc_req_constrained) are never kept. */
bool tp_memo_answers_keeps(const tp_alloc_req *req);
/* The answer to req on `free` into out (cleared when refused): 0 or -1;
 * 1 when none is kept. */
int tp_memo_answers_get(tp_memo_answers *m, const tp_nodeset *free,
			const tp_alloc_req *req, tp_nodeset *out);
/* Keep the answer rc (out: the placement when 0).  Nothing is kept on
 * ENOMEM: the next question is asked again. */
void tp_memo_answers_put(tp_memo_answers *m, const tp_nodeset *free,
			 const tp_alloc_req *req, int rc,
			 const tp_nodeset *out);

#endif
