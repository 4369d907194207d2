/*
 * fattree_conf.h - fattree.conf: how a fat tree is used.
 *
 *     Allocator=fattree          # any registered core allocator
 *     TopologyFile=topology.conf # relative paths: from the file's confdir
 *     MsuSize=0                  # 0 = the patent's Nunit rule
 *     BusyFallback=yes           # tp_fattree_opts.busy_fallback
 *     PreferFull=yes             # tp_fattree_opts.prefer_full
 *
 * Read by select/fattree (and topology/fattree), by sched/topo when it
 * plans for them, and by toposim --fattree-conf, through the topology
 * loader (topo.h), so all of them place with the same settings.  The file
 * is optional (all defaults), and so is every key.  Syntax and reader:
 * conffile.h, so errors name FILE:LINE and the value.  Documented in
 * select_fattree(5).
 */
#ifndef TP_FATTREE_CONF_H
#define TP_FATTREE_CONF_H

#include "base/error.h"
#include "topology/fattree.h"

typedef struct tp_fattree_conf {
	char *allocator;      /* default "fattree" */
	char *topology_file;  /* absolute or relative to confdir */
	tp_fattree_opts opts; /* MSU and allocator options */
	char *source;         /* the fattree.conf read, or NULL if none */
} tp_fattree_conf;

/*
 * Defaults, then the settings in `path` (NULL: none) if that file exists
 * (a missing file means defaults; an unreadable one is an error).  Relative
 * TopologyFile values, and the default topology.conf, are taken from
 * `confdir`.  Returns 0, or -1 with "FILE:LINE: ..." in err.
 */
int tp_fattree_conf_read(tp_fattree_conf *c, const char *path,
			 const char *confdir, tp_error *err);
void tp_fattree_conf_fini(tp_fattree_conf *c);

#endif
