/* site_load.c - see site_load.h. */
#include "site_load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "settings/settings.h"
#include "site/sacctmgr.h"

int sim_site_read(const sim_config *c, sim_site *st, tp_error *err)
{
	if (tp_site_read(c->slurm_conf, &st->site, err))
		return -1;
	st->have_site = true;
	size_t n = st->site.nparts;
	if (!(st->limits = calloc(n ? n : 1, sizeof(*st->limits))))
		return tp_errorf(err, "%s: out of memory", c->slurm_conf);
	for (size_t i = 0; i < n; i++)
		st->limits[i] = (tp_sacct_limit){ st->site.parts[i].name,
						  st->site.parts[i].max_time };
	return 0;
}

void sim_site_opts(const sim_site *st, tp_sacct_opts *o)
{
	if (!st->have_site)
		return;
	o->limits = st->limits;
	o->nlimits = st->site.nparts;
}

int sim_site_nodes(const sim_site *st, tp_hostlist *nodes, tp_error *err)
{
	memset(nodes, 0, sizeof(*nodes));
	if (!st->site.nnodes)
		return tp_errorf(err, "%s: no NodeName line: the site has no nodes",
				 st->site.path);
	nodes->names = calloc(st->site.nnodes, sizeof(*nodes->names));
	if (!nodes->names)
		return tp_errorf(err, "out of memory");
	nodes->cap = st->site.nnodes;
	for (; nodes->n < st->site.nnodes; nodes->n++)
		if (!(nodes->names[nodes->n] = strdup(st->site.nodes[nodes->n].name))) {
			tp_hostlist_fini(nodes);
			return tp_errorf(err, "out of memory");
		}
	return 0;
}

/* Partition k's nodes on the machine. */
static int part_set(sim_site *st, size_t k, int nnodes,
		    int (*index)(const void *, const char *), const void *arg)
{
	const tp_site_part *p = &st->site.parts[k];
	if (tp_nodeset_init(&st->sets[k], nnodes))
		return -1;
	for (size_t i = 0; i < p->nnodes; i++) {
		int x = index(arg, st->site.nodes[p->nodes[i]].name);
		if (x >= 0 && x < nnodes)
			tp_nodeset_set(&st->sets[k], x);
	}
	return 0;
}

/* The set of a Partition field: one partition's, or the union of a
 * list's (kept in st->lists); NULL when none of it is in slurm.conf. */
static const tp_nodeset *field_set(sim_site *st, const char *field, int nnodes)
{
	const tp_nodeset *one = NULL;
	tp_nodeset *u = NULL;
	for (const char *p = field; *p;) {
		size_t len = strcspn(p, ",");
		for (size_t k = 0; k < st->site.nparts; k++) {
			const char *name = st->site.parts[k].name;
			if (strlen(name) != len || strncmp(name, p, len))
				continue;
			if (!one) {
				one = &st->sets[k];
			} else {
				if (!u) {
					tp_nodeset **l = realloc(st->lists, (st->nlists + 1) * sizeof(*l));
					if (!l)
						return NULL;
					st->lists = l;
					if (!(u = malloc(sizeof(*u))) ||
					    tp_nodeset_init_copy(u, one)) {
						free(u);
						return NULL;
					}
					st->lists[st->nlists++] = u;
				}
				tp_nodeset_or(u, &st->sets[k]);
			}
		}
		p += len + (p[len] == ',');
	}
	(void)nnodes;
	return u ? u : one;
}

int sim_site_partitions(const sim_config *c, sim_site *st, const tp_sacct *s,
			tp_workload *w, int nnodes,
			int (*index)(const void *arg, const char *name),
			const void *arg, tp_error *err)
{
	size_t unknown = 0, first = 0;
	st->nsets = st->site.nparts;
	if (!(st->sets = calloc(st->nsets ? st->nsets : 1, sizeof(*st->sets))))
		return tp_errorf(err, "out of memory");
	for (size_t k = 0; k < st->nsets; k++)
		if (part_set(st, k, nnodes, index, arg))
			return tp_errorf(err, "out of memory");
	for (size_t i = 0; i < w->njobs; i++) {
		int32_t pi = s->runs[i].res.partition;
		const tp_nodeset *set = pi >= 0 ? field_set(st, s->names[pi], nnodes) : NULL;
		if (!set && !unknown++)
			first = s->runs[i].line;
		if (!w->jobs[i].allowed)
			w->jobs[i].allowed = set;
	}
	st->partitioned = true;
	if (unknown)
		fprintf(stderr, "toposim: warning: %s: %zu job(s) of no partition of %s (first: line %zu): free to use every node\n",
			c->sacct, unknown, c->slurm_conf, first);
	return 0;
}

