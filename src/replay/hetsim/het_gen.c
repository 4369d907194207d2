/* het_gen.c - the paper's machines, jobs and truths; see het_gen.h. */
#include "hetsim/het_gen.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "trace/rng.h"

#define NCLASS 5
#define MAXMC 6

static const double class_mean[NCLASS] = { 600, 1200, 1800, 3000, 4800 };
/* Whole-cluster time / sequential time, for a cluster of 8. */
static const double class_par[NCLASS] = { 1.0 / 3, 1.0 / 3, 1.0 / 3, 0.7, 0 };
static const double mc_slow[MAXMC] = { 1, 1.3, 1.6, 2, 2.5, 3 };

void tp_hetgen_opts_default(tp_hetgen_opts *o)
{
	*o = (tp_hetgen_opts){ .machine = TP_HETGEN_SITE, .load = 1,
			       .pct_parallel = 50, .variants = 3, .seed = 1 };
}

static int add_part(tp_het_conf *c, const char *name, int mc, int first,
		    int n)
{
	int node[8];
	char nm[32], cls[8];
	for (int i = 0; i < n; i++) {
		snprintf(nm, sizeof(nm), "m%03d", first + i + 1);
		if (tp_het_conf_add_node(c, nm, &node[i]))
			return -1;
	}
	snprintf(cls, sizeof(cls), "s%d", mc + 1);
	return tp_het_conf_add_part(c, name, cls, node, n);
}

static int make_machine(const tp_hetgen_opts *o, tp_het_conf *c, int *nmc)
{
	char name[16];
	int first = 0;
	memset(c, 0, sizeof(*c));
	if (o->machine == TP_HETGEN_SITE) {
		*nmc = 6;
		for (int k = 0; k < 18; k++) {
			int n = k == 17 ? 6 : 8;
			snprintf(name, sizeof(name), "c%02d", k + 1);
			if (add_part(c, name, k % 6, first, n))
				return -1;
			first += n;
		}
		return 0;
	}
	*nmc = 4;
	for (int k = 0; k < 5; k++, first += 4) {
		snprintf(name, sizeof(name), "c%d", k + 1);
		if (add_part(c, name, k % 4, first, 4))
			return -1;
	}
	for (int k = 0; k < 20; k++, first++) {
		snprintf(name, sizeof(name), "l%02d", k + 1);
		if (add_part(c, name, k % 4, first, 1))
			return -1;
	}
	return 0;
}

typedef struct gen {
	const tp_hetgen_opts *o;
	tp_het_conf *c;
	tp_het_workload *w;
	tp_expdb *truth;
	tp_rng rng;
	int nmc, widest;
	double speed[NCLASS][MAXMC];
	double *vmean;         /* [NCLASS * variants] */
} gen;

static double seq_time(const gen *g, int k, int v, int mc)
{
	return g->vmean[k * g->o->variants + v] * g->speed[k][mc];
}

/* The truth: every (variant, machine class) sequentially, and on every
 * cluster size of that class for the parallel classes. */
static int make_truth(gen *g)
{
	char jn[16], mn[16];
	for (int k = 0; k < NCLASS; k++)
		for (int v = 0; v < g->o->variants; v++) {
			snprintf(jn, sizeof(jn), "%c%d", 'A' + k, v + 1);
			int jc = tp_expdb_jclass(g->truth, jn);
			if (jc < 0 || tp_het_workload_class(g->w, jn) < 0)
				return -1;
			for (int p = 0; p < g->c->nparts; p++) {
				const tp_het_part *pt = &g->c->part[p];
				int m = pt->mclass;
				snprintf(mn, sizeof(mn), "s%d", m + 1);
				int mc = tp_expdb_mclass(g->truth, mn);
				double t = seq_time(g, k, v, m);
				tp_expdb_stat st;
				if (mc < 0)
					return -1;
				if (!tp_expdb_get(g->truth, jc, mc, 1, &st) &&
				    tp_expdb_add(g->truth, jc, mc, 1, t))
					return -1;
				if (pt->nnodes < 2 || class_par[k] <= 0 ||
				    tp_expdb_get(g->truth, jc, mc, pt->nnodes, &st))
					continue;
				double par = t * class_par[k] * 8.0 / pt->nnodes;
				if (tp_expdb_add(g->truth, jc, mc, pt->nnodes, par))
					return -1;
			}
		}
	return 0;
}

