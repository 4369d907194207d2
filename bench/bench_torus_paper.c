/*
 * bench_torus_paper - the experiment of the Angara torus paper
 * (doc/methods.md B, "Metrics and the experiment"; set-up and readings in
 * doc/torus-experiment.md).
 *
 * Ten tori (32: 4x4x2, 4x2x2x2; 36: 4x3x3, 3x3x2x2; 64: 4x4x4, 4x4x2x2;
 * 96: 6x4x4, 4x4x3x2; 144: 8x6x3, 4x4x3x3, every dimension a ring),
 * windowed First-Fit with windows 1, 2, 4, ..., 128, and the three
 * placement methods base (torus-base, by default with the paper's
 * canonical shapes, --base-shapes), Find_Systems (torus-fs) and
 * Find_Systems+MSS (torus-mss), plus Slurm 26.05's anchored placements
 * (torus-anchor, topology/torus3d's method) for a head-to-head, each on
 * workloads written by `topogen torus` with several seeds.  The window
 * is the paper's arrival-index rule unless --window-rule queue.  For
 * every run it records the utilisation U (on the nodes the jobs asked
 * for: the paper's useful time) and the mean Q/Wtime, then prints the
 * means over the seeds per torus and window, per torus (with each
 * torus's share of the gap), per window (the paper's figures 5 and 6)
 * and the headline: MSS against each other method averaged as the paper
 * does (per window over the systems, then over the windows), as a ratio
 * of means and as a mean of per-(torus, window) ratios, next to the
 * paper's numbers.  It writes data files for contrib/plot/torus-paper.gp.
 *
 * The runs are spread over worker processes (fork) that take tasks from
 * a shared counter, longest first.  Each allocator is wrapped in a memo
 * of the sizes that failed on the current free set (pure-function
 * contract of alloc.h; same schedules, 2.5x less CPU).  Every run must
 * complete every job of its workload; --smoke (the `make check` test,
 * also the default of the torus_paper_smoke build) runs each task twice,
 * in different workers, the second time without the memo, and fails
 * unless both schedules are identical.  Exit status: 0, 1 if a check
 * failed, 2 on bad usage.
 *
 * Usage: bench_torus_paper [--quick | --smoke] [options]; --help lists
 * the options.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "settings/settings.h"
#include "alloc/alloc.h"
#include "alloc/alloc_memo.h"
#include "engine/engine.h"
#include "policy/first_fit.h"
#include "engine/metrics.h"
#include "policy/policy.h"
#include "trace/swf.h"
#include "topology/torus.h"

/* ---- the experiment's fixed parts ------------------------------------ */

typedef struct torus_def {
	const char *label;
	int nodes, ndims, dims[4];
} torus_def;

/* The paper's table of simulated systems (section 3.2). */
static const torus_def tori[] = {
	{ "4x4x2", 32, 3, { 4, 4, 2 } },
	{ "4x2x2x2", 32, 4, { 4, 2, 2, 2 } },
	{ "4x3x3", 36, 3, { 4, 3, 3 } },
	{ "3x3x2x2", 36, 4, { 3, 3, 2, 2 } },
	{ "4x4x4", 64, 3, { 4, 4, 4 } },
	{ "4x4x2x2", 64, 4, { 4, 4, 2, 2 } },
	{ "6x4x4", 96, 3, { 6, 4, 4 } },
	{ "4x4x3x2", 96, 4, { 4, 4, 3, 2 } },
	{ "8x6x3", 144, 3, { 8, 6, 3 } },
	{ "4x4x3x3", 144, 4, { 4, 4, 3, 3 } },
};
#define NTORI ((int)(sizeof(tori) / sizeof(*tori)))

static const char *const methods[] = { "torus-base", "torus-fs", "torus-mss",
				       "torus-anchor" };
static const char *const method_label[] = { "base", "FS", "FS+MSS", "anchor" };
enum { M_BASE, M_FS, M_MSS, M_ANCHOR, NMETH };

/* What the paper reports (averages over systems and windows). */
#define PAPER_U_VS_BASE 7.0
#define PAPER_U_VS_FS 0.5
#define PAPER_Q_VS_BASE (-36.6)
#define PAPER_Q_VS_FS (-2.0)

#define MAX_WINDOWS 16
#define MAX_SEEDS 64

/* ---- options --------------------------------------------------------- */

typedef enum window_rule {
	/* the project's window-ff: the window is the first w jobs still
	 * waiting, so a started job's place is taken by the next one */
	RULE_QUEUE,
	/* the paper's definition: waiting jobs whose arrival index i has
	 * i - imin < w, imin the oldest waiting job; jobs started out of
	 * order leave holes that are not refilled */
	RULE_INDEX,
} window_rule;

/* The job sizes of a node count (the paper's histograms are lost). */
typedef enum size_set {
	/* powers of two that a box of every torus of the node count holds:
	 * "mostly powers of two" */
	SIZES_POW2,
	/* every size that a box of every torus of the node count holds */
	SIZES_BOX,
} size_set;

typedef struct bench_opts {
	bool quick, smoke;
	bool memo;          /* wrap the allocator in the failure memo */
	int nseeds, first_seed;
	double days, load;
	int windows[MAX_WINDOWS], nwindows;
	bool use_torus[NTORI];
	int workers;
	int ntransit;
	tp_torus_distance distance;
	bool base_no_seam;  /* base skips boxes across a ring's seam */
	tp_torus_base_shapes base_shapes; /* base's reading of the shapes */
	window_rule rule;
	size_set sizes;
	const char *topogen;
	const char *out;  /* data files directory, NULL = none */
} bench_opts;

/* ---- results shared between the workers ------------------------------ */

typedef struct task {
	int torus, seed, method, window; /* window: index into opts.windows */
	int repeat;                      /* smoke: 0 first run, 1 the rerun */
} task;

typedef struct result {
	int done;           /* 1 ok, -1 failed */
	double util;        /* on requested nodes: the paper's useful time */
	double util_alloc;  /* on allocated nodes (transit nodes too) */
	double qw, wait_s;
	double cpu_s;
	uint64_t passes;
	size_t jobs, completed;
	uint64_t hash;      /* schedule fingerprint */
	uint64_t asked, answered; /* placement calls, answered by the memo */
	char err[200];
} result;

typedef struct shared {
	long next;          /* next task to take (atomic) */
	result res[];
} shared;

