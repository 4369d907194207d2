/*
 * bench_fattree_replay.c - what the fat-tree allocation buys on real
 * traces: each trace is replayed under EASY backfilling with each
 * allocator ("fattree", the default; the patent's "fattree-msu" with each
 * small-job rule; the Slurm-like baselines "tree-greedy" (22.05),
 * "tree-slurm" (24.05 to 24.11) and "tree-slurm-26.05" (label ts-26.05),
 * and the topology-blind "first-free") on a fat tree of the trace's
 * size, through the same core calls toposim makes (tp_swf_read,
 * tp_simulate, tp_summarize).
 *
 * Machines (leaf switches of 4 nodes, switches of 4 children above):
 *   SDSC-SP2    128 nodes: 32 leaves, 8 middle switches, 2 upper switches
 *               and a root over those 2 (128 is not a power of 4, so the
 *               top switch has 2 children);
 *   lublin_256  256 nodes: 64 leaves, 16 and 4 switches, a root (the
 *               tree of tp_fattree_generate(4, 4)).
 *
 * Printed per (trace, allocator): mean hop sum (the patent's metric,
 * tp_fattree_hop_sum: pairwise hops between the MSUs a job touches) over
 * multi-node runs (tp_summary.mean_cost) and over multi-unit runs (more
 * nodes than one 4-node unit), the mean node-level spread of multi-node
 * runs (topology/spread.h: every pair of nodes, 1 = most compact; the
 * run-time model at share 0 measures it without changing run times),
 * utilisation, mean wait and the simulation's wall time; then ratios
 * against the baselines measured in the same run.  first-free has no cost of its own: the bench wraps it
 * so its placements are scored with the same hop sum.  Nothing is
 * asserted.  Traces are read from $TP_SHARED_DATA/traces (default the
 * source tree's data/); a missing one is reported and
 * skipped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "settings/settings.h"
#include "alloc/alloc.h"
#include "engine/engine.h"
#include "topology/fattree.h"
#include "engine/metrics.h"
#include "policy/policy.h"
#include "trace/swf.h"
#include "trace/workload.h"
#include "rtmodel/rtmodel.h"

#ifndef TP_DEFAULT_DATA_DIR
#define TP_DEFAULT_DATA_DIR "data"
#endif

#define WIDTH 4 /* leaf size and switch fan-out of both machines */

/* The variants replayed: the default, the patent's "fattree-msu" with
 * each small-job rule (exact fit only, the patent's; or BusyFallback,
 * partly used units when no free unit remains), then the baselines. */
typedef struct variant {
	const char *label, *alloc;
	int busy_fallback;
} variant;

static const variant variants[] = {
	{ "fattree", "fattree", 0 },
	{ "ft-msu", "fattree-msu", 0 },
	{ "msu-busyfb", "fattree-msu", 1 },
	{ "tree-greedy", "tree-greedy", 0 },
	{ "tree-slurm", "tree-slurm", 0 },
	{ "ts-26.05", "tree-slurm-26.05", 0 },
	{ "first-free", "first-free", 0 },
};
#define NVAR (sizeof(variants) / sizeof(variants[0]))
#define V_DEFAULT 0
#define V_EXACT 1
#define V_BUSY 2
#define V_TG 3
#define V_TS 4
#define V_TS26 5

typedef struct result {
	double hop_node, hop_unit, spread, util, wait, bsld, secs;
	int64_t makespan;
	size_t runs;
} result;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- trees ---- */

/* A fat tree of `nnodes` nodes (a multiple of WIDTH) as topology.conf:
 * leaves of WIDTH nodes, then levels of switches of up to WIDTH children
 * until one root is left. */
static int write_tree_conf(FILE *fp, int nnodes)
{
	int count = nnodes / WIDTH, lv = 0;
	for (int i = 0; i < count; i++)
		if (fprintf(fp, "SwitchName=s0-%d Nodes=n[%d-%d]\n", i,
			    i * WIDTH + 1, (i + 1) * WIDTH) < 0)
			return -1;
	while (count > 1) {
		int up = (count + WIDTH - 1) / WIDTH;
		lv++;
		for (int i = 0; i < up; i++) {
			int lo = i * WIDTH, hi = lo + WIDTH - 1;
			if (hi >= count)
				hi = count - 1;
			if (fprintf(fp, "SwitchName=s%d-%d Switches=s%d-[%d-%d]\n",
				    lv, i, lv - 1, lo, hi) < 0)
				return -1;
		}
		count = up;
	}
	return 0;
}

/* Load a tree of nnodes through a temporary topology.conf, so the tree
 * goes through the same parser as the plugin's and toposim's. */
