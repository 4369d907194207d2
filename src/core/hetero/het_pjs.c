/*
 * het_pjs.c - George & Collins' SJS and PJS (section 3) on one priority
 * level; see het.h.
 *
 * PJS's profitability of a parallel option, the job's fastest sequential
 * time minus the option's time, does not depend on the ready times, so
 * each job's most profitable option is found once and the rounds take
 * them in order of profitability: a round is one more committed option
 * and one SJS of the rest, kept only if the sum improves.
 */
#include "hetero/het_ws.h"

#include <stdlib.h>
#include <string.h>

static double keep(const het_opt *o, size_t n, het_opt *out,
		   size_t *nout, double total)
{
	memcpy(out, o, n * sizeof(*o));
	*nout = n;
	return total;
}

double het_sjs(het_ws *ws, const size_t *idx, size_t nidx, het_opt *out,
	       size_t *nout, tp_het_algo *used)
{
	size_t na, nb;
	het_state_save(ws, ws->saved);
	double ta = het_greedy(ws, TP_HET_MIN_MIN, idx, nidx, ws->sa, &na);
	het_state_load(ws, ws->saved);
	double tb = het_greedy(ws, TP_HET_MIN_MAX, idx, nidx, ws->sb, &nb);
	if (tb < ta) {
		*used = TP_HET_MIN_MAX;
		return keep(ws->sb, nb, out, nout, tb);
	}
	het_state_load(ws, ws->saved);
	het_place_list(ws, ws->sa, na);
	*used = TP_HET_MIN_MIN;
	return keep(ws->sa, na, out, nout, ta);
}

/* Job j's most profitable parallel option (ties: lower position, then
 * fewer nodes) into *o; false if it has none with profitability > 0. */
static bool best_parallel(het_ws *ws, size_t j, het_opt *o)
{
	const tp_het_job *job = &ws->jobs[j];
	double seq = 0;
	bool any = false;
	for (int k = 0; k < job->nparts; k++) {
		double t = ws->seq_et[ws->eoff[j] + (size_t)k];
		if (t > 0 && (!any || t < seq))
			seq = t;
		any = any || t > 0;
	}
	o->profit = 0;
	for (int k = 0; any && k < job->nparts; k++) {
		int cap = ws->cap[ws->eoff[j] + (size_t)k];
		int hi = job->nmax < cap ? job->nmax : cap;
		for (int n = job->nmin + 1; n <= hi; n++) {
			double t = ws->etc(ws->arg, job, job->parts[k], n);
			if (t > 0 && seq - t > o->profit)
				*o = (het_opt){ j, k, n, t, seq - t };
		}
	}
	return o->profit > 0;
}

static int cand_cmp(const void *a, const void *b)
{
	const het_opt *x = a, *y = b;
	if (x->profit != y->profit)
		return x->profit > y->profit ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

static size_t candidates(het_ws *ws, const size_t *idx, size_t nidx)
{
	size_t n = 0;
	for (size_t i = 0; i < nidx; i++)
		n += best_parallel(ws, idx[i], &ws->cand[n]);
	qsort(ws->cand, n, sizeof(*ws->cand), cand_cmp);
	return n;
}

/* The committed options c[0..nc), then SJS of the level's other jobs
 * into c[nc..), from the level's start state. */
static double round_total(het_ws *ws, const size_t *idx, size_t nidx,
			  het_opt *c, size_t nc, size_t *nout,
			  tp_het_algo *used)
{
	size_t nrest = 0, ns;
	het_state_load(ws, ws->lstart);
	double t = het_place_list(ws, c, nc);
	for (size_t i = 0; i < nidx; i++)
		if (!ws->in_c[idx[i]])
			ws->rest[nrest++] = idx[i];
	t += het_sjs(ws, ws->rest, nrest, c + nc, &ns, used);
	*nout = nc + ns;
	return t;
}

double het_pjs(het_ws *ws, const size_t *idx, size_t nidx, het_opt *out,
	       size_t *nout, tp_het_algo *used)
{
	size_t nbest, nc = 0, nt;
	tp_het_algo u;
	het_state_save(ws, ws->lstart);
	double best = het_sjs(ws, idx, nidx, ws->best, &nbest, used);
	size_t ncand = candidates(ws, idx, nidx);
	for (size_t k = 0; k < ncand; k++) {
		ws->pjs_rounds++;
		memcpy(ws->trial, ws->best, nc * sizeof(*ws->best));
		ws->trial[nc] = ws->cand[k];
		ws->in_c[ws->cand[k].job] = true;
		double t = round_total(ws, idx, nidx, ws->trial, nc + 1, &nt,
				       &u);
		if (!(t < best)) {
			ws->in_c[ws->cand[k].job] = false;
			break;
		}
		het_opt *swap = ws->best;
		ws->best = ws->trial;
		ws->trial = swap;
		best = t;
		nbest = nt;
		nc++;
		*used = u;
	}
	for (size_t i = 0; i < nc; i++)
		ws->in_c[ws->best[i].job] = false;
	het_state_load(ws, ws->lstart);
	het_place_list(ws, ws->best, nbest);
	return keep(ws->best, nbest, out, nout, best);
}
