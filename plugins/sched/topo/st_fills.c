/* st_fills.c - fill-job table and its state file; see st_fills.h. */
#include "st_fills.h"

#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST_FILLS_MAGIC "# sched/topo fill jobs v"
#define ST_FILLS_HEADER ST_FILLS_MAGIC "2: job_id fill_for extensions decided_end granted_end"
/* Read as well: the version before granted_end. */
#define ST_FILLS_HEADER_V1 ST_FILLS_MAGIC "1: job_id fill_for extensions decided_end"

void st_fills_init(st_fills *f)
{
	tp_id_table_init(&f->jobs, sizeof(st_fill));
	f->dirty = false;
}

void st_fills_fini(st_fills *f)
{
	tp_id_table_fini(&f->jobs);
	f->dirty = false;
}

st_fill *st_fills_find(st_fills *f, uint32_t job_id)
{
	return tp_id_table_find(&f->jobs, job_id);
}

st_fill *st_fills_add(st_fills *f, uint32_t job_id, int64_t fill_for)
{
	st_fill *e = tp_id_table_get(&f->jobs, job_id, NULL);
	if (!e)
		return NULL;
	*e = (st_fill){ .job_id = job_id, .fill_for = fill_for, .seen = true };
	f->dirty = true;
	return e;
}

void st_fills_remove(st_fills *f, uint32_t job_id)
{
	if (tp_id_table_remove(&f->jobs, job_id))
		f->dirty = true;
}

void st_fills_unsee(st_fills *f)
{
	for (size_t i = 0; i < f->jobs.n; i++)
		st_fills_at(f, i)->seen = false;
}

static bool was_seen(const void *e)
{
	return ((const st_fill *)e)->seen;
}

int64_t st_fill_lost_extension(const st_fill *e, int64_t end)
{
	if (!e->granted_end || end != e->decided_end || e->granted_end <= end)
		return 0;
	return e->granted_end - end;
}

size_t st_fills_drop_unseen(st_fills *f)
{
	size_t dropped = tp_id_table_keep(&f->jobs, was_seen);
	if (dropped)
		f->dirty = true;
	return dropped;
}

