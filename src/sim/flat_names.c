/* flat_names.c - see flat_names.h. */
#include "flat_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_flat_names_make(sim_flat_names *f, int n, const tp_hostlist *part,
			tp_error *err)
{
	memset(f, 0, sizeof(*f));
	f->n = n;
	if (part && part->n == (size_t)n) {
		f->names = part->names;
		return 0;
	}
	f->owned = true;
	f->names = calloc(n > 0 ? (size_t)n : 1, sizeof(char *));
	if (!f->names)
		return tp_errorf(err, "out of memory naming %d nodes", n);
	for (int i = 0; i < n; i++) {
		char buf[16];
		snprintf(buf, sizeof(buf), "n%d", i + 1);
		if (!(f->names[i] = strdup(buf))) {
			sim_flat_names_fini(f);
			return tp_errorf(err, "out of memory naming %d nodes", n);
		}
	}
	return 0;
}

const char *sim_flat_name(const void *arg, int i)
{
	const sim_flat_names *f = arg;
	return i >= 0 && i < f->n ? f->names[i] : "?";
}

void sim_flat_names_fini(sim_flat_names *f)
{
	if (f->owned && f->names)
		for (int i = 0; i < f->n; i++)
			free(f->names[i]);
	if (f->owned)
		free(f->names);
	memset(f, 0, sizeof(*f));
}
