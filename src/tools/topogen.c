/*
 * topogen.c - seeded synthetic workloads in SWF for the experiments of the
 * torus-allocation and RB_HAR papers (doc/methods.md B and C); see topogen(1).
 *
 * The same arguments and seed always give the same file: every random
 * draw comes from one tp_rng stream, consumed job by job in a fixed order.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/rng.h"
#include "trace/swf.h"
#include "trace/workload.h"
#include "cli/cli.h"

#define DAY 86400.0
#define MAX_SIZES 64

/* A discrete distribution over job sizes. */
typedef struct size_dist {
	int size[MAX_SIZES];
	double weight[MAX_SIZES];
	int n;
	double total;
} size_dist;

typedef struct range {
	double lo, hi;
} range;

typedef struct gen_opts {
	const char *mode;     /* "torus" or "rbhar" */
	const char *out;      /* NULL = stdout */
	uint64_t seed;
	long jobs;            /* 0 = derived (torus: from load) */
	int nodes;            /* torus: machine nodes; rbhar: cores */
	double days;          /* torus arrival window */
	double load;          /* torus: offered load when --jobs is absent */
	const char *weights;  /* torus: --size-weights */
	bool have_fraction;   /* torus: --runtime-fraction given */
	range fraction;       /* torus: run = requested * U[fraction] */
	range interarrival;   /* rbhar: s */
	range estimate;       /* rbhar: estimate = run * U[estimate] */
} gen_opts;

static const char *prog = "topogen";

static void die_usage(const char *fmt, const char *arg)
	__attribute__((noreturn));
static void die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(2);
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: %s torus --nodes N [--jobs J | --load L] [--days D]\n"
		"               [--size-weights inverse|uniform|S:W,...]\n"
		"               [--runtime-fraction LO-HI] [--seed S] [-o FILE]\n"
		"       %s rbhar [--cores C] [--jobs J] [--interarrival LO-HI]\n"
		"               [--estimate-factor LO-HI] [--seed S] [-o FILE]\n"
		"       %s --help | --version\n"
		"Writes an SWF workload (see topogen(1)).\n", prog, prog, prog);
}

/* ---- argument parsing ------------------------------------------------ */

static long parse_long(const char *opt, const char *s, long min, long max)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%s: expected an integer in %ld..%ld, got '%s'",
			 opt, min, max, s);
		die_usage("%s", msg);
	}
	return v;
}

static double parse_double(const char *opt, const char *s, double min)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < min) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%s: expected a number >= %g, got '%s'",
			 opt, min, s);
		die_usage("%s", msg);
	}
	return v;
}

/* "LO-HI", 0 <= LO <= HI. */
static range parse_range(const char *opt, const char *s)
{
	/* The first '-' that is not an exponent sign separates the bounds. */
	const char *dash = NULL;
	for (const char *p = *s ? s + 1 : s; *p && !dash; p++)
		if (*p == '-' && p[-1] != 'e' && p[-1] != 'E')
			dash = p;
	range r;
	char *end;
	if (dash) {
		errno = 0;
		r.lo = strtod(s, &end);
		if (end == dash && !errno) {
			r.hi = strtod(dash + 1, &end);
			if (dash[1] && !*end && !errno && isfinite(r.lo) && isfinite(r.hi) &&
			    r.lo >= 0 && r.lo <= r.hi)
				return r;
		}
	}
	char msg[256];
	snprintf(msg, sizeof(msg), "%s: expected LO-HI with 0 <= LO <= HI, got '%s'",
		 opt, s);
	die_usage("%s", msg);
}

enum {
	O_NODES = 256, O_CORES, O_JOBS, O_LOAD, O_DAYS, O_WEIGHTS, O_FRACTION,
	O_INTERARRIVAL, O_ESTIMATE, O_SEED, O_VERSION,
};

