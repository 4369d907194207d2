/*
 * ftconf.c - fat-tree helper for scripts: write a regular tree as
 * topology.conf, and compute the hop sum of given node lists on a tree.
 * See ftconf(1).
 *
 *   ftconf generate --levels L --width W [-o FILE]
 *   ftconf check --topology FILE
 *   ftconf hopsum --topology FILE [--msu-size N] [--spread] [HOSTLIST...]
 *
 * `hopsum` prints, per host list (arguments, else one per line of standard
 * input), the patent's placement metric: the sum over unordered pairs of
 * distinct minimum scheduling units touched by the nodes of their hop
 * counts (tp_fattree_hop_sum) -- the same number the "fattree" and
 * "tree-greedy" allocators report as their cost, so a placement Slurm made
 * can be compared with the simulator's hop_sum column.  A host list across
 * two fabrics (trees with no switch above both) is refused: no link joins
 * them, so it has no hop sum.  `check` reads a file as the plugins do
 * and says what tree it is, before slurmctld does.  With --spread each
 * hopsum line also gives the list's node-level spread: its node-level hop
 * sum over the least any as many nodes can have on the tree
 * (topology/spread.h, the runtime model's measure), so placements of any
 * granularity compare on one scale.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topology/fattree.h"
#include "topology/spread.h"
#include "base/hostlist.h"
#include "base/nodeset.h"
#include "cli/cli.h"

static const char *prog = "ftconf";

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: %s generate --levels L --width W [-o FILE]\n"
		"       %s check --topology FILE\n"
		"       %s hopsum --topology FILE [--msu-size N] [--spread] [HOSTLIST...]\n"
		"       %s --help | --version\n"
		"generate: a regular fat tree (W^L nodes n1..nN) as topology.conf.\n"
		"check:    read FILE as the plugins do; print the tree it describes.\n"
		"hopsum:   per host list (arguments, else one per line of a piped\n"
		"          standard input) the sum of pairwise hops between the MSUs\n"
		"          its nodes touch; with --spread also its node-level spread\n"
		"          (>= 1: node-level hop sum over the least any as many\n"
		"          nodes have on the tree).\n",
		prog, prog, prog, prog);
}

enum { O_HELP = 'h', O_VERSION = 256 };

/* A usage error of subcommand cmd: its message, exit 2. */
static int usage_error(const tp_cli *c)
{
	return tp_cli_usage_error(c->prog, c->msg);
}

static int parse_int(tp_cli *c, const char *opt, const char *s, int min,
		     int max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		return tp_cli_fail(c, "%s: expected an integer in %d..%d, got '%s'",
				   opt, min, max, s);
	*out = (int)v;
	return 0;
}

/* ---- generate ---- */

static int cmd_generate(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "levels", required_argument, NULL, 'l' },
		{ "width", required_argument, NULL, 'w' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int levels = 0, width = 0, o;
	const char *out = NULL, *arg;
	tp_cli c;
	tp_cli_init(&c, "ftconf generate", lo, "o:h", argc, argv);
	while ((o = tp_cli_next(&c, &arg)) != -1) {
		int bad = 0;
		switch (o) {
		case 'l': bad = parse_int(&c, "--levels", arg, 1, 64, &levels); break;
		case 'w': bad = parse_int(&c, "--width", arg, 1, 1 << 24, &width); break;
		case 'o': out = arg; break;
		case O_HELP: usage(stdout); return 0;
		case O_VERSION: return tp_cli_version(prog);
		default: bad = TP_CLI_ERROR;
		}
		if (bad)
			return usage_error(&c);
	}
	if (tp_cli_operands(&c) < argc) {
		tp_cli_fail(&c, "unexpected argument '%s'", argv[tp_cli_operands(&c)]);
		return usage_error(&c);
	}
	if (!levels || !width) {
		tp_cli_fail(&c, "--levels and --width are required");
		return usage_error(&c);
	}
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

/* The options hopsum and check share: the tree and its unit size. */
typedef struct tree_args {
	const char *topo;
	int msu;        /* -1: the file's */
	bool spread;    /* hopsum --spread */
	int first;      /* argv index of the first HOSTLIST */
} tree_args;

/* 0: go on; 1: --help or --version answered; 2: a usage error said. */
static int parse_tree_args(const char *name, bool hostlists, int argc,
			   char **argv, tree_args *a)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "msu-size", required_argument, NULL, 'm' },
		{ "spread", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *arg;
	int o;
	tp_cli c;
	*a = (tree_args){ .msu = -1 };
	tp_cli_init(&c, name, lo, "t:h", argc, argv);
	while ((o = tp_cli_next(&c, &arg)) != -1) {
		int bad = 0;
		switch (o) {
		case 't': a->topo = arg; break;
		case 's': a->spread = true; break;
		case 'm': bad = parse_int(&c, "--msu-size", arg, 0, 1 << 24, &a->msu); break;
		case O_HELP: usage(stdout); return 1;
		case O_VERSION: tp_cli_version(prog); return 1;
		default: bad = TP_CLI_ERROR;
		}
		if (bad)
			return usage_error(&c);
	}
	a->first = tp_cli_operands(&c);
	if (!a->topo)
		tp_cli_fail(&c, "--topology FILE is required");
	else if (!hostlists && a->spread)
		tp_cli_fail(&c, "--spread is an option of hopsum");
	else if (!hostlists && a->first < argc)
		tp_cli_fail(&c, "unexpected argument '%s'", argv[a->first]);
	/* Nothing to read: a terminal would be waited on in silence. */
	else if (hostlists && a->first == argc && isatty(STDIN_FILENO))
		tp_cli_fail(&c, "no HOSTLIST: give host lists as arguments or one per line on standard input "
			    "(it is a terminal here; 'ftconf check --topology FILE' checks a file)");
	else
		return 0;
	return usage_error(&c);
}