int st_fills_save(st_fills *f, const char *path, tp_error *err)
{
	size_t len = strlen(path) + 5;
	char *tmp = malloc(len);
	if (!tmp)
		return tp_errorf(err, "%s: out of memory", path);
	snprintf(tmp, len, "%s.new", path);
	FILE *fp = fopen(tmp, "w");
	if (!fp) {
		tp_errorf(err, "%s: cannot write: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fprintf(fp, "%s\n", ST_FILLS_HEADER);
	for (size_t i = 0; i < f->jobs.n; i++) {
		const st_fill *e = st_fills_at(f, i);
		fprintf(fp, "%" PRId64 " %" PRId64 " %d %" PRId64 " %" PRId64 "\n",
			e->job_id, e->fill_for, e->extensions, e->decided_end,
			e->granted_end);
	}
	int bad = ferror(fp);
	if (fclose(fp) || bad) {
		tp_errorf(err, "%s: write failed: %s", tmp, strerror(errno));
		remove(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		tp_errorf(err, "%s: cannot rename to %s: %s", tmp, path,
			  strerror(errno));
		remove(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	f->dirty = false;
	return 0;
}

/* One data line "job_id fill_for extensions decided_end granted_end"
 * (version 1: without granted_end). */
static int parse_line(const char *line, int version, st_fill *out)
{
	unsigned long long id;
	long long ff, end, granted = 0;
	int ext, used = 0;
	int n = version == 1 ?
		sscanf(line, "%llu %lld %d %lld %n", &id, &ff, &ext, &end, &used) + 1 :
		sscanf(line, "%llu %lld %d %lld %lld %n", &id, &ff, &ext, &end,
		       &granted, &used);
	if (n != 5 || line[used] != '\0' || id == 0 || id > UINT32_MAX ||
	    ext < 0 || end < 0 || granted < 0)
		return -1;
	*out = (st_fill){ .job_id = (int64_t)id, .fill_for = ff,
			  .extensions = ext, .decided_end = end,
			  .granted_end = granted };
	return 0;
}

/* What reading one line of the file found. */
typedef struct fills_reader {
	const char *path;
	FILE *fp;
	char *buf;
	size_t cap;
	int line;
	int version;  /* of the header: 1 or 2 */
	bool ended;   /* the line ended with '\n' (a last line without one
		       * was cut short: every save ends each line) */
	bool nul;     /* it holds a NUL byte */
} fills_reader;

static bool next_line(fills_reader *r)
{
	ssize_t len = getline(&r->buf, &r->cap, r->fp);
	if (len < 0)
		return false;
	r->line++;
	r->ended = len > 0 && r->buf[len - 1] == '\n';
	if (r->ended)
		r->buf[--len] = '\0';
	r->nul = strlen(r->buf) != (size_t)len;
	return true;
}

/* The first line: the header of this version, or the whole file is
 * ignored (another program's file, another version, or cut short). */
static int check_header(fills_reader *r, tp_error *err)
{
	if (!next_line(r))
		return tp_errorf(err, "%s: empty file (no '%s' header)", r->path,
				 ST_FILLS_HEADER);
	if (r->nul || strncmp(r->buf, ST_FILLS_MAGIC, strlen(ST_FILLS_MAGIC)))
		return tp_errorf(err, "%s:1: not a sched/topo fill table (expected '%s'): '%.80s'",
				 r->path, ST_FILLS_HEADER, r->nul ? "(NUL byte)" : r->buf);
	r->version = !strcmp(r->buf, ST_FILLS_HEADER) ? 2 :
		     !strcmp(r->buf, ST_FILLS_HEADER_V1) ? 1 : 0;
	if (!r->version || !r->ended)
		return tp_errorf(err, "%s:1: unsupported version or a cut-short header (this reads '%s'): '%.80s'",
				 r->path, ST_FILLS_HEADER, r->buf);
	return 0;
}

/* One data line into f; a bad one is named in err (the first only) and
 * counted in *bad. */
static int load_line(st_fills *f, fills_reader *r, size_t *bad,
		     tp_error *err)
{
	const char *why = NULL;
	st_fill e;
	if (r->nul)
		why = "NUL byte in line";
	else if (!r->ended)
		why = "last line cut short (no end of line)";
	else if (parse_line(r->buf, r->version, &e))
		why = r->version == 1 ? "not 'job_id fill_for extensions decided_end'" :
			"not 'job_id fill_for extensions decided_end granted_end'";
	else if (st_fills_find(f, (uint32_t)e.job_id))
		why = "job id listed twice (the first is kept)";
	if (why) {
		if (!(*bad)++)
			tp_errorf(err, "%s:%d: %s: '%.80s'", r->path, r->line,
				  why, r->nul ? "(NUL byte)" : r->buf);
		return 0;
	}
	st_fill *p = st_fills_add(f, (uint32_t)e.job_id, e.fill_for);
	if (!p)
		return tp_errorf(err, "%s: out of memory", r->path);
	p->extensions = e.extensions;
	p->decided_end = e.decided_end;
	p->granted_end = e.granted_end;
	return 0;
}

int st_fills_load(st_fills *f, const char *path, tp_error *err)
{
	f->jobs.n = 0;
	f->dirty = false;
	fills_reader r = { .path = path, .fp = fopen(path, "r") };
	if (!r.fp) {
		if (errno == ENOENT)
			return 0;
		return tp_errorf(err, "%s: cannot read: %s", path, strerror(errno));
	}
	size_t bad = 0;
	int rc = check_header(&r, err);
	while (!rc && next_line(&r))
		if (r.ended && (r.buf[0] == '#' || r.buf[0] == '\0'))
			continue;
		else
			rc = load_line(f, &r, &bad, err);
	if (!rc && ferror(r.fp))
		rc = tp_errorf(err, "%s: read error", path);
	fclose(r.fp);
	free(r.buf);
	f->dirty = false;
	if (rc) {
		f->jobs.n = 0;
		return -1;
	}
	if (bad) {
		/* The first bad line is in err already: say how many. */
		char first[sizeof(err->msg)];
		snprintf(first, sizeof(first), "%s", err->msg);
		tp_errorf(err, "%s (%zu bad line%s skipped, %zu good kept)",
			  first, bad, bad == 1 ? "" : "s", f->jobs.n);
		return 1;
	}
	return 0;
}
