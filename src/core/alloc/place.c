/* place.c - range and earliest placement over an allocator; see place.h. */
#include "alloc/place.h"

#include <stdlib.h>

#include "model/res.h"

/* tp_place_range() on `usable`, which holds `have` nodes. */
static int place_range_n(tp_alloc *a, const tp_nodeset *usable, int have,
			 int lo, int hi, const tp_alloc_req *proto,
			 tp_nodeset *out)
{
	if (lo < 1)
		lo = 1;
	if (hi > have)
		hi = have;
	/* A range: a torus box of any size in it before a packed placement
	 * (Shapeless=pack) of the largest. */
	bool two = lo < hi && (a->flags & TP_ALLOC_PACKS);
	for (int pass = two ? 0 : 1; pass < 2; pass++) {
		for (int k = hi; k >= lo; k--) {
			tp_alloc_req req = proto ? *proto : (tp_alloc_req){ 0 };
			req.nodes = k;
			req.boxes_only = req.boxes_only || pass == 0;
			if (tp_alloc_place_req(a, usable, &req, out) == 0)
				return k;
		}
	}
	tp_nodeset_zero(out);
	return -1;
}

int tp_place_range(tp_alloc *a, const tp_nodeset *usable, int lo, int hi,
		   const tp_alloc_req *proto, tp_nodeset *out)
{
	return place_range_n(a, usable, tp_nodeset_count(usable), lo, hi,
			     proto, out);
}

/* A min-heap of releases by time: the shadow usually needs only the
 * first few, so building it (linear) and popping those beats sorting
 * every running job at every pass. */
static void sift_down(const tp_release **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && h[l]->time < h[m]->time)
			m = l;
		if (l + 1 < n && h[l + 1]->time < h[m]->time)
			m = l + 1;
		if (m == i)
			return;
		const tp_release *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static const tp_release *pop_min(const tp_release **h, size_t *n)
{
	const tp_release *top = h[0];
	h[0] = h[--*n];
	sift_down(h, *n, 0);
	return top;
}

/* Release in time order from the earliest on; one try per distinct time
 * (the releases of one time together: their order does not matter). */
static int after_releases(tp_alloc *a, int64_t now, const tp_release **heap,
			  size_t nrel, const tp_nodeset *hold, int lo, int hi,
			  const tp_alloc_req *proto, tp_nodeset *avail,
			  tp_nodeset *out, int64_t *when)
{
	for (size_t i = nrel / 2; i-- > 0;)
		sift_down(heap, nrel, i);
	while (nrel) {
		int64_t t = heap[0]->time;
		while (nrel && heap[0]->time == t)
			tp_nodeset_or(avail, pop_min(heap, &nrel)->nodes);
		if (hold)
			tp_nodeset_andnot(avail, hold);
		int k = tp_place_range(a, avail, lo, hi, proto, out);
		if (k >= 0) {
			*when = t > now ? t : now;
			return k;
		}
	}
	return -1;
}

int tp_place_earliest(tp_alloc *a, int64_t now, const tp_nodeset *free_now,
		      const tp_release *rel, size_t nrel,
		      const tp_nodeset *hold, int lo, int hi,
		      const tp_alloc_req *proto,
		      tp_nodeset *avail, tp_nodeset *out, int64_t *when)
{
	tp_nodeset own = { 0 };
	if (!avail) {
		if (tp_nodeset_init(&own, free_now->n))
			return -2;
		avail = &own;
	}
	tp_nodeset_copy(avail, free_now);
	*when = now;
	int k = tp_place_range(a, avail, lo, hi, proto, out);
	if (k < 0) {
		*when = INT64_MAX;
		/* A heap of pointers, not the caller's array. */
		const tp_release **heap = malloc((nrel + 1) * sizeof(*heap));
		if (!heap) {
			k = -2;
		} else {
			for (size_t i = 0; i < nrel; i++)
				heap[i] = &rel[i];
			k = after_releases(a, now, heap, nrel, hold, lo, hi,
					   proto, avail, out, when);
			free(heap);
		}
	}
	tp_nodeset_fini(&own);
	return k;
}

static bool job_fits(tp_alloc *a, const tp_nodeset *free, int nfree,
		     int empty_words, bool probe, const tp_res *res,
		     const tp_job *j, tp_nodeset *out)
{
	tp_alloc_req req = tp_job_req(j);
	req.empty_words = empty_words;
	req.probe = probe;
	if (res) {
		req.res = res;
		req.ask = j->ask;
	}
	if (!tp_job_has_range(j))
		return req.nodes >= 1 && nfree >= req.nodes &&
		       tp_alloc_place_req(a, free, &req, out) == 0;
	return place_range_n(a, free, nfree, j->nodes, j->max_nodes, &req,
			     out) >= 0;
}

bool tp_job_fits_n(tp_alloc *a, const tp_nodeset *free, int nfree,
		   int empty_words, const tp_job *j, tp_nodeset *out)
{
	return job_fits(a, free, nfree, empty_words, false, NULL, j, out);
}

bool tp_job_fits_res(tp_alloc *a, const tp_nodeset *free, int nfree,
		     int empty_words, const tp_res *res, bool probe,
		     const tp_job *j, tp_nodeset *out)
{
	return job_fits(a, free, nfree, empty_words, probe, res, j, out);
}

bool tp_job_fits(tp_alloc *a, const tp_nodeset *free, const tp_job *j,
		 tp_nodeset *out)
{
	return job_fits(a, free, tp_nodeset_count(free), 0, false, NULL, j,
			out);
}

bool tp_job_can_fit(tp_alloc *a, const tp_nodeset *free, const tp_job *j,
		    tp_nodeset *scratch)
{
	return job_fits(a, free, tp_nodeset_count(free), 0, true, NULL, j,
			scratch);
}
