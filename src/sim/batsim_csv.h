/*
 * batsim_csv.h - the jobs CSV in Batsim's schema, so that evalys, Batsim's
 * own analysis scripts and anything reading Batsim's prefix_jobs.csv read
 * toposim's schedules (cluster and heterogeneous mode alike).
 *
 * Columns, in the order Batsim's JobsTracer writes them (its
 * documentation, https://batsim.readthedocs.io/en/latest/output-jobs.html,
 * lists the same names with consumed_energy before allocated_resources;
 * readers go by name): job_id, workload_name, profile, submission_time,
 * requested_number_of_resources, requested_time, success, final_state,
 * starting_time, execution_time, finish_time, waiting_time,
 * turnaround_time, stretch, allocated_resources, consumed_energy,
 * metadata.  allocated_resources is an interval set of 0-based node
 * indices in Batsim's string form ("0-3 7",
 * https://batsim.readthedocs.io/en/latest/interval-set.html).
 * What each column holds here: toposim(1), OUTPUT, Batsim jobs CSV.
 */
#ifndef TP_SIM_BATSIM_CSV_H
#define TP_SIM_BATSIM_CSV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "hetsim/het_conf.h"
#include "hetsim/het_sim.h"
#include "output.h"

/* The header line. */
void sim_batsim_header(FILE *fp);

/* One line per record of r (a resubmitted job's later attempts are
 * ID#1, ID#2, ...); workload_name: the trace's file name; cost: the
 * allocator cost's name and decimals in the metadata, as in the jobs
 * CSV.  -1 on a write error. */
int sim_batsim_write_runs(FILE *fp, const tp_sim_result *r,
			  const char *workload_name, sim_cost_column cost);

/* One line per job of the heterogeneous run that ran (the others are in
 * the summary's never_ran); profile: the job class.  -1 on a write
 * error or out of memory. */
int sim_batsim_write_het(FILE *fp, const tp_het_conf *c,
			 const tp_het_workload *w, const tp_het_sim_result *r,
			 const char *workload_name);

/* The last component of a path ("a/b.swf.gz" -> "b.swf.gz"). */
const char *sim_base_name(const char *path);

#endif
