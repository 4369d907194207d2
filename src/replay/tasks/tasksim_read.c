/* tasksim_read.c - the task simulator's nodes and jobs files; see
 * tasksim.h and topotasks(1). */
#include "tasks/tasksim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/conffile.h"

/* Where a value came from, for "FILE:LINE: KEY: 'VALUE' ..." messages. */
typedef struct ts_at {
	const char *file;
	int line;
} ts_at;

static int parse_int(const ts_at *at, const char *key, const char *v,
		     long lo, long hi, long *out, tp_error *err)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi)
		return tp_errorf(err, "%s:%d: %s: '%s' is not a whole number from %ld to %ld",
				 at->file, at->line, key, v, lo, hi);
	*out = n;
	return 0;
}

/* Times and sizes stay far from int64 microseconds' limits. */
#define TS_MAX 1e9

/* A number >= lo (> lo when strict) and <= TS_MAX. */
static int parse_num(const ts_at *at, const char *key, const char *v,
		     double lo, bool strict, double *out, tp_error *err)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (errno || end == v || *end || !(d >= lo && d <= TS_MAX) ||
	    (strict && d == lo))
		return tp_errorf(err, "%s:%d: %s: '%s' is not a number %s %g and <= %g",
				 at->file, at->line, key, v, strict ? ">" : ">=", lo,
				 TS_MAX);
	*out = d;
	return 0;
}

static void *grow(void *p, int n, size_t size)
{
	if (n & (n - 1))
		return p; /* room left: capacities are powers of two */
	return realloc(p, (size_t)(n ? 2 * n : 1) * size);
}

/* ---- nodes ------------------------------------------------------------ */

static const char node_keys[] = "NodeName, CPUs, Memory, Speed, Fail";

static int node_pair(const ts_at *at, tp_ts_node *nd, const char *key,
		     const char *v, tp_error *err)
{
	long n;
	if (!strcasecmp(key, "NodeName")) {
		if (!*v)
			return tp_errorf(err, "%s:%d: NodeName: empty name '%s'", at->file, at->line, v);
		free(nd->name);
		nd->name = strdup(v);
		return nd->name ? 0 : tp_errorf(err, "%s: out of memory", at->file);
	}
	if (!strcasecmp(key, "CPUs")) {
		if (parse_int(at, key, v, 1, 1 << 20, &n, err))
			return -1;
		nd->cores = (int)n;
		return 0;
	}
	if (!strcasecmp(key, "Memory") || !strcasecmp(key, "RealMemory"))
		return parse_num(at, key, v, 0, true, &nd->mem, err);
	if (!strcasecmp(key, "Speed"))
		return parse_num(at, key, v, 0, true, &nd->speed, err);
	if (!strcasecmp(key, "Fail"))
		return parse_num(at, key, v, 0, false, &nd->fail, err);
	return tp_errorf(err, "%s:%d: unknown key '%s' (known: %s)",
			 at->file, at->line, key, node_keys);
}

static int node_check(const ts_at *at, const tp_ts_input *in,
		      const tp_ts_node *nd, tp_error *err)
{
	if (!nd->name)
		return tp_errorf(err, "%s:%d: no NodeName= on the line", at->file, at->line);
	if (!nd->cores)
		return tp_errorf(err, "%s:%d: node '%s' has no CPUs=", at->file, at->line, nd->name);
	if (!(nd->mem > 0))
		return tp_errorf(err, "%s:%d: node '%s' has no Memory=", at->file, at->line, nd->name);
	for (int k = 0; k < in->nnodes; k++)
		if (!strcmp(in->node[k].name, nd->name))
			return tp_errorf(err, "%s:%d: NodeName: duplicate node '%s'",
					 at->file, at->line, nd->name);
	return 0;
}

static int node_line(const ts_at *at, tp_ts_input *in, const tp_conf_line *l,
		     tp_error *err)
{
	tp_ts_node nd = { .speed = 1.0, .fail = -1 };
	for (size_t i = 0; i < l->npairs; i++)
		if (node_pair(at, &nd, l->pairs[i].key, l->pairs[i].value, err))
			goto fail;
	if (node_check(at, in, &nd, err))
		goto fail;
	tp_ts_node *p = grow(in->node, in->nnodes, sizeof(*p));
	if (!p) {
		tp_errorf(err, "%s: out of memory", at->file);
		goto fail;
	}
	in->node = p;
	in->node[in->nnodes++] = nd;
	return 0;
fail:
	free(nd.name);
	return -1;
}

/* ---- jobs ------------------------------------------------------------- */

static const char job_keys[] = "JobId, Submit, Tasks, CPUs, Memory, Work, Replicas";

