/* swf.c - see swf.h. */
#include "trace/swf.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#define SWF_FIELDS 18

/* SWF field numbers (1-based, as in the format description). */
enum {
	F_ID = 1, F_SUBMIT = 2, F_RUNTIME = 4, F_ALLOC_PROCS = 5,
	F_REQ_PROCS = 8, F_REQ_TIME = 9,
};

static const char *const field_name[SWF_FIELDS + 1] = {
	"", "job number", "submit time", "wait time", "run time",
	"allocated processors", "average CPU time", "used memory",
	"requested processors", "requested time", "requested memory",
	"status", "user", "group", "executable", "queue", "partition",
	"preceding job", "think time",
};

/* A job line as read, before the header fixes ppn and the machine size. */
typedef struct swf_rec {
	int64_t id, submit, runtime, estimate, procs;
	bool estimate_missing; /* no requested time: estimate = run time */
	bool no_runtime;       /* run time <= 0: dropped, its id kept */
} swf_rec;

typedef struct swf_reader {
	const char *name;     /* for messages */
	const char *path;     /* as opened */
	gzFile gz;
	char *line;
	size_t cap;
	size_t lineno;
	int64_t max_nodes;    /* -1 = unknown */
	int64_t max_procs;
	int est_field;        /* the field of the requested time */
	swf_rec *recs;
	size_t nrecs, rcap;
	tp_workload_skips skipped;
} swf_reader;

static inline int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* ---- numbers --------------------------------------------------------- */

/* Rare forms ("1e3", 19+ digits): strtod, accepting only number
 * characters so "0x10" or "inf" stay malformed.  -1 not a number, -2 out
 * of the int64 range. */
static int parse_slow(const char *s, const char *end, int64_t *v)
{
	for (const char *p = s; p < end; p++)
		if (!strchr("0123456789+-.eE", *p))
			return -1;
	char *stop;
	errno = 0;
	double d = strtod(s, &stop);
	if (stop != end)
		return -1;
	if (errno == ERANGE || !(fabs(d) < 9.2e18))
		return -2;
	*v = (int64_t)d; /* truncates toward zero */
	return 0;
}

/* The number in [s, end): [+-]digits[.digits] on the fast path, truncated
 * toward zero.  Hand-rolled because sscanf() of the 18 fields per line
 * doubled the load time of the SDSC-SP2 trace (0.075 s against 0.039 s,
 * decompression included). */
static int parse_number(const char *s, const char *end, int64_t *v)
{
	const char *p = s;
	int neg = 0;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	int64_t x = 0;
	int digits = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		if (++digits > 18)
			return parse_slow(s, end, v);
		x = x * 10 + (*p++ - '0');
	}
	if (p < end && *p == '.') {
		p++;
		while (p < end && *p >= '0' && *p <= '9') {
			p++;
			digits++;
		}
	}
	if (p != end || digits == 0)
		return parse_slow(s, end, v);
	*v = neg ? -x : x;
	return 0;
}

/* ---- lines ----------------------------------------------------------- */

/* zlib prefixes its messages with the path it opened ("<fd:N>" for
 * standard input); ours already start with the file name. */
