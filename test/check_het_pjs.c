/* check_het_pjs.c - unit tests for het_pjs.c: SJS, PJS and properties of
 * every schedule on random machines. */
#include "check_util.h"
#include "het_fixtures.h"
#include "trace/rng.h"

#include <stdlib.h>
#include <string.h>

static const int n_ab[] = { 0, 1 }, n_c[] = { 2 }, ab[] = { 0, 1 };
static const int p0[] = { 0 };

/* The three-job example of check_het_plan.c: min-min 14, min-max 13, so
 * SJS keeps min-max's schedule. */
START_TEST(test_sjs_min_max)
{
	const tp_het_part parts[] = { { "A", 0, n_ab, 2 }, { "B", 1, n_c, 1 } };
	double ready[3] = { 0, 0, 0 };
	tp_het_machine m = { 3, ready, parts, 2 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	const double t[3][2] = { { 2, 3 }, { 4, 5 }, { 6, 10 } };
	tp_het_job j[3];
	for (int i = 0; i < 3; i++) {
		j[i] = fx_job(i, 1, 1, ab, 2);
		e.t[i][0][1] = t[i][0];
		e.t[i][1][1] = t[i][1];
	}
	tp_het_plan p;
	fx_plan(&m, 0, j, 3, TP_HET_SJS, &e, &p);
	ck_assert_int_eq(p.used, TP_HET_MIN_MAX);
	ck_assert_double_eq_tol(p.total, 13, 1e-9);
	fx_assert_assign(&p, 0, 2, 0, 0, 6);
	fx_assert_assign(&p, 1, 1, 0, 0, 4);
	fx_assert_assign(&p, 2, 0, 1, 0, 3);
	tp_het_plan_fini(&p);
}
END_TEST

/* One node, jobs of 1 and 5 s: min-min [0,1] [1,6] = 7, min-max [0,5]
 * [5,6] = 11: SJS keeps min-min. */
START_TEST(test_sjs_min_min)
{
	static const int n1[] = { 0 };
	const tp_het_part parts[] = { { "P", 0, n1, 1 } };
	double ready[1] = { 0 };
	tp_het_machine m = { 1, ready, parts, 1 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	e.t[0][0][1] = 5;
	e.t[1][0][1] = 1;
	tp_het_job j[2] = { fx_job(0, 1, 1, p0, 1), fx_job(1, 1, 1, p0, 1) };
	tp_het_plan p;
	fx_plan(&m, 0, j, 2, TP_HET_MIN_MAX, &e, &p);
	ck_assert_double_eq_tol(p.total, 11, 1e-9);
	tp_het_plan_fini(&p);
	fx_plan(&m, 0, j, 2, TP_HET_SJS, &e, &p);
	ck_assert_int_eq(p.used, TP_HET_MIN_MIN);
	ck_assert_double_eq_tol(p.total, 7, 1e-9);
	fx_assert_assign(&p, 0, 1, 0, 0, 1);
	fx_assert_assign(&p, 1, 0, 0, 1, 6);
	tp_het_plan_fini(&p);
}
END_TEST

/* ---- PJS, hand-worked ----------------------------------------------------
 *
 * One partition P = {0, 1}, both free at now = 0.  J0 and J1 take 10 s on
 * one node and may use two; J2 is serial, 1 s.  On two nodes J0 takes
 * (a) 2 s, J1 6 s.
 *
 * SJS: min-min: J2 node 0 [0,1]; J0 node 1 [0,10] (tie with J1: lower
 *   index); J1 node 0 [1,11]: 1 + 10 + 11 = 22.  min-max: J0 node 0
 *   [0,10], J1 node 1 [0,10], J2 [10,11]: 31.  SJS = 22 (min-min).
 * Profitability: J0 10 - 2 = 8, J1 10 - 6 = 4.
 * Round 1: J0 on {0, 1} [0,2]; SJS of J1, J2 from (2, 2): min-min J2
 *   node 0 [2,3], J1 node 1 [2,12] = 15 (min-max: 15 too, tie: min-min);
 *   2 + 15 = 17 < 22: kept.
 * Round 2: J0 [0,2], J1 on {0, 1} [2,8], J2 [8,9]: 2 + 8 + 9 = 19 >= 17:
 *   rejected, PJS stops after 2 rounds with 17.
 * (b) With J0 on two nodes 4 s and J1 serial only: round 1 is J0 [0,4],
 *   J2 [4,5], J1 [4,14]: 4 + 5 + 14 = 23 >= 22, so PJS is SJS.
 */
static void pjs_example(tp_het_job *j, fx_etc *e, double j0_par,
			int j1_nmax)
{
	memset(e, 0, sizeof(*e));
	j[0] = fx_job(0, 1, 2, p0, 1);
	j[1] = fx_job(1, 1, j1_nmax, p0, 1);
	j[2] = fx_job(2, 1, 1, p0, 1);
	e->t[0][0][1] = 10;
	e->t[0][0][2] = j0_par;
	e->t[1][0][1] = 10;
	e->t[1][0][2] = 6;
	e->t[2][0][1] = 1;
}

START_TEST(test_pjs_improves)
{
	const tp_het_part parts[] = { { "P", 0, n_ab, 2 } };
	double ready[2] = { 0, 0 };
	tp_het_machine m = { 2, ready, parts, 1 };
	tp_het_job j[3];
	fx_etc e;
	tp_het_plan p;
	pjs_example(j, &e, 2, 2);
	fx_plan(&m, 0, j, 3, TP_HET_SJS, &e, &p);
	ck_assert_double_eq_tol(p.total, 22, 1e-9);
	fx_assert_assign(&p, 0, 2, 0, 0, 1);
	fx_assert_assign(&p, 1, 0, 0, 0, 10);
	fx_assert_assign(&p, 2, 1, 0, 1, 11);
	tp_het_plan_fini(&p);

	fx_plan(&m, 0, j, 3, TP_HET_PJS, &e, &p);
	ck_assert_double_eq_tol(p.total, 17, 1e-9);
	ck_assert_uint_eq(p.pjs_rounds, 2);
	ck_assert_uint_eq(p.parallel, 1);
	ck_assert_int_eq(p.used, TP_HET_MIN_MIN);
	ck_assert_uint_eq(p.n, 3);
	fx_assert_assign(&p, 0, 0, 0, 0, 2);
	ck_assert(p.a[0].parallel);
	ck_assert_int_eq(p.a[0].nodes, 2);
	ck_assert_int_eq(p.a[0].node[0], 0);
	ck_assert_int_eq(p.a[0].node[1], 1);
	fx_assert_assign(&p, 1, 2, 0, 2, 3);
	ck_assert_int_eq(p.a[1].node[0], 0);
	fx_assert_assign(&p, 2, 1, 0, 2, 12);
	ck_assert_int_eq(p.a[2].node[0], 1);
	ck_assert(!p.a[2].parallel);
	tp_het_plan_fini(&p);
}
END_TEST

START_TEST(test_pjs_rejects)
{
	const tp_het_part parts[] = { { "P", 0, n_ab, 2 } };
	double ready[2] = { 0, 0 };
	tp_het_machine m = { 2, ready, parts, 1 };
	tp_het_job j[3];
	fx_etc e;
	tp_het_plan s, p;
	pjs_example(j, &e, 4, 1);
	fx_plan(&m, 0, j, 3, TP_HET_SJS, &e, &s);
	fx_plan(&m, 0, j, 3, TP_HET_PJS, &e, &p);
	ck_assert_uint_eq(p.pjs_rounds, 1);
	ck_assert_uint_eq(p.parallel, 0);
	ck_assert_double_eq_tol(p.total, 22, 1e-9);
	ck_assert_double_eq(p.total, s.total);
	ck_assert_int_eq(p.used, s.used);
	ck_assert_uint_eq(p.n, s.n);
	for (size_t i = 0; i < p.n; i++) {
		ck_assert_uint_eq(p.a[i].job, s.a[i].job);
		ck_assert_int_eq(p.a[i].part, s.a[i].part);
		ck_assert_int_eq(p.a[i].nodes, s.a[i].nodes);
		ck_assert_int_eq(p.a[i].node[0], s.a[i].node[0]);
		ck_assert_double_eq(p.a[i].start, s.a[i].start);
		ck_assert_double_eq(p.a[i].end, s.a[i].end);
	}
	tp_het_plan_fini(&s);
	tp_het_plan_fini(&p);
}
END_TEST

/* ---- random instances ----------------------------------------------------- */

#define RJ 30
#define RP 4
#define RN 12
#define RK 6 /* node counts 0..5 */

typedef struct rinst {
	int nnodes, nparts;
	int pnode[RP][RN], pn[RP];
	tp_het_part part[RP];
	double ready[RN];
	tp_het_job job[RJ];
	int jparts[RJ][RP];
	tp_nodeset allowed[RJ];
	size_t njobs;
	double t[RJ][RP][RK];
} rinst;

static double r_etc(void *arg, const tp_het_job *j, int p, int n)
{
	const rinst *r = arg;
	if (n >= RK)
		return TP_HET_NO_RUN;
	double v = r->t[j->id][p][n];
	return v > 0 ? v : TP_HET_NO_RUN;
}

static void r_machine(rinst *r, tp_rng *g)
{
	r->nnodes = 4 + (int)tp_rng_below(g, RN - 3);
	r->nparts = 3 + (int)tp_rng_below(g, 2);
	for (int p = 0; p < r->nparts; p++) {
		r->pn[p] = 0;
		for (int v = 0; v < r->nnodes; v++)
			if (tp_rng_uniform(g) < 0.5)
				r->pnode[p][r->pn[p]++] = v;
		if (!r->pn[p])
			r->pnode[p][r->pn[p]++] =
				(int)tp_rng_below(g, (uint64_t)r->nnodes);
		r->part[p] = (tp_het_part){ "p", p, r->pnode[p], r->pn[p] };
	}
	for (int v = 0; v < r->nnodes; v++)
		r->ready[v] = tp_rng_uniform(g) < 0.1
			      ? TP_HET_NEVER : tp_rng_range(g, 0, 30);
}

static void r_job(rinst *r, tp_rng *g, size_t i, bool levels)
{
	tp_het_job *j = &r->job[i];
	int np = 0;
	for (int p = 0; p < r->nparts; p++)
		if (tp_rng_uniform(g) < 0.6)
			r->jparts[i][np++] = p;
	if (!np)
		r->jparts[i][np++] = (int)tp_rng_below(g, (uint64_t)r->nparts);
	int nmin = 1 + (int)tp_rng_below(g, 2);
	int nmax = nmin + (int)tp_rng_below(g, 4) - 1; /* nmin - 1 .. +2 */
	*j = fx_job((int)i, nmin, nmax, r->jparts[i], np);
	j->prio = levels ? (int)tp_rng_below(g, 3) : 0;
	if (tp_rng_uniform(g) < 0.2) {
		ck_assert_int_eq(tp_nodeset_init(&r->allowed[i], r->nnodes), 0);
		for (int v = 0; v < r->nnodes; v++)
			if (tp_rng_uniform(g) < 0.7)
				tp_nodeset_set(&r->allowed[i], v);
		j->allowed = &r->allowed[i];
	}
	for (int p = 0; p < r->nparts; p++) {
		double seq = tp_rng_range(g, 1, 20);
		for (int n = 0; n < RK; n++) {
			double t = n == nmin ? seq
				   : seq * tp_rng_range(g, 0.25, 0.45);
			r->t[i][p][n] = tp_rng_uniform(g) < 0.05 ? 0 : t;
		}
	}
}

static void r_fini(rinst *r)
{
	for (size_t i = 0; i < r->njobs; i++)
		if (r->job[i].allowed)
			tp_nodeset_fini(&r->allowed[i]);
}

static bool may_use(const rinst *r, const tp_het_job *j, int v)
{
	return r->ready[v] < TP_HET_NEVER &&
	       (!j->allowed || tp_nodeset_test(j->allowed, v));
}

/* Worked out from the instance, not from the plan: some partition of
 * the job has nmin nodes it may use and a sequential time. */
static bool placeable(const rinst *r, const tp_het_job *j)
{
	for (int k = 0; k < j->nparts; k++) {
		int p = j->parts[k], got = 0;
		for (int i = 0; i < r->pn[p]; i++)
			got += may_use(r, j, r->pnode[p][i]);
		if (got >= j->nmin && r->t[j->id][p][j->nmin] > 0)
			return true;
	}
	return false;
}

static bool in_part(const rinst *r, int p, int v)
{
	for (int i = 0; i < r->pn[p]; i++)
		if (r->pnode[p][i] == v)
			return true;
	return false;
}

static void check_assign(const rinst *r, const tp_het_assign *a,
			 double now, bool par)
{
	const tp_het_job *j = &r->job[a->job];
	bool listed = false;
	for (int k = 0; k < j->nparts; k++)
		listed = listed || j->parts[k] == a->part;
	ck_assert(listed);
	int hi = j->nmax > j->nmin ? j->nmax : j->nmin;
	ck_assert_int_ge(a->nodes, j->nmin);
	ck_assert_int_le(a->nodes, par ? hi : j->nmin);
	ck_assert(a->parallel == (a->nodes > j->nmin));
	ck_assert_double_ge(a->start, now - 1e-9);
	ck_assert_double_eq_tol(a->end - a->start,
				r->t[j->id][a->part][a->nodes], 1e-9);
	for (int i = 0; i < a->nodes; i++) {
		int v = a->node[i];
		ck_assert(i == 0 || a->node[i - 1] < v);
		ck_assert(in_part(r, a->part, v));
		ck_assert(may_use(r, j, v));
		ck_assert_double_ge(a->start, r->ready[v] - 1e-9);
	}
}

static bool shares_node(const tp_het_assign *a, const tp_het_assign *b)
{
	for (int i = 0; i < a->nodes; i++)
		for (int k = 0; k < b->nodes; k++)
			if (a->node[i] == b->node[k])
				return true;
	return false;
}

static void check_plan(const rinst *r, const tp_het_plan *p, double now,
		       bool par)
{
	int count[RJ] = { 0 };
	size_t nplace = 0;
	double total = 0;
	for (size_t i = 0; i < p->n; i++) {
		const tp_het_assign *a = &p->a[i];
		check_assign(r, a, now, par);
		count[a->job]++;
		total += a->end - now;
		if (i)
			ck_assert_int_le(r->job[p->a[i - 1].job].prio,
					 r->job[a->job].prio);
		for (size_t k = 0; k < i; k++)
			if (shares_node(a, &p->a[k]))
				ck_assert(a->end <= p->a[k].start + 1e-9 ||
					  p->a[k].end <= a->start + 1e-9);
	}
	for (size_t i = 0; i < r->njobs; i++) {
		bool ok = placeable(r, &r->job[i]);
		nplace += ok;
		ck_assert_int_eq(count[i], ok ? 1 : 0);
	}
	ck_assert_uint_eq(p->unplaced, r->njobs - nplace);
	ck_assert_double_eq_tol(p->total, total, 1e-6);
}

static void check_pass(const rinst *r, const tp_het_plan *full, double now,
		       tp_het_algo algo)
{
	tp_het_plan p;
	tp_error err;
	tp_het_machine m = { r->nnodes, r->ready, r->part, r->nparts };
	tp_het_plan_init(&p);
	ck_assert_int_eq(tp_het_pass(&m, now, r->job, r->njobs, algo, r_etc,
				     (void *)r, &p, &err), 0);
	size_t k = 0;
	for (size_t i = 0; i < full->n; i++) {
		if (full->a[i].start > now + 1e-9)
			continue;
		ck_assert_uint_lt(k, p.n);
		ck_assert_uint_eq(p.a[k].job, full->a[i].job);
		for (int v = 0; v < p.a[k].nodes; v++)
			ck_assert_double_le(r->ready[p.a[k].node[v]], now);
		k++;
	}
	ck_assert_uint_eq(k, p.n);
	ck_assert_double_eq(p.total, full->total);
	tp_het_plan_fini(&p);
}

/* sum(end - now) over the lowest priority level's assignments. */
static double first_level(const rinst *r, const tp_het_plan *p, double now)
{
	int lo = r->job[0].prio;
	double sum = 0;
	for (size_t i = 1; i < r->njobs; i++)
		lo = r->job[i].prio < lo ? r->job[i].prio : lo;
	for (size_t i = 0; i < p->n; i++)
		if (r->job[p->a[i].job].prio == lo)
			sum += p->a[i].end - now;
	return sum;
}

START_TEST(test_random)
{
	tp_rng g;
	tp_rng_seed(&g, 0x4e7 + (uint64_t)_i);
	size_t npar = 0, levelled = 0;
	for (int inst = 0; inst < 50; inst++) {
		rinst *r = calloc(1, sizeof(*r));
		ck_assert_ptr_nonnull(r);
		r_machine(r, &g);
		bool levels = tp_rng_uniform(&g) < 0.5;
		r->njobs = 1 + tp_rng_below(&g, RJ);
		for (size_t i = 0; i < r->njobs; i++)
			r_job(r, &g, i, levels);
		tp_het_machine m = { r->nnodes, r->ready, r->part, r->nparts };
		double now = 10, tot[TP_HET_PJS + 1], first[TP_HET_PJS + 1];
		for (int a = TP_HET_OLB; a <= TP_HET_PJS; a++) {
			tp_het_plan p;
			tp_error err = { "" };
			ck_assert_int_eq(tp_het_schedule(&m, now, r->job,
							 r->njobs, a, r_etc, r,
							 &p, &err), 0);
			check_plan(r, &p, now, a == TP_HET_PJS);
			tot[a] = p.total;
			first[a] = first_level(r, &p, now);
			npar += a == TP_HET_PJS && p.parallel;
			if (a >= TP_HET_SJS)
				check_pass(r, &p, now, a);
			tp_het_plan_fini(&p);
		}
		/* Each level is planned from the state the one before left,
		 * and PJS's better first level may leave a worse state: only
		 * the first level's sums compare (all of it with one level). */
		ck_assert_double_le(first[TP_HET_PJS],
				    first[TP_HET_SJS] + 1e-6);
		if (!levels)
			ck_assert_double_le(tot[TP_HET_PJS],
					    tot[TP_HET_SJS] + 1e-6);
		if (!levels) {
			double best = tot[TP_HET_MIN_MIN] <= tot[TP_HET_MIN_MAX]
				      ? tot[TP_HET_MIN_MIN]
				      : tot[TP_HET_MIN_MAX];
			ck_assert_double_eq_tol(tot[TP_HET_SJS], best, 1e-9);
		}
		levelled += levels;
		r_fini(r);
		free(r);
	}
	/* the seeds do reach PJS's parallel options and the levels */
	ck_assert_uint_gt(npar, 5);
	ck_assert_uint_gt(levelled, 5);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("het_pjs");
	TCase *tc = tcase_create("hand");
	tcase_add_test(tc, test_sjs_min_max);
	tcase_add_test(tc, test_sjs_min_min);
	tcase_add_test(tc, test_pjs_improves);
	tcase_add_test(tc, test_pjs_rejects);
	suite_add_tcase(s, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 120);
	/* 10 seeds x 50 instances */
	tcase_add_loop_test(tc, test_random, 0, 10);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
