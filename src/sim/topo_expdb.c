/*
 * topo_expdb.c - topo-expdb(1): print an experiential database, seed it
 * from sacct, add one run.  The file is sched/topo's
 * StateSaveLocation/sched_topo.expdb (het_expdb.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetero/het_expdb.h"
#include "cli/cli.h"

static const char usage_text[] =
	"usage: topo-expdb show FILE\n"
	"       topo-expdb seed --key name|user|wckey|comment [--from FILE|-] OUT\n"
	"       topo-expdb add OUT JOBCLASS MACHINECLASS NODES SECONDS\n"
	"       topo-expdb --help | --version\n";

/* A usage error of command cmd ("topo-expdb show"): exit status 2. */
static int usage(const char *cmd, const char *why, const char *value)
{
	char msg[512];
	snprintf(msg, sizeof(msg), "%s%s%s%s", why, value ? " '" : "",
		 value ? value : "", value ? "'" : "");
	return tp_cli_usage_error(cmd, msg);
}

enum { O_HELP = 'h', O_VERSION = 256, O_KEY, O_FROM, DONE = -3 };

/* A command's options by the common rule (cli/cli.h); its operands from
 * argv[*first].  0, DONE (--help, --version answered) or 2. */
static int options(const char *cmd, const struct option *opts, int argc,
		   char **argv, int (*take)(tp_cli *, int, const char *, void *),
		   void *arg, int *first)
{
	tp_cli cl;
	const char *v;
	int o;
	/* add's operands may be numbers below 0 (refused as such by add):
	 * its options end at the first operand */
	tp_cli_init(&cl, cmd, opts, take ? "h" : "+h", argc, argv);
	while ((o = tp_cli_next(&cl, &v)) != -1) {
		if (o == O_HELP) {
			fputs(usage_text, stdout);
			return DONE;
		}
		if (o == O_VERSION) {
			tp_cli_version("topo-expdb");
			return DONE;
		}
		if (o == TP_CLI_ERROR || !take || take(&cl, o, v, arg))
			return tp_cli_usage_error(cmd, cl.msg);
	}
	*first = tp_cli_operands(&cl);
	return 0;
}

#define COMMON_OPTS { "help", no_argument, NULL, O_HELP }, \
	{ "version", no_argument, NULL, O_VERSION }

static int fail(const tp_error *err)
{
	fprintf(stderr, "topo-expdb: %s\n", err->msg);
	return 1;
}

/* ---- show -------------------------------------------------------- */

typedef struct widths {
	int j, m;
} widths;

/* Names print as they are, but for control bytes (a tab or newline would
 * break the table), shown as the file's %XX. */
static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* Columns the name takes: UTF-8 continuation bytes take none. */
static int display_width(const char *s)
{
	int w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		w += is_control(*p) ? 3 : (*p & 0xc0) != 0x80;
	return w;
}

static void print_name(const char *s, int width)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (is_control(*p))
			printf("%%%02X", *p);
		else
			putchar(*p);
	printf("%*s", width - display_width(s), "");
}

static void measure(void *arg, const char *jclass, const char *mclass,
		    int nodes, const tp_expdb_stat *st)
{
	(void)nodes;
	(void)st;
	widths *w = arg;
	if (display_width(jclass) > w->j)
		w->j = display_width(jclass);
	if (display_width(mclass) > w->m)
		w->m = display_width(mclass);
}

static void print_row(void *arg, const char *jclass, const char *mclass,
		      int nodes, const tp_expdb_stat *st)
{
	const widths *w = arg;
	print_name(jclass, w->j);
	fputs("  ", stdout);
	print_name(mclass, w->m);
	printf("  %6d  %8" PRIu64 "  %12.1f  %12.1f\n", nodes, st->count,
	       st->mean, sqrt(st->var));
}

