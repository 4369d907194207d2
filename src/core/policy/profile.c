/* profile.c - node availability over time; see profile.h. */
#include "policy/profile.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

/* start + dur without overflow: a job "for ever" ends at INT64_MAX. */
static int64_t end_of(int64_t start, int64_t dur)
{
	return start > INT64_MAX - dur ? INT64_MAX : start + dur;
}

int tp_profile_init(tp_profile *p, int nnodes, tp_profile_mode mode)
{
	memset(p, 0, sizeof(*p));
	p->nnodes = nnodes;
	p->monotone = mode == TP_PROFILE_SETS_MONOTONE;
	if (mode == TP_PROFILE_COUNTS)
		return 0;
	/* A non-NULL set pointer is what marks set mode, even while empty. */
	p->set = calloc(1, sizeof(*p->set));
	int bad = !p->set || tp_placeable_init(&p->fits_all, nnodes) ||
		  tp_nodeset_init(&p->win, nnodes) ||
		  tp_nodeset_init(&p->all, nnodes);
	for (int k = 0; k < TP_PROFILE_FAILS && !bad; k++)
		bad = tp_nodeset_init(&p->fail[k], nnodes);
	if (bad) {
		tp_profile_fini(p);
		return -1;
	}
	return 0;
}

void tp_profile_fini(tp_profile *p)
{
	if (p->set) {
		for (size_t i = 0; i < p->nset_init; i++)
			tp_nodeset_fini(&p->set[i]);
		free(p->set);
	}
	tp_nodeset_fini(&p->win);
	tp_nodeset_fini(&p->all);
	for (int k = 0; k < TP_PROFILE_FAILS; k++)
		tp_nodeset_fini(&p->fail[k]);
	tp_placeable_fini(&p->fits_all);
	free(p->t);
	free(p->free);
	memset(p, 0, sizeof(*p));
}

/* Room for `need` segments, each with an initialised set in set mode. */
static int reserve_room(tp_profile *p, size_t need)
{
	if (need > p->cap) {
		size_t cap = p->cap ? p->cap : 16;
		while (cap < need)
			cap *= 2;
		int64_t *t = realloc(p->t, cap * sizeof(*t));
		if (!t)
			return -1;
		p->t = t;
		int *f = realloc(p->free, cap * sizeof(*f));
		if (!f)
			return -1;
		p->free = f;
		if (p->set) {
			tp_nodeset *s = realloc(p->set, cap * sizeof(*s));
			if (!s)
				return -1;
			p->set = s;
		}
		p->cap = cap;
	}
	if (p->set)
		while (p->nset_init < need) {
			if (tp_nodeset_init(&p->set[p->nset_init], p->nnodes))
				return -1;
			p->nset_init++;
		}
	return 0;
}

/* Insert a segment starting at t before segment k (k >= 1), a copy of
 * segment k-1, which now ends at t. */
static int insert_at(tp_profile *p, size_t k, int64_t t)
{
	if (reserve_room(p, p->n + 1))
		return -1;
	size_t tail = p->n - k;
	memmove(p->t + k + 1, p->t + k, tail * sizeof(*p->t));
	memmove(p->free + k + 1, p->free + k, tail * sizeof(*p->free));
	p->t[k] = t;
	p->free[k] = p->free[k - 1];
	if (p->set) {
		/* Rotate the spare initialised set at n into place k. */
		tp_nodeset spare = p->set[p->n];
		memmove(p->set + k + 1, p->set + k, tail * sizeof(*p->set));
		p->set[k] = spare;
		tp_nodeset_copy(&p->set[k], &p->set[k - 1]);
	}
	p->n++;
	return 0;
}

typedef struct run_end {
	int64_t t;
	size_t run;
} run_end;

static int cmp_end(const void *a, const void *b)
{
	const run_end *x = a, *y = b;
	return (x->t > y->t) - (x->t < y->t);
}

