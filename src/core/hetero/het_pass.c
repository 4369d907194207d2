/* het_pass.c - one scheduling pass's decision; see het.h. */
#include "hetero/het.h"

#include <stdlib.h>

/* A start within this of now is now (the plan's times are sums of
 * doubles). */
#define HET_NOW_EPS 1e-9

int tp_het_pass(const tp_het_machine *m, double now, const tp_het_job *jobs,
		size_t njobs, tp_het_algo algo, tp_het_etc_fn etc, void *arg,
		tp_het_plan *out, tp_error *err)
{
	if (tp_het_schedule(m, now, jobs, njobs, algo, etc, arg, out, err))
		return -1;
	/* total, used and the counts stay the whole plan's: they describe
	 * the decision, the kept assignments are what it starts now. */
	size_t kept = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (out->a[i].start <= now + HET_NOW_EPS)
			out->a[kept++] = out->a[i];
		else
			free(out->a[i].node);
	}
	out->n = kept;
	return 0;
}

double tp_het_expected_free(double now, double start, double predicted,
			    double limit)
{
	double e = predicted > 0 ? start + predicted : limit;
	if (e > limit)
		e = limit;
	if (e < now + 1)
		e = now + 1;
	return e;
}
