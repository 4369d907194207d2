/*
 * cli.h - the one rule every installed program applies to its command
 * line (toposim, topo-expdb, topotasks, ftconf, topogen, hetgen), over
 * getopt_long:
 *  - an option's value that looks like an option ("--sacct --partition
 *    batch") is refused, naming both: the option was most likely given
 *    without its value (a file of that name: --sacct=--partition);
 *  - an unknown option is refused with the nearest valid one and the
 *    list of all of them; so is an unknown name for an option that takes
 *    one of a set of names (tp_cli_choice);
 *  - an option given twice is refused, naming both values (the second
 *    silently replacing the first hid mistakes in scripts);
 *  - each of these is a usage error: the program exits 2 after
 *    "PROG: what\nTry 'PROG --help'.";
 *  - every program answers --help (standard output, exit 0) and
 *    --version.
 * Nothing here exits or prints: the caller decides (toposim's parser is
 * fuzzed in one process).
 */
#ifndef TP_CLI_H
#define TP_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TP_CLI_MAX_OPTS 96
#define TP_CLI_ERROR (-2)  /* tp_cli_next: a usage error, in c->msg */

typedef struct tp_cli {
	const char *prog;             /* for messages: "toposim", "ftconf generate" */
	const struct option *opts;    /* getopt_long's table, zero-terminated */
	char shortopts[64];           /* ':' + the caller's short options */
	int argc;
	char **argv;
	size_t nopts;
	const char *given[TP_CLI_MAX_OPTS]; /* each option's value so far */
	bool seen[TP_CLI_MAX_OPTS];
	char msg[2048];               /* the usage error */
} tp_cli;

/* Start reading argv[1..] (getopt_long's state is reset: a program may
 * parse several command lines, a subcommand its own argv).  shortopts
 * as getopt_long's; a leading '+' ends the options at the first operand
 * (operands that may begin with '-', as a number). */
void tp_cli_init(tp_cli *c, const char *prog, const struct option *opts,
		 const char *shortopts, int argc, char **argv);
/* The next option's val, with *arg its value (NULL for a flag); -1 when
 * the options are over (then tp_cli_operand() gives the rest in order);
 * TP_CLI_ERROR with c->msg for an unknown option, a missing value, a
 * value that looks like an option, or an option given twice. */
int tp_cli_next(tp_cli *c, const char **arg);
/* After -1: the index in argv of the first operand (argc: none). */
int tp_cli_operands(const tp_cli *c);
/* A usage error of the caller's own ("--nodes: expected ..."): formats
 * it into c->msg and returns TP_CLI_ERROR. */
int tp_cli_fail(tp_cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Is `value` one of names[] (NULL-terminated)?  (opt NULL: no "OPT: ".)  0, or TP_CLI_ERROR with
 * c->msg "OPT: unknown WHAT 'value' (did you mean X?); valid: a, b,
 * c". */
int tp_cli_choice(tp_cli *c, const char *opt, const char *value,
		  const char *const *names, const char *what);
/* The nearest of names[] to s: the one name s begins, else the closest
 * within an edit distance of a third of its length (at least 2); or
 * NULL. */
const char *tp_cli_nearest(const char *s, const char *const *names);

/* "PROG: MSG\nTry 'PROG --help'.\n" on stderr; returns 2, the exit
 * status of every usage error. */
int tp_cli_usage_error(const char *prog, const char *msg);
/* "PROG (slurm-topo) VERSION" on standard output; returns 0. */
int tp_cli_version(const char *prog);
/* Does s look like an option ("-x", "--name"; not "-", not "-5")? */
bool tp_cli_looks_like_option(const char *s);

#endif
