/* het_run.h - toposim --machine: the heterogeneous simulator's run. */
#ifndef SIM_HET_RUN_H
#define SIM_HET_RUN_H

#include "args.h"
#include "base/error.h"
#include "outfiles.h"

/* Writes the outputs opened in o.  0, or -1 with err. */
int sim_het_run(const sim_config *c, sim_outfiles *o, tp_error *err);

#endif
