/* esterr.c - see esterr.h. */
#include "trace/esterr.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/rng.h"

/* Estimates beyond ~30 million years would only arise from absurd sigmas;
 * clamping keeps llround() defined. */
#define TP_ESTERR_MAX 1e15

/* A finite, non-negative number filling [s, end) exactly. */
static int parse_nonneg(const char *s, const char *end, double *out)
{
	if (s == end)
		return -1;
	char *stop;
	errno = 0;
	double v = strtod(s, &stop);
	if (stop != end || errno == ERANGE || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

static int parse_range(const char *spec, const char *arg, tp_esterr *e,
		       tp_error *err)
{
	/* The bounds are non-negative, so the first '-' after the first
	 * character separates them ("1e-3" keeps its own '-' only after an
	 * 'e', which we skip). */
	const char *dash = NULL;
	for (const char *p = *arg ? arg + 1 : arg; *p; p++)
		if (*p == '-' && p[-1] != 'e' && p[-1] != 'E') {
			dash = p;
			break;
		}
	if (!dash)
		return tp_errorf(err, "estimate error '%s': expected LO-HI after ':', got '%s'",
				 spec, arg);
	if (parse_nonneg(arg, dash, &e->lo) < 0)
		return tp_errorf(err, "estimate error '%s': LO '%.*s' is not a non-negative number",
				 spec, (int)(dash - arg), arg);
	if (parse_nonneg(dash + 1, dash + 1 + strlen(dash + 1), &e->hi) < 0)
		return tp_errorf(err, "estimate error '%s': HI '%s' is not a non-negative number",
				 spec, dash + 1);
	if (e->lo > e->hi)
		return tp_errorf(err, "estimate error '%s': LO %g is larger than HI %g",
				 spec, e->lo, e->hi);
	return 0;
}

int tp_esterr_parse(const char *spec, tp_esterr *e, tp_error *err)
{
	memset(e, 0, sizeof(*e));
	if (!spec || !*spec)
		return tp_errorf(err, "estimate error '': empty spec (none, lognormal:SIGMA, uniform:LO-HI or scale:LO-HI)");
	if (strcmp(spec, "none") == 0) {
		e->kind = TP_ESTERR_NONE;
		return 0;
	}
	const char *colon = strchr(spec, ':');
	size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
	const char *arg = colon ? colon + 1 : "";
	if (klen == 9 && strncmp(spec, "lognormal", 9) == 0) {
		e->kind = TP_ESTERR_LOGNORMAL;
		if (!colon || parse_nonneg(arg, arg + strlen(arg), &e->sigma) < 0)
			return tp_errorf(err, "estimate error '%s': SIGMA '%s' is not a non-negative number",
					 spec, arg);
		return 0;
	}
	if ((klen == 7 && strncmp(spec, "uniform", 7) == 0) ||
	    (klen == 5 && strncmp(spec, "scale", 5) == 0)) {
		e->kind = klen == 7 ? TP_ESTERR_UNIFORM : TP_ESTERR_SCALE;
		if (!colon)
			return tp_errorf(err, "estimate error '%s': expected LO-HI after ':'", spec);
		return parse_range(spec, arg, e, err);
	}
	return tp_errorf(err, "estimate error '%s': unknown model '%.*s' (none, lognormal, uniform, scale)",
			 spec, (int)klen, spec);
}

static int64_t to_estimate(double x)
{
	if (!(x < TP_ESTERR_MAX))
		x = TP_ESTERR_MAX;
	int64_t v = llround(x);
	return v < 1 ? 1 : v;
}

static int64_t draw_estimate(const tp_esterr *e, tp_rng *r, const tp_wjob *j)
{
	switch (e->kind) {
	case TP_ESTERR_LOGNORMAL:
		return to_estimate((double)j->runtime * exp(e->sigma * tp_rng_normal(r)));
	case TP_ESTERR_UNIFORM:
		return to_estimate((double)j->runtime * tp_rng_range(r, e->lo, e->hi));
	case TP_ESTERR_SCALE:
		return to_estimate((double)j->estimate * tp_rng_range(r, e->lo, e->hi));
	case TP_ESTERR_NONE:
		break;
	}
	return j->estimate;
}

void tp_esterr_apply(const tp_esterr *e, uint64_t seed, tp_workload *w)
{
	if (e->kind == TP_ESTERR_NONE)
		return;
	tp_rng r;
	tp_rng_seed(&r, seed);
	for (size_t i = 0; i < w->njobs; i++)
		w->jobs[i].estimate = draw_estimate(e, &r, &w->jobs[i]);
}
