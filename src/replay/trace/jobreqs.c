/*
 * jobreqs.c - per-job node requests for a replay (jobreqs.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/conffile.h"
#include "base/hostlist.h"
#include "trace/jobreqs.h"

#include "driver/switches.h"

typedef struct reader {
	const char *path;
	int line, nnodes;
	tp_node_index_fn index;
	const void *ctx;
	tp_error *err;
} reader;

static int bad(const reader *rd, const char *key, const char *value,
	       const char *why)
{
	return tp_errorf(rd->err, "%s:%d: %s='%s': %s", rd->path, rd->line,
			 key, value, why);
}

/* A positive int, whole string. */
static int parse_count(const reader *rd, const char *key, const char *v,
		       int *out)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < 1 || x > INT_MAX)
		return bad(rd, key, v, "expected a whole number >= 1");
	*out = (int)x;
	return 0;
}

/* Set the nodes of hostlist `v` in s. */
static int parse_nodes(const reader *rd, const char *key, const char *v,
		       tp_nodeset *s)
{
	tp_hostlist hl = { 0 };
	char msg[256];
	if (tp_hostlist_expand(&hl, v, msg, sizeof(msg))) {
		tp_hostlist_fini(&hl);
		return bad(rd, key, v, msg);
	}
	int rc = 0;
	for (size_t i = 0; i < hl.n && !rc; i++) {
		int k = rd->index(rd->ctx, hl.names[i]);
		if (k < 0 || k >= rd->nnodes) {
			snprintf(msg, sizeof(msg), "no node '%s' in the topology",
				 hl.names[i]);
			rc = bad(rd, key, v, msg);
		} else {
			tp_nodeset_set(s, k);
		}
	}
	tp_hostlist_fini(&hl);
	return rc;
}

/* Switches=N or N@S: N leaf switches, waited for S seconds (0 or more). */
static int parse_switches(const reader *rd, const char *key, const char *v,
			  tp_jobreq *q)
{
	char buf[64];
	const char *at = strchr(v, '@');
	q->switch_wait = TP_SWITCH_WAIT_FOREVER;
	if (!at)
		return parse_count(rd, key, v, &q->max_groups);
	size_t n = (size_t)(at - v);
	if (n >= sizeof(buf))
		return bad(rd, key, v, "expected N or N@SECONDS");
	memcpy(buf, v, n);
	buf[n] = '\0';
	if (parse_count(rd, key, buf, &q->max_groups))
		return bad(rd, key, v, "expected N@SECONDS, N a whole number >= 1");
	char *end;
	errno = 0;
	long long w = strtoll(at + 1, &end, 10);
	if (errno || end == at + 1 || *end || w < 0)
		return bad(rd, key, v, "expected N@SECONDS, SECONDS a whole number >= 0");
	q->switch_wait = w;
	return 0;
}

static int parse_pair(const reader *rd, tp_jobreq *q, tp_nodeset *excl,
		      const tp_conf_pair *p, bool *has_id, bool *has_nodes)
{
	const char *k = p->key, *v = p->value;
	if (!strcasecmp(k, "JobId")) {
		char *end;
		errno = 0;
		long long id = strtoll(v, &end, 10);
		if (errno || end == v || *end)
			return bad(rd, k, v, "expected a job number");
		q->id = id;
		*has_id = true;
		return 0;
	}
	if (!strcasecmp(k, "NodeList"))
		return parse_nodes(rd, k, v, &q->required);
	if (!strcasecmp(k, "Exclude")) {
		q->has_allowed = true;
		return parse_nodes(rd, k, v, excl);
	}
	if (!strcasecmp(k, "Nodes")) {
		q->has_allowed = true;
		*has_nodes = true;
		return parse_nodes(rd, k, v, &q->allowed);
	}
	if (!strcasecmp(k, "MaxNodes"))
		return parse_count(rd, k, v, &q->max_nodes);
	if (!strcasecmp(k, "Switches"))
		return parse_switches(rd, k, v, q);
	if (!strcasecmp(k, "Contiguous")) {
		int b = tp_conf_bool(v);
		if (b < 0)
			return bad(rd, k, v, "expected yes or no");
		q->contiguous = b;
		return 0;
	}
	return tp_errorf(rd->err, "%s:%d: unknown key '%s' (known: JobId, "
			 "NodeList, Exclude, Nodes, MaxNodes, Contiguous, "
			 "Switches)", rd->path, rd->line, k);
}

/* One line into q (initialised here). */
static int parse_line(const reader *rd, const tp_conf_line *l, tp_jobreq *q)
{
	tp_nodeset excl;
	const char *twice = tp_conf_repeated(l);
	if (twice)
		return tp_errorf(rd->err, "%s:%d: key '%s' given twice",
				 rd->path, l->lineno, twice);
	if (tp_nodeset_init(&q->allowed, rd->nnodes) ||
	    tp_nodeset_init(&q->required, rd->nnodes) ||
	    tp_nodeset_init(&excl, rd->nnodes))
		return tp_errorf(rd->err, "out of memory");
	q->line = l->lineno;
	bool has_id = false, has_nodes = false;
	int rc = 0;
	for (size_t i = 0; i < l->npairs && !rc; i++)
		rc = parse_pair(rd, q, &excl, &l->pairs[i], &has_id, &has_nodes);
	if (!rc && !has_id)
		rc = tp_errorf(rd->err, "%s:%d: no JobId=", rd->path, rd->line);
	if (!rc && q->has_allowed) {
		if (!has_nodes)
			tp_nodeset_fill(&q->allowed);
		tp_nodeset_andnot(&q->allowed, &excl);
		if (!tp_nodeset_subset(&q->required, &q->allowed))
			rc = tp_errorf(rd->err, "%s:%d: job %" PRId64 ": a "
				       "NodeList= node is excluded or outside "
				       "Nodes=", rd->path, rd->line, q->id);
	}
	tp_nodeset_fini(&excl);
	return rc;
}

