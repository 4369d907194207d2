/* limits.c - QOS and association limits; see limits.h. */
#include "policy/limits.h"

#include <stdlib.h>
#include <string.h>

int tp_limits_init(tp_limits *l, const tp_qos_limits *qos, size_t nqos,
		   size_t nusers)
{
	size_t cells = (nqos ? nqos : 1) * (nusers ? nusers : 1);
	memset(l, 0, sizeof(*l));
	l->qos = qos;
	l->nqos = nqos;
	l->nusers = nusers;
	l->run_user = calloc(cells, sizeof(tp_usage));
	l->pass_user = calloc(cells, sizeof(tp_usage));
	l->sub_user = calloc(cells, sizeof(int64_t));
	l->run_qos = calloc(nqos ? nqos : 1, sizeof(tp_usage));
	l->pass_qos = calloc(nqos ? nqos : 1, sizeof(tp_usage));
	l->sub_qos = calloc(nqos ? nqos : 1, sizeof(int64_t));
	if (l->run_user && l->pass_user && l->sub_user && l->run_qos &&
	    l->pass_qos && l->sub_qos)
		return 0;
	tp_limits_fini(l);
	return -1;
}

int tp_limits_init_assoc(tp_limits *l, const tp_assoc_limits *assoc,
			 const int32_t *parent, size_t nassoc)
{
	size_t n = nassoc ? nassoc : 1;
	l->run_assoc = calloc(n, sizeof(tp_usage));
	l->pass_assoc = calloc(n, sizeof(tp_usage));
	l->sub_assoc = calloc(n, sizeof(int64_t));
	if (!l->run_assoc || !l->pass_assoc || !l->sub_assoc)
		return -1;
	l->assoc = assoc;
	l->parent = parent;
	l->nassoc = nassoc;
	return 0;
}

void tp_limits_fini(tp_limits *l)
{
	free(l->run_user);
	free(l->pass_user);
	free(l->sub_user);
	free(l->run_qos);
	free(l->pass_qos);
	free(l->sub_qos);
	free(l->run_assoc);
	free(l->pass_assoc);
	free(l->sub_assoc);
	memset(l, 0, sizeof(*l));
}

void tp_limits_reset(tp_limits *l)
{
	memset(l->run_user, 0, l->nqos * l->nusers * sizeof(tp_usage));
	memset(l->sub_user, 0, l->nqos * l->nusers * sizeof(int64_t));
	memset(l->run_qos, 0, l->nqos * sizeof(tp_usage));
	memset(l->sub_qos, 0, l->nqos * sizeof(int64_t));
	if (l->nassoc) {
		memset(l->run_assoc, 0, l->nassoc * sizeof(tp_usage));
		memset(l->sub_assoc, 0, l->nassoc * sizeof(int64_t));
	}
	tp_limits_pass_begin(l);
}

void tp_limits_propagate(tp_assoc_limits *assoc, const int32_t *parent,
			 size_t nassoc)
{
	for (size_t i = 0; i < nassoc; i++) {
		if (parent[i] < 0 || (size_t)parent[i] >= i)
			continue;
		const tp_assoc_limits *p = &assoc[parent[i]];
		if (assoc[i].max_jobs < 0)
			assoc[i].max_jobs = p->max_jobs;
		if (assoc[i].max_submit < 0)
			assoc[i].max_submit = p->max_submit;
	}
}

bool tp_limits_any(const tp_qos_limits *qos, size_t nqos)
{
	for (size_t i = 0; i < nqos; i++) {
		const tp_qos_limits *q = &qos[i];
		if (q->max_jobs_pu >= 0 || q->max_cpus_pu >= 0 ||
		    q->max_nodes_pu >= 0 || q->grp_jobs >= 0 ||
		    q->grp_cpus >= 0 || q->grp_nodes >= 0 ||
		    q->max_submit_pu >= 0 || q->grp_submit >= 0)
			return true;
	}
	return false;
}

bool tp_limits_any_assoc(const tp_assoc_limits *assoc, size_t nassoc)
{
	for (size_t i = 0; i < nassoc; i++) {
		const tp_assoc_limits *a = &assoc[i];
		if (a->max_jobs >= 0 || a->max_submit >= 0 || a->grp_jobs >= 0 ||
		    a->grp_submit >= 0 || a->grp_cpus >= 0 || a->grp_nodes >= 0)
			return true;
	}
	return false;
}

/* Whether the job has a cell of the QOS tables: a job of no QOS of the
 * table (or an unnumbered user) is never held by a QOS limit. */
static bool in_qos(const tp_limits *l, tp_limits_who w)
{
	return w.qos >= 0 && (size_t)w.qos < l->nqos && w.user >= 0 &&
	       (size_t)w.user < l->nusers;
}

static size_t cell_of(const tp_limits *l, tp_limits_who w)
{
	return (size_t)w.qos * l->nusers + (size_t)w.user;
}

/* The job's QOS limits; none outside the tables. */
static const tp_qos_limits *qos_of(const tp_limits *l, tp_limits_who w)
{
	static const tp_qos_limits none = TP_QOS_NO_LIMITS;
	return in_qos(l, w) ? &l->qos[w.qos] : &none;
}

static bool has_assoc(const tp_limits *l, tp_limits_who w)
{
	return w.assoc >= 0 && (size_t)w.assoc < l->nassoc;
}

static void add(tp_usage *u, int64_t cpus, int64_t nodes, int sign)
{
	u->jobs += sign;
	u->cpus += sign * cpus;
	u->nodes += sign * nodes;
}

