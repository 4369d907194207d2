/*
 * hetgen - seeded heterogeneous workloads for toposim --machine
 * (doc/methods.md D1; hetsim/het_gen.h, doc/heterogeneous.md):
 *
 *   hetgen [--machine site|small] [--jobs N | --load F] [--arrival-util U]
 *          [--parallel PCT] [--prio P0/P1/P2] [--variants V] [--seed S]
 *          --out PREFIX
 *
 * writes PREFIX.machine (PartitionName= lines), PREFIX.jobs (JobId= lines)
 * and PREFIX.truth (the actual run times, an experiential database file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetsim/het_gen.h"
#include "cli/cli.h"

static void usage(FILE *fp)
{
	fprintf(fp, "usage: hetgen [--machine site|small] [--jobs N | --load F] [--arrival-util U]\n"
		"              [--parallel PCT] [--prio P0/P1/P2] [--variants V] [--seed S] --out PREFIX\n"
		"       hetgen --help | --version\n"
		"  site: 142 machines (17 clusters of 8, one of 6); small: 40 (5 clusters of 4, 20 loose)\n"
		"  --load F: F x machines jobs (default 1); --arrival-util U: Poisson arrivals at U of capacity\n");
}

static double num(const char *opt, const char *v, double lo, double hi)
{
	char *end;
	double x = strtod(v, &end);
	if (!*v || *end || x < lo || x > hi) {
		char msg[256];
		snprintf(msg, sizeof(msg), "--%s: expected a number in [%g, %g], got '%s'",
			 opt, lo, hi, v);
		exit(tp_cli_usage_error("hetgen", msg));
	}
	return x;
}

static int write_file(const char *prefix, const char *ext,
		      const tp_het_conf *c, const tp_het_workload *w)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s.%s", prefix, ext);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		perror(path);
		return -1;
	}
	int rc = w ? tp_het_jobs_write(fp, c, w) : tp_het_conf_write(fp, c);
	if (fclose(fp) || rc) {
		fprintf(stderr, "hetgen: %s: write error\n", path);
		return -1;
	}
	return 0;
}

static void prio_arg(tp_hetgen_opts *o, const char *v)
{
	if (sscanf(v, "%d/%d/%d", &o->prio[0], &o->prio[1], &o->prio[2]) != 3 ||
	    o->prio[0] < 0 || o->prio[1] < 0 || o->prio[2] < 0 ||
	    o->prio[0] + o->prio[1] + o->prio[2] != 100) {
		char msg[256];
		snprintf(msg, sizeof(msg), "--prio: expected P0/P1/P2 summing to 100, got '%s'", v);
		exit(tp_cli_usage_error("hetgen", msg));
	}
}

/* --machine's names. */
static const char *const machines[] = { "site", "small", NULL };

/* One option into o (or *out): 0, or TP_CLI_ERROR. */
static int option(tp_cli *cl, int c, const char *v, tp_hetgen_opts *o,
		  const char **out)
{
	switch (c) {
	case 'm':
		if (tp_cli_choice(cl, "--machine", v, machines, "machine"))
			return TP_CLI_ERROR;
		o->machine = !strcmp(v, "site") ? TP_HETGEN_SITE : TP_HETGEN_SMALL;
		return 0;
	case 'n': o->njobs = (size_t)num("jobs", v, 1, 1e7); return 0;
	case 'l': o->load = num("load", v, 0.001, 1e4); return 0;
	case 'a': o->arrival_util = num("arrival-util", v, 0, 10); return 0;
	case 'p': o->pct_parallel = (int)num("parallel", v, 0, 100); return 0;
	case 'P': prio_arg(o, v); return 0;
	case 'v': o->variants = (int)num("variants", v, 1, 1000); return 0;
	case 's': o->seed = (uint64_t)num("seed", v, 0, 1e18); return 0;
	case 'o': *out = v; return 0;
	default: return TP_CLI_ERROR;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "jobs", required_argument, NULL, 'n' },
		{ "load", required_argument, NULL, 'l' },
		{ "arrival-util", required_argument, NULL, 'a' },
		{ "parallel", required_argument, NULL, 'p' },
		{ "prio", required_argument, NULL, 'P' },
		{ "variants", required_argument, NULL, 'v' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	tp_hetgen_opts o;
	const char *out = NULL, *v;
	tp_hetgen_opts_default(&o);
	tp_cli cl;
	tp_cli_init(&cl, "hetgen", opts, "", argc, argv);
	int c;
	while ((c = tp_cli_next(&cl, &v)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'V')
			return tp_cli_version("hetgen");
		if (c == TP_CLI_ERROR || option(&cl, c, v, &o, &out))
			return tp_cli_usage_error("hetgen", cl.msg);
	}
	if (tp_cli_operands(&cl) < argc) {
		tp_cli_fail(&cl, "unexpected argument '%s'", argv[tp_cli_operands(&cl)]);
		return tp_cli_usage_error("hetgen", cl.msg);
	}
	if (!out)
		return tp_cli_usage_error("hetgen", "--out PREFIX is required");
	tp_het_conf m;
	tp_het_workload w;
	tp_expdb *truth = tp_expdb_new();
	tp_error err = { "" };
	char path[4096];
	snprintf(path, sizeof(path), "%s.truth", out);
	if (!truth || tp_hetgen(&o, &m, &w, truth, &err)) {
		fprintf(stderr, "hetgen: %s\n", truth ? err.msg : "out of memory");
		return 1;
	}
	int rc = write_file(out, "machine", &m, NULL) || write_file(out, "jobs", &m, &w) ||
		 tp_expdb_save(truth, path, 0, &err);
	if (rc && err.msg[0])
		fprintf(stderr, "hetgen: %s\n", err.msg);
	tp_het_workload_fini(&w);
	tp_het_conf_fini(&m);
	tp_expdb_free(truth);
	return rc ? 1 : 0;
}
