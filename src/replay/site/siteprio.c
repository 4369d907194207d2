/* siteprio.c - a site's priority order in a replay; see siteprio.h. */
#include "site/siteprio.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "priority/fairtree.h"
#include "priority/prio.h"

enum { RUN_NONE, RUN_FRESH, RUN_FULL };

/* A recorded run's start or end. */
typedef struct tp_siteprio_ev {
	int64_t t;
	uint32_t job;
	uint8_t end;  /* ends before starts at one time */
} hist_ev;

static int by_time(const void *a, const void *b)
{
	const hist_ev *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->end != y->end)
		return x->end ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* ---- usage ----------------------------------------------------------- */

static void run_start(tp_siteprio *sp, size_t i, int64_t start)
{
	tp_siteprio_job *j = &sp->jobs[i];
	j->start = start;
	if (!sp->tree || j->assoc < 0)
		return;
	uint32_t *f = tp_grow(sp->fresh, &sp->capfresh, sp->nfresh, sizeof(*f), 64);
	if (!f) { /* charged at its end instead: a step's worth less */
		j->state = RUN_NONE;
		return;
	}
	sp->fresh = f;
	f[sp->nfresh++] = (uint32_t)i;
	j->state = RUN_FRESH;
}

/* Slurm at a job's end: what ran since the last step (or its start), not
 * decayed further. */
static void run_end(tp_siteprio *sp, size_t i, int64_t start, int64_t end)
{
	tp_siteprio_job *j = &sp->jobs[i];
	if (!sp->tree || j->assoc < 0 || j->state == RUN_NONE)
		return;
	int64_t from = start > sp->last ? start : sp->last;
	tp_assoc_charge(sp->tree, j->assoc, sp->df, (double)(end - from), j->cpus);
	if (j->state == RUN_FULL)
		sp->full[j->assoc] -= j->cpus;
	j->state = RUN_NONE;
}

/* Slurm's decay step at `now`: everything decays by df^(now - last),
 * every running job adds its seconds in the step, then Fair Tree. */
static int step(tp_siteprio *sp, int64_t now, tp_error *err)
{
	if (!sp->tree)
		return 0;
	double dt = sp->last >= 0 ? (double)(now - sp->last) : 0;
	tp_assoc_decay(sp->tree, sp->df, dt);
	for (size_t a = 0; a < sp->tree->n && dt > 0; a++)
		if (sp->full[a] > 0)
			tp_assoc_charge(sp->tree, (int)a, sp->df, dt, sp->full[a]);
	for (size_t k = 0; k < sp->nfresh; k++) {
		tp_siteprio_job *j = &sp->jobs[sp->fresh[k]];
		if (j->state != RUN_FRESH)
			continue;
		tp_assoc_charge(sp->tree, j->assoc, sp->df,
				(double)(now - j->start), j->cpus);
		sp->full[j->assoc] += j->cpus;
		j->state = RUN_FULL;
	}
	sp->nfresh = 0;
	sp->last = now;
	return tp_fairtree(sp->tree, err);
}

/* ---- the job's priority ---------------------------------------------- */