void tp_limits_charge(tp_limits *l, tp_limits_who w, int64_t cpus,
		      int64_t nodes, int sign)
{
	if (in_qos(l, w)) {
		add(&l->run_user[cell_of(l, w)], cpus, nodes, sign);
		add(&l->run_qos[w.qos], cpus, nodes, sign);
	}
	if (has_assoc(l, w))
		for (int32_t a = w.assoc; a >= 0; a = l->parent[a])
			add(&l->run_assoc[a], cpus, nodes, sign);
}

void tp_limits_pass_begin(tp_limits *l)
{
	memset(l->pass_user, 0, l->nqos * l->nusers * sizeof(tp_usage));
	memset(l->pass_qos, 0, l->nqos * sizeof(tp_usage));
	if (l->nassoc)
		memset(l->pass_assoc, 0, l->nassoc * sizeof(tp_usage));
}

/* Whether `used` plus `more` stays within `limit` (-1: none). */
static bool within(int64_t limit, int64_t used, int64_t more)
{
	return limit < 0 || used + more <= limit;
}

/* Whether a job of (cpus, nodes) fits beside running and passed usage
 * under the three limits given. */
static bool fits(const tp_usage *run, const tp_usage *passed, int64_t max_jobs,
		 int64_t max_cpus, int64_t max_nodes, int64_t cpus, int64_t nodes)
{
	return within(max_jobs, run->jobs + passed->jobs, 1) &&
	       within(max_cpus, run->cpus + passed->cpus, cpus) &&
	       within(max_nodes, run->nodes + passed->nodes, nodes);
}

/* A QOS limit set overrides the association's of the same kind. */
static int64_t unless(int64_t qos_limit, int64_t assoc_limit)
{
	return qos_limit >= 0 ? -1 : assoc_limit;
}

/* The association limits along the job's path to the root. */
static bool assoc_fits(const tp_limits *l, tp_limits_who w,
		       const tp_qos_limits *q, int64_t cpus, int64_t nodes)
{
	if (!has_assoc(l, w))
		return true;
	const tp_assoc_limits *own = &l->assoc[w.assoc];
	if (!fits(&l->run_assoc[w.assoc], &l->pass_assoc[w.assoc],
		  unless(q->max_jobs_pu, own->max_jobs), -1, -1, cpus, nodes))
		return false;
	for (int32_t a = w.assoc; a >= 0; a = l->parent[a]) {
		const tp_assoc_limits *x = &l->assoc[a];
		if (!fits(&l->run_assoc[a], &l->pass_assoc[a],
			  unless(q->grp_jobs, x->grp_jobs),
			  unless(q->grp_cpus, x->grp_cpus),
			  unless(q->grp_nodes, x->grp_nodes), cpus, nodes))
			return false;
	}
	return true;
}

bool tp_limits_pass(tp_limits *l, tp_limits_who w, int64_t cpus,
		    int64_t nodes)
{
	const tp_qos_limits *q = qos_of(l, w);
	bool qos = in_qos(l, w);
	size_t cell = qos ? cell_of(l, w) : 0;
	if (qos &&
	    (!fits(&l->run_user[cell], &l->pass_user[cell], q->max_jobs_pu,
		   q->max_cpus_pu, q->max_nodes_pu, cpus, nodes) ||
	     !fits(&l->run_qos[w.qos], &l->pass_qos[w.qos], q->grp_jobs,
		   q->grp_cpus, q->grp_nodes, cpus, nodes)))
		return false;
	if (!assoc_fits(l, w, q, cpus, nodes))
		return false;
	if (qos) {
		add(&l->pass_user[cell], cpus, nodes, 1);
		add(&l->pass_qos[w.qos], cpus, nodes, 1);
	}
	if (has_assoc(l, w))
		for (int32_t a = w.assoc; a >= 0; a = l->parent[a])
			add(&l->pass_assoc[a], cpus, nodes, 1);
	return true;
}

/* The submit limits: the job's own association's MaxSubmitJobs and
 * every ancestor's GrpSubmitJobs, unless its QOS sets its own. */
static bool submit_fits(const tp_limits *l, tp_limits_who w)
{
	const tp_qos_limits *q = qos_of(l, w);
	if (in_qos(l, w) &&
	    (!within(q->max_submit_pu, l->sub_user[cell_of(l, w)], 1) ||
	     !within(q->grp_submit, l->sub_qos[w.qos], 1)))
		return false;
	if (!has_assoc(l, w))
		return true;
	if (!within(unless(q->max_submit_pu, l->assoc[w.assoc].max_submit),
		    l->sub_assoc[w.assoc], 1))
		return false;
	for (int32_t a = w.assoc; a >= 0; a = l->parent[a])
		if (!within(unless(q->grp_submit, l->assoc[a].grp_submit),
			    l->sub_assoc[a], 1))
			return false;
	return true;
}

/* Counts a submitted job in (sign 1) or out (-1). */
static void count_submitted(tp_limits *l, tp_limits_who w, int sign)
{
	if (in_qos(l, w)) {
		l->sub_user[cell_of(l, w)] += sign;
		l->sub_qos[w.qos] += sign;
	}
	if (has_assoc(l, w))
		for (int32_t a = w.assoc; a >= 0; a = l->parent[a])
			l->sub_assoc[a] += sign;
}

bool tp_limits_submit(tp_limits *l, tp_limits_who w)
{
	if (!submit_fits(l, w))
		return false;
	count_submitted(l, w, 1);
	return true;
}

void tp_limits_leave(tp_limits *l, tp_limits_who w)
{
	count_submitted(l, w, -1);
}
