/* sacct.c - see sacct.h. */
#include "trace/sacct.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/grow.h"
#include "base/hostlist.h"
#include "base/name_index.h"

enum {
	C_JOBID, C_JOBIDRAW, C_SUBMIT, C_START, C_END, C_ELAPSED,
	C_ELAPSEDRAW, C_TIMELIMIT, C_TIMELIMITRAW, C_NNODES, C_NCPUS,
	C_PARTITION, C_STATE, C_NODELIST, C_REQCPUS, C_REQMEM, C_REQTRES,
	C_ALLOCTRES, C_QOS, C_ACCOUNT, C_USER, C_PRIORITY, C_N
};

/* sacct's header names (case-insensitive, as --format takes them). */
static const char *const col_name[C_N] = {
	"JobID", "JobIDRaw", "Submit", "Start", "End", "Elapsed",
	"ElapsedRaw", "Timelimit", "TimelimitRaw", "NNodes", "NCPUS",
	"Partition", "State", "NodeList", "ReqCPUS", "ReqMem", "ReqTRES",
	"AllocTRES", "QOS", "Account", "User", "Priority",
};

#define MAX_COLS 256

/* A job line as read, times absolute, before the machine size is known. */
typedef struct sacct_rec {
	tp_wjob j;           /* submit absolute */
	tp_sacct_run run;    /* start, end absolute */
} sacct_rec;

typedef struct sacct_reader {
	const char *name;
	FILE *fp;
	char *line;
	size_t cap, lineno;
	int col[C_N];        /* column index, -1 absent */
	int ncols;
	char *f[MAX_COLS];
	bool lenient;
	const char *partition;
	bool count_names;    /* machine size from the NodeLists */
	char **names;        /* distinct node names seen */
	size_t nnames, names_cap;
	tp_name_index index;
	sacct_rec *recs;
	size_t nrecs, rcap;
	tp_workload_skips wskip;
	tp_sacct_skips skip;
	tp_sacct_warnings warn;
	const tp_sacct_opts *o;
	char **strs;         /* partition, QOS, account, user names */
	size_t nstrs, strs_cap;
	tp_name_index str_index;
	tp_name_index part_nodes; /* over o->partition_nodes */
	int64_t *ids;        /* job ids kept: open addressing, 0 = empty */
	size_t nids, ids_cap;
	bool id_zero;        /* job id 0 kept */
} sacct_reader;

/* ---- values ---------------------------------------------------------- */

/* Digits only, [lo, hi]: 0, else -1. */
static int parse_uint(const char *s, int64_t hi, int64_t *v)
{
	int64_t x = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (hi - (*s - '0')) / 10)
			return -1;
		x = x * 10 + (*s - '0');
	}
	*v = x;
	return 0;
}

/* Exactly `n` digits at s: the number, or -1. */
static int digits(const char *s, int n)
{
	int x = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (s[i] - '0');
	}
	return x;
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool unknown_word(const char *s)
{
	return !*s || !strcasecmp(s, "Unknown") || !strcasecmp(s, "None");
}

int tp_sacct_parse_time(const char *s, int64_t *v)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (unknown_word(s)) {
		*v = -1;
		return 0;
	}
	if (s[0] >= '0' && s[0] <= '9' && strlen(s) != 19)
		return parse_uint(s, INT64_MAX / 2, v); /* SLURM_TIME_FORMAT=%s */
	if (strlen(s) != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':')
		return -1;
	int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
	int h = digits(s + 11, 2), mi = digits(s + 14, 2), se = digits(s + 17, 2);
	bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && !leap) ||
	    h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 60)
		return -1;
	*v = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
	return 0;
}

/* "[D-]H...": the days (0 without '-') and where the rest starts. */
static const char *day_part(const char *s, int64_t *days)
{
	const char *dash = strchr(s, '-');
	*days = 0;
	if (!dash)
		return s;
	char buf[16];
	if (dash - s < 1 || dash - s > 6)
		return NULL;
	snprintf(buf, sizeof(buf), "%.*s", (int)(dash - s), s);
	return parse_uint(buf, 999999, days) ? NULL : dash + 1;
}

/* Up to three ':'-separated numbers; the first any width, the others two
 * digits below 60.  How many there were, or -1. */
static int clock_parts(const char *s, int64_t part[3])
{
	int n = 0;
	char buf[16];
	while (n < 3) {
		size_t len = strcspn(s, ":");
		if (!len || len >= sizeof(buf) || (n && len != 2))
			return -1;
		snprintf(buf, sizeof(buf), "%.*s", (int)len, s);
		if (parse_uint(buf, n ? 59 : 99999999, &part[n]))
			return -1;
		n++;
		if (!s[len])
			return n;
		s += len + 1;
	}
	return -1;
}

