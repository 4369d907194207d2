/*
 * assoc.h - a site's association tree (accounts and users with their
 * shares, as sacctmgr keeps them) and the usage each has accumulated,
 * decayed as Slurm's priority/multifactor decays it.
 *
 * Usage is Slurm's usage_raw: CPU-seconds (billed TRES-seconds) decayed
 * by PriorityDecayHalfLife.  Slurm decays in steps: every
 * PriorityCalcPeriod every association's usage is multiplied by
 * df^dt, df = 1 - 0.693 / half-life (its source's first-order
 * approximation of 2^(-1/half-life)), dt the seconds since the last step,
 * and each running job adds run x df^run x billing to its association and
 * every ancestor, run its seconds in the step (tp_assoc_charge).
 */
#ifndef TP_ASSOC_H
#define TP_ASSOC_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/name_index.h"
#include "policy/limits.h"

#define TP_SHARES_PARENT UINT32_MAX  /* FairShare=parent */

typedef struct tp_assoc {
	char *account;
	char *user;          /* NULL: the account's own association */
	int parent;          /* index, -1 for root */
	int fs_parent;       /* the nearest ancestor not FairShare=parent */
	uint32_t shares;     /* raw shares, or TP_SHARES_PARENT */
	uint32_t priority;   /* the association's Priority */
	tp_assoc_limits lim; /* its limits as given (none by default) */
	long double usage;   /* usage_raw */
	/* Fair Tree's results (fairtree.h). */
	long double level_fs;
	double fs;           /* users: the fairshare factor */
	int *kids;           /* children in the fairshare tree (fs_parent) */
	size_t nkids, capkids;
} tp_assoc;

typedef struct tp_assoc_tree {
	tp_assoc *a;         /* a[0] is root */
	size_t n, cap;
	size_t nusers;       /* user associations */
	char **keys;         /* "account\037user" per association */
	size_t capkeys;
	tp_name_index index;
} tp_assoc_tree;

/* An empty tree with its root account.  0, or -1 with err (ENOMEM). */
int tp_assoc_init(tp_assoc_tree *t, tp_error *err);
void tp_assoc_fini(tp_assoc_tree *t);

/* Adds account `account` under `parent_account` (NULL or "": root) when
 * user is NULL, else user `user`'s association under `account`, with its
 * shares and priority.  The parent must exist.  Returns the index, or -1
 * with err (no parent, given twice, ENOMEM). */
int tp_assoc_add(tp_assoc_tree *t, const char *account, const char *user,
		 const char *parent_account, uint32_t shares, uint32_t priority,
		 tp_error *err);
/* The association of (account, user) (user NULL: the account's), or -1. */
int tp_assoc_find(const tp_assoc_tree *t, const char *account,
		  const char *user);
/* Links each association to its fairshare parent (after the last add):
 * 0, or -1 with err (ENOMEM). */
int tp_assoc_link(tp_assoc_tree *t, tp_error *err);

/* Slurm's per-second decay factor for a half-life in seconds (1 when 0:
 * no decay). */
double tp_assoc_decay_factor(double half_life);
/* Every association's usage times df^dt (a step of dt seconds). */
void tp_assoc_decay(tp_assoc_tree *t, double df, double dt);
/* A job of association i ran `run` seconds in the step with `billing`
 * (CPUs, or its billed TRES): run x df^run x billing added to i and every
 * ancestor up to root. */
void tp_assoc_charge(tp_assoc_tree *t, int i, double df, double run,
		     double billing);

#endif
