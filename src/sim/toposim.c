/*
 * toposim - replay a workload trace through the core library's policies and
 * allocators (the same code the Slurm plugins run) and report the schedule.
 * Usage and every definition: toposim(1).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "io/esterr.h"
#include "engine/metrics.h"
#include "output.h"
#include "plot.h"
#include "progress.h"
#include "io/swf.h"
#include "topology.h"

typedef struct sim_config {
	const char *workload, *policy, *alloc, *jobs_csv, *summary_json;
	const char *plot, *topology, *torus, *esterr;
	tp_swf_opts swf;
	tp_policy_opts popts;
	uint64_t seed;
	bool check, quiet;
} sim_config;

enum {
	OPT_WINDOW = 256, OPT_NJOB, OPT_NODES, OPT_PPN, OPT_ALLOC, OPT_TOPOLOGY,
	OPT_TORUS, OPT_LENIENT, OPT_ESTERR, OPT_SEED, OPT_JOBS_CSV, OPT_SUMMARY,
	OPT_PLOT, OPT_CHECK, OPT_QUIET, OPT_HAR_EXT, OPT_HAR_TIME, OPT_HAR_FACTOR,
	OPT_HAR_NORESUB, OPT_WINDOW_RULE, OPT_HELP,
};

static const struct option long_opts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "policy", required_argument, NULL, 'p' },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "window-rule", required_argument, NULL, OPT_WINDOW_RULE },
	{ "njob", required_argument, NULL, OPT_NJOB },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "ppn", required_argument, NULL, OPT_PPN },
	{ "alloc", required_argument, NULL, OPT_ALLOC },
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "torus", required_argument, NULL, OPT_TORUS },
	{ "lenient", no_argument, NULL, OPT_LENIENT },
	{ "estimate-error", required_argument, NULL, OPT_ESTERR },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "jobs-csv", required_argument, NULL, OPT_JOBS_CSV },
	{ "summary-json", required_argument, NULL, OPT_SUMMARY },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "rbhar-max-ext", required_argument, NULL, OPT_HAR_EXT },
	{ "rbhar-max-time", required_argument, NULL, OPT_HAR_TIME },
	{ "rbhar-factor", required_argument, NULL, OPT_HAR_FACTOR },
	{ "no-rbhar-resubmit", no_argument, NULL, OPT_HAR_NORESUB },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *fp)
{
	fprintf(fp, "usage: toposim --workload FILE --policy NAME [--window W]\n"
		"               [--window-rule queue|index] [--njob K]\n"
		"               [--nodes N] [--ppn P] [--alloc NAME] [--topology FILE | --torus FILE]\n"
		"               [--lenient] [--estimate-error SPEC] [--seed S] [--check] [--quiet]\n"
		"               [--rbhar-max-ext N] [--rbhar-max-time S] [--rbhar-factor F]\n"
		"               [--no-rbhar-resubmit] [--plot PREFIX]\n"
		"               --jobs-csv OUT --summary-json OUT     (OUT may be - or /dev/null)\n"
		"policies:");
	for (const char *const *n = tp_policy_names(); *n; n++)
		fprintf(fp, " %s", *n);
	fprintf(fp, "\nallocators:");
	for (const char *const *n = tp_alloc_names(); *n; n++)
		fprintf(fp, " %s", *n);
	fprintf(fp, "\nsee toposim(1)\n");
}

/* Whole-string integer in [lo, hi], or exit naming the option. */
static long long int_arg(const char *opt, const char *v, long long lo,
			 long long hi)
{
	char *end;
	long long x = strtoll(v, &end, 10);
	if (!*v || *end || x < lo || x > hi) {
		fprintf(stderr, "toposim: --%s: expected an integer in [%lld, %lld], "
			"got '%s'\n", opt, lo, hi, v);
		exit(2);
	}
	return x;
}

static double real_arg(const char *opt, const char *v)
{
	char *end;
	double x = strtod(v, &end);
	if (!*v || *end) {
		fprintf(stderr, "toposim: --%s: expected a number, got '%s'\n", opt, v);
		exit(2);
	}
	return x;
}

static void parse_one(sim_config *c, int o, const char *arg)
{
	switch (o) {
	case 'w': c->workload = arg; break;
	case 'p': c->policy = arg; break;
	case OPT_WINDOW: c->popts.window = (int)int_arg("window", arg, 1, 1 << 20); break;
	case OPT_WINDOW_RULE:
		if (!strcmp(arg, "queue"))
			c->popts.window_rule = TP_WINDOW_QUEUE;
		else if (!strcmp(arg, "index"))
			c->popts.window_rule = TP_WINDOW_INDEX;
		else {
			fprintf(stderr, "toposim: --window-rule: expected queue or index, "
				"got '%s'\n", arg);
			exit(2);
		}
		break;
	case OPT_NJOB: c->popts.njob = (int)int_arg("njob", arg, 1, 1 << 20); break;
	case OPT_NODES: c->swf.nodes = (int)int_arg("nodes", arg, 1, 1 << 24); break;
	case OPT_PPN: c->swf.ppn = (int)int_arg("ppn", arg, 1, 1 << 20); break;
	case OPT_ALLOC: c->alloc = arg; break;
	case OPT_TOPOLOGY: c->topology = arg; break;
	case OPT_TORUS: c->torus = arg; break;
	case OPT_LENIENT: c->swf.lenient = true; break;
	case OPT_ESTERR: c->esterr = arg; break;
	case OPT_SEED: c->seed = (uint64_t)int_arg("seed", arg, 0, INT64_MAX); break;
	case OPT_JOBS_CSV: c->jobs_csv = arg; break;
	case OPT_SUMMARY: c->summary_json = arg; break;
	case OPT_PLOT: c->plot = arg; break;
	case OPT_CHECK: c->check = true; break;
	case OPT_QUIET: c->quiet = true; break;
	case OPT_HAR_EXT: c->popts.rbhar_max_ext = (int)int_arg("rbhar-max-ext", arg, 0, 1000); break;
	case OPT_HAR_TIME: c->popts.rbhar_max_time = int_arg("rbhar-max-time", arg, 0, INT64_MAX); break;
	case OPT_HAR_FACTOR: c->popts.rbhar_factor = real_arg("rbhar-factor", arg); break;
	case OPT_HAR_NORESUB: c->popts.rbhar_resubmit = 0; break;
	case OPT_HELP: usage(stdout); exit(0);
	default: usage(stderr); exit(2);
	}
}

