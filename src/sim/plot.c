/* plot.c - see plot.h. */
#include "plot.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UTIL_BUCKETS 400
#define WAIT_BINS 24 /* powers of two of seconds: [0,1), [1,2), [2,4), ... */

/* Busy node-seconds per bucket, from each run's [start, end) overlap. */
static int write_util(const tp_sim_result *r, FILE *fp, tp_error *err)
{
	int64_t t0 = r->first_submit, span = r->last_end - t0;
	double width = span > 0 ? (double)span / UTIL_BUCKETS : 1.0;
	double *busy = calloc(UTIL_BUCKETS, sizeof(*busy));
	if (!busy)
		return tp_errorf(err, "--plot: out of memory");
	for (size_t i = 0; i < r->nrec; i++) {
		const tp_record *x = &r->rec[i];
		double a = (double)(x->start - t0), z = (double)(x->end - t0);
		int first = (int)(a / width), last = (int)(z / width);
		if (last >= UTIL_BUCKETS)
			last = UTIL_BUCKETS - 1;
		/* Overlap of [a, z) with each bucket it touches. */
		for (int b = first; b <= last; b++) {
			double lo = b * width, hi = lo + width;
			double o = (z < hi ? z : hi) - (a > lo ? a : lo);
			if (o > 0)
				busy[b] += o * x->nodes_alloc;
		}
	}
	fprintf(fp, "# day utilisation\n");
	for (int b = 0; b < UTIL_BUCKETS; b++)
		fprintf(fp, "%.4f %.5f\n", (b + 0.5) * width / 86400.0,
			busy[b] / (width * r->nodes));
	free(busy);
	return 0;
}

static void write_wait(const tp_sim_result *r, FILE *fp)
{
	size_t bins[WAIT_BINS] = { 0 };
	for (size_t i = 0; i < r->nrec; i++) {
		int64_t w = r->rec[i].start - r->rec[i].submit;
		int b = 0;
		while (w >= 1 && b < WAIT_BINS - 1) {
			w >>= 1;
			b++;
		}
		bins[b]++;
	}
	fprintf(fp, "# wait_lower_bound_s fraction_of_runs\n");
	for (int b = 0; b < WAIT_BINS; b++)
		fprintf(fp, "%" PRId64 " %.6f\n", b ? (int64_t)1 << (b - 1) : 0,
			r->nrec ? (double)bins[b] / (double)r->nrec : 0.0);
}

static void write_script(FILE *fp, const char *prefix, const char *title)
{
	fprintf(fp,
		"set terminal pngcairo size 900,450 noenhanced\n"
		"set output '%1$s-util.png'\nset title '%2$s: utilisation'\n"
		"set xlabel 'day'\nset ylabel 'busy nodes / nodes'\nset yrange [0:1.05]\n"
		"plot '%1$s-util.dat' using 1:2 with lines title 'utilisation'\n"
		"set output '%1$s-wait.png'\nset title '%2$s: wait distribution'\n"
		"set xlabel 'wait (s), lower bound of bin'\nset ylabel 'fraction of jobs'\n"
		"set logscale x 2\nset format x '%%.0f'\nset yrange [0:*]\nset style fill solid 0.5\n"
		"plot '%1$s-wait.dat' using ($1>0?$1:0.5):2 with boxes title 'jobs'\n",
		prefix, title);
}

int sim_plot(const tp_sim_result *r, sim_outfiles *o, const char *prefix,
	     const char *title, tp_error *err)
{
	char cmd[8300];
	if (write_util(r, sim_outfile(o, SIM_OUT_PLOT_UTIL), err))
		return -1;
	write_wait(r, sim_outfile(o, SIM_OUT_PLOT_WAIT));
	write_script(sim_outfile(o, SIM_OUT_PLOT_SCRIPT), prefix, title);
	/* Complete on disk before gnuplot reads them. */
	if (sim_outfile_close(o, SIM_OUT_PLOT_UTIL, err) ||
	    sim_outfile_close(o, SIM_OUT_PLOT_WAIT, err) ||
	    sim_outfile_close(o, SIM_OUT_PLOT_SCRIPT, err))
		return -1;
	snprintf(cmd, sizeof(cmd), "gnuplot '%s.gp'", prefix);
	if (system(cmd) != 0)
		return tp_errorf(err, "gnuplot failed on %s.gp (is gnuplot "
				 "installed? apt-get install gnuplot-nox)", prefix);
	return 0;
}
