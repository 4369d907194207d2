/*
 * topotasks - simulate jobs of equal tasks on a heterogeneous cluster
 * under the least-loaded placement with delay queues and replicas (the
 * replay library's tasks/tasksim.h) and print the run's summary.
 * Usage and every definition: topotasks(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tasks/tasksim.h"
#include "output.h"
#include "cli/cli.h"

typedef struct tt_args {
	const char *nodes, *jobs, *jobs_csv;
	bool first_fit;
} tt_args;

static void usage(FILE *fp)
{
	fputs("usage: topotasks --nodes FILE --jobs FILE [--jobs-csv OUT] [--fifo-first-fit]\n"
	      "       topotasks --help | --version\n", fp);
}

/* 0: run; 1: --help or --version done; -1: bad arguments (said on
 * stderr). */
static int parse_args(int argc, char **argv, tt_args *a)
{
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "jobs-csv", required_argument, NULL, 'c' },
		{ "fifo-first-fit", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int o;
	const char *v;
	tp_cli cl;
	*a = (tt_args){ 0 };
	tp_cli_init(&cl, "topotasks", opts, "h", argc, argv);
	while ((o = tp_cli_next(&cl, &v)) != -1) {
		switch (o) {
		case 'n': a->nodes = v; break;
		case 'j': a->jobs = v; break;
		case 'c': a->jobs_csv = v; break;
		case 'f': a->first_fit = true; break;
		case 'h': usage(stdout); return 1;
		case 'V': tp_cli_version("topotasks"); return 1;
		default: tp_cli_usage_error("topotasks", cl.msg); return -1;
		}
	}
	if (tp_cli_operands(&cl) < argc)
		tp_cli_fail(&cl, "unexpected argument '%s'", argv[tp_cli_operands(&cl)]);
	else if (!a->nodes || !a->jobs)
		tp_cli_fail(&cl, "--nodes FILE and --jobs FILE are required");
	else
		return 0;
	tp_cli_usage_error("topotasks", cl.msg);
	return -1;
}

static void put_time(FILE *fp, double t)
{
	if (t < 0)
		fputs(",", fp);
	else
		fprintf(fp, ",%.6f", t);
}

static int write_csv(const char *path, const tp_ts_input *in,
		     const tp_ts_result *r, tp_error *err)
{
	FILE *fp = sim_open_out(path, err);
	if (!fp)
		return -1;
	fputs("job_id,submit,first_start,end,job_time,tasks,replicas,reruns\n", fp);
	for (int j = 0; j < r->njobs; j++) {
		const tp_ts_jobres *jr = &r->job[j];
		fprintf(fp, "%lld,%.6f", (long long)in->job[j].id, jr->submit);
		put_time(fp, jr->first_start);
		put_time(fp, jr->end);
		put_time(fp, jr->end < 0 ? -1 : jr->end - jr->submit);
		fprintf(fp, ",%d,%d,%d\n", in->job[j].tasks, in->job[j].replicas,
			jr->reruns);
	}
	return sim_close_out(fp, path, err);
}

static void put_summary(const tp_ts_input *in, const tp_ts_result *r,
			bool first_fit)
{
	printf("placement         %s\n", first_fit ? "fifo-first-fit" : "least-loaded");
	printf("nodes             %d\n", in->nnodes);
	printf("jobs              %d (%d finished)\n", r->njobs, r->jobs_finished);
	printf("makespan          %.3f s\n", r->makespan);
	printf("mean job time     %.3f s\n", r->mean_job_time);
	printf("core utilisation  %.4f\n", r->core_util);
	printf("tasks delayed     %ld\n", r->tasks_delayed);
	printf("copies cancelled  %ld\n", r->copies_cancelled);
	printf("tasks lost        %ld\n", r->tasks_lost);
	fputs("results per node ", stdout);
	for (int k = 0; k < in->nnodes; k++)
		printf(" %s=%d", in->node[k].name, r->node_results[k]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	tt_args a;
	int p = parse_args(argc, argv, &a);
	if (p)
		return p > 0 ? 0 : 2;
	tp_ts_input in = { 0 };
	tp_ts_result r = { 0 };
	tp_error err = { { 0 } };
	int rc = 1;
	if (tp_ts_read_nodes(&in, a.nodes, &err) ||
	    tp_ts_read_jobs(&in, a.jobs, &err) ||
	    tp_ts_run(&in, a.first_fit ? tp_ll_pick_first : tp_ll_pick, &r, &err))
		goto out;
	if (a.jobs_csv && write_csv(a.jobs_csv, &in, &r, &err))
		goto out;
	put_summary(&in, &r, a.first_fit);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "topotasks: %s\n", err.msg);
	tp_ts_result_fini(&r);
	tp_ts_input_fini(&in);
	return rc;
}