/* ---- small helpers ----------------------------------------------------- */

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static double pct(double a, double b)
{
	return b != 0 ? 100.0 * (a / b - 1.0) : NAN;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "bench_torus_paper: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* ---- option parsing ---------------------------------------------------- */

static void usage(void)
{
	printf("usage: bench_torus_paper [--quick | --smoke] [--seeds K] [--first-seed S]\n"
	       "         [--days D] [--load L] [--windows W,W,...] [--tori LABEL,...]\n"
	       "         [--workers N] [--ntransit K] [--window-rule index|queue]\n"
	       "         [--sizes pow2|box]\n"
	       "         [--distance manhattan|torus] [--base-shapes canonical|all]\n"
	       "         [--base-no-seam] [--no-memo] [--topogen PATH] [--out DIR | --no-out]\n"
	       "defaults: all ten tori, windows 1,2,4,...,128, 3 seeds from 1, arrivals\n"
	       "over 40 days at offered load 1.0, 2 workers, Ntransit 0, distance\n"
	       "manhattan, base shapes canonical (one orientation per factorisation,\n"
	       "the paper's base; all: every orientation), window rule index (the\n"
	       "paper's: arrival index below the oldest waiting job's + w; queue: the\n"
	       "first w waiting jobs), sizes pow2 (powers of two that a box holds,\n"
	       "weight 1/size; box: every size a box holds, weight 1/size), failure\n"
	       "memo on, data files in ./torus-paper.  U counts the nodes a job\n"
	       "asked for (the paper's useful time; transit nodes are not useful).\n"
	       "--base-no-seam: base never places a box across a ring's seam (a\n"
	       "sensitivity check, see the doc).\n"
	       "--quick: windows 1,4,16,128 over 8 days, no data files (< 1 min).\n"
	       "--smoke: torus 4x4x2, windows 1,8, one seed, 8 days, every run twice\n"
	       "(the rerun without the memo, in the other worker); exit 1 unless the\n"
	       "schedules agree and every job completes.  See doc/torus-experiment.md.\n");
}

static long parse_num(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi)
		die("%s: bad value '%s' (expected an integer in %ld..%ld)", opt, s, lo, hi);
	return v;
}

static double parse_real(const char *opt, const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !(v > 0) || !isfinite(v))
		die("%s: bad value '%s' (expected a number > 0)", opt, s);
	return v;
}

static void parse_windows(const char *s, bench_opts *o)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	o->nwindows = 0;
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		if (o->nwindows == MAX_WINDOWS)
			die("--windows: more than 16 windows in '%s'", s);
		o->windows[o->nwindows++] = (int)parse_num("--windows", tok, 1, 1 << 20);
	}
	if (!o->nwindows)
		die("--windows: empty list '%s'", s);
}

static void parse_tori(const char *s, bench_opts *o)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	memset(o->use_torus, 0, sizeof(o->use_torus));
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		int k = 0;
		while (k < NTORI && strcmp(tori[k].label, tok))
			k++;
		if (k == NTORI)
			die("--tori: unknown torus '%s' (the paper's ten: 4x4x2, "
			    "4x2x2x2, 4x3x3, 3x3x2x2, 4x4x4, 4x4x2x2, 6x4x4, "
			    "4x4x3x2, 8x6x3, 4x4x3x3)", tok);
		o->use_torus[k] = true;
	}
}

/* Mode presets first, so explicit options given with them still win. */
static void set_defaults(bench_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->nseeds = 3;
	o->first_seed = 1;
	o->days = 40;
	o->load = 1.0;
	parse_windows("1,2,4,8,16,32,64,128", o);
	for (int k = 0; k < NTORI; k++)
		o->use_torus[k] = true;
	o->workers = 2;
	o->distance = TP_TORUS_DIST_MANHATTAN;
	o->base_shapes = TP_TORUS_SHAPES_CANONICAL;
	o->rule = RULE_INDEX;
	o->memo = true;
	o->out = "torus-paper";
#ifdef TP_PAPER_SMOKE
	o->smoke = true;
#endif
	for (int i = 1; i < argc; i++) {
		o->quick |= !strcmp(argv[i], "--quick");
		o->smoke |= !strcmp(argv[i], "--smoke");
	}
	if (o->quick) {
		o->days = 8;
		parse_windows("1,4,16,128", o);
		o->out = NULL;
	}
	if (o->smoke) {
		o->nseeds = 1;
		o->days = 8;
		parse_windows("1,8", o);
		parse_tori("4x4x2", o);
		o->out = NULL;
	}
}

static const char *default_topogen(const char *argv0)
{
	static char path[4096];
	const char *env = getenv("TOPOGEN");
	if (env && *env)
		return env;
	const char *slash = strrchr(argv0, '/');
	int dirlen = slash ? (int)(slash - argv0) : 1;
	snprintf(path, sizeof(path), "%.*s/../src/tools/topogen", dirlen,
		 slash ? argv0 : ".");
	return path;
}

static void parse_args(int argc, char **argv, bench_opts *o)
{
	set_defaults(o, argc, argv);
	o->topogen = default_topogen(argv[0]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--quick") || !strcmp(a, "--smoke"))
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			exit(0);
		}
		if (!strcmp(a, "--no-out")) {
			o->out = NULL;
			continue;
		}
		if (!strcmp(a, "--no-memo")) {
			o->memo = false;
			continue;
		}
		if (!strcmp(a, "--base-no-seam")) {
			o->base_no_seam = true;
			continue;
		}
		if (!v)
			die("%s: unknown option or missing value", a);
		i++;
		if (!strcmp(a, "--seeds"))
			o->nseeds = (int)parse_num(a, v, 1, MAX_SEEDS);
		else if (!strcmp(a, "--first-seed"))
			o->first_seed = (int)parse_num(a, v, 0, 1000000);
		else if (!strcmp(a, "--days"))
			o->days = parse_real(a, v);
		else if (!strcmp(a, "--load"))
			o->load = parse_real(a, v);
		else if (!strcmp(a, "--windows"))
			parse_windows(v, o);
		else if (!strcmp(a, "--tori"))
			parse_tori(v, o);
		else if (!strcmp(a, "--workers"))
			o->workers = (int)parse_num(a, v, 1, 64);
		else if (!strcmp(a, "--ntransit"))
			o->ntransit = (int)parse_num(a, v, 0, 1000);
		else if (!strcmp(a, "--topogen"))
			o->topogen = v;
		else if (!strcmp(a, "--out"))
			o->out = v;
		else if (!strcmp(a, "--distance")) {
			if (!strcmp(v, "manhattan"))
				o->distance = TP_TORUS_DIST_MANHATTAN;
			else if (!strcmp(v, "torus"))
				o->distance = TP_TORUS_DIST_TORUS;
			else
				die("--distance: expected manhattan or torus, got '%s'", v);
		} else if (!strcmp(a, "--base-shapes")) {
			if (tp_torus_base_shapes_parse(v, &o->base_shapes))
				die("--base-shapes: expected canonical or all, got '%s'", v);
		} else if (!strcmp(a, "--sizes")) {
			if (!strcmp(v, "pow2"))
				o->sizes = SIZES_POW2;
			else if (!strcmp(v, "box"))
				o->sizes = SIZES_BOX;
			else
				die("--sizes: expected pow2 or box, got '%s'", v);
		} else if (!strcmp(a, "--window-rule")) {
			if (!strcmp(v, "queue"))
				o->rule = RULE_QUEUE;
			else if (!strcmp(v, "index"))
				o->rule = RULE_INDEX;
			else
				die("--window-rule: expected queue or index, got '%s'", v);
		} else
			die("unknown option %s", a);
	}
}