static void prio_in(const tp_siteprio *sp, const tp_siteprio_job *x,
		    const tp_job *j, int64_t now, tp_prio_in *in)
{
	memset(in, 0, sizeof(*in));
	in->now = now;
	in->eligible = j->submit > 0 ? j->submit : 1;
	/* Slurm sizes a pending job by what it asked (min_nodes), not by
	 * the nodes cons_tres later spread its CPUs over. */
	in->nodes = x->min_nodes ? x->min_nodes : (uint32_t)j->nodes;
	in->cpus = x->req_cpus;
	in->time_limit = (uint32_t)((j->estimate + 59) / 60);
	in->part_factor = x->part_factor;
	in->part_factor_max = sp->part_max;
	in->fairshare = sp->tree && x->assoc >= 0 ? sp->tree->a[x->assoc].fs : 0;
	if (sp->tree && x->assoc >= 0) {
		in->assoc_prio = sp->tree->a[x->assoc].priority;
		for (size_t a = 0; a < sp->tree->n; a++)
			if (sp->tree->a[a].priority > in->assoc_prio_max)
				in->assoc_prio_max = sp->tree->a[a].priority;
	}
	in->qos_prio = x->qos_prio;
	in->qos_prio_max = sp->qos_max;
	in->tres[TP_TRES_CPU] = x->req_cpus;
	in->tres[TP_TRES_NODE] = j->nodes;
	in->tres[TP_TRES_GPU] = x->tres_gpu;
	in->part_tres[TP_TRES_CPU] = sp->conf.cpus;
	in->part_tres[TP_TRES_NODE] = sp->conf.nodes;
}

static void key(void *arg, const tp_job *j, int64_t now, tp_prio_key *k)
{
	tp_siteprio *sp = arg;
	const tp_siteprio_job *x = &sp->jobs[sp->offset + (size_t)j->seq];
	k->tier = x->tier;
	k->submit = j->submit;
	k->id = j->id;
	k->priority = 0;
	if (sp->multifactor) {
		tp_prio_in in;
		tp_prio_factors f;
		prio_in(sp, x, j, now, &in);
		tp_prio_compute(&sp->conf, &in, &f);
		k->priority = f.priority;
	}
}

/* --sprio-out: the waiting jobs' factors, as sprio shows them. */
static void trace(tp_siteprio *sp, const tp_cluster *c)
{
	if (!sp->sprio || sp->next_at >= sp->nat || c->now < sp->at[sp->next_at])
		return;
	while (sp->next_at < sp->nat && sp->at[sp->next_at] <= c->now)
		sp->next_at++;
	for (size_t i = 0; i < c->nqueue; i++) {
		const tp_job *j = c->queue[i];
		const tp_siteprio_job *x = &sp->jobs[sp->offset + (size_t)j->seq];
		tp_prio_in in;
		tp_prio_factors f;
		prio_in(sp, x, j, c->now, &in);
		tp_prio_compute(&sp->conf, &in, &f);
		fprintf(sp->sprio, "%" PRId64 ",%" PRId64 ",%u,%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.2f\n",
			c->now, j->id, sp->multifactor ? f.priority : 0, x->tier,
			f.age, f.fs, f.js, f.part, f.qos, f.assoc, f.tres);
	}
}

/* ---- the engine's hooks ---------------------------------------------- */

/* --usage recorded: the recorded starts and ends up to `now`, as the
 * engine's hooks would have given them. */
static void recorded_until(tp_siteprio *sp, int64_t now)
{
	while (sp->next_rec < sp->nrec && sp->rec[sp->next_rec].t <= now) {
		const hist_ev *e = &sp->rec[sp->next_rec++];
		tp_siteprio_job *j = &sp->jobs[e->job];
		if (e->end)
			run_end(sp, e->job, j->start, e->t);
		else
			run_start(sp, e->job, e->t);
	}
}

static int tick(void *arg, const tp_cluster *c, tp_error *err)
{
	tp_siteprio *sp = arg;
	if (sp->rec)
		recorded_until(sp, c->now);
	int rc = step(sp, c->now, err);
	if (!rc)
		trace(sp, c);
	return rc;
}

static void ended(void *arg, const tp_job *j, int64_t start, int64_t end)
{
	tp_siteprio *sp = arg;
	if (sp->rec)
		return;
	run_end(sp, sp->offset + (size_t)j->seq, start, end);
}

static void started(void *arg, const tp_job *j, int64_t start)
{
	tp_siteprio *sp = arg;
	if (sp->rec)
		return;
	run_start(sp, sp->offset + (size_t)j->seq, start);
}

/* ---- setting up ------------------------------------------------------ */

