/* conffile.c - Slurm-style key=value lines; see conffile.h. */
#include "base/conffile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct tp_conf_reader {
	FILE *fp;
	char *path;
	int lineno;
	int nul_line;  /* first line holding a NUL byte, 0 if none */
	char *buf;     /* logical line (continuations joined) */
	char *store;   /* storage the current tp_conf_line points into */
	int include_ok; /* "Include FILE" read as Include=FILE */
};

tp_conf_reader *tp_conf_open(const char *path, tp_error *err)
{
	tp_conf_reader *r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		tp_errorf(err, "%s: out of memory", path);
		return NULL;
	}
	if (!(r->fp = fopen(path, "r"))) {
		tp_errorf(err, "%s: cannot open: %s", path, strerror(errno));
		free(r->path);
		free(r);
		return NULL;
	}
	return r;
}

void tp_conf_allow_include(tp_conf_reader *r)
{
	r->include_ok = 1;
}

/* "Include FILE" (r->include_ok): the line as the pair Include=FILE, 1;
 * 0 when it is no such line; -1 with err for an Include without one
 * file. */
static int include_line(tp_conf_reader *r, tp_conf_line *line, tp_error *err)
{
	char *p = r->store + strspn(r->store, " \t");
	if (!r->include_ok || strncasecmp(p, "include", 7) ||
	    (p[7] != ' ' && p[7] != '\t'))
		return 0;
	char *save = NULL;
	strtok_r(p, " \t", &save);
	char *file = strtok_r(NULL, " \t", &save);
	if (!file || strtok_r(NULL, " \t", &save))
		return tp_errorf(err, "%s:%d: expected Include FILE", r->path,
				 line->lineno);
	line->pairs[0].key = p;
	line->pairs[0].value = file;
	line->npairs = 1;
	return 1;
}

const char *tp_conf_path(const tp_conf_reader *r)
{
	return r->path;
}

void tp_conf_close(tp_conf_reader *r)
{
	if (!r)
		return;
	fclose(r->fp);
	free(r->path);
	free(r->buf);
	free(r->store);
	free(r);
}

/* Read one logical line into r->buf; returns its first line number or 0 at
 * EOF.  As Slurm reads its files: a comment ends each physical line, and
 * a backslash that then ends it joins the next one directly (no space is
 * added: "Nodes=n[1-2],\" + "n3" is "Nodes=n[1-2],n3"). */
static int read_logical(tp_conf_reader *r)
{
	size_t len = 0;
	int first = 0;
	char *raw = NULL;
	size_t rawcap = 0;
	ssize_t n;
	free(r->buf);
	r->buf = NULL;
	while ((n = getline(&raw, &rawcap, r->fp)) >= 0) {
		r->lineno++;
		if (!first)
			first = r->lineno;
		/* A NUL would end the line early and hide the rest: a
		 * binary or damaged file, not a configuration. */
		if (!r->nul_line && memchr(raw, '\0', (size_t)n))
			r->nul_line = r->lineno;
		while (n > 0 && (raw[n - 1] == '\n' || raw[n - 1] == '\r'))
			raw[--n] = '\0';
		char *hash = strchr(raw, '#');
		if (hash) {
			*hash = '\0';
			n = hash - raw;
		}
		int cont = n > 0 && raw[n - 1] == '\\';
		if (cont)
			raw[--n] = '\0';
		char *grown = realloc(r->buf, len + (size_t)n + 2);
		if (!grown)
			break;
		r->buf = grown;
		memcpy(r->buf + len, raw, (size_t)n);
		len += (size_t)n;
		if (!cont)
			r->buf[len++] = ' ';
		r->buf[len] = '\0';
		if (!cont)
			break;
	}
	free(raw);
	return r->buf ? first : 0;
}

int tp_conf_next(tp_conf_reader *r, tp_conf_line *line, tp_error *err)
{
	int lineno;
	while ((lineno = read_logical(r))) {
		if (r->nul_line)
			return tp_errorf(err, "%s:%d: NUL byte in the line (not a text file?)",
					 r->path, r->nul_line);
		free(r->store);
		r->store = r->buf;
		r->buf = NULL;
		memset(line, 0, sizeof(*line));
		line->lineno = lineno;
		int inc = include_line(r, line, err);
		if (inc)
			return inc;
		char *save = NULL;
		for (char *tok = strtok_r(r->store, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save)) {
			char *eq = strchr(tok, '=');
			if (!eq || eq == tok || !eq[1])
				return tp_errorf(err, "%s:%d: expected Key=Value, got '%s'",
						 r->path, lineno, tok);
			if (line->npairs == TP_CONF_MAX_PAIRS)
				return tp_errorf(err, "%s:%d: too many Key=Value pairs",
						 r->path, lineno);
			*eq = '\0';
			line->pairs[line->npairs].key = tok;
			line->pairs[line->npairs].value = eq + 1;
			line->npairs++;
		}
		if (line->npairs)
			return 1;
	}
	if (ferror(r->fp)) /* e.g. a directory: not an empty file */
		return tp_errorf(err, "%s: cannot read: %s", r->path,
				 strerror(errno));
	return 0;
}

const char *tp_conf_get(const tp_conf_line *line, const char *key)
{
	for (size_t i = 0; i < line->npairs; i++)
		if (!strcasecmp(line->pairs[i].key, key))
			return line->pairs[i].value;
	return NULL;
}

const char *tp_conf_repeated(const tp_conf_line *line)
{
	for (size_t i = 1; i < line->npairs; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcasecmp(line->pairs[i].key, line->pairs[k].key))
				return line->pairs[i].key;
	return NULL;
}

char *tp_conf_path_join(const char *dir, const char *file)
{
	if (file[0] == '/' || !dir || !dir[0])
		return strdup(file);
	size_t n = strlen(dir) + strlen(file) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, file);
	return p;
}

int tp_conf_bool(const char *v)
{
	static const char *const yes[] = { "yes", "on", "true", "1", NULL };
	static const char *const no[] = { "no", "off", "false", "0", NULL };
	for (int i = 0; yes[i]; i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (int i = 0; no[i]; i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	return -1;
}
