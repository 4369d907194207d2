/* st_stats.c - sched/topo's counters; see st_stats.h. */
#include "st_stats.h"

#include <stdbool.h>
#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

void st_stats_init(st_stats *s, int64_t now)
{
	memset(s, 0, sizeof(*s));
	s->since = now;
}

void st_stats_cycle(st_stats *s, uint64_t us, int64_t now)
{
	s->cycles++;
	s->last_us = us;
	s->sum_us += us;
	if (us > s->max_us)
		s->max_us = us;
	s->last_cycle_at = now;
}

void st_stats_started(st_stats *s, const char *policy, int fill)
{
	const char *const *names = tp_policy_names();
	s->started++;
	if (fill)
		s->started_fill++;
	for (size_t i = 0; names[i] && i < ST_STATS_MAX_POLICIES; i++)
		if (!strcmp(names[i], policy))
			s->started_by[i]++;
}

uint64_t st_stats_mean_us(const st_stats *s)
{
	return s->cycles ? s->sum_us / s->cycles : 0;
}

void st_stats_line(const st_stats *s, char *buf, size_t len)
{
	snprintf(buf, len,
		 "cycles=%" PRIu64 " last_us=%" PRIu64 " mean_us=%" PRIu64
		 " max_us=%" PRIu64 " pending=%" PRIu32 " queued=%" PRIu32
		 " running=%" PRIu32 " started=%" PRIu64 " (fill %" PRIu64
		 ", %s) at_submit=%" PRIu64 " preempting=%" PRIu64 " start_failed=%" PRIu64
		 " held_never=%" PRIu64 " mismatches=%" PRIu64 " ext_granted=%" PRIu64
		 " ext_denied=%" PRIu64 " requeued=%" PRIu64,
		 s->cycles, s->last_us, st_stats_mean_us(s), s->max_us,
		 s->last_pending, s->last_queued, s->last_running, s->started,
		 s->started_fill, s->policy, s->started_at_submit, s->started_preempting,
		 s->start_failed, s->held_never, s->mismatches, s->ext_granted,
		 s->ext_denied, s->requeued);
}

void st_stats_format(const st_stats *s, char *buf, size_t len)
{
	size_t u = (size_t)snprintf(buf, len,
		"format=%d\n"
		"since=%" PRId64 "\n"
		"last_cycle_at=%" PRId64 "\n"
		"policy=%s\n"
		"cycles=%" PRIu64 "\n"
		"last_cycle_us=%" PRIu64 "\n"
		"mean_cycle_us=%" PRIu64 "\n"
		"max_cycle_us=%" PRIu64 "\n"
		"sum_cycle_us=%" PRIu64 "\n"
		"last_pending=%" PRIu32 "\n"
		"last_queued=%" PRIu32 "\n"
		"last_running=%" PRIu32 "\n"
		"last_started=%" PRIu32 "\n"
		"started=%" PRIu64 "\n"
		"started_fill=%" PRIu64 "\n"
		"started_at_submit=%" PRIu64 "\n"
		"started_preempting=%" PRIu64 "\n"
		"start_failed=%" PRIu64 "\n"
		"held_never=%" PRIu64 "\n"
		"mismatches=%" PRIu64 "\n"
		"ext_granted=%" PRIu64 "\n"
		"ext_denied=%" PRIu64 "\n"
		"requeued=%" PRIu64 "\n",
		ST_STATS_FORMAT, s->since, s->last_cycle_at, s->policy, s->cycles, s->last_us,
		st_stats_mean_us(s), s->max_us, s->sum_us, s->last_pending,
		s->last_queued, s->last_running, s->last_started, s->started,
		s->started_fill, s->started_at_submit, s->started_preempting,
		s->start_failed, s->held_never, s->mismatches, s->ext_granted,
		s->ext_denied, s->requeued);
	const char *const *names = tp_policy_names();
	for (size_t i = 0; names[i] && i < ST_STATS_MAX_POLICIES && u < len; i++)
		u += (size_t)snprintf(buf + u, len - u, "started_%s=%" PRIu64 "\n",
				      names[i], s->started_by[i]);
}

