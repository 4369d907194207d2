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
#include "swf_out.h"
#include "output.h"
#include "partition.h"
#include "restrict.h"
#include "plot.h"
#include "progress.h"
#include "frag.h"
#include "machine/topo.h"
#include "outside_names.h"
#include "windows.h"

/* What a run reads: the workload (an SWF trace's, or a sacct file's with
 * what Slurm did beside it) and --partition's nodes. */
typedef struct sim_input {
	tp_workload swf;
	tp_sacct sacct;
	tp_workload *w;          /* &swf or &sacct.w */
	tp_hostlist part;        /* --partition's nodes (--slurm-conf) */
	sim_actual actual;       /* --sacct: Slurm's own schedule */
	tp_summary actual_sum;
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
	fprintf(stderr, "toposim: slurm (sacct): %zu jobs on %d nodes, utilisation %.4f, "
		"mean wait %.0f s, mean bounded slowdown %.2f", a->jobs, a->nodes,
		a->utilisation, a->mean_wait, a->mean_bsld);
	if (a->mean_cost >= 0 || sim->mean_cost >= 0)
		fprintf(stderr, ", mean placement cost of multi-node jobs %.3f (simulated %.3f)", a->mean_cost,
			sim->mean_cost);
	fprintf(stderr, "; sacct records not replayed: %zu steps, %zu of other partitions, "
		"%zu never started, %zu with unknown submit time, %zu unfinished; "
		"%zu job(s) ran on nodes not in the machine\n", k->steps,
		k->other_partition, k->not_started, k->unknown_time, k->unfinished,
		in->ran_outside);
}

/* --batsim-csv and --swf-out: the schedule in the field's formats. */
static int write_field_formats(const sim_config *c, const tp_sim_result *r,
			       const sim_run_info *info, tp_error *err)
{
	FILE *fp;
	if (c->batsim_csv) {
		if (!(fp = sim_open_out(c->batsim_csv, err)))
			return -1;
		int bad = sim_batsim_write_runs(fp, r, sim_base_name(c->workload));
		if (sim_close_out(fp, c->batsim_csv, err))
			return -1;
		if (bad)
			return tp_errorf(err, "%s: write failed (or out of memory)",
					 c->batsim_csv);
	}
	if (c->swf_out) {
		sim_swf_info si = { c->workload, info->policy, info->alloc,
				    r->nodes, info->w->ppn };
		if (!(fp = sim_open_out(c->swf_out, err)))
			return -1;
		int bad = sim_write_swf(fp, r, &si);
		if (sim_close_out(fp, c->swf_out, err))
			return -1;
		if (bad)
			return tp_errorf(err, "%s: write failed (or out of memory)",
					 c->swf_out);
	}
	return 0;
}

/* --plot: the Gantt chart (SVG), then gnuplot's charts. */
static int write_plots(const sim_config *c, const tp_sim_result *r,
		       const char *title, tp_error *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s-gantt.svg", c->plot);
	if (sim_gantt_svg(r, path, title, err))
		return -1;
	return sim_plot(r, c->plot, title, err);
}

