/*
 * check_het_cycle.c - the heterogeneous cycle (hetero/het_cycle.h): the
 * learning rule, busy nodes' ready times, and the cycle driven the way
 * sched/topo drives it against the simulator.
 *
 * sched/topo keeps no schedule between cycles: each one is rebuilt from
 * slurmctld's job records (free nodes, running jobs with start and
 * limit, the runs that ended since the previous cycle and how they
 * ended, the queue by priority).  The replay below keeps only such
 * records, rebuilds the cycle's input from them at every event time, and
 * demands the simulator's schedule job for job (partition, node count,
 * nodes, start) and the simulator's database, with runs killed at their
 * limit in the workload: the plugin's half of "same code, same
 * decisions".
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "hetero/het_cycle.h"
#include "hetsim/het_gen.h"
#include "hetsim/het_sim.h"
#include "tmpdir_util.h"

#define US 1e6 /* the simulator's event clock: microseconds */

/* ---- the pieces ------------------------------------------------------ */

START_TEST(test_learnable)
{
	ck_assert(tp_het_learnable(TP_HET_END_COMPLETED, 10, 25, 1));
	ck_assert(tp_het_learnable(TP_HET_END_COMPLETED, 0, 0, 4));
	ck_assert(!tp_het_learnable(TP_HET_END_LIMIT, 10, 70, 1));
	ck_assert(!tp_het_learnable(TP_HET_END_FAILED, 10, 25, 1));
	ck_assert(!tp_het_learnable(TP_HET_END_CANCELLED, 10, 25, 1));
	ck_assert(!tp_het_learnable(TP_HET_END_COMPLETED, 25, 10, 1));
	ck_assert(!tp_het_learnable(TP_HET_END_COMPLETED, 10, 25, 0));
	ck_assert(!tp_het_learnable(TP_HET_END_COMPLETED, 10, NAN, 1));

	tp_expdb *db = tp_expdb_new();
	int a = tp_expdb_jclass(db, "a"), p = tp_expdb_mclass(db, "p");
	tp_expdb_stat st;
	/* Killed at 60 after starting at 10: nothing for (a, p, 2). */
	ck_assert_int_eq(tp_het_learn(db, a, p, 2, TP_HET_END_LIMIT, 10, 70), 0);
	ck_assert(!tp_expdb_get(db, a, p, 2, &st));
	ck_assert_int_eq(tp_het_learn(db, a, p, 2, TP_HET_END_FAILED, 10, 20), 0);
	ck_assert_int_eq(tp_het_learn(db, a, p, 2, TP_HET_END_CANCELLED, 0, 5), 0);
	ck_assert_uint_eq(tp_expdb_size(db), 0);
	/* Completed 10..25: one sample of 15 s. */
	ck_assert_int_eq(tp_het_learn(db, a, p, 2, TP_HET_END_COMPLETED, 10, 25), 1);
	ck_assert(tp_expdb_get(db, a, p, 2, &st));
	ck_assert_uint_eq(st.count, 1);
	ck_assert_double_eq(st.mean, 15);
	/* A class that could not be interned is out of memory. */
	ck_assert_int_eq(tp_het_learn(db, -1, p, 2, TP_HET_END_COMPLETED, 0, 1), -1);
	tp_expdb_free(db);
}
END_TEST

/*
 * A run started at 100 with its limit at 400 on 2 nodes of p.  No
 * history: predicted at its limit, free at 400.  Learned 50 s: free at
 * 150; at now 200 (it outlived the prediction) a second from now, 201.
 * Raising never lowers a later node nor touches an unusable one.
 */
