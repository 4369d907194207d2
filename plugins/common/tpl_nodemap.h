/*
 * tpl_nodemap.h - Slurm node index <-> topology node index, by node name.
 *
 * Slurm numbers nodes in slurm.conf order (node_record_table_ptr, bitstr_t
 * bit i); the core numbers them in topology-file order (tp_nodeset bit j).
 * The two orders differ in general, and either side may name nodes the
 * other lacks, so the map is built by name and both directions may be -1.
 */
#ifndef TPL_NODEMAP_H
#define TPL_NODEMAP_H

#include "config.h"

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"

#include "base/error.h"
#include "base/nodeset.h"

typedef struct tpl_nodemap {
	int nslurm;     /* Slurm's node_record_count when built */
	int ntopo;      /* nodes of the topology (allocator's nnodes) */
	int *to_topo;   /* [nslurm]: topology index or -1 */
	int *to_slurm;  /* [ntopo]:  Slurm index or -1 */
	int nmissing;   /* Slurm nodes absent from the topology */
	int nunused;    /* topology nodes absent from Slurm */
} tpl_nodemap;

/* Topology index of `name`, or -1 (e.g. tp_fattree_node_index). */
typedef int (*tpl_topo_index_fn)(const void *topo, const char *name);

/*
 * Build the map from Slurm's node names (names[i] may be NULL for a hole
 * in Slurm's table) and a topology of `ntopo` nodes.  Returns 0, or -1 with
 * a message in err: out of memory, or two Slurm nodes on one topology node.
 */
int tpl_nodemap_build(tpl_nodemap *m, const char *const *names, int nslurm,
		      const void *topo, int ntopo, tpl_topo_index_fn index,
		      tp_error *err);
void tpl_nodemap_fini(tpl_nodemap *m);

/* Nodes set in `bits` (Slurm indices) as a nodeset over the topology;
 * Slurm nodes outside the topology are dropped.  `s` has ntopo nodes. */
void tpl_bits_to_set(const tpl_nodemap *m, bitstr_t *bits, tp_nodeset *s);
/* The reverse: `bits` (nslurm bits) is cleared and gets the Slurm nodes
 * of `s`; topology nodes unknown to Slurm are dropped. */
void tpl_set_to_bits(const tpl_nodemap *m, const tp_nodeset *s,
		     bitstr_t *bits);

#endif
