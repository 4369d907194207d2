/* fattree_nodecost.c - node-level hop sums of a fat tree; see
 * fattree_nodecost.h. */
#include "topology/fattree_nodecost.h"

#include <stdlib.h>

/* Pairs that cross the link above a switch with j of the k nodes under
 * it: one node under it, the other not. */
static long long link_term(int j, int k)
{
	return (long long)j * (k - j);
}

long long tp_fattree_node_cost(const tp_fattree *t, const tp_nodeset *s)
{
	long long *x = calloc((size_t)t->nswitch, sizeof(*x));
	if (!x)
		return -1;
	int k = 0, words = tp_nodeset_words(s);
	for (int w = 0; w < words; w++)
		for (uint64_t b = s->w[w]; b; b &= b - 1) {
			int i = w * 64 + tp_ctz64(b);
			if (i >= t->nnodes)
				break; /* nodes outside the tree come last */
			x[t->node_leaf[i]]++;
			k++;
		}
	long long sum = (long long)k * (k - 1) / 2;
	for (int p = 0; p < t->nswitch; p++) {
		int v = t->postorder[p];
		for (int c = 0; c < t->sw[v].nchild; c++)
			x[v] += x[t->sw[v].child[c]];
		sum += link_term((int)x[v], k); /* 0 at a top holding all */
	}
	free(x);
	return sum;
}

#define NONE (-1LL) /* a count the subtree cannot hold */

/* f[0..*len-1]: the least sum of link terms inside v's subtree, its own
 * link included, with j nodes under v (NONE: impossible); malloc'd, NULL
 * on ENOMEM.  Children are merged as in a knapsack: the least sum for j
 * nodes over the first children, then one more child. */
static long long *solve(const tp_fattree *t, int v, int k, int *len)
{
	const tp_fattree_switch *s = &t->sw[v];
	long long *g = malloc(sizeof(*g) * (size_t)(k + 1));
	if (!g)
		return NULL;
	int n = 1;
	g[0] = 0;
	if (!s->nchild) { /* a leaf: any j of its nodes, no link inside */
		int cap = s->node_hi - s->node_lo;
		n = (cap < k ? cap : k) + 1;
		for (int j = 1; j < n; j++)
			g[j] = 0;
	}
	for (int c = 0; c < s->nchild; c++) {
		int m;
		long long *f = solve(t, s->child[c], k, &m);
		long long *h = f ? malloc(sizeof(*h) * (size_t)(k + 1)) : NULL;
		if (!h) {
			free(f);
			free(g);
			return NULL;
		}
		int hn = n + m - 1 < k + 1 ? n + m - 1 : k + 1;
		for (int j = 0; j < hn; j++)
			h[j] = NONE;
		for (int a = 0; a < n; a++)
			for (int b = 0; b < m && a + b < hn; b++)
				if (g[a] != NONE && f[b] != NONE &&
				    (h[a + b] == NONE || g[a] + f[b] < h[a + b]))
					h[a + b] = g[a] + f[b];
		free(f);
		free(g);
		g = h;
		n = hn;
	}
	for (int j = 0; j < n; j++)
		if (g[j] != NONE)
			g[j] += link_term(j, k);
	*len = n;
	return g;
}

long long tp_fattree_node_best(const tp_fattree *t, int k)
{
	if (k < 2)
		return k >= 0 && k <= t->nnodes ? 0 : -1;
	long long best = -1;
	for (int f = 0; f < t->nfabric; f++) {
		int n;
		long long *g = solve(t, t->fabric_root[f], k, &n);
		if (!g)
			return -1;
		if (n == k + 1 && g[k] != NONE && (best < 0 || g[k] < best))
			best = g[k];
		free(g);
	}
	return best < 0 ? -1 : best + (long long)k * (k - 1) / 2;
}
