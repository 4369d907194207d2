/* het_conf.c - the heterogeneous machine and job files; see het_conf.h. */
#include "hetsim/het_conf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/conffile.h"
#include "base/hostlist.h"

/* The index of `name` in tab[n] (indexed by ix), appended if new.  The
 * table doubles when its count reaches a power of two (only intern()
 * grows it): growing by one entry copied it at every name. */
static int intern(char ***tab, int *n, tp_name_index *ix, const char *name)
{
	int i = tp_name_index_find(ix, *tab, name);
	if (i >= 0)
		return i;
	char **t = *tab;
	if (!(*n & (*n - 1))) {
		t = realloc(*tab, sizeof(char *) * (size_t)(*n ? 2 * *n : 1));
		if (!t)
			return -1;
	}
	*tab = t;
	if (!(t[*n] = strdup(name)))
		return -1;
	if (tp_name_index_add(ix, t)) {
		free(t[*n]);
		return -1;
	}
	return (*n)++;
}

int tp_het_conf_add_node(tp_het_conf *c, const char *name, int *index)
{
	*index = intern(&c->node_name, &c->nnodes, &c->node_index, name);
	return *index < 0 ? -1 : 0;
}

int tp_het_conf_part(const tp_het_conf *c, const char *name)
{
	for (int i = 0; i < c->nparts; i++)
		if (!strcmp(c->part[i].name, name))
			return i;
	return -1;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int tp_het_conf_add_part(tp_het_conf *c, const char *name,
			 const char *mclass, const int *node, int nnodes)
{
	tp_het_part *t = realloc(c->part, sizeof(*t) * (size_t)(c->nparts + 1));
	if (!t)
		return -1;
	c->part = t;
	int mc = intern(&c->mclass_name, &c->nmclass, &c->mclass_index, mclass);
	char *nm = strdup(name);
	int *nodes = malloc(sizeof(int) * (size_t)(nnodes ? nnodes : 1));
	if (mc < 0 || !nm || !nodes) {
		free(nm);
		free(nodes);
		return -1;
	}
	memcpy(nodes, node, sizeof(int) * (size_t)nnodes);
	qsort(nodes, (size_t)nnodes, sizeof(int), cmp_int);
	t[c->nparts++] = (tp_het_part){ .name = nm, .mclass = mc,
					.node = nodes, .nnodes = nnodes };
	return 0;
}

void tp_het_conf_fini(tp_het_conf *c)
{
	for (int i = 0; i < c->nnodes; i++)
		free(c->node_name[i]);
	for (int i = 0; i < c->nparts; i++) {
		free((char *)c->part[i].name);
		free((int *)c->part[i].node);
	}
	for (int i = 0; i < c->nmclass; i++)
		free(c->mclass_name[i]);
	free(c->node_name);
	free(c->part);
	free(c->mclass_name);
	tp_name_index_fini(&c->node_index);
	tp_name_index_fini(&c->mclass_index);
	memset(c, 0, sizeof(*c));
}

tp_het_machine tp_het_conf_machine(const tp_het_conf *c, const double *ready)
{
	return (tp_het_machine){ .nnodes = c->nnodes, .ready = ready,
				 .part = c->part, .nparts = c->nparts };
}

/* The first node of node[n] named a second time, or -1 (a mark per node
 * of the machine: linear, where comparing each with those before was
 * quadratic). */
static int repeated_node(const tp_het_conf *c, const int *node, int n)
{
	unsigned char *seen = calloc((size_t)c->nnodes, 1);
	int at = seen ? -1 : -2;
	for (int i = 0; seen && i < n && at < 0; i++)
		if (seen[node[i]]++)
			at = i;
	free(seen);
	return at;
}

/* Nodes=HOSTLIST of one partition line -> node indices (no repeats). */
static int part_nodes(tp_het_conf *c, const char *file, int line,
		      const char *v, int **out, int *n, tp_error *err)
{
	tp_hostlist hl = { 0 };
	char why[256];
	if (tp_hostlist_expand(&hl, v, why, sizeof(why))) {
		tp_hostlist_fini(&hl);
		return tp_errorf(err, "%s:%d: Nodes: %s '%s'", file, line, why, v);
	}
	int rc = 0;
	*out = malloc(sizeof(int) * (hl.n ? hl.n : 1));
	*n = 0;
	for (size_t i = 0; !rc && i < hl.n; i++) {
		if (!*out || tp_het_conf_add_node(c, hl.names[i], &(*out)[*n]))
			rc = tp_errorf(err, "%s: out of memory", file);
		else
			(*n)++;
	}
	int twice = rc ? -1 : repeated_node(c, *out, *n);
	if (twice == -2)
		rc = tp_errorf(err, "%s: out of memory", file);
	else if (twice >= 0)
		rc = tp_errorf(err, "%s:%d: Nodes: node named twice '%s'",
			       file, line, hl.names[twice]);
	if (!rc && !hl.n)
		rc = tp_errorf(err, "%s:%d: Nodes: no nodes '%s'", file, line, v);
	tp_hostlist_fini(&hl);
	return rc;
}

static int machine_line(tp_het_conf *c, const char *file,
			const tp_conf_line *l, tp_error *err)
{
	const char *name = NULL, *nodes = NULL, *mclass = NULL;
	const char *twice = tp_conf_repeated(l);
	if (twice)
		return tp_errorf(err, "%s:%d: key given twice '%s'", file,
				 l->lineno, twice);
	for (size_t i = 0; i < l->npairs; i++) {
		const char *k = l->pairs[i].key, *v = l->pairs[i].value;
		if (!strcasecmp(k, "PartitionName"))
			name = v;
		else if (!strcasecmp(k, "Nodes"))
			nodes = v;
		else if (!strcasecmp(k, "Class"))
			mclass = v;
		else
			return tp_errorf(err, "%s:%d: unknown key (PartitionName, Nodes, Class) '%s'",
					 file, l->lineno, k);
		if (!*v)
			return tp_errorf(err, "%s:%d: %s: empty value '%s'",
					 file, l->lineno, k, v);
	}
	if (!name || !nodes)
		return tp_errorf(err, "%s:%d: a partition needs PartitionName= and Nodes= '%s'",
				 file, l->lineno, name ? name : l->pairs[0].key);
	if (tp_het_conf_part(c, name) >= 0)
		return tp_errorf(err, "%s:%d: PartitionName: partition defined twice '%s'",
				 file, l->lineno, name);
	int *node = NULL, n = 0;
	int rc = part_nodes(c, file, l->lineno, nodes, &node, &n, err);
	if (!rc && tp_het_conf_add_part(c, name, mclass ? mclass : name, node, n))
		rc = tp_errorf(err, "%s: out of memory", file);
	free(node);
	return rc;
}

int tp_het_conf_read(const char *path, tp_het_conf *c, tp_error *err)
{
	memset(c, 0, sizeof(*c));
	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		return -1;
	tp_conf_line l;
	int got, rc = 0;
	while (!rc && (got = tp_conf_next(r, &l, err)) == 1)
		rc = machine_line(c, path, &l, err);
	if (!rc && got < 0)
		rc = -1;
	if (!rc && !c->nparts)
		rc = tp_errorf(err, "%s: no partitions (PartitionName= lines) ''", path);
	tp_conf_close(r);
	if (rc)
		tp_het_conf_fini(c);
	return rc;
}

/* Jobs. */

int tp_het_workload_class(tp_het_workload *w, const char *name)
{
	return intern(&w->jclass_name, &w->njclass, &w->jclass_index, name);
}

int tp_het_workload_add(tp_het_workload *w, const tp_het_job *j)
{
	tp_het_job *t = realloc(w->job, sizeof(*t) * (w->n + 1));
	if (!t)
		return -1;
	w->job = t;
	int *parts = malloc(sizeof(int) * (size_t)(j->nparts ? j->nparts : 1));
	if (!parts)
		return -1;
	memcpy(parts, j->parts, sizeof(int) * (size_t)j->nparts);
	t[w->n] = *j;
	t[w->n++].parts = parts;
	return 0;
}

void tp_het_workload_fini(tp_het_workload *w)
{
	for (size_t i = 0; i < w->n; i++)
		free((int *)w->job[i].parts);
	for (int i = 0; i < w->njclass; i++)
		free(w->jclass_name[i]);
	free(w->job);
	free(w->jclass_name);
	tp_name_index_fini(&w->jclass_index);
	memset(w, 0, sizeof(*w));
}

static int int_val(const char *v, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi)
		return -1;
	*out = x;
	return 0;
}

