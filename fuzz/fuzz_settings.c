/*
 * fuzz_settings.c - SchedulerParameters as sched/topo (topo_*) and the
 * torus plugins (torus_*) read it (settings/settings.h), over the
 * defaults and over non-default previous values.  Whatever the string,
 * the result is within every range (tp_settings_check), and its own
 * formatted form (tp_settings_format) reads back with no problem into
 * the same settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings/settings.h"
#include "fuzz_util.h"

static void count(void *arg, const char *msg)
{
	if (!msg[0])
		fuzz_fail("an empty problem report");
	(*(int *)arg)++;
}

static void parse_in(const char *params, unsigned scope, const tp_settings *prev)
{
	tp_settings s;
	int reported = 0;
	int problems = tp_settings_parse_params(&s, prev, params, scope, count,
						&reported);
	if (problems != reported)
		fuzz_fail("%d problems, %d reported", problems, reported);
	tp_error err = { "" };
	if (tp_settings_check(&s, scope, &err))
		fuzz_fail("'%s' read out of range: %s", params, err.msg);
	char text[8192], again[8192];
	tp_settings_format(&s, scope, text, sizeof(text));
	tp_settings back;
	reported = 0;
	if (tp_settings_parse_params(&back, NULL, text, scope, count, &reported))
		fuzz_fail("the formatted settings '%s' do not read back", text);
	tp_settings_format(&back, scope, again, sizeof(again));
	if (strcmp(text, again))
		fuzz_fail("formatted twice differs: '%s' and '%s'", text, again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *params = fuzz_str(data, size);
	tp_settings prev;
	tp_settings_default(&prev, true);
	static const unsigned scopes[] = { TP_SCOPE_SCHED, TP_SCOPE_TORUS };
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		parse_in(params, scopes[i], NULL);
		/* a reconfigure: bad values keep the previous ones */
		tp_settings changed = prev;
		snprintf(changed.policy, sizeof(changed.policy), "fcfs");
		changed.period = 7;
		parse_in(params, scopes[i], &changed);
	}
	free(params);
	return 0;
}
