/*
 * memo_whole.h - an allocator's answers on the whole machine (every node
 * free), kept for the allocator's life, for the failure memo
 * (alloc_memo.c).
 *
 * When a job does not fit on the free nodes, slurmctld asks whether it
 * could run at all: the same request on every node of its partition
 * (node_scheduler's "could possibly run" test, at submission and in the
 * main scheduler).  On a machine whose nodes all belong to the partition
 * and are up, that set is the whole machine, every time: the answer
 * depends on the request alone, and an allocator is a pure function of
 * (free set, request) (alloc.h).  A torus allocator pays up to
 * milliseconds for such an answer (torus-mss weighs every free box of
 * the size), which the answers on the last few free sets
 * (memo_answers.h) lose as soon as a few other sizes were asked about.
 * These are kept per request (nodes, node cap, boxes only), up to
 * TP_MEMO_WHOLE_MAX of them.
 */
#ifndef TP_MEMO_WHOLE_H
#define TP_MEMO_WHOLE_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc/alloc.h"

#define TP_MEMO_WHOLE_MAX 1024

typedef struct tp_memo_whole_ans tp_memo_whole_ans;

typedef struct tp_memo_whole {
	int nnodes;
	tp_memo_whole_ans **by_nodes; /* [nnodes + 1]: lists, when first used */
	size_t held;
} tp_memo_whole;

void tp_memo_whole_init(tp_memo_whole *w, int nnodes);
void tp_memo_whole_fini(tp_memo_whole *w);
/* Is `free` every node, and a request whose answer is kept (no node
 * constraint: memo_answers.h)?  O(words). */
bool tp_memo_whole_applies(const tp_memo_whole *w, const tp_nodeset *free,
			   const tp_alloc_req *req);
/* The kept answer to req into out (cleared when refused): 0 or -1; 1
 * when none is kept.  Only for requests tp_memo_whole_applies() to. */
int tp_memo_whole_get(const tp_memo_whole *w, const tp_alloc_req *req,
		      tp_nodeset *out);
/* Keep the answer rc (out: the placement when 0); nothing on ENOMEM or
 * past TP_MEMO_WHOLE_MAX answers. */
void tp_memo_whole_put(tp_memo_whole *w, const tp_alloc_req *req, int rc,
		       const tp_nodeset *out);

#endif
