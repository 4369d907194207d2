/* ft_config.c - fattree.conf; see ft_config.h and select_fattree(5). */
#include "ft_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "io/conffile.h"

static char *path_join(const char *dir, const char *file)
{
	if (file[0] == '/' || !dir || !dir[0])
		return strdup(file);
	size_t n = strlen(dir) + strlen(file) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, file);
	return p;
}

static bool allocator_known(const char *name)
{
	for (const char *const *n = tp_alloc_names(); *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

/* "a, b, c" of the registered allocators, for error messages. */
static void allocator_list(char *buf, size_t len)
{
	buf[0] = '\0';
	for (const char *const *n = tp_alloc_names(); *n; n++) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s",
			 n == tp_alloc_names() ? "" : ", ", *n);
	}
}

/* yes/no/true/false/1/0 -> 1/0, anything else -1. */
static int parse_bool(const char *v)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0"))
		return 0;
	return -1;
}

/* MsuSize: a whole number >= 0 (0 = the patent's rule). */
static int parse_msu(const char *v, int *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < 0 || n > (1 << 24))
		return -1;
	*out = (int)n;
	return 0;
}

static int set_pair(ft_config *c, const char *file, int line,
		    const char *key, const char *val, const char *confdir,
		    tp_error *err)
{
	if (!strcasecmp(key, "Allocator")) {
		if (!allocator_known(val)) {
			char names[256];
			allocator_list(names, sizeof(names));
			return tp_errorf(err, "%s:%d: Allocator: unknown allocator '%s' (known: %s)",
					 file, line, val, names);
		}
		free(c->allocator);
		c->allocator = strdup(val);
		return c->allocator ? 0 : tp_errorf(err, "%s: out of memory", file);
	}
	if (!strcasecmp(key, "TopologyFile")) {
		free(c->topology_file);
		c->topology_file = path_join(confdir, val);
		return c->topology_file ? 0 : tp_errorf(err, "%s: out of memory", file);
	}
	if (!strcasecmp(key, "MsuSize")) {
		if (parse_msu(val, &c->opts.msu_size))
			return tp_errorf(err, "%s:%d: MsuSize: '%s' is not a whole number >= 0 (0 = the patent's rule)",
					 file, line, val);
		return 0;
	}
	if (!strcasecmp(key, "BusyFallback") || !strcasecmp(key, "PreferFull")) {
		int b = parse_bool(val);
		if (b < 0)
			return tp_errorf(err, "%s:%d: %s: '%s' is not yes or no",
					 file, line, key, val);
		if (!strcasecmp(key, "BusyFallback"))
			c->opts.busy_fallback = b;
		else
			c->opts.prefer_full = b;
		return 0;
	}
	return tp_errorf(err, "%s:%d: unknown key '%s' (known: Allocator, TopologyFile, MsuSize, BusyFallback, PreferFull)",
			 file, line, key);
}

static int set_defaults(ft_config *c, const char *confdir, tp_error *err)
{
	*c = (ft_config){ 0 };
	tp_fattree_opts_default(&c->opts);
	c->allocator = strdup("fattree");
	c->topology_file = path_join(confdir, "topology.conf");
	if (!c->allocator || !c->topology_file)
		return tp_errorf(err, "fattree.conf: out of memory");
	return 0;
}

int ft_config_read(ft_config *c, const char *path, const char *confdir,
		   tp_error *err)
{
	if (set_defaults(c, confdir, err))
		goto fail;
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return 0; /* optional file: defaults */

	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		goto fail;
	c->source = strdup(path);
	tp_conf_line line;
	int rc;
	while ((rc = tp_conf_next(r, &line, err)) == 1) {
		for (size_t i = 0; i < line.npairs && rc == 1; i++)
			if (set_pair(c, path, line.lineno, line.pairs[i].key,
				     line.pairs[i].value, confdir, err))
				rc = -1;
		if (rc < 0)
			break;
	}
	tp_conf_close(r);
	if (rc < 0)
		goto fail;
	return 0;
fail:
	ft_config_fini(c);
	return -1;
}

void ft_config_fini(ft_config *c)
{
	free(c->allocator);
	free(c->topology_file);
	free(c->source);
	*c = (ft_config){ 0 };
}
