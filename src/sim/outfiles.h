/*
 * outfiles.h - every file toposim writes, in one table (outfiles.c).
 * One file named for two outputs is refused at once ("-" twice too;
 * /dev/null any number of times); all are opened after the input is read
 * and before the replay, so that a long replay never ends on an
 * unwritable path, while a bad input leaves an earlier run's files as
 * they were.  A failed run removes the files it opened and had not
 * finished; one written whole and closed stays (gnuplot failing at the
 * end does not take the summary with it).  A new output is one line in
 * the table, one id here and one field in sim_config.
 */
#ifndef TP_SIM_OUTFILES_H
#define TP_SIM_OUTFILES_H

#include <stdbool.h>
#include <stdio.h>

#include "args.h"
#include "base/error.h"

typedef enum sim_out_id {
	SIM_OUT_JOBS_CSV,       /* --jobs-csv */
	SIM_OUT_SUMMARY_JSON,   /* --summary-json */
	SIM_OUT_BATSIM_CSV,     /* --batsim-csv */
	SIM_OUT_SWF_OUT,        /* --swf-out */
	SIM_OUT_FRAG_CSV,       /* --frag-csv */
	SIM_OUT_PLOT_GANTT,     /* --plot PREFIX: PREFIX-gantt.svg */
	SIM_OUT_PLOT_UTIL,      /* PREFIX-util.dat */
	SIM_OUT_PLOT_WAIT,      /* PREFIX-wait.dat */
	SIM_OUT_PLOT_SCRIPT,    /* PREFIX.gp */
	SIM_OUT_PLOT_UTIL_PNG,  /* PREFIX-util.png, written by gnuplot */
	SIM_OUT_PLOT_WAIT_PNG,  /* PREFIX-wait.png, written by gnuplot */
	SIM_OUT_N
} sim_out_id;

typedef struct sim_outfiles {
	char *path[SIM_OUT_N];  /* NULL: not asked for */
	FILE *fp[SIM_OUT_N];    /* open until sim_outfile_close */
	bool regular[SIM_OUT_N]; /* a regular file (removed by a failed run) */
	bool whole[SIM_OUT_N];  /* written and closed without error: kept */
} sim_outfiles;

/* The outputs c asks for, checked to be distinct files; nothing opened.
 * 0, or -1 with err naming both options and files. */
int sim_outfiles_init(sim_outfiles *o, const sim_config *c, tp_error *err);
/* Open them all.  0, or -1 with err naming the option and the file (the
 * files opened before it discarded). */
int sim_outfiles_open(sim_outfiles *o, tp_error *err);
/* The open stream of an output (NULL: not asked for). */
FILE *sim_outfile(const sim_outfiles *o, sim_out_id id);
const char *sim_outfile_path(const sim_outfiles *o, sim_out_id id);
/* Close one output (before another program reads it): 0, or -1 with
 * err set if writing it failed. */
int sim_outfile_close(sim_outfiles *o, sim_out_id id, tp_error *err);
/* Close the rest: 0, or -1 with err naming the first file whose writing
 * failed. */
int sim_outfiles_close(sim_outfiles *o, tp_error *err);
/* A failed run: close the rest and remove the regular files opened but
 * not written whole (truncated or partial), so that no empty or partial
 * file passes for a result; the ones written whole stay. */
void sim_outfiles_discard(sim_outfiles *o);
void sim_outfiles_fini(sim_outfiles *o);

#endif
