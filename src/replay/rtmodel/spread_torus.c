/* spread_torus.c - the least placement cost of a size on a torus; see
 * spread.h. */
#include "rtmodel/spread.h"

#include <stdlib.h>

double tp_spread_torus_best(const tp_torus *t, int k)
{
	int n = tp_torus_nnodes(t);
	if (k < 1 || k > n)
		return -1;
	if (k < 2)
		return 0;
	tp_torus_shape *sh = NULL;
	int nsh = tp_torus_shapes(t, k, 0, &sh);
	if (nsh < 0)
		return -1;
	if (nsh > 0) { /* shape order: least mean diameter first */
		double d = sh[0].mean_diameter;
		free(sh);
		return d;
	}
	free(sh);
	/* No box of k nodes: Shapeless=pack on the idle torus. */
	tp_nodeset all, out;
	if (tp_nodeset_init(&all, n))
		return -1;
	if (tp_nodeset_init(&out, n)) {
		tp_nodeset_fini(&all);
		return -1;
	}
	tp_nodeset_fill(&all);
	double d = tp_torus_place_packed(t, TP_TORUS_SHAPES_ALL, &all, k, &out)
			   ? -1 : tp_torus_set_mean_distance(t, &out);
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&out);
	return d;
}