int tp_sacct_parse_elapsed(const char *s, int64_t *v)
{
	int64_t days, p[3];
	const char *rest = day_part(s, &days);
	if (!rest || clock_parts(rest, p) != 3 || (days && p[0] > 23))
		return -1;
	*v = days * 86400 + p[0] * 3600 + p[1] * 60 + p[2];
	return 0;
}

int tp_sacct_parse_limit(const char *s, int64_t *v)
{
	if (!*s || !strcasecmp(s, "UNLIMITED") ||
	    !strcasecmp(s, "Partition_Limit") || !strcasecmp(s, "INVALID")) {
		*v = -1;
		return 0;
	}
	int64_t days, p[3];
	const char *rest = day_part(s, &days);
	int n = rest ? clock_parts(rest, p) : -1;
	if (n < 0)
		return -1;
	if (rest != s) { /* D-H, D-H:M, D-H:M:S */
		if (p[0] > 23)
			return -1;
		*v = days * 86400 + p[0] * 3600 + (n > 1 ? p[1] * 60 : 0) +
		     (n > 2 ? p[2] : 0);
	} else if (n == 3) {
		*v = p[0] * 3600 + p[1] * 60 + p[2];
	} else { /* M, M:S */
		*v = p[0] * 60 + (n > 1 ? p[1] : 0);
	}
	return 0;
}

/* "16G", "1.50G", "4000Mn", "2000Mc", "0": MB, rounded up. */
int tp_sacct_parse_mem(const char *s, int64_t *mb, tp_sacct_mem_per *per)
{
	static const char units[] = "KMGTP";
	char *end;
	*per = TP_SACCT_MEM_JOB;
	if (!*s || *s < '0' || *s > '9')
		return -1;
	double x = strtod(s, &end);
	double scale = 1; /* MB: no unit */
	if (*end) {
		const char *u = strchr(units, *end);
		if (!u)
			return -1;
		for (long i = u - units - 1; i > 0; i--)
			scale *= 1024;
		if (u == units)
			scale = 1.0 / 1024;
		end++;
	}
	if (*end == 'n' || *end == 'c') {
		*per = *end == 'n' ? TP_SACCT_MEM_NODE : TP_SACCT_MEM_CPU;
		end++;
	}
	x *= scale;
	if (*end || !(x >= 0) || x > 1e15)
		return -1;
	*mb = (int64_t)x + ((double)(int64_t)x < x);
	return 0;
}