/* Build p from c; with `all`, every node free at every time. */
static int build(tp_profile *p, const tp_cluster *c, bool all)
{
	p->n = 0;
	if (reserve_room(p, 1))
		return -1;
	run_end *ends = malloc((c->nrun + 1) * sizeof(*ends));
	if (!ends)
		return -1;
	for (size_t i = 0; i < c->nrun; i++) {
		int64_t lim = c->run[i].limit;
		ends[i].t = lim > c->now ? lim : c->now + 1;
		ends[i].run = i;
	}
	qsort(ends, c->nrun, sizeof(*ends), cmp_end);

	p->t[0] = c->now;
	p->free[0] = all ? c->nnodes : tp_nodeset_count(&c->free);
	if (p->set && all)
		tp_nodeset_fill(&p->set[0]);
	else if (p->set)
		tp_nodeset_copy(&p->set[0], &c->free);
	p->n = 1;
	for (size_t i = 0; i < c->nrun; i++) {
		const tp_nodeset *nodes = &c->run[ends[i].run].nodes;
		size_t last = p->n - 1;
		if (ends[i].t != p->t[last]) {
			if (insert_at(p, p->n, ends[i].t)) {
				free(ends);
				return -1;
			}
			last++;
		}
		if (all)
			continue;
		p->free[last] += tp_nodeset_count(nodes);
		if (p->set)
			tp_nodeset_or(&p->set[last], nodes);
	}
	free(ends);
	if (p->set) {
		tp_nodeset_copy(&p->all, &p->set[p->n - 1]);
		tp_placeable_forget(&p->fits_all);
		p->nfail = p->fail_next = 0;
	}
	return 0;
}

int tp_profile_build(tp_profile *p, const tp_cluster *c)
{
	return build(p, c, false);
}

int tp_profile_build_all(tp_profile *p, const tp_cluster *c)
{
	return p->set ? build(p, c, true) : -1;
}

/* First segment i >= from where at least `nodes` nodes are counted free
 * throughout [t[i], t[i] + dur), or NONE.  One sweep: a segment short of
 * nodes moves the candidate past it. */
static size_t find_count(const tp_profile *p, int nodes, int64_t dur,
			 size_t from)
{
	size_t i = from;
	for (size_t j = from; j < p->n; j++) {
		if (p->free[j] < nodes) {
			i = j + 1;
			continue;
		}
		if (j + 1 == p->n || p->t[j + 1] >= end_of(p->t[i], dur))
			return i;
	}
	return NONE;
}

/* Set mode: nodes free throughout the window of segments from i on
 * covering [t[i], t[i] + dur), into p->win. */
static void window_set(tp_profile *p, size_t i, int64_t dur)
{
	int64_t end = end_of(p->t[i], dur);
	tp_nodeset_copy(&p->win, &p->set[i]);
	for (size_t j = i + 1; j < p->n && p->t[j] < end; j++)
		tp_nodeset_and(&p->win, &p->set[j]);
}

/* Set mode: was a superset of `w` refused for this size since the build?
 * (Reservations only take nodes away, so refusals stay valid.) */
static bool known_refusal(const tp_profile *p, int nodes, const tp_nodeset *w)
{
	for (size_t k = 0; k < p->nfail; k++)
		if (p->fail_nodes[k] == nodes &&
		    tp_nodeset_subset(w, &p->fail[k]))
			return true;
	return false;
}

static void remember_refusal(tp_profile *p, int nodes, const tp_nodeset *w)
{
	tp_nodeset_copy(&p->fail[p->fail_next], w);
	p->fail_nodes[p->fail_next] = nodes;
	p->fail_next = (p->fail_next + 1) % TP_PROFILE_FAILS;
	if (p->nfail < TP_PROFILE_FAILS)
		p->nfail++;
}

/* Set mode: place on `w`; with a monotone allocator, skip calls whose
 * refusal is known.  Refusals are remembered by size, so only for
 * requests without node constraints. */
static bool place_on(tp_profile *p, tp_alloc *a, const tp_alloc_req *req,
		     const tp_nodeset *w, tp_nodeset *where)
{
	int nodes = req->nodes;
	bool memo = p->monotone && !tp_alloc_req_constrained(req);
	if (tp_nodeset_count(w) < nodes || (memo && known_refusal(p, nodes, w)))
		return false;
	if (tp_alloc_place_req(a, w, req, where) == 0)
		return true;
	if (memo)
		remember_refusal(p, nodes, w);
	return false;
}