static const char *zlib_message(const char *msg, const char *path)
{
	size_t n = strlen(path);
	if (strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
		return msg + n + 2;
	const char *p = strncmp(msg, "<fd:", 4) == 0 ? strstr(msg, ">: ") : NULL;
	return p ? p + 3 : msg;
}

/* zlib's state after gzgets() stopped short of a newline: 0 when the file
 * simply ended, else an error naming file and line.  Z_BUF_ERROR is
 * compressed data that ends before its stream does: a truncated .gz, which
 * must not pass for a shorter trace or a malformed last line. */
static int check_stream(swf_reader *r, tp_error *err)
{
	int zerr;
	const char *msg = gzerror(r->gz, &zerr);
	if (zerr == Z_OK)
		return 0;
	if (zerr == Z_BUF_ERROR)
		return tp_errorf(err, "%s:%zu: truncated: the compressed data ends in the middle (%s)",
				 r->name, r->lineno + 1, zlib_message(msg, r->path));
	return tp_errorf(err, "%s:%zu: read error: %s", r->name, r->lineno + 1,
			 zerr == Z_ERRNO ? strerror(errno) : zlib_message(msg, r->path));
}

/* Reads the next line, whatever its length; 0 at end of file, -1 on a
 * read error or a NUL byte.  gzgets() stops only at a newline, at the end
 * of the file or when the buffer is full, so a piece that ends short of
 * all three holds a NUL: the rest of its line would be dropped and the
 * next line read as its continuation. */
static int read_line(swf_reader *r, tp_error *err)
{
	size_t len = 0;
	for (;;) {
		if (r->cap - len < 2) {
			size_t cap = r->cap ? 2 * r->cap : 4096;
			char *l = realloc(r->line, cap);
			if (!l)
				return tp_errorf(err, "%s:%zu: out of memory", r->name, r->lineno + 1);
			r->line = l;
			r->cap = cap;
		}
		size_t room = r->cap - len;
		if (!gzgets(r->gz, r->line + len, (int)room)) {
			if (check_stream(r, err))
				return -1;
			if (len == 0)
				return 0;
			break; /* last line without '\n' */
		}
		size_t got = strlen(r->line + len);
		len += got;
		if (len > 0 && r->line[len - 1] == '\n')
			break;
		if (got + 1 < room && !gzeof(r->gz))
			return tp_errorf(err, "%s:%zu: NUL byte in the line", r->name,
					 r->lineno + 1);
		if (gzeof(r->gz)) {
			if (check_stream(r, err))
				return -1;
			break;
		}
	}
	r->lineno++;
	return 1;
}

/* The line without its newline, shortened for a message. */
static const char *excerpt(const char *line, char *buf, size_t size)
{
	size_t n = strcspn(line, "\r\n");
	if (n >= size)
		n = size - 4;
	snprintf(buf, size, "%.*s%s", (int)n, line,
		 line[n] && line[n] != '\n' && line[n] != '\r' ? "..." : "");
	return buf;
}

/* ---- header ---------------------------------------------------------- */

static int header_value(swf_reader *r, const char *key, const char *val,
			int64_t *out, tp_error *err)
{
	const char *end = val + strlen(val);
	while (end > val && is_space(end[-1]))
		end--;
	int64_t v;
	char buf[80];
	if (parse_number(val, end, &v) < 0 || memchr(val, '.', end - val))
		return tp_errorf(err, "%s:%zu: %s is not an integer '%s'", r->name,
				 r->lineno, key, excerpt(val, buf, sizeof(buf)));
	if (v == 0 || v < -1)
		return tp_errorf(err, "%s:%zu: %s must be positive (-1 = unknown) '%s'",
				 r->name, r->lineno, key, excerpt(val, buf, sizeof(buf)));
	*out = v;
	return 0;
}

/* "; Key: value" comment lines; only MaxNodes and MaxProcs matter here. */
static int parse_header(swf_reader *r, const char *p, tp_error *err)
{
	p++; /* ';' */
	while (is_space(*p))
		p++;
	const char *colon = strchr(p, ':');
	if (!colon)
		return 0;
	size_t klen = colon - p;
	const char *val = colon + 1;
	while (is_space(*val))
		val++;
	if (klen == 8 && strncasecmp(p, "MaxNodes", 8) == 0)
		return header_value(r, "MaxNodes", val, &r->max_nodes, err);
	if (klen == 8 && strncasecmp(p, "MaxProcs", 8) == 0)
		return header_value(r, "MaxProcs", val, &r->max_procs, err);
	return 0;
}

/* ---- job lines ------------------------------------------------------- */

/* Splits and converts the 18 fields (f[1..18]); -1 with the message in
 * err if the line is malformed. */
static int parse_fields(swf_reader *r, const char *p, int64_t f[SWF_FIELDS + 1],
			tp_error *err)
{
	int n = 0;
	char buf[120];
	for (;;) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		const char *s = p;
		while (*p && !is_space(*p))
			p++;
		if (++n > SWF_FIELDS)
			continue; /* counted for the message below */
		int rc = parse_number(s, p, &f[n]);
		if (rc < 0) {
			snprintf(buf, sizeof(buf), "%.*s", (int)(p - s), s);
			return tp_errorf(err, "%s:%zu: field %d (%s) is %s '%s'", r->name,
					 r->lineno, n, field_name[n],
					 rc == -1 ? "not a number" : "out of range", buf);
		}
	}
	if (n != SWF_FIELDS)
		return tp_errorf(err, "%s:%zu: %d fields where SWF has %d '%s'", r->name,
				 r->lineno, n, SWF_FIELDS,
				 excerpt(r->line, buf, sizeof(buf)));
	if (f[F_SUBMIT] < 0)
		return tp_errorf(err, "%s:%zu: field %d (%s) is negative '%" PRId64 "'",
				 r->name, r->lineno, F_SUBMIT, field_name[F_SUBMIT],
				 f[F_SUBMIT]);
	return 0;
}

