/* torus_describe.c - node set -> box; see torus_describe.h. */
#include "machine/torus_describe.h"

#include "machine/topo.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/*
 * The one interval (cyclic on a ring) that `used` (d entries) forms:
 * 0 with off/len set, -1 if the used positions are not one interval.
 */
static int interval_of(const bool *used, int d, bool ring, int *off,
		       int *len)
{
	int count = 0, starts = 0, start = -1;

	for (int p = 0; p < d; p++) {
		if (!used[p])
			continue;
		count++;
		/* p starts a run if the position before it is unused (on a
		 * line, position 0 has nothing before it) */
		bool prev = p > 0 ? used[p - 1] : (ring && used[d - 1]);
		if (!prev) {
			starts++;
			start = p;
		}
	}
	if (count == 0)
		return -1;
	if (count == d) { /* spans the dimension: canonical offset 0 */
		*off = 0;
		*len = d;
		return 0;
	}
	if (starts != 1)
		return -1;
	*off = start;
	*len = count;
	return 0;
}

int tp_box_of(const tp_torus *t, const tp_nodeset *nodes, tp_box *box)
{
	int n = tp_torus_ndims(t), N = tp_torus_nnodes(t);
	const int *dims = tp_torus_dims(t);
	const bool *wrap = tp_torus_wrap(t);
	int coord[TP_TORUS_MAX_DIMS];
	int dmax = 1;

	for (int i = 0; i < n; i++)
		if (dims[i] > dmax)
			dmax = dims[i];
	bool used[TP_TORUS_MAX_DIMS][dmax];
	memset(used, 0, sizeof(used));
	int count = 0;
	for (int j = tp_nodeset_next(nodes, 0); j >= 0 && j < N;
	     j = tp_nodeset_next(nodes, j + 1)) {
		tp_torus_coord(t, j, coord);
		for (int i = 0; i < n; i++)
			used[i][coord[i]] = true;
		count++;
	}
	if (count == 0)
		return -1;

	memset(box, 0, sizeof(*box));
	long product = 1;
	for (int i = 0; i < n; i++) {
		if (interval_of(used[i], dims[i], wrap[i], &box->off[i],
				&box->len[i]))
			return -1;
		product *= box->len[i];
	}
	/* The set lies within the product of the intervals; it IS that
	 * product iff it has as many nodes. */
	return product == count ? 0 : -1;
}

static void put_list(char *buf, size_t len, const int *v, int n)
{
	size_t used = strlen(buf);
	for (int i = 0; i < n && used < len; i++) {
		snprintf(buf + used, len - used, "%s%d", i ? "," : "", v[i]);
		used = strlen(buf);
	}
}

void tp_describe_torus(const tp_torus *t, const tp_nodeset *nodes, int requested,
		 char *buf, size_t len)
{
	tp_box box;
	int n = tp_torus_ndims(t), count = tp_nodeset_count(nodes);
	double dist = tp_torus_set_mean_distance(t, nodes);

	if (!len)
		return;
	buf[0] = '\0';
	if (tp_box_of(t, nodes, &box)) {
		snprintf(buf, len, "box=none mean_dist=%.3f", dist);
		return;
	}
	snprintf(buf, len, "box_off=");
	put_list(buf, len, box.off, n);
	size_t used = strlen(buf);
	snprintf(buf + used, len - used, " box_len=");
	put_list(buf, len, box.len, n);
	used = strlen(buf);
	snprintf(buf + used, len - used, " mean_dist=%.3f", dist);
	if (requested > 0 && count > requested) {
		used = strlen(buf);
		snprintf(buf + used, len - used, " transit=%d",
			 count - requested);
	}
}

void tp_describe_torus_topo(const void *topo, tp_alloc *alloc,
			    const tp_nodeset *nodes, int requested, char *buf,
			    size_t len)
{
	const tp_topo *t = topo;
	tp_nodeset in;
	(void)alloc;
	if (tp_topo_inside(t, nodes, &in)) {
		snprintf(buf, len, "(out of memory)");
		return;
	}
	int outside = tp_nodeset_count(nodes) - tp_nodeset_count(&in);
	if (outside && !tp_nodeset_count(&in)) {
		snprintf(buf, len, "outside the torus");
	} else {
		tp_describe_torus(t->torus, &in, requested, buf, len);
		size_t used = strlen(buf);
		if (outside && used < len)
			snprintf(buf + used, len - used, " outside=%d", outside);
	}
	tp_nodeset_fini(&in);
}

void tp_torus_loaded_line(const tp_topo *t, char *buf, size_t len)
{
	const int *d = tp_torus_dims(t->torus);
	char dims[96] = "";
	for (int i = 0; i < tp_torus_ndims(t->torus); i++) {
		size_t used = strlen(dims);
		snprintf(dims + used, sizeof(dims) - used, "%s%d", i ? "x" : "",
			 d[i]);
	}
	snprintf(buf, len, "torus %s: %s, %d nodes, Ntransit=%d, allocator %s (from %s)",
		 t->conf, dims, t->ninside, tp_torus_ntransit(t->torus),
		 t->alloc_name, t->alloc_from);
}