static int32_t part_index(const tp_site *site, const tp_sacct *s, int32_t name)
{
	if (name < 0)
		return -1;
	const tp_site_part *p = tp_site_part_find(site, s->names[name]);
	return p ? (int32_t)(p - site->parts) : -1;
}

/* Billing: the CPUs Slurm allocated, else the nodes' CPUs. */
static double billing(const tp_site *site, const tp_site_part *p,
		      const tp_sacct_res *r, int32_t nodes)
{
	if (r->alloc_cpus > 0)
		return r->alloc_cpus;
	int32_t cpn = p && p->nnodes ? site->nodes[p->nodes[0]].cpus : 1;
	return (double)nodes * cpn;
}

static void one_job(tp_siteprio *sp, const tp_sacct *s, size_t i)
{
	const tp_sacct_res *r = &s->runs[i].res;
	tp_siteprio_job *x = &sp->jobs[i];
	int32_t pi = part_index(sp->site, s, r->partition);
	const tp_site_part *p = pi >= 0 ? &sp->site->parts[pi] : NULL;
	x->assoc = -1;
	if (sp->tree && r->account >= 0 && r->user >= 0)
		x->assoc = tp_assoc_find(sp->tree, s->names[r->account], s->names[r->user]);
	if (sp->tree && x->assoc < 0 && !sp->no_assoc++)
		sp->first_no_assoc_line = s->runs[i].line;
	x->cpus = billing(sp->site, p, r, s->w.jobs[i].nodes);
	/* Job size counts the job's total_cpus: an exclusive job's whole
	 * nodes, which AllocTRES records, else the CPUs asked (ReqCPUS).
	 * NCPUS alone is not taken: a job of an exclusive partition gets
	 * whole nodes there while slurmctld sized it, pending, by what it
	 * asked. */
	x->req_cpus = r->tres_alloc_cpus > 0 ? (uint32_t)r->tres_alloc_cpus :
		      r->req_cpus > 0 ? (uint32_t)r->req_cpus :
		      r->alloc_cpus > 0 ? (uint32_t)r->alloc_cpus : 0;
	x->min_nodes = r->min_nodes > 0 ? (uint32_t)r->min_nodes : 0;
	x->part_factor = p ? p->priority_job_factor : 0;
	x->tier = p ? p->priority_tier : 0;
	x->tres_gpu = r->req_gpus > 0 ? r->req_gpus : 0;
}

int tp_siteprio_init(tp_siteprio *sp, const tp_site *site,
		     const tp_sacct *s, tp_assoc_tree *tree, tp_error *err)
{
	memset(sp, 0, sizeof(*sp));
	sp->site = site;
	sp->conf = site->prio.conf;
	sp->multifactor = site->prio.multifactor;
	sp->tree = tree;
	sp->df = tp_assoc_decay_factor((double)site->prio.decay_half_life);
	sp->last = -1;
	for (size_t n = 0; n < site->nnodes; n++)
		sp->conf.cpus += (uint32_t)site->nodes[n].cpus;
	sp->conf.nodes = (uint32_t)site->nnodes;
	for (size_t k = 0; k < site->nparts; k++)
		if (site->parts[k].priority_job_factor > sp->part_max)
			sp->part_max = site->parts[k].priority_job_factor;
	sp->njobs = s->w.njobs;
	sp->jobs = calloc(sp->njobs ? sp->njobs : 1, sizeof(*sp->jobs));
	sp->full = calloc(tree && tree->n ? tree->n : 1, sizeof(*sp->full));
	if (!sp->jobs || !sp->full) {
		tp_siteprio_fini(sp);
		return tp_errorf(err, "out of memory");
	}
	for (size_t i = 0; i < sp->njobs; i++)
		one_job(sp, s, i);
	sp->order = (tp_engine_order){
		.period = site->prio.calc_period, .arg = sp, .tick = tick,
		.ended = ended, .started = started, .key = key,
	};
	if (tree && tp_fairtree(tree, err)) {
		tp_siteprio_fini(sp);
		return -1;
	}
	return 0;
}

