/* rtmodel.c - the placement-dependent run-time model; see rtmodel.h. */
#include "rtmodel/rtmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int tp_rtmodel_parse(const char *spec, int *on, double *share, char *why,
		     size_t len)
{
	*on = 0;
	*share = TP_RTMODEL_DEFAULT_SHARE;
	if (!strcmp(spec, "none"))
		return 0;
	if (strncmp(spec, "spread", 6) || (spec[6] && spec[6] != ':')) {
		snprintf(why, len, "expected none or spread[:SHARE]");
		return -1;
	}
	*on = 1;
	if (!spec[6])
		return 0;
	char *end;
	const char *v = spec + 7;
	double s = strtod(v, &end);
	if (!*v || *end || !(s >= 0 && s <= 1)) {
		snprintf(why, len, "SHARE must be a number in [0, 1], got '%s'", v);
		return -1;
	}
	*share = s;
	return 0;
}

int tp_rtmodel_init(tp_rtmodel *m, const tp_fattree *tree,
		    const tp_torus *torus, double share, tp_error *err)
{
	memset(m, 0, sizeof(*m));
	if (!tree == !torus)
		return tp_errorf(err, "the run-time model needs a fat tree or a torus");
	m->share = share;
	if (tp_spread_init(&m->spread, tree, torus))
		return tp_errorf(err, "out of memory");
	return 0;
}

void tp_rtmodel_fini(tp_rtmodel *m)
{
	tp_spread_fini(&m->spread);
	memset(m, 0, sizeof(*m));
}

double tp_rtmodel_spread(tp_rtmodel *m, const tp_nodeset *nodes)
{
	return tp_spread_of(&m->spread, nodes);
}

int64_t tp_rtmodel_dilate(int64_t trace_run, double share, double spread)
{
	if (spread <= 1.0 || share <= 0)
		return trace_run;
	return llround((double)trace_run * (1.0 + share * (spread - 1.0)));
}