START_TEST(test_run_ready)
{
	tp_expdb *db = tp_expdb_new();
	int a = tp_expdb_jclass(db, "a"), mc = tp_expdb_mclass(db, "p");
	static const int pn[] = { 0, 1, 2 };
	tp_het_part part = { .name = "p", .mclass = mc, .node = pn, .nnodes = 3 };
	double ready[3] = { 0 };
	tp_het_machine m = { .nnodes = 3, .ready = ready, .part = &part,
			     .nparts = 1 };
	tp_expdb_etc_arg ea = { .db = db, .m = &m };
	static const int rn[] = { 0, 1 };
	tp_het_run r = { .jclass = a, .part = 0, .node = rn, .nodes = 2,
			 .start = 100, .limit_end = 400 };
	ck_assert_double_eq(tp_het_run_ready(tp_expdb_etc, &ea, &r, 120), 400);
	ck_assert_int_eq(tp_het_learn(db, a, mc, 2, TP_HET_END_COMPLETED, 0, 50), 1);
	ck_assert_double_eq(tp_het_run_ready(tp_expdb_etc, &ea, &r, 120), 150);
	ck_assert_double_eq(tp_het_run_ready(tp_expdb_etc, &ea, &r, 200), 201);
	/* A class that could not be interned: its limit. */
	r.jclass = -1;
	ck_assert_double_eq(tp_het_run_ready(tp_expdb_etc, &ea, &r, 120), 400);

	double rd[4] = { 120, 500, TP_HET_NEVER, 120 };
	static const int all[] = { 0, 1, 2 };
	tp_het_ready_raise(rd, all, 3, 150);
	ck_assert_double_eq(rd[0], 150);
	ck_assert_double_eq(rd[1], 500);
	ck_assert(rd[2] == TP_HET_NEVER);
	ck_assert_double_eq(rd[3], 120);
	tp_expdb_free(db);
}
END_TEST

/* ---- the replay: sched/topo's way ------------------------------------- */

/* One job's record, as slurmctld holds it: all a cycle is built from. */
typedef struct rec {
	bool started;
	int part, nodes;
	int *node;
	double start, end;
	int64_t end_us;       /* the event time of its end */
	tp_het_end how;
} rec;

typedef struct ctld {
	const tp_het_conf *c;
	const tp_het_workload *w;
	tp_expdb *db, *truth;
	bool truth_filter;    /* etc: the simulator's view (NO_RUN where
			       * the truth has no run), else the plugin's
			       * (tp_expdb_etc, etc NULL) */
	tp_het_algo algo;
	int max_jobs;
	tp_het_part *part;    /* c's partitions with db's mclass */
	int *truth_mclass, *db_jclass, *truth_jclass;
	rec *r;
	int64_t learned_until; /* us: runs ended up to here are learned */
	size_t learned, killed;
} ctld;

static double truth_of(const ctld *x, size_t i, int p, int n)
{
	tp_expdb_stat st;
	if (!tp_expdb_get(x->truth, x->truth_jclass[i], x->truth_mclass[p], n, &st))
		return TP_HET_NO_RUN;
	return st.mean;
}

/* What the simulator's schedules see; owner is the job's record. */
static double ctld_etc(void *arg, const tp_het_job *j, int p, int n)
{
	ctld *x = arg;
	size_t i = (size_t)((const rec *)j->owner - x->r);
	if (truth_of(x, i, p, n) < 0)
		return TP_HET_NO_RUN;
	tp_het_machine m = { .part = x->part, .nparts = x->c->nparts };
	tp_expdb_etc_arg ea = { .db = x->db, .m = &m };
	double e = tp_expdb_etc(&ea, j, p, n);
	return e > 0 ? e : 1e-6;
}

static void ctld_init(ctld *x, const tp_het_conf *c, const tp_het_workload *w,
		      tp_expdb *db, tp_expdb *truth, tp_het_algo algo,
		      bool truth_filter)
{
	*x = (ctld){ .c = c, .w = w, .db = db, .truth = truth, .algo = algo,
		     .truth_filter = truth_filter, .learned_until = -1 };
	x->part = calloc((size_t)c->nparts, sizeof(*x->part));
	x->truth_mclass = calloc((size_t)c->nparts, sizeof(int));
	x->db_jclass = calloc(w->n + 1, sizeof(int));
	x->truth_jclass = calloc(w->n + 1, sizeof(int));
	x->r = calloc(w->n + 1, sizeof(*x->r));
	ck_assert(x->part && x->truth_mclass && x->db_jclass && x->truth_jclass && x->r);
	for (int p = 0; p < c->nparts; p++) {
		const char *mc = c->mclass_name[c->part[p].mclass];
		x->part[p] = c->part[p];
		x->part[p].mclass = tp_expdb_mclass(db, mc);
		x->truth_mclass[p] = tp_expdb_mclass(truth, mc);
	}
	for (size_t i = 0; i < w->n; i++) {
		const char *jc = w->jclass_name[w->job[i].jclass];
		x->db_jclass[i] = tp_expdb_jclass(db, jc);
		x->truth_jclass[i] = tp_expdb_jclass(truth, jc);
	}
}