/* ---- workloads --------------------------------------------------------- */

static tp_torus *make_torus(int k, int ntransit, tp_torus_distance distance,
			    tp_torus_base_shapes base_shapes)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(tori[k].ndims, tori[k].dims, NULL, &err);
	if (!t)
		die("torus: %s", err.msg);
	tp_torus_opts to = *tp_torus_options(t);
	to.ntransit = ntransit;
	to.distance = distance;
	to.base_shapes = base_shapes;
	if (tp_torus_set_options(t, &to, &err))
		die("torus options: %s", err.msg);
	return t;
}

/* Can a box of every paper torus of `nodes` nodes hold `size` (with
 * Ntransit)?  The paper lists every torus's dimensions non-increasing,
 * so a size has a canonical shape exactly when it has any: the answer is
 * the same under both base readings. */
static bool every_torus_holds(int nodes, int size, int ntransit)
{
	bool fits = true;
	for (int k = 0; k < NTORI && fits; k++) {
		if (tori[k].nodes != nodes)
			continue;
		tp_torus *t = make_torus(k, ntransit, TP_TORUS_DIST_MANHATTAN,
					 TP_TORUS_SHAPES_ALL);
		tp_torus_shape *sh = NULL;
		fits = tp_torus_shapes(t, size, ntransit, &sh) > 0;
		free(sh);
		tp_torus_free(t);
	}
	return fits;
}

/* The job sizes of a node count, weight 1/size: the powers of two
 * (--sizes pow2; the paper's histograms are lost, it says sizes are
 * mostly powers of two) or every size (--sizes box) that a box of every
 * torus of that node count can hold.  A size no box can hold (32 on 36
 * nodes, 128 on 144) would wait forever, so it is left out. */
static void size_weights(int nodes, int ntransit, size_set set, char *buf,
			 size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int s = 1; s <= nodes; s = set == SIZES_POW2 ? 2 * s : s + 1)
		if (every_torus_holds(nodes, s, ntransit) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%d:%.10g",
						 used ? "," : "", s, 1.0 / s);
	if (used >= len)
		die("%d nodes: the size list does not fit in %zu bytes", nodes, len);
}

/* Run topogen torus into path; exits on failure. */
static void run_topogen(const bench_opts *o, int nodes, int seed,
			const char *weights, const char *path)
{
	char n[16], d[32], l[32], s[16];
	snprintf(n, sizeof(n), "%d", nodes);
	snprintf(d, sizeof(d), "%.10g", o->days);
	snprintf(l, sizeof(l), "%.10g", o->load);
	snprintf(s, sizeof(s), "%d", seed);
	char *args[] = { (char *)o->topogen, "torus", "--nodes", n, "--days", d,
			 "--load", l, "--size-weights", (char *)weights, "--seed",
			 s, "-o", (char *)path, NULL };
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		execv(o->topogen, args);
		fprintf(stderr, "bench_torus_paper: cannot run %s: %s (build it, "
			"or give --topogen or TOPOGEN)\n", o->topogen, strerror(errno));
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		die("topogen failed writing %s (status %d)", path, st);
}

typedef struct workload_set {
	/* by the first selected torus of each node count */
	tp_workload w[NTORI][MAX_SEEDS];
	int owner[NTORI];                /* torus k uses w[owner[k]] */
	char weights[NTORI][4096];
} workload_set;

/* One workload per node count and seed, shared by both tori of the node
 * count, all methods and all windows (common random numbers). */
static void make_workloads(const bench_opts *o, workload_set *ws)
{
	char dir[] = "/tmp/bench_torus_paper.XXXXXX";
	if (!mkdtemp(dir))
		die("mkdtemp: %s", strerror(errno));
	for (int k = 0; k < NTORI; k++) {
		int first = 0;
		while (!o->use_torus[first] || tori[first].nodes != tori[k].nodes)
			if (++first == NTORI)
				break;
		ws->owner[k] = first;
		if (first != k)
			continue;
		size_weights(tori[k].nodes, o->ntransit, o->sizes, ws->weights[k],
			     sizeof(ws->weights[k]));
		for (int s = 0; s < o->nseeds; s++) {
			char path[128];
			tp_error err;
			snprintf(path, sizeof(path), "%s/n%d-s%d.swf", dir,
				 tori[k].nodes, o->first_seed + s);
			run_topogen(o, tori[k].nodes, o->first_seed + s,
				    ws->weights[k], path);
			if (tp_swf_read(path, NULL, &ws->w[k][s], &err))
				die("%s", err.msg);
			unlink(path);
		}
	}
	rmdir(dir);
}

/* ---- base without seam crossings (--base-no-seam) ------------------------- */

/* torus-base's search (shapes by mean diameter, then low-corner index,
 * first free box wins) restricted to boxes that do not cross a ring's
 * seam (off + len <= d unless the box spans the ring).  A sensitivity
 * check: the paper does not say whether the Angara method placed boxes
 * across the seam, and fewer choices could explain a weaker base. */
static bool crosses_seam(const tp_torus *t, const tp_box *b)
{
	const int *dims = tp_torus_dims(t);
	for (int i = 0; i < tp_torus_ndims(t); i++)
		if (b->len[i] < dims[i] && b->off[i] + b->len[i] > dims[i])
			return true;
	return false;
}

static int no_seam_place(tp_alloc *a, const tp_nodeset *avail,
		const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	const tp_torus *t = a->state;
	tp_torus_shape *sh;
	tp_nodeset_zero(out);
	int nsh = tp_torus_shapes_read(t, nodes, tp_torus_ntransit(t),
				       tp_torus_options(t)->base_shapes, &sh);
	for (int r = 0; r < nsh; r++) {
		long np = tp_torus_placements(t, sh[r].len);
		for (long k = 0; k < np; k++) {
			tp_box box;
			tp_torus_placement(t, sh[r].len, k, &box);
			if (!crosses_seam(t, &box) &&
			    tp_torus_box_all_free(t, &box, avail)) {
				tp_torus_box_nodes(t, &box, out);
				free(sh);
				return 0;
			}
		}
	}
	free(sh);
	return -1;
}