static void parse_args(int argc, char **argv, gen_opts *o)
{
	static const struct option longopts[] = {
		{"nodes", required_argument, NULL, O_NODES},
		{"cores", required_argument, NULL, O_CORES},
		{"jobs", required_argument, NULL, O_JOBS},
		{"load", required_argument, NULL, O_LOAD},
		{"days", required_argument, NULL, O_DAYS},
		{"size-weights", required_argument, NULL, O_WEIGHTS},
		{"runtime-fraction", required_argument, NULL, O_FRACTION},
		{"interarrival", required_argument, NULL, O_INTERARRIVAL},
		{"estimate-factor", required_argument, NULL, O_ESTIMATE},
		{"seed", required_argument, NULL, O_SEED},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, O_VERSION},
		{NULL, 0, NULL, 0},
	};
	static const char *const kinds[] = { "torus", "rbhar", NULL };
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		exit(0);
	}
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		exit(tp_cli_version(prog));
	tp_cli cl;
	tp_cli_init(&cl, prog, longopts, "o:h", argc, argv);
	if (argc < 2) {
		tp_cli_fail(&cl, "the workload kind is required first: torus or rbhar");
		exit(tp_cli_usage_error(prog, cl.msg));
	}
	if (tp_cli_choice(&cl, NULL, argv[1], kinds, "workload kind"))
		exit(tp_cli_usage_error(prog, cl.msg));
	*o = (gen_opts){
		.mode = argv[1], .seed = 1, .days = 120, .load = 1.0,
		.weights = "inverse", .fraction = {1, 1},
		.interarrival = {0, 1000}, .estimate = {0.8, 1.5},
		.nodes = strcmp(argv[1], "rbhar") ? 0 : 16,
	};
	bool torus = !strcmp(o->mode, "torus");
	int c;
	const char *val;
	/* the kind is argv[0] of the options */
	tp_cli_init(&cl, prog, longopts, "o:h", argc - 1, argv + 1);
	while ((c = tp_cli_next(&cl, &val)) != -1) {
		if (c == TP_CLI_ERROR)
			exit(tp_cli_usage_error(prog, cl.msg));
		const char *opt = "";
		for (const struct option *l = longopts; l->name; l++)
			if (l->val == c)
				opt = l->name;
		bool torus_only = c == O_NODES || c == O_LOAD || c == O_DAYS ||
				  c == O_WEIGHTS || c == O_FRACTION;
		bool rbhar_only = c == O_CORES || c == O_INTERARRIVAL || c == O_ESTIMATE;
		if ((torus_only && !torus) || (rbhar_only && torus))
			die_usage("option '--%s' does not apply to this workload kind", opt);
		switch (c) {
		case O_NODES: o->nodes = (int)parse_long("--nodes", val, 1, 1 << 24); break;
		case O_CORES: o->nodes = (int)parse_long("--cores", val, 12, 1 << 24); break;
		case O_JOBS: o->jobs = parse_long("--jobs", val, 1, 100000000); break;
		case O_LOAD: o->load = parse_double("--load", val, 1e-9); break;
		case O_DAYS: o->days = parse_double("--days", val, 1e-9); break;
		case O_WEIGHTS: o->weights = val; break;
		case O_FRACTION:
			o->fraction = parse_range("--runtime-fraction", val);
			o->have_fraction = true;
			break;
		case O_INTERARRIVAL: o->interarrival = parse_range("--interarrival", val); break;
		case O_ESTIMATE: o->estimate = parse_range("--estimate-factor", val); break;
		case O_SEED:
			o->seed = (uint64_t)parse_long("--seed", val, 0, INT64_MAX);
			break;
		case 'o': o->out = val; break;
		case 'h': usage(stdout); exit(0);
		case O_VERSION: exit(tp_cli_version(prog));
		}
	}
	if (tp_cli_operands(&cl) < argc - 1)
		die_usage("unexpected argument '%s'", argv[1 + tp_cli_operands(&cl)]);
	if (torus && o->nodes == 0)
		die_usage("%s needs --nodes N", "torus");
}

/* ---- size distributions ---------------------------------------------- */

static void dist_add(size_dist *d, int size, double weight)
{
	d->size[d->n] = size;
	d->weight[d->n] = weight;
	d->n++;
	d->total += weight;
}

/* "inverse": powers of two 1..N with weight 1/size; "uniform": the same
 * sizes, equal weights; else an explicit "S:W,S:W,..." list. */