/* Set mode: can the request be placed on `all` (and so maybe on some
 * window)?  Asked of the allocator once per size and build, and only if
 * it is monotone and the request unconstrained (otherwise: maybe, ask
 * each window). */
static bool placeable_ever(tp_profile *p, tp_alloc *a,
			   const tp_alloc_req *req)
{
	if (req->nodes < 0 || req->nodes > p->nnodes)
		return false;
	return !p->monotone || tp_alloc_req_constrained(req) ||
	       tp_placeable_test(&p->fits_all, a, &p->all, req->nodes);
}

/* Earliest fit among segment starts from segment `from` on. */
static int64_t earliest_from(tp_profile *p, tp_alloc *a,
			     const tp_alloc_req *req, int64_t dur,
			     size_t from, tp_nodeset *where)
{
	int nodes = req->nodes;
	if (!p->set) {
		size_t i = find_count(p, nodes, dur, from);
		return i == NONE ? TP_PROFILE_NEVER : p->t[i];
	}
	/* Counts first (cheap, necessary), then the allocator on the window's
	 * node set; a refusal moves on to the next segment start, unless
	 * the size cannot be placed at all. */
	for (size_t i = find_count(p, nodes, dur, from); i != NONE;
	     i = find_count(p, nodes, dur, i + 1)) {
		window_set(p, i, dur);
		if (p->narrow)
			p->narrow(p->narrow_arg, p->t[i], &p->win);
		if (place_on(p, a, req, &p->win, where))
			return p->t[i];
		if (!placeable_ever(p, a, req))
			break;
	}
	return TP_PROFILE_NEVER;
}

int64_t tp_profile_earliest_req(tp_profile *p, tp_alloc *a,
				const tp_alloc_req *req, int64_t dur,
				tp_nodeset *where)
{
	return earliest_from(p, a, req, dur, 0, where);
}

int64_t tp_profile_earliest(tp_profile *p, tp_alloc *a, int nodes,
			    int64_t dur, tp_nodeset *where)
{
	return tp_profile_earliest_req(p, a, &(tp_alloc_req){ .nodes = nodes },
				       dur, where);
}

/* Index of the segment starting at t, or of the first starting after it. */
static size_t seg_at(const tp_profile *p, int64_t t)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->t[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t tp_profile_earliest_after_req(tp_profile *p, tp_alloc *a,
				      const tp_alloc_req *req, int64_t dur,
				      int64_t after, tp_nodeset *where)
{
	size_t from = after == INT64_MAX ? p->n : seg_at(p, after + 1);
	return earliest_from(p, a, req, dur, from, where);
}

int64_t tp_profile_earliest_after(tp_profile *p, tp_alloc *a, int nodes,
				  int64_t dur, int64_t after,
				  tp_nodeset *where)
{
	return tp_profile_earliest_after_req(p, a,
					     &(tp_alloc_req){ .nodes = nodes },
					     dur, after, where);
}

int tp_profile_reserve(tp_profile *p, int64_t start, int64_t dur, int nodes,
		       const tp_nodeset *where)
{
	if (start < p->t[0])
		start = p->t[0]; /* nothing to take from the past */
	size_t i = seg_at(p, start);
	if (i == p->n || p->t[i] != start)
		if (insert_at(p, i, start))
			return -1;
	int64_t end = end_of(start, dur);
	size_t k = seg_at(p, end);
	if (end != INT64_MAX && (k == p->n || p->t[k] != end)) {
		if (insert_at(p, k, end))
			return -1;
	}
	int cnt = p->set ? tp_nodeset_count(where) : nodes;
	for (size_t j = i; j < k; j++) {
		p->free[j] -= cnt;
		if (p->set)
			tp_nodeset_andnot(&p->set[j], where);
	}
	return 0;
}

int64_t tp_profile_free_for(const tp_profile *p, int nodes)
{
	for (size_t j = 0; j < p->n; j++)
		if (p->free[j] < nodes)
			return p->t[j] - p->t[0];
	return INT64_MAX;
}
