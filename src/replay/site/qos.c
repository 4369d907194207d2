/* qos.c - a site's QOS priorities; see qos.h. */
#include "site/qos.h"

#include <errno.h>
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

static int add(tp_qos_table *t, const char *name, uint32_t prio)
{
	char **names = realloc(t->names, (t->n + 1) * sizeof(*names));
	if (names)
		t->names = names;
	uint32_t *p = realloc(t->priority, (t->n + 1) * sizeof(*p));
	if (p)
		t->priority = p;
	if (!names || !p || !(t->names[t->n] = strdup(name)))
		return -1;
	t->priority[t->n++] = prio;
	if (prio > t->max)
		t->max = prio;
	return 0;
}

/* One data line: 0, or -1 with err. */
static int line_of(tp_qos_table *t, const char *path, int lineno, char *line,
		   int ncols, int cname, int cprio, tp_error *err)
{
	char *f[MAX_COLS + 1];
	if (split(line, f) != ncols)
		return tp_errorf(err, "%s:%d: another number of '|'-separated fields than the header", path, lineno);
	const char *name = f[cname], *v = f[cprio];
	if (!*name)
		return tp_errorf(err, "%s:%d: no Name", path, lineno);
	if (tp_qos_priority(t, name) >= 0)
		return tp_errorf(err, "%s:%d: QOS '%.80s' a second time", path, lineno, name);
	unsigned long x = 0;
	if (*v) {
		char *end;
		errno = 0;
		x = *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
		if (*v < '0' || *v > '9' || *end || errno || x > UINT32_MAX)
			return tp_errorf(err, "%s:%d: bad Priority '%.80s'", path, lineno, v);
	}
	if (add(t, name, (uint32_t)x))
		return tp_errorf(err, "out of memory");
	return 0;
}

int tp_qos_read(const char *path, tp_qos_table *t, tp_error *err)
{
	memset(t, 0, sizeof(*t));
	FILE *fp = fopen(path, "r");
	if (!fp)
		return tp_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	char *line = NULL, *f[MAX_COLS + 1];
	size_t cap = 0;
	int lineno = 0, ncols = 0, cname = -1, cprio = -1, rc = 0;
	while (!rc && getline(&line, &cap, fp) >= 0) {
		lineno++;
		chomp(line);
		if (!line[strspn(line, " \t")])
			continue;
		if (ncols) {
			rc = line_of(t, path, lineno, line, ncols, cname, cprio, err);
			continue;
		}
		ncols = split(line, f);
		for (int k = 0; k < ncols && k < MAX_COLS; k++) {
			if (!strcasecmp(f[k], "Name"))
				cname = k;
			if (!strcasecmp(f[k], "Priority"))
				cprio = k;
		}
		if (cname < 0 || cprio < 0 || ncols > MAX_COLS)
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

int64_t tp_qos_priority(const tp_qos_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->names[i], name))
			return t->priority[i];
	return -1;
}

void tp_qos_fini(tp_qos_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->priority);
	memset(t, 0, sizeof(*t));
}
