/*
 * het_gen.h - seeded heterogeneous machines, jobs and truths for George &
 * Collins' experiments (section 5; doc/heterogeneous.md says what each
 * choice stands for).
 *
 * Machines: TP_HETGEN_SITE, the paper's site: 142 machines in 18
 * clusters, 17 of 8 identical machines and one of 6, in 6 machine classes
 * of different speeds (cluster k has class k mod 6).  TP_HETGEN_SMALL,
 * the overhead study's: 40 machines, five clusters of four and twenty
 * loose machines (partitions of one node: no parallel option there), in 4
 * machine classes.
 *
 * Jobs: five job classes A..E with per-class mean sequential times
 * (600, 1200, 1800, 3000, 4800 s) on the reference class; a random
 * class-by-machine-class speed matrix (each machine class's slowdown
 * 1, 1.3, 1.6, 2, 2.5, 3, times a per-job-class factor in [0.7, 1.3]:
 * inconsistent heterogeneity); `variants` variants per class (each a
 * random factor in [0.5, 1.5] of the class mean: the job class names are
 * "A1", "A2", ...).  Class E is strictly sequential; class D speeds up
 * modestly (a whole cluster runs it in 0.7 of its sequential time); A..C
 * run on a whole cluster in one third of it (scaled by 8 / size for a
 * smaller cluster).  Only whole clusters are parallel options: the truth
 * has node counts 1 and the cluster sizes.
 *
 * A possibly-parallel job asks for Nodes=1-C (C the largest cluster) and
 * is of a class A..D; the others Nodes=1, any class.  Every job may run
 * on every partition.  Its time limit is 1.2 x its slowest sequential
 * time (so a database that knows nothing predicts above the truth).
 */
#ifndef TP_HET_GEN_H
#define TP_HET_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "hetsim/het_conf.h"
#include "hetero/het_expdb.h"
#include "base/error.h"

typedef enum tp_hetgen_machine {
	TP_HETGEN_SITE = 0,   /* 142 machines */
	TP_HETGEN_SMALL,      /* 40 machines */
} tp_hetgen_machine;

typedef struct tp_hetgen_opts {
	tp_hetgen_machine machine;
	size_t njobs;          /* 0: load x machines */
	double load;           /* light 0.25, moderate 1, heavy 4 */
	/* > 0: Poisson arrivals offering this fraction of the machine's
	 * capacity (mean sequential work on the reference class / machines
	 * per second); 0: every job submitted at time 0. */
	double arrival_util;
	int pct_parallel;      /* % of jobs possibly parallel (exact count) */
	int prio[3];           /* % at levels 0, 1, 2; all 0: every job 0 */
	int variants;          /* per job class, >= 1 */
	uint64_t seed;
} tp_hetgen_opts;

void tp_hetgen_opts_default(tp_hetgen_opts *o);

/* Fills c, w (empty before) and truth (its entries added).  0, or -1 with
 * err (bad options, ENOMEM). */
int tp_hetgen(const tp_hetgen_opts *o, tp_het_conf *c, tp_het_workload *w,
	      tp_expdb *truth, tp_error *err);

#endif
