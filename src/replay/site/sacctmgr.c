/* sacctmgr.c - sacctmgr's associations; see sacctmgr.h. */
#include "site/sacctmgr.h"

#include "site/limit_value.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { K_CLUSTER, K_ACCOUNT, K_USER, K_SHARE, K_PRIORITY, K_PARENT,
       K_PARTITION, K_MAXJOBS, K_MAXSUBMIT, K_GRPJOBS, K_GRPSUBMIT,
       K_GRPTRES, K_N };

typedef struct reader {
	const char *path;
	FILE *fp;
	char *line;
	size_t cap;
	int lineno;
	int col[K_N];
	int ncols;
	char cluster[128];
	char parent[256];     /* dump: the current Parent */
	tp_assoc_tree *t;
	tp_error *err;
} reader;

static int bad(reader *r, const char *what, const char *v)
{
	return tp_errorf(r->err, "%s:%d: %s '%.80s'", r->path, r->lineno, what, v);
}

static int next_line(reader *r)
{
	ssize_t n;
	while ((n = getline(&r->line, &r->cap, r->fp)) >= 0) {
		r->lineno++;
		if (strlen(r->line) != (size_t)n)
			return tp_errorf(r->err, "%s:%d: NUL byte in the line",
					 r->path, r->lineno);
		while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
			r->line[--n] = '\0';
		if (r->line[strspn(r->line, " \t")] && r->line[0] != '#')
			return 1;
	}
	if (ferror(r->fp))
		return tp_errorf(r->err, "%s: read error: %s", r->path, strerror(errno));
	return 0;
}

/* Shares: a number or "parent". */
static int shares_of(reader *r, const char *v, uint32_t *s)
{
	char *end;
	if (!strcasecmp(v, "parent")) {
		*s = TP_SHARES_PARENT;
		return 0;
	}
	unsigned long x = *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
	if (*v < '0' || *v > '9' || *end || x >= TP_SHARES_PARENT)
		return bad(r, "bad Share", v);
	*s = (uint32_t)x;
	return 0;
}

static int priority_of(reader *r, const char *v, uint32_t *p)
{
	char *end;
	*p = 0;
	if (!*v)
		return 0;
	unsigned long x = *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
	if (*v < '0' || *v > '9' || *end || x > UINT32_MAX - 2)
		return bad(r, "bad Priority", v);
	*p = (uint32_t)x;
	return 0;
}

/* One cluster only: the first named. */
static int check_cluster(reader *r, const char *c)
{
	if (!c || !*c)
		return 0;
	if (!r->cluster[0])
		snprintf(r->cluster, sizeof(r->cluster), "%s", c);
	else if (strcmp(r->cluster, c))
		return bad(r, "a second cluster (one cluster's associations are one tree)", c);
	return 0;
}

/* The limits, in either form: each value by its name (NULL: absent). */
typedef struct limit_text {
	const char *max_jobs, *max_submit, *grp_jobs, *grp_submit, *grp_tres;
} limit_text;

static int limits_of(reader *r, const limit_text *x, tp_assoc_limits *l)
{
	*l = TP_ASSOC_NO_LIMITS;
	if (x->max_jobs && tp_limit_count(x->max_jobs, &l->max_jobs))
		return bad(r, "bad MaxJobs", x->max_jobs);
	if (x->max_submit && tp_limit_count(x->max_submit, &l->max_submit))
		return bad(r, "bad MaxSubmitJobs", x->max_submit);
	if (x->grp_jobs && tp_limit_count(x->grp_jobs, &l->grp_jobs))
		return bad(r, "bad GrpJobs", x->grp_jobs);
	if (x->grp_submit && tp_limit_count(x->grp_submit, &l->grp_submit))
		return bad(r, "bad GrpSubmitJobs", x->grp_submit);
	if (x->grp_tres && tp_limit_tres(x->grp_tres, &l->grp_cpus, &l->grp_nodes))
		return bad(r, "bad GrpTRES", x->grp_tres);
	return 0;
}