int st_stats_write(const st_stats *s, const char *path, tp_error *err)
{
	char text[2048], tmp[4096];
	st_stats_format(s, text, sizeof(text));
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return tp_errorf(err, "%s: path too long", path);
	FILE *fp = fopen(tmp, "w");
	if (!fp)
		return tp_errorf(err, "%s: cannot write: %s", tmp, strerror(errno));
	fputs(text, fp);
	int bad = ferror(fp);
	if (fclose(fp) || bad) {
		remove(tmp);
		return tp_errorf(err, "%s: write failed", tmp);
	}
	if (rename(tmp, path)) {
		int e = errno;
		remove(tmp);
		return tp_errorf(err, "%s: cannot rename to %s: %s", tmp, path,
				 strerror(e));
	}
	return 0;
}

/* ---- reading a file of before (start-up) ------------------------- */

/* The keys st_stats_format writes, but started_<policy>: every one a
 * whole number but policy. */
static const char *const known_keys[] = {
	"since", "last_cycle_at", "cycles", "last_cycle_us",
	"mean_cycle_us", "max_cycle_us", "sum_cycle_us", "last_pending",
	"last_queued", "last_running", "last_started", "started",
	"started_fill", "started_at_submit", "started_preempting",
	"start_failed", "held_never", "mismatches", "ext_granted",
	"ext_denied", "requeued", NULL
};

static bool known_key(const char *k)
{
	for (size_t i = 0; known_keys[i]; i++)
		if (!strcmp(k, known_keys[i]))
			return true;
	const char *const *names = tp_policy_names();
	for (size_t i = 0; names[i]; i++)
		if (!strncmp(k, "started_", 8) && !strcmp(k + 8, names[i]))
			return true;
	return false;
}

static bool whole(const char *v, uint64_t *out)
{
	char *end;
	if (!*v || *v == '-' || *v == ' ')
		return false;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end)
		return false;
	*out = x;
	return true;
}

/* One "key=value" line (without its newline) into s; NULL or why not. */
static const char *read_pair(st_stats *s, char *line, int lineno)
{
	char *eq = strchr(line, '=');
	if (!eq)
		return "not 'key=value'";
	*eq = '\0';
	const char *k = line, *v = eq + 1;
	uint64_t x;
	if (!strcmp(k, "format")) {
		if (lineno != 1)
			return "format= not on the first line";
		if (!whole(v, &x) || x != ST_STATS_FORMAT)
			return "unsupported format (this reads format=1)";
		return NULL;
	}
	if (!strcmp(k, "policy")) {
		snprintf(s->policy, sizeof(s->policy), "%s", v);
		return NULL;
	}
	if (!known_key(k))
		return "unknown key";
	if (!whole(v, &x))
		return "not a whole number";
	if (!strcmp(k, "since"))
		s->since = (int64_t)x;
	else if (!strcmp(k, "cycles"))
		s->cycles = x;
	else if (!strcmp(k, "started"))
		s->started = x;
	return NULL;
}

int st_stats_read(st_stats *s, const char *path, tp_error *err)
{
	memset(s, 0, sizeof(*s));
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		return tp_errorf(err, "%s: cannot read: %s", path, strerror(errno));
	}
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 1;
	bool saw_cycles = false;
	while (rc > 0 && (len = getline(&buf, &cap, fp)) >= 0) {
		lineno++;
		const char *why = NULL;
		if (strlen(buf) != (size_t)len)
			why = "NUL byte in line";
		else if (!len || buf[len - 1] != '\n')
			why = "last line cut short (no end of line)";
		if (!why) {
			buf[len - 1] = '\0';
			char copy[128];
			snprintf(copy, sizeof(copy), "%s", buf);
			why = read_pair(s, buf, lineno);
			saw_cycles |= !why && !strncmp(copy, "cycles=", 7);
			if (why)
				rc = tp_errorf(err, "%s:%d: %s: '%.80s'", path,
					       lineno, why, copy);
		} else {
			rc = tp_errorf(err, "%s:%d: %s", path, lineno, why);
		}
	}
	fclose(fp);
	free(buf);
	if (rc > 0 && !lineno)
		rc = tp_errorf(err, "%s: empty file", path);
	else if (rc > 0 && !saw_cycles)
		rc = tp_errorf(err, "%s: no 'cycles=' line: not a whole statistics file",
			       path);
	return rc;
}
