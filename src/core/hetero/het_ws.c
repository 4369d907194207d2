/* het_ws.c - the schedules' working state: placing an option; see het_ws.h. */
#include "hetero/het_ws.h"

#include <stdlib.h>
#include <string.h>

static int slot_cmp(const void *a, const void *b)
{
	const het_slot *x = a, *y = b;
	if (x->ready != y->ready)
		return x->ready < y->ready ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Partition p's usable nodes by (ready, node), sorted only when a commit
 * or a state load changed them since. */
static const het_slot *sorted(het_ws *ws, int p)
{
	het_slot *s = ws->slot + ws->soff[p];
	if (!ws->dirty[p])
		return s;
	const tp_het_part *pt = &ws->m->part[p];
	int k = 0;
	for (int i = 0; i < pt->nnodes; i++) {
		int v = pt->node[i];
		if (ws->ready[v] < TP_HET_NEVER)
			s[k++] = (het_slot){ ws->ready[v], v };
	}
	qsort(s, (size_t)k, sizeof(*s), slot_cmp);
	ws->nslot[p] = k;
	ws->dirty[p] = false;
	return s;
}

static bool may_use(const tp_het_job *j, int node)
{
	return !j->allowed ||
	       (node < j->allowed->n && tp_nodeset_test(j->allowed, node));
}

double het_fit(het_ws *ws, size_t j, int pos, int n, bool pick)
{
	const tp_het_job *job = &ws->jobs[j];
	int p = job->parts[pos];
	const het_slot *s = sorted(ws, p);
	int ns = ws->nslot[p], got = 0;
	double last = ws->now;
	for (int i = 0; i < ns && got < n; i++) {
		if (!may_use(job, s[i].node))
			continue;
		if (pick)
			ws->pick[got] = s[i].node;
		got++;
		last = s[i].ready;
	}
	if (got < n)
		return -1;
	return last > ws->now ? last : ws->now;
}

void het_commit(het_ws *ws, int n, double end)
{
	for (int i = 0; i < n; i++) {
		int v = ws->pick[i];
		ws->ready[v] = end;
		for (int k = ws->npart_off[v]; k < ws->npart_off[v + 1]; k++)
			ws->dirty[ws->npart[k]] = true;
	}
}

double het_place_list(het_ws *ws, const het_opt *o, size_t n)
{
	double total = 0;
	for (size_t i = 0; i < n; i++) {
		double start = het_fit(ws, o[i].job, o[i].pos, o[i].n, true);
		double end = start + o[i].et;
		het_commit(ws, o[i].n, end);
		total += end - ws->now;
	}
	return total;
}

void het_state_save(het_ws *ws, double *to)
{
	memcpy(to, ws->ready, (size_t)ws->m->nnodes * sizeof(*to));
}

void het_state_load(het_ws *ws, const double *from)
{
	memcpy(ws->ready, from, (size_t)ws->m->nnodes * sizeof(*from));
	for (int p = 0; p < ws->m->nparts; p++)
		ws->dirty[p] = true;
}

/* node -> the partitions holding it, so a commit marks only those. */
static int node_parts(het_ws *ws)
{
	const tp_het_machine *m = ws->m;
	size_t total = 0;
	for (int p = 0; p < m->nparts; p++)
		total += (size_t)m->part[p].nnodes;
	ws->npart_off = calloc((size_t)m->nnodes + 1, sizeof(int));
	ws->npart = malloc((total ? total : 1) * sizeof(int));
	if (!ws->npart_off || !ws->npart)
		return -1;
	for (int p = 0; p < m->nparts; p++)
		for (int i = 0; i < m->part[p].nnodes; i++)
			ws->npart_off[m->part[p].node[i] + 1]++;
	for (int v = 0; v < m->nnodes; v++)
		ws->npart_off[v + 1] += ws->npart_off[v];
	int *fill = ws->pick; /* free scratch until the first het_fit */
	memcpy(fill, ws->npart_off, (size_t)m->nnodes * sizeof(int));
	for (int p = 0; p < m->nparts; p++)
		for (int i = 0; i < m->part[p].nnodes; i++)
			ws->npart[fill[m->part[p].node[i]]++] = p;
	return 0;
}

static int alloc_arrays(het_ws *ws)
{
	const tp_het_machine *m = ws->m;
	size_t nn = (size_t)m->nnodes + 1, np = (size_t)m->nparts + 1;
	size_t nj = ws->njobs + 1, total = 1;
	for (int p = 0; p < m->nparts; p++)
		total += (size_t)m->part[p].nnodes;
	ws->ready = malloc(nn * sizeof(double));
	ws->saved = malloc(nn * sizeof(double));
	ws->lstart = malloc(nn * sizeof(double));
	ws->pick = malloc(nn * sizeof(int));
	ws->slot = malloc(total * sizeof(het_slot));
	ws->soff = malloc(np * sizeof(size_t));
	ws->nslot = calloc(np, sizeof(int));
	ws->dirty = malloc(np * sizeof(bool));
	ws->eoff = malloc(nj * sizeof(size_t));
	ws->done = malloc(nj * sizeof(bool));
	ws->rest = malloc(nj * sizeof(size_t));
	ws->in_c = calloc(nj, sizeof(bool));
	het_opt **o[] = { &ws->sa, &ws->sb, &ws->best, &ws->trial,
			  &ws->cand };
	for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++)
		if (!(*o[i] = malloc(nj * sizeof(het_opt))))
			return -1;
	return ws->ready && ws->saved && ws->lstart && ws->pick &&
	       ws->slot && ws->soff && ws->nslot && ws->dirty && ws->eoff &&
	       ws->done && ws->rest && ws->in_c ? 0 : -1;
}

