/*
 * torus_describe.h - the box a node set is, for select/torus's logs and checks.
 *
 * The core allocators hand out node sets; the plugin states each
 * placement as the box it is (low corner and lengths in torus
 * coordinates, torus.conf(5)), and tells when select/linear chose nodes
 * that are not a box (jobs with required nodes).  The test is
 * independent of the allocators' box code: a set is a box iff in every
 * dimension its coordinates form one interval (cyclic on a ring) and it
 * has as many nodes as the product of those intervals' lengths.
 */
#ifndef TP_TORUS_DESCRIBE_H
#define TP_TORUS_DESCRIBE_H

#include <stddef.h>

#include "base/nodeset.h"
#include "topology/torus.h"

/*
 * 0 with *box set when `nodes` (a set over the torus's nodes) is a
 * non-empty box, in the canonical form of torus.h (a spanned ring has
 * offset 0; otherwise the offset is where the cyclic interval starts);
 * -1 when it is not a box.
 */
int tp_box_of(const tp_torus *t, const tp_nodeset *nodes, tp_box *box);

/*
 * Log text for a placement: "box_off=1,0,0,0 box_len=2,2,1,1
 * mean_dist=1.333", plus " transit=N" when the box has N nodes more than
 * `requested` (> 0), or "box=none mean_dist=..." for a set that is no
 * box.  mean_dist: mean distance over node pairs (torus.conf Distance=).
 */
void tp_describe_torus(const tp_torus *t, const tp_nodeset *nodes, int requested,
		 char *buf, size_t len);

/*
 * The same as a tp_describe_fn of a machine (machine/describe.h): `topo`
 * is a tp_topo with a torus; a placement on outside nodes is "outside
 * the torus".
 */
struct tp_alloc;
void tp_describe_torus_topo(const void *topo, struct tp_alloc *alloc,
			    const tp_nodeset *nodes, int requested, char *buf,
			    size_t len);

/*
 * The line a torus plugin logs when it has loaded its machine: "torus
 * FILE: 4x4x2x2, 64 nodes, Ntransit=0, allocator torus-mss (from ...)".
 */
struct tp_topo;
void tp_torus_loaded_line(const struct tp_topo *t, char *buf, size_t len);

#endif