enum { SEEN_ID = 1, SEEN_SUBMIT = 2, SEEN_TASKS = 4, SEEN_MEM = 8, SEEN_WORK = 16 };

static int job_pair(const ts_at *at, tp_ts_job *jb, int *seen, const char *key,
		    const char *v, tp_error *err)
{
	long n;
	int rc;
	if (!strcasecmp(key, "JobId")) {
		rc = parse_int(at, key, v, 0, 2147483647L, &n, err);
		jb->id = n;
		*seen |= SEEN_ID;
	} else if (!strcasecmp(key, "Submit")) {
		rc = parse_num(at, key, v, 0, false, &jb->submit, err);
		*seen |= SEEN_SUBMIT;
	} else if (!strcasecmp(key, "Tasks")) {
		rc = parse_int(at, key, v, 1, 1 << 24, &n, err);
		jb->tasks = (int)n;
		*seen |= SEEN_TASKS;
	} else if (!strcasecmp(key, "CPUs")) {
		rc = parse_int(at, key, v, 1, 1 << 20, &n, err);
		jb->cores = (int)n;
	} else if (!strcasecmp(key, "Memory")) {
		rc = parse_num(at, key, v, 0, false, &jb->mem, err);
		*seen |= SEEN_MEM;
	} else if (!strcasecmp(key, "Work")) {
		rc = parse_num(at, key, v, 0, true, &jb->work, err);
		*seen |= SEEN_WORK;
	} else if (!strcasecmp(key, "Replicas")) {
		rc = parse_int(at, key, v, 1, 1024, &n, err);
		jb->replicas = (int)n;
	} else {
		return tp_errorf(err, "%s:%d: unknown key '%s' (known: %s)",
				 at->file, at->line, key, job_keys);
	}
	return rc;
}

static int job_check(const ts_at *at, const tp_ts_input *in,
		     const tp_ts_job *jb, int seen, tp_error *err)
{
	static const struct { int bit; const char *key; } need[] = {
		{ SEEN_ID, "JobId" }, { SEEN_SUBMIT, "Submit" },
		{ SEEN_TASKS, "Tasks" }, { SEEN_MEM, "Memory" },
		{ SEEN_WORK, "Work" },
	};
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!(seen & need[i].bit))
			return tp_errorf(err, "%s:%d: no %s= on the line",
					 at->file, at->line, need[i].key);
	for (int j = 0; j < in->njobs; j++)
		if (in->job[j].id == jb->id)
			return tp_errorf(err, "%s:%d: JobId: duplicate job '%lld'",
					 at->file, at->line, (long long)jb->id);
	return 0;
}

static int job_line(const ts_at *at, tp_ts_input *in, const tp_conf_line *l,
		    tp_error *err)
{
	tp_ts_job jb = { .cores = 1, .replicas = 1 };
	int seen = 0;
	for (size_t i = 0; i < l->npairs; i++)
		if (job_pair(at, &jb, &seen, l->pairs[i].key, l->pairs[i].value, err))
			return -1;
	if (job_check(at, in, &jb, seen, err))
		return -1;
	tp_ts_job *p = grow(in->job, in->njobs, sizeof(*p));
	if (!p)
		return tp_errorf(err, "%s: out of memory", at->file);
	in->job = p;
	in->job[in->njobs++] = jb;
	return 0;
}

/* ---- files ------------------------------------------------------------ */

typedef int (*ts_line_fn)(const ts_at *at, tp_ts_input *in,
			  const tp_conf_line *l, tp_error *err);

static int read_file(tp_ts_input *in, const char *path, ts_line_fn fn,
		     tp_error *err)
{
	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		return -1;
	tp_conf_line line;
	int rc;
	while ((rc = tp_conf_next(r, &line, err)) == 1) {
		ts_at at = { path, line.lineno };
		const char *twice = tp_conf_repeated(&line);
		if (twice) {
			tp_errorf(err, "%s:%d: key '%s' given twice", path,
				  line.lineno, twice);
			rc = -1;
			break;
		}
		if (fn(&at, in, &line, err)) {
			rc = -1;
			break;
		}
	}
	tp_conf_close(r);
	return rc < 0 ? -1 : 0;
}

int tp_ts_read_nodes(tp_ts_input *in, const char *path, tp_error *err)
{
	return read_file(in, path, node_line, err);
}

int tp_ts_read_jobs(tp_ts_input *in, const char *path, tp_error *err)
{
	return read_file(in, path, job_line, err);
}

void tp_ts_input_fini(tp_ts_input *in)
{
	for (int k = 0; k < in->nnodes; k++)
		free(in->node[k].name);
	free(in->node);
	free(in->job);
	*in = (tp_ts_input){ 0 };
}
