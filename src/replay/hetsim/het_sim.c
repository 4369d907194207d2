/* het_sim.c - the heterogeneous simulator; see het_sim.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r */
#endif
#include "hetsim/het_sim.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/evheap.h"
#include "base/hostlist.h"
#include "hetero/het_cycle.h"

/* Event times are microseconds: run times are the truth's means, not
 * whole seconds. */
#define US 1e6

enum { EV_ARRIVE = 0, EV_END = 1 };

typedef struct sim_job {
	const tp_het_job *in;
	int db_jclass, truth_jclass;
} sim_job;

typedef struct sim {
	const tp_het_conf *c;
	const tp_het_workload *w;
	tp_expdb *db, *truth;
	bool oracle;
	tp_het_algo algo;
	int max_jobs;          /* tp_het_planned */
	tp_het_part *part;     /* c's partitions with the db's mclass */
	int *truth_mclass;     /* [nparts] */
	tp_het_machine m;
	double *ready;
	int *busy;             /* [nnodes] job index or -1 */
	size_t *running, nrunning; /* jobs running, any order */
	tp_het_run *run;       /* the pass's running jobs */
	tp_het_ended *ended;   /* runs ended since the last cycle */
	size_t nended;
	sim_job *sj;
	size_t *pending, npending;
	tp_het_job *q;         /* the pass's jobs */
	tp_evheap h;
	tp_het_sim_result *r;
	tp_expdb_etc_arg etc_arg;
} sim;

static double truth_time(const sim *s, const sim_job *j, int p, int n)
{
	tp_expdb_stat st;
	if (!tp_expdb_get(s->truth, j->truth_jclass, s->truth_mclass[p], n, &st))
		return TP_HET_NO_RUN;
	return st.mean;
}

/* The schedules' view: the database's prediction (or the truth for an
 * oracle), but nothing where the truth says the job cannot run. */
static double sim_etc(void *arg, const tp_het_job *j, int p, int n)
{
	sim *s = arg;
	double t = truth_time(s, j->owner, p, n);
	if (t < 0)
		return TP_HET_NO_RUN;
	double e = s->oracle ? t : tp_expdb_etc(&s->etc_arg, j, p, n);
	/* A run of 0 s (a truth or a history of 0) is still a run: ETCs
	 * are > 0. */
	return e > 0 ? e : 1e-6;
}

static int setup(sim *s, tp_error *err)
{
	const tp_het_conf *c = s->c;
	size_t n = s->w->n;
	s->part = calloc((size_t)c->nparts, sizeof(*s->part));
	s->truth_mclass = calloc((size_t)c->nparts, sizeof(int));
	s->ready = calloc((size_t)c->nnodes + 1, sizeof(double));
	s->busy = malloc(sizeof(int) * ((size_t)c->nnodes + 1));
	s->sj = calloc(n + 1, sizeof(*s->sj));
	s->pending = calloc(n + 1, sizeof(size_t));
	s->running = calloc(n + 1, sizeof(size_t));
	s->run = calloc(n + 1, sizeof(*s->run));
	s->ended = calloc(n + 1, sizeof(*s->ended));
	s->q = calloc(n + 1, sizeof(*s->q));
	s->r->job = calloc(n + 1, sizeof(*s->r->job));
	if (!s->part || !s->truth_mclass || !s->ready || !s->busy || !s->sj ||
	    !s->pending || !s->running || !s->run || !s->ended || !s->q ||
	    !s->r->job)
		return tp_errorf(err, "heterogeneous simulator: out of memory");
	for (int i = 0; i < c->nnodes; i++)
		s->busy[i] = -1;
	for (int p = 0; p < c->nparts; p++) {
		const char *mc = c->mclass_name[c->part[p].mclass];
		s->part[p] = c->part[p];
		s->part[p].mclass = tp_expdb_mclass(s->db, mc);
		s->truth_mclass[p] = tp_expdb_mclass(s->truth, mc);
		if (s->part[p].mclass < 0 || s->truth_mclass[p] < 0)
			return tp_errorf(err, "heterogeneous simulator: out of memory");
	}
	s->m = (tp_het_machine){ .nnodes = c->nnodes, .ready = s->ready,
				 .part = s->part, .nparts = c->nparts };
	s->etc_arg = (tp_expdb_etc_arg){ .db = s->db, .m = &s->m };
	for (size_t i = 0; i < n; i++) {
		const tp_het_job *j = &s->w->job[i];
		const char *jc = s->w->jclass_name[j->jclass];
		s->sj[i] = (sim_job){ .in = j,
				      .db_jclass = tp_expdb_jclass(s->db, jc),
				      .truth_jclass = tp_expdb_jclass(s->truth, jc) };
		if (s->sj[i].db_jclass < 0 || s->sj[i].truth_jclass < 0)
			return tp_errorf(err, "heterogeneous simulator: out of memory");
		s->r->job[i] = (tp_het_sim_job){ .id = j->id, .jclass = j->jclass,
						 .prio = j->prio, .submit = j->submit,
						 .part = -1 };
		if (tp_evheap_push(&s->h, (tp_event){ .time = j->submit * (int64_t)US,
						      .who = (uint32_t)i, .gen = EV_ARRIVE }))
			return tp_errorf(err, "heterogeneous simulator: out of memory");
	}
	s->r->n = n;
	return 0;
}

