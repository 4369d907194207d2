/* no_jobs.c - see no_jobs.h. */
#include "no_jobs.h"

#include <stdio.h>
#include <string.h>

/* Appends ", N WHAT" to buf when n > 0. */
static void count(char *buf, size_t len, size_t n, const char *what)
{
	size_t used = strlen(buf);
	if (n && used < len)
		snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : "", n,
			 what);
}

/* What the readers skipped, in one list ("" if nothing). */
static void skips(const tp_workload *w, const tp_sacct *s, char *buf,
		  size_t len)
{
	const tp_workload_skips *k = &w->skipped;
	buf[0] = '\0';
	if (s) {
		count(buf, len, s->skipped.steps, "job step(s)");
		count(buf, len, s->skipped.other_partition, "of other partitions");
		count(buf, len, s->skipped.not_started, "never started");
		count(buf, len, s->skipped.unknown_time, "with unknown submit time");
		count(buf, len, s->skipped.unfinished, "unfinished");
	}
	count(buf, len, k->runtime, "with run time <= 0");
	count(buf, len, k->size, "without a size");
	count(buf, len, k->too_big, "larger than the machine");
	count(buf, len, k->malformed, "malformed");
}

int sim_check_jobs(const sim_config *c, const tp_workload *w,
		   const tp_sacct *s, tp_error *err)
{
	char why[256];
	if (w->njobs || c->allow_empty)
		return 0;
	skips(w, s, why, sizeof(why));
	if (s && c->partition && s->skipped.other_partition)
		return tp_errorf(err, "%s: no job of partition '%s' to replay (the partitions there: %s; skipped: %s); --allow-empty makes it an empty result",
				 c->workload, c->partition, s->skipped.partitions,
				 why);
	if (why[0])
		return tp_errorf(err, "%s: no job to replay: every record was skipped (%s); --allow-empty makes it an empty result",
				 c->workload, why);
	return tp_errorf(err, "%s: no job to replay: the file holds no job record; --allow-empty makes it an empty result",
			 c->workload);
}
