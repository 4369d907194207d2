/* spread.c - how spread out a placement is; see spread.h. */
#include "topology/spread.h"

#include <stdlib.h>
#include <string.h>

double tp_spread_torus_best(const tp_torus *t, int k)
{
	int n = tp_torus_nnodes(t);
	if (k < 1 || k > n)
		return -1;
	if (k < 2)
		return 0;
	tp_torus_shape *sh = NULL;
	int nsh = tp_torus_shapes(t, k, 0, &sh);
	if (nsh < 0)
		return -1;
	if (nsh > 0) { /* shape order: least mean diameter first */
		double d = sh[0].mean_diameter;
		free(sh);
		return d;
	}
	free(sh);
	/* No box of k nodes: Shapeless=pack on the idle torus. */
	tp_nodeset all, out;
	if (tp_nodeset_init(&all, n))
		return -1;
	if (tp_nodeset_init(&out, n)) {
		tp_nodeset_fini(&all);
		return -1;
	}
	tp_nodeset_fill(&all);
	double d = tp_torus_place_packed(t, TP_TORUS_SHAPES_ALL, &all, k, &out)
			   ? -1 : tp_torus_set_mean_distance(t, &out);
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&out);
	return d;
}

int tp_spread_init(tp_spread *s, const tp_fattree *tree, const tp_torus *torus)
{
	memset(s, 0, sizeof(*s));
	if (!tree == !torus)
		return -1;
	s->tree = tree;
	s->torus = torus;
	s->nnodes = tree ? tp_fattree_nnodes(tree) : tp_torus_nnodes(torus);
	s->best = malloc(sizeof(*s->best) * (size_t)(s->nnodes + 1));
	if (!s->best)
		return -1;
	for (int k = 0; k <= s->nnodes; k++)
		s->best[k] = -2;
	return 0;
}

void tp_spread_fini(tp_spread *s)
{
	free(s->best);
	memset(s, 0, sizeof(*s));
}

static double best_of(tp_spread *s, int k)
{
	if (s->best[k] == -2)
		s->best[k] = s->tree ? (double)tp_fattree_node_best(s->tree, k)
				     : tp_spread_torus_best(s->torus, k);
	return s->best[k];
}

/* The placement's topology nodes (indices below nnodes). */
static int inside_count(const tp_spread *s, const tp_nodeset *nodes)
{
	int k = 0, words = tp_nodeset_words(nodes);
	for (int w = 0; w < words; w++)
		for (uint64_t b = nodes->w[w]; b; b &= b - 1)
			k += w * 64 + tp_ctz64(b) < s->nnodes;
	return k;
}

/* The torus cost of the inside nodes: the torus functions take a set of
 * exactly the torus's nodes. */
static double torus_cost(const tp_spread *s, const tp_nodeset *nodes)
{
	if (nodes->n == s->nnodes)
		return tp_torus_set_mean_distance(s->torus, nodes);
	tp_nodeset in;
	if (tp_nodeset_init(&in, s->nnodes))
		return -1;
	int words = tp_nodeset_words(&in);
	for (int w = 0; w < words; w++)
		in.w[w] = nodes->w[w];
	if (s->nnodes % 64)
		in.w[words - 1] &= ((uint64_t)1 << (s->nnodes % 64)) - 1;
	double c = tp_torus_set_mean_distance(s->torus, &in);
	tp_nodeset_fini(&in);
	return c;
}

double tp_spread_of(tp_spread *s, const tp_nodeset *nodes)
{
	int k = inside_count(s, nodes);
	if (k < 2)
		return 1.0;
	double best = best_of(s, k);
	double cost = s->tree ? (double)tp_fattree_node_cost(s->tree, nodes)
			      : torus_cost(s, nodes);
	if (!(best > 0) || cost < 0)
		return 1.0; /* no reference (or ENOMEM): counts as compact */
	double v = cost / best;
	return v > 1.0 ? v : 1.0;
}