static tp_fattree *tree_of(int nnodes, tp_error *err)
{
	char path[] = "/tmp/bench_fattree_replay.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		tp_errorf(err, "mkstemp %s failed", path);
		return NULL;
	}
	FILE *fp = fdopen(fd, "w");
	int rc = fp ? write_tree_conf(fp, nnodes) : -1;
	if (fp && fclose(fp))
		rc = -1;
	else if (!fp)
		close(fd);
	tp_fattree *t = NULL;
	if (rc)
		tp_errorf(err, "%s: write error", path);
	else
		t = tp_fattree_load(path, err);
	unlink(path);
	return t;
}

/* ---- first-free scored with the hop sum ---- */

typedef struct scored {
	tp_alloc *inner;
	const tp_fattree *t;
	tp_alloc_ops ops; /* inner's, with cost and destroy replaced */
} scored;

static int scored_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	scored *s = a->state;
	return tp_alloc_place_req(s->inner, free, req, out);
}

static int scored_capacity(tp_alloc *a, const tp_nodeset *free)
{
	scored *s = a->state;
	return tp_alloc_capacity(s->inner, free);
}

static double scored_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	scored *s = a->state;
	return (double)tp_fattree_hop_sum(s->t, nodes);
}

static void scored_destroy(tp_alloc *a)
{
	scored *s = a->state;
	tp_alloc_destroy(s->inner);
	free(s);
}

/* The allocator `name`; one without a cost gets the tree's hop sum. */
static tp_alloc *alloc_for(const char *name, const tp_fattree *t, tp_error *err)
{
	tp_alloc_cfg cfg = { .nnodes = tp_fattree_nnodes(t), .fattree = t };
	tp_alloc *a = tp_alloc_create(name, &cfg, err);
	if (!a || a->ops->cost)
		return a;
	scored *s = calloc(1, sizeof(*s));
	tp_alloc *w = s ? tp_alloc_new(&s->ops, a->nnodes, s) : NULL;
	if (!w) {
		free(s);
		tp_alloc_destroy(a);
		tp_errorf(err, "out of memory");
		return NULL;
	}
	s->inner = a;
	s->t = t;
	s->ops = *a->ops; /* keeps name and flags (FLAT matters to EASY) */
	s->ops.place = scored_place;
	s->ops.capacity = scored_capacity;
	s->ops.cost = scored_cost;
	s->ops.destroy = scored_destroy;
	return w;
}

/* ---- one replay ---- */

