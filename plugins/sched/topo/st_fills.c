/* st_fills.c - fill-job table and its state file; see st_fills.h. */
#include "st_fills.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST_FILLS_HEADER "# sched/topo fill jobs v1: job_id fill_for extensions decided_end"

void st_fills_init(st_fills *f)
{
	memset(f, 0, sizeof(*f));
}

void st_fills_fini(st_fills *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Index of the first entry with job_id >= id. */
static size_t lower_bound(const st_fills *f, uint32_t id)
{
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->v[mid].job_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

st_fill *st_fills_find(st_fills *f, uint32_t job_id)
{
	size_t i = lower_bound(f, job_id);
	return i < f->n && f->v[i].job_id == job_id ? &f->v[i] : NULL;
}

st_fill *st_fills_add(st_fills *f, uint32_t job_id, int64_t fill_for)
{
	size_t i = lower_bound(f, job_id);
	if (i == f->n || f->v[i].job_id != job_id) {
		if (f->n == f->cap) {
			size_t cap = f->cap ? 2 * f->cap : 16;
			st_fill *p = realloc(f->v, cap * sizeof(*p));
			if (!p)
				return NULL;
			f->v = p;
			f->cap = cap;
		}
		memmove(f->v + i + 1, f->v + i, (f->n - i) * sizeof(*f->v));
		f->n++;
	}
	f->v[i] = (st_fill){ .job_id = job_id, .fill_for = fill_for,
			     .seen = true };
	f->dirty = true;
	return &f->v[i];
}

void st_fills_remove(st_fills *f, uint32_t job_id)
{
	size_t i = lower_bound(f, job_id);
	if (i == f->n || f->v[i].job_id != job_id)
		return;
	memmove(f->v + i, f->v + i + 1, (f->n - i - 1) * sizeof(*f->v));
	f->n--;
	f->dirty = true;
}

void st_fills_unsee(st_fills *f)
{
	for (size_t i = 0; i < f->n; i++)
		f->v[i].seen = false;
}

size_t st_fills_drop_unseen(st_fills *f)
{
	size_t k = 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].seen)
			f->v[k++] = f->v[i];
	size_t dropped = f->n - k;
	f->n = k;
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
	for (size_t i = 0; i < f->n; i++)
		fprintf(fp, "%" PRIu32 " %" PRId64 " %d %" PRId64 "\n",
			f->v[i].job_id, f->v[i].fill_for, f->v[i].extensions,
			f->v[i].decided_end);
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

/* One data line "job_id fill_for extensions decided_end". */
static int parse_line(const char *line, st_fill *out)
{
	unsigned long long id;
	long long ff, end;
	int ext, used = 0;
	if (sscanf(line, "%llu %lld %d %lld %n", &id, &ff, &ext, &end, &used) != 4 ||
	    line[used] != '\0' || id == 0 || id > UINT32_MAX || ext < 0 || end < 0)
		return -1;
	*out = (st_fill){ .job_id = (uint32_t)id, .fill_for = ff,
			  .extensions = ext, .decided_end = end };
	return 0;
}

int st_fills_load(st_fills *f, const char *path, tp_error *err)
{
	f->n = 0;
	f->dirty = false;
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		return tp_errorf(err, "%s: cannot read: %s", path, strerror(errno));
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	/* getline, not a fixed buffer: a long line must not be read as two */
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			/* a NUL would hide the rest of the line */
			rc = tp_errorf(err, "%s:%d: NUL byte in the line", path,
				       lineno);
			break;
		}
		if (line[0] == '#' || line[0] == '\0')
			continue;
		st_fill e;
		if (parse_line(line, &e)) {
			rc = tp_errorf(err, "%s:%d: not 'job_id fill_for extensions decided_end': '%.200s'",
				       path, lineno, line);
			break;
		}
		st_fill *p = st_fills_add(f, e.job_id, e.fill_for);
		if (!p) {
			rc = tp_errorf(err, "%s: out of memory", path);
			break;
		}
		p->extensions = e.extensions;
		p->decided_end = e.decided_end;
	}
	free(line);
	fclose(fp);
	if (rc)
		f->n = 0;
	f->dirty = false;
	return rc;
}