int tp_sacct_tres(const char *tres, const char *name, int64_t *v)
{
	size_t n = strlen(name);
	*v = TP_SACCT_UNKNOWN;
	for (const char *p = tres; *p;) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		if (!eq || eq == p)
			return -1;
		if ((size_t)(eq - p) == n && !strncmp(p, name, n)) {
			char buf[32];
			size_t vl = len - (size_t)(eq + 1 - p);
			tp_sacct_mem_per per;
			if (!vl || vl >= sizeof(buf))
				return -1;
			snprintf(buf, sizeof(buf), "%.*s", (int)vl, eq + 1);
			if (!strcmp(name, "mem"))
				return tp_sacct_parse_mem(buf, v, &per);
			return parse_uint(buf, INT32_MAX, v);
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* ---- JobID ----------------------------------------------------------- */

typedef struct jobid {
	int64_t base;
	bool step;      /* ".batch", ".0", ... */
	bool shared;    /* array task or het component: base is not its own */
} jobid;

/* N[_I|_[...]][+K][.STEP]; -1 when it is none of these. */
static int parse_jobid(const char *s, jobid *id)
{
	char buf[32];
	size_t n = strspn(s, "0123456789");
	if (!n || n >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
	if (parse_uint(buf, INT64_MAX, &id->base))
		return -1;
	s += n;
	id->shared = *s == '_' || *s == '+';
	if (*s == '_' && s[1] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close == s + 2)
			return -1;
		s = close + 1;
	} else if (*s == '_') {
		n = strspn(s + 1, "0123456789");
		if (!n)
			return -1;
		s += 1 + n;
	}
	if (*s == '+') {
		n = strspn(s + 1, "0123456789");
		if (!n)
			return -1;
		s += 1 + n;
	}
	id->step = *s == '.';
	if (id->step && !s[1])
		return -1;
	return id->step || !*s ? 0 : -1;
}

/* ---- lines ----------------------------------------------------------- */

/* Malformed input returns -1 (skipped with lenient), anything else that
 * stops the read -2. */
static int oom(sacct_reader *r, tp_error *err)
{
	tp_errorf(err, "%s:%zu: out of memory", r->name, r->lineno);
	return -2;
}

static int bad(sacct_reader *r, tp_error *err, const char *what,
	       const char *value)
{
	return tp_errorf(err, "%s:%zu: %s '%.80s'", r->name, r->lineno, what,
			 value);
}

/* The next line without its newline: 1, 0 at the end, -1 on a NUL. */
static int read_line(sacct_reader *r, tp_error *err)
{
	ssize_t len = getline(&r->line, &r->cap, r->fp);
	if (len < 0) {
		if (ferror(r->fp))
			return tp_errorf(err, "%s:%zu: read error: %s", r->name,
					 r->lineno + 1, strerror(errno));
		return 0;
	}
	r->lineno++;
	if (strlen(r->line) != (size_t)len)
		return tp_errorf(err, "%s:%zu: NUL byte in the line", r->name,
				 r->lineno);
	while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
		r->line[--len] = '\0';
	return 1;
}

/* Splits the line at '|' into r->f; the field count (up to MAX_COLS + 1,
 * "too many"). */
static int split(sacct_reader *r)
{
	int n = 0;
	char *p = r->line;
	for (;;) {
		if (n == MAX_COLS)
			return MAX_COLS + 1;
		r->f[n++] = p;
		char *bar = strchr(p, '|');
		if (!bar)
			return n;
		*bar = '\0';
		p = bar + 1;
	}
}

static int parse_header(sacct_reader *r, tp_error *err)
{
	if (!strchr(r->line, '|'))
		return bad(r, err, "not sacct -P output: no '|' in the header", r->line);
	r->ncols = split(r);
	if (r->ncols > MAX_COLS)
		return bad(r, err, "more than 256 columns in the header", r->line);
	for (int i = 0; i < C_N; i++)
		r->col[i] = -1;
	for (int k = 0; k < r->ncols; k++)
		for (int i = 0; i < C_N; i++) {
			if (strcasecmp(r->f[k], col_name[i]))
				continue;
			if (r->col[i] >= 0)
				return bad(r, err, "column given twice", r->f[k]);
			r->col[i] = k;
		}
	static const int required[] = { C_JOBID, C_SUBMIT, C_START, C_END, C_NNODES };
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (r->col[required[i]] < 0)
			return bad(r, err, "the header lacks a required column (JobID, Submit, Start, End, NNodes)",
				   col_name[required[i]]);
	if (r->count_names && r->col[C_NODELIST] < 0)
		return tp_errorf(err, "%s:%zu: no NodeList column and no machine size: give the node count (--nodes), a topology or a partition",
				 r->name, r->lineno);
	return 0;
}

static const char *field(const sacct_reader *r, int c)
{
	return r->col[c] >= 0 ? r->f[r->col[c]] : NULL;
}

/* Is `name` one of the ','-separated partitions in `list`? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

/* State: an upper-case word, optionally "by UID" (CANCELLED by 0). */
static bool good_state(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
	if (!n)
		return false;
	if (!s[n])
		return true;
	return !strncmp(s + n, " by ", 4) && strspn(s + n + 4, "0123456789") > 0 &&
	       !s[n + 4 + strspn(s + n + 4, "0123456789")];
}

static int remember_names(sacct_reader *r, const tp_hostlist *hl)
{
	for (size_t i = 0; i < hl->n; i++) {
		if (tp_name_index_find(&r->index, r->names, hl->names[i]) >= 0)
			continue;
		if (r->nnames == r->names_cap) {
			size_t cap = r->names_cap ? 2 * r->names_cap : 256;
			char **p = realloc(r->names, cap * sizeof(*p));
			if (!p)
				return -1;
			r->names = p;
			r->names_cap = cap;
		}
		if (!(r->names[r->nnames] = strdup(hl->names[i])))
			return -1;
		if (tp_name_index_add(&r->index, r->names)) {
			free(r->names[r->nnames]);
			return -1;
		}
		r->nnames++;
	}
	return 0;
}

/* Whether any of the names is one of --partition's nodes. */
static bool on_partition_nodes(const sacct_reader *r, const tp_hostlist *hl)
{
	for (size_t i = 0; i < hl->n; i++)
		if (tp_name_index_find(&r->part_nodes, r->o->partition_nodes,
				       hl->names[i]) >= 0)
			return true;
	return false;
}

/* NodeList: a Slurm hostlist, or "None assigned" (*none); *count its
 * names, *overlap whether one is --partition's. */
static int check_nodelist(sacct_reader *r, const char *s, bool *none,
			  int64_t *count, bool *overlap, tp_error *err)
{
	*none = !strcmp(s, "None assigned") || !*s;
	*count = 0;
	*overlap = false;
	if (*none)
		return 0;
	tp_hostlist hl = { 0 };
	char why[128];
	int rc = 0;
	if (tp_hostlist_expand(&hl, s, why, sizeof(why))) {
		tp_errorf(err, "%s:%zu: bad NodeList '%.80s': %s", r->name,
			  r->lineno, s, why);
		rc = -1;
	} else if (remember_names(r, &hl)) {
		rc = oom(r, err);
	}
	*count = (int64_t)hl.n;
	*overlap = r->o->npartition_nodes && on_partition_nodes(r, &hl);
	tp_hostlist_fini(&hl);
	return rc;
}

/* The values of one job line, checked. */
typedef struct sacct_vals {
	jobid id;
	int64_t raw, submit, start, end, elapsed, limit, nnodes, ncpus;
	int64_t listed;       /* NodeList's names */
	bool none_assigned, overlap;
	bool limit_partition; /* UNLIMITED or Partition_Limit */
	tp_sacct_res res;
} sacct_vals;

static int time_field(sacct_reader *r, int c, int64_t *v, tp_error *err)
{
	const char *s = field(r, c);
	if (tp_sacct_parse_time(s, v))
		return bad(r, err, c == C_SUBMIT ? "bad Submit" : c == C_START ?
			   "bad Start" : "bad End", s);
	return 0;
}

static int number_field(sacct_reader *r, int c, int64_t hi, int64_t *v,
			tp_error *err)
{
	const char *s = field(r, c);
	*v = -1;
	if (!s || !parse_uint(s, hi, v))
		return 0;
	char what[32]; /* only on an error: this runs for every field */
	snprintf(what, sizeof(what), "bad %s", col_name[c]);
	return bad(r, err, what, s);
}

static bool partition_word(const char *s)
{
	return s && (!strcasecmp(s, "UNLIMITED") ||
		     !strcasecmp(s, "Partition_Limit"));
}

static int duration_fields(sacct_reader *r, sacct_vals *v, tp_error *err)
{
	const char *s, *raw = field(r, C_TIMELIMITRAW);
	v->elapsed = v->limit = -1;
	if ((s = field(r, C_ELAPSED)) && tp_sacct_parse_elapsed(s, &v->elapsed))
		return bad(r, err, "bad Elapsed", s);
	if (v->elapsed < 0 && number_field(r, C_ELAPSEDRAW, (int64_t)1 << 40, &v->elapsed, err))
		return -1;
	if ((s = field(r, C_TIMELIMIT)) && tp_sacct_parse_limit(s, &v->limit))
		return bad(r, err, "bad Timelimit", s);
	v->limit_partition = partition_word(s);
	if (v->limit < 0 && raw && *raw && strcasecmp(raw, "INVALID")) {
		v->limit_partition |= partition_word(raw);
		if (partition_word(raw))
			return 0;
		if (number_field(r, C_TIMELIMITRAW, INT32_MAX, &v->limit, err))
			return -1;
		v->limit *= 60;
		v->limit_partition = false;
	}
	return 0;
}

/* The index of `name` among r->strs, added when new; -1 on ENOMEM. */
static int32_t intern(sacct_reader *r, const char *name)
{
	int i = tp_name_index_find(&r->str_index, r->strs, name);
	if (i >= 0)
		return i;
	char **p = tp_grow(r->strs, &r->strs_cap, r->nstrs, sizeof(*p), 64);
	if (!p)
		return -1;
	r->strs = p;
	if (!(p[r->nstrs] = strdup(name)))
		return -1;
	if (tp_name_index_add(&r->str_index, r->strs)) {
		free(p[r->nstrs]);
		return -1;
	}
	return (int32_t)r->nstrs++;
}

/* A name column's index (TP_SACCT_UNKNOWN when absent or empty). */
static int name_field(sacct_reader *r, int c, int32_t *v, tp_error *err)
{
	const char *s = field(r, c);
	*v = TP_SACCT_UNKNOWN;
	if (!s || !*s)
		return 0;
	return (*v = intern(r, s)) < 0 ? oom(r, err) : 0;
}

/* A TRES column's count of `name`. */
static int tres_field(sacct_reader *r, int c, const char *name, int64_t *v,
		      tp_error *err)
{
	const char *s = field(r, c);
	*v = TP_SACCT_UNKNOWN;
	if (!s || !tp_sacct_tres(s, name, v))
		return 0;
	char what[48];
	snprintf(what, sizeof(what), "bad %s", col_name[c]);
	return bad(r, err, what, s);
}

static int32_t count32(int64_t v)
{
	return v < 0 ? TP_SACCT_UNKNOWN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/* What the job asked and got beyond its nodes, and who asked. */
static int res_fields(sacct_reader *r, sacct_vals *v, tp_error *err)
{
	tp_sacct_res *x = &v->res;
	int64_t req_cpus, tres_cpus, alloc_cpus, mem, tres_mem, rg, ag, prio, rn;
	const char *s = field(r, C_REQMEM);
	x->mem_per = TP_SACCT_MEM_JOB;
	mem = TP_SACCT_UNKNOWN;
	if (s && *s && tp_sacct_parse_mem(s, &mem, &x->mem_per))
		return bad(r, err, "bad ReqMem", s);
	if (number_field(r, C_REQCPUS, INT32_MAX, &req_cpus, err) ||
	    tres_field(r, C_REQTRES, "cpu", &tres_cpus, err) ||
	    tres_field(r, C_REQTRES, "mem", &tres_mem, err) ||
	    tres_field(r, C_REQTRES, "gres/gpu", &rg, err) ||
	    tres_field(r, C_REQTRES, "node", &rn, err) ||
	    tres_field(r, C_ALLOCTRES, "cpu", &alloc_cpus, err) ||
	    tres_field(r, C_ALLOCTRES, "gres/gpu", &ag, err) ||
	    name_field(r, C_PARTITION, &x->partition, err) ||
	    name_field(r, C_QOS, &x->qos, err) ||
	    name_field(r, C_ACCOUNT, &x->account, err) ||
	    name_field(r, C_USER, &x->user, err))
		return -1;
	s = field(r, C_PRIORITY);
	prio = TP_SACCT_UNKNOWN;
	if (s && *s && parse_uint(s, INT64_MAX, &prio))
		return bad(r, err, "bad Priority", s);
	x->req_cpus = count32(req_cpus >= 0 ? req_cpus : tres_cpus);
	x->alloc_cpus = count32(alloc_cpus >= 0 ? alloc_cpus : v->ncpus);
	x->tres_alloc_cpus = alloc_cpus >= 0 ? count32(alloc_cpus) : 0;
	x->req_mem = mem >= 0 ? mem : tres_mem;
	x->req_gpus = count32(rg);
	x->alloc_gpus = count32(ag);
	x->req_nodes = count32(v->nnodes);
	x->min_nodes = count32(rn);
	x->priority = prio;
	return 0;
}

static int parse_values(sacct_reader *r, sacct_vals *v, tp_error *err)
{
	const char *s;
	if (time_field(r, C_SUBMIT, &v->submit, err) ||
	    time_field(r, C_START, &v->start, err) ||
	    time_field(r, C_END, &v->end, err) ||
	    duration_fields(r, v, err) ||
	    number_field(r, C_NNODES, 1 << 24, &v->nnodes, err) ||
	    number_field(r, C_NCPUS, INT32_MAX, &v->ncpus, err) ||
	    number_field(r, C_JOBIDRAW, INT64_MAX, &v->raw, err) ||
	    res_fields(r, v, err))
		return -1;
	if ((s = field(r, C_STATE)) && !good_state(s))
		return bad(r, err, "bad State", s);
	v->none_assigned = v->overlap = false;
	v->listed = 0;
	int rc;
	if ((s = field(r, C_NODELIST)) &&
	    (rc = check_nodelist(r, s, &v->none_assigned, &v->listed,
				 &v->overlap, err)))
		return rc;
	if (v->id.shared && v->raw < 0)
		return bad(r, err, "JobID of an array task or heterogeneous component without a JobIDRaw column (its id would not be unique)",
			   field(r, C_JOBID));
	if (v->start >= 0 && v->end >= 0 && v->end < v->start)
		return bad(r, err, "End before Start", field(r, C_END));
	if (v->start >= 0 && v->submit >= 0 && v->start < v->submit)
		return bad(r, err, "Start before Submit", field(r, C_START));
	return 0;
}

static int add_rec(sacct_reader *r, const sacct_rec *rec, tp_error *err)
{
	if (r->nrecs == r->rcap) {
		size_t cap = r->rcap ? 2 * r->rcap : 1024;
		sacct_rec *p = realloc(r->recs, cap * sizeof(*p));
		if (!p)
			return oom(r, err);
		r->recs = p;
		r->rcap = cap;
	}
	r->recs[r->nrecs++] = *rec;
	return 0;
}

static void count(tp_sacct_count *c, size_t line)
{
	if (!c->n++)
		c->first_line = line;
}

/* Remembers job id `id`: 1 if it was seen before, 0 if new, -1 on
 * ENOMEM.  Open addressing over the ids, 0 kept apart. */
static int seen_before(sacct_reader *r, int64_t id)
{
	if (id == 0) {
		bool was = r->id_zero;
		r->id_zero = true;
		return was;
	}
	if (2 * (r->nids + 1) > r->ids_cap) {
		size_t cap = r->ids_cap ? 2 * r->ids_cap : 1024;
		int64_t *t = calloc(cap, sizeof(*t));
		if (!t)
			return -1;
		for (size_t i = 0; i < r->ids_cap; i++) {
			if (!r->ids[i])
				continue;
			size_t h = (size_t)((uint64_t)r->ids[i] * 0x9E3779B97F4A7C15u) & (cap - 1);
			while (t[h])
				h = (h + 1) & (cap - 1);
			t[h] = r->ids[i];
		}
		free(r->ids);
		r->ids = t;
		r->ids_cap = cap;
	}
	size_t h = (size_t)((uint64_t)id * 0x9E3779B97F4A7C15u) & (r->ids_cap - 1);
	for (; r->ids[h]; h = (h + 1) & (r->ids_cap - 1))
		if (r->ids[h] == id)
			return 1;
	r->ids[h] = id;
	r->nids++;
	return 0;
}

/* The partition's MaxTime for an UNLIMITED or Partition_Limit limit, or
 * -1 when the site gives none. */
static int64_t partition_max_time(const sacct_reader *r, int32_t part)
{
	if (part < 0)
		return -1;
	for (size_t i = 0; i < r->o->nlimits; i++)
		if (!strcmp(r->o->limits[i].partition, r->strs[part]))
			return r->o->limits[i].max_time;
	return -1;
}

/* The run time: End - Start, or Elapsed when shorter (suspended);
 * either difference counted. */
static int64_t run_time(sacct_reader *r, const sacct_vals *v)
{
	int64_t span = v->end - v->start;
	if (v->elapsed < 0 || v->elapsed == span)
		return span;
	count(v->elapsed > span ? &r->warn.elapsed_long : &r->warn.elapsed_short,
	      r->lineno);
	return v->elapsed < span ? v->elapsed : span;
}

/* The estimate: Timelimit, the partition's MaxTime for UNLIMITED and
 * Partition_Limit, or -1 (the run time stands in, counted later). */
static int64_t estimate(sacct_reader *r, const sacct_vals *v)
{
	if (v->limit > 0)
		return v->limit;
	int64_t max = v->limit_partition ? partition_max_time(r, v->res.partition) : -1;
	if (max > 0) {
		count(&r->warn.limit_partition, r->lineno);
		return max;
	}
	return -1;
}

/* A checked line: skipped for its first reason, or kept. */
static int keep(sacct_reader *r, sacct_vals *v, tp_error *err)
{
	if (v->start < 0 || v->none_assigned) {
		r->skip.not_started++;
		return 0;
	}
	if (v->submit < 0) {
		r->skip.unknown_time++;
		return 0;
	}
	if (v->end < 0) {
		r->skip.unfinished++;
		return 0;
	}
	int64_t id = v->raw >= 0 ? v->raw : v->id.base;
	int dup = seen_before(r, id);
	if (dup < 0)
		return oom(r, err);
	if (dup) {
		r->skip.duplicate++;
		count(&r->warn.duplicate, r->lineno);
		return 0;
	}
	int64_t run = run_time(r, v);
	if (run <= 0) {
		r->wskip.runtime++;
		return 0;
	}
	if (v->listed > 0 && v->listed != v->nnodes) {
		count(&r->warn.nnodes, r->lineno);
		v->nnodes = v->listed;
	}
	if (v->nnodes <= 0) {
		r->wskip.size++;
		return 0;
	}
	const char *nl = field(r, C_NODELIST);
	sacct_rec rec = {
		.j = { .id = id, .submit = v->submit, .runtime = run,
		       .estimate = estimate(r, v),
		       .nodes = (int32_t)v->nnodes },
		.run = { .start = v->start, .end = v->end, .line = r->lineno,
			 .nodelist = nl ? strdup(nl) : NULL, .res = v->res },
	};
	if ((nl && !rec.run.nodelist) || add_rec(r, &rec, err)) {
		free(rec.run.nodelist);
		return oom(r, err);
	}
	return 0;
}

/* The partitions of a record of another partition, for a message that
 * lists what --partition could have named. */
static void note_partitions(tp_sacct_skips *k, const char *list)
{
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ","), used = strlen(k->partitions);
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (name[0] && !in_list(k->partitions, name) &&
		    used + len + 2 < sizeof(k->partitions))
			snprintf(k->partitions + used, sizeof(k->partitions) - used,
				 "%s%s", used ? "," : "", name);
		p += len + (p[len] == ',');
	}
}

/* Another partition's job: counted when it ran on --partition's nodes
 * (their load is then missing from the replay). */
static int other_partition(sacct_reader *r, tp_error *err)
{
	r->skip.other_partition++;
	const char *nl = field(r, C_NODELIST);
	if (!r->o->npartition_nodes || !nl || !*nl || !strcmp(nl, "None assigned"))
		return 0;
	tp_hostlist hl = { 0 };
	char why[128];
	int rc = 0;
	if (tp_hostlist_expand(&hl, nl, why, sizeof(why)))
		rc = tp_errorf(err, "%s:%zu: bad NodeList '%.80s': %s", r->name,
			       r->lineno, nl, why);
	else if (on_partition_nodes(r, &hl))
		count(&r->warn.overlap, r->lineno);
	tp_hostlist_fini(&hl);
	return rc;
}

static int parse_job(sacct_reader *r, tp_error *err)
{
	int n = split(r);
	sacct_vals v;
	if (n != r->ncols) {
		char what[96];
		snprintf(what, sizeof(what), "%d '|'-separated fields where the header has %d:",
			 n > MAX_COLS ? MAX_COLS + 1 : n, r->ncols);
		return bad(r, err, what, r->f[0]);
	}
	if (parse_jobid(field(r, C_JOBID), &v.id))
		return bad(r, err, "bad JobID", field(r, C_JOBID));
	if (v.id.step) {
		r->skip.steps++;
		return 0;
	}
	const char *part = field(r, C_PARTITION);
	if (r->partition && part && !in_list(part, r->partition)) {
		note_partitions(&r->skip, part);
		return other_partition(r, err);
	}
	int rc = parse_values(r, &v, err);
	return rc ? rc : keep(r, &v, err);
}

static int read_lines(sacct_reader *r, tp_error *err)
{
	int rc;
	bool header = false;
	while ((rc = read_line(r, err)) > 0) {
		if (!r->line[strspn(r->line, " \t")])
			continue;
		if (!header) {
			header = true;
			if (parse_header(r, err))
				return -1;
			continue;
		}
		int bad_line = parse_job(r, err);
		if (bad_line == -1 && r->lenient)
			r->wskip.malformed++;
		else if (bad_line)
			return -1;
	}
	if (rc == 0 && !header)
		return tp_errorf(err, "%s: empty: no sacct header line", r->name);
	return rc;
}

/* ---- workload -------------------------------------------------------- */

static int by_submit(const void *a, const void *b)
{
	const sacct_rec *x = a, *y = b;
	if (x->j.submit != y->j.submit)
		return x->j.submit < y->j.submit ? -1 : 1;
	return x->run.line < y->run.line ? -1 : x->run.line > y->run.line;
}

/* The partitions of the jobs kept, first seen first. */
static int note_partition(tp_sacct *s, int32_t part)
{
	if (part < 0)
		return 0;
	for (size_t i = 0; i < s->nparts; i++)
		if (s->parts[i] == part)
			return 0;
	int32_t *p = realloc(s->parts, (s->nparts + 1) * sizeof(*p));
	if (!p)
		return -1;
	s->parts = p;
	s->parts[s->nparts++] = part;
	return 0;
}

/* The reader's name tables become the workload's. */
static void take_names(sacct_reader *r, tp_sacct *s)
{
	s->names = r->strs;
	s->nnames = r->nstrs;
	r->strs = NULL;
	r->nstrs = 0;
	s->nodes = r->names;
	s->nnodes = r->nnames;
	s->nodes_counted = r->count_names;
	r->names = NULL;
	r->nnames = 0;
}

/* Keeps what fits the machine, times relative to the first submit. */
static int fill(sacct_reader *r, tp_sacct *s, int nodes, double scale,
		tp_error *err)
{
	tp_workload *w = &s->w;
	w->nodes = nodes;
	w->ppn = 1;
	w->skipped = r->wskip;
	s->skipped = r->skip;
	s->warn = r->warn;
	if (r->nrecs) /* qsort(NULL, 0, ...) is undefined */
		qsort(r->recs, r->nrecs, sizeof(*r->recs), by_submit);
	for (size_t i = 0; i < r->nrecs; i++) {
		int32_t *n = &r->recs[i].j.nodes;
		*n = (int32_t)tp_workload_scale_nodes(*n, scale);
		if (*n > w->largest)
			w->largest = *n;
	}
	s->runs = malloc((r->nrecs ? r->nrecs : 1) * sizeof(*s->runs));
	if (!s->runs)
		return tp_errorf(err, "%s: out of memory", r->name);
	s->epoch = 0;
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].j.nodes <= nodes) {
			s->epoch = r->recs[i].j.submit;
			break;
		}
	for (size_t i = 0; i < r->nrecs; i++) {
		sacct_rec *x = &r->recs[i];
		if (x->j.nodes > nodes) {
			if (tp_workload_drop(w, x->j.id, TP_DROP_TOO_BIG))
				return tp_errorf(err, "%s: out of memory", r->name);
			continue;
		}
		tp_wjob j = x->j;
		j.submit -= s->epoch;
		if (j.estimate <= 0) {
			j.estimate = j.runtime;
			w->estimate_missing++;
			count(&s->warn.limit_missing, x->run.line);
		}
		if (tp_workload_add(w, &j))
			return tp_errorf(err, "%s: out of memory", r->name);
		tp_sacct_run *run = &s->runs[w->njobs - 1];
		*run = x->run;
		run->start -= s->epoch;
		run->end -= s->epoch;
		x->run.nodelist = NULL; /* now the run's */
		if (note_partition(s, run->res.partition))
			return tp_errorf(err, "%s: out of memory", r->name);
	}
	take_names(r, s);
	return 0;
}