/* The tree of a, with its unit size; NULL after a message. */
static tp_fattree *load_tree(const tree_args *a)
{
	tp_error err = { { 0 } };
	tp_fattree *t = tp_fattree_load(a->topo, &err);
	if (!t) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return NULL;
	}
	if (a->msu >= 0) {
		tp_fattree_opts o = t->opts;
		o.msu_size = a->msu;
		if (tp_fattree_set_opts(t, &o, &err)) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			tp_fattree_free(t);
			return NULL;
		}
	}
	return t;
}

/* ---- check ---- */

static int cmd_check(int argc, char **argv)
{
	tree_args a;
	int p = parse_tree_args("ftconf check", false, argc, argv, &a);
	if (p)
		return p == 1 ? 0 : 2;
	tp_fattree *t = load_tree(&a);
	if (!t)
		return 1;
	bool virt = t->sw[t->root].is_virtual;
	int levels = t->levels - (virt ? 1 : 0), n = tp_fattree_nnodes(t);
	printf("%s: %d node%s, %d leaf switch%s, %d switch level%s, %d fabric%s\n",
	       t->path, n, n == 1 ? "" : "s", t->nleaf, t->nleaf == 1 ? "" : "es",
	       levels, levels == 1 ? "" : "s", t->nfabric,
	       t->nfabric == 1 ? "" : "s");
	char *warn = tp_fattree_fabrics_warning(t);
	if (warn)
		fprintf(stderr, "%s: warning: %s\n", prog, warn);
	free(warn);
	tp_fattree_free(t);
	return fflush(stdout) ? 1 : 0;
}

/* ---- hopsum ---- */

static int cmd_hopsum(int argc, char **argv)
{
	tree_args a;
	int p = parse_tree_args("ftconf hopsum", true, argc, argv, &a);
	if (p)
		return p == 1 ? 0 : 2;
	tp_fattree *t = load_tree(&a);
	if (!t)
		return 1;
	tp_nodeset set;
	tp_spread sp;
	if (a.spread && tp_spread_init(&sp, t, NULL)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		tp_fattree_free(t);
		return 1;
	}
	spread = a.spread ? &sp : NULL;
	if (tp_nodeset_init(&set, tp_fattree_nnodes(t))) {
		fprintf(stderr, "%s: out of memory\n", prog);
		if (spread)
			tp_spread_fini(spread);
		tp_fattree_free(t);
		return 1;
	}
	int rc = 0;
	if (a.first == argc) {
		rc = hopsum_stdin(t, &set);
	} else {
		char where[64];
		for (int i = a.first; i < argc && !rc; i++) {
			snprintf(where, sizeof(where), "argument %d", i - a.first + 1);
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
	static const char *const commands[] = { "generate", "check", "hopsum",
						NULL };
	tp_cli c;
	tp_cli_init(&c, prog, (const struct option[]){ { NULL, 0, NULL, 0 } },
		    "", argc, argv);
	if (argc < 2) {
		tp_cli_fail(&c, "a command is required: generate, check or hopsum");
		return usage_error(&c);
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version"))
		return tp_cli_version(prog);
	/* getopt_long sees the subcommand as argv[0]. */
	if (!strcmp(cmd, "generate"))
		return cmd_generate(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "hopsum"))
		return cmd_hopsum(argc - 1, argv + 1);
	tp_cli_choice(&c, NULL, cmd, commands, "command");
	return usage_error(&c);
}