static const tp_alloc_ops no_seam_ops = {
	.name = "torus-base-no-seam",
	.place = no_seam_place,
};


/* ---- one run ------------------------------------------------------------ */

static uint64_t schedule_hash(const tp_sim_result *r)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < r->nrec; i++) {
		const tp_record *x = &r->rec[i];
		h = fnv(h, &x->id, sizeof(x->id));
		h = fnv(h, &x->start, sizeof(x->start));
		if (x->nodelist)
			h = fnv(h, x->nodelist, strlen(x->nodelist));
	}
	return h;
}

static void run_task(const bench_opts *o, const workload_set *ws,
		     const task *tk, result *res)
{
	tp_error err = { "" };
	const tp_workload *w = &ws->w[ws->owner[tk->torus]][tk->seed];
	tp_torus *t = make_torus(tk->torus, o->ntransit, o->distance,
				 o->base_shapes);
	tp_alloc_cfg cfg = { .nnodes = tp_torus_nnodes(t), .torus = t };
	tp_policy_opts po;
	tp_policy_opts_default(&po);
	po.window = o->windows[tk->window];
	po.window_rule = o->rule == RULE_INDEX ? TP_WINDOW_INDEX : TP_WINDOW_QUEUE;
	tp_policy *p = NULL;
	tp_alloc *a = o->base_no_seam && tk->method == M_BASE
			    ? tp_alloc_new(&no_seam_ops, cfg.nnodes, t)
			    : tp_alloc_create(methods[tk->method], &cfg, &err);
	/* smoke: the rerun goes without the memo, so the check covers it */
	bool use_memo = o->memo && !tk->repeat;
	if (a && use_memo && !(a = tp_alloc_memo_wrap(a)))
		tp_errorf(&err, "out of memory");
	if (a)
		p = tp_policy_create("window-ff", &po, &err);
	tp_sim_result r = { 0 };
	tp_engine_opts eo = { .keep_nodelists = true };
	double c0 = cpu_now();
	int rc = a && p ? tp_simulate(w, p, a, &eo, &r, &err) : -1;
	res->cpu_s = cpu_now() - c0;
	if (rc) {
		snprintf(res->err, sizeof(res->err), "%s", err.msg);
		res->done = -1;
	} else {
		tp_summary s;
		tp_summarize(&r, &s);
		res->util = s.useful_utilisation;
		res->util_alloc = s.utilisation;
		res->qw = s.mean_wait_over_estimate;
		res->wait_s = s.mean_wait;
		res->passes = r.passes;
		res->jobs = w->njobs;
		res->completed = s.jobs - s.killed;
		res->hash = schedule_hash(&r);
		if (use_memo) {
			tp_alloc_memo_stats(a, &res->asked, &res->answered);
		}
		res->done = 1;
	}
	tp_sim_result_fini(&r);
	if (p)
		tp_policy_destroy(p);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}

/* ---- tasks and workers ---------------------------------------------------- */

/* Longest first, so the last tasks left are short.  With the memo, cost
 * grows with the torus, MSS costs about three times the others (phi of
 * every candidate), and larger windows cost a little more. */
static double task_weight(const bench_opts *o, const task *t)
{
	return (double)tori[t->torus].nodes * (t->method == M_MSS ? 3 : 1) *
	       (8 + log2(o->windows[t->window]));
}

static const bench_opts *sort_opts;
static int cmp_task(const void *a, const void *b)
{
	double x = task_weight(sort_opts, a), y = task_weight(sort_opts, b);
	return x < y ? 1 : x > y ? -1 : 0;
}

static task *make_tasks(const bench_opts *o, long *ntasks)
{
	int repeats = o->smoke ? 2 : 1;
	task *ts = malloc(sizeof(*ts) * NTORI * (size_t)o->nseeds * NMETH *
			  (size_t)o->nwindows * (size_t)repeats);
	long n = 0;
	for (int k = 0; k < NTORI; k++)
		for (int s = 0; o->use_torus[k] && s < o->nseeds; s++)
			for (int m = 0; m < NMETH; m++)
				for (int w = 0; w < o->nwindows; w++)
					for (int r = 0; r < repeats; r++)
						ts[n++] = (task){ k, s, m, w, r };
	sort_opts = o;
	qsort(ts, (size_t)n, sizeof(*ts), cmp_task);
	*ntasks = n;
	return ts;
}

static void worker(const bench_opts *o, const workload_set *ws,
		   const task *ts, long ntasks, shared *sh)
{
	for (;;) {
		long k = __atomic_fetch_add(&sh->next, 1, __ATOMIC_SEQ_CST);
		if (k >= ntasks)
			break;
		run_task(o, ws, &ts[k], &sh->res[k]);
	}
}

/* Smoke mode: worker i runs the tasks with repeat % workers == i, so a
 * task and its rerun run in different processes (given two workers) and
 * a difference would show state leaking between runs or processes. */
static void smoke_worker(const bench_opts *o, const workload_set *ws,
			 const task *ts, long ntasks, shared *sh, int id)
{
	for (long k = 0; k < ntasks; k++)
		if (ts[k].repeat % o->workers == id)
			run_task(o, ws, &ts[k], &sh->res[k]);
}

static void run_all(const bench_opts *o, const workload_set *ws,
		    const task *ts, long ntasks, shared *sh)
{
	fflush(NULL);
	pid_t pids[64];
	for (int i = 0; i < o->workers; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (pids[i] == 0) {
			if (o->smoke)
				smoke_worker(o, ws, ts, ntasks, sh, i);
			else
				worker(o, ws, ts, ntasks, sh);
			_exit(0);
		}
	}
	for (int i = 0; i < o->workers; i++) {
		int st;
		if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			die("a worker died (status %d)", st);
	}
}

/* ---- aggregation ------------------------------------------------------------ */

/* Means over the seeds, per torus, method and window, and each seed's
 * own values (for the spread of the headline numbers). */
typedef struct table {
	double u[NTORI][NMETH][MAX_WINDOWS];  /* useful (requested nodes) */
	double ua[NTORI][NMETH][MAX_WINDOWS]; /* allocated nodes */
	double q[NTORI][NMETH][MAX_WINDOWS];
	double us[MAX_SEEDS][NTORI][NMETH][MAX_WINDOWS];
	double qs[MAX_SEEDS][NTORI][NMETH][MAX_WINDOWS];
	double cpu[NMETH];
	uint64_t passes[NMETH];
	uint64_t asked, answered;
	int failed, incomplete, irreproducible;
} table;

