/*
 * fattree_nodeideal.c - ideal placements on regular fat trees: the
 * shortcut of fattree_nodedp.c for the free sets that hold one.
 *
 * In a regular subtree (every child of the same shape, recursively) with
 * every node free, the least node-level cost of x nodes is that of
 * packing: q = x / s whole children of s nodes each, and the remainder
 * packed the same way in one more child.  (Checked against the exact DP
 * on every size of every regular tree of widths 2-8, depths 1-4 and
 * leaves of 1-6 nodes, and by the unit tests.)  No placement of k nodes
 * costs less than that packing in the lowest subtrees that hold k, so
 * where the free set holds one - wholly free subtrees where the packing
 * takes whole ones, the remainder packed the same way below - it is a
 * least-cost placement, found by counting free nodes, without a table.
 * Among such placements the tie-break is the DP's: the fewest free nodes
 * summed over the placement's nodes and every switch above them, then
 * earlier children.  Most answers of the trace replays are found here;
 * the others go to the DP.
 */
#include "alloc/fattree_nodedp.h"

#include <stdlib.h>

#define NONE (-1)

static bool whole_free(const ftn_dp *d, int v)
{
	return d->sub_free[v] == d->size[v];
}

/* The tie-break of a wholly free subtree taken whole: under each of its
 * switches all its nodes, each weighing the switch's size; per height
 * size[v] nodes times that height's subtree size. */
static int64_t whole_tie(const ftn_dp *d, int v)
{
	int64_t sum = 0;
	for (int h = 0; h <= d->height[v]; h++)
		sum += d->level_size[h];
	return (int64_t)d->size[v] * sum;
}

/* The least tie-break of a packing of x nodes in regular subtree v on
 * the free set (v's own switch included), NONE when the free set holds
 * none; the child taking the remainder in *rem (NONE: no remainder). */
static int64_t packed_tie(const ftn_dp *d, int v, int x, int *rem)
{
	const tp_fattree_switch *sw = &d->t->sw[v];
	*rem = NONE;
	if (d->sub_free[v] < x)
		return NONE;
	if (!sw->nchild)
		return ftn_tie_weight(d, v) * x;
	int s = d->child_size[v], q = x / s, r = x % s, whole = 0;
	for (int c = 0; c < sw->nchild; c++)
		whole += whole_free(d, sw->child[c]);
	int64_t best = 0;
	if (r) {
		best = NONE;
		for (int c = 0; c < sw->nchild; c++) {
			int ch = sw->child[c], below;
			if (whole - whole_free(d, ch) < q)
				continue;
			int64_t t = packed_tie(d, ch, r, &below);
			if (t != NONE && (best == NONE || t < best)) {
				best = t;
				*rem = ch;
			}
		}
		if (best == NONE)
			return NONE;
	} else if (whole < q) {
		return NONE;
	}
	int64_t full = q ? whole_tie(d, sw->child[0]) * q : 0;
	return best + full + ftn_tie_weight(d, v) * x;
}

/* Every node below v (all free). */
static void take_whole(const ftn_dp *d, int v, tp_nodeset *out)
{
	const tp_fattree *t = d->t;
	if (!t->sw[v].nchild) {
		tp_nodeset_set_range(out, t->sw[v].node_lo, t->sw[v].node_hi);
		return;
	}
	for (int c = 0; c < t->sw[v].nchild; c++)
		take_whole(d, t->sw[v].child[c], out);
}

/* The packing of x nodes in v that packed_tie() chose: the earliest
 * whole children other than the remainder's, then the remainder. */
static void take(const ftn_dp *d, const tp_nodeset *free, int v, int x,
		 tp_nodeset *out)
{
	const tp_fattree *t = d->t;
	while (x > 0 && t->sw[v].nchild) {
		const tp_fattree_switch *sw = &t->sw[v];
		int s = d->child_size[v], q = x / s, rem;
		packed_tie(d, v, x, &rem);
		for (int c = 0; c < sw->nchild && q; c++) {
			int ch = sw->child[c];
			if (ch != rem && whole_free(d, ch)) {
				take_whole(d, ch, out);
				q--;
			}
		}
		x %= s;
		v = rem;
	}
	if (x > 0) /* a leaf: its lowest free nodes */
		for (int i = t->sw[v].node_lo; x > 0; i++)
			if (tp_nodeset_test(free, i)) {
				tp_nodeset_set(out, i);
				x--;
			}
}

/* The tie-break weights of v's ancestors (v excluded), summed. */
static int64_t above_weight(const ftn_dp *d, int v)
{
	int64_t sum = 0;
	for (int a = d->t->sw[v].parent; a >= 0; a = d->t->sw[a].parent)
		sum += ftn_tie_weight(d, a);
	return sum;
}

int ftn_ideal_place(ftn_dp *d, const tp_nodeset *free, int k, tp_nodeset *out)
{
	const tp_fattree *t = d->t;
	if (!d->packable)
		return -1;
	/* the lowest subtrees that hold k: one height for a regular tree */
	int h = 0;
	while (h < d->height[t->fabric_root[0]] && d->level_size[h] < k)
		h++;
	if (d->level_size[h] < k)
		return -1;
	int best = NONE;
	int64_t bt = 0;
	for (int p = 0; p < t->nswitch; p++) {
		int v = t->postorder[p], rem;
		if (t->sw[v].is_virtual || d->height[v] != h || d->sub_free[v] < k)
			continue;
		int64_t tie = packed_tie(d, v, k, &rem);
		if (tie == NONE)
			continue;
		tie += k * above_weight(d, v);
		if (best == NONE || tie < bt) {
			best = v;
			bt = tie;
		}
	}
	if (best == NONE)
		return -1;
	take(d, free, best, k, out);
	return 0;
}

/* A leaf's shape is its size; an inner switch is regular when its
 * children are, with one size, height and child count. */
void ftn_ideal_shape(ftn_dp *d)
{
	const tp_fattree *t = d->t;
	for (int p = 0; p < t->nswitch; p++) {
		int v = t->postorder[p];
		const tp_fattree_switch *sw = &t->sw[v];
		d->height[v] = 0;
		d->regular[v] = true;
		d->child_size[v] = 0;
		if (!sw->nchild)
			continue;
		int c0 = sw->child[0];
		d->height[v] = d->height[c0] + 1;
		d->child_size[v] = d->size[c0];
		for (int c = 0; c < sw->nchild; c++) {
			int ch = sw->child[c];
			const tp_fattree_switch *cs = &t->sw[ch];
			if (!d->regular[ch] || d->size[ch] != d->size[c0] ||
			    d->height[ch] != d->height[c0] ||
			    cs->nchild != t->sw[c0].nchild)
				d->regular[v] = false;
		}
	}
	int r = t->fabric_root[0];
	d->packable = t->nfabric == 1 && d->regular[r] && d->size[r] > 0;
	for (int v = r, h = d->height[r]; d->packable && h >= 0; h--) {
		d->level_size[h] = d->size[v];
		if (t->sw[v].nchild)
			v = t->sw[v].child[0];
	}
}
