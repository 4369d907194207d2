/*
 * ftconf.c - fat-tree helper for scripts: write a regular tree as
 * topology.conf, and compute the hop sum of given node lists on a tree.
 * See ftconf(1).
 *
 *   ftconf generate --levels L --width W [-o FILE]
 *   ftconf hopsum --topology FILE [--msu-size N] [--spread] [HOSTLIST...]
 *
 * `hopsum` prints, per host list (arguments, else one per line of standard
 * input), the patent's placement metric: the sum over unordered pairs of
 * distinct minimum scheduling units touched by the nodes of their hop
 * counts (tp_fattree_hop_sum) -- the same number the "fattree" and
 * "tree-greedy" allocators report as their cost, so a placement Slurm made
 * can be compared with the simulator's hop_sum column.  A host list across
 * two fabrics (trees with no switch above both) is refused: no link joins
 * them, so it has no hop sum.  With --spread each line also gives the
 * list's node-level spread: its node-level hop sum over the least any as
 * many nodes can have on the tree (topology/spread.h, the runtime
 * model's measure), so placements of any granularity compare on one
 * scale.
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/fattree.h"
#include "topology/spread.h"
#include "base/hostlist.h"
#include "base/nodeset.h"

static const char *prog = "ftconf";

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: %s generate --levels L --width W [-o FILE]\n"
		"       %s hopsum --topology FILE [--msu-size N] [--spread] [HOSTLIST...]\n"
		"generate: a regular fat tree (W^L nodes n1..nN) as topology.conf.\n"
		"hopsum:   per host list (arguments, else one per input line) the sum\n"
		"          of pairwise hops between the MSUs its nodes touch; with\n"
		"          --spread also its node-level spread (>= 1: node-level hop\n"
		"          sum over the least any as many nodes have on the tree).\n",
		prog, prog);
}

static void die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(2);
}

static int parse_int(const char *opt, const char *s, int min, int max)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max) {
		fprintf(stderr, "%s: %s: expected an integer in %d..%d, got '%s'\n",
			prog, opt, min, max, s);
		exit(2);
	}
	return (int)v;
}

/* ---- generate ---- */

static int cmd_generate(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "levels", required_argument, NULL, 'l' },
		{ "width", required_argument, NULL, 'w' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int levels = 0, width = 0, c;
	const char *out = NULL;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'l': levels = parse_int("--levels", optarg, 1, 64); break;
		case 'w': width = parse_int("--width", optarg, 1, 1 << 24); break;
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: die_usage("%s", "bad option");
		}
	}
	if (optind < argc)
		die_usage("generate: unexpected argument '%s'", argv[optind]);
	if (!levels || !width)
		die_usage("%s", "generate needs --levels and --width");
	tp_error err = { { 0 } };
	tp_fattree *t = tp_fattree_generate(levels, width, &err);
	if (!t) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	FILE *fp = out ? fopen(out, "w") : stdout;
	if (!fp) {
		fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
		tp_fattree_free(t);
		return 1;
	}
	int rc = tp_fattree_write_conf(t, fp);
	if (out && fclose(fp))
		rc = -1;
	else if (!out && fflush(fp))
		rc = -1;
	tp_fattree_free(t);
	if (rc) {
		fprintf(stderr, "%s: %s: write error\n", prog, out ? out : "(stdout)");
		return 1;
	}
	return 0;
}

/* ---- hopsum ---- */

/* A list across fabrics has no hop sum (no link joins them): name a node
 * of each side and their fabrics' root switches; 1 when refused. */
static int across_fabrics(const tp_fattree *t, const tp_nodeset *set,
			  const char *expr, const char *where)
{
	int other = -1;
	if (tp_fattree_set_fabric(t, set, &other) != -2)
		return 0;
	int first = tp_nodeset_next(set, 0);
	if (tp_fattree_node_fabric(t, other) < tp_fattree_node_fabric(t, first)) {
		int tmp = first; /* the lower fabric first */
		first = other;
		other = tmp;
	}
	int fa = tp_fattree_node_fabric(t, first), fb = tp_fattree_node_fabric(t, other);
	fprintf(stderr, "%s: %s: host list '%s' spans fabrics with no link between them: %s is in fabric %d (switch %s), %s in fabric %d (switch %s) of %s\n",
		prog, where, expr, t->node_name[first], fa + 1,
		t->sw[t->fabric_root[fa]].name, t->node_name[other], fb + 1,
		t->sw[t->fabric_root[fb]].name, t->path);
	return 1;
}

/* Hop sum of one host list; -1 with a message on stderr naming `where`
 * and the bad value. */