static void torus_sizes(const char *spec, int nodes, size_dist *d)
{
	memset(d, 0, sizeof(*d));
	bool inverse = !strcmp(spec, "inverse");
	if (inverse || !strcmp(spec, "uniform")) {
		for (int s = 1; s <= nodes; s *= 2)
			dist_add(d, s, inverse ? 1.0 / s : 1.0);
		return;
	}
	const char *p = spec;
	while (*p) {
		char *end;
		errno = 0;
		long s = strtol(p, &end, 10);
		if (end == p || *end != ':' || errno || s < 1 || s > nodes)
			die_usage("--size-weights: expected inverse, uniform or SIZE:WEIGHT,... with SIZE in 1..--nodes, at '%s'", p);
		p = end + 1;
		double w = strtod(p, &end);
		if (end == p || (*end && *end != ',') || !isfinite(w) || w < 0)
			die_usage("--size-weights: expected a weight >= 0, at '%s'", p);
		if (d->n == MAX_SIZES)
			die_usage("--size-weights: more than 64 sizes in '%s'", spec);
		dist_add(d, (int)s, w);
		p = *end ? end + 1 : end;
	}
	if (d->total <= 0)
		die_usage("--size-weights: the weights of '%s' sum to zero", spec);
}

static int draw_size(const size_dist *d, tp_rng *r)
{
	double u = tp_rng_uniform(r) * d->total;
	for (int i = 0; i < d->n; i++) {
		if (u < d->weight[i])
			return d->size[i];
		u -= d->weight[i];
	}
	for (int i = d->n - 1; i >= 0; i--) /* rounding left u at the top */
		if (d->weight[i] > 0)
			return d->size[i];
	return d->size[0];
}

static double dist_mean(const size_dist *d)
{
	double m = 0;
	for (int i = 0; i < d->n; i++)
		m += d->size[i] * d->weight[i];
	return m / d->total;
}

/* ---- torus workload (doc/methods.md B) -------------------------------- */

/* Requested time as a fraction of a day at job percentile x in [0,100]:
 * r/100 with r = 10^(-2 + x (log10 99 + 2) / 90) up to x = 90 (0.01 ..
 * 99), then linear from 99 to 100. */
static double torus_request_days(double x)
{
	double r = x <= 90 ? pow(10.0, -2.0 + x * (log10(99.0) + 2.0) / 90.0)
			   : 99.0 + (x - 90.0) / 10.0;
	return r / 100.0;
}

/* Mean of torus_request_days over x ~ U[0,100], in closed form. */
static double torus_request_mean_days(void)
{
	double b = (log10(99.0) + 2.0) / 90.0;
	double low = (99.0 - 0.01) / (90.0 * b * log(10.0)); /* mean r, x <= 90 */
	return (0.9 * low + 0.1 * 99.5) / 100.0;
}

static int64_t at_least_1(double x)
{
	int64_t v = llround(x);
	return v < 1 ? 1 : v;
}

static void gen_torus(const gen_opts *o, tp_rng *r, tp_workload *w)
{
	size_dist d;
	torus_sizes(o->weights, o->nodes, &d);
	long jobs = o->jobs;
	if (!jobs) {
		/* Offered load = sum(nodes x run) / (machine nodes x window). */
		double run = DAY * torus_request_mean_days() *
			     (o->fraction.lo + o->fraction.hi) / 2;
		jobs = lround(o->load * o->nodes * o->days * DAY / (dist_mean(&d) * run));
		if (jobs < 1)
			jobs = 1;
	}
	w->nodes = o->nodes;
	w->ppn = 1;
	for (long i = 0; i < jobs; i++) {
		tp_wjob j = {0};
		j.submit = (int64_t)floor(tp_rng_uniform(r) * o->days * DAY);
		j.nodes = draw_size(&d, r);
		j.estimate = at_least_1(DAY * torus_request_days(100.0 * tp_rng_uniform(r)));
		j.runtime = j.estimate;
		if (o->have_fraction)
			j.runtime = at_least_1((double)j.estimate *
					       tp_rng_range(r, o->fraction.lo, o->fraction.hi));
		if (tp_workload_add(w, &j) < 0) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(1);
		}
	}
}

/* ---- RB_HAR job mix (doc/methods.md C) -------------------------------- */

/* 26.9 % serial; the parallel 73.1 % split 28.3 / 25.1 / 17.1 / 15.2 /
 * 14.3 % over 2, 4, 6, 8 and 10-12 cores (10, 11, 12 equally likely). */