static int write_outputs(const sim_config *c, const tp_sim_result *r,
			 const sim_run_info *info, const tp_topo *topo,
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
	FILE *fp = sim_open_out(c->jobs_csv, err);
	if (!fp)
		return -1;
	tp_error later;
	int rc = sim_write_csv(fp, r, topo->kind != TP_TOPO_FLAT ? node_name : NULL,
			       topo, -1, err);
	if (sim_close_out(fp, c->jobs_csv, rc ? &later : err) || rc)
		return -1;
	if (!(fp = sim_open_out(c->summary_json, err)))
		return -1;
	sim_write_json(fp, &s, info);
	if (sim_close_out(fp, c->summary_json, err) ||
	    write_field_formats(c, r, info, err))
		return -1;
	if (!c->quiet) {
		fprintf(stderr, "toposim: %s/%s: %zu jobs on %d nodes, utilisation %.4f, "
			"mean wait %.0f s (median %.0f, p95 %.0f, p99 %.0f), "
			"mean bounded slowdown %.2f, %.2f s",
			info->policy, info->alloc, s.jobs, s.nodes, s.utilisation,
			s.mean_wait, dist.all.wait.median, dist.all.wait.p95,
			dist.all.wait.p99, s.mean_bsld, info->wall_seconds);
		put_skips(&info->w->skipped);
		if (info->actual)
			put_actual(&s, info);
	}
	if (c->plot)
		return write_plots(c, r, info->policy, err);
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
	s->alloc_from = "toposim --alloc ";
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
				 c->partition, strerror(errno));
	}
	tp_hostlist missing;
	snprintf(label, sizeof(label), "%s (partition %s)", topo->topology,
		 c->partition);
	int rc = sim_restrict_tree(topo->tree, part, c->partition, fp, &missing, err);
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
			tp_hostlist *part, tp_error *err)
{
	tp_topo_spec spec;
	machine_spec(c, *nodes, &spec);
	if (c->slurm_conf &&
	    sim_partition_nodes(c->slurm_conf, c->partition, part, err))
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

/* --job-requests: read them and point the trace's jobs at them. */
static int load_job_reqs(const sim_config *c, const tp_topo *topo,
			 tp_workload *w, tp_jobreqs *q, tp_error *err)
{
	if (!c->job_reqs)
		return 0;
	if (tp_jobreqs_read(q, c->job_reqs, topo->nnodes, node_index, topo, err))
		return -1;
	return tp_jobreqs_apply(q, w, err);
}

/* A trace with no requested time at all replays with exact estimates,
 * which flatters every backfilling policy: say so. */
static void warn_no_estimates(const sim_config *c, const tp_workload *w)
{
	int field = c->swf.estimate_field ? c->swf.estimate_field : 9;
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
			    .scale_sizes = swf->scale_sizes };
	in->w = &in->sacct.w;
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
	tp_summarize(&in->actual.r, &in->actual_sum);
	if (in->actual.outside)
		fprintf(stderr, "toposim: warning: %zu job(s) ran on nodes not in the machine%s%s (first: %s): replayed, but Slurm's placement of them has no cost\n",
			in->actual.outside, c->partition ? " of partition " : "",
			c->partition ? c->partition : "", in->actual.first_outside);
	return 0;
}

static int load(const sim_config *c, tp_topo *topo, sim_input *in,
		tp_jobreqs *reqs, tp_error *err)
{
	tp_swf_opts swf = c->swf;
	if (load_machine(c, topo, &swf.nodes, &in->part, err))
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
	if (slice(c, in, err)) /* after the errors: a job keeps its estimate */
		return -1;
	if (!topo->alloc) {
		tp_topo_spec spec;
		machine_spec(c, w->nodes, &spec);
		if (tp_topo_load(topo, &spec, err))
			return -1;
	}
	put_machine(c, topo);
	warn_fabrics(topo);
	if (load_actual(c, topo, in, err))
		return -1;
	return load_job_reqs(c, topo, w, reqs, err);
}

/* One replay of w with a fresh policy (*p, for its statistics); with
 * frag, its series after every pass. */