static int add_rec(swf_reader *r, const swf_rec *rec, tp_error *err)
{
	if (r->nrecs == r->rcap) {
		size_t cap = r->rcap ? 2 * r->rcap : 4096;
		swf_rec *recs = realloc(r->recs, cap * sizeof(*recs));
		if (!recs)
			return tp_errorf(err, "%s:%zu: out of memory", r->name, r->lineno);
		r->recs = recs;
		r->rcap = cap;
	}
	r->recs[r->nrecs++] = *rec;
	return 0;
}

static int parse_job(swf_reader *r, const char *p, bool lenient, tp_error *err)
{
	int64_t f[SWF_FIELDS + 1];
	if (parse_fields(r, p, f, err) < 0) {
		if (!lenient)
			return -1;
		r->skipped.malformed++;
		return 0;
	}
	if (f[F_RUNTIME] <= 0) {
		swf_rec rec = { .id = f[F_ID], .no_runtime = true };
		return add_rec(r, &rec, err);
	}
	int64_t req = f[r->est_field];
	swf_rec rec = {
		.id = f[F_ID],
		.submit = f[F_SUBMIT],
		.runtime = f[F_RUNTIME],
		.estimate = req > 0 ? req : f[F_RUNTIME],
		.estimate_missing = req <= 0,
		.procs = f[F_REQ_PROCS] > 0 ? f[F_REQ_PROCS] : f[F_ALLOC_PROCS],
	};
	return add_rec(r, &rec, err);
}

static int read_lines(swf_reader *r, bool lenient, tp_error *err)
{
	int rc;
	while ((rc = read_line(r, err)) > 0) {
		const char *p = r->line;
		while (is_space(*p))
			p++;
		if (!*p)
			continue;
		if (*p == ';')
			rc = parse_header(r, p, err);
		else
			rc = parse_job(r, p, lenient, err);
		if (rc < 0)
			return -1;
	}
	return rc;
}

/* ---- machine --------------------------------------------------------- */

static int machine_shape(const swf_reader *r, const tp_swf_opts *o,
			 tp_workload *w, tp_error *err)
{
	if (o->ppn < 0 || o->nodes < 0)
		return tp_errorf(err, "%s: %s must be positive, got %d", r->name,
				 o->ppn < 0 ? "processors per node" : "node count",
				 o->ppn < 0 ? o->ppn : o->nodes);
	int64_t ppn = 1;
	if (o->ppn > 0) {
		ppn = o->ppn;
	} else if (r->max_procs > 0 && r->max_nodes > 0) {
		if (r->max_procs % r->max_nodes != 0)
			return tp_errorf(err, "%s: MaxProcs %" PRId64 " is not a multiple of MaxNodes %"
					 PRId64 "; give the processors per node (--ppn)",
					 r->name, r->max_procs, r->max_nodes);
		ppn = r->max_procs / r->max_nodes;
	}
	int64_t nodes;
	if (o->nodes > 0)
		nodes = o->nodes;
	else if (r->max_nodes > 0)
		nodes = r->max_nodes;
	else if (r->max_procs > 0)
		nodes = r->max_procs / ppn + (r->max_procs % ppn != 0);
	else
		return tp_errorf(err, "%s: no machine size: the header has neither MaxNodes "
				 "nor MaxProcs; give the node count (--nodes)", r->name);
	if (nodes > INT32_MAX || ppn > INT32_MAX)
		return tp_errorf(err, "%s: machine of %" PRId64 " nodes x %" PRId64
				 " processors is too large", r->name, nodes, ppn);
	w->nodes = (int)nodes;
	w->ppn = (int)ppn;
	return 0;
}

