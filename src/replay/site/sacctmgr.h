/*
 * sacctmgr.h - a site's accounts and users with their shares, as
 * sacctmgr prints them, read into an association tree (priority/assoc.h).
 *
 * Two forms (toposim(1), SITES):
 *  - `sacctmgr -P show assoc format=Cluster,Account,User,Share,Priority,
 *    ParentName` (any order; Account and Share required; an account's
 *    ParentName names its parent, root when absent or empty; a user line
 *    belongs to its Account); the root line and lines of users without a
 *    User are the accounts;
 *  - `sacctmgr dump CLUSTER` output: "Parent - 'A'" sets the parent of
 *    the Account and User lines after it; their Fairshare= and Priority=
 *    are read.
 * Limits (policy/limits.h), when given: MaxJobs, MaxSubmit, GrpJobs,
 * GrpSubmit and GrpTRES columns of the table form, MaxJobs=,
 * MaxSubmitJobs=, GrpJobs=, GrpSubmitJobs= and GrpTRES= options of the
 * dump (the Cluster line's are root's); of GrpTRES, cpu= and node=.
 * Shares: a number, or "parent" (FairShare=parent).  Lines of more than
 * one cluster, per-partition associations, an unknown parent or account,
 * an association given twice, a bad number: an error naming file, line
 * and value.  Accounts come before their users and children, as sacctmgr
 * prints them.
 */
#ifndef TP_SACCTMGR_H
#define TP_SACCTMGR_H

#include "base/error.h"
#include "priority/assoc.h"

/* Reads path into t (initialised and linked here).  0, or -1 with err
 * and t empty. */
int tp_sacctmgr_read(const char *path, tp_assoc_tree *t, tp_error *err);

#endif