void tp_siteprio_fini(tp_siteprio *sp)
{
	free(sp->jobs);
	free(sp->full);
	free(sp->fresh);
	free(sp->rec);
	memset(sp, 0, sizeof(*sp));
}

size_t tp_siteprio_qos(tp_siteprio *sp, const tp_sacct *s,
		       const tp_qos_table *q, size_t *first_line)
{
	size_t missing = 0;
	sp->qos_max = q->max;
	for (size_t i = 0; i < sp->njobs; i++) {
		int32_t k = s->runs[i].res.qos;
		int64_t p = k >= 0 ? tp_qos_priority(q, s->names[k]) : -1;
		sp->jobs[i].qos_prio = p > 0 ? (uint32_t)p : 0;
		if (p < 0 && !missing++)
			*first_line = s->runs[i].line;
	}
	return missing;
}

void tp_siteprio_trace(tp_siteprio *sp, FILE *fp, int64_t *at, size_t n)
{
	sp->sprio = fp;
	sp->at = at;
	sp->nat = n;
	sp->next_at = 0;
	fputs("time,id,priority,tier,age,fairshare,jobsize,partition,qos,assoc,tres\n", fp);
}

/* ---- the history ----------------------------------------------------- */

void tp_siteprio_seed(tp_siteprio *sp, const tp_sacct *s, size_t first,
		      int64_t until)
{
	sp->offset = first;
	if (!sp->tree || !first)
		return;
	hist_ev *ev = malloc(2 * first * sizeof(*ev));
	if (!ev) /* no history: the replay starts without usage */
		return;
	size_t n = 0;
	for (size_t i = 0; i < first; i++) {
		int64_t st = s->runs[i].start, en = s->runs[i].end;
		if (st >= until)
			continue;
		ev[n++] = (hist_ev){ st, (uint32_t)i, 0 };
		ev[n++] = (hist_ev){ en < until ? en : until, (uint32_t)i, 1 };
	}
	qsort(ev, n, sizeof(*ev), by_time);
	int64_t period = sp->order.period;
	int64_t tick_at = n ? (ev[0].t / period + 1) * period : until;
	size_t k = 0;
	tp_error err;
	while (k < n || tick_at <= until) {
		if (k < n && ev[k].t < tick_at) {
			size_t i = ev[k].job;
			if (ev[k].end) {
				run_end(sp, i, s->runs[i].start, ev[k].t);
			} else {
				run_start(sp, i, ev[k].t);
			}
			k++;
			continue;
		}
		if (tick_at > until)
			break;
		if (step(sp, tick_at, &err))
			break;
		tick_at += period;
	}
	/* the jobs running at `until` ended there (in the history) */
	free(ev);
	for (size_t i = 0; i < first; i++)
		sp->jobs[i].state = RUN_NONE;
	for (size_t a = 0; sp->tree && a < sp->tree->n; a++)
		sp->full[a] = 0;
	sp->nfresh = 0;
}

int tp_siteprio_recorded(tp_siteprio *sp, const tp_sacct *s, tp_error *err)
{
	size_t n = 0, first = sp->offset;
	free(sp->rec);
	sp->rec = malloc(2 * (sp->njobs - first + 1) * sizeof(*sp->rec));
	if (!sp->rec)
		return tp_errorf(err, "out of memory");
	for (size_t i = first; i < sp->njobs; i++) {
		sp->rec[n++] = (hist_ev){ s->runs[i].start, (uint32_t)i, 0 };
		sp->rec[n++] = (hist_ev){ s->runs[i].end, (uint32_t)i, 1 };
	}
	qsort(sp->rec, n, sizeof(*sp->rec), by_time);
	sp->nrec = n;
	sp->next_rec = 0;
	return 0;
}
