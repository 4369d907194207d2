/* plot.h - gnuplot charts of a schedule: utilisation over time and the
 * distribution of waits. */
#ifndef TP_SIM_PLOT_H
#define TP_SIM_PLOT_H

#include "engine/engine.h"
#include "outfiles.h"

/* Whether gnuplot can be run, known before a long replay: 0, or -1 with
 * err. */
int sim_plot_ready(tp_error *err);
/* Writes PREFIX-util.dat, PREFIX-wait.dat, PREFIX.gp (opened in o) and
 * runs gnuplot (no shell between: any PREFIX is one argument, and
 * quoted in the script) to make PREFIX-util.png and PREFIX-wait.png.
 * -1 with err on failure. */
int sim_plot(const tp_sim_result *r, sim_outfiles *o, const char *prefix,
	     const char *title, tp_error *err);

#endif
