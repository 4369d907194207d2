/* output.c - CSV and JSON writers; column and key meanings in toposim(1). */
#include "output.h"

#include "base/hostlist.h"
#include "machine/topo.h"
#include "sacct_warn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

FILE *sim_open_out(const char *path, tp_error *err)
{
	if (!strcmp(path, "-"))
		return stdout;
	FILE *fp = fopen(path, "w");
	if (!fp)
		tp_errorf(err, "%s: cannot write: %s", path, strerror(errno));
	return fp;
}

int sim_close_out(FILE *fp, const char *path, tp_error *err)
{
	int bad = ferror(fp);
	if (fp == stdout)
		bad |= fflush(fp) != 0;
	else
		bad |= fclose(fp) != 0;
	if (bad)
		return tp_errorf(err, "%s: write failed: %s", path, strerror(errno));
	return 0;
}

/* Calls fn(arg, i, ctx) for every index of a node list "0-2,5"; returns
 * how many there are. */
static size_t each_index(const char *list, void (*fn)(long, void *), void *ctx)
{
	size_t n = 0;
	for (const char *p = list; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long i = lo; i <= hi; i++, n++)
			if (fn)
				fn(i, ctx);
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

typedef struct name_ctx {
	sim_name_fn name;
	const void *arg;
	const char **names;
	size_t n;
} name_ctx;

static void add_name(long i, void *ctx)
{
	name_ctx *c = ctx;
	c->names[c->n++] = c->name(c->arg, (int)i);
}

/* "0-2,5" -> "n[1-3,6]" through name(): the form Slurm prints NodeList in,
 * as one name per node is hundreds of kilobytes for a job on a whole large
 * machine.  -1 when out of memory. */
static int put_names(FILE *fp, const char *list, sim_name_fn name,
		     const void *arg)
{
	size_t n = each_index(list, NULL, NULL);
	name_ctx c = { name, arg, malloc((n ? n : 1) * sizeof(char *)), 0 };
	if (!c.names)
		return -1;
	each_index(list, add_name, &c);
	char *s = tp_hostlist_compress(c.names, c.n);
	free(c.names);
	if (!s)
		return -1;
	fputs(s, fp);
	free(s);
	return 0;
}

/* A fat tree's cost is a whole number of hops; a torus allocator's is
 * the mean distance between the job's nodes, a fraction whose decimals
 * tell two boxes apart. */
sim_cost_column sim_cost_column_of(int topo_kind)
{
	if (topo_kind == TP_TOPO_TORUS)
		return (sim_cost_column){ "mean_distance", 4 };
	return (sim_cost_column){ "hop_sum", 0 };
}

int sim_write_csv(FILE *fp, const tp_sim_result *r, sim_name_fn name,
		  const void *arg, sim_cost_column cost, int window,
		  tp_error *err)
{
	if (window <= 0)
		fprintf(fp, "id,submit,start,end,nodes_req,nodes_alloc,estimate,runtime,"
			"status,extensions,nodelist,attempt,fill,%s%s%s\n",
			cost.name, r->dilated ? ",spread,dilated_run" : "",
			window < 0 ? "" : ",window");
	for (size_t i = 0; i < r->nrec; i++) {
		const tp_record *x = &r->rec[i];
		fprintf(fp, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
			",%d,%d,%" PRId64 ",%" PRId64 ",%s,%d,\"",
			x->id, x->submit, x->start, x->end, x->nodes_req,
			x->nodes_alloc, x->estimate, x->runtime,
			tp_status_name(x->status), x->extensions);
		if (x->nodelist && name && put_names(fp, x->nodelist, name, arg))
			return tp_errorf(err, "out of memory writing the node list of job %" PRId64,
					 x->id);
		if (x->nodelist && !name)
			fputs(x->nodelist, fp);
		fprintf(fp, "\",%d,%d,", x->attempt, x->fill);
		if (x->cost >= 0)
			fprintf(fp, "%.*f", cost.decimals, x->cost);
		if (r->dilated)
			fprintf(fp, ",%.4f,%" PRId64, x->spread, x->run);
		if (window >= 0)
			fprintf(fp, ",%d", window);
		fputs("\n", fp);
	}
	return 0;
}

static void put_metrics(FILE *fp, const tp_summary *s);

void sim_put_stat(FILE *fp, const char *fmt, double v, bool known)
{
	if (known)
		fprintf(fp, fmt, v);
	else
		fputs("null", fp);
}

const char *sim_stat_text(char *buf, size_t len, const char *fmt, double v,
			  bool known)
{
	if (known)
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "n/a");
	return buf;
}

