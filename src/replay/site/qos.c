/* qos.c - a site's QOS priorities; see qos.h. */
#include "site/qos.h"

#include "site/limit_value.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_COLS 64

static int split(char *line, char **f)
{
	int n = 0;
	for (char *p = line;; ) {
		if (n == MAX_COLS)
			return MAX_COLS + 1;
		f[n++] = p;
		char *bar = strchr(p, '|');
		if (!bar)
			return n;
		*bar = '\0';
		p = bar + 1;
	}
}

static void chomp(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

static int add(tp_qos_table *t, const char *name, uint32_t prio,
	       const tp_qos_limits *lim)
{
	char **names = realloc(t->names, (t->n + 1) * sizeof(*names));
	if (names)
		t->names = names;
	uint32_t *p = realloc(t->priority, (t->n + 1) * sizeof(*p));
	if (p)
		t->priority = p;
	tp_qos_limits *l = realloc(t->limits, (t->n + 1) * sizeof(*l));
	if (l)
		t->limits = l;
	if (!names || !p || !l || !(t->names[t->n] = strdup(name)))
		return -1;
	t->limits[t->n] = *lim;
	t->priority[t->n++] = prio;
	if (prio > t->max)
		t->max = prio;
	return 0;
}

/* The header's columns: their count and where each known one is (-1:
 * absent). */
typedef struct cols {
	int n, name, prio, max_jobs_pu, max_tres_pu, grp_jobs, grp_tres;
	int max_submit_pu, grp_submit;
} cols;

static void header(char *line, cols *c)
{
	static const struct { const char *name; size_t off; } known[] = {
		{ "Name", offsetof(cols, name) },
		{ "Priority", offsetof(cols, prio) },
		{ "MaxJobsPU", offsetof(cols, max_jobs_pu) },
		{ "MaxTRESPU", offsetof(cols, max_tres_pu) },
		{ "GrpJobs", offsetof(cols, grp_jobs) },
		{ "GrpTRES", offsetof(cols, grp_tres) },
		{ "MaxSubmitPU", offsetof(cols, max_submit_pu) },
		{ "GrpSubmit", offsetof(cols, grp_submit) },
	};
	char *f[MAX_COLS + 1];
	c->n = split(line, f);
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++) {
		int *at = (int *)((char *)c + known[i].off);
		*at = -1;
		for (int k = 0; k < c->n && k < MAX_COLS; k++)
			if (!strcasecmp(f[k], known[i].name))
				*at = k;
	}
}

/* The limit columns of a data line into *l: 0, or -1 with err. */
static int limits_of(char **f, const cols *c, const char *path, int lineno,
		     tp_qos_limits *l, tp_error *err)
{
	*l = TP_QOS_NO_LIMITS;
	if (c->max_jobs_pu >= 0 && tp_limit_count(f[c->max_jobs_pu], &l->max_jobs_pu))
		return tp_errorf(err, "%s:%d: bad MaxJobsPU '%.80s'", path, lineno, f[c->max_jobs_pu]);
	if (c->grp_jobs >= 0 && tp_limit_count(f[c->grp_jobs], &l->grp_jobs))
		return tp_errorf(err, "%s:%d: bad GrpJobs '%.80s'", path, lineno, f[c->grp_jobs]);
	if (c->max_tres_pu >= 0 && tp_limit_tres(f[c->max_tres_pu], &l->max_cpus_pu, &l->max_nodes_pu))
		return tp_errorf(err, "%s:%d: bad MaxTRESPU '%.80s'", path, lineno, f[c->max_tres_pu]);
	if (c->grp_tres >= 0 && tp_limit_tres(f[c->grp_tres], &l->grp_cpus, &l->grp_nodes))
		return tp_errorf(err, "%s:%d: bad GrpTRES '%.80s'", path, lineno, f[c->grp_tres]);
	if (c->max_submit_pu >= 0 && tp_limit_count(f[c->max_submit_pu], &l->max_submit_pu))
		return tp_errorf(err, "%s:%d: bad MaxSubmitPU '%.80s'", path, lineno, f[c->max_submit_pu]);
	if (c->grp_submit >= 0 && tp_limit_count(f[c->grp_submit], &l->grp_submit))
		return tp_errorf(err, "%s:%d: bad GrpSubmit '%.80s'", path, lineno, f[c->grp_submit]);
	return 0;
}

/* One data line: 0, or -1 with err. */
static int line_of(tp_qos_table *t, const char *path, int lineno, char *line,
		   const cols *c, tp_error *err)
{
	char *f[MAX_COLS + 1];
	tp_qos_limits lim;
	if (split(line, f) != c->n)
		return tp_errorf(err, "%s:%d: another number of '|'-separated fields than the header", path, lineno);
	const char *name = f[c->name], *v = f[c->prio];
	if (!*name)
		return tp_errorf(err, "%s:%d: no Name", path, lineno);
	if (tp_qos_index(t, name) >= 0)
		return tp_errorf(err, "%s:%d: QOS '%.80s' a second time", path, lineno, name);
	unsigned long x = 0;
	if (*v) {
		char *end;
		errno = 0;
		x = *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
		if (*v < '0' || *v > '9' || *end || errno || x > UINT32_MAX)
			return tp_errorf(err, "%s:%d: bad Priority '%.80s'", path, lineno, v);
	}
	if (limits_of(f, c, path, lineno, &lim, err))
		return -1;
	if (add(t, name, (uint32_t)x, &lim))
		return tp_errorf(err, "out of memory");
	return 0;
}

int tp_qos_read(const char *path, tp_qos_table *t, tp_error *err)
{
	memset(t, 0, sizeof(*t));
	FILE *fp = fopen(path, "r");
	if (!fp)
		return tp_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, rc = 0;
	cols c = { 0 };
	while (!rc && getline(&line, &cap, fp) >= 0) {
		lineno++;
		chomp(line);
		if (!line[strspn(line, " \t")])
			continue;
		if (c.n) {
			rc = line_of(t, path, lineno, line, &c, err);
			continue;
		}
		header(line, &c);
		if (c.name < 0 || c.prio < 0 || c.n > MAX_COLS)
			rc = tp_errorf(err, "%s:%d: the header lacks Name or Priority (sacctmgr -P show qos format=Name,Priority)", path, lineno);
	}
	if (!rc && ferror(fp))
		rc = tp_errorf(err, "%s: read error: %s", path, strerror(errno));
	if (!rc && !t->n)
		rc = tp_errorf(err, "%s: no QOS", path);
	fclose(fp);
	free(line);
	if (rc)
		tp_qos_fini(t);
	return rc ? -1 : 0;
}

int32_t tp_qos_index(const tp_qos_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->names[i], name))
			return (int32_t)i;
	return -1;
}

int64_t tp_qos_priority(const tp_qos_table *t, const char *name)
{
	int32_t k = tp_qos_index(t, name);
	return k < 0 ? -1 : (int64_t)t->priority[k];
}

void tp_qos_fini(tp_qos_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->priority);
	free(t->limits);
	memset(t, 0, sizeof(*t));
}