/* --sprio-at T[,T...]: seconds from the replay's first submission. */
static int instants(const sim_config *c, sim_site *st, int64_t base,
		    tp_error *err)
{
	const char *p = c->sprio_at;
	while (*p) {
		char *end;
		errno = 0;
		long long t = strtoll(p, &end, 10);
		if (end == p || errno || t < 0 || (*end && *end != ','))
			return tp_errorf(err, "--sprio-at: bad instant '%s' (seconds from the replay's first submission, comma-separated, ascending)", p);
		if (st->nat && base + t < st->at[st->nat - 1])
			return tp_errorf(err, "--sprio-at: instants must ascend: '%s'", p);
		int64_t *a = realloc(st->at, (st->nat + 1) * sizeof(*a));
		if (!a)
			return tp_errorf(err, "out of memory");
		st->at = a;
		st->at[st->nat++] = base + t;
		p = *end ? end + 1 : end;
	}
	if (!(st->sprio = fopen(c->sprio_out, "w")))
		return tp_errorf(err, "%s: cannot write: %s", c->sprio_out, strerror(errno));
	return 0;
}

/* --qos: each job's QOS priority; jobs of a QOS the table lacks get 0,
 * counted in a warning. */
static int site_qos(const sim_config *c, sim_site *st, const tp_sacct *s,
		    tp_error *err)
{
	size_t first = 0;
	if (tp_qos_read(c->qos, &st->qos, err))
		return -1;
	st->have_qos = true;
	size_t missing = tp_siteprio_qos(&st->sp, s, &st->qos, &first);
	if (missing)
		fprintf(stderr, "toposim: warning: %s: %zu job(s) of a QOS %s lacks (first: line %zu): QOS factor 0\n",
			c->sacct, missing, c->qos, first);
	return 0;
}

/* What the model leaves out, said once. */
static void say(const sim_config *c, const sim_site *st)
{
	const tp_site_prio *p = &st->site.prio;
	const tp_siteprio *sp = &st->sp;
	if (!c->quiet)
		fprintf(stderr, "toposim: priority: %s (%s), queue in PriorityTier then priority order, recalculated every %" PRId64 " s%s\n",
			p->multifactor ? "priority/multifactor" : "priority/basic",
			c->slurm_conf, p->calc_period,
			st->have_tree ? ", Fair Tree over --sacctmgr's associations" : "");
	if (p->multifactor && p->conf.w_fs && !st->have_tree)
		fprintf(stderr, "toposim: warning: PriorityWeightFairshare is %u but no --sacctmgr: every fairshare factor is 0\n",
			p->conf.w_fs);
	if (p->multifactor && p->conf.w_qos && !c->qos)
		fprintf(stderr, "toposim: warning: PriorityWeightQOS is %u but no --qos: every QOS factor is 0\n",
			p->conf.w_qos);
	if (p->multifactor && p->unmodelled[0])
		fprintf(stderr, "toposim: warning: PriorityFlags %s not modelled (Fair Tree, age from submission)\n",
			p->unmodelled);
	if (sp->no_assoc)
		fprintf(stderr, "toposim: warning: %s: %zu job(s) of no association in --sacctmgr (first: line %zu): fairshare factor 0, their usage not charged\n",
			c->sacct, sp->no_assoc, sp->first_no_assoc_line);
}

