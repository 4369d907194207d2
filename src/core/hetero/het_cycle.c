/* het_cycle.c - the Slurm-free half of a heterogeneous cycle; see
 * het_cycle.h. */
#include "hetero/het_cycle.h"

#include <math.h>

bool tp_het_learnable(tp_het_end how, double start, double end, int nodes)
{
	/* Only a run that ended by itself measures its work; the others
	 * are censored (limit) or meaningless (failed, cancelled). */
	return how == TP_HET_END_COMPLETED && nodes >= 1 && isfinite(start) &&
	       isfinite(end) && end >= start;
}

int tp_het_learn(tp_expdb *db, int jclass, int mclass, int nodes,
		 tp_het_end how, double start, double end)
{
	if (!tp_het_learnable(how, start, end, nodes))
		return 0;
	/* A negative class is an intern that ran out of memory. */
	if (jclass < 0 || mclass < 0 ||
	    tp_expdb_add(db, jclass, mclass, nodes, end - start))
		return -1;
	return 1;
}

double tp_het_run_ready(tp_het_etc_fn etc, void *etc_arg,
			const tp_het_run *r, double now)
{
	/* The job as a plan would see it: its class, and its limit as the
	 * estimate a database without history falls back to. */
	tp_het_job j = { .jclass = r->jclass, .nmin = r->nodes,
			 .nmax = r->nodes,
			 .estimate = (int64_t)llround(r->limit_end - r->start),
			 .owner = r->owner };
	double pred = r->jclass < 0 ? 0 : etc(etc_arg, &j, r->part, r->nodes);
	return tp_het_expected_free(now, r->start, pred, r->limit_end);
}

void tp_het_ready_raise(double *ready, const int *node, int n, double t)
{
	for (int k = 0; k < n; k++)
		if (ready[node[k]] != TP_HET_NEVER && ready[node[k]] < t)
			ready[node[k]] = t;
}

/* The ended runs into the database, in the order they ended (the
 * running means are order-sensitive in their last bits). */
static void learn_ended(const tp_het_cycle_in *in, tp_het_cycle_out *out)
{
	for (size_t k = 0; k < in->nended; k++) {
		const tp_het_ended *e = &in->ended[k];
		int rc = e->part < 0 || e->part >= in->nparts ? -1 :
			tp_het_learn(in->db, e->jclass, in->part[e->part].mclass,
				     e->nodes, e->how, e->start, e->end);
		if (rc > 0)
			out->learned++;
		else if (rc == 0)
			out->not_learned++;
		else
			out->learn_failed++;
	}
}

int tp_het_cycle(const tp_het_cycle_in *in, tp_het_plan *plan,
		 tp_het_cycle_out *out, tp_error *err)
{
	*out = (tp_het_cycle_out){ 0 };
	tp_het_plan_init(plan);
	learn_ended(in, out);
	if (!in->njobs)
		return 0;
	tp_het_machine m = { .nnodes = in->nnodes, .ready = in->ready,
			     .part = in->part, .nparts = in->nparts };
	tp_expdb_etc_arg ea = { .db = in->db, .m = &m };
	tp_het_etc_fn etc = in->etc ? in->etc : tp_expdb_etc;
	void *arg = in->etc ? in->etc_arg : &ea;
	for (size_t k = 0; k < in->nrun; k++) {
		const tp_het_run *r = &in->run[k];
		if (r->part < 0 || r->part >= in->nparts)
			return tp_errorf(err, "heterogeneous cycle: a running job in partition %d of %d",
					 r->part, in->nparts);
		tp_het_ready_raise(in->ready, r->node, r->nodes,
				   tp_het_run_ready(etc, arg, r, in->now));
	}
	out->planned = true;
	return tp_het_pass(&m, in->now, in->job,
			   tp_het_planned(in->njobs, in->max_jobs), in->algo,
			   etc, arg, plan, err);
}
