/* het_run.c - toposim --machine: read the machine, jobs, truth and
 * (optional) scheduling database, run hetsim/het_sim.h, write its CSV and
 * summary; see toposim(1). */
#include "het_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hetsim/het_conf.h"
#include "hetsim/het_sim.h"
#include "batsim_csv.h"
#include "outfiles.h"
#include "output.h"

static int write_out(const sim_config *c, sim_outfiles *o,
		     const tp_het_conf *m, const tp_het_workload *w,
		     const tp_het_sim_result *r, tp_error *err)
{
	FILE *fp;
	if ((fp = sim_outfile(o, SIM_OUT_JOBS_CSV))) {
		tp_het_sim_write_csv(fp, m, w, r);
		if (sim_outfile_close(o, SIM_OUT_JOBS_CSV, err))
			return -1;
	}
	if ((fp = sim_outfile(o, SIM_OUT_BATSIM_CSV))) {
		int bad = sim_batsim_write_het(fp, m, w, r, sim_base_name(c->het_jobs));
		if (sim_outfile_close(o, SIM_OUT_BATSIM_CSV, err))
			return -1;
		if (bad)
			return tp_errorf(err, "%s: write failed (or out of memory)",
					 c->batsim_csv);
	}
	if ((fp = sim_outfile(o, SIM_OUT_SUMMARY_JSON))) {
		tp_het_sim_write_json(fp, r, c->set.policy);
		if (sim_outfile_close(o, SIM_OUT_SUMMARY_JSON, err))
			return -1;
	}
	char wait[32], span[32], par[32], cpu[32];
	bool ran = r->ran > 0;
	if (!c->quiet)
		fprintf(stderr, "toposim: %s on %s: %zu/%zu jobs ran (%zu killed at their limit), "
			"total job time %.1f s, mean wait %s, makespan %s, "
			"%s parallel, %zu passes, %s CPU per pass\n",
			c->set.policy, c->machine, r->ran, r->n, r->killed, r->total,
			sim_stat_text(wait, sizeof(wait), "%.1f s", r->mean_wait, ran),
			sim_stat_text(span, sizeof(span), "%.1f s", r->makespan, ran),
			sim_stat_text(par, sizeof(par), "%.1f %%", 100 * r->frac_parallel, ran),
			r->passes,
			sim_stat_text(cpu, sizeof(cpu), "%.3f ms",
				      r->passes ? 1e3 * r->decide_cpu / (double)r->passes : 0,
				      r->passes > 0));
	return 0;
}

int sim_het_run(const sim_config *c, sim_outfiles *out, tp_error *err)
{
	tp_het_conf m;
	tp_het_workload w = { 0 };
	tp_het_sim_result r = { 0 };
	tp_expdb *truth = tp_expdb_new(), *db = tp_expdb_new();
	int64_t until;
	int rc = -1;
	if (!truth || !db) {
		tp_errorf(err, "out of memory");
		goto out;
	}
	if (tp_het_conf_read(c->machine, &m, err))
		goto out;
	/* The database's loader reads a missing file as empty (slurmctld's
	 * first start); here a missing file is a mistake. */
	if (c->expdb && access(c->expdb, R_OK)) {
		tp_errorf(err, "%s: %s", c->expdb, strerror(errno));
		goto conf;
	}
	if (tp_het_jobs_read(c->het_jobs, &m, &w, err) ||
	    tp_expdb_load(truth, c->truth, &until, err) ||
	    (c->expdb && tp_expdb_load(db, c->expdb, &until, err)))
		goto conf;
	if (!w.n && !c->allow_empty) {
		tp_errorf(err, "%s: no job to replay: the file holds no JobId= line; --allow-empty makes it an empty result",
			  c->het_jobs);
		goto conf;
	}
	if (!tp_expdb_size(truth)) {
		tp_errorf(err, "%s: the truth has no run times (missing or empty file) ''",
			  c->truth);
		goto conf;
	}
	if (sim_outfiles_open(out, err))
		goto conf;
	tp_het_sim_opts o = { .algo = (tp_het_algo)c->het_algo, .oracle = c->oracle,
			      .max_jobs = c->set.het_max_jobs };
	if (tp_het_sim_run(&m, &w, db, truth, &o, &r, err))
		goto conf;
	rc = write_out(c, out, &m, &w, &r, err);
	tp_het_sim_result_fini(&r);
conf:
	tp_het_workload_fini(&w);
	tp_het_conf_fini(&m);
out:
	tp_expdb_free(truth);
	tp_expdb_free(db);
	return rc;
}
