/*
 * fuzz_toposim_args.c - toposim's command line (src/sim/args.c): the
 * input, split at NUL bytes and line breaks, is argv[1..] (at most 64
 * words).  Whatever the words, the parser returns (it never exits or
 * crashes); a usage error comes with a message; a command line it takes
 * has what a run needs (a workload or --machine, a policy, the outputs
 * of its mode), and the same words parsed again give the same verdict
 * (getopt_long's state is reset between command lines).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "args.h"
#include "fuzz_util.h"

#define MAX_WORDS 64

/* The words of data (empty ones dropped), as a NULL-terminated argv with
 * "toposim" first; malloc'd, one block. */
static char **words(const uint8_t *data, size_t size, int *argc)
{
	char **argv = malloc((MAX_WORDS + 2) * sizeof(char *) + size + 1);
	char *text = (char *)(argv + MAX_WORDS + 2);
	memcpy(text, data, size);
	text[size] = '\0';
	int n = 0;
	argv[n++] = "toposim";
	for (size_t i = 0; i < size && n <= MAX_WORDS;) {
		size_t len = 0;
		while (i + len < size && text[i + len] && text[i + len] != '\n')
			len++;
		text[i + len] = '\0';
		if (len)
			argv[n++] = text + i;
		i += len + 1;
	}
	argv[n] = NULL;
	*argc = n;
	return argv;
}

static void check_run(const sim_config *c)
{
	if (!c->policy_given)
		fuzz_fail("a run without --policy");
	if (c->machine) {
		if (!c->het_jobs || !c->truth || c->het_algo < 0)
			fuzz_fail("--machine without --het-jobs, --truth or a heterogeneous policy");
		return;
	}
	if (!c->workload || !c->jobs_csv || !c->summary_json)
		fuzz_fail("a run without a workload, --jobs-csv or --summary-json");
	if (c->het_algo >= 0)
		fuzz_fail("a cluster run with the heterogeneous policy %s",
			  c->set.policy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int argc;
	char **argv = words(data, size, &argc);
	sim_config c;
	char msg[2048] = "";
	/* warnings about settings the policy ignores: not the point here */
	fflush(stderr);
	int keep = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	dup2(null, STDERR_FILENO);
	sim_args_verdict v = sim_parse_args(&c, argc, argv, msg, sizeof(msg));
	if (v == SIM_ARGS_RUN)
		sim_windows_fini(&c.windows);
	char again[2048] = "";
	sim_args_verdict w = sim_parse_args(&c, argc, argv, again, sizeof(again));
	fflush(stderr);
	dup2(keep, STDERR_FILENO);
	close(keep);
	close(null);
	if (v != w || strcmp(msg, again))
		fuzz_fail("the same words parsed twice: verdicts %d and %d ('%s', '%s')",
			  v, w, msg, again);
	if (v == SIM_ARGS_USAGE && !msg[0])
		fuzz_fail("a usage error without a message");
	if (v != SIM_ARGS_USAGE && msg[0])
		fuzz_fail("a message without a usage error: %s", msg);
	if (v == SIM_ARGS_RUN)
		check_run(&c);
	if (w == SIM_ARGS_RUN)
		sim_windows_fini(&c.windows);
	free(argv);
	return 0;
}