static void reader_fini(sacct_reader *r)
{
	for (size_t i = 0; i < r->nrecs; i++)
		free(r->recs[i].run.nodelist);
	free(r->recs);
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	tp_name_index_fini(&r->index);
	for (size_t i = 0; i < r->nstrs; i++)
		free(r->strs[i]);
	free(r->strs);
	tp_name_index_fini(&r->str_index);
	tp_name_index_fini(&r->part_nodes);
	free(r->ids);
	free(r->line);
}

/* An index over --partition's node names (distinct, as
 * sim_partition_nodes gives them). */
static int index_partition_nodes(sacct_reader *r, tp_error *err)
{
	for (size_t i = 0; i < r->o->npartition_nodes; i++)
		if (tp_name_index_add(&r->part_nodes, r->o->partition_nodes))
			return tp_errorf(err, "%s: out of memory", r->name);
	return 0;
}

static int machine_nodes(const sacct_reader *r, const tp_sacct_opts *o,
			 tp_error *err)
{
	if (o->nodes > 0)
		return o->nodes;
	if (r->nnames == 0 && r->partition && r->skip.other_partition)
		return tp_errorf(err, "%s: no job of partition '%s' to replay (the partitions there: %s)",
				 r->name, r->partition, r->skip.partitions);
	if (r->nnames == 0)
		return tp_errorf(err, "%s: no machine size: no job has a NodeList; give the node count (--nodes)",
				 r->name);
	if (r->nnames > INT32_MAX / 2)
		return tp_errorf(err, "%s: %zu distinct nodes: too many", r->name,
				 r->nnames);
	return (int)r->nnames;
}

