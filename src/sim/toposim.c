/*
 * toposim - replay a workload trace through the core library's policies and
 * allocators (the same code the Slurm plugins run) and report the schedule.
 * Usage and every definition: toposim(1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cli/cli.h"
#include "settings/settings.h"
#include "engine/engine.h"
#include "engine/metrics.h"
#include "engine/metrics_dist.h"
#include "het_run.h"
#include "trace/esterr.h"
#include "trace/jobreqs.h"
#include "trace/sacct.h"
#include "trace/swf.h"
#include "actual.h"
#include "batsim_csv.h"
#include "gantt.h"
#include "outfiles.h"
#include "swf_out.h"
#include "output.h"
#include "partition.h"
#include "sacct_warn.h"
#include "site_load.h"
#include "site_res.h"
#include "base/name_index.h"
#include "restrict.h"
#include "plot.h"
#include "progress.h"
#include "frag.h"
#include "machine/topo.h"
#include "outside_names.h"
#include "no_jobs.h"
#include "flat_names.h"
#include "windows.h"

/* What a run reads: the workload (an SWF trace's, or a sacct file's with
 * what Slurm did beside it) and --partition's nodes. */
typedef struct sim_input {
	tp_workload swf;
	tp_sacct sacct;
	tp_workload *w;          /* &swf or &sacct.w */
	tp_hostlist part;        /* --partition's nodes (--slurm-conf) */
	sim_site site;           /* --sacct with --slurm-conf: the site */
	sim_res res;             /* the site's resources inside nodes */
	sim_actual actual;       /* --sacct: Slurm's own schedule */
	tp_summary actual_sum;
	sim_flat_names flat;     /* a flat machine's node names */
} sim_input;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *node_name(const void *topo, int i)
{
	return tp_topo_node_name(topo, i);
}


/* The trace records not replayed, and why, ending the summary line: a
 * result over 54,034 of 59,715 records must say so where it is read. */
static void put_skips(const tp_workload_skips *k)
{
	static const char *const why[] = { "run time <= 0", "no size",
					   "larger than the machine",
					   "malformed" };
	size_t n[] = { k->runtime, k->size, k->too_big, k->malformed };
	size_t total = n[0] + n[1] + n[2] + n[3];
	const char *sep = "";
	if (!total) {
		fputs("; no record skipped\n", stderr);
		return;
	}
	fprintf(stderr, "; %zu record(s) skipped (", total);
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		if (!n[i])
			continue;
		fprintf(stderr, "%s%zu %s", sep, n[i], why[i]);
		sep = ", ";
	}
	fputs(")\n", stderr);
}

/* --sacct: what Slurm did beside the simulated policy, and the records
 * no skip count of SWF's covers. */
static void put_actual(const tp_summary *sim, const sim_run_info *in)
{
	const tp_summary *a = in->actual;
	const tp_sacct_skips *k = &in->sacct->skipped;
	char u[32], w[32], b[32], ac[32], sc[32];
	bool any = a->runs > 0;
	fprintf(stderr, "toposim: slurm (sacct): %zu job%s on %d node%s, utilisation %s, "
		"mean wait %s, mean bounded slowdown %s", a->jobs,
		a->jobs == 1 ? "" : "s", a->nodes, a->nodes == 1 ? "" : "s",
		sim_stat_text(u, sizeof(u), "%.4f", a->utilisation, any),
		sim_stat_text(w, sizeof(w), "%.0f s", a->mean_wait, any),
		sim_stat_text(b, sizeof(b), "%.2f", a->mean_bsld, any));
	if (a->mean_cost >= 0 || sim->mean_cost >= 0)
		fprintf(stderr, ", mean placement cost of multi-node jobs %s (simulated %s)",
			sim_stat_text(ac, sizeof(ac), "%.3f", a->mean_cost,
				      a->mean_cost >= 0),
			sim_stat_text(sc, sizeof(sc), "%.3f", sim->mean_cost,
				      sim->mean_cost >= 0));
	fprintf(stderr, "; sacct records not replayed: %zu steps, %zu of other partitions, "
		"%zu never started, %zu with unknown submit time, %zu unfinished; ",
		k->steps, k->other_partition, k->not_started, k->unknown_time,
		k->unfinished);
	if (in->nodes_known)
		fprintf(stderr, "%zu job(s) ran on nodes not in the machine\n",
			in->ran_outside);
	else
		fprintf(stderr, "Slurm's nodes not checked (%s)\n",
			in->sacct->w.njobs && !in->sacct->runs[0].nodelist
				? "no NodeList column"
				: "a flat machine without node names");
}

