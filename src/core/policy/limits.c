/* limits.c - QOS limits on what may run; see limits.h. */
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
	l->run_qos = calloc(nqos ? nqos : 1, sizeof(tp_usage));
	l->pass_qos = calloc(nqos ? nqos : 1, sizeof(tp_usage));
	if (l->run_user && l->pass_user && l->run_qos && l->pass_qos)
		return 0;
	tp_limits_fini(l);
	return -1;
}

void tp_limits_fini(tp_limits *l)
{
	free(l->run_user);
	free(l->pass_user);
	free(l->run_qos);
	free(l->pass_qos);
	memset(l, 0, sizeof(*l));
}

void tp_limits_reset(tp_limits *l)
{
	memset(l->run_user, 0, l->nqos * l->nusers * sizeof(tp_usage));
	memset(l->run_qos, 0, l->nqos * sizeof(tp_usage));
	tp_limits_pass_begin(l);
}

bool tp_limits_any(const tp_qos_limits *qos, size_t nqos)
{
	for (size_t i = 0; i < nqos; i++) {
		const tp_qos_limits *q = &qos[i];
		if (q->max_jobs_pu >= 0 || q->max_cpus_pu >= 0 ||
		    q->max_nodes_pu >= 0 || q->grp_jobs >= 0 ||
		    q->grp_cpus >= 0 || q->grp_nodes >= 0)
			return true;
	}
	return false;
}

/* Whether (qos, user) is a cell of the tables: a job of no QOS of the
 * table (or an unnumbered user) is never held. */
static bool known(const tp_limits *l, int32_t qos, int32_t user)
{
	return qos >= 0 && (size_t)qos < l->nqos && user >= 0 &&
	       (size_t)user < l->nusers;
}

static void add(tp_usage *u, int64_t cpus, int64_t nodes, int sign)
{
	u->jobs += sign;
	u->cpus += sign * cpus;
	u->nodes += sign * nodes;
}

void tp_limits_charge(tp_limits *l, int32_t qos, int32_t user, int64_t cpus,
		      int64_t nodes, int sign)
{
	if (!known(l, qos, user))
		return;
	add(&l->run_user[(size_t)qos * l->nusers + (size_t)user], cpus, nodes, sign);
	add(&l->run_qos[qos], cpus, nodes, sign);
}

void tp_limits_pass_begin(tp_limits *l)
{
	memset(l->pass_user, 0, l->nqos * l->nusers * sizeof(tp_usage));
	memset(l->pass_qos, 0, l->nqos * sizeof(tp_usage));
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

bool tp_limits_pass(tp_limits *l, int32_t qos, int32_t user, int64_t cpus,
		    int64_t nodes)
{
	if (!known(l, qos, user))
		return true;
	const tp_qos_limits *q = &l->qos[qos];
	size_t cell = (size_t)qos * l->nusers + (size_t)user;
	if (!fits(&l->run_user[cell], &l->pass_user[cell], q->max_jobs_pu,
		  q->max_cpus_pu, q->max_nodes_pu, cpus, nodes) ||
	    !fits(&l->run_qos[qos], &l->pass_qos[qos], q->grp_jobs,
		  q->grp_cpus, q->grp_nodes, cpus, nodes))
		return false;
	add(&l->pass_user[cell], cpus, nodes, 1);
	add(&l->pass_qos[qos], cpus, nodes, 1);
	return true;
}
