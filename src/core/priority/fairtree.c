/* fairtree.c - Slurm's Fair Tree; see fairtree.h. */
#include "priority/fairtree.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NO_VAL_LD ((long double)0xfffffffe) /* Slurm's NO_VAL */

typedef struct walk {
	tp_assoc_tree *t;
	uint32_t rank, rnt;
} walk;

/* The shares of i's siblings in the fairshare tree (Slurm's
 * level_shares: FairShare=parent ones count 0, their children being
 * siblings themselves). */
static uint64_t level_shares(const tp_assoc_tree *t, int i)
{
	const tp_assoc *p = &t->a[t->a[i].fs_parent];
	uint64_t sum = 0;
	for (size_t k = 0; k < p->nkids; k++)
		if (t->a[p->kids[k]].shares != TP_SHARES_PARENT)
			sum += t->a[p->kids[k]].shares;
	return sum;
}

static void level_fs(tp_assoc_tree *t, int i)
{
	tp_assoc *a = &t->a[i];
	const tp_assoc *p = &t->a[a->fs_parent];
	if (a->shares == TP_SHARES_PARENT) {
		a->level_fs = a->user ? (long double)INFINITY : NO_VAL_LD;
		return;
	}
	long double u = p->usage ? a->usage / p->usage : 0.0L;
	uint64_t ls = level_shares(t, i);
	long double s = ls ? (long double)((double)a->shares / (double)ls) : 0.0L;
	if (s == 0.0L)
		a->level_fs = 0.0L;
	else
		a->level_fs = s / u; /* u == 0: infinity, as Slurm */
}

/* Before: higher level_fs, then users before accounts; stable. */
static bool before(const tp_assoc_tree *t, int x, int y)
{
	const tp_assoc *a = &t->a[x], *b = &t->a[y];
	if (a->level_fs != b->level_fs)
		return a->level_fs > b->level_fs;
	return a->user && !b->user;
}

/* Insertion sort: stable, and levels are small. */
static void sort_level(const tp_assoc_tree *t, int *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int x = v[i];
		size_t k = i;
		for (; k > 0 && before(t, x, v[k - 1]); k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
}

static int level(walk *w, const int *kids, size_t n, bool account_tied)
{
	tp_assoc_tree *t = w->t;
	int *v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -1;
	memcpy(v, kids, n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		level_fs(t, v[i]);
	sort_level(t, v, n);
	long double prev = NO_VAL_LD;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		tp_assoc *a = &t->a[v[i]];
		bool tied = i == 0 && account_tied ? true : prev == a->level_fs;
		if (a->user) {
			if (!tied)
				w->rank = w->rnt;
			a->fs = (double)w->rank / (double)t->nusers;
			w->rnt--;
		} else {
			rc = level(w, a->kids, a->nkids, tied);
		}
		prev = a->level_fs;
	}
	free(v);
	return rc;
}

int tp_fairtree(tp_assoc_tree *t, tp_error *err)
{
	walk w = { t, (uint32_t)t->nusers, (uint32_t)t->nusers };
	t->a[0].level_fs = NO_VAL_LD;
	if (level(&w, t->a[0].kids, t->a[0].nkids, false))
		return tp_errorf(err, "fair tree: out of memory");
	return 0;
}