static int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = { COMMON_OPTS, { NULL, 0, NULL, 0 } };
	int first, rc = options("topo-expdb show", opts, argc, argv, NULL, NULL,
				&first);
	if (rc)
		return rc == DONE ? 0 : rc;
	if (argc - first != 1)
		return usage("topo-expdb show", argc - first ? "one FILE, not several:"
					 : "FILE is required", argc - first ? argv[first + 1] : NULL);
	const char *path = argv[first];
	FILE *probe = fopen(path, "r");  /* load() calls a missing file empty */
	if (!probe) {
		fprintf(stderr, "topo-expdb: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fclose(probe);
	tp_expdb *db = tp_expdb_new();
	tp_error err = { "" };
	int64_t learned;
	if (!db || tp_expdb_load(db, path, &learned, &err) < 0) {
		tp_expdb_free(db);
		return fail(&err);
	}
	char when[64] = "never";
	time_t t = (time_t)learned;
	struct tm tm;
	if (learned > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	printf("learned_until %" PRId64 " (%s), %zu entries\n", learned, when,
	       tp_expdb_size(db));
	widths w = { (int)strlen("job class"), (int)strlen("machine class") };
	tp_expdb_each(db, measure, &w);
	printf("%-*s  %-*s  %6s  %8s  %12s  %12s\n", w.j, "job class", w.m,
	       "machine class", "nodes", "count", "mean s", "stddev s");
	tp_expdb_each(db, print_row, &w);
	tp_expdb_free(db);
	return 0;
}

/* ---- seed, add --------------------------------------------------- */

/* Load OUT (missing: empty), let fn change it, save it.  0 or 1. */
static int update(const char *out, int (*fn)(tp_expdb *db, void *arg,
					     tp_error *err),
		  void *arg)
{
	tp_expdb *db = tp_expdb_new();
	tp_error err = { "" };
	int64_t learned = 0;
	int rc = 0;
	if (!db)
		rc = tp_errorf(&err, "%s: %s", out, strerror(ENOMEM));
	if (rc == 0)
		rc = tp_expdb_load(db, out, &learned, &err);
	if (rc == 0)
		rc = fn(db, arg, &err);
	if (rc == 0)
		rc = tp_expdb_save(db, out, learned, &err);
	tp_expdb_free(db);
	return rc < 0 ? fail(&err) : 0;
}

typedef struct seed_arg {
	FILE *in;
	const char *name;
	tp_class_key key;
	size_t added;
} seed_arg;

static int do_seed(tp_expdb *db, void *arg, tp_error *err)
{
	seed_arg *a = arg;
	return tp_expdb_seed_sacct(db, a->in, a->name, a->key, &a->added,
				   err);
}

static int parse_key(const char *s)
{
	const char *const *names = tp_class_key_names();
	for (int k = 0; names[k]; k++)
		if (strcmp(s, names[k]) == 0)
			return k;
	return -1;
}

typedef struct seed_opts {
	const char *from;
	int key;
} seed_opts;

static int seed_option(tp_cli *cl, int o, const char *v, void *arg)
{
	seed_opts *s = arg;
	if (o == O_FROM) {
		s->from = v;
		return 0;
	}
	if (tp_cli_choice(cl, "--key", v, tp_class_key_names(), "key"))
		return TP_CLI_ERROR;
	s->key = parse_key(v);
	return 0;
}

static int cmd_seed(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, O_KEY },
		{ "from", required_argument, NULL, O_FROM },
		COMMON_OPTS, { NULL, 0, NULL, 0 },
	};
	const char *cmd = "topo-expdb seed";
	seed_opts so = { .from = "-", .key = -1 };
	int first, p = options(cmd, opts, argc, argv, seed_option, &so, &first);
	if (p)
		return p == DONE ? 0 : p;
	if (so.key < 0)
		return usage(cmd, "--key name|user|wckey|comment is required", NULL);
	if (argc - first != 1)
		return usage(cmd, argc - first ? "one OUT, not several:" : "OUT is required",
			     argc - first ? argv[first + 1] : NULL);
	const char *from = so.from, *out = argv[first];
	int key = so.key;
	seed_arg a = { .key = (tp_class_key)key };
	bool std = strcmp(from, "-") == 0;
	a.in = std ? stdin : fopen(from, "r");
	a.name = std ? "<stdin>" : from;
	if (!a.in) {
		fprintf(stderr, "topo-expdb: %s: %s\n", from, strerror(errno));
		return 1;
	}
	int rc = update(out, do_seed, &a);
	if (!std)
		fclose(a.in);
	if (rc == 0)
		printf("%zu runs added to %s\n", a.added, out);
	return rc;
}

typedef struct add_arg {
	const char *jclass, *mclass;
	int nodes;
	double seconds;
} add_arg;

static int do_add(tp_expdb *db, void *arg, tp_error *err)
{
	const add_arg *a = arg;
	int j = tp_expdb_jclass(db, a->jclass);
	int m = tp_expdb_mclass(db, a->mclass);
	if (j < 0 || m < 0 || tp_expdb_add(db, j, m, a->nodes, a->seconds) < 0)
		return tp_errorf(err, "%s", strerror(ENOMEM));
	return 0;
}

static int cmd_add(int argc, char **argv)
{
	static const struct option opts[] = { COMMON_OPTS, { NULL, 0, NULL, 0 } };
	const char *cmd = "topo-expdb add";
	int first, rc = options(cmd, opts, argc, argv, NULL, NULL, &first);
	if (rc)
		return rc == DONE ? 0 : rc;
	argc -= first;
	argv += first;
	if (argc != 5)
		return usage(cmd, "expected OUT JOBCLASS MACHINECLASS NODES SECONDS", NULL);
	add_arg a = { .jclass = argv[1], .mclass = argv[2] };
	char *end;
	errno = 0;
	long n = strtol(argv[3], &end, 10);
	if (!*argv[3] || *end || errno || n < 1 || n > INT_MAX)
		return usage(cmd, "NODES: not a whole number >= 1:", argv[3]);
	a.nodes = (int)n;
	errno = 0;
	a.seconds = strtod(argv[4], &end);
	if (!*argv[4] || *end || errno || !isfinite(a.seconds) ||
	    a.seconds < 0)
		return usage(cmd, "SECONDS: not a finite number >= 0:", argv[4]);
	return update(argv[0], do_add, &a);
}

int main(int argc, char **argv)
{
	static const char *const commands[] = { "show", "seed", "add", NULL };
	if (argc < 2)
		return usage("topo-expdb", "a command is required: show, seed or add", NULL);
	/* each command's options from its own argv[0] */
	if (strcmp(argv[1], "show") == 0)
		return cmd_show(argc - 1, argv + 1);
	if (strcmp(argv[1], "seed") == 0)
		return cmd_seed(argc - 1, argv + 1);
	if (strcmp(argv[1], "add") == 0)
		return cmd_add(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0)
		return tp_cli_version("topo-expdb");
	tp_cli cl;
	tp_cli_init(&cl, "topo-expdb", (const struct option[]){ { NULL, 0, NULL, 0 } },
		    "", argc, argv);
	tp_cli_choice(&cl, NULL, argv[1], commands, "command");
	return tp_cli_usage_error("topo-expdb", cl.msg);
}
