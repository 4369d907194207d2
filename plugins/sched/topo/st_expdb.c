/* st_expdb.c - sched/topo's run-time database file; see st_expdb.h. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */
#include "src/common/log.h"

#include "st_expdb.h"

#define ST_TYPE "sched/topo"

int st_expdb_init(st_expdb *h, const char *path)
{
	tp_error err = { { 0 } };
	memset(h, 0, sizeof(*h));
	if (!(h->db = tp_expdb_new()))
		return -1;
	if (tp_expdb_load(h->db, path, &h->learned_until, &err)) {
		error("%s: %s; starting with an empty run-time database (the file is kept until the next save)",
		      ST_TYPE, err.msg);
		tp_expdb_free(h->db);
		h->learned_until = 0;
		if (!(h->db = tp_expdb_new()))
			return -1;
		return 0;
	}
	if (tp_expdb_size(h->db))
		info("%s: run-time database %s: %zu entries, learned until %" PRId64,
		     ST_TYPE, path, tp_expdb_size(h->db), h->learned_until);
	return 0;
}

void st_expdb_fini(st_expdb *h)
{
	tp_expdb_free(h->db);
	memset(h, 0, sizeof(*h));
}

int st_expdb_save(st_expdb *h, const char *path, tp_error *err)
{
	if (!h->db || !h->dirty)
		return 0;
	if (tp_expdb_save(h->db, path, h->learned_until, err))
		return -1;
	h->dirty = false;
	return 0;
}