int sim_site_prio(const sim_config *c, sim_site *st, const tp_sacct *s,
		  tp_error *err)
{
	if (!st->have_site)
		return 0;
	if (c->windows.k)
		return tp_errorf(err, "--windows with --slurm-conf's priority model: not supported (use --jobs FIRST:COUNT)");
	if (c->sacctmgr) {
		if (tp_sacctmgr_read(c->sacctmgr, &st->tree, err))
			return -1;
		st->have_tree = true;
	}
	if (tp_siteprio_init(&st->sp, &st->site, s, st->have_tree ? &st->tree : NULL, err))
		return -1;
	st->ordered = true;
	if (c->qos && site_qos(c, st, s, err))
		return -1;
	size_t first = c->slice_count ? c->slice_first : 0;
	int64_t until = first < s->w.njobs ? s->w.jobs[first].submit : 0;
	tp_siteprio_seed(&st->sp, s, first < s->w.njobs ? first : 0, until);
	if (c->usage_recorded && tp_siteprio_recorded(&st->sp, s, err))
		return -1;
	if (c->sprio_out) {
		if (instants(c, st, until, err))
			return -1;
		tp_siteprio_trace(&st->sp, st->sprio, st->at, st->nat);
	}
	say(c, st);
	return 0;
}

/* SchedulerParameters keys that shape slurmctld's passes and are not
 * modelled (the passes take no time, so nothing yields or resumes). */
static const char *const unmodelled_keys[] = {
	"bf_continue", "bf_max_time", "bf_yield_interval",
	"bf_yield_sleep", "bf_max_job_user_part", "bf_max_job_assoc",
	"bf_max_job_start", "bf_min_prio_reserve", "bf_busy_nodes",
	"partition_job_depth", "sched_min_interval", "sched_max_job_start",
	"batch_sched_delay", "defer", "max_rpc_cnt", NULL,
};

/* The keys of SchedulerParameters `v` that are in unmodelled_keys, into
 * buf (comma-separated). */
static void unmodelled_of(const char *v, char *buf, size_t size)
{
	buf[0] = '\0';
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=,");
		for (const char *const *k = unmodelled_keys; *k; k++)
			if (strlen(*k) == klen && !strncasecmp(p, *k, klen) &&
			    strlen(buf) + klen + 2 < size) {
				if (buf[0])
					strcat(buf, ",");
				strncat(buf, p, klen);
			}
		p += len + (p[len] == ',');
	}
}

/* slurm.conf's SchedulerType, Slurm's default when not given. */
static const char *sched_type(const sim_site *st)
{
	return st->site.prio.sched_type ? st->site.prio.sched_type : "sched/backfill";
}

/* The first problem settings parsing reports. */
static void first_problem(void *arg, const char *msg)
{
	tp_error *e = arg;
	if (!e->msg[0])
		tp_errorf(e, "%s", msg);
}

/* Under sched/topo, SchedulerParameters' topo_period (its cycle), the
 * settings table's default when not given: 0, or -1 with *e saying what
 * is wrong (a topo_ key sched/topo would report). */
static int topo_period(const sim_site *st, int *period, tp_error *e)
{
	tp_settings s;
	e->msg[0] = '\0';
	*period = 0;
	if (strcasecmp(sched_type(st), "sched/topo"))
		return 0;
	if (tp_settings_parse_params(&s, NULL, st->site.prio.sched_params, TP_SCOPE_SCHED,
				     first_problem, e))
		return -1;
	*period = s.period;
	return 0;
}

