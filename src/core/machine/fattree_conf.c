/* fattree_conf.c - fattree.conf; see fattree_conf.h, select_fattree(5). */
#include "machine/fattree_conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "base/conffile.h"

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

static int set_allocator(tp_fattree_conf *c, const char *file, int line,
			 const char *val, tp_error *err)
{
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

static int set_pair(tp_fattree_conf *c, const char *file, int line,
		    const char *key, const char *val, const char *confdir,
		    tp_error *err)
{
	if (!strcasecmp(key, "Allocator"))
		return set_allocator(c, file, line, val, err);
	if (!strcasecmp(key, "TopologyFile")) {
		free(c->topology_file);
		c->topology_file = tp_conf_path_join(confdir, val);
		return c->topology_file ? 0 : tp_errorf(err, "%s: out of memory", file);
	}
	if (!strcasecmp(key, "MsuSize")) {
		if (parse_msu(val, &c->opts.msu_size))
			return tp_errorf(err, "%s:%d: MsuSize: '%s' is not a whole number >= 0 (0 = the patent's rule)",
					 file, line, val);
		return 0;
	}
	if (!strcasecmp(key, "BusyFallback") || !strcasecmp(key, "PreferFull")) {
		int b = tp_conf_bool(val);
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

static int set_defaults(tp_fattree_conf *c, const char *confdir, tp_error *err)
{
	*c = (tp_fattree_conf){ 0 };
	tp_fattree_opts_default(&c->opts);
	c->allocator = strdup("fattree");
	c->topology_file = tp_conf_path_join(confdir, "topology.conf");
	if (!c->allocator || !c->topology_file)
		return tp_errorf(err, "fattree.conf: out of memory");
	return 0;
}

static const char *const known_keys[] = { "Allocator", "TopologyFile",
					  "MsuSize", "BusyFallback",
					  "PreferFull", NULL };

/* A key given a second time is an error naming both lines: which of two
 * values was meant is not for the reader to guess.  Unknown keys pass
 * (set_pair names them). */
static int once(int *first, const char *path, int line, const char *key,
		tp_error *err)
{
	for (int k = 0; known_keys[k]; k++) {
		if (strcasecmp(known_keys[k], key))
			continue;
		if (first[k])
			return tp_errorf(err, "%s:%d: %s= given again (first at line %d)",
					 path, line, known_keys[k], first[k]);
		first[k] = line;
	}
	return 0;
}

static int read_pairs(tp_fattree_conf *c, const char *path,
		      const char *confdir, tp_error *err)
{
	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		return -1;
	c->source = strdup(path);
	tp_conf_line line;
	int rc, first[sizeof(known_keys) / sizeof(known_keys[0])] = { 0 };
	while ((rc = tp_conf_next(r, &line, err)) == 1) {
		for (size_t i = 0; i < line.npairs && rc == 1; i++)
			if (once(first, path, line.lineno, line.pairs[i].key, err) ||
			    set_pair(c, path, line.lineno, line.pairs[i].key,
				     line.pairs[i].value, confdir, err))
				rc = -1;
		if (rc < 0)
			break;
	}
	tp_conf_close(r);
	return rc < 0 ? -1 : 0;
}

int tp_fattree_conf_read(tp_fattree_conf *c, const char *path,
			 const char *confdir, tp_error *err)
{
	if (set_defaults(c, confdir, err))
		goto fail;
	if (!path || (access(path, F_OK) != 0 && errno == ENOENT))
		return 0; /* optional file: defaults */
	if (read_pairs(c, path, confdir, err))
		goto fail;
	return 0;
fail:
	tp_fattree_conf_fini(c);
	return -1;
}

void tp_fattree_conf_fini(tp_fattree_conf *c)
{
	free(c->allocator);
	free(c->topology_file);
	free(c->source);
	*c = (tp_fattree_conf){ 0 };
}
