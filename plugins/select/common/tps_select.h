/*
 * tps_select.h - the part every topology select plugin shares: loading
 * its machine (machine/topo.h) only inside slurmctld and only when it is
 * the configured SelectType, keeping the Slurm <-> topology node map
 * current, re-reading at reconfigure (a bad new file keeps the old
 * machine), and job_test through tps_jobtest.c.  A plugin is an ops table
 * (what is its own: how its machine is specified, how a placement is
 * described in the logs, whether placements are a hard constraint) and
 * the plugin's identity (select_fattree.c, select_torus.c): this file
 * defines Slurm's init(), fini(), select_p_node_init(),
 * select_p_reconfigure() and select_p_job_test() for it, around the ops
 * the plugin names tps_select_plugin; tps_delegate.c defines the rest.
 *
 * Loading: slurmctld loads every select_*.so in PluginDir and calls its
 * init() whatever SelectType says, and slurmd and every client command
 * load select plugins too.  So init() only loads the select/linear
 * delegate everywhere.  No slurmctld-only DATA symbol is referenced at
 * link time (dlopen would fail in the other programs); slurmctld's
 * job_list is looked up at run time.
 */
#ifndef TPS_SELECT_H
#define TPS_SELECT_H

#include "tps_jobtest.h"

#include "machine/topo.h"

typedef struct tps_select_ops {
	const char *plugin_type;   /* "select/fattree" */
	/* Load the machine from the plugin's files and settings: 0, or -1
	 * with the reason logged. */
	int (*load)(tp_topo *t);
	tp_describe_fn describe;  /* placement facts for the logs */
	bool strict;               /* see tps_ctx */
	/* Optional: after select/linear chose nodes itself. */
	void (*linear_chose)(const tps_ctx *c, job_record_t *job_ptr,
			     uint16_t mode, bitstr_t *bitmap);
} tps_select_ops;

/* Each plugin defines this one. */
extern const tps_select_ops tps_select_plugin;

#endif