static void aggregate(const bench_opts *o, const task *ts, long ntasks,
		      const shared *sh, table *tb)
{
	memset(tb, 0, sizeof(*tb));
	for (long i = 0; i < ntasks; i++) {
		const task *t = &ts[i];
		const result *r = &sh->res[i];
		if (r->done != 1) {
			fprintf(stderr, "FAILED %s %s w=%d seed %d: %s\n",
				tori[t->torus].label, methods[t->method],
				o->windows[t->window], o->first_seed + t->seed,
				r->done ? r->err : "not run");
			tb->failed++;
			continue;
		}
		if (r->completed != r->jobs) {
			fprintf(stderr, "INCOMPLETE %s %s w=%d seed %d: %zu of %zu jobs\n",
				tori[t->torus].label, methods[t->method],
				o->windows[t->window], o->first_seed + t->seed,
				r->completed, r->jobs);
			tb->incomplete++;
		}
		tb->cpu[t->method] += r->cpu_s;
		tb->passes[t->method] += r->passes;
		tb->asked += r->asked;
		tb->answered += r->answered;
		if (t->repeat)
			continue;
		tb->u[t->torus][t->method][t->window] += r->util / o->nseeds;
		tb->ua[t->torus][t->method][t->window] += r->util_alloc / o->nseeds;
		tb->q[t->torus][t->method][t->window] += r->qw / o->nseeds;
		tb->us[t->seed][t->torus][t->method][t->window] = r->util;
		tb->qs[t->seed][t->torus][t->method][t->window] = r->qw;
	}
}

/* Smoke: every task and its rerun gave the same schedule. */
static void check_reruns(const bench_opts *o, const task *ts, long ntasks,
			 const shared *sh, table *tb)
{
	for (long i = 0; i < ntasks; i++)
		for (long j = 0; j < ntasks; j++) {
			const task *a = &ts[i], *b = &ts[j];
			if (a->repeat || !b->repeat || a->torus != b->torus ||
			    a->seed != b->seed || a->method != b->method ||
			    a->window != b->window)
				continue;
			const result *x = &sh->res[i], *y = &sh->res[j];
			if (x->hash != y->hash || x->util != y->util || x->qw != y->qw) {
				fprintf(stderr, "IRREPRODUCIBLE %s %s w=%d: %016" PRIx64
					" vs %016" PRIx64 "\n", tori[a->torus].label,
					methods[a->method], o->windows[a->window],
					x->hash, y->hash);
				tb->irreproducible++;
			}
		}
}

/* Mean of one method's values over the selected tori (or only `torus` if
 * >= 0) and windows (or only window index `w` if >= 0). */
static double mean_of(const bench_opts *o, double (*v)[NMETH][MAX_WINDOWS],
		      int torus, int m, int w)
{
	double sum = 0;
	int n = 0;
	for (int k = 0; k < NTORI; k++) {
		if (!o->use_torus[k] || (torus >= 0 && k != torus))
			continue;
		for (int j = 0; j < o->nwindows; j++) {
			if (w >= 0 && j != w)
				continue;
			sum += v[k][m][j];
			n++;
		}
	}
	return n ? sum / n : NAN;
}

/* Mean over the selected tori and windows of the per-(torus, window)
 * relative difference a/b - 1, in %. */
static double mean_ratio(const bench_opts *o, double (*v)[NMETH][MAX_WINDOWS],
			 int a, int b, int w)
{
	double sum = 0;
	int n = 0;
	for (int k = 0; k < NTORI; k++)
		for (int j = 0; o->use_torus[k] && j < o->nwindows; j++)
			if (w < 0 || j == w) {
				sum += pct(v[k][a][j], v[k][b][j]);
				n++;
			}
	return n ? sum / n : NAN;
}

/* The paper's averaging (figures 5 and 6): per window, each method's
 * values averaged over the systems, then the relative difference of
 * those means; the headline is the mean of that over the windows. */
static double mean_window_ratio(const bench_opts *o,
				double (*v)[NMETH][MAX_WINDOWS], int a, int b)
{
	double sum = 0;
	for (int j = 0; j < o->nwindows; j++)
		sum += pct(mean_of(o, v, -1, a, j), mean_of(o, v, -1, b, j));
	return sum / o->nwindows;
}

/* ---- report ------------------------------------------------------------------ */

static void print_setup(const bench_opts *o, const workload_set *ws)
{
	printf("Angara torus experiment (doc/methods.md B): %d seeds from %d, "
	       "arrivals over %g days, offered load %g, Ntransit %d, distance %s,%s window rule %s\n",
	       o->nseeds, o->first_seed, o->days, o->load, o->ntransit,
	       tp_torus_distance_name(o->distance),
	       o->base_no_seam ? " base without seam crossings," : "",
	       o->rule == RULE_QUEUE ? "queue (window-ff)" : "index (paper)");
	printf("  sizes %s (weight 1/size); U on requested nodes (useful time)\n",
	       o->sizes == SIZES_POW2 ? "pow2: the powers of two a box holds"
				      : "box: every size a box holds");
	printf("  base shapes %s (%s); anchor = Slurm 26.05 topology/torus3d's "
	       "placements (torus-anchor)\n", tp_torus_base_shapes_name(o->base_shapes),
	       o->base_shapes == TP_TORUS_SHAPES_CANONICAL
		       ? "one orientation per factorisation, the paper's base"
		       : "every orientation, a stronger base than the paper's");
	for (int k = 0; k < NTORI; k++) {
		if (ws->owner[k] != k || !ws->weights[k][0])
			continue;
		printf("  %3d nodes: sizes %s; jobs per seed:", tori[k].nodes,
		       ws->weights[k]);
		for (int s = 0; s < o->nseeds; s++)
			printf(" %zu", ws->w[k][s].njobs);
		printf("\n");
	}
}

static void print_by_torus_window(const bench_opts *o, const table *tb)
{
	printf("\nPer torus and window (means over seeds): U in %%, Q = mean Q/Wtime\n");
	printf("%-8s %4s %7s %7s %7s %7s  %10s %10s %10s %10s\n", "torus", "w",
	       "U base", "U FS", "U MSS", "U anch", "Q base", "Q FS", "Q MSS",
	       "Q anch");
	for (int k = 0; k < NTORI; k++)
		for (int j = 0; o->use_torus[k] && j < o->nwindows; j++) {
			printf("%-8s %4d", tori[k].label, o->windows[j]);
			for (int m = 0; m < NMETH; m++)
				printf(" %7.2f", 100 * tb->u[k][m][j]);
			printf(" ");
			for (int m = 0; m < NMETH; m++)
				printf(" %10.2f", tb->q[k][m][j]);
			printf("\n");
		}
}

/* One row: U and Q of each method, dU = U(MSS) - U(base) in points, and
 * the relative differences of MSS against base, FS and anchor. */
