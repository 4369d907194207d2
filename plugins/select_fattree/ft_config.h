/*
 * ft_config.h - select/fattree's settings: fattree.conf beside slurm.conf.
 *
 *     Allocator=fattree          # any registered core allocator
 *     TopologyFile=topology.conf # relative paths: from slurm.conf's dir
 *     MsuSize=0                  # 0 = the patent's Nunit rule
 *     BusyFallback=no            # tp_fattree_opts.busy_fallback
 *     PreferFull=yes             # tp_fattree_opts.prefer_full
 *
 * Why a file of its own: SelectTypeParameters belongs to select/linear,
 * which this plugin delegates to, and environment variables are not seen
 * the same by every daemon.  The file is optional (all defaults); every
 * key is optional.  Syntax and reader: the core's conffile.h, so errors
 * name FILE:LINE and the value.  Documented in select_fattree(5).
 */
#ifndef FT_CONFIG_H
#define FT_CONFIG_H

#include "model/error.h"
#include "topology/fattree.h"

typedef struct ft_config {
	char *allocator;      /* default "fattree" */
	char *topology_file;  /* absolute path */
	tp_fattree_opts opts; /* MSU and allocator options */
	char *source;         /* the fattree.conf read, or NULL if none */
} ft_config;

/*
 * Defaults, then the settings in `path` if that file exists (a missing
 * file means defaults; an unreadable one is an error).  `confdir` is the
 * directory relative TopologyFile values (and the default topology.conf)
 * are taken from.  Returns 0, or -1 with "FILE:LINE: ..." in err.
 */
int ft_config_read(ft_config *c, const char *path, const char *confdir,
		   tp_error *err);
void ft_config_fini(ft_config *c);

#endif