static int rbhar_size(tp_rng *r)
{
	static const double share[] = {28.3, 25.1, 17.1, 15.2, 14.3};
	static const int cores[] = {2, 4, 6, 8, 10};
	if (tp_rng_uniform(r) < 0.269)
		return 1;
	double u = tp_rng_uniform(r) * 100.0;
	for (int i = 0; i < 4; i++) {
		if (u < share[i])
			return cores[i];
		u -= share[i];
	}
	return 10 + (int)tp_rng_below(r, 3);
}

/* Run time 50..200 s, smaller jobs shorter: U[50, 100] s shifted up by
 * 100 (size - 1) / 11 s, so serial jobs run 50-100 s and 12-core jobs
 * 150-200 s. */
static int64_t rbhar_runtime(tp_rng *r, int size)
{
	double shift = 100.0 * (size - 1) / 11.0;
	return at_least_1(tp_rng_range(r, 50.0 + shift, 100.0 + shift));
}

static void gen_rbhar(const gen_opts *o, tp_rng *r, tp_workload *w)
{
	long jobs = o->jobs ? o->jobs : 1000;
	double t = 0;
	w->nodes = o->nodes;
	w->ppn = 1;
	for (long i = 0; i < jobs; i++) {
		tp_wjob j = {0};
		if (i > 0)
			t += tp_rng_range(r, o->interarrival.lo, o->interarrival.hi);
		j.submit = (int64_t)floor(t);
		j.nodes = rbhar_size(r);
		j.runtime = rbhar_runtime(r, j.nodes);
		j.estimate = at_least_1((double)j.runtime *
					tp_rng_range(r, o->estimate.lo, o->estimate.hi));
		if (tp_workload_add(w, &j) < 0) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(1);
		}
	}
}

/* ---- output ---------------------------------------------------------- */

/* The parameters that made the file, so it documents itself. */
static void describe(const gen_opts *o, size_t njobs, char *buf, size_t size)
{
	if (!strcmp(o->mode, "torus")) {
		char frac[64] = "";
		if (o->have_fraction)
			snprintf(frac, sizeof(frac), " --runtime-fraction %g-%g",
				 o->fraction.lo, o->fraction.hi);
		snprintf(buf, size,
			 "Synthetic: topogen torus --nodes %d --jobs %zu --days %g "
			 "--size-weights %s%s --seed %" PRIu64
			 "\nNote: Angara torus workload, MSS allocation (doc/methods.md B)",
			 o->nodes, njobs, o->days, o->weights, frac, o->seed);
	} else {
		snprintf(buf, size,
			 "Synthetic: topogen rbhar --cores %d --jobs %zu --interarrival %g-%g "
			 "--estimate-factor %g-%g --seed %" PRIu64
			 "\nNote: RB_HAR job mix, extended backfill (doc/methods.md C)",
			 o->nodes, njobs, o->interarrival.lo, o->interarrival.hi,
			 o->estimate.lo, o->estimate.hi, o->seed);
	}
}

int main(int argc, char **argv)
{
	gen_opts o;
	parse_args(argc, argv, &o);
	tp_rng r;
	tp_rng_seed(&r, o.seed);
	tp_workload w = {0};
	if (!strcmp(o.mode, "torus"))
		gen_torus(&o, &r, &w);
	else
		gen_rbhar(&o, &r, &w);
	/* Arrivals were drawn independently: order them and number the jobs
	 * in arrival order, as SWF files are. */
	tp_workload_sort(&w);
	for (size_t i = 0; i < w.njobs; i++)
		w.jobs[i].id = (int64_t)i + 1;

	FILE *fp = o.out ? fopen(o.out, "w") : stdout;
	if (!fp) {
		fprintf(stderr, "%s: %s: %s\n", prog, o.out, strerror(errno));
		return 1;
	}
	char header[512];
	describe(&o, w.njobs, header, sizeof(header));
	int rc = tp_swf_write(fp, &w, header);
	if (o.out && fclose(fp) != 0)
		rc = -1;
	tp_workload_fini(&w);
	if (rc < 0) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog,
			o.out ? o.out : "standard output", strerror(errno));
		return 1;
	}
	return 0;
}