void tp_jobreqs_fini(tp_jobreqs *q)
{
	for (size_t i = 0; i < q->n; i++) {
		tp_nodeset_fini(&q->r[i].allowed);
		tp_nodeset_fini(&q->r[i].required);
	}
	free(q->r);
	free(q->path);
	*q = (tp_jobreqs){ 0 };
}

static int read_lines(tp_jobreqs *q, tp_conf_reader *cr, reader *rd)
{
	size_t cap = 0;
	tp_conf_line l;
	int got;
	while ((got = tp_conf_next(cr, &l, rd->err)) == 1) {
		rd->line = l.lineno;
		if (q->n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			tp_jobreq *r = realloc(q->r, nc * sizeof(*r));
			if (!r)
				return tp_errorf(rd->err, "out of memory");
			q->r = r;
			cap = nc;
		}
		tp_jobreq *e = &q->r[q->n];
		*e = (tp_jobreq){ 0 };
		q->n++; /* owned from here, even half-parsed */
		if (parse_line(rd, &l, e))
			return -1;
		for (size_t i = 0; i + 1 < q->n; i++)
			if (q->r[i].id == e->id)
				return tp_errorf(rd->err, "%s:%d: job %" PRId64
						 " again (first at line %d)",
						 rd->path, rd->line, e->id,
						 q->r[i].line);
	}
	return got < 0 ? -1 : 0;
}

int tp_jobreqs_read(tp_jobreqs *q, const char *path, int nnodes,
		    tp_node_index_fn index, const void *ctx, tp_error *err)
{
	*q = (tp_jobreqs){ 0 };
	reader rd = { .path = path, .nnodes = nnodes, .index = index,
		      .ctx = ctx, .err = err };
	if (!(q->path = strdup(path)))
		return tp_errorf(err, "out of memory");
	tp_conf_reader *cr = tp_conf_open(path, err);
	if (!cr) {
		tp_jobreqs_fini(q);
		return -1;
	}
	int rc = read_lines(q, cr, &rd);
	tp_conf_close(cr);
	if (rc)
		tp_jobreqs_fini(q);
	return rc;
}

/* The checks that need the trace's job. */
static int check_job(const tp_jobreqs *q, const tp_jobreq *r,
		     const tp_wjob *j, tp_error *err)
{
	int nreq = tp_nodeset_count(&r->required);
	int most = r->max_nodes ? r->max_nodes : j->nodes;
	if (r->max_nodes && r->max_nodes < j->nodes)
		return tp_errorf(err, "%s:%d: MaxNodes=%d is below job %" PRId64
				 "'s %d nodes", q->path, r->line, r->max_nodes,
				 j->id, j->nodes);
	if (nreq > most)
		return tp_errorf(err, "%s:%d: job %" PRId64 " asks for at most "
				 "%d nodes but NodeList= names %d", q->path,
				 r->line, j->id, most, nreq);
	return 0;
}

typedef struct id_at {
	int64_t id;
	size_t at;
} id_at;

static int by_id(const void *a, const void *b)
{
	const id_at *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* A request for a job the reader dropped: counted, not used. */
static bool note_dropped(tp_jobreqs *q, const tp_jobreq *r,
			 const tp_workload *w)
{
	int why = tp_workload_dropped(w, r->id);
	if (why < 0)
		return false;
	if (!q->unused.n[why]++) {
		q->unused.first_id[why] = r->id;
		q->unused.first_line[why] = r->line;
	}
	return true;
}

int tp_jobreqs_apply(tp_jobreqs *q, tp_workload *w, tp_error *err)
{
	id_at *ix = malloc((w->njobs + 1) * sizeof(*ix));
	if (!ix)
		return tp_errorf(err, "out of memory");
	for (size_t k = 0; k < w->njobs; k++)
		ix[k] = (id_at){ w->jobs[k].id, k };
	qsort(ix, w->njobs, sizeof(*ix), by_id);
	int rc = 0;
	memset(&q->unused, 0, sizeof(q->unused));
	for (size_t i = 0; i < q->n && !rc; i++) {
		const tp_jobreq *r = &q->r[i];
		id_at key = { r->id, 0 };
		const id_at *hit = bsearch(&key, ix, w->njobs, sizeof(*ix), by_id);
		if (!hit && note_dropped(q, r, w))
			continue;
		if (!hit) {
			rc = tp_errorf(err, "%s:%d: no job %" PRId64 " in the "
				       "workload", q->path, r->line, r->id);
			break;
		}
		tp_wjob *j = &w->jobs[hit->at];
		if ((rc = check_job(q, r, j, err)))
			break;
		j->allowed = r->has_allowed ? &r->allowed : NULL;
		j->required = tp_nodeset_count(&r->required) ? &r->required : NULL;
		j->max_nodes = r->max_nodes;
		j->max_groups = r->max_groups;
		j->switch_wait = r->switch_wait;
		j->contiguous = r->contiguous;
	}
	free(ix);
	return rc;
}
