/* shadow_kept.c - the head's shadow carried from pass to pass; see
 * shadow_kept.h. */
#include "policy/shadow_kept.h"

#include <stdlib.h>
#include <string.h>

#include "alloc/alloc.h"
#include "base/grow.h"
#include "policy/first_fit.h"

/* Shadows kept: sched/topo runs one policy over each partition in turn,
 * every partition a cluster of its own. */
#define SLOTS 4

/* A running job as a kept shadow saw it: its nodes are the words
 * [wlo, whi) of the slot's words from `at` on. */
typedef struct kept_run {
	int64_t limit;
	int wlo, whi;
	size_t at;
} kept_run;

/* One shadow and what it was computed from. */
typedef struct slot {
	bool valid;
	uint64_t used;        /* when last computed or reused */
	uint64_t alloc;       /* the allocator's serial */
	int nodes, max_nodes; /* the head's request: without constraints,
			       * all the shadow reads of it */
	int64_t now;          /* c->now: time only moves on */
	tp_nodeset free;      /* c->free */
	kept_run *run;
	size_t nrun, caprun;
	uint64_t *words;      /* the runs' node words */
	size_t nwords, capwords;
	int64_t time;         /* the shadow: its time then, its free set */
	tp_nodeset shadow_free;
} slot;

struct tp_shadow_kept {
	slot slot[SLOTS];
	uint64_t clock;
	unsigned long hits;
};

tp_shadow_kept *tp_shadow_kept_new(void)
{
	return calloc(1, sizeof(tp_shadow_kept));
}

void tp_shadow_kept_free(tp_shadow_kept *k)
{
	if (!k)
		return;
	for (int i = 0; i < SLOTS; i++) {
		tp_nodeset_fini(&k->slot[i].free);
		tp_nodeset_fini(&k->slot[i].shadow_free);
		free(k->slot[i].run);
		free(k->slot[i].words);
	}
	free(k);
}

static bool run_same(const slot *k, const kept_run *kr, const tp_run *r)
{
	size_t len = (size_t)(r->whi - r->wlo);
	return kr->limit == r->limit && kr->wlo == r->wlo && kr->whi == r->whi &&
	       (!len || !memcmp(k->words + kr->at, r->nodes.w + r->wlo,
				len * sizeof(uint64_t)));
}

static bool same_state(const slot *k, const tp_cluster *c, const tp_job *job)
{
	if (!k->valid || k->alloc != c->alloc->serial ||
	    k->nodes != job->nodes || k->max_nodes != job->max_nodes ||
	    c->now < k->now || k->nrun != c->nrun || k->free.n != c->free.n ||
	    !tp_nodeset_equal(&k->free, &c->free))
		return false;
	for (size_t i = 0; i < c->nrun; i++)
		if (!run_same(k, &k->run[i], &c->run[i]))
			return false;
	return true;
}

/* Room for n runs and w words; -1 on ENOMEM. */
static int reserve(slot *k, size_t n, size_t w)
{
	return tp_grow_to((void **)&k->run, &k->caprun, n, sizeof(*k->run)) ||
	       tp_grow_to((void **)&k->words, &k->capwords, w,
			  sizeof(*k->words)) ? -1 : 0;
}

/* Both sets of k of n nodes; -1 on ENOMEM (then neither). */
static int size_sets(slot *k, int n)
{
	if (k->free.w && k->shadow_free.w && k->free.n == n)
		return 0;
	tp_nodeset_fini(&k->free);
	tp_nodeset_fini(&k->shadow_free);
	if (!tp_nodeset_init(&k->free, n) && !tp_nodeset_init(&k->shadow_free, n))
		return 0;
	tp_nodeset_fini(&k->free);
	tp_nodeset_fini(&k->shadow_free);
	return -1;
}

/* Keep s, computed on c for job, in k; k is left invalid on ENOMEM. */
static void keep(slot *k, const tp_cluster *c, const tp_job *job,
		 const tp_shadow *s)
{
	size_t words = 0;
	k->valid = false;
	for (size_t i = 0; i < c->nrun; i++)
		words += (size_t)(c->run[i].whi - c->run[i].wlo);
	if (size_sets(k, c->free.n) || reserve(k, c->nrun, words))
		return;
	k->nwords = 0;
	for (size_t i = 0; i < c->nrun; i++) {
		const tp_run *r = &c->run[i];
		size_t len = (size_t)(r->whi - r->wlo);
		k->run[i] = (kept_run){ .limit = r->limit, .wlo = r->wlo,
					.whi = r->whi, .at = k->nwords };
		if (len)
			memcpy(k->words + k->nwords, r->nodes.w + r->wlo,
			       len * sizeof(uint64_t));
		k->nwords += len;
	}
	k->nrun = c->nrun;
	k->alloc = c->alloc->serial;
	k->nodes = job->nodes;
	k->max_nodes = job->max_nodes;
	k->now = c->now;
	tp_nodeset_copy(&k->free, &c->free);
	k->time = s->time;
	tp_nodeset_copy(&k->shadow_free, &s->free);
	k->valid = true;
}

/* The slot holding c's shadow for job, or NULL; *old: the least recently
 * used slot. */
static slot *find_slot(tp_shadow_kept *k, const tp_cluster *c,
		       const tp_job *job, slot **old)
{
	*old = &k->slot[0];
	for (int i = 0; i < SLOTS; i++) {
		if (same_state(&k->slot[i], c, job))
			return &k->slot[i];
		if (k->slot[i].used < (*old)->used)
			*old = &k->slot[i];
	}
	return NULL;
}

int tp_shadow_compute_kept(tp_shadow_kept *k, const tp_cluster *c,
			   const tp_job *job, tp_shadow *s)
{
	tp_alloc_req req = tp_job_req(job);
	/* the completion-aware choice weighs the start now against later
	 * ones: its answer depends on the time itself */
	if (!k || tp_alloc_req_constrained(&req) || tp_completion_on(c))
		return tp_shadow_compute(c, job, NULL, s);
	slot *old, *hit = find_slot(k, c, job, &old);
	if (hit) {
		s->time = hit->time > c->now ? hit->time : c->now;
		tp_nodeset_copy(&s->free, &hit->shadow_free);
		hit->used = ++k->clock;
		k->hits++;
		return 0;
	}
	if (tp_shadow_compute(c, job, NULL, s))
		return -1;
	keep(old, c, job, s);
	old->used = ++k->clock;
	return 0;
}

unsigned long tp_shadow_kept_hits(const tp_shadow_kept *k)
{
	return k ? k->hits : 0;
}
