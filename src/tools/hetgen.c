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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetsim/het_gen.h"

static void usage(FILE *fp)
{
	fprintf(fp, "usage: hetgen [--machine site|small] [--jobs N | --load F] [--arrival-util U]\n"
		"              [--parallel PCT] [--prio P0/P1/P2] [--variants V] [--seed S] --out PREFIX\n"
		"  site: 142 machines (17 clusters of 8, one of 6); small: 40 (5 clusters of 4, 20 loose)\n"
		"  --load F: F x machines jobs (default 1); --arrival-util U: Poisson arrivals at U of capacity\n");
}

static double num(const char *opt, const char *v, double lo, double hi)
{
	char *end;
	double x = strtod(v, &end);
	if (!*v || *end || x < lo || x > hi) {
		fprintf(stderr, "hetgen: --%s: expected a number in [%g, %g], got '%s'\n",
			opt, lo, hi, v);
		exit(2);
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
		fprintf(stderr, "hetgen: --prio: expected P0/P1/P2 summing to 100, got '%s'\n", v);
		exit(2);
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
		{ NULL, 0, NULL, 0 },
	};
	tp_hetgen_opts o;
	const char *out = NULL;
	tp_hetgen_opts_default(&o);
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!strcmp(optarg, "site") || !strcmp(optarg, "small"))
				o.machine = !strcmp(optarg, "site") ? TP_HETGEN_SITE : TP_HETGEN_SMALL;
			else {
				fprintf(stderr, "hetgen: --machine: expected site or small, got '%s'\n", optarg);
				return 2;
			}
			break;
		case 'n': o.njobs = (size_t)num("jobs", optarg, 1, 1e7); break;
		case 'l': o.load = num("load", optarg, 0.001, 1e4); break;
		case 'a': o.arrival_util = num("arrival-util", optarg, 0, 10); break;
		case 'p': o.pct_parallel = (int)num("parallel", optarg, 0, 100); break;
		case 'P': prio_arg(&o, optarg); break;
		case 'v': o.variants = (int)num("variants", optarg, 1, 1000); break;
		case 's': o.seed = (uint64_t)num("seed", optarg, 0, 1e18); break;
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!out || optind < argc) {
		fprintf(stderr, "hetgen: --out PREFIX is required\n");
		usage(stderr);
		return 2;
	}
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