static void ctld_fini(ctld *x)
{
	for (size_t i = 0; i < x->w->n; i++)
		free(x->r[i].node);
	free(x->r);
	free(x->part);
	free(x->truth_mclass);
	free(x->db_jclass);
	free(x->truth_jclass);
}

/* Slurm's queue order, all at one priority: submit, then id. */
static const ctld *sort_ctx;
static int by_submit_id(const void *a, const void *b)
{
	const tp_het_job *x = &sort_ctx->w->job[*(const size_t *)a],
			 *y = &sort_ctx->w->job[*(const size_t *)b];
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Slurm starting job i as the plan says; its truth decides its end. */
static void ctld_start(ctld *x, size_t i, const tp_het_assign *a, double now)
{
	rec *r = &x->r[i];
	double run = truth_of(x, i, a->part, a->nodes);
	double limit = (double)x->w->job[i].estimate;
	ck_assert(run >= 0);
	r->how = run > limit ? TP_HET_END_LIMIT : TP_HET_END_COMPLETED;
	x->killed += r->how == TP_HET_END_LIMIT;
	r->started = true;
	r->part = a->part;
	r->nodes = a->nodes;
	r->node = malloc(sizeof(int) * (size_t)a->nodes);
	ck_assert(r->node);
	memcpy(r->node, a->node, sizeof(int) * (size_t)a->nodes);
	r->start = now;
	r->end = now + (run > limit ? limit : run);
	r->end_us = llround(r->end * US);
}

/*
 * One cycle at t (us), rebuilt from the records alone: every node free
 * but those of jobs still running; the runs that ended in
 * (learned_until, t] with how they ended, in end order; the submitted
 * jobs not started, in queue order.  `flush`: no queue (learns only).
 */
static void ctld_cycle(ctld *x, int64_t t, bool flush)
{
	const tp_het_conf *c = x->c;
	size_t n = x->w->n;
	double now = (double)t / US;
	double *ready = calloc((size_t)c->nnodes + 1, sizeof(double));
	tp_het_run *run = calloc(n + 1, sizeof(*run));
	tp_het_ended *ended = calloc(n + 1, sizeof(*ended));
	size_t *queue = calloc(n + 1, sizeof(size_t));
	tp_het_job *job = calloc(n + 1, sizeof(*job));
	size_t nrun = 0, nended = 0, njobs = 0;
	ck_assert(ready && run && ended && queue && job);
	for (int k = 0; k < c->nnodes; k++)
		ready[k] = now;
	for (size_t i = 0; i < n; i++) {
		const rec *r = &x->r[i];
		if (r->started && r->end_us > t)
			run[nrun++] = (tp_het_run){
				.jclass = x->db_jclass[i], .part = r->part,
				.node = r->node, .nodes = r->nodes,
				.start = r->start,
				.limit_end = r->start + (double)x->w->job[i].estimate,
				.owner = &x->r[i] };
		else if (!r->started && !flush &&
			 x->w->job[i].submit * (int64_t)US <= t)
			queue[njobs++] = i;
	}
	/* Ended runs in the order they ended (ties: job order). */
	for (int64_t last = x->learned_until;;) {
		int64_t next = INT64_MAX;
		for (size_t i = 0; i < n; i++)
			if (x->r[i].started && x->r[i].end_us > last &&
			    x->r[i].end_us <= t && x->r[i].end_us < next)
				next = x->r[i].end_us;
		if (next == INT64_MAX)
			break;
		for (size_t i = 0; i < n; i++) {
			const rec *r = &x->r[i];
			if (r->started && r->end_us == next)
				ended[nended++] = (tp_het_ended){
					.jclass = x->db_jclass[i], .part = r->part,
					.nodes = r->nodes, .how = r->how,
					.start = r->start, .end = r->end };
		}
		last = next;
	}
	sort_ctx = x;
	qsort(queue, njobs, sizeof(size_t), by_submit_id);
	for (size_t k = 0; k < njobs; k++) {
		job[k] = x->w->job[queue[k]];
		job[k].jclass = x->db_jclass[queue[k]];
		job[k].owner = &x->r[queue[k]];
	}
	tp_het_cycle_in in = {
		.now = now, .db = x->db, .nnodes = c->nnodes, .ready = ready,
		.part = x->part, .nparts = c->nparts, .run = run, .nrun = nrun,
		.ended = ended, .nended = nended, .job = job, .njobs = njobs,
		.algo = x->algo, .max_jobs = x->max_jobs,
		.etc = x->truth_filter ? ctld_etc : NULL,
		.etc_arg = x->truth_filter ? x : NULL };
	tp_het_plan plan;
	tp_het_cycle_out out;
	tp_error err = { "" };
	ck_assert_msg(tp_het_cycle(&in, &plan, &out, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(out.learn_failed, 0);
	ck_assert_uint_eq(out.learned + out.not_learned, nended);
	x->learned += out.learned;
	x->learned_until = t;
	for (size_t k = 0; k < plan.n; k++) {
		const tp_het_assign *a = &plan.a[k];
		ck_assert(a->start <= now + 1e-9);
		ctld_start(x, (size_t)((const rec *)job[a->job].owner - x->r), a, now);
	}
	tp_het_plan_fini(&plan);
	free(ready);
	free(run);
	free(ended);
	free(queue);
	free(job);
}

/* Events: submissions and ends; a cycle at each one with a queue, and a
 * last one that learns the runs ended after the last queue. */
static void ctld_replay(ctld *x)
{
	for (int64_t t = -1;;) {
		int64_t next = INT64_MAX;
		for (size_t i = 0; i < x->w->n; i++) {
			int64_t s = x->w->job[i].submit * (int64_t)US;
			if (s > t && s < next)
				next = s;
			if (x->r[i].started && x->r[i].end_us > t &&
			    x->r[i].end_us < next)
				next = x->r[i].end_us;
		}
		if (next == INT64_MAX)
			break;
		t = next;
		bool queued = false;
		for (size_t i = 0; i < x->w->n && !queued; i++)
			queued = !x->r[i].started &&
				 x->w->job[i].submit * (int64_t)US <= t;
		if (queued)
			ctld_cycle(x, t, false);
	}
	ctld_cycle(x, INT64_MAX / 2, true);
}

/* ---- comparing with the simulator ------------------------------------ */

typedef struct db_cmp {
	tp_expdb *other;
	size_t n;
} db_cmp;

static void cmp_entry(void *arg, const char *jc, const char *mc, int nodes,
		      const tp_expdb_stat *st)
{
	db_cmp *d = arg;
	tp_expdb_stat o;
	ck_assert_msg(tp_expdb_get(d->other, tp_expdb_jclass(d->other, jc),
				   tp_expdb_mclass(d->other, mc), nodes, &o),
		      "%s on %s, %d nodes: learned by one front end only", jc, mc, nodes);
	ck_assert_uint_eq(st->count, o.count);
	ck_assert_double_eq_tol(st->mean, o.mean, 1e-9 * (1 + fabs(o.mean)));
	d->n++;
}

static void assert_same_db(tp_expdb *a, tp_expdb *b)
{
	db_cmp d = { .other = b };
	tp_expdb_each(a, cmp_entry, &d);
	ck_assert_uint_eq(d.n, tp_expdb_size(b));
}

/* The simulator and the replay on c, w: the same decisions run for run,
 * the same database, the same learned and killed counts.  The killed
 * count is returned. */
static size_t compare(const tp_het_conf *c, const tp_het_workload *w,
		      tp_expdb *truth, tp_het_algo algo, int max_jobs,
		      bool truth_filter, tp_expdb **sim_db, tp_expdb **ctld_db)
{
	tp_error err = { "" };
	tp_het_sim_result r;
	tp_het_sim_opts o = { .algo = algo, .max_jobs = max_jobs };
	*sim_db = tp_expdb_new();
	*ctld_db = tp_expdb_new();
	ck_assert_msg(tp_het_sim_run(c, w, *sim_db, truth, &o, &r, &err) == 0, "%s", err.msg);
	ctld x;
	ctld_init(&x, c, w, *ctld_db, truth, algo, truth_filter);
	x.max_jobs = max_jobs;
	ctld_replay(&x);
	for (size_t i = 0; i < w->n; i++) {
		const tp_het_sim_job *s = &r.job[i];
		const rec *q = &x.r[i];
		ck_assert_msg(s->ran == q->started, "%s: job %lld",
			      tp_het_algo_name(algo), (long long)s->id);
		if (!s->ran)
			continue;
		ck_assert_msg(s->part == q->part && s->nodes == q->nodes &&
			      s->start == q->start && s->end == q->end,
			      "%s: job %lld: simulator %s x%d at %.6f, sched/topo's way %s x%d at %.6f",
			      tp_het_algo_name(algo), (long long)s->id,
			      c->part[s->part].name, s->nodes, s->start,
			      c->part[q->part].name, q->nodes, q->start);
		for (int k = 0; k < s->nodes; k++)
			ck_assert_int_eq(s->node[k], q->node[k]);
		ck_assert_int_eq(s->killed, q->how == TP_HET_END_LIMIT);
	}
	ck_assert_uint_eq(r.learned, x.learned);
	ck_assert_uint_eq(r.killed, x.killed);
	ck_assert_uint_eq(r.learned + r.killed, r.ran);
	assert_same_db(*sim_db, *ctld_db);
	assert_same_db(*ctld_db, *sim_db);
	size_t killed = r.killed;
	ctld_fini(&x);
	tp_het_sim_result_fini(&r);
	return killed;
}

/* p and q: one node each (q of class qc), w two. */
static const char *machine = "PartitionName=p Nodes=p1\n"
			     "PartitionName=q Nodes=q1 Class=qc\n"
			     "PartitionName=w Nodes=w[1-2]\n";

/*
 * a runs 100 s on p, 10 s on q; b 100 s on one node of w, 30 s on two.
 * Jobs 1 and 4 (b, one node, limit 60) are killed at 60 s: 1 over
 * [0, 60) on w1, 4 over [70, 130) on w1 (w1 free since 60, the lower
 * index); b has no sample for one node after either (4 is predicted at
 * its limit again).  2 and 3 (a, nothing known) take p and q at 0; q's
 * 10 s is learned at 10, p's 100 s at 100, so 5 (t 200) goes to q.  6
 * (b, two nodes, limit 200) runs [300, 330) and is learned.  Under the
 * schedules that pick the earliest end, 7 takes q at 300, and 8 (t 305)
 * waits for q: q is expected free at 310 (7's start + the 10 s learned,
 * tp_het_run_ready), ending 8 at 320 rather than at 405 on p.
 */
static const char *jobs =
	"JobId=1 Submit=0 Class=b Partitions=w Nodes=1 TimeLimit=60\n"
	"JobId=2 Submit=0 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
	"JobId=3 Submit=0 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
	"JobId=4 Submit=70 Class=b Partitions=w Nodes=1 TimeLimit=60\n"
	"JobId=5 Submit=200 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
	"JobId=6 Submit=300 Class=b Partitions=w Nodes=2 TimeLimit=200\n"
	"JobId=7 Submit=300 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
	"JobId=8 Submit=305 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n";

static tp_expdb *small_truth(void)
{
	tp_expdb *t = tp_expdb_new();
	int a = tp_expdb_jclass(t, "a"), b = tp_expdb_jclass(t, "b");
	int w = tp_expdb_mclass(t, "w");
	tp_expdb_add(t, a, tp_expdb_mclass(t, "p"), 1, 100);
	tp_expdb_add(t, a, tp_expdb_mclass(t, "qc"), 1, 10);
	tp_expdb_add(t, b, w, 1, 100);
	tp_expdb_add(t, b, w, 2, 30);
	return t;
}

static void assert_stat(tp_expdb *db, const char *jc, const char *mc,
			int nodes, uint64_t count, double mean)
{
	tp_expdb_stat st;
	bool has = tp_expdb_get(db, tp_expdb_jclass(db, jc),
				tp_expdb_mclass(db, mc), nodes, &st);
	ck_assert_msg(has == (count > 0), "%s on %s, %d nodes", jc, mc, nodes);
	ck_assert_uint_eq(st.count, count);
	if (count)
		ck_assert_double_eq_tol(st.mean, mean, 1e-9);
}

/* Every schedule: the plugin's way (etc: tp_expdb_etc) = the
 * simulator's; the hand-worked schedule and database under SJS. */
START_TEST(test_replay_small)
{
	tp_error err = { "" };
	tp_het_conf c;
	tp_het_workload w;
	ck_assert_msg(tp_het_conf_read(tmpdir_write("m.conf", machine), &c, &err) == 0,
		      "%s", err.msg);
	ck_assert_msg(tp_het_jobs_read(tmpdir_write("j.conf", jobs), &c, &w, &err) == 0,
		      "%s", err.msg);
	tp_expdb *truth = small_truth();
	for (int algo = TP_HET_OLB; algo <= TP_HET_PJS; algo++) {
		tp_expdb *sdb, *cdb;
		size_t killed = compare(&c, &w, truth, (tp_het_algo)algo, 0, false,
					&sdb, &cdb);
		ck_assert_uint_eq(killed, 2);
		for (int k = 0; k < 2; k++) {
			tp_expdb *db = k ? cdb : sdb;
			/* Killed twice, never learned; completed once, learned. */
			assert_stat(db, "b", "w", 1, 0, 0);
			assert_stat(db, "b", "w", 2, 1, 30);
			if (algo != TP_HET_SJS)
				continue;
			assert_stat(db, "a", "p", 1, 1, 100);
			assert_stat(db, "a", "qc", 1, 4, 10); /* 2|3, 5, 7, 8 */
			ck_assert_uint_eq(tp_expdb_size(db), 3);
		}
		tp_expdb_free(sdb);
		tp_expdb_free(cdb);
	}
	/* The hand-worked starts (SJS). */
	tp_het_sim_result r;
	tp_het_sim_opts o = { .algo = TP_HET_SJS };
	ck_assert_msg(tp_het_sim_run(&c, &w, NULL, truth, &o, &r, &err) == 0, "%s", err.msg);
	static const struct { const char *part; double start, end; bool killed; } want[] = {
		{ "w", 0, 60, true }, { NULL, 0, 0, false }, { NULL, 0, 0, false },
		{ "w", 70, 130, true }, { "q", 200, 210, false },
		{ "w", 300, 330, false }, { "q", 300, 310, false },
		{ "q", 310, 320, false },
	};
	for (size_t i = 0; i < 8; i++) {
		if (!want[i].part)
			continue;
		ck_assert_str_eq(c.part[r.job[i].part].name, want[i].part);
		ck_assert_double_eq(r.job[i].start, want[i].start);
		ck_assert_double_eq(r.job[i].end, want[i].end);
		ck_assert_int_eq(r.job[i].killed, want[i].killed);
	}
	ck_assert_int_eq(r.job[0].node[0], r.job[3].node[0]); /* w1 */
	ck_assert_str_ne(c.part[r.job[1].part].name, c.part[r.job[2].part].name);
	ck_assert_uint_eq(r.learned, 6);
	ck_assert_uint_eq(r.killed, 2);
	tp_het_sim_result_fini(&r);
	tp_expdb_free(truth);
	tp_het_workload_fini(&w);
	tp_het_conf_fini(&c);
}
END_TEST

/* A generated site, learning online, with a third of the limits cut
 * below the truth so that runs are killed: the same schedule through
 * both front ends, for every schedule, whole and cut (het_max_jobs). */
START_TEST(test_replay_generated)
{
	tp_hetgen_opts o;
	tp_hetgen_opts_default(&o);
	o.machine = TP_HETGEN_SMALL;
	o.njobs = 60;
	o.arrival_util = 0.9;
	o.pct_parallel = 50;
	o.prio[0] = 25, o.prio[1] = 25, o.prio[2] = 50;
	o.seed = 3;
	tp_het_conf c;
	tp_het_workload w;
	tp_expdb *truth = tp_expdb_new();
	tp_error err = { "" };
	ck_assert_msg(tp_hetgen(&o, &c, &w, truth, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < w.n; i += 3)
		w.job[i].estimate = w.job[i].estimate / 8 > 0 ? w.job[i].estimate / 8 : 1;
	size_t killed = 0;
	for (int algo = TP_HET_OLB; algo <= TP_HET_PJS; algo++)
		for (int cut = 0; cut <= 5; cut += 5) {
			tp_expdb *sdb, *cdb;
			killed += compare(&c, &w, truth, (tp_het_algo)algo, cut,
					  true, &sdb, &cdb);
			tp_expdb_free(sdb);
			tp_expdb_free(cdb);
		}
	ck_assert_uint_gt(killed, 0);
	tp_expdb_free(truth);
	tp_het_workload_fini(&w);
	tp_het_conf_fini(&c);
}
END_TEST

static void setup(void) { ck_assert_int_eq(tmpdir_make("hetcycle"), 0); }
static void teardown(void) { tmpdir_remove(); }

int main(void)
{
	Suite *s = suite_create("het_cycle");
	TCase *tc = tcase_create("cycle");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_learnable);
	tcase_add_test(tc, test_run_ready);
	tcase_add_test(tc, test_replay_small);
	tcase_add_test(tc, test_replay_generated);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
