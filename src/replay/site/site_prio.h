/*
 * site_prio.h - slurm.conf's priority settings (site.h's tp_site_prio),
 * read pair by pair from the lines that are neither NodeName nor
 * PartitionName lines.
 */
#ifndef TP_SITE_PRIO_H
#define TP_SITE_PRIO_H

#include "base/conffile.h"
#include "site/site.h"

/* Slurm's defaults: priority/basic, weights 0, PriorityMaxAge and
 * PriorityDecayHalfLife 7 days, PriorityCalcPeriod 5 minutes, Fair Tree. */
void tp_site_prio_default(tp_site_prio *p);
/* The priority keys of line l of `path`: 0, or -1 with err naming file,
 * line and value. */
int tp_site_prio_line(tp_site_prio *p, const char *path,
		      const tp_conf_line *l, tp_error *err);

#endif