static int replay(const sim_config *c, const tp_workload *w,
		  const tp_topo *topo, tp_policy **p, tp_sim_result *r,
		  double *seconds, sim_frag *frag, tp_error *err)
{
	if (!(*p = tp_policy_create(c->set.policy, &c->set.popts, err)))
		return -1;
	tp_engine_opts eo = { .check = c->check, .keep_nodelists = true };
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
static int replay_one(const sim_config *c, const tp_workload *w,
		      const tp_topo *topo, tp_policy **p, tp_sim_result *r,
		      double *seconds, tp_error *err)
{
	sim_frag frag = { 0 };
	if (!c->frag_csv)
		return replay(c, w, topo, p, r, seconds, NULL, err);
	if (sim_frag_open(&frag, c->frag_csv, topo, err))
		return -1;
	int rc = replay(c, w, topo, p, r, seconds, &frag, err);
	if (sim_frag_close(&frag, rc != 0, err))
		rc = -1;
	return rc;
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

static int run_one(const sim_config *c, const sim_input *in,
		   const tp_topo *topo, tp_error *err)
{
	tp_sim_result r = { 0 };
	tp_policy *p = NULL;
	double secs;
	const tp_workload *w = in->w;
	int rc = replay_one(c, w, topo, &p, &r, &secs, err);
	if (!rc) {
		sim_run_info info = run_info(c, topo, w, p, r.rejected, secs);
		if (c->sacct) {
			info.sacct = &in->sacct;
			info.actual = &in->actual_sum;
			info.ran_outside = in->actual.outside;
			info.placed = in->actual.placed;
			info.partition = c->partition;
			info.partition_nodes = (int)in->part.n;
		}
		rc = write_outputs(c, &r, &info, topo, err);
	}
	tp_sim_result_fini(&r);
	tp_policy_destroy(p);
	return rc;
}

static void put_window(const sim_config *c, const char *what,
		       const tp_summary *s)
{
	if (!c->quiet)
		fprintf(stderr, "toposim: %s: %zu jobs, utilisation %.4f, mean wait %.0f s, mean bounded slowdown %.2f\n",
			what, s->jobs, s->utilisation, s->mean_wait, s->mean_bsld);
}

/* Window i of win: its slice replayed alone, its rows in the CSV. */
static int run_window(const sim_config *c, const sim_windows *win,
		      const tp_workload *all, const tp_topo *topo, size_t i,
		      FILE *csv, tp_summary *s, tp_error *err)
{
	tp_workload w = *all;
	w.jobs = all->jobs + win->starts[i];
	w.njobs = win->len;
	tp_sim_result r = { 0 };
	tp_policy *p = NULL;
	double secs;
	int rc = replay(c, &w, topo, &p, &r, &secs, NULL, err);
	if (!rc)
		rc = sim_write_csv(csv, &r, topo->kind != TP_TOPO_FLAT ? node_name : NULL,
				   topo, (int)i, err);
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
static int replay_windows(const sim_config *c, const sim_windows *win,
			  const tp_workload *w, const tp_topo *topo,
			  tp_summary *s, tp_error *err)
{
	FILE *csv = sim_open_out(c->jobs_csv, err);
	if (!csv)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < win->k && !rc; i++)
		rc = run_window(c, win, w, topo, i, csv, &s[i], err);
	tp_error later;
	if (sim_close_out(csv, c->jobs_csv, rc ? &later : err))
		rc = -1;
	return rc;
}

static int write_windows_json(const sim_config *c, const sim_windows *win,
			      const tp_workload *w, const tp_topo *topo,
			      const tp_summary *s, tp_error *err)
{
	tp_summary mean;
	sim_summary_mean(s, win->k, &mean);
	put_window(c, "mean of the windows", &mean);
	FILE *fp = sim_open_out(c->summary_json, err);
	if (!fp)
		return -1;
	sim_run_info info = { .workload = c->workload, .policy = c->set.policy,
			      .alloc = topo->alloc_name, .w = w };
	sim_write_windows_json(fp, &info, win->starts, win->len, s, win->k,
			       &mean);
	return sim_close_out(fp, c->summary_json, err);
}

/* --windows: the starts drawn (or checked) for this trace, each window
 * replayed alone, each one's metrics and their mean. */
static int run_windows(const sim_config *c, const tp_workload *w,
		       const tp_topo *topo, tp_error *err)
{
	sim_windows win = c->windows; /* drawn starts are this run's */
	if (sim_windows_resolve(&win, w->njobs, err))
		return -1;
	tp_summary *s = calloc(win.k, sizeof(*s));
	int rc = s ? replay_windows(c, &win, w, topo, s, err)
		   : tp_errorf(err, "--windows: out of memory");
	if (!rc)
		rc = write_windows_json(c, &win, w, topo, s, err);
	free(s);
	if (win.drawn)
		free(win.starts);
	return rc;
}

static int run(const sim_config *c, tp_error *err)
{
	tp_topo topo = { 0 };
	sim_input in = { .w = &in.swf };
	tp_jobreqs reqs = { 0 };
	int rc = load(c, &topo, &in, &reqs, err);
	if (!rc)
		rc = c->windows.k ? run_windows(c, in.w, &topo, err)
				  : run_one(c, &in, &topo, err);
	tp_workload_fini(&in.swf);
	tp_sacct_fini(&in.sacct);
	tp_hostlist_fini(&in.part);
	sim_actual_fini(&in.actual);
	tp_jobreqs_fini(&reqs);
	tp_topo_fini(&topo);
	return rc;
}

int main(int argc, char **argv)
{
	sim_config c;
	tp_error err = { "" };
	sim_parse_args(&c, argc, argv);
	int rc = c.machine ? sim_het_run(&c, &err) : run(&c, &err);
	if (rc)
		fprintf(stderr, "toposim: %s\n", err.msg);
	sim_windows_fini(&c.windows);
	return rc ? 1 : 0;
}