static int level_of(gen *g)
{
	const int *p = g->o->prio;
	double u = 100 * tp_rng_uniform(&g->rng);
	return u < p[0] ? 0 : u < p[0] + p[1] ? 1 : p[0] + p[1] + p[2] ? 2 : 0;
}

static int make_jobs(gen *g, size_t njobs)
{
	const tp_hetgen_opts *o = g->o;
	int parts[64];
	for (int p = 0; p < g->c->nparts; p++)
		parts[p] = p;
	size_t npar = (size_t)llround((double)njobs * o->pct_parallel / 100.0);
	/* Mean sequential work per job on the reference class, for the
	 * arrival rate. */
	double work = 0;
	for (int k = 0; k < NCLASS; k++)
		work += class_mean[k] / NCLASS;
	double rate = o->arrival_util * g->c->nnodes / work, t = 0;
	for (size_t i = 0; i < njobs; i++) {
		/* Possibly-parallel jobs spread evenly through the stream. */
		bool par = (i + 1) * npar / njobs > i * npar / njobs;
		int k = (int)tp_rng_below(&g->rng, par ? NCLASS - 1 : NCLASS);
		int v = (int)tp_rng_below(&g->rng, (uint64_t)o->variants);
		double slowest = 0;
		for (int m = 0; m < g->nmc; m++)
			if (seq_time(g, k, v, m) > slowest)
				slowest = seq_time(g, k, v, m);
		if (rate > 0)
			t += -log(1 - tp_rng_uniform(&g->rng)) / rate;
		tp_het_job j = { .id = (int64_t)i + 1, .submit = (int64_t)t,
				 .estimate = (int64_t)ceil(1.2 * slowest),
				 .nmin = 1, .nmax = par ? g->widest : 1,
				 .jclass = k * o->variants + v,
				 .prio = level_of(g), .parts = parts,
				 .nparts = g->c->nparts };
		if (tp_het_workload_add(g->w, &j))
			return -1;
	}
	return 0;
}

int tp_hetgen(const tp_hetgen_opts *o, tp_het_conf *c, tp_het_workload *w,
	      tp_expdb *truth, tp_error *err)
{
	if (o->variants < 1 || o->pct_parallel < 0 || o->pct_parallel > 100 ||
	    o->load < 0 || o->arrival_util < 0 || o->prio[0] < 0 ||
	    o->prio[1] < 0 || o->prio[2] < 0 ||
	    o->prio[0] + o->prio[1] + o->prio[2] > 100)
		return tp_errorf(err, "hetgen: bad options (variants >= 1, %% in [0, 100], priority %% summing to at most 100)");
	gen g = { .o = o, .c = c, .w = w, .truth = truth };
	memset(w, 0, sizeof(*w));
	tp_rng_seed(&g.rng, o->seed);
	if (make_machine(o, c, &g.nmc))
		goto oom;
	for (int p = 0; p < c->nparts; p++)
		if (c->part[p].nnodes > g.widest)
			g.widest = c->part[p].nnodes;
	for (int k = 0; k < NCLASS; k++)
		for (int m = 0; m < g.nmc; m++)
			g.speed[k][m] = mc_slow[m] * tp_rng_range(&g.rng, 0.7, 1.3);
	if (!(g.vmean = malloc(sizeof(double) * NCLASS * (size_t)o->variants)))
		goto oom;
	for (int i = 0; i < NCLASS * o->variants; i++)
		g.vmean[i] = class_mean[i / o->variants] * tp_rng_range(&g.rng, 0.5, 1.5);
	size_t njobs = o->njobs ? o->njobs
		: (size_t)llround(o->load * c->nnodes);
	if (make_truth(&g) || make_jobs(&g, njobs ? njobs : 1))
		goto oom;
	free(g.vmean);
	return 0;
oom:
	free(g.vmean);
	tp_het_workload_fini(w);
	tp_het_conf_fini(c);
	return tp_errorf(err, "hetgen: out of memory");
}
