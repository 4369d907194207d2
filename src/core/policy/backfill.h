/*
 * backfill.h - EASY backfilling, shared by the easy and rb-har policies.
 */
#ifndef TP_BACKFILL_H
#define TP_BACKFILL_H

#include "policy/policy.h"

/* One EASY pass: start jobs in order while they fit; give the first one
 * that does not a reservation at its shadow time (c->resv_job/resv_time);
 * then start any later job that can be placed now and either ends (by its
 * estimate) by the shadow time or leaves the head's placement at the shadow
 * time possible.  With a flat allocator the second rule is exactly "uses no
 * more than the extra nodes".  Backfilled jobs are started with fill_for =
 * the head's id. */
void tp_easy_pass(tp_policy *p, tp_cluster *c);

#endif
