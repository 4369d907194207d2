/* progress.c - see progress.h. */
#include "progress.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* TOPOSIM_PROGRESS_SECONDS: a number >= 0 (a test sets 0 to get lines
 * without waiting); set but empty is unset, as for the shell's own
 * variables (TOPOSIM_PROGRESS_SECONDS= toposim ...). */
static int interval_of(double *out, tp_error *err)
{
	const char *v = getenv("TOPOSIM_PROGRESS_SECONDS");
	char *end;
	*out = SIM_PROGRESS_SECONDS;
	if (!v || !*v)
		return 0;
	double x = strtod(v, &end);
	if (*end || end == v || !isfinite(x) || x < 0)
		return tp_errorf(err, "TOPOSIM_PROGRESS_SECONDS='%s': expected a number of seconds >= 0",
				 v);
	*out = x;
	return 0;
}

int sim_progress_init(sim_progress_state *p, const char *label,
		      int64_t first_submit, tp_error *err)
{
	*p = (sim_progress_state){ .label = label ? label : "",
			     .tty = isatty(STDERR_FILENO), .first = first_submit,
			     .shown_pct = -1 };
	if (interval_of(&p->interval, err))
		return -1;
	p->t0 = p->last = wall();
	return 0;
}

/* "1:02:03" or "2:03": the time left at the rate so far. */
static void put_eta(char *buf, size_t len, double rate, size_t left)
{
	if (!left) {
		snprintf(buf, len, "0:00");
		return;
	}
	if (rate <= 0) {
		snprintf(buf, len, "?");
		return;
	}
	long s = lround((double)left / rate);
	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

static void bar(sim_progress_state *p, size_t done, size_t total, double rate,
		const char *eta)
{
	int width = 30, fill = total ? (int)(width * done / total) : width;
	int pct = total ? (int)(100 * done / total) : 100;
	if (pct == p->shown_pct && done < total)
		return; /* nothing new to draw */
	p->shown_pct = pct;
	fprintf(stderr, "\r%-12s [%.*s%*s] %3d%% %8.0f jobs/s ETA %-9s", p->label,
		fill, "##############################", width - fill, "", pct,
		rate, eta);
	if (done >= total)
		fputc('\n', stderr);
	fflush(stderr);
}

/* One line: simulated time (seconds since the first submit, and in days),
 * jobs done of all, rate and time left. */
static void line(sim_progress_state *p, size_t done, size_t total, int64_t now,
		 double rate, const char *eta)
{
	int64_t sim = now - p->first;
	fprintf(stderr, "toposim: progress: %s: simulated %" PRId64
		" s (day %.1f), %zu/%zu jobs (%.1f%%), %.0f jobs/s, ETA %s%s\n",
		p->label, sim, (double)sim / 86400.0, done, total,
		total ? 100.0 * (double)done / (double)total : 100.0, rate, eta,
		done >= total ? " (done)" : "");
	fflush(stderr);
	p->lines++;
}

void sim_progress(void *arg, size_t done, size_t total, int64_t now)
{
	sim_progress_state *p = arg;
	double t = wall(), secs = t - p->t0;
	double rate = secs > 0 ? (double)done / secs : 0;
	char eta[32];
	put_eta(eta, sizeof(eta), rate, total > done ? total - done : 0);
	if (p->tty) {
		bar(p, done, total, rate, eta);
		return;
	}
	/* the last report closes the lines, if there were any */
	if (done >= total ? p->lines > 0 : t - p->last >= p->interval) {
		p->last = t;
		line(p, done, total, now, rate, eta);
	}
}