/* --batsim-csv and --swf-out: the schedule in the field's formats. */
static int write_field_formats(const sim_config *c, sim_outfiles *o,
			       const tp_sim_result *r, const sim_run_info *info,
			       const tp_topo *topo, tp_error *err)
{
	FILE *fp;
	if ((fp = sim_outfile(o, SIM_OUT_BATSIM_CSV))) {
		int bad = sim_batsim_write_runs(fp, r, sim_base_name(c->workload),
						sim_cost_column_of(topo->kind));
		if (sim_outfile_close(o, SIM_OUT_BATSIM_CSV, err))
			return -1;
		if (bad)
			return tp_errorf(err, "%s: write failed (or out of memory)",
					 c->batsim_csv);
	}
	if ((fp = sim_outfile(o, SIM_OUT_SWF_OUT))) {
		sim_swf_info si = { c->workload, info->policy, info->alloc,
				    r->nodes, info->w->ppn };
		int bad = sim_write_swf(fp, r, &si);
		if (sim_outfile_close(o, SIM_OUT_SWF_OUT, err))
			return -1;
		if (bad)
			return tp_errorf(err, "%s: write failed (or out of memory)",
					 c->swf_out);
	}
	return 0;
}

/* --plot: the Gantt chart (SVG), then gnuplot's charts. */
static int write_plots(const sim_config *c, sim_outfiles *o,
		       const tp_sim_result *r, const char *title,
		       tp_error *err)
{
	if (sim_gantt_svg(r, sim_outfile(o, SIM_OUT_PLOT_GANTT),
			  sim_outfile_path(o, SIM_OUT_PLOT_GANTT), title, err) ||
	    sim_outfile_close(o, SIM_OUT_PLOT_GANTT, err))
		return -1;
	return sim_plot(r, o, c->plot, title, err);
}

/* The jobs CSV of one replay (window -1) or of window i; node names
 * from the topology, or a flat machine's own. */
static int write_csv(FILE *fp, const tp_sim_result *r, const tp_topo *topo,
		     const sim_flat_names *flat, int window, tp_error *err)
{
	bool named = topo->kind != TP_TOPO_FLAT;
	return sim_write_csv(fp, r, named ? node_name : sim_flat_name,
			     named ? (const void *)topo : flat,
			     sim_cost_column_of(topo->kind), window, err);
}

/* The run in one line: what ran where, the means and the wait's tail
 * ("n/a" over no job), the replay's wall time, what was skipped. */
static void put_summary_line(const tp_summary *s, const tp_dist *dist,
			     const sim_run_info *info)
{
	char u[32], w[32], m[32], p95[32], p99[32], b[32];
	bool any = s->runs > 0;
	fprintf(stderr, "toposim: %s/%s: %zu job%s on %d node%s, utilisation %s, "
		"mean wait %s (median %s, p95 %s, p99 %s), "
		"mean bounded slowdown %s, replayed in %.2f s",
		info->policy, info->alloc, s->jobs, s->jobs == 1 ? "" : "s",
		s->nodes, s->nodes == 1 ? "" : "s",
		sim_stat_text(u, sizeof(u), "%.4f", s->utilisation, any),
		sim_stat_text(w, sizeof(w), "%.0f s", s->mean_wait, any),
		sim_stat_text(m, sizeof(m), "%.0f", dist->all.wait.median, any),
		sim_stat_text(p95, sizeof(p95), "%.0f", dist->all.wait.p95, any),
		sim_stat_text(p99, sizeof(p99), "%.0f", dist->all.wait.p99, any),
		sim_stat_text(b, sizeof(b), "%.2f", s->mean_bsld, any),
		info->wall_seconds);
	put_skips(&info->w->skipped);
	if (info->actual)
		put_actual(s, info);
}

static int write_outputs(const sim_config *c, sim_outfiles *o,
			 const tp_sim_result *r, const sim_run_info *info,
			 const tp_topo *topo, const sim_flat_names *flat,
			 tp_error *err)
{
	tp_summary s;
	tp_dist dist;
	tp_summarize(r, &s);
	if (tp_summarize_dist(r, &dist))
		return tp_errorf(err, "out of memory summarising the schedule");
	sim_run_info with = *info;
	with.dist = &dist;
	info = &with;
	if (write_csv(sim_outfile(o, SIM_OUT_JOBS_CSV), r, topo, flat, -1, err) ||
	    sim_outfile_close(o, SIM_OUT_JOBS_CSV, err))
		return -1;
	sim_write_json(sim_outfile(o, SIM_OUT_SUMMARY_JSON), &s, info);
	if (sim_outfile_close(o, SIM_OUT_SUMMARY_JSON, err) ||
	    write_field_formats(c, o, r, info, topo, err))
		return -1;
	if (!c->quiet)
		put_summary_line(&s, &dist, info);
	if (c->plot)
		return write_plots(c, o, r, info->policy, err);
	return 0;
}

/* The directory of `path` ("." if none), for relative paths in it. */
static const char *dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (!slash)
		return ".";
	snprintf(buf, len, "%.*s", (int)(slash - path), path);
	return buf[0] ? buf : "/";
}

/* The machine: --topology/--fattree-conf, --torus, or flat with the
 * trace's node count (known once it is read). */