/* What the replay models of slurmctld's passes, a line each. */
static void say_rhythm(const sim_config *c, const sim_site *st)
{
	const tp_rhythm *r = &st->rhythm;
	const char *v = st->site.prio.sched_params, *t = sched_type(st);
	char un[256];
	if (c->quiet)
		;
	else if (r->sched_interval < 0)
		fprintf(stderr, "toposim: scheduler: %s: slurmctld's main pass off (sched_interval=-1)\n", t);
	else
		fprintf(stderr, "toposim: scheduler: %s: main pass at every event over default_queue_depth=%d jobs, over the whole queue every sched_interval=%" PRId64 " s\n",
			t, r->default_queue_depth, r->sched_interval);
	if (c->quiet)
		;
	else if (r->bf_interval < 0)
		fprintf(stderr, "toposim: scheduler: %s: no backfill pass\n", t);
	else if (r->bf_window == INT64_MAX)
		fprintf(stderr, "toposim: scheduler: %s: --policy %s's pass every topo_period=%" PRId64 " s over the whole queue\n",
			t, c->set.policy, r->bf_interval);
	else
		fprintf(stderr, "toposim: scheduler: %s: --policy %s's backfill pass every bf_interval=%" PRId64 " s over bf_max_job_test=%d jobs (bf_max_job_user=%d, bf_max_job_part=%d), reserving within bf_window=%" PRId64 " min in slots of bf_resolution=%" PRId64 " s\n",
			t, c->set.policy, r->bf_interval, r->bf_max_job_test,
			r->bf_max_job_user, r->bf_max_job_part, r->bf_window / 60,
			r->bf_resolution);
	unmodelled_of(v ? v : "", un, sizeof(un));
	if (un[0])
		fprintf(stderr, "toposim: warning: %s: SchedulerParameters %s not modelled (passes take no time: nothing yields, resumes or runs out of time)\n",
			c->slurm_conf, un);
}

int sim_site_rhythm(const sim_config *c, sim_site *st, const tp_sacct *s,
		    tp_workload *w, tp_error *err)
{
	const tp_policy_ops *ops = tp_policy_find(c->set.policy);
	if (!st->have_site || c->every_event || !ops || !ops->pass)
		return 0;
	st->rhythm = tp_rhythm_defaults();
	tp_error e;
	int period;
	if (tp_rhythm_parse(&st->rhythm, st->site.prio.sched_params, &e) ||
	    topo_period(st, &period, &e) ||
	    tp_rhythm_scheduler(&st->rhythm, sched_type(st), period, &e))
		return tp_errorf(err, "%s: %s", c->slurm_conf, e.msg);
	for (size_t i = 0; i < w->njobs; i++) {
		w->jobs[i].part = s->runs[i].res.partition;
		w->jobs[i].user = s->runs[i].res.user;
	}
	st->rhythmic = true;
	say_rhythm(c, st);
	return 0;
}

/* Whether AccountingStorageEnforce (a comma-separated list) makes
 * slurmctld enforce limits: "limits" or "safe" (which implies it). */