static void print_summary_row(const char *label, const double *u,
			      const double *q)
{
	printf("%-9s %6.2f %6.2f %6.2f %6.2f %+6.2f %+6.2f %+6.2f %+6.2f  "
	       "%9.2f %9.2f %9.2f %9.2f %+7.1f %+6.1f %+6.1f\n", label,
	       100 * u[M_BASE], 100 * u[M_FS], 100 * u[M_MSS], 100 * u[M_ANCHOR],
	       100 * (u[M_MSS] - u[M_BASE]), pct(u[M_MSS], u[M_BASE]),
	       pct(u[M_MSS], u[M_FS]), pct(u[M_MSS], u[M_ANCHOR]),
	       q[M_BASE], q[M_FS], q[M_MSS], q[M_ANCHOR], pct(q[M_MSS], q[M_BASE]),
	       pct(q[M_MSS], q[M_FS]), pct(q[M_MSS], q[M_ANCHOR]));
}

static void print_summary_header(const char *first)
{
	printf("%-9s %6s %6s %6s %6s %6s %6s %6s %6s  %9s %9s %9s %9s %7s %6s %6s\n",
	       first, "Ubase", "UFS", "UMSS", "Uanch", "dU", "rUb", "rUfs", "rUa",
	       "Qbase", "QFS", "QMSS", "Qanch", "rQb", "rQfs", "rQa");
}

static void print_by_torus(const bench_opts *o, table *tb)
{
	printf("\nPer torus (means over windows and seeds); dU = U(MSS) - U(base) in "
	       "points, r = relative difference of MSS in %%\n");
	print_summary_header("torus");
	for (int k = 0; k < NTORI; k++) {
		if (!o->use_torus[k])
			continue;
		double u[NMETH], q[NMETH];
		for (int m = 0; m < NMETH; m++) {
			u[m] = mean_of(o, tb->u, k, m, -1);
			q[m] = mean_of(o, tb->q, k, m, -1);
		}
		print_summary_row(tori[k].label, u, q);
	}
	double u[NMETH], q[NMETH];
	for (int m = 0; m < NMETH; m++) {
		u[m] = mean_of(o, tb->u, -1, m, -1);
		q[m] = mean_of(o, tb->q, -1, m, -1);
	}
	print_summary_row("all", u, q);
}

/* Torus k's part of the gap between FS+MSS and `other`: the overall
 * mean is the mean of the per-torus means, so the gap is the mean of the
 * per-torus gaps and torus k's share is its gap over their sum. */
static double gap_share(const bench_opts *o, double (*v)[NMETH][MAX_WINDOWS],
			int k, int other)
{
	double sum = 0;
	for (int i = 0; i < NTORI; i++)
		if (o->use_torus[i])
			sum += mean_of(o, v, i, M_MSS, -1) - mean_of(o, v, i, other, -1);
	return 100 * (mean_of(o, v, k, M_MSS, -1) - mean_of(o, v, k, other, -1)) / sum;
}

/* The torus that drives the gap to base under the canonical reading:
 * 3x3x2x2, where base's 4-node jobs must lie 2x2 in the 3x3 rings. */
#define GAP_TORUS "3x3x2x2"

static int torus_index(const char *label)
{
	for (int k = 0; k < NTORI; k++)
		if (!strcmp(tori[k].label, label))
			return k;
	return -1;
}

/* Per torus, the share of FS+MSS's gap to base and to anchor, then the
 * headline numbers without the torus that gives most of it. */
static void print_gap_shares(const bench_opts *o, table *tb)
{
	printf("\nShare of the gap per torus, %% (the FS+MSS - other difference of the\n"
	       "torus over the sum of the tori's; means over windows and seeds)\n");
	printf("%-9s %9s %9s %9s %9s\n", "torus", "U base", "Q base", "U anch",
	       "Q anch");
	for (int k = 0; k < NTORI; k++)
		if (o->use_torus[k])
			printf("%-9s %+9.1f %+9.1f %+9.1f %+9.1f\n", tori[k].label,
			       gap_share(o, tb->u, k, M_BASE), gap_share(o, tb->q, k, M_BASE),
			       gap_share(o, tb->u, k, M_ANCHOR),
			       gap_share(o, tb->q, k, M_ANCHOR));
	int g = torus_index(GAP_TORUS);
	if (!o->use_torus[g])
		return;
	bench_opts rest = *o;
	rest.use_torus[g] = false;
	bool any = false;
	for (int k = 0; k < NTORI; k++)
		any |= rest.use_torus[k];
	printf("%s gives %.1f %% of the utilisation gap to base and %.1f %% of the "
	       "Q/Wtime gap.\n", GAP_TORUS, gap_share(o, tb->u, g, M_BASE),
	       gap_share(o, tb->q, g, M_BASE));
	if (any)
		printf("Without it, FS+MSS vs base: U %+.2f %%, Q/Wtime %+.2f %% per window "
		       "(figs 5, 6); U %+.2f %%, Q/Wtime %+.2f %% ratio of means\n",
		       mean_window_ratio(&rest, tb->u, M_MSS, M_BASE),
		       mean_window_ratio(&rest, tb->q, M_MSS, M_BASE),
		       pct(mean_of(&rest, tb->u, -1, M_MSS, -1),
			   mean_of(&rest, tb->u, -1, M_BASE, -1)),
		       pct(mean_of(&rest, tb->q, -1, M_MSS, -1),
			   mean_of(&rest, tb->q, -1, M_BASE, -1)));
}

/* The goal of the head-to-head: FS+MSS at least anchor's utilisation and
 * at most its delay on every window (means over the tori). */
static void print_anchor_goal(const bench_opts *o, table *tb)
{
	int u_ok = 0, q_ok = 0;
	char missed[256] = "";
	size_t used = 0;
	for (int j = 0; j < o->nwindows; j++) {
		bool u = mean_of(o, tb->u, -1, M_MSS, j) >= mean_of(o, tb->u, -1, M_ANCHOR, j);
		bool q = mean_of(o, tb->q, -1, M_MSS, j) <= mean_of(o, tb->q, -1, M_ANCHOR, j);
		u_ok += u;
		q_ok += q;
		if ((!u || !q) && used < sizeof(missed))
			used += (size_t)snprintf(missed + used, sizeof(missed) - used,
						 " w=%d (%s)", o->windows[j],
						 !u && !q ? "U, Q" : !u ? "U" : "Q");
	}
	printf("\nFS+MSS vs anchor per window (means over the tori): U >= anchor on %d "
	       "of %d windows, Q/Wtime <= anchor on %d of %d;%s%s\n", u_ok,
	       o->nwindows, q_ok, o->nwindows, used ? " not on" : " every window",
	       missed);
}

