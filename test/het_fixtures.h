/* het_fixtures.h - small heterogeneous machines and expected-time tables
 * for check_het_plan.c and check_het_pjs.c. */
#ifndef TP_HET_FIXTURES_H
#define TP_HET_FIXTURES_H

#include "hetero/het.h"

#include <check.h>
#include <string.h>

#define FX_JOBS 8
#define FX_PARTS 4
#define FX_N 5

/* t[job id][partition][nodes]; 0: the option cannot run. */
typedef struct fx_etc {
	double t[FX_JOBS][FX_PARTS][FX_N];
} fx_etc;

static inline double fx_etc_fn(void *arg, const tp_het_job *j, int p, int n)
{
	const fx_etc *e = arg;
	if (j->id < 0 || j->id >= FX_JOBS || p >= FX_PARTS || n >= FX_N)
		return TP_HET_NO_RUN;
	double v = e->t[j->id][p][n];
	return v > 0 ? v : TP_HET_NO_RUN;
}

/* A job with id `id` on partitions parts[0..nparts). */
static inline tp_het_job fx_job(int id, int nmin, int nmax, const int *parts,
				int nparts)
{
	tp_het_job j;
	memset(&j, 0, sizeof(j));
	j.id = id;
	j.estimate = 100;
	j.nmin = nmin;
	j.nmax = nmax;
	j.parts = parts;
	j.nparts = nparts;
	return j;
}

static inline void fx_plan(const tp_het_machine *m, double now,
			   const tp_het_job *jobs, size_t n, tp_het_algo algo,
			   fx_etc *e, tp_het_plan *p)
{
	tp_error err = { "" };
	tp_het_plan_init(p);
	int rc = tp_het_schedule(m, now, jobs, n, algo, fx_etc_fn, e, p,
				 &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
}

/* Assignment i is job `job` on partition `part` over [start, end). */
#define fx_assert_assign(pl, i, job_, part_, start_, end_)                 \
	do {                                                               \
		ck_assert_uint_gt((pl)->n, (i));                           \
		ck_assert_uint_eq((pl)->a[i].job, (job_));                 \
		ck_assert_int_eq((pl)->a[i].part, (part_));                \
		ck_assert_double_eq_tol((pl)->a[i].start, (start_), 1e-9); \
		ck_assert_double_eq_tol((pl)->a[i].end, (end_), 1e-9);     \
	} while (0)

#endif