/* Nodes=N or N-M. */
static int nodes_val(const char *v, tp_het_job *j)
{
	char buf[64];
	int64_t a, b;
	snprintf(buf, sizeof(buf), "%s", v);
	char *dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (strlen(v) >= sizeof(buf) || int_val(buf, 1, 1 << 24, &a))
		return -1;
	b = a;
	if (dash && int_val(dash + 1, a, 1 << 24, &b))
		return -1;
	j->nmin = (int32_t)a;
	j->nmax = (int32_t)b;
	return 0;
}

typedef struct job_ctx {
	const tp_het_conf *c;
	const char *file;
	int line;
	int parts[256];
} job_ctx;

static int parts_val(job_ctx *x, const char *v, tp_het_job *j, tp_error *err)
{
	char buf[4096];
	if (strlen(v) >= sizeof(buf))
		return tp_errorf(err, "%s:%d: Partitions: too long '%s'", x->file, x->line, v);
	snprintf(buf, sizeof(buf), "%s", v);
	j->nparts = 0;
	for (char *s, *tok = strtok_r(buf, ",", &s); tok; tok = strtok_r(NULL, ",", &s)) {
		int p = tp_het_conf_part(x->c, tok);
		if (p < 0)
			return tp_errorf(err, "%s:%d: Partitions: no such partition '%s'",
					 x->file, x->line, tok);
		for (int k = 0; k < j->nparts; k++)
			if (x->parts[k] == p)
				return tp_errorf(err, "%s:%d: Partitions: partition named twice '%s'",
						 x->file, x->line, tok);
		if (j->nparts == 256)
			return tp_errorf(err, "%s:%d: Partitions: more than 256 '%s'",
					 x->file, x->line, v);
		x->parts[j->nparts++] = p;
	}
	if (!j->nparts)
		return tp_errorf(err, "%s:%d: Partitions: none named '%s'", x->file, x->line, v);
	j->parts = x->parts;
	return 0;
}