static void machine_spec(const sim_config *c, int nodes, tp_topo_spec *s)
{
	static char dir[4096], conf[4096];
	tp_topo_kind kind = c->torus ? TP_TOPO_TORUS
			  : (c->topology || c->fattree_conf) ? TP_TOPO_FATTREE
			  : TP_TOPO_FLAT;
	tp_topo_spec_init(s, kind);
	s->nnodes = nodes;
	s->conf = c->torus ? c->torus : c->fattree_conf;
	/* Relative to where toposim runs: made absolute, so that the
	 * loader's "relative to confdir" leaves it as it is. */
	if (s->conf && realpath(s->conf, conf))
		s->conf = conf;
	s->topology = c->topology;
	s->alloc = c->alloc;
	s->alloc_from = "--alloc ";
	/* A site on a flat machine: Slurm's own choice of nodes (with
	 * --whole-nodes the replay as before resources inside nodes). */
	if (!c->alloc && kind == TP_TOPO_FLAT && c->sacct && c->slurm_conf &&
	    !c->whole_nodes) {
		s->alloc = "cons-tres";
		s->alloc_from = "the site's default allocator ";
	}
	s->base_shapes = c->base_shapes;
	s->confdir = dir_of(s->conf, dir, sizeof(dir));
}

/* --nodes beyond the topology's: the rest of the machine, outside the
 * topology (as slurm.conf's nodes that topology.conf lacks), named after
 * its last node; a warning names them, as the plugins log them. */
static int add_outside(const sim_config *c, tp_topo *topo, int nodes,
		       tp_error *err)
{
	int n = nodes - topo->nnodes;
	char **names, flag[48], line[1024];
	tp_outside_rule rule = c->outside_rule >= 0 ? (tp_outside_rule)c->outside_rule
						    : TP_OUTSIDE_ONE_NODE;
	snprintf(flag, sizeof(flag), "--nodes %d", nodes);
	if (sim_outside_names(topo, n, flag, &names, err))
		return -1;
	int rc = tp_topo_add_outside(topo, (const char *const *)names, n, rule,
				     err);
	sim_outside_names_free(names, n);
	if (rc)
		return -1;
	tp_topo_outside_line(topo, line, sizeof(line));
	fprintf(stderr, "toposim: warning: %s\n", line);
	return 0;
}

/* Partition nodes the topology lacks: outside it, by --outside-rule. */
static int add_missing(const sim_config *c, tp_topo *topo,
		       const tp_hostlist *missing, tp_error *err)
{
	char line[1024];
	tp_outside_rule rule = c->outside_rule >= 0 ? (tp_outside_rule)c->outside_rule
						    : TP_OUTSIDE_ONE_NODE;
	if (tp_topo_add_outside(topo, (const char *const *)missing->names,
				(int)missing->n, rule, err))
		return -1;
	tp_topo_outside_line(topo, line, sizeof(line));
	fprintf(stderr, "toposim: warning: %s\n", line);
	return 0;
}

/* --partition on a fat tree: the tree cut to its nodes (restrict.h),
 * through a temporary topology.conf, named after the file and the
 * partition in messages. */
static int restrict_tree(const sim_config *c, tp_topo *topo,
			 tp_topo_spec *spec, const tp_hostlist *part,
			 tp_error *err)
{
	char path[] = "/tmp/toposim-partition-XXXXXX", label[4096];
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!fp) {
		if (fd >= 0)
			close(fd);
		return tp_errorf(err, "partition %s: cannot write a temporary topology: %s",
				 c->partition ? c->partition : "(every one)", strerror(errno));
	}
	tp_hostlist missing;
	snprintf(label, sizeof(label), "%s (partition %s)", topo->topology,
		 c->partition ? c->partition : "(every one)");
	int rc = sim_restrict_tree(topo->tree, part,
				   c->partition ? c->partition : "(every one)", fp,
				   &missing, err);
	fclose(fp);
	tp_topo_fini(topo);
	memset(topo, 0, sizeof(*topo));
	spec->topology = path;
	if (!rc)
		rc = tp_topo_load(topo, spec, err);
	unlink(path);
	char *name = rc ? NULL : strdup(label);
	if (name) {
		free(topo->topology);
		topo->topology = name;
	}
	if (!rc && missing.n)
		rc = add_missing(c, topo, &missing, err);
	tp_hostlist_fini(&missing);
	return rc;
}

/* A topology fixes the node count; --nodes may add nodes outside it;
 * --partition with --slurm-conf keeps its nodes only. */