static void print_by_window(const bench_opts *o, table *tb)
{
	printf("\nPer window, means over tori and seeds (the paper's figures 5 and 6)\n");
	print_summary_header("window");
	for (int j = 0; j < o->nwindows; j++) {
		double u[NMETH], q[NMETH];
		char label[16];
		for (int m = 0; m < NMETH; m++) {
			u[m] = mean_of(o, tb->u, -1, m, j);
			q[m] = mean_of(o, tb->q, -1, m, j);
		}
		snprintf(label, sizeof(label), "%d", o->windows[j]);
		print_summary_row(label, u, q);
	}
}

/* One quantity of FS+MSS against `other` under the three averagings. */
static void print_headline_row(const bench_opts *o, double (*v)[NMETH][MAX_WINDOWS],
			       int other, const char *what, double paper)
{
	char pp[16] = "      -";
	if (!isnan(paper))
		snprintf(pp, sizeof(pp), "%+6.1f %%", paper);
	printf("  %-28s %+8.2f %%   %+8.2f %%   %+8.2f %%   %s\n", what,
	       mean_window_ratio(o, v, M_MSS, other),
	       pct(mean_of(o, v, -1, M_MSS, -1), mean_of(o, v, -1, other, -1)),
	       mean_ratio(o, v, M_MSS, other, -1), pp);
}

static void print_headline(const bench_opts *o, table *tb)
{
	static const struct {
		int m;
		const char *name;
		double pu, pq;
	} vs[] = {
		{ M_BASE, "base", PAPER_U_VS_BASE, PAPER_Q_VS_BASE },
		{ M_FS, "Find_Systems", PAPER_U_VS_FS, PAPER_Q_VS_FS },
		{ M_ANCHOR, "anchor", NAN, NAN },
	};
	char what[64];
	printf("\nHeadline: FS+MSS against the others (base shapes %s, window rule %s)\n"
	       "  %-28s %10s   %10s   %10s   %8s\n"
	       "  %-28s %10s   %10s   %10s\n", tp_torus_base_shapes_name(o->base_shapes),
	       o->rule == RULE_INDEX ? "index" : "queue", "", "per-window",
	       "ratio of", "per-(torus,", "paper", "", "(figs 5,6)", "means",
	       "window)");
	for (size_t i = 0; i < sizeof(vs) / sizeof(*vs); i++) {
		snprintf(what, sizeof(what), "utilisation vs %s", vs[i].name);
		print_headline_row(o, tb->u, vs[i].m, what, vs[i].pu);
		snprintf(what, sizeof(what), "mean Q/Wtime vs %s", vs[i].name);
		print_headline_row(o, tb->q, vs[i].m, what, vs[i].pq);
	}
	printf("  per-window: the mean over the windows of the relative difference of\n"
	       "  the per-window means over the tori (the paper's figures); ratio of\n"
	       "  means: over all tori and windows at once; per-(torus, window): the\n"
	       "  mean of every torus's and window's own relative difference.\n");
	if (o->ntransit > 0)
		printf("  U above counts requested nodes (useful time); on allocated nodes,\n"
		       "  transit nodes included: base %.2f %%, FS %.2f %%, FS+MSS %.2f %%,"
		       " anchor %.2f %%\n", 100 * mean_of(o, tb->ua, -1, M_BASE, -1),
		       100 * mean_of(o, tb->ua, -1, M_FS, -1),
		       100 * mean_of(o, tb->ua, -1, M_MSS, -1),
		       100 * mean_of(o, tb->ua, -1, M_ANCHOR, -1));
}

/* The headline differences seed by seed (each seed's own means over the
 * tori and windows), with their mean and standard error: how much of a
 * difference the workload draw alone makes. */
static void print_seed_spread(const bench_opts *o, table *tb)
{
	static const int other[] = { M_BASE, M_FS, M_ANCHOR };
	double sum[6] = { 0 }, sq[6] = { 0 };
	printf("\nPer seed (relative differences of MSS, means over tori and windows, %%)\n");
	printf("%-9s %9s %9s %9s %9s %9s %9s\n", "seed", "rU base", "rU FS",
	       "rU anch", "rQ base", "rQ FS", "rQ anch");
	for (int sd = 0; sd < o->nseeds; sd++) {
		printf("%-9d", o->first_seed + sd);
		for (int i = 0; i < 6; i++) {
			double (*v)[NMETH][MAX_WINDOWS] = i < 3 ? tb->us[sd] : tb->qs[sd];
			double r = pct(mean_of(o, v, -1, M_MSS, -1),
				       mean_of(o, v, -1, other[i % 3], -1));
			sum[i] += r;
			sq[i] += r * r;
			printf(" %+9.2f", r);
		}
		printf("\n");
	}
	printf("%-9s", "mean+-se");
	for (int i = 0; i < 6; i++) {
		double n = o->nseeds, m = sum[i] / n;
		double var = n > 1 ? (sq[i] - n * m * m) / (n - 1) : 0;
		printf("  %+.2f+-%.2f", m, sqrt(var > 0 ? var / n : 0));
	}
	printf("\n");
}

/* The paper: "utilisation grows with the window in every experiment". */
static void print_window_trend(const bench_opts *o, const table *tb)
{
	int rising = 0, total = 0, end_up = 0;
	for (int k = 0; k < NTORI; k++)
		for (int m = 0; o->use_torus[k] && m < NMETH; m++) {
			bool mono = true;
			for (int j = 1; j < o->nwindows; j++)
				mono &= tb->u[k][m][j] >= tb->u[k][m][j - 1];
			rising += mono;
			end_up += tb->u[k][m][o->nwindows - 1] > tb->u[k][m][0];
			total++;
		}
	printf("\nWindow trend: U never falls as the window grows in %d of %d "
	       "(torus, method) series; U(largest) > U(smallest) in %d of %d\n",
	       rising, total, end_up, total);
}

static void print_timing(const bench_opts *o, const task *ts, long ntasks,
			 const shared *sh, const table *tb, double wall)
{
	printf("\nTime: %.1f s wall with %d workers; CPU per method:", wall,
	       o->workers);
	for (int m = 0; m < NMETH; m++)
		printf(" %s %.1f s (%.1f us/pass)", method_label[m], tb->cpu[m],
		       tb->passes[m] ? 1e6 * tb->cpu[m] / tb->passes[m] : 0);
	printf("\n");
	if (tb->asked)
		printf("Failure memo answered %.1f %% of %" PRIu64 " placement calls\n",
		       100.0 * tb->answered / tb->asked, tb->asked);
	printf("Slowest runs:");
	long top[5] = { -1, -1, -1, -1, -1 };
	for (long i = 0; i < ntasks; i++)
		for (int s = 0; s < 5; s++)
			if (top[s] < 0 || sh->res[i].cpu_s > sh->res[top[s]].cpu_s) {
				memmove(top + s + 1, top + s, sizeof(*top) * (size_t)(4 - s));
				top[s] = i;
				break;
			}
	for (int s = 0; s < 5 && top[s] >= 0; s++) {
		const task *t = &ts[top[s]];
		printf(" %s/%s/w%d %.1f s;", tori[t->torus].label,
		       method_label[t->method], o->windows[t->window],
		       sh->res[top[s]].cpu_s);
	}
	printf("\n");
}

