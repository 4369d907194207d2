/* restrict.c - see restrict.h. */
#include "restrict.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* keep[i] for the tree's nodes named in part; the others to missing. */
static int mark_nodes(const tp_fattree *t, const tp_hostlist *part,
		      bool *keep, tp_hostlist *missing, int *kept)
{
	char why[64];
	for (size_t i = 0; i < part->n; i++) {
		int idx = tp_fattree_node_index(t, part->names[i]);
		if (idx >= 0) {
			*kept += !keep[idx];
			keep[idx] = true;
		} else if (tp_hostlist_expand(missing, part->names[i], why,
					      sizeof(why))) {
			return -1;
		}
	}
	return 0;
}

/* alive[s]: switch s keeps a node; children come before parents in
 * t->postorder. */
static void mark_switches(const tp_fattree *t, const bool *keep, bool *alive)
{
	for (int k = 0; k < t->nswitch; k++) {
		int s = t->postorder[k];
		const tp_fattree_switch *sw = &t->sw[s];
		alive[s] = false;
		if (sw->nchild == 0) {
			for (int n = sw->node_lo; n >= 0 && n < sw->node_hi; n++)
				alive[s] |= keep[n];
		}
		for (int c = 0; c < sw->nchild; c++)
			alive[s] |= alive[sw->child[c]];
	}
}

/* One switch's line; its kept nodes or living children compressed. */
static int write_switch(const tp_fattree *t, int s, const bool *keep,
			const bool *alive, const char **tmp, FILE *fp)
{
	const tp_fattree_switch *sw = &t->sw[s];
	size_t n = 0;
	if (sw->nchild == 0) {
		for (int i = sw->node_lo; i < sw->node_hi; i++)
			if (keep[i])
				tmp[n++] = t->node_name[i];
	} else {
		for (int c = 0; c < sw->nchild; c++)
			if (alive[sw->child[c]])
				tmp[n++] = t->sw[sw->child[c]].name;
	}
	char *list = tp_hostlist_compress(tmp, n);
	if (!list)
		return -1;
	int rc = fprintf(fp, "SwitchName=%s %s=%s", sw->name,
			 sw->nchild ? "Switches" : "Nodes", list) < 0;
	if (!rc && sw->link_speed != 1)
		rc = fprintf(fp, " LinkSpeed=%d", sw->link_speed) < 0;
	free(list);
	return rc || fputc('\n', fp) == EOF ? -1 : 0;
}

int sim_restrict_tree(const tp_fattree *t, const tp_hostlist *part,
		      const char *partition, FILE *fp, tp_hostlist *missing,
		      tp_error *err)
{
	memset(missing, 0, sizeof(*missing));
	size_t nmax = (size_t)(t->nnodes > t->nswitch ? t->nnodes : t->nswitch);
	bool *keep = calloc((size_t)t->nnodes + 1, sizeof(*keep));
	bool *alive = calloc((size_t)t->nswitch + 1, sizeof(*alive));
	const char **tmp = malloc((nmax + 1) * sizeof(*tmp));
	int kept = 0, rc = -1;
	if (!keep || !alive || !tmp ||
	    mark_nodes(t, part, keep, missing, &kept)) {
		tp_errorf(err, "%s: out of memory", t->path);
		goto out;
	}
	if (!kept) {
		tp_errorf(err, "partition %s: none of its %zu nodes is in %s (first: %s)",
			  partition, part->n, t->path, part->n ? part->names[0] : "");
		goto out;
	}
	mark_switches(t, keep, alive);
	rc = 0;
	for (int s = 0; s < t->nswitch && !rc; s++)
		if (!t->sw[s].is_virtual && alive[s])
			rc = write_switch(t, s, keep, alive, tmp, fp);
	if (rc || fflush(fp))
		rc = tp_errorf(err, "partition %s: cannot write its topology", partition);
out:
	free(keep);
	free(alive);
	free(tmp);
	if (rc)
		tp_hostlist_fini(missing);
	return rc;
}