static int load_machine(const sim_config *c, tp_topo *topo, int *nodes,
			tp_hostlist *part, sim_site *site, tp_error *err)
{
	tp_topo_spec spec;
	machine_spec(c, *nodes, &spec);
	if (c->slurm_conf && c->sacct && sim_site_read(c, site, err))
		return -1;
	if (c->slurm_conf && c->partition &&
	    sim_partition_nodes(c->slurm_conf, c->partition, part, err))
		return -1;
	/* the site without --partition: every partition on its own nodes */
	if (c->slurm_conf && c->sacct && !c->partition && !c->swf.nodes &&
	    sim_site_nodes(site, part, err))
		return -1;
	if (spec.kind == TP_TOPO_FLAT) {
		if (part->n)
			*nodes = (int)part->n;
		return 0; /* after the trace */
	}
	if (tp_topo_load(topo, &spec, err))
		return -1;
	if (part->n && restrict_tree(c, topo, &spec, part, err))
		return -1;
	if (*nodes > topo->nnodes && add_outside(c, topo, *nodes, err))
		return -1;
	if (*nodes && *nodes != topo->nnodes)
		return tp_errorf(err, "--nodes %d, but %s has %d nodes: the machine has all of them (a larger --nodes adds nodes outside it)",
				 *nodes, c->torus ? c->torus : topo->topology,
				 topo->nnodes);
	*nodes = topo->nnodes;
	return 0;
}

/* The machine as built, so that a smaller one than meant (a file that
 * lists fewer nodes) cannot pass unnoticed. */
static void put_machine(const sim_config *c, const tp_topo *topo)
{
	char line[1024];
	if (c->quiet)
		return;
	tp_topo_machine_line(topo, line, sizeof(line));
	fprintf(stderr, "toposim: machine: %s\n", line);
}

/* Several fabrics: the same words as the plugins log, even with --quiet
 * (a warning, like the one about nodes outside the topology). */
static void warn_fabrics(const tp_topo *topo)
{
	char *msg = topo->tree ? tp_fattree_fabrics_warning(topo->tree) : NULL;
	if (msg)
		fprintf(stderr, "toposim: warning: %s\n", msg);
	free(msg);
}

static int node_index(const void *topo, const char *name)
{
	return tp_topo_node_index(topo, name);
}

/* Requests for jobs the trace reader dropped: not used, one warning per
 * reason, so that a request silently doing nothing cannot pass for one
 * applied. */
static void warn_unused_reqs(const tp_jobreqs *q, const tp_workload *w)
{
	char big[64];
	snprintf(big, sizeof(big), "as larger than the machine's %d nodes",
		 w->nodes);
	const char *const why[TP_DROP_N] = {
		[TP_DROP_RUNTIME] = "with a run time <= 0",
		[TP_DROP_SIZE] = "without a size",
		[TP_DROP_TOO_BIG] = big,
	};
	const tp_jobreqs_unused *u = &q->unused;
	for (int i = 0; i < TP_DROP_N; i++)
		if (u->n[i])
			fprintf(stderr, "toposim: warning: %s: %zu request(s) for jobs skipped %s not used (first: job %" PRId64 ", line %d)\n",
				q->path, u->n[i], why[i], u->first_id[i],
				u->first_line[i]);
}

/* --job-requests: read them and point the trace's jobs at them (the
 * whole trace's, before --jobs takes its slice: a request for a job
 * outside the slice is simply not replayed). */
static int load_job_reqs(const sim_config *c, const tp_topo *topo,
			 tp_workload *w, tp_jobreqs *q, tp_error *err)
{
	if (!c->job_reqs)
		return 0;
	if (tp_jobreqs_read(q, c->job_reqs, topo->nnodes, node_index, topo, err) ||
	    tp_jobreqs_apply(q, w, err))
		return -1;
	warn_unused_reqs(q, w);
	return 0;
}

/* Whether fattree.conf left the fattree allocator's options as they are
 * by default (then another allocator ignores nothing the file said). */
static bool fattree_opts_default(const tp_fattree *t)
{
	tp_fattree_opts d;
	tp_fattree_opts_default(&d);
	return t->opts.msu_size == d.msu_size &&
	       t->opts.busy_fallback == d.busy_fallback &&
	       t->opts.prefer_full == d.prefer_full;
}

/* Machine options the chosen allocator does not read: one warning each,
 * the run goes on (as for a policy setting the policy does not read). */
static void warn_unread_machine(const sim_config *c, const tp_topo *topo)
{
	const char *a = topo->alloc_name;
	if (c->base_shapes >= 0 && strcmp(a, "torus-base"))
		fprintf(stderr, "toposim: warning: --base-shapes has no effect with allocator %s (it is read by torus-base)\n",
			a);
	if (c->fattree_conf && topo->tree && strcmp(a, "fattree-msu") &&
	    !fattree_opts_default(topo->tree))
		fprintf(stderr, "toposim: warning: --fattree-conf %s: its MsuSize=, BusyFallback= and PreferFull= have no effect with allocator %s (they are read by fattree-msu)\n",
			c->fattree_conf, a);
}

/* A trace with no requested time at all replays with exact estimates,
 * which flatters every backfilling policy: say so. */
static void warn_no_estimates(const sim_config *c, const tp_workload *w)
{
	int field = c->swf.estimate_field ? c->swf.estimate_field : 9;
	if (c->esterr && strcmp(c->esterr, "none"))
		return; /* --estimate-error makes the estimates */
	if (c->sacct && w->njobs && w->estimate_missing == w->njobs)
		fprintf(stderr, "toposim: warning: %s: no job has a Timelimit: every estimate is the job's run time (exact)\n",
			c->workload);
	else if (!c->sacct && w->njobs && w->estimate_missing == w->njobs)
		fprintf(stderr, "toposim: warning: %s: no job has a requested time in SWF field %d: every estimate is the job's run time (exact); --estimate-field N reads it from field N\n",
			c->workload, field);
}

