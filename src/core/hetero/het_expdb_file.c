/*
 * het_expdb_file.c - the experiential database on disk, and seeding it
 * from sacct.  The format (topo-expdb(1) documents it):
 *
 *   topo-expdb 1
 *   learned_until <seconds since the epoch>
 *   # comment lines (first byte '#') may follow the header anywhere
 *   JOBCLASS <tab> MACHINECLASS <tab> NODES <tab> COUNT <tab> MEAN <tab> VAR
 *
 * Names are percent-escaped ('%', tab, newline, CR, space, '#' and every
 * other byte below 0x20 or 0x7f as %XX; bytes >= 0x80 stay, so UTF-8
 * names stay readable); numbers are "%.17g", which reads back to the same
 * double.
 */
#include "hetero/het_expdb.h"
#include "hetero/het_expdb_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPDB_MAGIC "topo-expdb"
#define EXPDB_VERSION 1
#define EXPDB_NFIELDS 6
#define SACCT_NFIELDS 8

/* ---- escaping ---------------------------------------------------- */

static bool must_escape(unsigned char c)
{
	return c == '%' || c == ' ' || c == '#' || c < 0x20 || c == 0x7f;
}

static int put_escaped(FILE *fp, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (must_escape(*p) ? fprintf(fp, "%%%02X", *p) < 0
				    : putc(*p, fp) == EOF)
			return -1;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode s in place; NULL on success, else where the bad escape starts
 * (a '%' not followed by two hex digits, or %00). */
static char *unescape(char *s)
{
	char *out = s;
	for (char *p = s; *p; p++) {
		if (*p != '%') {
			*out++ = *p;
			continue;
		}
		int hi = hexval(p[1]), lo = hi < 0 ? -1 : hexval(p[2]);
		if (hi < 0 || lo < 0 || (hi | lo) == 0)
			return p;
		*out++ = (char)(hi << 4 | lo);
		p += 2;
	}
	*out = '\0';
	return NULL;
}

/* ---- numbers ----------------------------------------------------- */

/* A whole number in [lo, hi] filling s (digits only, no sign, no
 * blanks). */
static bool parse_whole(const char *s, uint64_t lo, uint64_t hi,
			uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* A finite double >= 0 filling s. */
static bool parse_nonneg(const char *s, double *out)
{
	if ((*s < '0' || *s > '9') && *s != '.')
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}

/* ---- lines ------------------------------------------------------- */

/* Split line at sep in place into at most max fields; the field count
 * (max + 1 when there are more). */
static int split(char *line, char sep, char **field, int max)
{
	int n = 0;
	for (char *p = line;; p++) {
		if (n <= max) {
			if (n < max)
				field[n] = p;
			n++;
		}
		p = strchr(p, sep);
		if (!p)
			return n;
		if (n <= max)
			*p = '\0';
	}
}

/* The next line without its '\n'; -1 at EOF.  A NUL inside it is
 * reported through *nul. */
static ssize_t next_line_ended(FILE *fp, char **buf, size_t *cap, bool *nul,
			       bool *ended)
{
	ssize_t len = getline(buf, cap, fp);
	if (len < 0)
		return -1;
	*ended = len > 0 && (*buf)[len - 1] == '\n';
	if (*ended)
		(*buf)[--len] = '\0';
	*nul = strlen(*buf) != (size_t)len;
	return len;
}

static ssize_t next_line(FILE *fp, char **buf, size_t *cap, bool *nul)
{
	bool ended;
	return next_line_ended(fp, buf, cap, nul, &ended);
}

/* ---- save -------------------------------------------------------- */

typedef struct save_ctx {
	FILE *fp;
	int failed;
} save_ctx;

static void save_entry(void *arg, const char *jclass, const char *mclass,
		       int nodes, const tp_expdb_stat *st)
{
	save_ctx *c = arg;
	if (c->failed || put_escaped(c->fp, jclass) < 0 ||
	    putc('\t', c->fp) == EOF || put_escaped(c->fp, mclass) < 0 ||
	    fprintf(c->fp, "\t%d\t%" PRIu64 "\t%.17g\t%.17g\n", nodes,
		    st->count, st->mean, st->var) < 0)
		c->failed = 1;
}

/* The directory entry of the rename reaches the disk too (best effort:
 * some file systems cannot fsync a directory). */
static void sync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 (int)(slash == path ? 1 : slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int tp_expdb_save(const tp_expdb *db, const char *path,
		  int64_t learned_until, tp_error *err)
{
	size_t len = strlen(path) + sizeof(".tmp");
	char *tmp = malloc(len);
	if (!tmp)
		return tp_errorf(err, "%s: %s", path, strerror(ENOMEM));
	snprintf(tmp, len, "%s.tmp", path);
	FILE *fp = fopen(tmp, "w");
	if (!fp) {
		int rc = tp_errorf(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	save_ctx c = { .fp = fp };
	if (fprintf(fp, "%s %d\nlearned_until %" PRId64 "\n"
		    "# job class\tmachine class\tnodes\tcount\tmean s\tvariance s^2\n",
		    EXPDB_MAGIC, EXPDB_VERSION, learned_until) < 0)
		c.failed = 1;
	tp_expdb_each(db, save_entry, &c);
	int saved_errno = 0;
	if (c.failed || ferror(fp) || fflush(fp) == EOF ||
	    fsync(fileno(fp)) < 0)
		saved_errno = errno ? errno : EIO;
	if (fclose(fp) == EOF && !saved_errno)
		saved_errno = errno;
	if (!saved_errno && rename(tmp, path) < 0) {
		int rc = tp_errorf(err, "%s: rename to %s: %s", tmp, path,
				   strerror(errno));
		unlink(tmp);
		free(tmp);
		return rc;
	}
	if (saved_errno) {
		int rc = tp_errorf(err, "%s: %s", tmp, strerror(saved_errno));
		unlink(tmp);
		free(tmp);
		return rc;
	}
	free(tmp);
	sync_dir_of(path);
	return 0;
}

/* ---- load -------------------------------------------------------- */

typedef struct load_ctx {
	const char *path;
	long line;
	tp_error *err;
} load_ctx;

static int bad(const load_ctx *c, const char *what, const char *value)
{
	return tp_errorf(c->err, "%s:%ld: %s '%.80s'", c->path, c->line, what,
			 value);
}

static int load_header(const load_ctx *c, const char *line)
{
	const char *magic = EXPDB_MAGIC " ";
	size_t mlen = strlen(magic);
	if (strncmp(line, magic, mlen) != 0)
		return bad(c, "not an experiential database (expected '"
			   EXPDB_MAGIC " 1'):", line);
	uint64_t v;
	if (!parse_whole(line + mlen, 0, UINT64_MAX, &v) ||
	    v != EXPDB_VERSION)
		return bad(c, "unsupported version (this reads 1)",
			   line + mlen);
	return 0;
}

static int load_learned(const load_ctx *c, const char *line,
			int64_t *learned_until)
{
	const char *key = "learned_until ";
	size_t klen = strlen(key);
	if (strncmp(line, key, klen) != 0)
		return bad(c, "expected 'learned_until SECONDS', got", line);
	const char *s = line + klen;
	bool neg = *s == '-';
	uint64_t v;
	if (!parse_whole(s + neg, 0, (uint64_t)INT64_MAX, &v))
		return bad(c, "bad learned_until", s);
	*learned_until = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* One entry line into fresh (a database of this file only, so a key seen
 * twice is a duplicate). */
static int load_entry(const load_ctx *c, tp_expdb *fresh, char *line)
{
	char *f[EXPDB_NFIELDS];
	int nf = split(line, '\t', f, EXPDB_NFIELDS);
	if (nf != EXPDB_NFIELDS) {
		char n[32];
		snprintf(n, sizeof(n), "%s%d", nf > EXPDB_NFIELDS ? "> " : "",
			 nf > EXPDB_NFIELDS ? EXPDB_NFIELDS : nf);
		return bad(c, "expected 6 tab-separated fields, got", n);
	}
	for (int k = 0; k < 2; k++) {
		char *at = unescape(f[k]);
		if (at)
			return bad(c, "bad escape", at);
	}
	uint64_t nodes, count;
	tp_expdb_stat st;
	if (!parse_whole(f[2], 1, INT_MAX, &nodes))
		return bad(c, "bad node count (a whole number >= 1)", f[2]);
	if (!parse_whole(f[3], 1, UINT64_MAX, &count))
		return bad(c, "bad count (a whole number >= 1)", f[3]);
	if (!parse_nonneg(f[4], &st.mean))
		return bad(c, "bad mean (a finite number >= 0)", f[4]);
	if (!parse_nonneg(f[5], &st.var))
		return bad(c, "bad variance (a finite number >= 0)", f[5]);
	if (count == 1 && st.var != 0)
		return bad(c, "variance of one run is not 0", f[5]);
	st.count = count;
	int j = tp_expdb_jclass(fresh, f[0]);
	int m = tp_expdb_mclass(fresh, f[1]);
	if (j < 0 || m < 0)
		return tp_errorf(c->err, "%s:%ld: %s", c->path, c->line,
				 strerror(ENOMEM));
	if (tp_expdb_get(fresh, j, m, (int)nodes, NULL)) {
		char key[64];
		snprintf(key, sizeof(key), "%d", (int)nodes);
		return tp_errorf(c->err, "%s:%ld: duplicate key '%.80s' '%.80s' '%s'",
				 c->path, c->line, f[0], f[1], key);
	}
	if (tp_expdb_merge(fresh, j, m, (int)nodes, &st) < 0)
		return tp_errorf(c->err, "%s:%ld: %s", c->path, c->line,
				 strerror(ENOMEM));
	return 0;
}

static int load_lines(const load_ctx *c0, FILE *fp, tp_expdb *fresh,
		      int64_t *learned)
{
	load_ctx c = *c0;
	char *buf = NULL;
	size_t cap = 0;
	bool nul, ended, seen_learned = false;
	int rc = 0;
	for (; rc == 0 && next_line_ended(fp, &buf, &cap, &nul, &ended) >= 0;) {
		c.line++;
		if (nul)
			rc = bad(&c, "NUL byte in line", buf);
		else if (!ended)
			/* Every save ends each line: this one was cut short
			 * (its numbers may be too). */
			rc = bad(&c, "last line cut short (no end of line):", buf);
		else if (c.line == 1)
			rc = load_header(&c, buf);
		else if (buf[0] == '#')
			continue;
		else if (!seen_learned) {
			rc = load_learned(&c, buf, learned);
			seen_learned = true;
		} else
			rc = load_entry(&c, fresh, buf);
	}
	if (rc == 0 && ferror(fp))
		rc = tp_errorf(c.err, "%s: %s", c.path, strerror(errno));
	else if (rc == 0 && c.line == 0)
		rc = bad(&c, "empty file, expected", EXPDB_MAGIC " 1");
	else if (rc == 0 && !seen_learned)
		rc = bad(&c, "missing line", "learned_until SECONDS");
	free(buf);
	return rc;
}

int tp_expdb_load(tp_expdb *db, const char *path, int64_t *learned_until,
		  tp_error *err)
{
	int64_t learned = 0;
	if (learned_until)
		*learned_until = 0;
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		return tp_errorf(err, "%s: %s", path, strerror(errno));
	}
	/* The file alone first: a bad line leaves db as it was. */
	tp_expdb *fresh = tp_expdb_new();
	load_ctx c = { .path = path, .err = err };
	int rc = fresh ? load_lines(&c, fp, fresh, &learned)
		       : tp_errorf(err, "%s: %s", path, strerror(ENOMEM));
	fclose(fp);
	if (rc == 0 && tp_expdb_absorb(db, fresh) < 0)
		rc = tp_errorf(err, "%s: %s", path, strerror(ENOMEM));
	tp_expdb_free(fresh);
	if (rc == 0 && learned_until)
		*learned_until = learned;
	return rc;
}

/* ---- sacct ------------------------------------------------------- */

typedef struct seed_ctx {
	const char *name;
	long line;
	tp_class_key key;
	size_t added;
	tp_error *err;
} seed_ctx;

static int seed_bad(const seed_ctx *c, const char *what, const char *value)
{
	return tp_errorf(c->err, "%s:%ld: %s '%.80s'", c->name, c->line, what,
			 value);
}

/* One sacct line: JobName|User|WCKey|Comment|Partition|NNodes|
 * ElapsedRaw|State. */
static int seed_line(seed_ctx *c, tp_expdb *fresh, char *line)
{
	char *f[SACCT_NFIELDS];
	if (strncmp(line, "JobName|", 8) == 0)
		return 0;  /* a header (sacct without -n) */
	int nf = split(line, '|', f, SACCT_NFIELDS);
	if (nf != SACCT_NFIELDS) {
		char n[32];
		snprintf(n, sizeof(n), "%s%d", nf > SACCT_NFIELDS ? "> " : "",
			 nf > SACCT_NFIELDS ? SACCT_NFIELDS : nf);
		return seed_bad(c, "expected 8 '|'-separated fields "
				"(JobName,User,WCKey,Comment,Partition,NNodes,"
				"ElapsedRaw,State), got", n);
	}
	/* Steps carry their own name; the job's line already counts. */
	if (strcmp(f[0], "batch") == 0 || strcmp(f[0], "extern") == 0)
		return 0;
	if (strcmp(f[7], "COMPLETED") != 0)
		return 0;
	/* A job pending in several partitions lists them all; which one it
	 * ran in is not in this format, so its run teaches nothing. */
	if (strchr(f[4], ','))
		return 0;
	if (!f[4][0])
		return seed_bad(c, "bad Partition", f[4]);
	uint64_t nodes, elapsed;
	if (!parse_whole(f[5], 1, INT_MAX, &nodes))
		return seed_bad(c, "bad NNodes", f[5]);
	if (!parse_whole(f[6], 0, UINT64_MAX, &elapsed))
		return seed_bad(c, "bad ElapsedRaw", f[6]);
	int j = tp_expdb_jclass(fresh, f[c->key]);
	int m = tp_expdb_mclass(fresh, f[4]);
	if (j < 0 || m < 0 ||
	    tp_expdb_add(fresh, j, m, (int)nodes, (double)elapsed) < 0)
		return tp_errorf(c->err, "%s:%ld: %s", c->name, c->line,
				 strerror(ENOMEM));
	c->added++;
	return 0;
}

int tp_expdb_seed_sacct(tp_expdb *db, FILE *in, const char *name,
			tp_class_key key, size_t *added, tp_error *err)
{
	if (added)
		*added = 0;
	if ((unsigned)key > TP_CLASS_COMMENT)
		return tp_errorf(err, "%s: bad class key %d", name, (int)key);
	/* Runs go to a database of this input alone first: a bad line
	 * leaves db as it was. */
	tp_expdb *fresh = tp_expdb_new();
	if (!fresh)
		return tp_errorf(err, "%s: %s", name, strerror(ENOMEM));
	seed_ctx c = { .name = name, .key = key, .err = err };
	char *buf = NULL;
	size_t cap = 0;
	bool nul;
	int rc = 0;
	ssize_t len;
	while (rc == 0 && (len = next_line(in, &buf, &cap, &nul)) >= 0) {
		c.line++;
		if (len > 0 && buf[len - 1] == '\r')
			buf[--len] = '\0';
		if (nul)
			rc = seed_bad(&c, "NUL byte in line", buf);
		else if (len > 0)
			rc = seed_line(&c, fresh, buf);
	}
	free(buf);
	if (rc == 0 && ferror(in))
		rc = tp_errorf(err, "%s: %s", name, strerror(errno));
	if (rc == 0 && tp_expdb_absorb(db, fresh) < 0)
		rc = tp_errorf(err, "%s: %s", name, strerror(ENOMEM));
	tp_expdb_free(fresh);
	if (rc == 0 && added)
		*added = c.added;
	return rc;
}