static int replay(const tp_workload *w, tp_fattree *t, const variant *v,
		  result *r, tp_error *err)
{
	tp_fattree_opts fo = t->opts;
	fo.busy_fallback = v->busy_fallback;
	if (tp_fattree_set_opts(t, &fo, err))
		return -1;
	const char *alloc = v->alloc;
	tp_policy_opts po;
	tp_policy_opts_default(&po);
	tp_policy *p = tp_policy_create("easy", &po, err);
	tp_alloc *a = p ? alloc_for(alloc, t, err) : NULL;
	if (!a) {
		tp_policy_destroy(p);
		return -1;
	}
	/* share 0: spreads measured, run times unchanged */
	tp_rtmodel model;
	if (tp_rtmodel_init(&model, t, NULL, 0.0, err)) {
		tp_alloc_destroy(a);
		tp_policy_destroy(p);
		return -1;
	}
	tp_engine_opts eo = { .runtime_model = &model };
	tp_sim_result res = { 0 };
	double t0 = now_s();
	int rc = tp_simulate(w, p, a, &eo, &res, err);
	r->secs = now_s() - t0;
	if (!rc) {
		tp_summary s;
		tp_summarize(&res, &s);
		r->hop_node = s.mean_cost;
		r->spread = s.mean_spread_multi;
		r->util = s.utilisation;
		r->wait = s.mean_wait;
		r->bsld = s.mean_bsld;
		r->makespan = s.makespan;
		r->runs = s.runs;
		double sum = 0;
		size_t n = 0;
		int nunit = tp_fattree_nunit(t);
		for (size_t i = 0; i < res.nrec; i++)
			if (res.rec[i].nodes_alloc > nunit && res.rec[i].cost >= 0) {
				sum += res.rec[i].cost;
				n++;
			}
		r->hop_unit = n ? sum / (double)n : -1;
	}
	tp_sim_result_fini(&res);
	tp_rtmodel_fini(&model);
	tp_alloc_destroy(a);
	tp_policy_destroy(p);
	return rc;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* Replay w on t with every variant; print a row each and the ratios. */
static int bench_workload(const char *label, const tp_workload *w, tp_fattree *t)
{
	tp_error err = { { 0 } };
	printf("%s: %d nodes, %d levels, %d MSUs of %d; %zu jobs; policy easy\n",
	       label, tp_fattree_nnodes(t), t->levels, tp_fattree_nmsu(t),
	       tp_fattree_nunit(t), w->njobs);
	printf("  %-12s %10s %10s %8s %8s %12s %9s %11s %7s\n", "allocator",
	       "hop_multi", "hop_unit", "spread", "util", "mean_wait_s",
	       "mean_bsld", "makespan_s", "sim_s");
	result r[NVAR];
	for (size_t i = 0; i < NVAR; i++) {
		if (replay(w, t, &variants[i], &r[i], &err)) {
			fprintf(stderr, "bench_fattree_replay: %s %s: %s\n",
				label, variants[i].label, err.msg);
			return -1;
		}
		printf("  %-12s %10.3f %10.3f %8.4f %8.4f %12.1f %9.2f %11lld %7.2f\n",
		       variants[i].label, r[i].hop_node, r[i].hop_unit,
		       r[i].spread, r[i].util, r[i].wait, r[i].bsld,
		       (long long)r[i].makespan, r[i].secs);
	}
	static const struct { const char *name; int a, b; } ratios[] = {
		{ "ft/ts", V_DEFAULT, V_TS },
		{ "ft/ts-26.05", V_DEFAULT, V_TS26 },
		{ "ft/ft-msu", V_DEFAULT, V_EXACT },
		{ "msu/tg", V_EXACT, V_TG },
		{ "busyfb/tg", V_BUSY, V_TG },
		{ "busyfb/msu", V_BUSY, V_EXACT },
		{ "msu/ts", V_EXACT, V_TS },
		{ "msu/ts-26.05", V_EXACT, V_TS26 },
	};
	for (size_t k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++) {
		const result *a = &r[ratios[k].a], *b = &r[ratios[k].b];
		printf("  %-12s %10.4f %10.4f %8.4f %8.4f %12.4f %9.4f %11.4f %7.2f\n",
		       ratios[k].name, ratio(a->hop_node, b->hop_node),
		       ratio(a->hop_unit, b->hop_unit), ratio(a->spread, b->spread),
		       ratio(a->util, b->util),
		       ratio(a->wait, b->wait), ratio(a->bsld, b->bsld),
		       ratio((double)a->makespan, (double)b->makespan),
		       ratio(a->secs, b->secs));
	}
	return 0;
}

static int bench_trace(const char *dir, const char *label, const char *file,
		       int nnodes)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/traces/%s", dir, file);
	if (access(path, R_OK)) {
		printf("%s: skipped, %s not readable\n", label, path);
		return 0;
	}
	tp_error err = { { 0 } };
	tp_fattree *t = tree_of(nnodes, &err);
	if (!t) {
		fprintf(stderr, "bench_fattree_replay: %s\n", err.msg);
		return -1;
	}
	tp_swf_opts so = { .nodes = nnodes };
	tp_workload w;
	int rc = tp_swf_read(path, &so, &w, &err);
	if (rc)
		fprintf(stderr, "bench_fattree_replay: %s\n", err.msg);
	else
		rc = bench_workload(label, &w, t);
	tp_workload_fini(&w);
	tp_fattree_free(t);
	return rc;
}

/* The live burst (issue: 5,000 single-node jobs on 64 nodes) in the
 * simulator: BURST_JOBS one-node jobs submitted at once, run times drawn
 * from 30..90 s (seeded), estimates twice that. */
#define BURST_JOBS 5000
#define BURST_NODES 64
static int bench_burst(void)
{
	tp_error err = { { 0 } };
	tp_fattree *t = tree_of(BURST_NODES, &err);
	if (!t) {
		fprintf(stderr, "bench_fattree_replay: %s\n", err.msg);
		return -1;
	}
	tp_workload w = { .nodes = BURST_NODES, .ppn = 1 };
	uint64_t x = 88172645463325252ull; /* xorshift64, fixed seed */
	int rc = 0;
	for (int i = 0; i < BURST_JOBS && !rc; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		tp_wjob j = { .id = i + 1, .submit = 0, .nodes = 1,
			      .runtime = 30 + (int64_t)(x % 61) };
		j.estimate = 2 * j.runtime;
		rc = tp_workload_add(&w, &j);
	}
	if (rc)
		fprintf(stderr, "bench_fattree_replay: out of memory\n");
	else
		rc = bench_workload("burst", &w, t);
	tp_workload_fini(&w);
	tp_fattree_free(t);
	return rc;
}

int main(void)
{
	const char *dir = getenv("TP_SHARED_DATA");
	if (!dir || !*dir)
		dir = TP_DEFAULT_DATA_DIR;
	printf("hop_multi: mean hop sum of multi-node runs; hop_unit: of runs "
	       "of more than one %d-node unit\n", WIDTH);
	printf("fattree: exact fit for jobs of one unit or less (the patent); "
	       "ft-busyfb: BusyFallback=yes\n");
	int rc = bench_trace(dir, "SDSC-SP2", "SDSC-SP2-1998-4.2-cln.swf.gz", 128);
	if (!rc)
		rc = bench_trace(dir, "lublin_256", "lublin_256.swf.gz", 256);
	if (!rc)
		rc = bench_burst();
	return rc ? 1 : 0;
}