static long long hop_sum_of(const tp_fattree *t, tp_nodeset *set,
			    const char *expr, const char *where)
{
	tp_hostlist hl = { 0 };
	char ebuf[256] = "";
	long long r = -1;
	tp_nodeset_zero(set);
	if (tp_hostlist_expand(&hl, expr, ebuf, sizeof(ebuf))) {
		fprintf(stderr, "%s: %s: bad host list '%s': %s\n", prog, where,
			expr, ebuf);
		goto out;
	}
	for (size_t i = 0; i < hl.n; i++) {
		int v = tp_fattree_node_index(t, hl.names[i]);
		if (v < 0) {
			fprintf(stderr, "%s: %s: node '%s' is not in %s\n", prog,
				where, hl.names[i], t->path);
			goto out;
		}
		tp_nodeset_set(set, v);
	}
	if (!across_fabrics(t, set, expr, where) &&
	    (r = tp_fattree_hop_sum(t, set)) < 0)
		fprintf(stderr, "%s: out of memory\n", prog);
out:
	tp_hostlist_fini(&hl);
	return r;
}

/* The spread measure when --spread is given, else NULL. */
static tp_spread *spread;

/* One output line: the hop sum, and the spread when asked. */
static void print_result(long long h, const tp_nodeset *set)
{
	if (spread)
		printf("%lld %.4f\n", h, tp_spread_of(spread, set));
	else
		printf("%lld\n", h);
}

static int hopsum_stdin(const tp_fattree *t, tp_nodeset *set)
{
	char *line = NULL, where[64];
	size_t cap = 0;
	long no = 0;
	int rc = 0;
	while (!rc && getline(&line, &cap, stdin) >= 0) {
		no++;
		line[strcspn(line, " \t\r\n")] = '\0';
		if (!*line)
			continue;
		snprintf(where, sizeof(where), "(stdin):%ld", no);
		long long h = hop_sum_of(t, set, line, where);
		if (h < 0)
			rc = 1;
		else
			print_result(h, set);
	}
	free(line);
	return rc;
}

static int cmd_hopsum(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "msu-size", required_argument, NULL, 'm' },
		{ "spread", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *topo = NULL;
	int msu = -1, c;
	bool want_spread = false;
	while ((c = getopt_long(argc, argv, "t:h", lo, NULL)) != -1) {
		switch (c) {
		case 't': topo = optarg; break;
		case 's': want_spread = true; break;
		case 'm': msu = parse_int("--msu-size", optarg, 0, 1 << 24); break;
		case 'h': usage(stdout); return 0;
		default: die_usage("%s", "bad option");
		}
	}
	if (!topo)
		die_usage("%s", "hopsum needs --topology FILE");
	tp_error err = { { 0 } };
	tp_fattree *t = tp_fattree_load(topo, &err);
	if (!t) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	if (msu >= 0) {
		tp_fattree_opts o = t->opts;
		o.msu_size = msu;
		if (tp_fattree_set_opts(t, &o, &err)) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			tp_fattree_free(t);
			return 1;
		}
	}
	tp_nodeset set;
	tp_spread sp;
	if (want_spread && tp_spread_init(&sp, t, NULL)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		tp_fattree_free(t);
		return 1;
	}
	spread = want_spread ? &sp : NULL;
	if (tp_nodeset_init(&set, tp_fattree_nnodes(t))) {
		fprintf(stderr, "%s: out of memory\n", prog);
		if (spread)
			tp_spread_fini(spread);
		tp_fattree_free(t);
		return 1;
	}
	int rc = 0;
	if (optind == argc) {
		rc = hopsum_stdin(t, &set);
	} else {
		char where[64];
		for (int i = optind; i < argc && !rc; i++) {
			snprintf(where, sizeof(where), "argument %d", i - optind + 1);
			long long h = hop_sum_of(t, &set, argv[i], where);
			if (h < 0)
				rc = 1;
			else
				print_result(h, &set);
		}
	}
	if (fflush(stdout))
		rc = 1;
	tp_nodeset_fini(&set);
	if (spread)
		tp_spread_fini(spread);
	tp_fattree_free(t);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		die_usage("%s", "a command is required (generate or hopsum)");
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return 0;
	}
	/* getopt_long sees the subcommand as argv[0]. */
	if (!strcmp(cmd, "generate"))
		return cmd_generate(argc - 1, argv + 1);
	if (!strcmp(cmd, "hopsum"))
		return cmd_hopsum(argc - 1, argv + 1);
	die_usage("unknown command '%s' (generate or hopsum)", cmd);
	return 2;
}
