/* metrics.c - schedule summary; definitions in metrics.h. */
#include "engine/metrics.h"

#include <string.h>

double tp_bounded_slowdown(const tp_record *x)
{
	double run = (double)(x->end - x->start);
	double wait = (double)(x->start - x->submit);
	double b = (wait + run) / (run > TP_BSLD_TAU ? run : TP_BSLD_TAU);
	return b > 1.0 ? b : 1.0;
}

static void add_fill(const tp_record *x, tp_summary *s, size_t *fill_ok)
{
	if (!x->fill || x->attempt != 1)
		return;
	s->fill_jobs++;
	if (x->status != TP_KILLED)
		(*fill_ok)++;
}

/* Under a run-time model: trace run times, spreads, and the runs the
 * dilation took past their limit. */
static void add_dilation(const tp_sim_result *r, tp_summary *s)
{
	double trace = 0, spread = 0;
	size_t nspread = 0;
	for (size_t i = 0; i < r->nrec; i++) {
		const tp_record *x = &r->rec[i];
		trace += (double)x->runtime;
		if (x->nodes_alloc > 1 && x->spread >= 1) {
			spread += x->spread;
			nspread++;
		}
		s->dilation_kills += x->status == TP_KILLED &&
				     x->runtime <= x->estimate &&
				     x->run > x->estimate;
	}
	s->dilated = true;
	s->mean_trace_run = trace / (double)r->nrec;
	s->mean_spread_multi = nspread ? spread / (double)nspread : 1.0;
}

void tp_summarize(const tp_sim_result *r, tp_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->nodes = r->nodes;
	s->runs = r->nrec;
	s->mean_cost = -1.0;
	if (!r->nrec)
		return;
	double busy = 0, useful = 0, wait = 0, runs = 0, bsld = 0, rr = 0, woe = 0, cost = 0;
	size_t fill_ok = 0, ncost = 0;
	for (size_t i = 0; i < r->nrec; i++) {
		const tp_record *x = &r->rec[i];
		int64_t run = x->end - x->start;
		runs += (double)run;
		busy += (double)x->nodes_alloc * (double)run;
		useful += (double)x->nodes_req * (double)run;
		wait += (double)(x->start - x->submit);
		bsld += tp_bounded_slowdown(x);
		rr += (double)(x->end - x->submit) / (double)(run > 1 ? run : 1);
		woe += (double)(x->start - x->submit) / (double)x->estimate;
		s->jobs += x->attempt == 1;
		s->killed += x->status == TP_KILLED;
		s->extended += x->status == TP_EXTENDED;
		s->resubmitted += x->attempt > 1;
		add_fill(x, s, &fill_ok);
		if (x->cost >= 0 && x->nodes_alloc > 1) {
			cost += x->cost;
			ncost++;
		}
	}
	double n = (double)r->nrec;
	s->makespan = r->last_end - r->first_submit;
	if (s->makespan > 0) {
		double capacity = (double)r->nodes * (double)s->makespan;
		s->utilisation = busy / capacity;
		s->useful_utilisation = useful / capacity;
		if (r->shared) {
			s->utilisation = r->occupied / capacity;
			if (s->useful_utilisation > s->utilisation)
				s->useful_utilisation = s->utilisation;
			if (r->cpus > 0)
				s->cpu_utilisation = r->cpu_busy /
					((double)r->cpus * (double)s->makespan);
		}
	}
	s->mean_wait = wait / n;
	s->mean_run = runs / n;
	s->mean_bsld = bsld / n;
	s->mean_response_ratio = rr / n;
	s->mean_wait_over_estimate = woe / n;
	s->fill_completion_rate = s->fill_jobs ? (double)fill_ok / (double)s->fill_jobs : 0;
	if (ncost)
		s->mean_cost = cost / (double)ncost;
	if (r->dilated)
		add_dilation(r, s);
}
