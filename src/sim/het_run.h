/* het_run.h - toposim --machine: the heterogeneous simulator's run. */
#ifndef SIM_HET_RUN_H
#define SIM_HET_RUN_H

#include "args.h"
#include "base/error.h"

/* 0, or -1 with err. */
int sim_het_run(const sim_config *c, tp_error *err);

#endif