static bool enforces_limits(const char *v)
{
	for (const char *p = v; p && *p;) {
		size_t len = strcspn(p, ",");
		if ((len == 6 && !strncasecmp(p, "limits", 6)) ||
		    (len == 4 && !strncasecmp(p, "safe", 4)))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

/* Each QOS's limits, a line (only the QOS that have any). */
static void say_limits(const sim_site *st)
{
	const tp_qos_table *q = &st->qos;
	for (size_t i = 0; st->have_qos && i < q->n; i++) {
		const tp_qos_limits *l = &q->limits[i];
		if (tp_limits_any(l, 1))
			fprintf(stderr, "toposim: QOS limits: %s: MaxJobsPU=%" PRId64 " MaxTRESPU=cpu=%" PRId64 ",node=%" PRId64 " GrpJobs=%" PRId64 " GrpTRES=cpu=%" PRId64 ",node=%" PRId64 " MaxSubmitPU=%" PRId64 " GrpSubmit=%" PRId64 " (-1: none)\n",
				q->names[i], l->max_jobs_pu, l->max_cpus_pu,
				l->max_nodes_pu, l->grp_jobs, l->grp_cpus, l->grp_nodes,
				l->max_submit_pu, l->grp_submit);
	}
	size_t n = 0;
	for (size_t i = 0; st->have_tree && i < st->tree.n; i++)
		n += tp_limits_any_assoc(&st->tree.a[i].lim, 1);
	if (n)
		fprintf(stderr, "toposim: association limits: %zu association(s) set MaxJobs, MaxSubmitJobs, GrpJobs, GrpSubmitJobs or GrpTRES (cpu, node); Max limits inherited by their subtrees, a QOS limit of the same kind preferred\n",
			n);
}

/* Whether the site has limits to enforce: its QOS's or its
 * associations'. */
static bool has_limits(const sim_site *st)
{
	bool qos = st->have_qos && tp_limits_any(st->qos.limits, st->qos.n);
	for (size_t i = 0; !qos && st->have_tree && i < st->tree.n; i++)
		if (tp_limits_any_assoc(&st->tree.a[i].lim, 1))
			return true;
	return qos;
}

/* The association limits for the engine: the tree's, Max limits
 * propagated down (st->alim, st->aparent). */
static int assoc_limits(sim_site *st, tp_error *err)
{
	size_t n = st->tree.n;
	if (!(st->alim = malloc(n * sizeof(*st->alim))) ||
	    !(st->aparent = malloc(n * sizeof(*st->aparent))))
		return tp_errorf(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		st->alim[i] = st->tree.a[i].lim;
		st->aparent[i] = st->tree.a[i].parent;
	}
	tp_limits_propagate(st->alim, st->aparent, n);
	return 0;
}

/* Each job of w its QOS, user, association and CPUs. */
static void who_each(const sim_site *st, const tp_sacct *s, tp_workload *w)
{
	for (size_t i = 0; i < w->njobs; i++) {
		const tp_sacct_res *r = &s->runs[i].res;
		tp_wjob *j = &w->jobs[i];
		j->qos = st->have_qos && r->qos >= 0 ?
			 tp_qos_index(&st->qos, s->names[r->qos]) : -1;
		j->user = r->user;
		j->assoc = st->have_tree && r->account >= 0 && r->user >= 0 ?
			   tp_assoc_find(&st->tree, s->names[r->account],
					 s->names[r->user]) : -1;
		j->cpus = r->alloc_cpus;
	}
}

int sim_site_limits(const sim_config *c, sim_site *st, const tp_sacct *s,
		    tp_workload *w, tp_error *err)
{
	if (!has_limits(st))
		return 0;
	if (!enforces_limits(st->site.prio.enforce)) {
		if (!c->quiet)
			fprintf(stderr, "toposim: warning: %s has limits, but %s's AccountingStorageEnforce (%s) has neither limits nor safe: Slurm does not enforce them, nor does the replay\n",
				st->have_qos && tp_limits_any(st->qos.limits, st->qos.n) ? c->qos : c->sacctmgr,
				c->slurm_conf,
				st->site.prio.enforce ? st->site.prio.enforce : "not set");
		return 0;
	}
	who_each(st, s, w);
	if (st->have_tree && assoc_limits(st, err))
		return -1;
	if (!(st->qos_limits = malloc(sizeof(*st->qos_limits))) ||
	    tp_limits_init(st->qos_limits, st->have_qos ? st->qos.limits : NULL,
			   st->have_qos ? st->qos.n : 0, s->nnames) ||
	    (st->have_tree &&
	     tp_limits_init_assoc(st->qos_limits, st->alim, st->aparent, st->tree.n)))
		return tp_errorf(err, "out of memory");
	if (!c->quiet)
		say_limits(st);
	return 0;
}

tp_limits *sim_site_limits_of(const sim_site *st)
{
	return st->qos_limits;
}

const tp_rhythm *sim_site_rhythm_of(const sim_site *st)
{
	return st->rhythmic ? &st->rhythm : NULL;
}

const tp_engine_order *sim_site_order(const sim_site *st)
{
	return st->ordered ? &st->sp.order : NULL;
}

void sim_site_fini(sim_site *st)
{
	if (st->ordered)
		tp_siteprio_fini(&st->sp);
	if (st->have_tree)
		tp_assoc_fini(&st->tree);
	if (st->have_site)
		tp_site_fini(&st->site);
	if (st->sprio)
		fclose(st->sprio);
	free(st->limits);
	if (st->have_qos)
		tp_qos_fini(&st->qos);
	if (st->qos_limits)
		tp_limits_fini(st->qos_limits);
	free(st->qos_limits);
	free(st->alim);
	free(st->aparent);
	free(st->at);
	for (size_t k = 0; k < st->nsets; k++)
		tp_nodeset_fini(&st->sets[k]);
	free(st->sets);
	for (size_t k = 0; k < st->nlists; k++) {
		tp_nodeset_fini(st->lists[k]);
		free(st->lists[k]);
	}
	free(st->lists);
	memset(st, 0, sizeof(*st));
}
