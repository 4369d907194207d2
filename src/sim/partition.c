/* partition.c - see partition.h. */
#include "partition.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <strings.h>

#include "base/conffile.h"
#include "base/name_index.h"

/* Appends the expansion of `expr` (line `line`'s value of `key`). */
static int expand(tp_conf_reader *r, const tp_conf_line *line,
		  const char *key, const char *expr, tp_hostlist *hl,
		  tp_error *err)
{
	char why[128];
	if (tp_hostlist_expand(hl, expr, why, sizeof(why)))
		return tp_errorf(err, "%s:%d: %s=%.80s: %s", tp_conf_path(r),
				 line->lineno, key, expr, why);
	return 0;
}

/* Reads the whole file: the partition's Nodes= and every NodeName (for
 * Nodes=ALL).  *found: the partition's line number, 0 if absent. */
/* Appends a partition's name to the list of those seen (as many as
 * fit), for the message when the one asked for is not there. */
static void note(char *seen, size_t len, const char *name)
{
	size_t used = strlen(seen);
	if (used + strlen(name) + 3 < len)
		snprintf(seen + used, len - used, "%s%s", used ? ", " : "", name);
}

static int scan(tp_conf_reader *r, const char *name, tp_hostlist *all,
		char **nodes, int *found, char *seen, size_t seen_len,
		tp_error *err)
{
	tp_conf_line line;
	int rc;
	while ((rc = tp_conf_next(r, &line, err)) > 0) {
		const char *v = tp_conf_get(&line, "NodeName");
		if (v && strcasecmp(v, "DEFAULT") &&
		    expand(r, &line, "NodeName", v, all, err))
			return -1;
		v = tp_conf_get(&line, "PartitionName");
		if (v && strcmp(v, name) && strcasecmp(v, "DEFAULT"))
			note(seen, seen_len, v);
		if (!v || strcmp(v, name))
			continue;
		if (*found)
			return tp_errorf(err, "%s:%d: PartitionName=%s given twice (first on line %d)",
					 tp_conf_path(r), line.lineno, name, *found);
		*found = line.lineno;
		const char *n = tp_conf_get(&line, "Nodes");
		if (n && !(*nodes = strdup(n)))
			return tp_errorf(err, "%s: out of memory", tp_conf_path(r));
	}
	return rc;
}

/* Drops the names given twice, keeping the first: Slurm's bitmaps hold a
 * node once. */
static int dedupe(tp_hostlist *hl, tp_error *err, const char *path)
{
	tp_name_index x = { 0 };
	size_t n = 0;
	for (size_t i = 0; i < hl->n; i++) {
		char *name = hl->names[i];
		if (tp_name_index_find(&x, hl->names, name) >= 0) {
			free(name);
			continue;
		}
		hl->names[n++] = name;
		if (tp_name_index_add(&x, hl->names)) {
			for (size_t k = i + 1; k < hl->n; k++)
				free(hl->names[k]);
			hl->n = n;
			tp_name_index_fini(&x);
			return tp_errorf(err, "%s: out of memory", path);
		}
	}
	hl->n = n;
	tp_name_index_fini(&x);
	return 0;
}

int sim_partition_nodes(const char *path, const char *name,
			tp_hostlist *nodes, tp_error *err)
{
	memset(nodes, 0, sizeof(*nodes));
	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		return -1;
	tp_hostlist all = { 0 };
	char *list = NULL, seen[256] = "";
	int found = 0;
	int rc = scan(r, name, &all, &list, &found, seen, sizeof(seen), err);
	if (!rc && !found)
		rc = tp_errorf(err, "%s: no PartitionName=%s (the partitions there: %s)",
			       path, name, seen[0] ? seen : "none");
	else if (!rc && (!list || !*list))
		rc = tp_errorf(err, "%s:%d: PartitionName=%s has no Nodes=", path,
			       found, name);
	else if (!rc && !strcasecmp(list, "ALL")) {
		*nodes = all;
		memset(&all, 0, sizeof(all));
		if (!nodes->n)
			rc = tp_errorf(err, "%s:%d: PartitionName=%s Nodes=ALL, but the file has no NodeName= line",
				       path, found, name);
	} else if (!rc) {
		char why[128];
		if (tp_hostlist_expand(nodes, list, why, sizeof(why)))
			rc = tp_errorf(err, "%s:%d: Nodes=%.80s: %s", path, found,
				       list, why);
	}
	if (!rc)
		rc = dedupe(nodes, err, path);
	free(list);
	tp_hostlist_fini(&all);
	tp_conf_close(r);
	if (rc)
		tp_hostlist_fini(nodes);
	return rc;
}
