/* assoc.c - associations and their decayed usage; see assoc.h. */
#include "priority/assoc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

static char *key_of(const char *account, const char *user)
{
	size_t n = strlen(account) + (user ? strlen(user) : 0) + 2;
	char *k = malloc(n);
	if (k)
		snprintf(k, n, "%s\037%s", account, user ? user : "");
	return k;
}

int tp_assoc_find(const tp_assoc_tree *t, const char *account,
		  const char *user)
{
	char *k = key_of(account, user);
	int i = k ? tp_name_index_find(&t->index, t->keys, k) : -1;
	free(k);
	return i;
}

/* Appends an association (its key indexed); its index, or -1 (ENOMEM). */
static int append(tp_assoc_tree *t, const char *account, const char *user,
		  int parent, uint32_t shares, uint32_t priority)
{
	tp_assoc *a = tp_grow(t->a, &t->cap, t->n, sizeof(*a), 16);
	if (!a)
		return -1;
	t->a = a;
	char **k = tp_grow(t->keys, &t->capkeys, t->n, sizeof(*k), 16);
	if (!k)
		return -1;
	t->keys = k;
	tp_assoc x = { .parent = parent, .fs_parent = -1, .shares = shares,
		       .priority = priority, .lim = TP_ASSOC_NO_LIMITS };
	x.account = strdup(account);
	x.user = user ? strdup(user) : NULL;
	k[t->n] = key_of(account, user);
	if (!x.account || (user && !x.user) || !k[t->n] ||
	    tp_name_index_add(&t->index, t->keys)) {
		free(x.account);
		free(x.user);
		free(k[t->n]);
		return -1;
	}
	t->a[t->n] = x;
	t->nusers += user != NULL;
	return (int)t->n++;
}

int tp_assoc_init(tp_assoc_tree *t, tp_error *err)
{
	memset(t, 0, sizeof(*t));
	if (append(t, "root", NULL, -1, 1, 0) < 0)
		return tp_errorf(err, "associations: out of memory");
	return 0;
}

void tp_assoc_fini(tp_assoc_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->a[i].account);
		free(t->a[i].user);
		free(t->a[i].kids);
		free(t->keys[i]);
	}
	free(t->a);
	free(t->keys);
	tp_name_index_fini(&t->index);
	memset(t, 0, sizeof(*t));
}

int tp_assoc_add(tp_assoc_tree *t, const char *account, const char *user,
		 const char *parent_account, uint32_t shares, uint32_t priority,
		 tp_error *err)
{
	int parent;
	if (user) {
		parent = tp_assoc_find(t, account, NULL);
		if (parent < 0)
			return tp_errorf(err, "user %s's account %s is not defined",
					 user, account);
	} else {
		const char *p = parent_account && *parent_account ? parent_account : "root";
		parent = tp_assoc_find(t, p, NULL);
		if (parent < 0)
			return tp_errorf(err, "account %s's parent %s is not defined",
					 account, p);
	}
	if (tp_assoc_find(t, account, user) >= 0) {
		if (user)
			return tp_errorf(err, "user %s in account %s given twice",
					 user, account);
		return tp_errorf(err, "account %s given twice", account);
	}
	int i = append(t, account, user, parent, shares, priority);
	if (i < 0)
		return tp_errorf(err, "associations: out of memory");
	return i;
}

/* The nearest proper ancestor whose shares are its own (Slurm's
 * fs_assoc_ptr). */
static int fs_parent_of(const tp_assoc_tree *t, int i)
{
	int p = t->a[i].parent;
	while (p > 0 && t->a[p].shares == TP_SHARES_PARENT)
		p = t->a[p].parent;
	return p;
}

int tp_assoc_link(tp_assoc_tree *t, tp_error *err)
{
	for (size_t i = 0; i < t->n; i++)
		t->a[i].nkids = 0;
	for (size_t i = 1; i < t->n; i++) {
		int p = fs_parent_of(t, (int)i);
		tp_assoc *pa = &t->a[p];
		t->a[i].fs_parent = p;
		if (pa->nkids == pa->capkids) {
			size_t cap = pa->capkids ? 2 * pa->capkids : 4;
			int *k = realloc(pa->kids, cap * sizeof(*k));
			if (!k)
				return tp_errorf(err, "associations: out of memory");
			pa->kids = k;
			pa->capkids = cap;
		}
		pa->kids[pa->nkids++] = (int)i;
	}
	return 0;
}

double tp_assoc_decay_factor(double half_life)
{
	return half_life > 0 ? 1 - (0.693 / half_life) : 1;
}

void tp_assoc_decay(tp_assoc_tree *t, double df, double dt)
{
	if (dt <= 0 || df == 1)
		return;
	double d = pow(df, dt);
	if (d < 2.2250738585072014e-308) /* DBL_MIN, as Slurm */
		d = 2.2250738585072014e-308;
	for (size_t i = 0; i < t->n; i++)
		t->a[i].usage *= d;
}

void tp_assoc_charge(tp_assoc_tree *t, int i, double df, double run,
		     double billing)
{
	if (run < 0)
		run = 0;
	long double add = (long double)(run * pow(df, run) * billing);
	for (; i >= 0; i = t->a[i].parent)
		t->a[i].usage += add;
}
