/*
 * fairtree.h - Slurm's Fair Tree fairshare (its default algorithm since
 * 19.05): every user association's factor from the tree's shares and
 * decayed usage.
 *
 * As Slurm's documentation and source define it: at each level of the
 * tree, each association's Level Fairshare is S / U, S its shares over
 * the shares of its siblings, U its usage over its fairshare parent's
 * (0 when the parent has none): 0 when S is 0, infinite when U is 0 (and
 * infinite for a user of FairShare=parent; such an account has no level
 * of its own, its children sit with its parent's).  Siblings are taken
 * in decreasing Level Fairshare, users before accounts on equal values,
 * otherwise in the order they were added; an account is descended into
 * where it stands.  Users get ranks from the number of user associations
 * down, one per user, equal Level Fairshare sharing the rank (and an
 * account tied with the sibling before it passes the tie to its first
 * child); the factor is rank / number of user associations.  As in
 * Slurm's source, accounts tied with each other are not merged (its tie
 * count stops at the next account).
 */
#ifndef TP_FAIRTREE_H
#define TP_FAIRTREE_H

#include "priority/assoc.h"

/* Sets every association's level_fs and every user's fs (tp_assoc_link
 * done).  0, or -1 with err (ENOMEM). */
int tp_fairtree(tp_assoc_tree *t, tp_error *err);

#endif