/* ---- data files for contrib/plot/torus-paper.gp ---------------------------- */

static FILE *open_out(const bench_opts *o, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", o->out, name);
	FILE *fp = fopen(path, "w");
	if (!fp)
		die("cannot write %s: %s", path, strerror(errno));
	return fp;
}

static void write_runs(const bench_opts *o, const task *ts, long ntasks,
		       const shared *sh)
{
	FILE *fp = open_out(o, "runs.csv");
	fprintf(fp, "torus,nodes,method,window,seed,jobs,utilisation,mean_q_over_wtime,"
		"mean_wait_s,passes,cpu_s,schedule_hash,utilisation_allocated\n");
	for (long i = 0; i < ntasks; i++) {
		const task *t = &ts[i];
		const result *r = &sh->res[i];
		if (r->done == 1 && !t->repeat)
			fprintf(fp, "%s,%d,%s,%d,%d,%zu,%.6f,%.6f,%.1f,%" PRIu64
				",%.3f,%016" PRIx64 ",%.6f\n",
				tori[t->torus].label, tori[t->torus].nodes,
				method_label[t->method], o->windows[t->window],
				o->first_seed + t->seed, r->jobs, r->util, r->qw,
				r->wait_s, r->passes, r->cpu_s, r->hash, r->util_alloc);
	}
	fclose(fp);
}

/* by-window.dat: the means over tori; by-torus.dat: one gnuplot data
 * block (index) per torus.  Columns: window, U base/FS/MSS (%),
 * Q base/FS/MSS, then U and Q of anchor (appended, so that the first
 * seven columns keep their places). */
#define DATA_COLUMNS "# window Ubase UFS UMSS Qbase QFS QMSS Uanchor Qanchor"
static void write_curve(FILE *fp, const bench_opts *o, table *tb, int torus)
{
	for (int j = 0; j < o->nwindows; j++) {
		fprintf(fp, "%d", o->windows[j]);
		for (int m = 0; m < M_ANCHOR; m++)
			fprintf(fp, " %.4f", 100 * mean_of(o, tb->u, torus, m, j));
		for (int m = 0; m < M_ANCHOR; m++)
			fprintf(fp, " %.4f", mean_of(o, tb->q, torus, m, j));
		fprintf(fp, " %.4f %.4f\n", 100 * mean_of(o, tb->u, torus, M_ANCHOR, j),
			mean_of(o, tb->q, torus, M_ANCHOR, j));
	}
}

static void write_data(const bench_opts *o, const task *ts, long ntasks,
		       const shared *sh, table *tb)
{
	if (mkdir(o->out, 0777) && errno != EEXIST)
		die("cannot create %s: %s", o->out, strerror(errno));
	write_runs(o, ts, ntasks, sh);
	FILE *fp = open_out(o, "by-window.dat");
	fprintf(fp, DATA_COLUMNS " (means over tori and seeds; base shapes %s)\n",
		tp_torus_base_shapes_name(o->base_shapes));
	write_curve(fp, o, tb, -1);
	fclose(fp);
	fp = open_out(o, "by-torus.dat");
	fprintf(fp, "# tori:");
	for (int k = 0; k < NTORI; k++)
		if (o->use_torus[k])
			fprintf(fp, " %s", tori[k].label);
	fprintf(fp, "\n");
	/* the same list for the plot script, which loads it (a shell
	 * command reading it there would pass the directory's name through
	 * a shell) */
	FILE *gp = open_out(o, "tori.gp");
	fprintf(gp, "tori = '");
	for (int k = 0, sep = 0; k < NTORI; k++)
		if (o->use_torus[k])
			fprintf(gp, "%s%s", sep++ ? " " : "", tori[k].label);
	fprintf(gp, "'\n");
	fclose(gp);
	for (int k = 0; k < NTORI; k++) {
		if (!o->use_torus[k])
			continue;
		fprintf(fp, "# %s\n" DATA_COLUMNS "\n", tori[k].label);
		write_curve(fp, o, tb, k);
		fprintf(fp, "\n\n");
	}
	fclose(fp);
	printf("\nData: %s/runs.csv, by-window.dat, by-torus.dat (plot: gnuplot -e "
	       "\"dir='%s'\" contrib/plot/torus-paper.gp)\n", o->out, o->out);
}

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	static workload_set ws;
	bench_opts o;
	parse_args(argc, argv, &o);
	if (access(o.topogen, X_OK))
		die("workload generator %s not found (build src/tools/topogen, "
		    "or give --topogen or TOPOGEN)", o.topogen);
	double w0 = wall_now();
	make_workloads(&o, &ws);
	print_setup(&o, &ws);
	fflush(stdout);

	long ntasks;
	task *ts = make_tasks(&o, &ntasks);
	size_t shsize = sizeof(shared) + sizeof(result) * (size_t)ntasks;
	shared *sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	run_all(&o, &ws, ts, ntasks, sh);

	static table tb;
	aggregate(&o, ts, ntasks, sh, &tb);
	if (o.smoke)
		check_reruns(&o, ts, ntasks, sh, &tb);
	print_by_torus_window(&o, &tb);
	print_by_torus(&o, &tb);
	print_gap_shares(&o, &tb);
	print_by_window(&o, &tb);
	print_anchor_goal(&o, &tb);
	print_headline(&o, &tb);
	print_seed_spread(&o, &tb);
	print_window_trend(&o, &tb);
	print_timing(&o, ts, ntasks, sh, &tb, wall_now() - w0);
	if (o.out && !tb.failed)
		write_data(&o, ts, ntasks, sh, &tb);
	int bad = tb.failed + tb.incomplete + tb.irreproducible;
	printf("\nChecks: %ld runs, %d failed, %d with jobs not completed, %d "
	       "reruns differing\n", ntasks, tb.failed, tb.incomplete,
	       tb.irreproducible);
	munmap(sh, shsize);
	free(ts);
	for (int k = 0; k < NTORI; k++)
		for (int s = 0; s < MAX_SEEDS; s++)
			tp_workload_fini(&ws.w[k][s]);
	return bad ? 1 : 0;
}