/* The nodes of p job j may ever use (state-independent: a node's ready
 * time only moves from finite to finite). */
static int capacity(const het_ws *ws, const tp_het_job *j, int p)
{
	const tp_het_part *pt = &ws->m->part[p];
	int k = 0;
	for (int i = 0; i < pt->nnodes; i++)
		if (ws->m->ready[pt->node[i]] < TP_HET_NEVER &&
		    may_use(j, pt->node[i]))
			k++;
	return k;
}

static int job_tables(het_ws *ws, tp_error *err)
{
	size_t total = 0;
	for (size_t j = 0; j < ws->njobs; j++) {
		const tp_het_job *job = &ws->jobs[j];
		ws->eoff[j] = total;
		total += job->nparts > 0 ? (size_t)job->nparts : 0;
		if (job->nmin < 1)
			return tp_errorf(err, "job %lld: node count %d < 1",
					 (long long)job->id, (int)job->nmin);
		for (int k = 0; k < job->nparts; k++)
			if (job->parts[k] < 0 ||
			    job->parts[k] >= ws->m->nparts)
				return tp_errorf(err,
					"job %lld: partition %d does not exist",
					(long long)job->id, job->parts[k]);
	}
	ws->seq_et = malloc((total ? total : 1) * sizeof(double));
	ws->cap = malloc((total ? total : 1) * sizeof(int));
	if (!ws->seq_et || !ws->cap)
		return tp_errorf(err, "out of memory");
	for (size_t j = 0; j < ws->njobs; j++) {
		const tp_het_job *job = &ws->jobs[j];
		for (int k = 0; k < job->nparts; k++) {
			size_t e = ws->eoff[j] + (size_t)k;
			ws->cap[e] = capacity(ws, job, job->parts[k]);
			ws->seq_et[e] = TP_HET_NO_RUN;
			if (ws->cap[e] >= job->nmin) {
				double t = ws->etc(ws->arg, job, job->parts[k],
						   job->nmin);
				ws->seq_et[e] = t > 0 ? t : TP_HET_NO_RUN;
			}
		}
	}
	return 0;
}

static int check_parts(const tp_het_machine *m, tp_error *err)
{
	for (int p = 0; p < m->nparts; p++)
		for (int i = 0; i < m->part[p].nnodes; i++)
			if (m->part[p].node[i] < 0 ||
			    m->part[p].node[i] >= m->nnodes)
				return tp_errorf(err,
					"partition %s: node %d is not one of the %d nodes",
					m->part[p].name ? m->part[p].name : "?",
					m->part[p].node[i], m->nnodes);
	return 0;
}

int het_ws_init(het_ws *ws, const tp_het_machine *m, double now,
		const tp_het_job *jobs, size_t njobs, tp_het_etc_fn etc,
		void *arg, tp_error *err)
{
	memset(ws, 0, sizeof(*ws));
	ws->m = m;
	ws->now = now;
	ws->jobs = jobs;
	ws->njobs = njobs;
	ws->etc = etc;
	ws->arg = arg;
	if (check_parts(m, err))
		return -1;
	if (alloc_arrays(ws) || node_parts(ws)) {
		het_ws_fini(ws);
		return tp_errorf(err, "out of memory");
	}
	size_t off = 0;
	for (int p = 0; p < m->nparts; p++) {
		ws->soff[p] = off;
		off += (size_t)m->part[p].nnodes;
	}
	if (job_tables(ws, err)) {
		het_ws_fini(ws);
		return -1;
	}
	het_state_load(ws, m->ready);
	return 0;
}

void het_ws_fini(het_ws *ws)
{
	void *p[] = { ws->ready, ws->saved, ws->lstart, ws->slot, ws->soff,
		      ws->nslot, ws->dirty, ws->npart_off, ws->npart,
		      ws->pick, ws->eoff, ws->seq_et, ws->cap, ws->done,
		      ws->rest, ws->in_c, ws->sa, ws->sb, ws->best,
		      ws->trial, ws->cand };
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	memset(ws, 0, sizeof(*ws));
}
