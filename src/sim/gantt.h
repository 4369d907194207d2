/*
 * gantt.h - the schedule as a Gantt chart: node index against time, one
 * rectangle per job per run of consecutive node indices, written as SVG
 * (no plotting program needed).
 *
 * Bounded: at most SIM_GANTT_MAX_RECTS rectangles.  The runs are drawn in
 * start order until the next one would pass the cap; the chart then ends
 * at that run's start, so everything started before its right edge is
 * drawn (the runs still going there are cut at it) and the title says
 * how many of the runs it shows.
 */
#ifndef TP_SIM_GANTT_H
#define TP_SIM_GANTT_H

#include <stdio.h>

#include "engine/engine.h"

#define SIM_GANTT_MAX_RECTS 20000

/* Writes the chart to fp (opened by the caller, outfiles.h; path for
 * messages); -1 with err when out of memory.  The caller's close reports
 * a failed write. */
int sim_gantt_svg(const tp_sim_result *r, FILE *fp, const char *path,
		  const char *title, tp_error *err);

#endif