static int add(reader *r, const char *account, const char *user,
	       const char *parent, uint32_t shares, uint32_t prio,
	       const tp_assoc_limits *lim)
{
	tp_error e;
	int i = 0; /* the tree's own root */
	if ((user || strcmp(account, "root")) &&
	    (i = tp_assoc_add(r->t, account, user, parent, shares, prio, &e)) < 0)
		return tp_errorf(r->err, "%s:%d: %s", r->path, r->lineno, e.msg);
	r->t->a[i].lim = *lim;
	return 0;
}

/* ---- sacctmgr -P show assoc ------------------------------------------ */

static int split(char *line, char **f, int max)
{
	int n = 0;
	for (char *p = line;; ) {
		if (n == max)
			return max + 1;
		f[n++] = p;
		char *bar = strchr(p, '|');
		if (!bar)
			return n;
		*bar = '\0';
		p = bar + 1;
	}
}

static int header(reader *r)
{
	static const char *const name[K_N] = { "Cluster", "Account", "User",
					       "Share", "Priority", "ParentName",
					       "Partition", "MaxJobs", "MaxSubmit",
					       "GrpJobs", "GrpSubmit", "GrpTRES" };
	char *f[64];
	r->ncols = split(r->line, f, 63);
	if (r->ncols > 63) /* split stopped: f[63] was never set */
		return bad(r, "more than 63 '|'-separated columns in the header", r->line);
	for (int i = 0; i < K_N; i++)
		r->col[i] = -1;
	for (int k = 0; k < r->ncols; k++) {
		for (int i = 0; i < K_N; i++)
			if (!strcasecmp(f[k], name[i]) ||
			    (i == K_SHARE && !strcasecmp(f[k], "Fairshare")) ||
			    (i == K_PARENT && !strcasecmp(f[k], "Par Name")))
				r->col[i] = k;
	}
	if (r->col[K_ACCOUNT] < 0 || r->col[K_SHARE] < 0)
		return bad(r, "the header lacks Account or Share", r->line);
	return 0;
}

static int table_line(reader *r)
{
	char *f[64];
	int n = split(r->line, f, 63);
	if (n != r->ncols)
		return bad(r, "another number of '|'-separated fields than the header", r->line);
#define FIELD(k) (r->col[k] >= 0 ? f[r->col[k]] : NULL)
	const char *acct = FIELD(K_ACCOUNT), *user = FIELD(K_USER);
	const char *part = FIELD(K_PARTITION), *parent = FIELD(K_PARENT);
	uint32_t shares, prio = 0;
	limit_text lt = { FIELD(K_MAXJOBS), FIELD(K_MAXSUBMIT), FIELD(K_GRPJOBS),
			  FIELD(K_GRPSUBMIT), FIELD(K_GRPTRES) };
	tp_assoc_limits lim;
	if (!*acct)
		return bad(r, "no Account", r->line);
	if (part && *part)
		return bad(r, "a per-partition association (not modelled)", part);
	if (check_cluster(r, FIELD(K_CLUSTER)) || shares_of(r, FIELD(K_SHARE), &shares) ||
	    (FIELD(K_PRIORITY) && priority_of(r, FIELD(K_PRIORITY), &prio)) ||
	    limits_of(r, &lt, &lim))
		return -1;
#undef FIELD
	return add(r, acct, user && *user ? user : NULL, parent, shares, prio, &lim);
}

/* ---- sacctmgr dump --------------------------------------------------- */

/* The quoted name after "KIND - ". */
static int quoted(reader *r, const char *s, char *out, size_t len)
{
	const char *q = strchr(s, '\'');
	const char *e = q ? strchr(q + 1, '\'') : NULL;
	if (!q || !e || e == q + 1 || (size_t)(e - q - 1) >= len)
		return bad(r, "expected a quoted name", s);
	snprintf(out, len, "%.*s", (int)(e - q - 1), q + 1);
	return 0;
}

