/* cli.c - see cli.h. */
#include "cli.h"

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (AC_INIT)"
#endif

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

void tp_cli_init(tp_cli *c, const char *prog, const struct option *opts,
		 const char *shortopts, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	c->prog = prog;
	c->opts = opts;
	c->argc = argc;
	c->argv = argv;
	while (opts[c->nopts].name && c->nopts < TP_CLI_MAX_OPTS)
		c->nopts++;
	/* ':' first (after a '+'): a missing value is told apart from an
	 * unknown option */
	bool plus = shortopts && shortopts[0] == '+';
	snprintf(c->shortopts, sizeof(c->shortopts), "%s:%s", plus ? "+" : "",
		 shortopts ? shortopts + plus : "");
	optind = 0; /* glibc: a full reset, whatever was parsed before */
	opterr = 0;
}

int tp_cli_fail(tp_cli *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	return TP_CLI_ERROR;
}

bool tp_cli_looks_like_option(const char *s)
{
	return s[0] == '-' && s[1] &&
	       !isdigit((unsigned char)s[1]) && s[1] != '.';
}

/* Levenshtein distance, capped: names are short. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 64;
	size_t row[64], prev;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t sub = prev + (a[i - 1] != b[j - 1]);
			size_t del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins)
					   : (del < ins ? del : ins);
			prev = cur;
		}
	}
	return row[lb];
}

const char *tp_cli_nearest(const char *s, const char *const *names)
{
	size_t limit = strlen(s) / 3, best = (size_t)-1;
	const char *which = NULL;
	if (limit < 2)
		limit = 2;
	/* the start of exactly one name */
	size_t n = strlen(s), starts = 0;
	for (const char *const *p = names; *p && n; p++)
		if (!strncmp(*p, s, n) && ++starts)
			which = *p;
	if (starts == 1)
		return which;
	which = NULL;
	for (; *names; names++) {
		size_t d = distance(s, *names);
		if (d <= limit && d < best) {
			best = d;
			which = *names;
		}
	}
	return which;
}

/* Appends to c->msg, as far as it goes. */
static void add(tp_cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(tp_cli *c, const char *fmt, ...)
{
	size_t used = strlen(c->msg);
	if (used + 1 >= sizeof(c->msg))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->msg + used, sizeof(c->msg) - used, fmt, ap);
	va_end(ap);
}

int tp_cli_choice(tp_cli *c, const char *opt, const char *value,
		  const char *const *names, const char *what)
{
	for (const char *const *n = names; *n; n++)
		if (!strcmp(*n, value))
			return 0;
	const char *near = tp_cli_nearest(value, names);
	tp_cli_fail(c, "%s%sunknown %s '%s'", opt ? opt : "", opt ? ": " : "",
		    what, value);
	if (near)
		add(c, " (did you mean %s?)", near);
	add(c, "; valid:");
	for (const char *const *n = names; *n; n++)
		add(c, "%s %s", n == names ? "" : ",", *n);
	return TP_CLI_ERROR;
}

/* The option table's entry for getopt_long's answer. */
static int index_of(const tp_cli *c, int val, int longindex)
{
	if (longindex >= 0 && (size_t)longindex < c->nopts)
		return longindex;
	for (size_t i = 0; i < c->nopts; i++)
		if (c->opts[i].val == val && !c->opts[i].flag)
			return (int)i;
	return -1;
}

/* "--name" as the user wrote it, up to any "=value". */
static void written(const char *arg, char *buf, size_t len)
{
	size_t n = strcspn(arg, "=");
	snprintf(buf, len, "%.*s", (int)n, arg);
}

/* An unknown option: the nearest long option, then all of them. */
static int unknown(tp_cli *c, const char *arg)
{
	char name[128];
	const char *names[TP_CLI_MAX_OPTS + 1];
	written(arg, name, sizeof(name));
	for (size_t i = 0; i < c->nopts; i++)
		names[i] = c->opts[i].name;
	names[c->nopts] = NULL;
	const char *bare = name + strspn(name, "-");
	size_t matches = 0;
	for (size_t i = 0; i < c->nopts; i++)
		matches += *bare && !strncmp(names[i], bare, strlen(bare));
	if (matches > 1) {
		tp_cli_fail(c, "ambiguous option '%s':", name);
		for (size_t i = 0, k = 0; i < c->nopts; i++)
			if (!strncmp(names[i], bare, strlen(bare)))
				add(c, "%s --%s", k++ ? "," : "", names[i]);
		add(c, " begin with it");
		return TP_CLI_ERROR;
	}
	tp_cli_fail(c, "unknown option '%s'", name);
	const char *near = tp_cli_nearest(bare, names);
	if (near)
		add(c, " (did you mean --%s?)", near);
	add(c, "; valid:");
	for (size_t i = 0; i < c->nopts; i++)
		add(c, "%s --%s", i ? "," : "", names[i]);
	return TP_CLI_ERROR;
}

/* getopt_long's '?': an unknown option, or a flag given a value. */
static int refused(tp_cli *c)
{
	const char *arg = c->argv[optind - 1];
	if (optopt && !strncmp(arg, "--", 2)) {
		char name[128];
		written(arg, name, sizeof(name));
		return tp_cli_fail(c, "option '%s' takes no value", name);
	}
	if (optopt) {
		char name[3] = { '-', (char)optopt, 0 };
		return unknown(c, name);
	}
	return unknown(c, arg);
}

int tp_cli_next(tp_cli *c, const char **arg)
{
	int longindex = -1;
	*arg = NULL;
	int o = getopt_long(c->argc, c->argv, c->shortopts, c->opts, &longindex);
	if (o == -1)
		return -1;
	if (o == '?')
		return refused(c);
	if (o == ':') {
		int i = index_of(c, optopt, -1);
		return tp_cli_fail(c, "option '--%s' needs a value",
				   i >= 0 ? c->opts[i].name : "?");
	}
	int i = index_of(c, o, longindex);
	if (i < 0)
		return tp_cli_fail(c, "internal: option %d not in the table", o);
	const char *value = optarg;
	char name[128];
	/* A value in a word of its own that is an option: the option's own
	 * value was left out.  (--opt=VALUE passes any value.) */
	if (value && value == c->argv[optind - 1] &&
	    tp_cli_looks_like_option(value)) {
		snprintf(name, sizeof(name), "--%s", c->opts[i].name);
		return tp_cli_fail(c, "%s needs a value, but '%s' follows it, which is an option "
				   "(for a value that begins with '-', write %s=%s)",
				   name, value, name, value);
	}
	if (c->seen[i]) {
		snprintf(name, sizeof(name), "--%s", c->opts[i].name);
		if (value)
			return tp_cli_fail(c, "%s given twice ('%s', then '%s'): give it once",
					   name, c->given[i], value);
		return tp_cli_fail(c, "%s given twice: give it once", name);
	}
	c->seen[i] = true;
	c->given[i] = value;
	*arg = value;
	return o;
}

int tp_cli_operands(const tp_cli *c)
{
	return optind;
}

int tp_cli_usage_error(const char *prog, const char *msg)
{
	fprintf(stderr, "%s: %s\nTry '%s --help'.\n", prog, msg, prog);
	return 2;
}

int tp_cli_version(const char *prog)
{
	printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
	return 0;
}