/* A trace replayed on a machine of another size says so: jobs dropped
 * as too big, or a load that is not the one recorded (the 128-node
 * SDSC-SP2 trace on a 234-node tree ran at utilisation 0.45 without a
 * word).  The counts are in the summary too. */
static void warn_size(const sim_config *c, const tp_workload *w)
{
	if (w->skipped.too_big)
		fprintf(stderr, "toposim: warning: %s: %zu job(s) larger than the machine's %d nodes dropped (the largest asks %d): --scale-sizes F moves the trace's job sizes to this machine\n",
			c->workload, w->skipped.too_big, w->nodes, (int)w->largest);
	else if (w->trace_nodes && w->trace_nodes != w->nodes)
		fprintf(stderr, "toposim: warning: %s: recorded on %d nodes%s, replayed on %d: the offered load is %.2f times the recorded one; --scale-sizes %.4g keeps each job's share of the machine\n",
			c->workload, w->trace_nodes, c->swf.scale_sizes > 0 ? " (scaled)" : "",
			w->nodes, (double)w->trace_nodes / w->nodes,
			(double)w->nodes / w->trace_nodes *
			(c->swf.scale_sizes > 0 ? c->swf.scale_sizes : 1));
	if (c->sacct && (c->swf.scale_sizes > 0 || c->load > 0))
		fprintf(stderr, "toposim: warning: %s: --scale-sizes and --load change the simulated workload only: Slurm's schedule beside it is the recorded one\n",
			c->workload);
}

/* --jobs FIRST:COUNT: the slice of the trace, by position after the
 * skips in submit order. */
static int slice(const sim_config *c, sim_input *in, tp_error *err)
{
	if (!c->slice_count)
		return 0;
	tp_workload *w = in->w;
	size_t n = w->njobs;
	if (c->sacct ? tp_sacct_slice(&in->sacct, c->slice_first, c->slice_count)
		     : tp_workload_slice(w, c->slice_first, c->slice_count))
		return tp_errorf(err, "--jobs %zu:%zu: %s has %zu jobs after the skips (positions 0 to %zu)",
				 c->slice_first, c->slice_count, c->workload, n,
				 n ? n - 1 : 0);
	return 0;
}

/* The trace (skips, estimate errors, slice), the machine and the job
 * requests, as every replay of this run uses them. */
static int read_workload(const sim_config *c, const tp_swf_opts *swf,
			 sim_input *in, tp_error *err)
{
	if (!c->sacct) {
		in->w = &in->swf;
		return tp_swf_read(c->workload, swf, in->w, err);
	}
	tp_sacct_opts o = { .nodes = swf->nodes, .lenient = swf->lenient,
			    .partition = c->partition,
			    .scale_sizes = swf->scale_sizes,
			    .partition_nodes = in->part.names,
			    .npartition_nodes = in->part.n };
	in->w = &in->sacct.w;
	sim_site_opts(&in->site, &o);
	return tp_sacct_read(c->sacct, &o, &in->sacct, err);
}

/* --sacct: Slurm's own schedule on this machine, summarised. */
static int load_actual(const sim_config *c, const tp_topo *topo,
		       sim_input *in, tp_error *err)
{
	if (!c->sacct)
		return 0;
	if (sim_actual_build(&in->sacct, topo, in->part.n ? &in->part : NULL,
			     &in->actual, err))
		return -1;
	sim_actual_summarize(&in->actual, &in->actual_sum);
	sim_sacct_warn(stderr, &in->sacct, &in->actual, c->partition,
		       in->site.partitioned, in->res.on);
	if (in->res.on) {
		int64_t cpus = 0;
		for (int x = 0; x < in->w->nodes; x++)
			cpus += in->res.nodes[x].cpus;
		sim_actual_cpus(&in->sacct, cpus, &in->actual_sum);
	}
	if (in->actual.outside)
		fprintf(stderr, "toposim: warning: %zu job(s) ran on nodes not in the machine%s%s (first: %s): replayed, but Slurm's placement of them has no cost\n",
			in->actual.outside, c->partition ? " of partition " : "",
			c->partition ? c->partition : "", in->actual.first_outside);
	return 0;
}

/* A node's index on the machine: the topology's, or on a flat machine
 * its place among the names (the site's nodes). */
typedef struct part_namer {
	const tp_topo *topo;
	const tp_hostlist *names;
	tp_name_index index;
} part_namer;

static int part_index(const void *arg, const char *name)
{
	const part_namer *n = arg;
	if (n->topo->alloc)
		return tp_topo_node_index(n->topo, name);
	return tp_name_index_find(&n->index, n->names->names, name);
}

/* n for the machine: a flat machine's names indexed; 0, or -1 after
 * err. */
