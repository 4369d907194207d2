/* plot.c - see plot.h. */
#include "plot.h"

#include <errno.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

/* s as a gnuplot single-quoted string: taken as it is (no backquote
 * command, no macro, no escape) but for '' standing for a quote.  A
 * line break cannot be written (refused with --plot by args.c). */
static void put_quoted(FILE *fp, const char *s, const char *suffix)
{
	fputc('\'', fp);
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			fputc('\'', fp);
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, fp);
	}
	fprintf(fp, "%s'", suffix);
}

static void write_script(FILE *fp, const char *prefix, const char *title)
{
	fputs("set terminal pngcairo size 900,450 noenhanced\nset output ", fp);
	put_quoted(fp, prefix, "-util.png");
	fputs("\nset title ", fp);
	put_quoted(fp, title, ": utilisation");
	fputs("\nset xlabel 'day'\nset ylabel 'busy nodes / nodes'\nset yrange [0:1.05]\n"
	      "plot ", fp);
	put_quoted(fp, prefix, "-util.dat");
	fputs(" using 1:2 with lines title 'utilisation'\nset output ", fp);
	put_quoted(fp, prefix, "-wait.png");
	fputs("\nset title ", fp);
	put_quoted(fp, title, ": wait distribution");
	fputs("\nset xlabel 'wait (s), lower bound of bin'\nset ylabel 'fraction of jobs'\n"
	      "set logscale x 2\nset format x '%.0f'\nset yrange [0:*]\nset style fill solid 0.5\n"
	      "plot ", fp);
	put_quoted(fp, prefix, "-wait.dat");
	fputs(" using ($1>0?$1:0.5):2 with boxes title 'jobs'\n", fp);
}

/* The program's path on PATH, as posix_spawnp would find it. */
static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];
	struct stat st;
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t len = strcspn(p, ":");
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, p,
			 len ? "/" : "./", prog);
		if (!stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return true;
		p += len + (p[len] == ':');
	}
	return false;
}

int sim_plot_ready(tp_error *err)
{
	if (!on_path("gnuplot"))
		return tp_errorf(err, "--plot draws its charts with gnuplot, which is not on PATH "
				 "(apt-get install gnuplot-nox)");
	return 0;
}

/* gnuplot SCRIPT, without a shell: the script's name is one argument,
 * whatever it holds.  0, or -1 with err saying how it ended. */
static int run_gnuplot(const char *script, tp_error *err)
{
	/* a name beginning with '-' would be read as an option */
	char *path = malloc(strlen(script) + 3);
	if (!path)
		return tp_errorf(err, "--plot: out of memory");
	sprintf(path, "%s%s", script[0] == '-' ? "./" : "", script);
	char *argv[] = { "gnuplot", path, NULL };
	pid_t pid;
	/* its standard output to ours for errors: ours may be a CSV */
	posix_spawn_file_actions_t fa;
	int rc = posix_spawn_file_actions_init(&fa);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO,
						      STDOUT_FILENO);
	if (!rc)
		rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(path);
	if (rc)
		return tp_errorf(err, "--plot: cannot run gnuplot: %s (apt-get install gnuplot-nox)",
				 strerror(rc));
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return tp_errorf(err, "--plot: waiting for gnuplot: %s",
					 strerror(errno));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		return tp_errorf(err, "gnuplot exited with status %d on %s (its messages above); the other outputs are complete",
				 WEXITSTATUS(st), script);
	return tp_errorf(err, "gnuplot was killed by signal %d on %s; the other outputs are complete",
			 WTERMSIG(st), script);
}

int sim_plot(const tp_sim_result *r, sim_outfiles *o, const char *prefix,
	     const char *title, tp_error *err)
{
	if (write_util(r, sim_outfile(o, SIM_OUT_PLOT_UTIL), err))
		return -1;
	write_wait(r, sim_outfile(o, SIM_OUT_PLOT_WAIT));
	write_script(sim_outfile(o, SIM_OUT_PLOT_SCRIPT), prefix, title);
	/* Complete on disk before gnuplot reads them. */
	if (sim_outfile_close(o, SIM_OUT_PLOT_UTIL, err) ||
	    sim_outfile_close(o, SIM_OUT_PLOT_WAIT, err) ||
	    sim_outfile_close(o, SIM_OUT_PLOT_SCRIPT, err))
		return -1;
	/* stdout may be a CSV: gnuplot's own messages go to stderr */
	fflush(stdout);
	return run_gnuplot(sim_outfile_path(o, SIM_OUT_PLOT_SCRIPT), err);
}