int tp_sacct_read(const char *path, const tp_sacct_opts *o, tp_sacct *s,
		  tp_error *err)
{
	static const tp_sacct_opts defaults;
	if (!o)
		o = &defaults;
	memset(s, 0, sizeof(*s));
	sacct_reader r = {
		.name = strcmp(path, "-") == 0 ? "<stdin>" : path,
		.lenient = o->lenient, .partition = o->partition,
		.count_names = o->nodes <= 0, .o = o,
	};
	s->name = r.name;
	if (o->nodes < 0)
		return tp_errorf(err, "%s: node count must be positive, got %d",
				 r.name, o->nodes);
	if (index_partition_nodes(&r, err)) {
		reader_fini(&r);
		return -1;
	}
	r.fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!r.fp) {
		reader_fini(&r);
		return tp_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	}
	int rc = read_lines(&r, err);
	if (r.fp != stdin)
		fclose(r.fp);
	int nodes = rc == 0 ? machine_nodes(&r, o, err) : -1;
	if (nodes > 0)
		rc = fill(&r, s, nodes, o->scale_sizes, err);
	else
		rc = -1;
	reader_fini(&r);
	if (rc < 0)
		tp_sacct_fini(s);
	s->name = r.name;
	return rc < 0 ? -1 : 0;
}

int tp_sacct_slice(tp_sacct *s, size_t first, size_t count)
{
	size_t n = s->w.njobs;
	if (tp_workload_slice(&s->w, first, count))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (i < first || i >= first + s->w.njobs)
			free(s->runs[i].nodelist);
	memmove(s->runs, s->runs + first, s->w.njobs * sizeof(*s->runs));
	return 0;
}

void tp_sacct_fini(tp_sacct *s)
{
	for (size_t i = 0; s->runs && i < s->w.njobs; i++)
		free(s->runs[i].nodelist);
	free(s->runs);
	for (size_t i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->parts);
	for (size_t i = 0; i < s->nnodes; i++)
		free(s->nodes[i]);
	free(s->nodes);
	tp_workload_fini(&s->w);
	memset(s, 0, sizeof(*s));
}