static int part_namer_init(part_namer *n, const tp_topo *topo,
			   const sim_input *in, tp_error *err)
{
	*n = (part_namer){ .topo = topo, .names = &in->part };
	int rc = 0;
	for (size_t i = 0; !topo->alloc && i < in->part.n && !rc; i++)
		rc = tp_name_index_add(&n->index, in->part.names);
	return rc ? tp_errorf(err, "out of memory") : 0;
}

/* The site without --partition: each job on its partition's nodes. */
static int partitions(const sim_config *c, const tp_topo *topo,
		      sim_input *in, tp_error *err)
{
	if (!(c->sacct && c->slurm_conf && !c->partition && in->part.n))
		return 0;
	part_namer n;
	int rc = part_namer_init(&n, topo, in, err);
	if (!rc)
		rc = sim_site_partitions(c, &in->site, &in->sacct, in->w,
					 in->w->nodes, part_index, &n, err);
	tp_name_index_fini(&n.index);
	return rc;
}

/* The site's resources inside nodes (site_res.h), on the machine's
 * nodes: the site's or --partition's on a flat machine, the topology's
 * otherwise. */
static int resources(const sim_config *c, const tp_topo *topo,
		     sim_input *in, tp_error *err)
{
	if (!(c->sacct && c->slurm_conf) || (!topo->alloc && !in->part.n))
		return 0;
	part_namer n;
	int rc = part_namer_init(&n, topo, in, err);
	if (!rc)
		rc = sim_res_build(c, &in->site, &in->sacct, in->w,
				   in->w->nodes, part_index, &n, &in->res, err);
	tp_name_index_fini(&n.index);
	if (!rc)
		sim_res_say(c, &in->res);
	return rc;
}

static int load(const sim_config *c, tp_topo *topo, sim_input *in,
		tp_jobreqs *reqs, tp_error *err)
{
	tp_swf_opts swf = c->swf;
	if (load_machine(c, topo, &swf.nodes, &in->part, &in->site, err))
		return -1;
	tp_esterr est;
	if ((c->esterr && tp_esterr_parse(c->esterr, &est, err)) ||
	    read_workload(c, &swf, in, err))
		return -1;
	tp_workload *w = in->w;
	if (c->load > 0)
		tp_workload_scale_load(w, c->load);
	warn_no_estimates(c, w);
	warn_size(c, w);
	if (c->esterr)
		tp_esterr_apply(&est, c->seed, w);
	if (partitions(c, topo, in, err) || resources(c, topo, in, err))
		return -1;
	/* A topology is loaded already: --job-requests needs one. */
	if (load_job_reqs(c, topo, w, reqs, err))
		return -1;
	if (c->sacct && (sim_site_prio(c, &in->site, &in->sacct, err) ||
			 sim_site_rhythm(c, &in->site, &in->sacct, w, err) ||
			 sim_site_limits(c, &in->site, &in->sacct, w, err)))
		return -1; /* before the slice: its history seeds the usage */
	if (slice(c, in, err) || /* after the errors: a job keeps its estimate */
	    sim_check_jobs(c, w, c->sacct ? &in->sacct : NULL, err))
		return -1;
	if (!topo->alloc) {
		tp_topo_spec spec;
		machine_spec(c, w->nodes, &spec);
		if (tp_topo_load(topo, &spec, err))
			return -1;
	}
	if (topo->kind == TP_TOPO_FLAT &&
	    sim_flat_names_make(&in->flat, topo->nnodes,
				in->part.n ? &in->part : NULL, err))
		return -1;
	put_machine(c, topo);
	warn_fabrics(topo);
	warn_unread_machine(c, topo);
	return load_actual(c, topo, in, err);
}

/* One replay of w with a fresh policy (*p, for its statistics); with
 * frag, its series after every pass. */
/* The site's queue order (sim_site_order) for the whole run's replay;
 * NULL: arrival order (and always for --windows). */
static const tp_engine_order *queue_order;
/* The site's scheduler rhythm (sim_site_rhythm_of); NULL: a pass at
 * every event. */
static const tp_rhythm *sched_rhythm;
/* The site's QOS and association limits (sim_site_limits_of), NULL:
 * none. */
static tp_limits *qos_limits;

