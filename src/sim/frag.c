/* frag.c - the fragmentation series; see frag.h. */
#include "frag.h"

#include <inttypes.h>


void sim_frag_start(sim_frag *f, FILE *fp, const char *path,
		    const tp_topo *topo)
{
	f->fp = fp;
	f->path = path;
	f->topo = topo;
	fputs("time,free_nodes,queued,head_nodes,blocked_free,largest_free_unit\n",
	      f->fp);
}

int sim_frag_row(void *arg, const tp_cluster *c, tp_error *err)
{
	sim_frag *f = arg;
	int largest = tp_topo_largest_free(f->topo, &c->free);
	if (largest < 0)
		return tp_errorf(err, "%s: out of memory", f->path);
	/* After the pass every queued job is one it could not start: the
	 * head is blocked, and every free node is one it cannot use. */
	int head = c->nqueue ? c->queue[0]->nodes : 0;
	int blocked = c->nqueue ? c->nfree : 0;
	fprintf(f->fp, "%" PRId64 ",%d,%zu,%d,%d,%d\n", c->now, c->nfree,
		c->nqueue, head, blocked, largest);
	return 0;
}
