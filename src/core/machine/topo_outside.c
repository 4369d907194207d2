/* topo_outside.c - a machine's nodes outside its topology file; see
 * tp_topo_add_outside() in topo.h and alloc/outside.h. */
#include "machine/topo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hostlist.h"

static int cmp_name_ptr(const void *x, const void *y)
{
	return strcmp(**(char **const *)x, **(char **const *)y);
}

/* The file the topology came from, for messages. */
static const char *topo_file(const tp_topo *t)
{
	return t->topology ? t->topology : t->conf ? t->conf : "the topology";
}

/* outside_sorted: the outside names' indices by name; -1 with err naming
 * a name given twice. */
static int sort_names(tp_topo *t, int n, tp_error *err)
{
	char ***by = malloc((size_t)n * sizeof(*by));
	if (!by || !(t->outside_sorted = malloc((size_t)n * sizeof(int)))) {
		free(by);
		return tp_errorf(err, "%s: out of memory", topo_file(t));
	}
	for (int k = 0; k < n; k++)
		by[k] = &t->outside_name[k];
	qsort(by, (size_t)n, sizeof(*by), cmp_name_ptr);
	int rc = 0;
	for (int k = 0; k < n && !rc; k++) {
		t->outside_sorted[k] = (int)(by[k] - t->outside_name);
		if (k && !strcmp(*by[k], *by[k - 1]))
			rc = tp_errorf(err, "node '%s' is given twice among the nodes outside %s",
				       *by[k], topo_file(t));
	}
	free(by);
	return rc;
}

/* Copy and check the names: none empty, none of the topology's. */
static int keep_names(tp_topo *t, const char *const *names, int n,
		      tp_error *err)
{
	if (!(t->outside_name = calloc((size_t)n, sizeof(char *))))
		return tp_errorf(err, "%s: out of memory", topo_file(t));
	for (int k = 0; k < n; k++) {
		if (!names[k] || !names[k][0])
			return tp_errorf(err, "an empty node name among the nodes outside %s",
					 topo_file(t));
		if (tp_topo_node_index(t, names[k]) >= 0)
			return tp_errorf(err, "node '%s' is in %s: it cannot be outside it",
					 names[k], topo_file(t));
		if (!(t->outside_name[k] = strdup(names[k])))
			return tp_errorf(err, "%s: out of memory", topo_file(t));
	}
	return sort_names(t, n, err);
}

int tp_topo_add_outside(tp_topo *t, const char *const *names, int n,
			tp_outside_rule rule, tp_error *err)
{
	if (n <= 0)
		return 0;
	if (t->kind == TP_TOPO_FLAT || !t->alloc)
		return tp_errorf(err, "a flat machine has no topology for nodes to be outside of");
	if (t->outside_name)
		return tp_errorf(err, "%s: the nodes outside it are known already",
				 topo_file(t));
	/* nnodes - ninside is the outside count: only once names are kept */
	int kept = keep_names(t, names, n, err);
	t->nnodes = t->ninside + n;
	if (kept)
		return -1;
	t->outside = (tp_outside){ .ninside = t->ninside, .nnodes = t->nnodes,
				   .rule = rule };
	tp_alloc *inner = t->alloc;
	if (!(t->alloc = tp_alloc_outside_wrap(inner, &t->outside, err)))
		return -1;
	if (t->tree && tp_topo_leaf_groups(t, inner, err))
		return -1;
	size_t used = strlen(t->describe);
	snprintf(t->describe + used, sizeof(t->describe) - used,
		 "; %d node(s) outside it (outside nodes: %s)", n,
		 tp_outside_rule_name(rule));
	return 0;
}

int tp_topo_outside_index(const tp_topo *t, const char *name)
{
	int lo = 0, hi = t->nnodes - t->ninside;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, k = t->outside_sorted[mid];
		int c = strcmp(name, t->outside_name[k]);
		if (!c)
			return t->ninside + k;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

int tp_topo_inside(const tp_topo *t, const tp_nodeset *nodes,
		   tp_nodeset *inside)
{
	if (tp_nodeset_init(inside, t->ninside))
		return -1;
	tp_nodeset_copy_resized(inside, nodes);
	return 0;
}

int tp_topo_outside_line(const tp_topo *t, char *buf, size_t len)
{
	int n = tp_topo_noutside(t);
	buf[0] = '\0';
	if (n <= 0 || !t->outside_name)
		return 0;
	char *names = tp_hostlist_compress((const char *const *)t->outside_name,
					   (size_t)n);
	snprintf(buf, len, "%d node%s not in %s: %s; outside the %s, %s",
		 n, n == 1 ? " is" : "s are", topo_file(t),
		 names ? names : "(out of memory)",
		 t->kind == TP_TOPO_TORUS ? "torus" : "tree",
		 tp_outside_rule_says(t->outside.rule));
	free(names);
	return n;
}