/* ":Key=Value" among the options, quotes removed; NULL when absent. */
static const char *option(const char *s, const char *key, char *out, size_t len)
{
	size_t n = strlen(key);
	for (const char *p = strchr(s, ':'); p; p = strchr(p + 1, ':'))
		if (!strncasecmp(p + 1, key, n) && p[1 + n] == '=') {
			const char *v = p + 2 + n;
			size_t vl = strcspn(v, ":");
			if (*v == '\'') {
				const char *e = strchr(v + 1, '\'');
				v++;
				vl = e ? (size_t)(e - v) : strlen(v);
			}
			snprintf(out, len, "%.*s", (int)vl, v);
			return out;
		}
	return NULL;
}

/* The limits of a dump line's options. */
static int dump_limits(reader *r, const char *s, tp_assoc_limits *lim)
{
	char mj[64], ms[64], gj[64], gs[64], gt[256];
	limit_text lt = { option(s, "MaxJobs", mj, sizeof(mj)),
			  option(s, "MaxSubmitJobs", ms, sizeof(ms)),
			  option(s, "GrpJobs", gj, sizeof(gj)),
			  option(s, "GrpSubmitJobs", gs, sizeof(gs)),
			  option(s, "GrpTRES", gt, sizeof(gt)) };
	return limits_of(r, &lt, lim);
}

static int dump_line(reader *r)
{
	char name[256], v[64];
	tp_assoc_limits lim;
	const char *s = r->line;
	uint32_t shares = 1, prio = 0;
	/* The cluster line carries the root association's limits. */
	if (!strncmp(s, "Cluster - ", 10))
		return quoted(r, s, name, sizeof(name)) || check_cluster(r, name) ||
		       dump_limits(r, s, &r->t->a[0].lim);
	if (!strncmp(s, "Parent - ", 9))
		return quoted(r, s, r->parent, sizeof(r->parent));
	/* The cluster's QOS definitions (dumped since Slurm 24.11): their
	 * priorities come from --qos's table, the associations follow. */
	if (!strncmp(s, "QOS - ", 6))
		return 0;
	bool account = !strncmp(s, "Account - ", 10);
	if (!account && strncmp(s, "User - ", 7))
		return bad(r, "not a line of sacctmgr dump", s);
	if (quoted(r, s, name, sizeof(name)) ||
	    (option(s, "Fairshare", v, sizeof(v)) && shares_of(r, v, &shares)) ||
	    (option(s, "Priority", v, sizeof(v)) && priority_of(r, v, &prio)) ||
	    dump_limits(r, s, &lim))
		return -1;
	if (!r->parent[0])
		return bad(r, "an association before any Parent line", s);
	if (account)
		return add(r, name, NULL, r->parent, shares, prio, &lim);
	/* root's own user association too: Fair Tree ranks it with the
	 * others, as the table form's root|root line. */
	return add(r, r->parent, name, NULL, shares, prio, &lim);
}

int tp_sacctmgr_read(const char *path, tp_assoc_tree *t, tp_error *err)
{
	reader r = { .path = path, .t = t, .err = err };
	if (tp_assoc_init(t, err))
		return -1;
	if (!(r.fp = fopen(path, "r"))) {
		tp_assoc_fini(t);
		return tp_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	}
	int rc = next_line(&r);
	bool table = rc > 0 && strchr(r.line, '|');
	if (rc == 0)
		rc = tp_errorf(err, "%s: empty: no associations", path);
	else if (rc > 0)
		rc = table ? header(&r) : dump_line(&r);
	while (rc == 0 && (rc = next_line(&r)) > 0)
		rc = table ? table_line(&r) : dump_line(&r);
	fclose(r.fp);
	free(r.line);
	if (!rc && t->nusers == 0)
		rc = tp_errorf(err, "%s: no user association", path);
	if (!rc)
		rc = tp_assoc_link(t, err);
	if (rc)
		tp_assoc_fini(t);
	return rc ? -1 : 0;
}