/* Converts the records now that ppn and the machine size are known. */
static int fill_workload(swf_reader *r, tp_workload *w, double scale,
			 tp_error *err)
{
	w->skipped = r->skipped;
	int64_t trace = r->max_nodes > 0 ? r->max_nodes : r->max_procs > 0 ?
			r->max_procs / w->ppn + (r->max_procs % w->ppn != 0) : 0;
	trace = trace ? tp_workload_scale_nodes(trace, scale) : 0;
	w->trace_nodes = trace > INT32_MAX ? 0 : (int)trace;
	for (size_t i = 0; i < r->nrecs; i++) {
		const swf_rec *rec = &r->recs[i];
		if (rec->no_runtime) {
			if (tp_workload_drop(w, rec->id, TP_DROP_RUNTIME))
				return tp_errorf(err, "%s: out of memory", r->name);
			continue;
		}
		if (rec->procs <= 0) {
			if (tp_workload_drop(w, rec->id, TP_DROP_SIZE))
				return tp_errorf(err, "%s: out of memory", r->name);
			continue;
		}
		int64_t nodes = rec->procs / w->ppn + (rec->procs % w->ppn != 0);
		nodes = tp_workload_scale_nodes(nodes, scale);
		if (nodes > w->largest)
			w->largest = nodes > INT32_MAX ? INT32_MAX : (int32_t)nodes;
		if (nodes > w->nodes) {
			if (tp_workload_drop(w, rec->id, TP_DROP_TOO_BIG))
				return tp_errorf(err, "%s: out of memory", r->name);
			continue;
		}
		tp_wjob j = {
			.id = rec->id, .submit = rec->submit, .runtime = rec->runtime,
			.estimate = rec->estimate, .nodes = (int32_t)nodes,
		};
		if (tp_workload_add(w, &j) < 0)
			return tp_errorf(err, "%s: out of memory", r->name);
		w->estimate_missing += rec->estimate_missing;
	}
	tp_workload_sort(w);
	return 0;
}

static gzFile open_input(const char *path, tp_error *err)
{
	gzFile gz;
	if (strcmp(path, "-") == 0) {
		/* dup: gzclose() must not close the caller's stdin. */
		int fd = dup(STDIN_FILENO);
		gz = fd < 0 ? NULL : gzdopen(fd, "rb");
		if (!gz && fd >= 0)
			close(fd);
	} else {
		gz = gzopen(path, "rb");
	}
	if (!gz) {
		tp_errorf(err, "%s: cannot open: %s", path,
			  errno ? strerror(errno) : "out of memory");
		return NULL;
	}
	gzbuffer(gz, 1 << 17);
	return gz;
}

int tp_swf_read(const char *path, const tp_swf_opts *o, tp_workload *w,
		tp_error *err)
{
	static const tp_swf_opts defaults;
	if (!o)
		o = &defaults;
	memset(w, 0, sizeof(*w));
	swf_reader r = {
		.name = strcmp(path, "-") == 0 ? "<stdin>" : path,
		.path = path,
		.max_nodes = -1, .max_procs = -1,
		.est_field = o->estimate_field > 0 ? o->estimate_field : F_REQ_TIME,
	};
	if (r.est_field > SWF_FIELDS)
		return tp_errorf(err, "%s: estimate field %d: SWF has fields 1 to %d",
				 r.name, r.est_field, SWF_FIELDS);
	errno = 0;
	r.gz = open_input(path, err);
	if (!r.gz)
		return -1;
	int rc = read_lines(&r, o->lenient, err);
	gzclose(r.gz);
	free(r.line);
	if (rc == 0)
		rc = machine_shape(&r, o, w, err);
	if (rc == 0)
		rc = fill_workload(&r, w, o->scale_sizes, err);
	free(r.recs);
	if (rc < 0)
		tp_workload_fini(w);
	return rc < 0 ? -1 : 0;
}

/* ---- writing --------------------------------------------------------- */

static void write_comment(FILE *fp, const char *c)
{
	while (c && *c) {
		size_t n = strcspn(c, "\n");
		fprintf(fp, "; %.*s\n", (int)n, c);
		c += n + (c[n] == '\n');
	}
}

int tp_swf_write(FILE *fp, const tp_workload *w, const char *header_comment)
{
	int64_t ppn = w->ppn > 0 ? w->ppn : 1;
	write_comment(fp, header_comment);
	fprintf(fp, "; Version: 2.2\n; MaxJobs: %zu\n; MaxRecords: %zu\n"
		"; MaxNodes: %d\n; MaxProcs: %" PRId64 "\n",
		w->njobs, w->njobs, w->nodes, w->nodes * ppn);
	for (size_t i = 0; i < w->njobs; i++) {
		const tp_wjob *j = &w->jobs[i];
		int64_t procs = j->nodes * ppn;
		fprintf(fp, "%" PRId64 " %" PRId64 " -1 %" PRId64 " %" PRId64
			" -1 -1 %" PRId64 " %" PRId64 " -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
			j->id, j->submit, j->runtime, procs, procs, j->estimate);
	}
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}