static int job_pair(job_ctx *x, tp_het_workload *w, const char *k,
		    const char *v, tp_het_job *j, unsigned *seen, tp_error *err)
{
	int64_t n;
	const char *what = NULL;
	if (!strcasecmp(k, "JobId")) {
		*seen |= 1;
		if (int_val(v, 0, INT64_MAX, &n))
			what = "a whole number >= 0";
		j->id = n;
	} else if (!strcasecmp(k, "Submit")) {
		*seen |= 2;
		if (int_val(v, 0, INT64_MAX / 4, &n))
			what = "a whole number of seconds >= 0";
		j->submit = n;
	} else if (!strcasecmp(k, "Class")) {
		*seen |= 4;
		if (!*v)
			what = "a name";
		else if ((j->jclass = tp_het_workload_class(w, v)) < 0)
			return tp_errorf(err, "%s: out of memory", x->file);
	} else if (!strcasecmp(k, "Partitions")) {
		*seen |= 8;
		return parts_val(x, v, j, err);
	} else if (!strcasecmp(k, "Nodes")) {
		*seen |= 16;
		if (nodes_val(v, j))
			what = "N or N-M (1 <= N <= M)";
	} else if (!strcasecmp(k, "TimeLimit")) {
		*seen |= 32;
		if (int_val(v, 1, INT64_MAX / 4, &n))
			what = "a whole number of seconds >= 1";
		j->estimate = n;
	} else if (!strcasecmp(k, "Priority")) {
		if (int_val(v, 0, 1000, &n))
			what = "a level from 0 (first) to 1000";
		j->prio = (int)n;
	} else {
		return tp_errorf(err, "%s:%d: unknown key (JobId, Submit, Class, Partitions, Nodes, TimeLimit, Priority) '%s'",
				 x->file, x->line, k);
	}
	if (what)
		return tp_errorf(err, "%s:%d: %s: expected %s '%s'", x->file,
				 x->line, k, what, v);
	return 0;
}

