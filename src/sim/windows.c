/* windows.c - toposim --windows; see windows.h and toposim(1). */
#include "windows.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "trace/rng.h"

/* A whole decimal number at *p, advancing *p; -1 when there is none. */
static long long number(const char **p)
{
	char *end;
	if (**p < '0' || **p > '9')
		return -1;
	long long x = strtoll(*p, &end, 10);
	*p = end;
	return x;
}

/* "LEN@I1,I2,...". */
static int parse_list(const char *spec, sim_windows *w, char *why, size_t n)
{
	const char *p = spec;
	long long len = number(&p);
	if (len < 1 || *p != '@') {
		snprintf(why, n, "expected K:LEN:SEED or LEN@I1,I2,...");
		return -1;
	}
	w->len = (size_t)len;
	for (const char *q = p; *q; q++)
		w->k += *q == ',' || *q == '@';
	w->starts = calloc(w->k, sizeof(*w->starts));
	if (!w->starts) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < w->k; i++) {
		p++; /* '@' or ',' */
		long long s = number(&p);
		if (s < 0 || (*p && *p != ',')) {
			snprintf(why, n, "start %zu of '%s' is not a position (0 or more)",
				 i + 1, spec);
			return -1;
		}
		w->starts[i] = (size_t)s;
	}
	return 0;
}

int sim_windows_parse(const char *spec, sim_windows *w, char *why, size_t n)
{
	memset(w, 0, sizeof(*w));
	if (strchr(spec, '@'))
		return parse_list(spec, w, why, n);
	const char *p = spec;
	long long k = number(&p), len = -1, seed = -1;
	if (k >= 1 && *p == ':' && (p++, len = number(&p)) >= 1 && *p == ':' &&
	    (p++, seed = number(&p)) >= 0 && !*p) {
		w->k = (size_t)k;
		w->len = (size_t)len;
		w->seed = (uint64_t)seed;
		w->drawn = 1;
		return 0;
	}
	snprintf(why, n, "expected K:LEN:SEED (K, LEN >= 1) or LEN@I1,I2,...");
	return -1;
}

int sim_windows_resolve(sim_windows *w, size_t njobs, tp_error *err)
{
	if (w->len > njobs)
		return tp_errorf(err, "--windows: a window of %zu jobs is longer than the trace's %zu jobs (after the skips)",
				 w->len, njobs);
	if (!w->drawn) {
		for (size_t i = 0; i < w->k; i++)
			if (w->starts[i] + w->len > njobs)
				return tp_errorf(err, "--windows: the window at %zu runs past the trace's %zu jobs (after the skips)",
						 w->starts[i], njobs);
		return 0;
	}
	if (!(w->starts = calloc(w->k, sizeof(*w->starts))))
		return tp_errorf(err, "--windows: out of memory");
	tp_rng r;
	tp_rng_seed(&r, w->seed);
	for (size_t i = 0; i < w->k; i++)
		w->starts[i] = (size_t)tp_rng_below(&r, njobs - w->len + 1);
	return 0;
}

void sim_windows_fini(sim_windows *w)
{
	free(w->starts);
	memset(w, 0, sizeof(*w));
}

void sim_summary_mean(const tp_summary *s, size_t k, tp_summary *m)
{
	memset(m, 0, sizeof(*m));
	if (!k)
		return;
	size_t costs = 0;
	int64_t makespan = 0;
	m->nodes = s[0].nodes;
	for (size_t i = 0; i < k; i++) {
		m->runs += s[i].runs;
		m->jobs += s[i].jobs;
		m->utilisation += s[i].utilisation / (double)k;
		m->mean_wait += s[i].mean_wait / (double)k;
		m->mean_bsld += s[i].mean_bsld / (double)k;
		m->mean_response_ratio += s[i].mean_response_ratio / (double)k;
		m->mean_wait_over_estimate += s[i].mean_wait_over_estimate / (double)k;
		makespan += s[i].makespan;
		m->fill_jobs += s[i].fill_jobs;
		m->fill_completion_rate += s[i].fill_completion_rate / (double)k;
		m->killed += s[i].killed;
		m->extended += s[i].extended;
		m->resubmitted += s[i].resubmitted;
		if (s[i].mean_cost >= 0) {
			m->mean_cost += s[i].mean_cost;
			costs++;
		}
	}
	m->makespan = makespan / (int64_t)k;
	m->mean_cost = costs ? m->mean_cost / (double)costs : -1;
}