static int replay(const sim_config *c, const tp_workload *w,
		  const tp_topo *topo, tp_policy **p, tp_sim_result *r,
		  double *seconds, sim_frag *frag, tp_error *err)
{
	if (!(*p = tp_policy_create(c->set.policy, &c->set.popts, err)))
		return -1;
	tp_engine_opts eo = { .check = c->check, .keep_nodelists = true,
			      .order = queue_order, .rhythm = sched_rhythm,
			      .limits = qos_limits,
			      .latency = { c->latency_start, c->latency_release } };
	if (qos_limits) /* each replay from no usage */
		tp_limits_reset(qos_limits);
	sim_progress_state prog;
	if (!c->quiet) {
		if (sim_progress_init(&prog, c->set.policy,
				      w->njobs ? w->jobs[0].submit : 0, err))
			return -1;
		eo.progress = sim_progress;
		eo.progress_arg = &prog;
	}
	tp_rtmodel model;
	if (c->runtime_model &&
	    tp_rtmodel_init(&model, topo->tree, topo->torus, c->comm_share, err))
		return -1;
	if (c->runtime_model)
		eo.runtime_model = &model;
	if (frag) {
		eo.after_pass = sim_frag_row;
		eo.after_pass_arg = frag;
	}
	double t0 = now_seconds();
	int rc = tp_simulate(w, *p, topo->alloc, &eo, r, err);
	*seconds = now_seconds() - t0;
	if (c->runtime_model)
		tp_rtmodel_fini(&model);
	return rc;
}

/* The replay of a whole run, with --frag-csv's series when asked. */
static int replay_one(const sim_config *c, sim_outfiles *o,
		      const tp_workload *w, const tp_topo *topo,
		      tp_policy **p, tp_sim_result *r, double *seconds,
		      tp_error *err)
{
	FILE *fp = sim_outfile(o, SIM_OUT_FRAG_CSV);
	if (!fp)
		return replay(c, w, topo, p, r, seconds, NULL, err);
	sim_frag frag;
	sim_frag_start(&frag, fp, sim_outfile_path(o, SIM_OUT_FRAG_CSV), topo);
	int rc = replay(c, w, topo, p, r, seconds, &frag, err);
	return rc ? rc : sim_outfile_close(o, SIM_OUT_FRAG_CSV, err);
}

static sim_run_info run_info(const sim_config *c, const tp_topo *topo,
			     const tp_workload *w, const tp_policy *p,
			     uint64_t rejected, double seconds)
{
	return (sim_run_info){ .workload = c->workload, .policy = c->set.policy,
			       .alloc = topo->alloc_name,
			       .window = c->set.popts.window,
			       .njob = c->set.popts.njob, .w = w,
			       .stats = &p->stats, .rejected = rejected,
			       .slice_first = c->slice_first,
			       .slice_count = c->slice_count,
			       .scale_sizes = c->swf.scale_sizes,
			       .load = c->load,
			       .comm_share = c->comm_share,
			       .wall_seconds = seconds };
}

static int run_one(const sim_config *c, sim_outfiles *o,
		   const sim_input *in, const tp_topo *topo, tp_error *err)
{
	tp_sim_result r = { 0 };
	tp_policy *p = NULL;
	double secs;
	const tp_workload *w = in->w;
	queue_order = sim_site_order(&in->site);
	sched_rhythm = sim_site_rhythm_of(&in->site);
	qos_limits = sim_site_limits_of(&in->site);
	int rc = replay_one(c, o, w, topo, &p, &r, &secs, err);
	if (!rc) {
		sim_run_info info = run_info(c, topo, w, p, r.rejected, secs);
		info.limits = qos_limits != NULL;
		info.refused = r.refused;
		if (r.refused && !c->quiet)
			fprintf(stderr, "toposim: %" PRIu64 " job(s) refused at submission by MaxSubmitJobs/GrpSubmitJobs limits, as slurmctld refuses them (no record)\n",
				r.refused);
		if (c->sacct) {
			info.sacct = &in->sacct;
			info.actual = &in->actual_sum;
			info.ran_outside = in->actual.outside;
			info.placed = in->actual.placed;
			info.nodes_known = in->actual.checked;
			info.shared_node_jobs = in->actual.shared;
			info.partition = c->partition;
			info.partition_nodes = (int)in->part.n;
		}
		rc = write_outputs(c, o, &r, &info, topo, &in->flat, err);
	}
	tp_sim_result_fini(&r);
	tp_policy_destroy(p);
	return rc;
}

static void put_window(const sim_config *c, const char *what,
		       const tp_summary *s)
{
	char u[32], w[32], b[32];
	bool any = s->runs > 0;
	if (!c->quiet)
		fprintf(stderr, "toposim: %s: %zu job%s, utilisation %s, mean wait %s, mean bounded slowdown %s\n",
			what, s->jobs, s->jobs == 1 ? "" : "s",
			sim_stat_text(u, sizeof(u), "%.4f", s->utilisation, any),
			sim_stat_text(w, sizeof(w), "%.0f s", s->mean_wait, any),
			sim_stat_text(b, sizeof(b), "%.2f", s->mean_bsld, any));
}

/* Window i of win: its slice replayed alone, its rows in the CSV. */
static int run_window(const sim_config *c, const sim_windows *win,
		      const tp_workload *all, const tp_topo *topo,
		      const sim_flat_names *flat, size_t i, FILE *csv,
		      tp_summary *s, tp_error *err)
{
	tp_workload w = *all;
	w.jobs = all->jobs + win->starts[i];
	w.njobs = win->len;
	tp_sim_result r = { 0 };
	tp_policy *p = NULL;
	double secs;
	int rc = replay(c, &w, topo, &p, &r, &secs, NULL, err);
	if (!rc)
		rc = write_csv(csv, &r, topo, flat, (int)i, err);
	if (!rc) {
		tp_summarize(&r, s);
		char what[80];
		snprintf(what, sizeof(what), "window %zu (jobs %zu-%zu)", i,
			 win->starts[i], win->starts[i] + win->len - 1);
		put_window(c, what, s);
	}
	tp_sim_result_fini(&r);
	tp_policy_destroy(p);
	return rc;
}