/* "  \"key\": VALUE,\n", VALUE null for a statistic of nothing. */
static void put_key(FILE *fp, const char *key, const char *fmt, double v,
		    bool known)
{
	fprintf(fp, "  \"%s\": ", key);
	sim_put_stat(fp, fmt, v, known);
	fputs(",\n", fp);
}

/* A name as a JSON string: paths and partition names may hold any byte
 * but NUL; one with a quote, a backslash or a control character must
 * still give valid JSON. */
static void put_string(FILE *fp, const char *v)
{
	fputc('"', fp);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

/* The names every summary begins with. */
static void put_heading(FILE *fp, const sim_run_info *in)
{
	fputs("  \"workload\": ", fp);
	put_string(fp, in->workload);
	fputs(",\n  \"policy\": ", fp);
	put_string(fp, in->policy);
	fputs(",\n  \"alloc\": ", fp);
	put_string(fp, in->alloc);
	fputs(",\n", fp);
}

/* --sacct: the records SWF's skip counts do not cover, the jobs that ran
 * off the machine, and Slurm's own schedule by the same metrics. */
static void put_sacct(FILE *fp, const sim_run_info *in)
{
	const tp_sacct_skips *k = &in->sacct->skipped;
	fprintf(fp, "  \"sacct\": {\n    \"skipped\": {\"steps\": %zu, "
		"\"other_partition\": %zu, \"not_started\": %zu, "
		"\"unknown_time\": %zu, \"unfinished\": %zu, \"duplicate\": %zu},\n",
		k->steps, k->other_partition, k->not_started, k->unknown_time,
		k->unfinished, k->duplicate);
	fputs("    \"partition\": ", fp);
	if (in->partition)
		put_string(fp, in->partition);
	else
		fputs("null", fp);
	fprintf(fp, ",\n    \"partition_nodes\": %d,\n", in->partition_nodes);
	fputs("    \"ran_outside_machine\": ", fp);
	sim_put_stat(fp, "%.0f", (double)in->ran_outside, in->nodes_known);
	fputs(",\n    \"placed\": ", fp);
	sim_put_stat(fp, "%.0f", (double)in->placed, in->nodes_known);
	fputs(",\n", fp);
	sim_sacct_warn_json(fp, in->sacct, in->shared_node_jobs);
	fputs("    \"slurm\": {", fp);
	put_metrics(fp, in->actual);
	fputs("}\n  },\n", fp);
}

/* --runtime-model: the model, and what it did to the run times. */
static void put_runtime_model(FILE *fp, const tp_summary *s,
			      const sim_run_info *in)
{
	fprintf(fp, "  \"runtime_model\": {\"model\": \"spread\", "
		"\"comm_share\": %g, \"mean_run\": %.3f, "
		"\"mean_trace_run\": %.3f, \"mean_spread_multi\": %.4f, "
		"\"killed_by_dilation\": %zu},\n", in->comm_share, s->mean_run,
		s->mean_trace_run, s->mean_spread_multi, s->dilation_kills);
}

void sim_write_json(FILE *fp, const tp_summary *s, const sim_run_info *in)
{
	const tp_workload_skips *k = &in->w->skipped;
	fprintf(fp, "{\n");
	put_heading(fp, in);
	fprintf(fp, "  \"window\": %d,\n  \"njob\": %d,\n", in->window, in->njob);
	fprintf(fp, "  \"nodes\": %d,\n  \"jobs\": %zu,\n  \"runs\": %zu,\n",
		s->nodes, s->jobs, s->runs);
	bool any = s->runs > 0;
	put_key(fp, "utilisation", "%.6f", s->utilisation, any);
	if (s->cpu_utilisation > 0)
		put_key(fp, "cpu_utilisation", "%.6f", s->cpu_utilisation, true);
	put_key(fp, "mean_wait", "%.3f", s->mean_wait, any);
	put_key(fp, "mean_bounded_slowdown", "%.4f", s->mean_bsld, any);
	put_key(fp, "mean_response_ratio", "%.4f", s->mean_response_ratio, any);
	put_key(fp, "mean_wait_over_estimate", "%.4f", s->mean_wait_over_estimate,
		any);
	put_key(fp, "makespan", "%.0f", (double)s->makespan, any);
	fprintf(fp, "  \"fill_jobs\": %zu,\n", s->fill_jobs);
	put_key(fp, "fill_completion_rate", "%.4f", s->fill_completion_rate,
		s->fill_jobs > 0);
	fprintf(fp, "  \"killed\": %zu,\n  \"extended\": %zu,\n"
		"  \"resubmitted\": %zu,\n", s->killed, s->extended,
		s->resubmitted);
	fprintf(fp, "  \"extensions_granted\": %" PRIu64 ",\n"
		"  \"extensions_denied\": %" PRIu64 ",\n",
		in->stats->ext_granted, in->stats->ext_denied);
	fprintf(fp, "  \"backfilled\": %" PRIu64 ",\n", in->stats->backfilled);
	fprintf(fp, "  \"rejected\": %" PRIu64 ",\n", in->rejected);
	if (in->limits)
		fprintf(fp, "  \"refused_at_submit\": %" PRIu64 ",\n", in->refused);
	if (s->mean_cost >= 0)
		fprintf(fp, "  \"mean_hop_sum_multi\": %.3f,\n", s->mean_cost);
	if (s->dilated)
		put_runtime_model(fp, s, in);
	fprintf(fp, "  \"estimates_from_runtime\": %zu,\n",
		in->w->estimate_missing);
	if (in->scale_sizes > 0)
		fprintf(fp, "  \"scale_sizes\": %g,\n", in->scale_sizes);
	if (in->load > 0)
		fprintf(fp, "  \"load\": %g,\n", in->load);
	if (in->slice_count)
		fprintf(fp, "  \"slice\": {\"first\": %zu, \"count\": %zu},\n",
			in->slice_first, in->slice_count);
	fprintf(fp, "  \"skipped\": {\"runtime\": %zu, \"size\": %zu, "
		"\"too_big\": %zu, \"malformed\": %zu},\n", k->runtime, k->size,
		k->too_big, k->malformed);
	if (in->sacct)
		put_sacct(fp, in);
	if (in->dist)
		sim_write_dist_json(fp, in->dist);
	fprintf(fp, "  \"wall_seconds\": %.3f\n}\n", in->wall_seconds);
}

/* The metrics every window reports, as one JSON object's members. */
static void put_metrics(FILE *fp, const tp_summary *s)
{
	static const char *const keys[] = {
		"utilisation", "mean_wait", "mean_bounded_slowdown",
		"mean_response_ratio", "mean_wait_over_estimate", "makespan",
	};
	static const char *const fmts[] = { "%.6f", "%.3f", "%.4f", "%.4f",
					    "%.4f", "%.0f" };
	const double v[] = { s->utilisation, s->mean_wait, s->mean_bsld,
			     s->mean_response_ratio, s->mean_wait_over_estimate,
			     (double)s->makespan };
	fprintf(fp, "\"jobs\": %zu", s->jobs);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(fp, ", \"%s\": ", keys[i]);
		sim_put_stat(fp, fmts[i], v[i], s->runs > 0);
	}
	fprintf(fp, ", \"killed\": %zu", s->killed);
	if (s->cpu_utilisation > 0)
		fprintf(fp, ", \"cpu_utilisation\": %.6f", s->cpu_utilisation);
	if (s->mean_cost >= 0)
		fprintf(fp, ", \"mean_hop_sum_multi\": %.3f", s->mean_cost);
}

void sim_write_windows_json(FILE *fp, const sim_run_info *in,
			    const size_t *starts, size_t len,
			    const tp_summary *s, size_t k,
			    const tp_summary *mean)
{
	const tp_workload_skips *sk = &in->w->skipped;
	fputs("{\n", fp);
	put_heading(fp, in);
	fprintf(fp, "  \"nodes\": %d,\n  \"window_jobs\": %zu,\n"
		"  \"windows\": [\n", in->w->nodes, len);
	for (size_t i = 0; i < k; i++) {
		fprintf(fp, "    {\"first\": %zu, ", starts[i]);
		put_metrics(fp, &s[i]);
		fprintf(fp, "}%s\n", i + 1 < k ? "," : "");
	}
	fprintf(fp, "  ],\n  \"mean\": {");
	put_metrics(fp, mean);
	fprintf(fp, "},\n  \"skipped\": {\"runtime\": %zu, \"size\": %zu, "
		"\"too_big\": %zu, \"malformed\": %zu}\n}\n", sk->runtime, sk->size,
		sk->too_big, sk->malformed);
}