static void parse_args(sim_config *c, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	tp_policy_opts_default(&c->popts);
	c->seed = 1;
	int o;
	while ((o = getopt_long(argc, argv, "w:p:", long_opts, NULL)) != -1)
		parse_one(c, o, optarg);
	if (optind < argc) {
		fprintf(stderr, "toposim: unexpected argument '%s'\n", argv[optind]);
		exit(2);
	}
	const char *missing = !c->workload ? "--workload" : !c->policy ? "--policy"
			    : !c->jobs_csv ? "--jobs-csv"
			    : !c->summary_json ? "--summary-json" : NULL;
	if (missing) {
		fprintf(stderr, "toposim: %s is required\n", missing);
		usage(stderr);
		exit(2);
	}
	if (c->topology && c->torus) {
		fprintf(stderr, "toposim: --topology and --torus exclude each other\n");
		exit(2);
	}
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *node_name(const void *topo, int i)
{
	return sim_topology_node_name(topo, i);
}

static int write_outputs(const sim_config *c, const tp_sim_result *r,
			 const sim_run_info *info, const sim_topology *topo,
			 tp_error *err)
{
	tp_summary s;
	tp_summarize(r, &s);
	FILE *fp = sim_open_out(c->jobs_csv, err);
	if (!fp)
		return -1;
	sim_write_csv(fp, r, topo->nnodes ? node_name : NULL, topo);
	if (sim_close_out(fp, c->jobs_csv, err))
		return -1;
	if (!(fp = sim_open_out(c->summary_json, err)))
		return -1;
	sim_write_json(fp, &s, info);
	if (sim_close_out(fp, c->summary_json, err))
		return -1;
	if (!c->quiet)
		fprintf(stderr, "toposim: %s/%s: %zu jobs on %d nodes, utilisation %.4f, "
			"mean wait %.0f s, mean bounded slowdown %.2f, %.2f s\n",
			info->policy, info->alloc, s.jobs, s.nodes, s.utilisation,
			s.mean_wait, s.mean_bsld, info->wall_seconds);
	if (c->plot)
		return sim_plot(r, c->plot, info->policy, err);
	return 0;
}

static int run(const sim_config *c, tp_error *err)
{
	sim_topology topo;
	tp_workload w = { 0 };
	tp_sim_result r = { 0 };
	tp_policy *p = NULL;
	tp_alloc *a = NULL;
	int rc = -1;
	tp_swf_opts swf = c->swf;
	if (sim_topology_load(&topo, c->topology, c->torus, &swf.nodes, err))
		return -1;
	tp_esterr est;
	if ((c->esterr && tp_esterr_parse(c->esterr, &est, err)) ||
	    tp_swf_read(c->workload, &swf, &w, err))
		goto out;
	if (c->esterr)
		tp_esterr_apply(&est, c->seed, &w);
	const char *alloc = c->alloc ? c->alloc : sim_topology_default_alloc(&topo);
	if (!(a = sim_topology_alloc(&topo, alloc, w.nodes, err)) ||
	    !(p = tp_policy_create(c->policy, &c->popts, err)))
		goto out;
	tp_engine_opts eo = { .check = c->check, .keep_nodelists = true };
	if (!c->quiet && sim_progress_wanted()) {
		eo.progress = sim_progress;
		eo.progress_arg = (void *)c->policy;
	}
	double t0 = now_seconds();
	if (tp_simulate(&w, p, a, &eo, &r, err))
		goto out;
	sim_run_info info = { .workload = c->workload, .policy = c->policy,
			      .alloc = alloc, .window = c->popts.window,
			      .njob = c->popts.njob, .w = &w, .stats = &p->stats,
			      .rejected = r.rejected,
			      .wall_seconds = now_seconds() - t0 };
	rc = write_outputs(c, &r, &info, &topo, err);
out:
	tp_sim_result_fini(&r);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
	tp_workload_fini(&w);
	sim_topology_fini(&topo);
	return rc;
}

int main(int argc, char **argv)
{
	sim_config c;
	tp_error err = { "" };
	parse_args(&c, argc, argv);
	if (run(&c, &err)) {
		fprintf(stderr, "toposim: %s\n", err.msg);
		return 1;
	}
	return 0;
}