/* Every window in turn, the rows of all in one CSV. */
static int replay_windows(const sim_config *c, sim_outfiles *o,
			  const sim_windows *win, const tp_workload *w,
			  const tp_topo *topo, const sim_flat_names *flat,
			  tp_summary *s, tp_error *err)
{
	FILE *csv = sim_outfile(o, SIM_OUT_JOBS_CSV);
	int rc = 0;
	for (size_t i = 0; i < win->k && !rc; i++)
		rc = run_window(c, win, w, topo, flat, i, csv, &s[i], err);
	if (!rc)
		rc = sim_outfile_close(o, SIM_OUT_JOBS_CSV, err);
	return rc;
}

static int write_windows_json(const sim_config *c, sim_outfiles *o,
			      const sim_windows *win, const tp_workload *w,
			      const tp_topo *topo, const tp_summary *s,
			      tp_error *err)
{
	tp_summary mean;
	sim_summary_mean(s, win->k, &mean);
	put_window(c, "mean of the windows", &mean);
	sim_run_info info = { .workload = c->workload, .policy = c->set.policy,
			      .alloc = topo->alloc_name, .w = w };
	sim_write_windows_json(sim_outfile(o, SIM_OUT_SUMMARY_JSON), &info,
			       win->starts, win->len, s, win->k, &mean);
	return sim_outfile_close(o, SIM_OUT_SUMMARY_JSON, err);
}

/* --windows: the starts drawn (or checked) for this trace, each window
 * replayed alone, each one's metrics and their mean. */
static int run_windows(const sim_config *c, sim_outfiles *o,
		       const tp_workload *w, const tp_topo *topo,
		       const sim_flat_names *flat, tp_error *err)
{
	sim_windows win = c->windows; /* drawn starts are this run's */
	if (sim_windows_resolve(&win, w->njobs, err))
		return -1;
	tp_summary *s = calloc(win.k, sizeof(*s));
	int rc = s ? replay_windows(c, o, &win, w, topo, flat, s, err)
		   : tp_errorf(err, "--windows: out of memory");
	if (!rc)
		rc = write_windows_json(c, o, &win, w, topo, s, err);
	free(s);
	if (win.drawn)
		free(win.starts);
	return rc;
}

static int run(const sim_config *c, sim_outfiles *o, tp_error *err)
{
	tp_topo topo = { 0 };
	sim_input in = { .w = &in.swf };
	tp_jobreqs reqs = { 0 };
	int rc = c->plot ? sim_plot_ready(err) : 0;
	if (!rc)
		rc = load(c, &topo, &in, &reqs, err);
	if (!rc) /* not before: a bad input leaves earlier outputs alone */
		rc = sim_outfiles_open(o, err);
	if (!rc)
		rc = c->windows.k ? run_windows(c, o, in.w, &topo, &in.flat, err)
				  : run_one(c, o, &in, &topo, err);
	tp_workload_fini(&in.swf);
	tp_sacct_fini(&in.sacct);
	tp_hostlist_fini(&in.part);
	sim_site_fini(&in.site);
	sim_res_fini(&in.res);
	sim_actual_fini(&in.actual);
	sim_flat_names_fini(&in.flat);
	tp_jobreqs_fini(&reqs);
	tp_topo_fini(&topo);
	return rc;
}

int main(int argc, char **argv)
{
	sim_config c;
	tp_error err = { "" };
	sim_outfiles out;
	char usage_msg[2048];
	switch (sim_parse_args(&c, argc, argv, usage_msg, sizeof(usage_msg))) {
	case SIM_ARGS_RUN: break;
	case SIM_ARGS_HELP: sim_usage(stdout); return 0;
	case SIM_ARGS_VERSION: return tp_cli_version("toposim");
	case SIM_ARGS_USAGE:
		if (argc < 2)
			sim_usage(stderr);
		return tp_cli_usage_error("toposim", usage_msg);
	}
	/* Two outputs in one file fail at once; the files are opened once
	 * the input is read (run, sim_het_run), before the replay. */
	int rc = sim_outfiles_init(&out, &c, &err);
	if (!rc)
		rc = c.machine ? sim_het_run(&c, &out, &err) : run(&c, &out, &err);
	if (!rc && sim_outfiles_close(&out, &err))
		rc = -1;
	if (rc)
		sim_outfiles_discard(&out);
	sim_outfiles_fini(&out);
	if (rc)
		fprintf(stderr, "toposim: %s\n", err.msg);
	sim_windows_fini(&c.windows);
	return rc ? 1 : 0;
}
