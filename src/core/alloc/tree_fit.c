/* tree_fit.c - see tree_fit.h. */
#include "tree_fit.h"

int tp_tree_compare_fit(const tp_fattree *t, const int *cnt, int i, int j,
			int rem, bool *i_fit)
{
	for (;;) {
		bool fi = cnt[i] >= rem, fj = cnt[j] >= rem;
		*i_fit = fi;
		if (fi && fj) {
			if (cnt[i] != cnt[j])
				return cnt[i] < cnt[j] ? 1 : -1;
			break;
		}
		if (fi || fj)
			return fi ? 1 : -1;
		int pi = t->sw[i].parent, pj = t->sw[j].parent;
		if (pi < 0 || pj < 0 || pi == pj)
			break;
		i = pi;
		j = pj;
	}
	if (cnt[i] != cnt[j])
		return cnt[i] > cnt[j] ? 1 : -1;
	if (t->sw[i].level != t->sw[j].level)
		return t->sw[i].level < t->sw[j].level ? 1 : -1;
	return 0;
}

void tp_tree_add_dist(const tp_fattree *t, long *dist, int picked)
{
	for (int l = 0; l < t->nleaf; l++) {
		int v = t->leaves[l];
		dist[v] += tp_fattree_switch_dist(t, picked, v);
	}
}
