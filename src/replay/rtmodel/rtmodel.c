/* rtmodel.c - the placement-dependent run-time model; see rtmodel.h. */
#include "rtmodel/rtmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtmodel/spread.h"

int tp_rtmodel_parse(const char *spec, int *on, double *share, char *why,
		     size_t len)
{
	*on = 0;
	*share = TP_RTMODEL_DEFAULT_SHARE;
	if (!strcmp(spec, "none"))
		return 0;
	if (strncmp(spec, "spread", 6) || (spec[6] && spec[6] != ':')) {
		snprintf(why, len, "expected none or spread[:SHARE]");
		return -1;
	}
	*on = 1;
	if (!spec[6])
		return 0;
	char *end;
	const char *v = spec + 7;
	double s = strtod(v, &end);
	if (!*v || *end || !(s >= 0 && s <= 1)) {
		snprintf(why, len, "SHARE must be a number in [0, 1], got '%s'", v);
		return -1;
	}
	*share = s;
	return 0;
}

int tp_rtmodel_init(tp_rtmodel *m, const tp_fattree *tree,
		    const tp_torus *torus, double share, tp_error *err)
{
	memset(m, 0, sizeof(*m));
	if (!tree == !torus)
		return tp_errorf(err, "the run-time model needs a fat tree or a torus");
	m->share = share;
	m->tree = tree;
	m->torus = torus;
	m->nnodes = tree ? tp_fattree_nnodes(tree) : tp_torus_nnodes(torus);
	m->best = malloc(sizeof(*m->best) * (size_t)(m->nnodes + 1));
	if (!m->best)
		return tp_errorf(err, "out of memory");
	for (int k = 0; k <= m->nnodes; k++)
		m->best[k] = -2;
	return 0;
}

void tp_rtmodel_fini(tp_rtmodel *m)
{
	free(m->best);
	memset(m, 0, sizeof(*m));
}

static double best_of(tp_rtmodel *m, int k)
{
	if (m->best[k] == -2)
		m->best[k] = m->tree ? (double)tp_spread_fattree_best(m->tree, k)
				     : tp_spread_torus_best(m->torus, k);
	return m->best[k];
}

/* The placement's topology nodes (indices below nnodes). */
static int inside_count(const tp_rtmodel *m, const tp_nodeset *nodes)
{
	int k = 0, words = tp_nodeset_words(nodes);
	for (int w = 0; w < words; w++)
		for (uint64_t b = nodes->w[w]; b; b &= b - 1)
			k += w * 64 + tp_ctz64(b) < m->nnodes;
	return k;
}

/* The torus cost of the inside nodes: the torus functions take a set of
 * exactly the torus's nodes. */
static double torus_cost(const tp_rtmodel *m, const tp_nodeset *nodes)
{
	if (nodes->n == m->nnodes)
		return tp_torus_set_mean_distance(m->torus, nodes);
	tp_nodeset in;
	if (tp_nodeset_init(&in, m->nnodes))
		return -1;
	int words = tp_nodeset_words(&in);
	for (int w = 0; w < words; w++)
		in.w[w] = nodes->w[w];
	if (m->nnodes % 64)
		in.w[words - 1] &= ((uint64_t)1 << (m->nnodes % 64)) - 1;
	double c = tp_torus_set_mean_distance(m->torus, &in);
	tp_nodeset_fini(&in);
	return c;
}

double tp_rtmodel_spread(tp_rtmodel *m, const tp_nodeset *nodes)
{
	int k = inside_count(m, nodes);
	if (k < 2)
		return 1.0;
	double best = best_of(m, k);
	double cost = m->tree ? (double)tp_spread_fattree_cost(m->tree, nodes)
			      : torus_cost(m, nodes);
	if (!(best > 0) || cost < 0)
		return 1.0; /* no reference (or ENOMEM): not dilated */
	double s = cost / best;
	return s > 1.0 ? s : 1.0;
}

int64_t tp_rtmodel_dilate(int64_t trace_run, double share, double spread)
{
	if (spread <= 1.0 || share <= 0)
		return trace_run;
	return llround((double)trace_run * (1.0 + share * (spread - 1.0)));
}