/* Job i ended: its nodes are free, and the next cycle hears how it
 * ended (learning is the cycle's, by tp_het_learn's rule, as in
 * slurmctld; an oracle learns nothing). */
static void complete(sim *s, size_t i)
{
	tp_het_sim_job *o = &s->r->job[i];
	for (int k = 0; k < o->nodes; k++)
		s->busy[o->node[k]] = -1;
	for (size_t k = 0; k < s->nrunning; k++)
		if (s->running[k] == i) {
			s->running[k] = s->running[--s->nrunning];
			break;
		}
	if (s->oracle)
		return;
	s->ended[s->nended++] = (tp_het_ended){
		.jclass = s->sj[i].db_jclass, .part = o->part,
		.nodes = o->nodes, .start = o->start, .end = o->end,
		.how = o->killed ? TP_HET_END_LIMIT : TP_HET_END_COMPLETED };
}

static int cmp_id(const void *a, const void *b, void *arg)
{
	const sim *s = arg;
	int64_t x = s->w->job[*(const size_t *)a].id,
		y = s->w->job[*(const size_t *)b].id;
	return (x > y) - (x < y);
}

static int start_job(sim *s, const tp_het_assign *a, double now, tp_error *err)
{
	size_t i = a->job;
	sim_job *j = &s->sj[i];
	tp_het_sim_job *o = &s->r->job[i];
	for (int k = 0; k < a->nodes; k++)
		if (s->busy[a->node[k]] >= 0)
			return tp_errorf(err, "heterogeneous simulator: job %" PRId64
					 " planned on busy node '%s'", o->id,
					 s->c->node_name[a->node[k]]);
	double run = truth_time(s, j, a->part, a->nodes);
	if (run < 0)
		return tp_errorf(err, "heterogeneous simulator: job %" PRId64
				 " started where it cannot run '%s'", o->id,
				 s->part[a->part].name);
	double limit = (double)j->in->estimate;
	o->killed = run > limit;
	if (o->killed)
		run = limit;
	o->ran = true;
	o->part = a->part;
	o->nodes = a->nodes;
	o->parallel = a->nodes > j->in->nmin;
	o->start = now;
	o->end = now + run;
	if (!(o->node = malloc(sizeof(int) * (size_t)a->nodes)))
		return tp_errorf(err, "heterogeneous simulator: out of memory");
	memcpy(o->node, a->node, sizeof(int) * (size_t)a->nodes);
	for (int k = 0; k < a->nodes; k++)
		s->busy[a->node[k]] = (int)i;
	s->running[s->nrunning++] = i;
	int64_t t = (int64_t)llround(o->end * US);
	if (tp_evheap_push(&s->h, (tp_event){ .time = t, .who = (uint32_t)i,
					      .gen = EV_END }))
		return tp_errorf(err, "heterogeneous simulator: out of memory");
	return 0;
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Running job b as a cycle sees it; its expected end is predicted
 * again at every pass (tp_het_run_ready), as sched/topo does. */
static tp_het_run run_of(sim *s, size_t b)
{
	const tp_het_sim_job *o = &s->r->job[b];
	return (tp_het_run){ .jclass = s->sj[b].db_jclass, .part = o->part,
			     .node = o->node, .nodes = o->nodes,
			     .start = o->start,
			     .limit_end = o->start + (double)s->sj[b].in->estimate,
			     .owner = &s->sj[b] };
}

/* One cycle at now (tp_het_cycle): learns the runs ended since the last
 * one; with jobs pending, also the pass, whose jobs start at once. */
static int pass(sim *s, double now, tp_error *err)
{
	for (int k = 0; k < s->c->nnodes; k++)
		s->ready[k] = now;
	for (size_t k = 0; k < s->nrunning; k++)
		s->run[k] = run_of(s, s->running[k]);
	for (size_t k = 0; k < s->npending; k++) {
		size_t i = s->pending[k];
		s->q[k] = *s->sj[i].in;
		s->q[k].jclass = s->sj[i].db_jclass;
		s->q[k].owner = &s->sj[i];
	}
	tp_het_cycle_in in = {
		.now = now, .db = s->db, .nnodes = s->c->nnodes,
		.ready = s->ready, .part = s->part, .nparts = s->c->nparts,
		.run = s->run, .nrun = s->nrunning,
		.ended = s->ended, .nended = s->nended,
		.job = s->q, .njobs = s->npending, .algo = s->algo,
		.max_jobs = s->max_jobs, .etc = sim_etc, .etc_arg = s };
	tp_het_cycle_out co;
	tp_het_plan plan;
	double t0 = cpu_now();
	int rc = tp_het_cycle(&in, &plan, &co, err);
	if (co.planned) {
		s->r->decide_cpu += cpu_now() - t0;
		s->r->passes++;
	}
	s->nended = 0;
	s->r->learned += co.learned;
	if (!rc && co.learn_failed)
		rc = tp_errorf(err, "heterogeneous simulator: out of memory");
	for (size_t k = 0; !rc && k < plan.n; k++) {
		tp_het_assign a = plan.a[k];
		if (a.start > now)
			continue;
		a.job = (size_t)((const sim_job *)s->q[a.job].owner - s->sj);
		rc = start_job(s, &a, now, err);
	}
	tp_het_plan_fini(&plan);
	size_t kept = 0;
	for (size_t k = 0; k < s->npending; k++)
		if (!s->r->job[s->pending[k]].ran)
			s->pending[kept++] = s->pending[k];
	s->npending = kept;
	return rc;
}

/* All events at the earliest time: completions, then arrivals (by id),
 * then one pass. */
static int step(sim *s, tp_error *err)
{
	int64_t t = tp_evheap_top(&s->h)->time;
	double now = (double)t / US;
	size_t first_new = s->npending;
	while (s->h.n && tp_evheap_top(&s->h)->time == t) {
		tp_event e = tp_evheap_pop(&s->h);
		if (e.gen == EV_END) {
			complete(s, e.who);
		} else {
			s->pending[s->npending++] = e.who;
		}
	}
	qsort_r(s->pending + first_new, s->npending - first_new,
		sizeof(size_t), cmp_id, s);
	return s->npending || s->nended ? pass(s, now, err) : 0;
}

static void summarise(tp_het_sim_result *r)
{
	double wait = 0, first = INFINITY, last = 0;
	size_t par = 0;
	for (size_t i = 0; i < r->n; i++) {
		const tp_het_sim_job *o = &r->job[i];
		if (!o->ran)
			continue;
		int l = o->prio < TP_HET_SIM_LEVELS ? o->prio : TP_HET_SIM_LEVELS - 1;
		r->ran++;
		r->total += o->end - (double)o->submit;
		wait += o->start - (double)o->submit;
		r->level_total[l] += o->end - (double)o->submit;
		r->level_jobs[l]++;
		if (l + 1 > r->nlevels)
			r->nlevels = l + 1;
		par += o->parallel;
		r->killed += o->killed;
		if ((double)o->submit < first)
			first = (double)o->submit;
		if (o->end > last)
			last = o->end;
	}
	r->mean_wait = r->ran ? wait / (double)r->ran : 0;
	r->makespan = r->ran ? last - first : 0;
	r->frac_parallel = r->ran ? (double)par / (double)r->ran : 0;
}

static void sim_fini(sim *s)
{
	free(s->part);
	free(s->truth_mclass);
	free(s->ready);
	free(s->busy);
	free(s->sj);
	free(s->pending);
	free(s->running);
	free(s->run);
	free(s->ended);
	free(s->q);
	tp_evheap_fini(&s->h);
}

int tp_het_sim_run(const tp_het_conf *c, const tp_het_workload *w,
		   tp_expdb *db, tp_expdb *truth, const tp_het_sim_opts *o,
		   tp_het_sim_result *r, tp_error *err)
{
	memset(r, 0, sizeof(*r));
	tp_expdb *own = NULL;
	if (!db && !(db = own = tp_expdb_new()))
		return tp_errorf(err, "heterogeneous simulator: out of memory");
	sim s = { .c = c, .w = w, .db = db, .truth = truth,
		  .oracle = o->oracle, .algo = o->algo,
		  .max_jobs = o->max_jobs, .r = r };
	int rc = setup(&s, err);
	while (!rc && s.h.n)
		rc = step(&s, err);
	sim_fini(&s);
	tp_expdb_free(own);
	if (rc) {
		tp_het_sim_result_fini(r);
		return -1;
	}
	summarise(r);
	return 0;
}

void tp_het_sim_result_fini(tp_het_sim_result *r)
{
	for (size_t i = 0; r->job && i < r->n; i++)
		free(r->job[i].node);
	free(r->job);
	memset(r, 0, sizeof(*r));
}

int tp_het_sim_write_csv(FILE *out, const tp_het_conf *c,
			 const tp_het_workload *w, const tp_het_sim_result *r)
{
	fprintf(out, "id,class,prio,partition,nodes,submit,start,end,wait,parallel,killed,nodelist\n");
	for (size_t i = 0; i < r->n; i++) {
		const tp_het_sim_job *o = &r->job[i];
		if (!o->ran)
			continue;
		const char **names = malloc(sizeof(char *) * (size_t)o->nodes);
		if (!names)
			return -1;
		for (int k = 0; k < o->nodes; k++)
			names[k] = c->node_name[o->node[k]];
		char *hl = tp_hostlist_compress(names, (size_t)o->nodes);
		free(names);
		if (!hl)
			return -1;
		fprintf(out, "%" PRId64 ",%s,%d,%s,%d,%" PRId64 ",%.6f,%.6f,%.6f,%d,%d,\"%s\"\n",
			o->id, w->jclass_name[o->jclass], o->prio, c->part[o->part].name,
			o->nodes, o->submit, o->start, o->end,
			o->start - (double)o->submit, o->parallel, o->killed, hl);
		free(hl);
	}
	return ferror(out) ? -1 : 0;
}

/* A statistic of nothing is null. */
static void put_stat(FILE *out, const char *key, double v, bool known,
		     const char *fmt)
{
	fprintf(out, "  \"%s\": ", key);
	if (known)
		fprintf(out, fmt, v);
	else
		fputs("null", out);
	fputs(",\n", out);
}

int tp_het_sim_write_json(FILE *out, const tp_het_sim_result *r,
			  const char *policy)
{
	bool ran = r->ran > 0;
	fprintf(out, "{\n  \"policy\": \"%s\",\n  \"jobs\": %zu,\n  \"ran\": %zu,\n"
		"  \"never_ran\": %zu,\n  \"killed\": %zu,\n"
		"  \"total_job_time\": %.6f,\n", policy, r->n, r->ran,
		r->n - r->ran, r->killed, r->total);
	put_stat(out, "mean_wait", r->mean_wait, ran, "%.6f");
	put_stat(out, "makespan", r->makespan, ran, "%.6f");
	put_stat(out, "fraction_parallel", r->frac_parallel, ran, "%.6f");
	fprintf(out, "  \"passes\": %zu,\n  \"learned\": %zu,\n"
		"  \"decision_cpu_s\": %.9f,\n", r->passes, r->learned,
		r->decide_cpu);
	put_stat(out, "decision_cpu_per_pass_s",
		 r->passes ? r->decide_cpu / (double)r->passes : 0,
		 r->passes > 0, "%.9f");
	fputs("  \"levels\": [", out);
	for (int l = 0; l < r->nlevels; l++)
		fprintf(out, "%s{\"level\": %d, \"jobs\": %zu, \"total_job_time\": %.6f}",
			l ? ", " : "", l, r->level_jobs[l], r->level_total[l]);
	fprintf(out, "]\n}\n");
	return ferror(out) ? -1 : 0;
}