static int job_line(job_ctx *x, tp_het_workload *w, const tp_conf_line *l,
		    tp_error *err)
{
	static const char *const keys[] = { "JobId", "Submit", "Class",
		"Partitions", "Nodes", "TimeLimit" };
	tp_het_job j = { 0 };
	unsigned seen = 0;
	x->line = l->lineno;
	const char *twice = tp_conf_repeated(l);
	if (twice)
		return tp_errorf(err, "%s:%d: key given twice '%s'", x->file,
				 x->line, twice);
	for (size_t i = 0; i < l->npairs; i++)
		if (job_pair(x, w, l->pairs[i].key, l->pairs[i].value, &j, &seen, err))
			return -1;
	for (int k = 0; k < 6; k++)
		if (!(seen & (1u << k)))
			return tp_errorf(err, "%s:%d: missing %s= '%s'", x->file,
					 x->line, keys[k], l->pairs[0].key);
	int widest = 0;
	for (int k = 0; k < j.nparts; k++)
		if (x->c->part[j.parts[k]].nnodes > widest)
			widest = x->c->part[j.parts[k]].nnodes;
	if (j.nmin > widest)
		return tp_errorf(err, "%s:%d: Nodes: more than any of its partitions has (%d) '%d'",
				 x->file, x->line, widest, j.nmin);
	if (j.nmax > widest)
		j.nmax = widest;
	return tp_het_workload_add(w, &j) ? tp_errorf(err, "%s: out of memory", x->file) : 0;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int unique_ids(const tp_het_workload *w, const char *path, tp_error *err)
{
	int64_t *id = malloc(sizeof(int64_t) * (w->n ? w->n : 1));
	if (!id)
		return tp_errorf(err, "%s: out of memory", path);
	for (size_t i = 0; i < w->n; i++)
		id[i] = w->job[i].id;
	qsort(id, w->n, sizeof(int64_t), cmp_id);
	int rc = 0;
	for (size_t i = 1; !rc && i < w->n; i++)
		if (id[i] == id[i - 1])
			rc = tp_errorf(err, "%s: JobId: two jobs have the id '%" PRId64 "'",
				       path, id[i]);
	free(id);
	return rc;
}

int tp_het_jobs_read(const char *path, const tp_het_conf *c,
		     tp_het_workload *w, tp_error *err)
{
	memset(w, 0, sizeof(*w));
	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		return -1;
	job_ctx x = { .c = c, .file = path };
	tp_conf_line l;
	int got, rc = 0;
	while (!rc && (got = tp_conf_next(r, &l, err)) == 1)
		rc = job_line(&x, w, &l, err);
	if (!rc && got < 0)
		rc = -1;
	tp_conf_close(r);
	if (!rc)
		rc = unique_ids(w, path, err);
	if (rc)
		tp_het_workload_fini(w);
	return rc;
}

/* Writers. */

int tp_het_conf_write(FILE *out, const tp_het_conf *c)
{
	for (int p = 0; p < c->nparts; p++) {
		const tp_het_part *pt = &c->part[p];
		const char **names = malloc(sizeof(char *) * (size_t)pt->nnodes);
		if (!names)
			return -1;
		for (int i = 0; i < pt->nnodes; i++)
			names[i] = c->node_name[pt->node[i]];
		char *hl = tp_hostlist_compress(names, (size_t)pt->nnodes);
		free(names);
		if (!hl)
			return -1;
		fprintf(out, "PartitionName=%s Nodes=%s Class=%s\n", pt->name, hl,
			c->mclass_name[pt->mclass]);
		free(hl);
	}
	return ferror(out) ? -1 : 0;
}

int tp_het_jobs_write(FILE *out, const tp_het_conf *c, const tp_het_workload *w)
{
	for (size_t i = 0; i < w->n; i++) {
		const tp_het_job *j = &w->job[i];
		fprintf(out, "JobId=%" PRId64 " Submit=%" PRId64 " Class=%s Partitions=",
			j->id, j->submit, w->jclass_name[j->jclass]);
		for (int k = 0; k < j->nparts; k++)
			fprintf(out, "%s%s", k ? "," : "", c->part[j->parts[k]].name);
		if (j->nmax > j->nmin)
			fprintf(out, " Nodes=%d-%d", j->nmin, j->nmax);
		else
			fprintf(out, " Nodes=%d", j->nmin);
		fprintf(out, " TimeLimit=%" PRId64 " Priority=%d\n", j->estimate, j->prio);
	}
	return ferror(out) ? -1 : 0;
}
